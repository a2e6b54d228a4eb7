#!/usr/bin/env python3
"""Blocking bot `random`: plays a uniformly random move from the referee's list of valid moves.

Standalone (stdlib only), CodinGame-submittable. Logs its choice to stderr.
"""

from __future__ import annotations

import random
import sys


def read() -> str:
    """One input line without its newline; exit quietly when the referee closes the input."""
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return line.rstrip("\n")


def main() -> None:
    """Read the init input, then answer every turn with a random listed move."""
    rng = random.Random()
    for _ in range(int(read())):
        read()  # shape definitions: not needed to pick from the list
    read()  # player count
    me = int(read())
    size = int(read())
    read()  # letters in play
    while True:
        for _ in range(size):
            read()
        for _ in range(int(read())):
            read()
        moves = [read() for _ in range(int(read()))]
        move = rng.choice(moves)
        print(f"random[{me}]: {len(moves)} moves, playing {move}", file=sys.stderr, flush=True)
        print(move, flush=True)


if __name__ == "__main__":
    main()
