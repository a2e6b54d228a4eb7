"""Splitter rules worked by hand: sheets, dice, mirrored placement, groups, stars, hearts."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from arena_games.splitter.dotnet_random import DotNetRandom
from arena_games.splitter.rules import (
    LAYOUTS,
    Placement,
    SplitterState,
    current_dice,
    forfeit,
    free_pairs,
    is_over,
    legal_placements,
    new_game,
    place,
    placement_error,
    score,
    score_sheet,
)

# Rows of the sheets as RULINGS.md draws them (0 none, 1 empty, 2 star, 3 heart).
LAYOUT_1 = """
0 0 1 1 1 1 0 0
0 1 1 1 1 1 1 0
1 1 1 1 1 1 1 1
2 1 1 1 1 1 1 2
1 1 1 1 1 1 1 1
0 1 1 1 1 1 1 0
0 0 1 1 1 1 0 0
"""
LAYOUT_2 = """
1 1 1 0 0 1 3 1
1 1 1 1 1 1 1 1
0 3 1 1 1 1 1 0
0 1 1 0 0 1 1 0
0 1 1 1 3 1 1 0
1 1 1 1 1 1 1 1
1 2 1 0 0 1 2 1
"""


def grid(text: str) -> tuple[tuple[int, ...], ...]:
    """Rows of space-separated digits."""
    return tuple(tuple(int(c) for c in line.split()) for line in text.strip().splitlines())


def sheet(layout: int, picture: str) -> SplitterState:
    """A state on ``layout`` with values from a picture: digits written, anything else empty."""
    state = new_game(0, layout)
    values = []
    for line in picture.strip().splitlines():
        row = line.split()
        assert len(row) == state.width
        values.extend(int(c) if c.isdigit() else 0 for c in row)
    assert len(values) == state.width * state.height
    return replace(state, values=tuple(values))


def total(layout: int, picture: str) -> int:
    """The score of a picture on ``layout``."""
    return score(sheet(layout, picture))


# ---------------------------------------------------------------- sheets and dice


def test_layouts_are_the_ruled_sheets() -> None:
    assert LAYOUTS[1] == grid(LAYOUT_1)
    assert LAYOUTS[2] == grid(LAYOUT_2)


@pytest.mark.parametrize("layout", [1, 2])
def test_each_sheet_has_44_cells_in_22_mirrored_pairs(layout: int) -> None:
    state = new_game(3, layout)
    assert sum(k != 0 for row in state.cells for k in row) == 44
    assert len(free_pairs(state)) == 22
    assert state.rounds == 22
    # Every fillable cell's mirror is fillable, so 22 rounds always fit.
    for row in state.cells:
        for x in range(8):
            assert (row[x] == 0) == (row[7 - x] == 0)


def test_unknown_layout_is_refused() -> None:
    with pytest.raises(ValueError, match="layout"):
        new_game(1, 3)


def test_dice_are_the_testers_two_per_round() -> None:
    # .NET new Random(42).Next(1, 7), 44 times in pairs (the port is checked against
    # .NET's own numbers in test_splitter_dotnet_random.py).
    rng = DotNetRandom(42)
    expected = tuple((rng.next(1, 7), rng.next(1, 7)) for _ in range(22))
    assert new_game(42, 1).dice == expected
    assert new_game(42, 2).dice == expected
    assert new_game(43, 1).dice != expected
    assert all(1 <= d <= 6 for roll in expected for d in roll)


def test_dice_do_not_depend_on_the_answers() -> None:
    a = b = new_game(9, 1)
    rng_a, rng_b = random.Random(1), random.Random(2)
    seen_a, seen_b = [], []
    while not is_over(a):
        seen_a.append(current_dice(a))
        seen_b.append(current_dice(b))
        a = place(a, rng_a.choice(legal_placements(a)))
        b = place(b, rng_b.choice(legal_placements(b)))
    assert a.values != b.values
    assert seen_a == seen_b == list(new_game(9, 1).dice)


# ---------------------------------------------------------------- placement


def rolled(state: SplitterState, a: int, b: int) -> SplitterState:
    """``state`` with this round's dice set to ``a b``."""
    dice = list(state.dice)
    dice[state.round] = (a, b)
    return replace(state, dice=tuple(dice))


