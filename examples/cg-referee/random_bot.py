#!/usr/bin/env python3
"""A Sticks bot that takes a random number of sticks (1 to 3); logs its choice on stderr."""

import random
import sys


def main():
    _players, me, lines = (int(x) for x in input().split())
    while True:
        sticks = int(input())
        take = random.randint(1, min(3, sticks))
        print(f"player {me}: {sticks} sticks left, taking {take}", file=sys.stderr)
        print(take)
        for _ in range(lines - 1):
            print("# random")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
