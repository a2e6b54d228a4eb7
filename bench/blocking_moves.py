#!/usr/bin/env python3
"""Time Blocking's turn prompts (valid-move listing included) over seeded random games.

The prompt is built inside the bot's clock, so it must be fast: the p99 target is < 5 ms.
Each prompt is built ``REPEAT`` times and its fastest build kept (as ``timeit`` does), so
that another process taking the CPU mid-build does not count as the game's cost.

Run: python3 bench/blocking_moves.py [games] [players]   (defaults: 20 games, 4 players)
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from arena_games.blocking.game import BlockingGame

REPEAT = 3


def main(argv: list[str]) -> int:
    """Play seeded random games; print p50/p99/max ms to build a turn's prompt."""
    games = int(argv[0]) if argv else 20
    players = int(argv[1]) if len(argv) > 1 else 4
    game = BlockingGame()
    times: list[float] = []
    for seed in range(games):
        rng = random.Random(seed)
        state = game.start(seed, players, {})  # builds the placement tables on the first call
        while seats := game.to_act(state):
            seat = seats[0]
            best = float("inf")
            for _ in range(REPEAT):
                began = time.perf_counter()
                game.prompt(state, seat)
                best = min(best, time.perf_counter() - began)
            times.append(best * 1000)
            move = game.interpret(state, seat, game.random_answer(state, seat, rng))
            state = game.apply(state, {seat: move.action})
    times.sort()
    p50 = statistics.median(times)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(
        f"{games} games of {players} players, {len(times)} prompts: "
        f"p50 {p50:.3f} ms, p99 {p99:.3f} ms, max {times[-1]:.3f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
