"""The winning line: the cells of the line that won, for the viewer's highlight."""

from __future__ import annotations

from dataclasses import replace

from arena_games.cluster import rules
from arena_games.cluster.game import ClusterGame
from arena_games.cluster.rules import Drop, Rotate, Settings, State

DEFAULT = Settings.from_mapping({})
# Player 1's chips (colour 2) that a rotation to gravity 2 slides into four in a row
# (test_rules' P1_SLIDE), and one chip of player 0 that slides beside them.
P1_SLIDE = {(5, 0, -5): 2, (0, 1, -1): 2, (-2, 2, 0): 2, (-4, 3, 1): 2}


def playing(drawn: tuple[int, int] = (0, 1)) -> State:
    state = rules.choose_colors(rules.new_game(7, DEFAULT), {0: 1, 1: 4})
    return replace(state, drawn=drawn)


def with_chips(state: State, chips: dict[tuple[int, int, int], int]) -> State:
    board = list(state.board)
    for cell, chip in chips.items():
        board[state.grid.index[cell]] = chip
    return replace(state, board=tuple(board))


def cells(state: State, line: tuple[int, ...]) -> set[tuple[int, int, int]]:
    return {state.grid.cells[i] for i in line}


def test_the_drop_that_completes_four_is_part_of_the_line() -> None:
    state = with_chips(playing(), {(0, 5, -5): 0, (1, 4, -5): 0, (2, 3, -5): 0})
    landed = state.grid.cells[rules.drop_target(state, 3)]
    won = rules.apply_action(state, Drop(3, 0))
    assert won.winner == 0
    line = rules.winning_line(won)
    assert cells(won, line) == {(0, 5, -5), (1, 4, -5), (2, 3, -5), landed}
    view = ClusterGame().view(won)
    assert view["highlight"] == [
        {"kind": "line", "seat": 0, "cells": [list(won.grid.cells[i]) for i in line]}
    ]


def test_a_rotation_wins_with_the_line_it_made_not_the_movers_chips() -> None:
    state = with_chips(playing(), {**P1_SLIDE, (-5, 0, 5): 0})
    after = rules.apply_action(state, Rotate(2))
    assert after.winner == 1
    line = cells(after, rules.winning_line(after))
    theirs = {cell for cell, chip in zip(after.grid.cells, after.board, strict=True) if chip == 2}
    assert line == theirs and len(line) == 4


def test_no_line_while_playing_nor_after_a_win_without_one() -> None:
    state = with_chips(playing(), {(0, 5, -5): 0, (1, 4, -5): 0})
    assert rules.winning_line(state) == ()
    assert ClusterGame().view(state)["highlight"] == []
    assert rules.winning_line(rules.forfeit(state, 0)) == ()
