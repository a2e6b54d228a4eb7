"""Referee overhead: arena versus a bare pipe harness on the same seeded STC games.

Both sides start the same two instant bots (they answer as soon as a turn's input is
read) and exchange exactly the same bytes: the bare harness replays the inputs arena
sent, with no rules, clocks, sandbox or storage. Games alternate between the two sides
so machine noise hits both alike. Prints both times and their ratio (target: <= 1.2).

    python3 bench/overhead.py [--games 20] [--sandbox none|bwrap]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arena.botproc import Sandbox
from arena.plugins import load_registry
from arena.referee import BotSpec, Referee

# Drops its pair in its lowest column, vertical: answers at once and survives a while.
INSTANT_BOT = """\
import sys
while True:
    lines = [sys.stdin.readline() for _ in range(34)]
    if not lines[-1]:
        break
    rows = lines[9:21]
    heights = [sum(row[c] != "." for row in rows) for c in range(6)]
    print(heights.index(min(heights)), 1, flush=True)
"""


def bare_game(argv: list[str], steps: list[dict[str, str]]) -> None:
    """Start both bots, send each recorded input, read one line back; nothing else."""
    procs = [
        subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE) for _ in range(2)
    ]
    outs = [p.stdout for p in procs]
    ins = [p.stdin for p in procs]
    try:
        for step in steps:
            for seat, text in step.items():
                pipe = ins[int(seat)]
                assert pipe is not None
                pipe.write(text.encode())
                pipe.flush()
            for seat in step:
                out = outs[int(seat)]
                assert out is not None
                out.readline()
    finally:
        for p in procs:
            p.kill()
            p.wait()


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--sandbox", choices=("none", "bwrap"), default="none")
    args = parser.parse_args()

    game_cls = load_registry().get("stc")
    work = Path(tempfile.mkdtemp(prefix="arena-bench-"))
    bot = work / "instant.py"
    bot.write_text(INSTANT_BOT)
    argv = [sys.executable, str(bot)]
    spec = BotSpec("instant", tuple(argv))
    settings = dict(game_cls.info.settings)

    arena_s = bare_s = 0.0
    turns = 0
    # Warm-up (page cache, bytecode) outside the measurement.
    Referee(game_cls(), [spec, spec], work / "warm", Sandbox(args.sandbox)).play(1, settings)
    for i in range(args.games):
        seed = 1000 + i
        t0 = time.perf_counter()
        referee = Referee(game_cls(), [spec, spec], work / f"g{i}", Sandbox(args.sandbox))
        record = referee.play(seed, settings)
        arena_s += time.perf_counter() - t0
        turns += record.turns
        replay = json.loads((work / f"g{i}" / "replay.json").read_text())
        steps = [{s: io["input"] for s, io in st["io"].items()} for st in replay["steps"]]
        t0 = time.perf_counter()
        bare_game(argv, steps)
        bare_s += time.perf_counter() - t0
    shutil.rmtree(work, ignore_errors=True)

    print(f"games: {args.games} seeded STC games, {turns} turns in all, sandbox {args.sandbox}")
    print(f"arena referee: {arena_s:8.3f} s  ({1000 * arena_s / args.games:.1f} ms/game)")
    print(f"bare harness : {bare_s:8.3f} s  ({1000 * bare_s / args.games:.1f} ms/game)")
    print(f"ratio        : {arena_s / bare_s:.3f}  (target <= 1.2)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
