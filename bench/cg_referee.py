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
import contextlib
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arena.botproc import Sandbox
from arena.plugins import load_registry
from arena.referee import BotSpec, Referee

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "cg-referee"
REFEREE = [sys.executable, str(EXAMPLE / "sticks_referee.py")]
BOT = [sys.executable, str(EXAMPLE / "smart_bot.py")]
HEADER = re.compile(r"\[\[(.+)\] ?([0-9]+)\]")


def bare_game(seed: int, sticks: int) -> int:
    """One game relayed the cg-brutaltester way; returns the number of turns."""
    referee = subprocess.Popen(
        REFEREE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    bots = [
        subprocess.Popen(
            BOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        for _ in range(2)
    ]
    ref_in, ref_out = referee.stdin, referee.stdout
    assert ref_in is not None and ref_out is not None
    turns = 0
    try:
        ref_in.write(f"[[INIT] 3]\n2\nseed={seed}\nsticks={sticks}\n[[GET_GAME_INFO] 0]\n")
        ref_in.flush()
        inputs: list[str] = []
        while True:
            match = HEADER.fullmatch(ref_out.readline().rstrip("\n"))
            assert match is not None
            name, count = match[1], int(match[2])
            lines = [ref_out.readline().rstrip("\n") for _ in range(count)]
            if name == "NEXT_PLAYER_INPUT":
                inputs = lines
            elif name == "NEXT_PLAYER_INFO":
                player, expected = int(lines[0]), int(lines[1])
                bot_in, bot_out = bots[player].stdin, bots[player].stdout
                assert bot_in is not None and bot_out is not None
                bot_in.write("".join(f"{line}\n" for line in inputs))
                bot_in.flush()
                answer = [bot_out.readline().rstrip("\n") for _ in range(expected)]
                message = f"[[SET_PLAYER_OUTPUT] {expected}]\n" + "".join(f"{a}\n" for a in answer)
                ref_in.write(message + "[[GET_GAME_INFO] 0]\n")
                with contextlib.suppress(BrokenPipeError):  # the referee may be done
                    ref_in.flush()
                turns += 1
            elif name == "SCORES":
                return turns
    finally:
        for proc in (referee, *bots):
            proc.kill()
            proc.wait()


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
