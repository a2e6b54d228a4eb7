"""Geometry of the hexagonal board in cube coordinates (q, r, s with q + r + s = 0).

Directions are numbered like gravity: 0 top, 1 top-right, 2 bottom-right, 3 bottom,
4 bottom-left, 5 top-left ("top" is r decreasing). Cells are listed sorted by q, then r,
which is the order the original referee answers ``fetch cells`` in.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

Cube = tuple[int, int, int]

DIRECTIONS: tuple[Cube, ...] = (
    (0, -1, 1),  # 0 top
    (1, -1, 0),  # 1 top-right
    (1, 0, -1),  # 2 bottom-right
    (0, 1, -1),  # 3 bottom (the starting gravity)
    (-1, 1, 0),  # 4 bottom-left
    (-1, 0, 1),  # 5 top-left
)


def turn60(cell: Cube) -> Cube:
    """Turn a cube coordinate 60 degrees clockwise about the centre: (q, r, s) -> (-r, -s, -q).

    One turn maps direction d to direction d + 1 (mod 6).
    """
    q, r, s = cell
    return (-r, -s, -q)


def entry_cell(size: int, gravity: int, pos: int) -> Cube:
    """The cell a chip dropped at column ``pos`` enters under ``gravity`` (the column's top).

    Under gravity 3 (bottom) column ``pos`` is q = pos, entered on the top rim; other
    gravities turn that cell (gravity + 3) mod 6 times by :func:`turn60`. This is the
    original referee's computation, so bots computing columns themselves agree.
    """
    n = size - 1
    cell: Cube = (pos, -n - pos, n) if pos < 0 else (pos, -n, n - pos)
    for _ in range((gravity + 3) % 6):
        cell = turn60(cell)
    return cell


@dataclass(frozen=True)
class HexGrid:
    """A hexagon of edge ``size``: its cells (sorted by q then r) and neighbour tables.

    ``index`` maps a cube coordinate to its position in ``cells``; ``neighbor[d][i]`` is
    the index of cell i's neighbour in direction d, or -1 off the board;
    ``entries[g][pos + size - 1]`` is the entry cell index of column ``pos`` under gravity g;
    ``rim`` holds the indices of the cells on the board's edge; ``fall_order[g]`` lists
    every cell index, furthest along gravity g first (the order chips settle in).
    """

    size: int
    cells: tuple[Cube, ...]
    index: dict[Cube, int]
    neighbor: tuple[tuple[int, ...], ...]
    entries: tuple[tuple[int, ...], ...]
    rim: frozenset[int]
    fall_order: tuple[tuple[int, ...], ...]

    @property
    def positions(self) -> range:
        """The column numbers ``-(size - 1) .. size - 1``."""
        return range(-(self.size - 1), self.size)

    def entry(self, gravity: int, pos: int) -> int:
        """Index of the entry cell of column ``pos`` under ``gravity``."""
        return self.entries[gravity][pos + self.size - 1]


def _fall_order(cells: tuple[Cube, ...], direction: Cube) -> tuple[int, ...]:
    """Cell indices sorted furthest along ``direction`` first (by dot product)."""
    return tuple(
        sorted(
            range(len(cells)),
            key=lambda i: -sum(c * d for c, d in zip(cells[i], direction, strict=True)),
        )
    )


@cache
def hexgrid(size: int) -> HexGrid:
    """The (shared, immutable) grid of edge ``size``."""
    if size < 1:
        raise ValueError(f"grid size must be at least 1, got {size}")
    n = size - 1
    cells = tuple(
        (q, r, -q - r) for q in range(-n, n + 1) for r in range(-n, n + 1) if abs(q + r) <= n
    )
    index = {cell: i for i, cell in enumerate(cells)}
    neighbor = tuple(
        tuple(index.get((q + dq, r + dr, s + ds), -1) for (q, r, s) in cells)
        for (dq, dr, ds) in DIRECTIONS
    )
    entries = tuple(
        tuple(index[entry_cell(size, g, pos)] for pos in range(-n, n + 1)) for g in range(6)
    )
    rim = frozenset(i for i, cell in enumerate(cells) if max(abs(c) for c in cell) == n)
    fall_order = tuple(_fall_order(cells, d) for d in DIRECTIONS)
    return HexGrid(size, cells, index, neighbor, entries, rim, fall_order)
