"""The last move, kept in the state for the viewer; what bots are sent does not change."""

from __future__ import annotations

import random
from dataclasses import replace

from arena_games.chess5 import rules, state_json
from arena_games.chess5.game import Chess5Game
from arena_games.chess5.rules import BLACK, WHITE, Action, board_from_rows


def test_a_move_is_highlighted_from_and_to_for_the_side_that_played_it() -> None:
    board = board_from_rows(["K....", ".....", "..R..", ".....", "....k"])
    after = rules.apply(rules.play_position(board, WHITE), Action((2, 4), (2, 2)))
    assert after.last == ((2, 2), (2, 4))
    assert Chess5Game().view(after)["highlight"] == [
        {"kind": "move", "seat": WHITE, "cells": [[2, 2], [2, 4]]}
    ]
    again = rules.apply(after, Action((3, 4), (4, 4)))
    assert Chess5Game().view(again)["highlight"][0]["seat"] == BLACK


def test_setup_marks_the_square_placed_on_and_the_seat_that_placed() -> None:
    game = Chess5Game()
    state = game.start(3, 2, {})
    assert game.view(state)["highlight"] == []
    rng = random.Random(1)
    seats = []
    while state.in_setup:
        seat = state.to_move
        action = rng.choice(rules.legal_actions(state))
        state = rules.apply(state, action)
        (mark,) = game.view(state)["highlight"]
        assert mark == {"kind": "placed", "seat": seat, "cells": [list(action.to)]}
        seats.append(seat)
    assert seats == [color for color, _ in rules.SETUP_ORDER]


def test_a_forfeit_marks_nothing() -> None:
    board = board_from_rows(["K....", ".....", "..R..", ".....", "....k"])
    after = rules.apply(rules.play_position(board, WHITE), Action((2, 4), (2, 2)))
    assert Chess5Game().view(rules.forfeit(after, BLACK))["highlight"] == []


def test_state_json_does_not_carry_the_last_move() -> None:
    # Byte for byte what the bots are sent, with or without the move recorded.
    rng = random.Random(5)
    game = Chess5Game()
    state = game.start(9, 2, {})
    for _ in range(40):
        if state.over:
            break
        state = rules.apply(state, rng.choice(rules.legal_actions(state, with_abilities=True)))
        for color in (WHITE, BLACK):
            bare = replace(state, last=())
            assert state_json.state_text(state, color) == state_json.state_text(bare, color)
