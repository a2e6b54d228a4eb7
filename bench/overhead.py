"""Referee overhead: arena versus a bare pipe harness on the same seeded STC games.

Both sides start the same two instant bots (they answer as soon as a turn's input is
read) and exchange exactly the same bytes: the bare harness replays the inputs arena
sent, with no rules, clocks or storage. Games alternate between the sides so machine
noise hits all alike. Two bare harnesses:

* **bare pipe**: ``subprocess.Popen`` of the bot, nothing else;
* **bare, sandbox K**: the bots started exactly as arena starts them in sandbox kind K,
  through arena's own launcher (``botproc.spawn``: the same sandbox, rlimits, cgroups,
  private folders, and the same kill of everything they started at the end), then the
  same bytes exchanged with no rules, clocks, replay or storage.

arena in sandbox K is compared with the bare harness of the same K (target: at most
1.2x, every protection on), and with the bare pipe. One more side is a what-if, not
arena: arena without a sandbox whose referee stays at nice -10 instead of taking a
real-time priority (``bench/what_if.py``), to show what fair stamps cost where the bots
hold every core. Also printed: arena's own CPU per
game (the referee's process alone, not the bots'; target at most 4 ms) and per step,
where each side's wall time goes (start-up to a game's second step, each later step
prompt to prompt, the end), and the machine: CPUs, load average, steal time.

Last, the floor under arena's own CPU per step: the game's rules and the replay's views
alone, in-process with no bots, on the very same games (each replay's recorded answers
played again): every call the referee makes to the game in a step (``to_act``,
``clock_ms``, ``prompt`` and ``interpret`` per seat, ``action_view``, ``apply``, ``view``
and its patch, ``turn_number``), CPU time, best of 3 rounds. Arena's per-step figure can
never go below it.

    python3 bench/overhead.py [--games 30] [--one-write]

``bench/protections.py`` breaks the cost of the protections down.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from arena.botproc import FILE_SIZE_CAP_BYTES, BotHome, Sandbox, bwrap_works, remove_retired
from arena.botproc.spawn import spawn
from arena.game import Game, Move, standing_moves
from arena.plugins.registry import load_registry
from arena.records import BotSpec
from arena.referee.engine import Referee
from arena.viewdiff import ViewRecorder
from what_if import realtime_off

NOT_REALTIME = "arena, none, nice -10"
"""The what-if side: arena without a sandbox, its referee not at a real-time priority."""

# Drops its pair in its lowest column, vertical: answers at once and survives a while.
# Its print writes each piece of the answer apart (arena runs Python bots unbuffered):
# "2", " ", "1", then the newline; with --one-write, the whole line at once.
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
ONE_WRITE = (
    "print(heights.index(min(heights)), 1, flush=True)",
    'sys.stdout.write(f"{heights.index(min(heights))} 1\\n"); sys.stdout.flush()',
)


Stamps = list[tuple[float, float]]
"""(wall, own CPU) as each step of a game began."""


@dataclass
class Phases:
    """Where one side's games spent their wall time (and its own CPU time between its
    second step and its last), summed over the games."""

    start_s: float = 0.0  # from a game's start to its second step
    steps_s: float = 0.0  # from its second step to its last
    steps: int = 0  # the steps in ``steps_s``
    end_s: float = 0.0  # from its last step to its end
    steps_cpu_s: float = 0.0  # own CPU time from its second step to its last

    def add(self, began: float, stamps: Stamps, ended: float) -> None:
        """One game: when it began, when each of its steps began (wall, own CPU), when it
        ended."""
        if len(stamps) < 2:
            return
        self.start_s += stamps[1][0] - began
        self.steps_s += stamps[-1][0] - stamps[1][0]
        self.steps_cpu_s += stamps[-1][1] - stamps[1][1]
        self.steps += len(stamps) - 2
        self.end_s += ended - stamps[-1][0]


def stamp() -> tuple[float, float]:
    """(wall, own CPU) now."""
    return time.perf_counter(), time.process_time()


def bare_game(argv: list[str], steps: list[dict[str, str]], stamps: Stamps) -> None:
    """Start both bots, send each recorded input, read one line back; nothing else.

    ``stamps`` receives the time each step begins."""
    procs = [
        subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE) for _ in range(2)
    ]
    try:
        exchange([p.stdin for p in procs], [p.stdout for p in procs], steps, stamps)
    finally:
        for p in procs:
            p.kill()
            p.wait()


def exchange(ins: list[Any], outs: list[Any], steps: list[dict[str, str]], stamps: Stamps) -> None:
    """Send each step's recorded inputs, read one line back from each seat."""
    for step in steps:
        stamps.append(stamp())
        for seat, text in step.items():
            pipe = ins[int(seat)]
            pipe.write(text.encode())
            pipe.flush()
        for seat in step:
            outs[int(seat)].readline()


