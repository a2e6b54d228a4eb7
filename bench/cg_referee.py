"""cg-referee overhead: arena versus a bare cg-brutaltester-style relay, same referee games.

Both sides play the same seeded Sticks games (``examples/cg-referee/``) between two
instant bots through the same Python referee process. The bare relay does what
cg-brutaltester's loop does and nothing more: INIT, GET_GAME_INFO, forward the player's
input, read its lines, SET_PLAYER_OUTPUT, until SCORES (no clocks, sandbox, replay or
storage). arena plays through its referee, the cg-referee game and ``arena.ExternalProcess``
(with the sandbox off, as the relay has none). Games alternate between the two sides so
machine noise hits both alike. Prints both times per game and turn, and their ratio.

    python3 bench/cg_referee.py [--games 10] [--sticks 300]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

from arena.botproc import Sandbox
from arena.plugins.registry import load_registry
from arena.records import BotSpec
from arena.referee.engine import Referee
from cg_relay import relay_game

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "cg-referee"
REFEREE = [sys.executable, str(EXAMPLE / "sticks_referee.py")]
BOT = [sys.executable, str(EXAMPLE / "smart_bot.py")]


def bare_game(seed: int, sticks: int) -> int:
    """One game relayed the cg-brutaltester way; returns the number of turns."""
    return sum(relay_game(REFEREE, BOT, [f"seed={seed}", f"sticks={sticks}"]))


def arena_game(seed: int, sticks: int, root: Path) -> int:
    """One game through arena's referee; returns the number of turns."""
    game = load_registry().create("cg-referee")
    settings = {
        **game.info.settings,
        "referee": " ".join(REFEREE),
        "params": {"sticks": sticks},
    }
    bots = [BotSpec(name, tuple(BOT)) for name in ("a", "b")]
    record = Referee(game, bots, root / f"g{seed}", Sandbox("none")).play(seed, settings)
    assert all(s.forfeit is None for s in record.seats), record
    return record.turns


def main() -> None:
    """Alternate bare and arena games; print per-game and per-turn times and the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--sticks", type=int, default=300)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="arena-bench-cg-"))
    bare_s = arena_s = 0.0
    bare_turns = arena_turns = 0
    try:
        for seed in range(1, args.games + 1):
            start = time.perf_counter()
            bare_turns += bare_game(seed, args.sticks)
            bare_s += time.perf_counter() - start
            start = time.perf_counter()
            arena_turns += arena_game(seed, args.sticks, root)
            arena_s += time.perf_counter() - start
    finally:
        shutil.rmtree(root, ignore_errors=True)
    assert bare_turns == arena_turns, (bare_turns, arena_turns)
    print(f"{args.games} games of Sticks ({args.sticks} sticks), {arena_turns} turns in all")
    for label, seconds in (("bare relay", bare_s), ("arena", arena_s)):
        per_turn = seconds / arena_turns * 1000
        print(f"{label:10}  {seconds / args.games * 1000:8.1f} ms/game  {per_turn:6.3f} ms/turn")
    print(f"ratio arena / bare relay: {arena_s / bare_s:.2f}")


if __name__ == "__main__":
    main()
