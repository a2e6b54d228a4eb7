"""The 21 shapes A..U, their orientation codes `fr`, and every placement on the 13x13 board.

A shape's base picture is its orientation `00`; its squares are numbered 1..k in reading
order (top row first, left to right) and each square keeps its number through every
orientation. Orientation `fr` flips the base picture over its main diagonal (transpose:
(x, y) -> (y, x)) when f = 1, then turns it 90 degrees clockwise r times; the result is
shifted back to the top-left. This is the only natural convention under which the seed's
own example holds: for player 0's first move with Q (the T pentomino), `0 0 Q001`,
`0 0 Q033`, `0 0 Q101` and `0 0 Q113` are all valid, and `Q001` and `Q113` cover the same
cells.

Cells are (x, y) with x the column and y the row, (0, 0) top-left. On the board a cell is
the bit ``y * SIZE + x`` of a Python int.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

SIZE = 13

# Base pictures (orientation 00), rows top to bottom; sent as such in the init input.
BASE: dict[str, tuple[str, ...]] = {
    "A": ("#",),
    "B": ("##",),
    "C": ("###",),
    "D": ("#.", "##"),
    "E": ("####",),
    "F": ("##", "##"),
    "G": ("###", ".#."),
    "H": ("#.", "#.", "##"),
    "I": (".##", "##."),
    "J": ("#####",),
    "K": ("#.", "#.", "#.", "##"),
    "L": (".#", "##", ".#", ".#"),
    "M": (".#", ".#", "##", "#."),
    "N": ("##", "##", "#."),
    "O": ("#.#", "###"),
    "P": ("#..", "#..", "###"),
    "Q": ("###", ".#.", ".#."),
    "R": ("#..", "##.", ".##"),
    "S": (".#.", "###", ".#."),
    "T": ("##.", ".#.", ".##"),
    "U": (".##", "##.", ".#."),
}
LETTERS = "ABCDEFGHIJKLMNOPQRSTU"
ALWAYS = "ABCD"
OPTIONAL = "EFGHIJKLMNOPQRSTU"
CODES = ("00", "01", "02", "03", "10", "11", "12", "13")

Cell = tuple[int, int]


@dataclass(frozen=True)
class Oriented:
    """One oriented shape: square k (numbered on the base picture) is at ``cells[k - 1]``."""

    letter: str
    code: str
    width: int
    height: int
    cells: tuple[Cell, ...]

    def picture(self) -> tuple[str, ...]:
        """The rows of the oriented shape as `#`/`.` strings."""
        rows = [["."] * self.width for _ in range(self.height)]
        for x, y in self.cells:
            rows[y][x] = "#"
        return tuple("".join(row) for row in rows)


@dataclass(frozen=True)
class Placement:
    """A shape put on the board, in its listed form: square 1 of ``code`` at (x, y).

    ``code`` is the smallest orientation code covering these cells.
    """

    letter: str
    code: str
    x: int
    y: int
    mask: int

    def text(self) -> str:
        """The move as the referee lists it: ``x y Lfr1``."""
        return f"{self.x} {self.y} {self.letter}{self.code}1"


def base_cells(letter: str) -> tuple[Cell, ...]:
    """The squares of the base picture, in reading order: square k is the k-th."""
    rows = BASE[letter]
    return tuple((x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "#")


@cache
def oriented(letter: str, code: str) -> Oriented:
    """The shape ``letter`` in orientation ``code`` (``"fr"``, f in 0-1, r in 0-3).

    Squares keep their base-picture numbers: ``cells[k - 1]`` is square k.
    """
    flip, turns = int(code[0]), int(code[1])
    width, height = len(BASE[letter][0]), len(BASE[letter])
    cells = list(base_cells(letter))
    if flip:
        # Transpose: flip over the main diagonal.
        cells = [(y, x) for x, y in cells]
        width, height = height, width
    for _ in range(turns):
        # Clockwise quarter turn: column x becomes row x, row y becomes column h-1-y;
        # the picture stays in the top-left corner.
        cells = [(height - 1 - y, x) for x, y in cells]
        width, height = height, width
    return Oriented(letter, code, width, height, tuple(cells))


def covered(letter: str, code: str) -> frozenset[Cell]:
    """The cells of an oriented picture, whatever their numbers (to compare orientations)."""
    return frozenset(oriented(letter, code).cells)


@cache
def unique_codes(letter: str) -> tuple[str, ...]:
    """The smallest code of each distinct oriented picture of ``letter``, in code order."""
    seen: set[frozenset[Cell]] = set()
    codes = []
    for code in CODES:
        cells = covered(letter, code)
        if cells not in seen:
            seen.add(cells)
            codes.append(code)
    return tuple(codes)


def cells_of(letter: str, code: str, square: int, x: int, y: int) -> tuple[Cell, ...]:
    """Board cells covered when square ``square`` (1-based) of ``letter``/``code`` is at (x, y)."""
    shape = oriented(letter, code)
    ax, ay = shape.cells[square - 1]
    return tuple((x + cx - ax, y + cy - ay) for cx, cy in shape.cells)


def mask_of(cells: tuple[Cell, ...]) -> int | None:
    """The board bitmask of ``cells``, or None when one is off the board."""
    mask = 0
    for x, y in cells:
        if not (0 <= x < SIZE and 0 <= y < SIZE):
            return None
        mask |= 1 << (y * SIZE + x)
    return mask


@cache
def placements_through() -> tuple[dict[str, tuple[Placement, ...]], ...]:
    """For every board cell, per letter, every listed placement covering that cell.

    Built once (about 11,000 placements, each filed under each of its cells); move
    generation looks up only the cells where a new piece may touch its owner's corner.
    """
    table: list[dict[str, list[Placement]]] = [{} for _ in range(SIZE * SIZE)]
    for letter in LETTERS:
        for code in unique_codes(letter):
            shape = oriented(letter, code)
            ox, oy = shape.cells[0]
            for y in range(SIZE - shape.height + 1):
                for x in range(SIZE - shape.width + 1):
                    cells = tuple((x + cx, y + cy) for cx, cy in shape.cells)
                    mask = mask_of(cells)
                    assert mask is not None
                    placement = Placement(letter, code, x + ox, y + oy, mask)
                    for cx, cy in cells:
                        table[cy * SIZE + cx].setdefault(letter, []).append(placement)
    return tuple({k: tuple(v) for k, v in cell.items()} for cell in table)
