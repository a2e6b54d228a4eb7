"""Blocking shapes: base pictures, the 8 orientation codes, square numbering, symmetries."""

from __future__ import annotations

import pytest

from arena_games.blocking.shapes import (
    BASE,
    CODES,
    LETTERS,
    cells_of,
    oriented,
    placements_through,
    unique_codes,
)


def numbered(letter: str, code: str) -> tuple[str, ...]:
    """The oriented picture with each square written as its number."""
    shape = oriented(letter, code)
    rows = [["."] * shape.width for _ in range(shape.height)]
    for k, (x, y) in enumerate(shape.cells, 1):
        rows[y][x] = str(k)
    return tuple("".join(row) for row in rows)


# Shape L (the Y pentomino), worked out by hand: mirror left-right if f = 1, then turn
# clockwise r times; squares numbered in reading order. All 8 pictures differ.
L_PICTURES = {
    "00": (".1", "23", ".4", ".5"),
    "01": ("..1.", "2345"),
    "02": ("1.", "2.", "34", "5."),
    "03": ("1234", ".5.."),
    "10": ("1.", "23", "4.", "5."),
    "11": ("1234", "..5."),
    "12": (".1", ".2", "34", ".5"),
    "13": (".1..", "2345"),
}

# Shape Q (the W pentomino): its mirror image is one of its rotations, so codes pair up.
Q_PICTURES = {
    "00": ("1..", "23.", ".45"),
    "01": (".12", "34.", "5.."),
    "02": ("12.", ".34", "..5"),
    "03": ("..1", ".23", "45."),
    "10": ("..1", ".23", "45."),
    "11": ("1..", "23.", ".45"),
    "12": (".12", "34.", "5.."),
    "13": ("12.", ".34", "..5"),
}


@pytest.mark.parametrize("code", CODES)
def test_l_orientation_pictures_and_numbers(code: str) -> None:
    assert numbered("L", code) == L_PICTURES[code]


@pytest.mark.parametrize("code", CODES)
def test_q_orientation_pictures_and_numbers(code: str) -> None:
    assert numbered("Q", code) == Q_PICTURES[code]


def test_base_pictures_are_orientation_00() -> None:
    for letter in LETTERS:
        assert oriented(letter, "00").picture() == BASE[letter]


def test_shape_sizes() -> None:
    sizes = {letter: len(oriented(letter, "00").cells) for letter in LETTERS}
    assert [sizes[ch] for ch in "ABCD"] == [1, 2, 3, 3]
    assert all(sizes[ch] == 4 for ch in "EFGHI")
    assert all(sizes[ch] == 5 for ch in "JKLMNOPQRSTU")


def test_all_shapes_distinct_up_to_orientation() -> None:
    shapes = [{oriented(letter, code).cells for code in CODES} for letter in LETTERS]
    for i, a in enumerate(shapes):
        for b in shapes[i + 1 :]:
            assert not a & b


# Distinct orientations of each free polyomino: F (square) and S (X) have one,
# B, C, E, J (straight) two, H, K, L, M, N, U (chiral, no symmetry) eight.
DISTINCT = {
    "A": 1, "B": 2, "C": 2, "D": 4, "E": 2, "F": 1, "G": 4, "H": 8, "I": 4, "J": 2, "K": 8,
    "L": 8, "M": 8, "N": 8, "O": 4, "P": 4, "Q": 4, "R": 4, "S": 1, "T": 4, "U": 8,
}  # fmt: skip


def test_distinct_orientation_counts() -> None:
    assert {letter: len(unique_codes(letter)) for letter in LETTERS} == DISTINCT


def test_equivalent_codes_of_symmetric_shapes() -> None:
    assert {oriented("F", code).cells for code in CODES} == {((0, 0), (1, 0), (0, 1), (1, 1))}
    assert unique_codes("B") == ("00", "01")
    assert oriented("B", "02").cells == oriented("B", "00").cells
    assert oriented("B", "13").cells == oriented("B", "01").cells
    assert unique_codes("S") == ("00",)
    assert unique_codes("Q") == ("00", "01", "02", "03")
    assert unique_codes("G") == ("00", "01", "02", "03")


def test_square_k_goes_on_the_given_cell() -> None:
    # Q00 with square 3 (its centre) at (5, 5): square 1 lands at (4, 4).
    assert cells_of("Q", "00", 3, 5, 5) == ((4, 4), (4, 5), (5, 5), (5, 6), (6, 6))
    assert cells_of("Q", "00", 1, 0, 0) == ((0, 0), (0, 1), (1, 1), (1, 2), (2, 2))


def test_placement_table_counts() -> None:
    table = placements_through()
    # The monomino has exactly one placement through each cell; the 2x2 square four
    # through an inner cell and one through a board corner.
    assert all(len(cell["A"]) == 1 for cell in table)
    assert len(table[0]["F"]) == 1
    assert len(table[6 * 13 + 6]["F"]) == 4
    assert "S" not in table[0]  # the X pentomino never covers a board corner