def sandboxed_game(
    sandbox: Sandbox, argv: list[str], steps: list[dict[str, str]], stamps: Stamps
) -> None:
    """The bare harness with the bots started as arena starts them (``botproc.spawn`` in
    ``sandbox``: limits, cgroups, private folders) and killed as arena kills them."""
    home = BotHome.create("bench", 2, sandbox)
    bots = []
    try:
        for workdir in home.workdirs:
            bots.append(
                spawn(
                    argv,
                    workdir,
                    sandbox,
                    subprocess.PIPE,
                    subprocess.PIPE,
                    subprocess.PIPE,
                    FILE_SIZE_CAP_BYTES,
                    scratch=True,
                )
            )
        ins = [b.proc.stdin for b in bots]  # unbuffered: each write goes out at once
        outs = [os.fdopen(b.proc.stdout.fileno(), "rb", closefd=False) for b in bots]  # type: ignore[union-attr]
        exchange(ins, outs, steps, stamps)
    finally:
        for bot in bots:
            bot.signal()
        for bot in bots:
            bot.kill()
            for pipe in (bot.proc.stdin, bot.proc.stdout, bot.proc.stderr):
                if pipe is not None:
                    pipe.close()
        home.close()
        remove_retired()


@dataclass
class PlayedStep:
    """One step played again: what each timed part of the game's work starts from."""

    before: Any  # the state prompted, and whose answers are interpreted
    to_act: list[int]
    answers: dict[int, str]
    applied: Any  # the state the actions apply to (after any forfeit's elimination)
    actions: dict[int, Any]
    after: Any


class Replayed:
    """One stored game played again in-process from its replay's answers
    (``steps[i]["moves"]``), no bots; each method times a part of the game's work in its
    steps (CPU seconds)."""

    def __init__(self, game: Game[Any], seed: int, settings: dict[str, Any], replay: Any):
        self.game, self.seed, self.settings, self.replay = game, seed, settings, replay
        self.steps: list[PlayedStep] = []
        self.whole(self.steps)
        self.first_view = game.view(game.start(seed, 2, settings))

    def whole(self, played: list[PlayedStep] | None = None) -> float:
        """Every call the referee makes to the game in each step (not at the start);
        ``played``, when given, receives each step."""
        game = self.game
        state = game.start(self.seed, 2, self.settings)
        recorder = ViewRecorder(game.view(state))
        prompted = [False, False]
        begin = time.process_time()
        for step in self.replay["steps"]:
            to_act = list(game.to_act(state))
            before = state
            for seat in to_act:
                game.clock_ms(state, seat, not prompted[seat])
                prompted[seat] = True
                game.prompt(state, seat)
            answers = {int(s): text for s, text in step["moves"].items()}
            moves = {}
            for seat, text in answers.items():
                move = game.interpret(state, seat, text)
                assert isinstance(move, Move)
                moves[seat] = move
            for seat in step["forfeits"]:
                state = game.eliminate(state, int(seat))
            for move in moves.values():
                game.action_view(move.action)
            actions = {seat: move.action for seat, move in moves.items()}
            actions = standing_moves(game, state, actions, bool(step["forfeits"]))
            applied = state
            if actions:
                state = game.apply(state, actions)
            recorder.record(game.view(state))
            game.turn_number(state)
            if played is not None:
                played.append(PlayedStep(before, to_act, answers, applied, actions, state))
        elapsed = time.process_time() - begin
        assert game.turn_number(state) == self.replay["steps"][-1]["turn"], "not the game"
        return elapsed

    def prompts(self) -> float:
        """Every prompt of every step."""
        begin = time.process_time()
        for step in self.steps:
            for seat in step.to_act:
                self.game.prompt(step.before, seat)
        return time.process_time() - begin

    def interpret(self) -> float:
        """Every recorded answer read."""
        begin = time.process_time()
        for step in self.steps:
            for seat, text in step.answers.items():
                self.game.interpret(step.before, seat, text)
        return time.process_time() - begin

    def apply(self) -> float:
        """Every step's actions applied."""
        begin = time.process_time()
        for step in self.steps:
            if step.actions:
                self.game.apply(step.applied, step.actions)
        return time.process_time() - begin

    def views(self) -> float:
        """Every step's view and its patch."""
        recorder = ViewRecorder(self.first_view)  # once a game, not a step's work
        begin = time.process_time()
        for step in self.steps:
            recorder.record(self.game.view(step.after))
        return time.process_time() - begin


