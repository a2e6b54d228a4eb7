"""The cost of recording each step's view in replays, next to the cost of the step's prompts.

For every installed game, random legal games are played in-process (no bots); for each
step the referee builds every prompt and, since replay format 2, also the view and its
patch against the previous one. Both are timed side by side (CPU time, best of several
rounds, so other processes on the machine matter less), and the stored patches are
compared in size with the full views they stand for.

    python3 bench/replay_views.py [--games 5] [--rounds 5]
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import time
from typing import Any

from arena.errors import ArenaError
from arena.game import Game, Move
from arena.plugins.registry import load_registry
from arena.viewdiff import diff, normalize


def random_game(game: Game[Any], seed: int, players: int) -> list[tuple[Any, list[int]]]:
    """The states of one random game, each with the seats to act in it."""
    rng = random.Random(seed)
    state = game.start(seed, players, dict(game.info.settings))
    states = []
    while seats := list(game.to_act(state)):
        states.append((state, seats))
        moves = {}
        for seat in seats:
            answer = game.interpret(state, seat, game.random_answer(state, seat, rng))
            assert isinstance(answer, Move)
            moves[seat] = answer.action
        state = game.apply(state, moves)
    states.append((state, []))
    return states


def time_prompts(game: Game[Any], states: list[tuple[Any, list[int]]]) -> float:
    """CPU seconds to build every prompt of the game."""
    start = time.process_time()
    for state, seats in states:
        for seat in seats:
            game.prompt(state, seat)
    return time.process_time() - start


def time_views(game: Game[Any], states: list[tuple[Any, list[int]]]) -> float:
    """CPU seconds to record every view as the referee does (view, normalize, patch)."""
    start = time.process_time()
    previous = normalize(game.view(states[0][0]))
    for state, _ in states[1:]:
        view = normalize(game.view(state))
        diff(previous, view)
        previous = view
    return time.process_time() - start


def main() -> None:
    """Print, per game: prompt and view time per step, their ratio, and replay bytes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    registry = load_registry()
    print(f"{'game':10} {'steps':>6} {'prompts us/step':>16} {'views us/step':>14} "
          f"{'ratio':>6} {'patch/full bytes':>17}")  # fmt: skip
    for gid, entry in sorted(registry.games.items()):
        game = entry.game()
        players = 2 if game.info.min_players <= 2 <= game.info.max_players else 1
        try:
            games = [random_game(game, seed, players) for seed in range(1, args.games + 1)]
        except ArenaError as exc:  # e.g. cg-referee: plays only with a referee command set
            print(f"{gid:10} skipped: {exc}")
            continue
        steps = sum(len(g) - 1 for g in games)
        # CPU time, best of the rounds: other processes on the machine inflate every round.
        prompts = views = float("inf")
        for _ in range(args.rounds):
            prompts = min(prompts, sum(time_prompts(game, states) for states in games))
            views = min(views, sum(time_views(game, states) for states in games))
        patch_bytes = full_bytes = 0
        for states in games:
            normalized = [normalize(game.view(s)) for s, _ in states]
            for a, b in itertools.pairwise(normalized):
                patch_bytes += len(json.dumps(diff(a, b)))
                full_bytes += len(json.dumps(b))
        per = 1e6 / steps
        print(
            f"{gid:10} {steps:>6} {prompts * per:>16.1f} {views * per:>14.1f} "
            f"{views / prompts:>6.2f} {patch_bytes / full_bytes:>17.2f}"
        )


if __name__ == "__main__":
    main()