def test_die_goes_at_xy_and_other_die_at_mirror_left_half() -> None:
    state = place(rolled(new_game(0, 1), 4, 1), Placement(4, 2, 1))
    assert state.value(2, 1) == 4
    assert state.value(5, 1) == 1
    assert sum(1 for v in state.values if v) == 2
    assert state.round == 1


def test_placement_from_the_right_half_mirrors_to_the_left() -> None:
    state = place(rolled(new_game(0, 1), 4, 1), Placement(4, 5, 1))
    assert state.value(5, 1) == 4
    assert state.value(2, 1) == 1


def test_second_die_may_be_named() -> None:
    state = place(rolled(new_game(0, 2), 4, 1), Placement(1, 0, 0))
    assert (state.value(0, 0), state.value(7, 0)) == (1, 4)


def test_doubles_fill_both_cells_with_the_value() -> None:
    state = place(rolled(new_game(0, 1), 3, 3), Placement(3, 0, 2))
    assert (state.value(0, 2), state.value(7, 2)) == (3, 3)


def test_legal_placements_cover_both_dice_on_every_free_pair() -> None:
    state = rolled(new_game(0, 1), 4, 1)
    moves = legal_placements(state)
    assert len(moves) == 44
    assert Placement(1, 2, 1) in moves and Placement(4, 2, 1) in moves
    assert all(placement_error(state, m) is None for m in moves)
    assert len(legal_placements(rolled(new_game(0, 1), 5, 5))) == 22


@pytest.mark.parametrize(
    ("placement", "error"),
    [
        (Placement(3, 2, 1), "die 3 was not rolled (dice 4 1)"),
        (Placement(4, 0, 0), "(0,0) is not fillable"),
        (Placement(4, 7, 6), "(7,6) is not fillable"),
        (Placement(4, 8, 1), "(8,1) is off the 8x7 sheet"),
        (Placement(4, -1, 1), "(-1,1) is off the 8x7 sheet"),
        (Placement(4, 2, 7), "(2,7) is off the 8x7 sheet"),
    ],
)
def test_illegal_placements_say_why(placement: Placement, error: str) -> None:
    state = rolled(new_game(0, 1), 4, 1)
    assert placement_error(state, placement) == error
    with pytest.raises(ValueError, match=r"not|off"):
        place(state, placement)


def test_taken_cell_and_taken_mirror_are_illegal() -> None:
    state = rolled(place(rolled(new_game(0, 1), 4, 1), Placement(4, 2, 1)), 6, 2)
    assert placement_error(state, Placement(6, 2, 1)) == "(2,1) already holds 4"
    # Naming (5,1), which got the mirrored 1, is refused just the same.
    assert placement_error(state, Placement(6, 5, 1)) == "(5,1) already holds 1"
    assert placement_error(state, Placement(6, 3, 1)) is None


def test_mirror_cell_must_be_fillable_and_split_line_has_no_mirror() -> None:
    # A made-up lopsided sheet (the real ones are symmetric) to keep the rule honest.
    state = SplitterState(
        layout=0, cells=((1, 1, 0), (1, 1, 1)), values=(0,) * 6, dice=((2, 3), (2, 3))
    )
    assert placement_error(state, Placement(2, 0, 0)) == "(2,0) is not fillable"
    assert (
        placement_error(state, Placement(2, 1, 1))
        == "(1,1) is on the split line and has no mirror cell"
    )
    assert free_pairs(state) == [(0, 1)]


