"""Blocking shapes: base pictures, the 8 orientation codes, square numbering, symmetries."""

from __future__ import annotations

import pytest

from arena_games.blocking.shapes import (
    BASE,
    CODES,
    LETTERS,
    cells_of,
    covered,
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


# Worked out by hand (RULINGS.md, blocking): the squares of the base picture are numbered
# 1..k in reading order and keep their numbers; f = 1 transposes the picture ((x, y) ->
# (y, x)), then it turns clockwise r times, back in the top-left corner.

# Shape L (the Y pentomino): all 8 pictures differ.
L_PICTURES = {
    "00": (".1", "23", ".4", ".5"),
    "01": ("..2.", "5431"),
    "02": ("5.", "4.", "32", "1."),
    "03": ("1345", ".2.."),
    "10": (".2..", "1345"),
    "11": ("1.", "32", "4.", "5."),
    "12": ("5431", "..2."),
    "13": (".5", ".4", "23", ".1"),
}

# Shape Q (the T pentomino, base ###/.#./.#.): its transpose is one of its turns, so the
# 8 codes give 4 pictures, each numbered two ways.
Q_PICTURES = {
    "00": ("123", ".4.", ".5."),
    "01": ("..1", "542", "..3"),
    "02": (".5.", ".4.", "321"),
    "03": ("3..", "245", "1.."),
    "10": ("1..", "245", "3.."),
    "11": ("321", ".4.", ".5."),
    "12": ("..3", "542", "..1"),
    "13": (".5.", ".4.", "123"),
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


def test_q_is_the_t_pentomino_and_r_the_w() -> None:
    assert BASE["Q"] == ("###", ".#.", ".#.")
    assert BASE["R"] == ("#..", "##.", ".##")


def test_all_shapes_distinct_up_to_orientation() -> None:
    shapes = [{covered(letter, code) for code in CODES} for letter in LETTERS]
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
    assert {covered("F", code) for code in CODES} == {frozenset({(0, 0), (1, 0), (0, 1), (1, 1)})}
    assert unique_codes("B") == ("00", "01")
    assert covered("B", "02") == covered("B", "00") == covered("B", "13")
    assert covered("B", "10") == covered("B", "01")
    assert oriented("B", "02").cells == ((1, 0), (0, 0))  # square 1 now on the right
    assert unique_codes("S") == ("00",)
    assert unique_codes("Q") == ("00", "01", "02", "03")
    assert unique_codes("G") == ("00", "01", "02", "03")


def test_square_k_goes_on_the_given_cell() -> None:
    # Q00 with square 4 (below the bar's middle) at (5, 5): square 1 lands at (4, 4).
    assert cells_of("Q", "00", 4, 5, 5) == ((4, 4), (5, 4), (6, 4), (5, 5), (5, 6))
    assert cells_of("Q", "00", 1, 0, 0) == ((0, 0), (1, 0), (2, 0), (1, 1), (1, 2))
    # Q11 is the same picture numbered from the right: its square 3 is Q00's square 1.
    assert set(cells_of("Q", "11", 3, 0, 0)) == set(cells_of("Q", "00", 1, 0, 0))


def test_the_seeds_own_example() -> None:
    # "For a first move with Q, player 0 can say: 0 0 Q001 or 0 0 Q033 or 0 0 Q101 or
    # 0 0 Q113. Resulting boards after 0 0 Q001 and 0 0 Q113 are exactly the same."
    q001 = set(cells_of("Q", "00", 1, 0, 0))
    q113 = set(cells_of("Q", "11", 3, 0, 0))
    assert q001 == q113 == {(0, 0), (1, 0), (2, 0), (1, 1), (1, 2)}
    q033 = set(cells_of("Q", "03", 3, 0, 0))
    q101 = set(cells_of("Q", "10", 1, 0, 0))
    assert q033 == q101 == {(0, 0), (0, 1), (0, 2), (1, 1), (2, 1)}


def test_placement_table_counts() -> None:
    table = placements_through()
    # The monomino has exactly one placement through each cell; the 2x2 square four
    # through an inner cell and one through a board corner.
    assert all(len(cell["A"]) == 1 for cell in table)
    assert len(table[0]["F"]) == 1
    assert len(table[6 * 13 + 6]["F"]) == 4
    assert "S" not in table[0]  # the X pentomino never covers a board corner
