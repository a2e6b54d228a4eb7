#!/usr/bin/env python3
"""A random Cg Referee bot: plays a random empty cell; logs its choice to stderr."""

import random
import sys


def main() -> None:
    first = True
    while True:
        line = sys.stdin.readline()
        if not line:
            return  # the game is over
        if first:
            size, _win, me = (int(x) for x in line.split())
            sys.stdin.readline()  # the opponent's last move
            first = False
        board = [sys.stdin.readline().strip() for _ in range(size)]
        free = [(r, c) for r in range(size) for c in range(size) if board[r][c] == "."]
        row, col = random.choice(free)
        print(f"player {me}: {len(free)} free cells, playing {row} {col}", file=sys.stderr)
        print(row, col, flush=True)


if __name__ == "__main__":
    main()
