#!/usr/bin/env python3
"""Splitter random bot: a uniformly random legal placement each round.

Reads ``W H R``, the sheet and a dice line ``a b`` per round from stdin; answers
``n x y``. The generator is seeded from the first argument (default 0) so a game can be
replayed exactly. Reasoning goes to stderr.
"""

from __future__ import annotations

import random
import sys


def log(text: str) -> None:
    """Reasoning for humans, on stderr."""
    print(text, file=sys.stderr, flush=True)


def main() -> None:
    """Play one game on stdin/stdout."""
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    w, h, rounds = (int(t) for t in sys.stdin.readline().split())
    cells = [[int(t) for t in sys.stdin.readline().split()] for _ in range(h)]
    log(f"sheet {w}x{h}, {rounds} rounds")
    taken = [[False] * w for _ in range(h)]
    while line := sys.stdin.readline():
        if not line.strip():
            continue
        a, b = (int(t) for t in line.split())
        pairs = [
            (x, y)
            for y in range(h)
            for x in range(w // 2)
            if cells[y][x] and cells[y][w - 1 - x] and not taken[y][x] and not taken[y][w - 1 - x]
        ]
        x, y = rng.choice(pairs)
        n = rng.choice((a, b))
        taken[y][x] = taken[y][w - 1 - x] = True
        log(f"dice {a} {b}: {n} at ({x},{y}), chosen among {len(pairs)} free pairs")
        print(f"{n} {x} {y}", flush=True)


if __name__ == "__main__":
    main()
