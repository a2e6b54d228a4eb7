#!/usr/bin/env python3
"""A Sticks bot that leaves its opponent a multiple of 4 sticks when it can (two players)."""

import sys


def main():
    _players, me, lines = (int(x) for x in input().split())
    while True:
        sticks = int(input())
        take = sticks % 4 or 1
        print(f"player {me}: {sticks} sticks left, taking {take}", file=sys.stderr)
        print(take)
        for _ in range(lines - 1):
            print("# smart")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
