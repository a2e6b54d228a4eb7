#!/usr/bin/env python3
"""42-cluster random bot: a random legal action each turn (drops mostly, sometimes a rotation).

It learns the board with ``fetch cells`` and ``fetch gravity`` and drops only into
columns whose entry cell is empty. Logs to stderr; only answers go to stdout.
"""

from __future__ import annotations

import random as _random
import sys


def log(msg: str) -> None:
    """Reasoning goes to stderr."""
    print(f"[random] {msg}", file=sys.stderr, flush=True)


def send(line: str) -> None:
    """One answer line to the referee."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def read() -> list[str]:
    """The next line's words; exit quietly when the referee closes the pipe."""
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return line.split()


def entry_cell(size: int, gravity: int, pos: int) -> tuple[int, int, int]:
    """The top cell of column ``pos`` under ``gravity`` (the referee's own computation)."""
    n = size - 1
    q, r, s = (pos, -n - pos, n) if pos < 0 else (pos, -n, n - pos)
    for _ in range((gravity + 3) % 6):
        q, r, s = -r, -s, -q
    return q, r, s


def main() -> None:
    """Answer ``init`` with a colour, then play random legal actions."""
    rng = _random.Random()
    size = 6
    while True:
        words = read()
        if not words:
            continue
        if words[0] == "init":
            size = int(words[3])
            log(f"init {' '.join(words[1:])}")
            send("color 1")
        elif words[0] == "chips":
            a, b = int(words[1]), int(words[2])
            send("fetch cells")
            cells = {}
            for _ in range(int(read()[1])):
                _, q, r, s, v = read()
                cells[(int(q), int(r), int(s))] = int(v)
            send("fetch gravity")
            gravity = int(read()[1])
            chips = [c for c in (a, b) if c != -1]
            open_cols = [
                p for p in range(-(size - 1), size) if cells[entry_cell(size, gravity, p)] == -1
            ]
            if b != -1 and (not open_cols or rng.random() < 0.1):
                g = rng.choice([g for g in range(6) if g != gravity])
                log(f"rotating to {g}")
                send(f"rotate {g}")
            elif open_cols:
                pos, chip = rng.choice(open_cols), rng.choice(chips)
                log(f"dropping chip {chip} at {pos}")
                send(f"drop {pos} {chip}")
            else:
                log("no legal action left")
                send(f"drop 0 {a}")


if __name__ == "__main__":
    main()
