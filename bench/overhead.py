"""Referee overhead: arena versus a bare pipe harness on the same seeded STC games.

Both sides start the same two instant bots (they answer as soon as a turn's input is
read) and exchange exactly the same bytes: the bare harness replays the inputs arena
sent, with no rules, clocks, sandbox or storage. Games alternate between the two sides
so machine noise hits both alike. Prints both times and their ratio (target: <= 1.2),
then where each side's time goes: start-up (from a game's start to its second step: both
bots started and answered once), each later step (prompt to prompt: the bots' answers and
the referee's work between them) and the end (the last step, stopping, the replay).

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
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from arena.botproc import Sandbox, bwrap_works
from arena.plugins.registry import load_registry
from arena.records import BotSpec
from arena.referee.engine import Referee

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


@dataclass
class Phases:
    """Where one side's games spent their wall time, summed over the games."""

    start_s: float = 0.0  # from a game's start to its second step
    steps_s: float = 0.0  # from its second step to its last
    steps: int = 0  # the steps in ``steps_s``
    end_s: float = 0.0  # from its last step to its end

    def add(self, began: float, stamps: list[float], ended: float) -> None:
        """One game: when it began, when each of its steps began, when it ended."""
        if len(stamps) < 2:
            return
        self.start_s += stamps[1] - began
        self.steps_s += stamps[-1] - stamps[1]
        self.steps += len(stamps) - 2
        self.end_s += ended - stamps[-1]


def bare_game(argv: list[str], steps: list[dict[str, str]], stamps: list[float]) -> None:
    """Start both bots, send each recorded input, read one line back; nothing else.

    ``stamps`` receives the time each step begins."""
    procs = [
        subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE) for _ in range(2)
    ]
    outs = [p.stdout for p in procs]
    ins = [p.stdin for p in procs]
    try:
        for step in steps:
            stamps.append(time.perf_counter())
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
    phases = {name: Phases() for name in ["bare", *variants]}

    def arena_game(variant: str, seed: int, folder: Path, stamps: list[float]) -> int:
        # The heartbeat (the watchdog's, in a tournament) is called as each step begins.
        referee = Referee(
            game_cls(),
            [spec, spec],
            folder,
            variants[variant],
            heartbeat=lambda _seconds: stamps.append(time.perf_counter()),
        )
        return referee.play(seed, settings).turns

    # Warm-up (page cache, bytecode) outside the measurement.
    arena_game("sandbox none", 1, work / "warm", [])
    for i in range(args.games):
        seed = 1000 + i
        replay_dir = work / f"record{i}"
        turns += arena_game("sandbox none", seed, replay_dir, [])  # records the bytes to replay
        replay = json.loads((replay_dir / "replay.json").read_text())
        steps = [{s: io["input"] for s, io in st["io"].items()} for st in replay["steps"]]
        runs: list[tuple[str, Callable[[list[float]], object]]] = [
            ("bare", partial(bare_game, argv, steps))
        ]
        runs += [
            (v, partial(arena_game, v, seed, work / f"v{k}-{i}")) for k, v in enumerate(variants)
        ]
        # Rotate the order each game so that no side always runs first.
        shift = i % len(runs)
        for name, run in runs[shift:] + runs[:shift]:
            stamps: list[float] = []
            t0, c0 = time.perf_counter(), time.process_time()
            run(stamps)
            t1, cpu = time.perf_counter(), time.process_time() - c0
            elapsed = t1 - t0
            phases[name].add(t0, stamps, t1)
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
    print()
    print("where the time goes, per game (a step: prompts sent to every seat to move, then")
    print("their answers; between steps the referee applies the rules and records the step)")
    print(f"{'':<24}  start-up   each later step   end")
    for name, ph in phases.items():
        label = "bare harness" if name == "bare" else f"arena, {name}"
        step_us = ph.steps_s / max(ph.steps, 1) * 1e6
        print(
            f"{label:<24}: {ph.start_s * per:6.1f} ms  {step_us:8.0f} us"
            f" ({ph.steps_s * per:4.1f} ms)  {ph.end_s * per:5.1f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
