"""Smash The Code rules, each case worked out by hand in its comments.

Grids are drawn top to bottom as on the wire, only the lowest rows; ``g(...)`` reads them.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from arena_games.stc.protocol import grid_from_rows as g
from arena_games.stc.rules import (
    EMPTY_GRID,
    Grid,
    StcState,
    apply_turn,
    group_bonus,
    legal_actions,
    new_game,
    nuisance,
    play_pair,
    ranks,
    settle,
    step_points,
)


def play(grid: Grid, pair: tuple[int, int], x: int, rotation: int) -> tuple[Grid, int, int]:
    """Play one pair that must fit; (grid after the chain, points, steps)."""
    result = play_pair(grid, pair, (x, rotation))
    assert result is not None
    return result


# --- placing ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("x", "rotation", "rows"),
    [
        # Pair A=1, B=2 dropped in an empty grid.
        (2, 0, ["..12.."]),  # 0: B right of A
        (2, 1, ["..2...", "..1..."]),  # 1: B on top of A
        (2, 2, [".21..."]),  # 2: B left of A
        (2, 3, ["..1...", "..2..."]),  # 3: A on top of B
        (0, 0, ["12...."]),
        (5, 2, ["....21"]),
    ],
)
def test_rotations_place_blocks(x: int, rotation: int, rows: list[str]) -> None:
    assert play(EMPTY_GRID, (1, 2), x, rotation) == (g(rows), 0, 0)


def test_horizontal_blocks_fall_separately() -> None:
    # A=1 lands on top of the 3-high column 0, B=2 on the floor of column 1.
    grid = g(["3.....", "4.....", "3....."])
    assert play(grid, (1, 2), 0, 0)[0] == g(["1.....", "3.....", "4.....", "32...."])


def test_vertical_pair_needs_two_free_cells() -> None:
    # Column 0 holds 11 blocks: one free cell. A vertical pair does not fit, a
    # horizontal one still does (one free cell in each of columns 0 and 1).
    eleven = ("34" * 6)[:11]
    grid = (eleven, eleven, "", "", "", "")
    assert play_pair(grid, (1, 2), (0, 1)) is None
    assert play_pair(grid, (1, 2), (0, 3)) is None
    after = play(grid, (1, 2), 0, 0)[0]
    assert after[0] == eleven + "1" and after[1] == eleven + "2"
    assert (0, 1) not in legal_actions(grid) and (0, 0) in legal_actions(grid)


def test_full_column_does_not_fit() -> None:
    full = "34" * 6
    grid = (full, "", "", "", "", "")
    assert play_pair(grid, (1, 2), (0, 0)) is None  # A into the full column
    assert play_pair(grid, (1, 2), (1, 2)) is None  # B into the full column
    assert play_pair(grid, (1, 2), (1, 0)) is not None
    assert all(0 not in (x, x + (rot == 0) - (rot == 2)) for x, rot in legal_actions(grid))


# --- scoring terms ---------------------------------------------------------------------


def test_group_bonus_table() -> None:
    # 0 for 4, size - 4 for 5..10, 8 from 11 up (not 7 for 11, not 9 for 13).
    assert [group_bonus(n) for n in range(4, 14)] == [0, 1, 2, 3, 4, 5, 6, 8, 8, 8]


def test_step_points_terms() -> None:
    # One group of 4, first step: CP + CB + GB = 0, clamped to 1: 10 * 4 * 1.
    assert step_points([("1", 4)], 0) == 40
    # Chain power 8 (second step): 10 * 4 * 8.
    assert step_points([("1", 4)], 8) == 320
    # Two colours: CB 2, B 8: 10 * 8 * 2.
    assert step_points([("1", 4), ("2", 4)], 0) == 160
    # Two groups of one colour: CB 0, GB 0 + 0, clamp 1: 10 * 8 * 1.
    assert step_points([("1", 4), ("1", 4)], 0) == 80
    # CB by colour count 3, 4, 5: 4, 8, 16.
    assert step_points([("1", 4), ("2", 4), ("3", 4)], 0) == 10 * 12 * 4
    assert step_points([(c, 4) for c in "1234"], 0) == 10 * 16 * 8
    assert step_points([(c, 4) for c in "12345"], 0) == 10 * 20 * 16
    # GB summed over groups: 5 -> 1, 6 -> 2; with CP 16 and CB 2: 10 * 11 * 21.
    assert step_points([("1", 5), ("2", 6)], 16) == 2310
    # The clamp at 999: CP 1024 -> 999.
    assert step_points([("1", 4)], 1024) == 10 * 4 * 999


def test_single_group_scores_clamped_minimum() -> None:
    # Column 0 holds 1 1 1; A=1 lands on them (4 ones), B=2 above falls to the floor.
    # One step, B=4, CP 0 + CB 0 + GB 0 = 0 -> clamped to 1: 10 * 4 * 1 = 40.
    grid = g(["1.....", "1.....", "1....."])
    assert play(grid, (1, 2), 0, 1) == (g(["2....."]), 40, 1)


def test_group_of_five_bonus() -> None:
    # Column 0: 1 1 1, column 1: 1 on the floor. Pair 1/1 vertical on column 0 makes
    # 5 ones in column 0 plus the one in column 1: a group of 6, GB 2: 10 * 6 * 2 = 120.
    grid = g(["1.....", "1.....", "11...."])
    assert play(grid, (1, 1), 0, 1) == (EMPTY_GRID, 120, 1)
    # Without column 1's block: a group of 5, GB 1: 10 * 5 * 1 = 50.
    grid = g(["1.....", "1.....", "1....."])
    assert play(grid, (1, 1), 0, 1) == (EMPTY_GRID, 50, 1)


def test_colour_bonus_two_groups_one_step() -> None:
    # Column 0: 1 1 1, column 1: 2 2 2. Pair A=1, B=2 rotation 0 at x=0 completes both
    # in the same step: B = 8, CB = 2 (two colours), GB 0: 10 * 8 * 2 = 160. (Cleared one
    # after the other as two steps it would be 40 + 10 * 4 * 8 = 360.)
    grid = g(["12....", "12....", "12...."])
    assert play(grid, (1, 2), 0, 0) == (EMPTY_GRID, 160, 1)


def test_group_of_eleven_bonus_is_8() -> None:
    # A=1 lands at (2,2), B=1 at (2,3) (columns from the left, rows from the floor).
    # They join three groups of 3 ones, none of which touch each other before:
    #   left  {(0,3), (0,4), (1,3)} through B,
    #   below {(2,0), (2,1), (3,0)} through A,
    #   right {(3,2), (4,2), (4,3)} through A.
    # 2 + 3 + 3 + 3 = 11 blocks, GB 8, CP 0, CB 0: 10 * 11 * 8 = 880.
    grid = g(
        [
            "1.....",
            "11..1.",
            "23.11.",
            "32122.",
            "23113.",
        ]
    )
    after, points, steps = play(grid, (1, 1), 2, 1)
    assert (points, steps) == (880, 1)
    # Left: column 0 keeps 2 3 2, column 1 keeps 3 2 3, column 3 keeps its 2, column 4
    # its 3 2; column 2 is empty. No new group forms.
    assert after == g(["23....", "32..2.", "23.23."])


def test_three_step_chain_total() -> None:
    # Column 0: 1 1 1; column 1: 2 2 2 3 (3 on top); column 2: 3 3 3.
    # Pair A=1, B=2 vertical (rotation 1) on column 0: A is the 4th one, B sits above.
    # Step 1: the four ones clear: 10 * 4 * clamp(0) = 40. B falls to the floor of
    #   column 0, next to column 1's 2 2 2.
    # Step 2: {B, the three 2s} clear, CP 8: 10 * 4 * 8 = 320. Column 1's 3 falls to the
    #   floor, next to column 2's 3 3 3.
    # Step 3: four 3s clear, CP 16: 10 * 4 * 16 = 640. The grid is empty.
    # Total 40 + 320 + 640 = 1000.
    grid = g([".3....", "123...", "123...", "123..."])
    assert play(grid, (1, 2), 0, 1) == (EMPTY_GRID, 1000, 3)


def test_four_step_chain_doubles_chain_power() -> None:
    # The 3-step chain above with a 4 on top of column 2 and 4 4 4 in column 3: after
    # step 3 the 4 falls to the floor of column 2 beside them. Step 4: four 4s, CP 32
    # (doubled from 16, not 16 + 8): 10 * 4 * 32 = 1280. Total 1000 + 1280 = 2280.
    grid = g([".34...", "1234..", "1234..", "1234.."])
    assert play(grid, (1, 2), 0, 1) == (EMPTY_GRID, 2280, 4)


def test_group_of_five_then_falling_block_chains() -> None:
    # Column 0: 1 1 1; column 1: 2 2 2 with a 1 on top. Pair A=1, B=2 rotation 0 at x=0:
    # A lands at (0,3) beside column 1's 1 at (1,3); B lands on it at (1,4).
    # Step 1: ones {(0,0), (0,1), (0,2), (0,3), (1,3)}: 5 blocks, GB 1: 10 * 5 * 1 = 50.
    # B falls to (1,3) onto 2 2 2. Step 2: four 2s, CP 8: 10 * 4 * 8 = 320. Total 370.
    grid = g([".1....", "12....", "12....", "12...."])
    assert play(grid, (1, 2), 0, 0) == (EMPTY_GRID, 370, 2)


def test_skulls_next_to_cleared_blocks_removed_not_counted() -> None:
    # Column 0: 1 1 1, column 1: four skulls, column 2: one skull.
    # A=1 on column 0 makes 4 ones (B=2 on top). The skulls of column 1 touch the
    # ones, so they go; column 2's skull does not touch a cleared block and stays.
    # B counts the 4 coloured blocks only: 10 * 4 * 1 = 40 (80 if skulls counted).
    grid = g([".0....", "10....", "10....", "100..."])
    assert play(grid, (1, 2), 0, 1) == (g(["2.0..."]), 40, 1)


def test_skull_above_cleared_block_removed() -> None:
    # Floor: 1 1 1 with a skull on the first 1; column 5 holds a skull.
    # A=1 at column 3, B=2 at column 4: the four ones of the floor clear with the skull
    # above (0,0). Column 5's skull touches only B (not cleared) and stays. 40 points.
    grid = g(["0.....", "111..0"])
    assert play(grid, (1, 2), 3, 0) == (g(["....20"]), 40, 1)


def test_skulls_never_form_groups() -> None:
    # Eight touching skulls and a pair elsewhere: nothing clears.
    grid = g(["00....", "00....", "00....", "00...."])
    assert play(grid, (1, 2), 3, 0) == (g(["00....", "00....", "00....", "00.12."]), 0, 0)


# --- nuisance and skull lines ------------------------------------------------------------


def test_seed_example_14_5_nuisance() -> None:
    # The statement: 14.5 nuisance points (1015 / 70) -> 2 lines of skulls at the start of
    # the next turn, 2.5 left over. (1015 cannot come from one turn, scores being
    # multiples of 10, but the arithmetic is the statement's own example.)
    owed = nuisance(1015)
    assert owed == Fraction(29, 2)
    left, grid = settle(owed, EMPTY_GRID)
    assert left == Fraction(5, 2)
    assert grid == g(["000000", "000000"])


def test_nuisance_is_exact_fraction() -> None:
    # 1000 / 70 = 100/7 (14.2857...), kept exact: 2 lines fall, 100/7 - 12 = 16/7 left.
    assert nuisance(1000) == Fraction(100, 7)
    assert settle(Fraction(100, 7), EMPTY_GRID)[0] == Fraction(16, 7)
    # Below 6 nothing falls.
    assert settle(Fraction(41, 7), EMPTY_GRID) == (Fraction(41, 7), EMPTY_GRID)


def test_skull_overflow_is_discarded() -> None:
    # Column 0 is full, column 1 has one free cell: 2 lines give column 0 nothing,
    # column 1 one skull (the second discarded), the others two each.
    full = "34" * 6
    grid = (full, full[:11], "", "", "", "5")
    after = (full, full[:11] + "0", "00", "00", "00", "500")
    assert settle(Fraction(12), grid) == (Fraction(0), after)


def test_chain_sends_skulls_next_turn_without_killing() -> None:
    # Seat 0 plays the 3-step chain of test_three_step_chain_total (1000 points) with the
    # pair 1 2; seat 1, whose columns 0 and 1 are full / nearly full, plays 1 2 vertically
    # in column 5. Seat 1 then owes 100/7: 2 lines fall before the next input: column 0
    # (full) gets none, column 1 (11 high) one, columns 2-4 two each, column 5 two on top
    # of its pair. Nobody dies, 16/7 stays owed. Seat 0 owes nothing (seat 1 scored 0).
    full = "34" * 6
    state = StcState(
        pairs=((1, 2),) * 9,
        max_turns=200,
        grids=(g([".3....", "123...", "123...", "123..."]), (full, full[:11], "", "", "", "")),
    )
    after = apply_turn(state, {0: (0, 1), 1: (5, 1)})
    assert after.scores == (1000, 0)
    assert after.last_points == (1000, 0) and after.last_steps == (3, 0)
    assert after.grids[0] == EMPTY_GRID
    assert after.grids[1] == (full, full[:11] + "0", "00", "00", "00", "1200")
    assert after.owed == (Fraction(0), Fraction(16, 7))
    assert after.dead == (False, False) and not after.over
    assert after.turn == 1


def test_owed_nuisance_accumulates_over_turns() -> None:
    # Seat 0 scores 40 per turn (4 ones): 40/70 = 4/7 each. After two turns seat 1
    # owes 8/7; no line yet. No cancellation: seat 1's own 40 adds 4/7 to seat 0's debt.
    state = StcState(
        pairs=((1, 1),) * 10,
        max_turns=200,
        grids=(g(["1.....", "1....."]), g(["1.....", "1....."])),
    )
    after = apply_turn(state, {0: (0, 1), 1: (0, 1)})
    assert after.owed == (Fraction(4, 7), Fraction(4, 7))
    after = replace(after, grids=(g(["1.....", "1....."]), EMPTY_GRID))
    after = apply_turn(after, {0: (0, 1), 1: (3, 1)})
    assert after.scores == (80, 40)
    assert after.owed == (Fraction(4, 7), Fraction(8, 7))


# --- the end ----------------------------------------------------------------------------


def test_one_player_cannot_place() -> None:
    eleven = ("34" * 6)[:11]
    state = StcState(pairs=((1, 2),) * 9, max_turns=200, grids=((eleven,) + ("",) * 5, EMPTY_GRID))
    after = apply_turn(state, {0: (0, 1), 1: (0, 1)})
    assert after.dead == (True, False) and after.over
    assert ranks(after) == (1, 0)
    # Seat 1's pair was still played.
    assert after.grids[1] == g(["2.....", "1....."])


def test_both_die_same_turn_is_a_draw() -> None:
    full = "34" * 6
    state = StcState(
        pairs=((1, 2),) * 9,
        max_turns=200,
        grids=((full,) + ("",) * 5, ("",) * 5 + (full,)),
        scores=(500, 0),
    )
    after = apply_turn(state, {0: (0, 0), 1: (4, 0)})
    assert after.dead == (True, True)
    assert ranks(after) == (0, 0)  # a draw even with seat 0 ahead on score


def test_200_turns_higher_score_wins_equal_draws() -> None:
    state = replace(new_game(0, 200), turn=199, scores=(100, 40))
    assert not state.over
    # Turn 199 is the 200th; pair of seed 0 number 200 is played without clearing.
    after = apply_turn(state, {0: (0, 1), 1: (0, 1)})
    assert after.turn == 200 and after.over
    assert ranks(after) == (0, 1)
    assert ranks(replace(after, scores=(40, 100))) == (1, 0)
    assert ranks(replace(after, scores=(70, 70))) == (0, 0)


def test_no_skulls_fall_after_the_last_turn() -> None:
    # The game is over after turn 3 of 3: the owed lines would fall at the start of a
    # turn that never comes.
    state = StcState(
        pairs=((1, 2),) * 10,
        max_turns=3,
        turn=2,
        grids=(g([".3....", "123...", "123...", "123..."]), EMPTY_GRID),
    )
    after = apply_turn(state, {0: (0, 1), 1: (5, 1)})
    assert after.over and after.owed[1] == Fraction(100, 7)
    assert after.grids[1] == g([".....2", ".....1"])


def test_pair_queue_covers_the_preview_of_the_last_turn() -> None:
    state = new_game(5, 200)
    assert len(state.pairs) == 207
    assert len(replace(state, turn=199).next_pairs()) == 8
