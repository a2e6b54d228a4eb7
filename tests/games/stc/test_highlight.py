"""What a turn did, recorded for the viewer: the pair's cells and each chain step's clears.

The record never changes a result: the same turn gives the same grid, points and steps."""

from __future__ import annotations

import random

from arena_games.stc.game import StcGame
from arena_games.stc.protocol import grid_from_rows as g
from arena_games.stc.rules import (
    ChainStep,
    StcState,
    apply_turn,
    legal_actions,
    placed_cells,
    play_pair,
)


def test_a_three_step_chain_is_recorded_step_by_step() -> None:
    # The 3-step chain of test_rules (1000 points): the pair 1 2 stood up in column 0 lands
    # on (0, 3) and (0, 4); step 1 clears column 0's four 1s, step 2 the 2 that fell to the
    # floor with column 1's three 2s, step 3 the 3 that fell in column 1 with column 2's 3s.
    grid = g([".3....", "123...", "123...", "123..."])
    state = StcState(pairs=((1, 2),) * 9, max_turns=200, grids=(grid, grid))
    after = apply_turn(state, {0: (0, 1), 1: (0, 1)})
    trace = after.last_trace[0]
    assert trace.placed == ((0, 3), (0, 4))
    assert [step.cleared for step in trace.chain] == [
        ((0, 0), (0, 1), (0, 2), (0, 3)),
        ((0, 0), (1, 0), (1, 1), (1, 2)),
        ((1, 0), (2, 0), (2, 1), (2, 2)),
    ]
    assert trace.chain[0].grid == ("11112", "2223", "333", "", "", "")
    assert trace.chain[1].grid == ("2", "2223", "333", "", "", "")
    assert after.last_steps == (3, 3) and after.last_points == (1000, 1000)

    # The view: rows counted from the top; blocks A and B with their colours.
    marks = StcGame().view(after)["highlight"]
    assert marks[0] == {"kind": "placed", "seat": 0, "cells": [[0, 8], [0, 7]], "colors": [1, 2]}
    cleared = [m for m in marks if m["kind"] == "cleared" and m["seat"] == 0]
    assert [m["chain"] for m in cleared] == [1, 2, 3]
    assert cleared[2]["cells"] == [[1, 11], [2, 11], [2, 10], [2, 9]]


def test_placed_cells_are_block_a_then_block_b() -> None:
    grid = g(["1....."])
    assert placed_cells(grid, (0, 1)) == ((0, 1), (0, 2))  # B on top of A
    assert placed_cells(grid, (0, 3)) == ((0, 2), (0, 1))  # A on top of B
    assert placed_cells(grid, (1, 2)) == ((1, 0), (0, 1))  # B left of A, on the 1


def test_a_seat_that_cannot_place_has_nothing_marked() -> None:
    eleven = ("34" * 6)[:11]
    state = StcState(pairs=((1, 2),) * 9, max_turns=200, grids=((eleven,) + ("",) * 5,) * 2)
    after = apply_turn(state, {0: (0, 1), 1: (1, 1)})
    assert after.last_trace[0].placed == () and after.last_trace[0].chain == ()
    assert after.last_trace[1].placed == ((1, 0), (1, 1))
    assert StcGame().view(after)["highlight"] == [
        {"kind": "placed", "seat": 1, "cells": [[1, 11], [1, 10]], "colors": [1, 2]}
    ]


def test_a_seat_that_forfeits_has_nothing_marked() -> None:
    game = StcGame()
    state = apply_turn(game.start(3, 2, {}), {0: (0, 1), 1: (0, 1)})
    gone = game.eliminate(state, 0)
    assert gone.last_trace[0].placed == () and gone.last_trace[1] == state.last_trace[1]


def test_recording_the_chain_changes_no_result() -> None:
    rng = random.Random(7)
    game = StcGame()
    state = game.start(11, 2, {"max_turns": 200})
    chains = 0
    while not state.over:
        moves = {s: rng.choice(legal_actions(state.grids[s]) or [(0, 1)]) for s in (0, 1)}
        for s in (0, 1):
            pair = state.pairs[state.turn]
            trace: list[ChainStep] = []
            assert play_pair(state.grids[s], pair, moves[s], trace) == play_pair(
                state.grids[s], pair, moves[s]
            )
            chains += len(trace)
        state = apply_turn(state, moves)
    assert chains > 0