def rules_line(games: list[Replayed]) -> str:
    """The game's own work per step over ``games``: each part best of 3 rounds per game.

    Each round runs one part for every game in turn, so that a game's caches (STC's
    grids and prompt texts) are as cold as the other games leave them, not warmed by
    the same game a moment before."""
    parts = ("whole", "prompts", "interpret", "apply", "views")
    best = {(i, part): float("inf") for i in range(len(games)) for part in parts}
    for _ in range(3):
        for part in parts:
            for i, replayed in enumerate(games):
                best[i, part] = min(best[i, part], getattr(replayed, part)())
    total = {part: sum(best[i, part] for i in range(len(games))) for part in parts}
    per = 1e6 / max(1, sum(len(g.steps) for g in games))
    return (
        f"the game's rules and the replay's views alone, in-process (no bots; the floor under "
        f"arena's own CPU a step): {total['whole'] * per:.1f} us a step (prompts "
        f"{total['prompts'] * per:.1f}, interpret {total['interpret'] * per:.1f}, apply "
        f"{total['apply'] * per:.1f}, view + patch {total['views'] * per:.1f})"
    )


def machine() -> tuple[float, float, float]:
    """(load average over 1 min, steal jiffies, all jiffies) now, from /proc."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    return os.getloadavg()[0], float(fields[7] if len(fields) > 7 else 0), float(sum(fields))


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument(
        "--one-write", action="store_true", help="the bots write each answer in one write"
    )
    args = parser.parse_args()

    game_cls = load_registry().get("stc")
    work = Path(tempfile.mkdtemp(prefix="arena-bench-"))
    bot = work / "instant.py"
    bot.write_text(INSTANT_BOT.replace(*ONE_WRITE) if args.one_write else INSTANT_BOT)
    argv = [sys.executable, str(bot)]
    spec = BotSpec("instant", tuple(argv))
    settings = dict(game_cls.info.settings)
    # Each sandbox kind: every protection arena applies in it, where the machine allows.
    kinds = {"none": Sandbox("none")}
    if bwrap_works():
        kinds["bwrap"] = Sandbox("bwrap")
    sides = ["bare pipe"]
    for kind in kinds:
        sides += [f"bare, sandbox {kind}", f"arena, sandbox {kind}"]
    # What-if: arena without its real-time priority (compared with the bare harness of
    # its sandbox, none): what fair stamps cost on a machine whose cores the bots hold.
    sides.append(NOT_REALTIME)
    wall = dict.fromkeys(sides, 0.0)
    cpu = dict.fromkeys(sides, 0.0)  # each side's own process (not the bots')
    phases = {name: Phases() for name in sides}
    turns = steps_played = 0
    replays: list[tuple[int, Any]] = []  # each game's seed and stored replay

    def arena_game(
        kind: str, seed: int, folder: Path, stamps: Stamps, realtime: bool = True
    ) -> int:
        # The heartbeat (the watchdog's, in a tournament) is called as each step begins.
        referee = Referee(
            game_cls(),
            [spec, spec],
            folder,
            kinds[kind],
            heartbeat=lambda _seconds: stamps.append(stamp()),
        )
        with contextlib.nullcontext() if realtime else realtime_off():
            record = referee.play(seed, settings)
        return record.turns

    # Warm-up (page cache, bytecode, cgroup parents) outside the measurement.
    arena_game("none", 1, work / "warm", [])
    load0, steal0, total0 = machine()
    for i in range(args.games):
        seed = 1000 + i
        replay_dir = work / f"record{i}"
        turns += arena_game("none", seed, replay_dir, [])  # records the bytes to replay
        replay = json.loads((replay_dir / "replay.json").read_text())
        replays.append((seed, replay))
        steps = [{s: io["input"] for s, io in st["io"].items()} for st in replay["steps"]]
        steps_played += len(steps)
        runs: list[tuple[str, Callable[[Stamps], object]]] = [
            ("bare pipe", partial(bare_game, argv, steps))
        ]
        for k, (kind, sandbox) in enumerate(kinds.items()):
            runs.append((f"bare, sandbox {kind}", partial(sandboxed_game, sandbox, argv, steps)))
            runs.append(
                (f"arena, sandbox {kind}", partial(arena_game, kind, seed, work / f"v{k}-{i}"))
            )
        runs.append(
            (NOT_REALTIME, partial(arena_game, "none", seed, work / f"n-{i}", realtime=False))
        )
        # Rotate the order each game so that no side always runs first.
        shift = i % len(runs)
        for name, run in runs[shift:] + runs[:shift]:
            stamps: Stamps = []
            t0, c0 = time.perf_counter(), time.process_time()
            run(stamps)
            t1, used = time.perf_counter(), time.process_time() - c0
            phases[name].add(t0, stamps, t1)
            wall[name] += t1 - t0
            cpu[name] += used
    load1, steal1, total1 = machine()
    shutil.rmtree(work, ignore_errors=True)

    per = 1000 / args.games
    steal = 100 * (steal1 - steal0) / max(1.0, total1 - total0)
    print(
        f"{args.games} seeded STC games between two instant bots, {turns} turns, "
        f"{steps_played} steps; {os.cpu_count()} CPUs, load average {load0:.2f} at start, "
        f"{load1:.2f} at the end, steal {steal:.1f}% of CPU time"
    )
    print(f"{'':<24}  wall ms/game  own CPU ms/game  x bare pipe  x bare, same sandbox")
    for name in sides:
        ratio = wall[name] / wall["bare pipe"]
        same = ""
        if name.startswith("arena"):
            twin = "bare, sandbox none" if name == NOT_REALTIME else name.replace("arena", "bare")
            same = f"{wall[name] / wall[twin]:20.3f}"
        print(
            f"{name:<24}  {wall[name] * per:12.1f}  {cpu[name] * per:15.2f}  {ratio:11.3f}  {same}"
        )
    print("own CPU: the side's own process (the referee's, for arena), not the bots': steadier")
    print("than wall time on a loaded machine, where the bots' scheduling dominates")
    print("targets: arena at most 1.2x the bare harness of the same sandbox; arena's own CPU")
    print("at most 4 ms a game and 80 us a step")
    print(f"{NOT_REALTIME!r} is a what-if, not arena: its referee at nice -10, not at the")
    print("real-time priority arena takes where allowed (then bots that use their whole core")
    print("get late stamps: bench/clock_fidelity.py --spin --seats 2 --concurrency 1")
    print("--no-realtime)")
    print(rules_line([Replayed(game_cls(), seed, settings, replay) for seed, replay in replays]))
    print()
    print("where the wall time goes, per game (a step: prompts sent to every seat to move, then")
    print("their answers; between steps the referee applies the rules and records the step),")
    print("with the side's own CPU per step")
    print(f"{'':<24}  start-up   each later step (own CPU)    end")
    for name, ph in phases.items():
        step_us = ph.steps_s / max(ph.steps, 1) * 1e6
        step_cpu = ph.steps_cpu_s / max(ph.steps, 1) * 1e6
        print(
            f"{name:<24}: {ph.start_s * per:6.1f} ms  {step_us:8.0f} us ({step_cpu:4.0f} us)"
            f" ({ph.steps_s * per:4.1f} ms)  {ph.end_s * per:5.1f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