def test_game_ends_early_when_no_mirrored_pair_is_free() -> None:
    state = SplitterState(
        layout=0, cells=((1, 0, 1), (1, 1, 0)), values=(0,) * 6, dice=((2, 3), (5, 6))
    )
    assert not is_over(state)
    state = place(state, Placement(2, 0, 0))
    # One round of two played, but (0,1) has no fillable mirror: nothing can be written.
    assert state.round == 1
    assert is_over(state)
    assert current_dice(state) is None
    assert legal_placements(state) == []


def test_game_ends_after_22_rounds_with_every_cell_filled() -> None:
    state = new_game(5, 2)
    rng = random.Random(5)
    for _ in range(22):
        assert not is_over(state)
        state = place(state, rng.choice(legal_placements(state)))
    assert is_over(state)
    kinds = [k for row in state.cells for k in row]
    assert [v != 0 for v in state.values] == [k != 0 for k in kinds]
    assert placement_error(state, Placement(1, 0, 0)) == "the game is over"


def test_forfeit_ends_the_game_and_scores_zero() -> None:
    state = sheet(1, ". . . . . . . .\n" * 2 + "1 . . . . . . .\n" + ". . . . . . . .\n" * 4)
    assert score(state) == 1
    out = forfeit(state)
    assert is_over(out)
    assert score(out) == 0
    assert not state.forfeited  # the old state is untouched


# ---------------------------------------------------------------- scoring: exact group sizes

EMPTY_ROW = ". . . . . . . .\n"


def row_picture(row: int, cells: str) -> str:
    """A 7-row picture with ``cells`` (8 tokens) in ``row`` and everything else empty."""
    return EMPTY_ROW * row + cells + "\n" + EMPTY_ROW * (6 - row)


def line_of(v: int, length: int) -> str:
    """``length`` copies of ``v`` from column 0, the rest empty (8 tokens)."""
    return " ".join([str(v)] * length + ["."] * (8 - length))


# Rows that are full width on both sheets and hold no star or heart.
FULL_ROW = {1: 2, 2: 1}


@pytest.mark.parametrize("layout", [1, 2])
@pytest.mark.parametrize("v", [1, 2, 3, 4, 5, 6])
def test_group_of_exactly_v_scores_v(layout: int, v: int) -> None:
    assert total(layout, row_picture(FULL_ROW[layout], line_of(v, v))) == v


@pytest.mark.parametrize("layout", [1, 2])
@pytest.mark.parametrize("v", [1, 2, 3, 4, 5, 6])
def test_group_one_too_large_scores_nothing(layout: int, v: int) -> None:
    assert total(layout, row_picture(FULL_ROW[layout], line_of(v, v + 1))) == 0


@pytest.mark.parametrize("layout", [1, 2])
@pytest.mark.parametrize("v", [2, 3, 4, 5, 6])
def test_group_one_too_small_scores_nothing(layout: int, v: int) -> None:
    assert total(layout, row_picture(FULL_ROW[layout], line_of(v, v - 1))) == 0


def test_groups_connect_orthogonally_not_diagonally() -> None:
    # Layout 1. Two 1s touching diagonally are two lone 1s (1 + 1); two 2s touching
    # diagonally are two lone 2s (0); an L of three 3s is one group of three (3).
    picture = """
    . . 1 . . . . .
    . . . 1 . . . .
    . 2 . . 3 . . .
    . . 2 . 3 3 . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    """
    assert total(1, picture) == 1 + 1 + 0 + 3


def test_different_values_side_by_side_are_separate_groups() -> None:
    # Layout 2 row 1: 2 2 | 3 3 3 | 1 | 2 2 -> 2 + 3 + 1 + 2.
    assert total(2, row_picture(1, "2 2 3 3 3 1 2 2")) == 8


def test_groups_bend_around_the_holes_of_layout_2() -> None:
    # Five 5s: (2,2) (3,2) (4,2) (5,2) and (2,3) below the hole at (3,3),(4,3): scores 5.
    # 4s: (5,3)-(5,4) is two (no score); (2,4)-(3,4)-(3,5) is three (no score).
    picture = """
    . . . . . . . .
    . . . . . . . .
    . . 5 5 5 5 . .
    . . 5 . . 4 . .
    . . 4 4 . 4 . .
    . . . 4 . . . .
    . . . . . . . .
    """
    assert total(2, picture) == 5


