#!/usr/bin/env python3
"""Smash The Code: plays a uniformly random placement among those that fit.

Single file, stdlib only; answers on stdout, logs on stderr. Randomness comes from
os.urandom.
"""

from __future__ import annotations

import os
import sys
import time

W = 6
H = 12


def free_cells(rows: list[str]) -> list[int]:
    """Free cells per column of a grid given top to bottom."""
    return [sum(1 for r in range(H) if rows[r][c] == ".") for c in range(W)]


def fitting_moves(free: list[int]) -> list[tuple[int, int]]:
    """All (x, rotation) whose two blocks fit in the grid."""
    moves = []
    for x in range(W):
        if x + 1 < W and free[x] >= 1 and free[x + 1] >= 1:
            moves.append((x, 0))
        if x - 1 >= 0 and free[x] >= 1 and free[x - 1] >= 1:
            moves.append((x, 2))
        if free[x] >= 2:
            moves.append((x, 1))
            moves.append((x, 3))
    return moves


def main() -> None:
    """Play until end of input."""
    turn = 0
    while True:
        first = sys.stdin.readline()
        if not first:
            return
        start = time.perf_counter()
        lines = [first]
        for _ in range(33):
            line = sys.stdin.readline()
            if not line:
                return
            lines.append(line)
        rows = [s.strip() for s in lines[9:21]]
        moves = fitting_moves(free_cells(rows))
        x, rot = moves[int.from_bytes(os.urandom(4), "big") % len(moves)] if moves else (0, 1)
        print(f"{x} {rot}", flush=True)
        used = (time.perf_counter() - start) * 1000
        print(
            f"turn {turn} move {x} {rot} of {len(moves)} fitting ms {used:.1f}",
            file=sys.stderr,
            flush=True,
        )
        turn += 1


if __name__ == "__main__":
    main()
