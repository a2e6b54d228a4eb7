"""Referee overhead: arena versus a bare pipe harness on the same seeded STC games.

Both sides start the same two instant bots (they answer as soon as a turn's input is
read) and exchange exactly the same bytes: the bare harness replays the inputs arena
sent, with no rules, clocks, sandbox or storage. Games alternate between the two sides
so machine noise hits both alike. Prints both times and their ratio (target: <= 1.2).

    python3 bench/overhead.py [--games 30]

arena is timed in each sandbox kind the machine supports: ``none`` (own session, rlimits,
cgroups and a private /tmp where allowed) and ``bwrap`` (the default where bubblewrap
works). ``bench/protections.py`` breaks the cost down by protection.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from arena.botproc import Sandbox, bwrap_works
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
    parser.add_argument("--games", type=int, default=30)
    args = parser.parse_args()

    game_cls = load_registry().get("stc")
    work = Path(tempfile.mkdtemp(prefix="arena-bench-"))
    bot = work / "instant.py"
    bot.write_text(INSTANT_BOT)
    argv = [sys.executable, str(bot)]
    spec = BotSpec("instant", tuple(argv))
    settings = dict(game_cls.info.settings)
    # Each sandbox kind: every protection arena applies in it, where the machine allows.
    variants = {"sandbox none": Sandbox("none")}
    if bwrap_works():
        variants["sandbox bwrap"] = Sandbox("bwrap")
    arena_s = dict.fromkeys(variants, 0.0)
    arena_cpu = dict.fromkeys(variants, 0.0)  # the referee's own CPU time (not the bots')
    bare_s = bare_cpu = 0.0
    turns = 0

    def arena_game(variant: str, seed: int, folder: Path) -> int:
        referee = Referee(game_cls(), [spec, spec], folder, variants[variant])
        return referee.play(seed, settings).turns

    # Warm-up (page cache, bytecode) outside the measurement.
    arena_game("sandbox none", 1, work / "warm")
    for i in range(args.games):
        seed = 1000 + i
        replay_dir = work / f"record{i}"
        turns += arena_game("sandbox none", seed, replay_dir)  # records the bytes to replay
        replay = json.loads((replay_dir / "replay.json").read_text())
        steps = [{s: io["input"] for s, io in st["io"].items()} for st in replay["steps"]]
        runs: list[tuple[str, Callable[[], object]]] = [("bare", partial(bare_game, argv, steps))]
        runs += [
            (v, partial(arena_game, v, seed, work / f"v{k}-{i}")) for k, v in enumerate(variants)
        ]
        # Rotate the order each game so that no side always runs first.
        shift = i % len(runs)
        for name, run in runs[shift:] + runs[:shift]:
            t0, c0 = time.perf_counter(), time.process_time()
            run()
            elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
            if name == "bare":
                bare_s += elapsed
                bare_cpu += cpu
            else:
                arena_s[name] += elapsed
                arena_cpu[name] += cpu
    shutil.rmtree(work, ignore_errors=True)

    print(f"{args.games} seeded STC games between two instant bots, {turns} turns in all")
    per = 1000 / args.games
    print(
        f"bare harness            : {bare_s:7.3f} s  ({bare_s * per:.1f} ms/game; "
        f"its own CPU {bare_cpu * per:.1f} ms/game)"
    )
    for variant, seconds in arena_s.items():
        label = f"arena, {variant}"
        print(
            f"{label:<24}: {seconds:7.3f} s  ({seconds * per:.1f} ms/game; its own CPU "
            f"{arena_cpu[variant] * per:.1f} ms/game)  ratio {seconds / bare_s:.3f}"
        )
    print("(own CPU: the referee's process alone, not the bots'; steadier than wall time")
    print("on a loaded machine, where the bots' scheduling dominates the wall-time ratio)")
    print("target: arena with the default sandbox at most 1.2x the bare harness; the")
    print("protections add a fixed cost per bot process (once a game for persistent bots)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
