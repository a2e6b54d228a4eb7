#!/usr/bin/env python3
"""Splitter greedy bot: each round, the placement that scores most if the game ended now.

Reads ``W H R``, the sheet and a dice line ``a b`` per round from stdin; answers
``n x y`` (die n at (x, y), the other die at (W-1-x, y)). Ties go to the first
placement in reading order. Reasoning goes to stderr.
"""

from __future__ import annotations

import sys

NONE, STAR, HEART = 0, 2, 3


def log(text: str) -> None:
    """Reasoning for humans, on stderr."""
    print(text, file=sys.stderr, flush=True)


def score(cells: list[list[int]], values: list[int], w: int) -> int:
    """Score of the sheet as written: groups of exactly v v's score v (twice on a star),
    all hearts equal add 5."""
    h = len(cells)
    seen = [False] * (w * h)
    total = 0
    for start in range(w * h):
        v = values[start]
        if v == 0 or seen[start]:
            continue
        seen[start] = True
        stack = [start]
        size = 0
        star = False
        while stack:
            i = stack.pop()
            size += 1
            x, y = i % w, i // w
            star = star or cells[y][x] == STAR
            for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                j = ny * w + nx
                if 0 <= nx < w and 0 <= ny < h and not seen[j] and values[j] == v:
                    seen[j] = True
                    stack.append(j)
        if size == v:
            total += v * (2 if star else 1)
    hearts = [
        values[y * w + x] for y, row in enumerate(cells) for x, k in enumerate(row) if k == HEART
    ]
    if hearts and hearts[0] and all(v == hearts[0] for v in hearts):
        total += 5
    return total


def choose(
    cells: list[list[int]], values: list[int], w: int, dice: tuple[int, int]
) -> tuple[int, int, int]:
    """The placement (n, x, y) with the best score right after it."""
    best: tuple[int, int, int] | None = None
    best_score = -1
    for y, row in enumerate(cells):
        for x in range(w // 2):
            mx = w - 1 - x
            if row[x] == NONE or row[mx] == NONE or values[y * w + x] or values[y * w + mx]:
                continue
            for n, other in ((dice[0], dice[1]), (dice[1], dice[0])):
                values[y * w + x], values[y * w + mx] = n, other
                s = score(cells, values, w)
                values[y * w + x] = values[y * w + mx] = 0
                if s > best_score:
                    best, best_score = (n, x, y), s
    if best is None:
        raise RuntimeError("no free mirrored pair left")
    log(f"dice {dice[0]} {dice[1]}: {best[0]} at ({best[1]},{best[2]}) -> score {best_score}")
    return best


def main() -> None:
    """Play one game on stdin/stdout."""
    w, h, rounds = (int(t) for t in sys.stdin.readline().split())
    cells = [[int(t) for t in sys.stdin.readline().split()] for _ in range(h)]
    log(f"sheet {w}x{h}, {rounds} rounds")
    values = [0] * (w * h)
    while line := sys.stdin.readline():
        if not line.strip():
            continue
        a, b = (int(t) for t in line.split())
        n, x, y = choose(cells, values, w, (a, b))
        values[y * w + x], values[y * w + w - 1 - x] = n, b if n == a else a
        print(f"{n} {x} {y}", flush=True)


if __name__ == "__main__":
    main()
