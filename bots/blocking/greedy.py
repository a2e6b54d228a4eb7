#!/usr/bin/env python3
"""Blocking bot `greedy`: plays its largest piece first, heading for the board centre.

Among the referee's valid moves it takes the one with most squares; ties go to the move
whose squares lie nearest the centre (smallest sum of squared distances), then to the
first listed. Standalone (stdlib only), CodinGame-submittable; logs to stderr.
"""

from __future__ import annotations

import sys


def read() -> str:
    """One input line without its newline; exit quietly when the referee closes the input."""
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return line.rstrip("\n")


def orient(rows: list[str], code: str) -> list[tuple[int, int]]:
    """Cells of the shape drawn by ``rows`` in orientation ``code``; square k is ``[k - 1]``.

    Squares are numbered 1..k in reading order on the base picture and keep their numbers;
    f = 1 flips the picture over its main diagonal (transpose), then it turns 90 degrees
    clockwise r times, staying in the top-left corner (the referee's convention).
    """
    width, height = len(rows[0]), len(rows)
    cells = [(x, y) for y in range(height) for x in range(width) if rows[y][x] == "#"]
    if code[0] == "1":
        cells = [(y, x) for x, y in cells]
        width, height = height, width
    for _ in range(int(code[1])):
        cells = [(height - 1 - y, x) for x, y in cells]
        width, height = height, width
    return cells


def cells_of(shapes: dict[str, list[str]], move: str) -> list[tuple[int, int]]:
    """Board cells covered by ``x y Lfrk`` (square k at (x, y))."""
    sx, sy, shape = move.split()
    cells = orient(shapes[shape[0]], shape[1:3])
    ax, ay = cells[int(shape[3]) - 1]
    return [(int(sx) + x - ax, int(sy) + y - ay) for x, y in cells]


def main() -> None:
    """Read the init input, then answer every turn with the biggest, most central move."""
    shapes: dict[str, list[str]] = {}
    for _ in range(int(read())):
        letter, w, h, defn = read().split()
        width = int(w)
        shapes[letter] = [defn[i : i + width] for i in range(0, width * int(h), width)]
    read()  # player count
    me = int(read())
    size = int(read())
    read()  # letters in play
    centre = (size - 1) / 2
    while True:
        for _ in range(size):
            read()
        for _ in range(int(read())):
            read()
        moves = [read() for _ in range(int(read()))]

        def key(move: str) -> tuple[int, float]:
            cells = cells_of(shapes, move)
            spread = sum((x - centre) ** 2 + (y - centre) ** 2 for x, y in cells)
            return (-len(cells), spread / len(cells))

        best = min(moves, key=key)
        print(f"greedy[{me}]: {len(moves)} moves, playing {best}", file=sys.stderr, flush=True)
        print(best, flush=True)


if __name__ == "__main__":
    main()