# ---------------------------------------------------------------- stars


def test_star_doubles_a_scoring_group_layout_1() -> None:
    # Star at (0,3): a lone 1 on it scores 2; three 3s through it score 6.
    assert total(1, row_picture(3, "1 . . . . . . .")) == 2
    assert total(1, row_picture(3, "3 3 3 . . . . .")) == 6
    # Both stars, (0,3) and (7,3), each in a pair of 2s: 2*2 + 2*2.
    assert total(1, row_picture(3, "2 2 . . . . 2 2")) == 8


def test_star_does_not_rescue_a_wrong_sized_group() -> None:
    assert total(1, row_picture(3, "3 3 . . . . . .")) == 0
    assert total(1, row_picture(3, "3 3 3 3 . . . .")) == 0


def test_star_doubles_a_scoring_group_layout_2() -> None:
    # Stars at (1,6) and (6,6). Six 6s from (1,6) up and across: doubled to 12.
    picture = """
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . 6 6 . . . . .
    . 6 6 . . . . .
    . 6 6 . . . 4 .
    """
    assert total(2, picture) == 12
    # The lone 4 on the other star is too small; a lone 1 there would score 2.
    assert total(2, row_picture(6, ". . . . . . 1 .")) == 2


def test_group_beside_a_star_is_not_doubled() -> None:
    assert total(2, row_picture(6, "2 . 2 . . . . .")) == 0  # two lone 2s
    assert total(2, row_picture(5, "2 2 . . . . . .")) == 2


# ---------------------------------------------------------------- hearts


HEARTS_4 = """
. . . . . . 4 .
. . . . . . . .
. 4 . . . . . .
. . . . . . . .
. . . . 4 . . .
. . . . . . . .
. . . . . . . .
"""


def test_equal_hearts_add_5() -> None:
    # Hearts at (6,0), (1,2), (4,4), each a lone 4 (no points) -> 5 from the hearts only.
    assert total(2, HEARTS_4) == 5
    breakdown = score_sheet(LAYOUTS[2], sheet(2, HEARTS_4).values)
    assert breakdown.hearts == 5
    assert breakdown.total == 5


def test_equal_hearts_add_to_the_groups() -> None:
    # Three lone 1s on the hearts: 1 + 1 + 1 + 5.
    assert total(2, HEARTS_4.replace("4", "1")) == 8


def test_unequal_hearts_add_nothing() -> None:
    picture = HEARTS_4.replace(". . . . 4 . . .", ". . . . 5 . . .")
    assert total(2, picture) == 0
    assert score_sheet(LAYOUTS[2], sheet(2, picture).values).hearts == 0


def test_hearts_not_all_filled_add_nothing() -> None:
    picture = HEARTS_4.replace(". . . . 4 . . .", ". . . . . . . .")
    assert total(2, picture) == 0


def test_layout_1_has_no_heart_bonus() -> None:
    assert score_sheet(LAYOUTS[1], [4] * 56).hearts == 0


def test_readme_worked_example_scores_13() -> None:
    # games/arena_games/splitter/README.md: lone 1 (1) + three 3s (3) + lone 2 on a star (0) + two 2s (2)
    # + lone 1 on a star (2) + three lone 4s on the hearts (0, hearts +5) = 13.
    picture = """
    1 . . . . . 4 .
    . . . . . . . .
    . 4 . . . . . .
    . . . . . . . .
    . . . . 4 . . .
    3 3 . . . . 2 2
    3 2 . . . . 1 .
    """
    breakdown = score_sheet(LAYOUTS[2], sheet(2, picture).values)
    assert sorted(g.points for g in breakdown.groups if g.points) == [1, 2, 2, 3]
    assert breakdown.hearts == 5
    assert breakdown.total == 13
