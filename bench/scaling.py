"""Scaling on one machine: games per second at concurrency 1, 2, ..., cores, and on Dask.

    python3 bench/scaling.py [--games 80] [--heavy-games 24] [--rounds 3] [--sandbox auto]
                             [--no-dask | --dask-only]

Whole tournaments through ``arena.tournament.run.run_tournament`` (scheduler, worker pool,
SQLite, replays: everything but the progress bar), on seeded Smash The Code games:

- **instant**: two bots that answer as soon as a turn's input is read and start in about
  2 ms (awk scripts), so the time is arena's own (processes, referee, storage). Target:
  concurrency ``cores`` plays at least 0.9 x cores x the games per second of concurrency 1.
- **instant, Python**: the same bots in Python, as most users write them. Each game starts
  two interpreters at once (40-50 ms of CPU each here, over three times that through a pyenv
  shim), so at concurrency 1 a game already keeps more than one core busy and ``cores``
  games at once cannot reach ``cores`` times the rate: shown, not held to the target.
- **cpu-heavy**: a Python bot that computes for 20 ms of CPU each turn against an instant
  one, so one core is busy per game: the ceiling is ``cores`` x concurrency 1.

Python bots run with this interpreter (``sys.executable``), not whatever ``python3`` is
first on ``PATH``. Levels run interleaved (1, 2, ..., 1, 2, ...) ``--rounds`` times so that
noise on a shared machine hits every level alike; each figure is the median over the
rounds. Two rates per level: ``wall`` (games / wall time, start-up of the worker processes
included: what a user waits for) and ``steady`` (games between the first and the last
stored / the time between them: the executor's pace once running), turns per second,
forfeits, and the CPU time of ``arena run``'s own process per game (it only schedules and
stores them: every game is played in a worker process). With ``--sandbox none`` also the
CPU time per game of every process (bots included: inside bubblewrap they escape the
accounting) and the cores kept busy: the same CPU per game at every level means arena
does no extra work in parallel, so a speed-up short of the target is cores it did not get.
Then the Dask executor (a LocalCluster of two workers) against the local executor at
concurrency 2 (instant bots), interleaved the same way (``--dask-only``: that alone), with
the coordinator's CPU per game once games are being stored (its fixed cost left out) and,
with ``--sandbox none``, how many worker cores one coordinator core keeps busy.
"""

from __future__ import annotations

import argparse
import functools
import os
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.plugins.registry import load_registry
from arena.results import store as store_module
from arena.tournament.config import load_tournament
from arena.tournament.keys import keyword_overrides
from arena.tournament.run import run_tournament

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import machine, steal_ms

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
# The instant bot in awk: the same moves, and it starts in about 2 ms.
INSTANT_AWK = """\
{ n++; if (n >= 10 && n <= 21) for (c = 0; c < 6; c++) if (substr($0, c + 1, 1) != ".") h[c]++ }
n == 34 {
    best = 0
    for (c = 1; c < 6; c++) if (h[c] + 0 < h[best] + 0) best = c
    print best, 1
    fflush()
    n = 0
    split("", h)
}
"""
# The instant bot's move, after 20 ms of CPU (process time: the same work however loaded).
HEAVY_BOT = INSTANT_BOT.replace(
    "    rows = lines[9:21]",
    "    import time\n"
    "    end = time.process_time() + 0.020\n"
    "    while time.process_time() < end:\n"
    "        pass\n"
    "    rows = lines[9:21]",
)
TOURNAMENT = """\
name: scaling
game: stc
games: {games}
seed: 3
sandbox: {sandbox}
settings:
  max_turns: 30
bots:
  - name: a
    cmd: {a}
  - name: b
    cmd: {b}
output: {out}
"""


@dataclass
class Run:
    """One tournament: games stored, wall seconds, steady games/s, forfeits, turns played,
    CPU seconds of ``arena run``'s own process (scheduling, storage, results)."""

    games: int
    wall: float
    steady: float
    forfeits: int
    turns: int
    coordinator_cpu: float
    total_cpu: float  # this process and every process it waited for: workers, bots
    steady_cpu: float = 0.0
    """CPU seconds of ``arena run``'s process per game between the first and the last game
    stored (its fixed cost, such as importing ``distributed``, left out)."""

    @property
    def cores_busy(self) -> float:
        """CPU seconds of every process of the run per second of wall time."""
        return self.total_cpu / self.wall

    @property
    def rate(self) -> float:
        """Games per second of wall time."""
        return self.games / self.wall


_stamps: list[float] = []
_cpu_stamps: list[float] = []
_original_add = store_module.Store.add_game


def _stamped_add(self: Any, *args: Any, **kwargs: Any) -> int:
    _stamps.append(time.perf_counter())
    _cpu_stamps.append(time.process_time())
    return _original_add(self, *args, **kwargs)


store_module.Store.add_game = _stamped_add  # type: ignore[method-assign]


def play(path: Path, out: Path, concurrency: int, executor: str = "local") -> Run:
    """Run the tournament file into a fresh ``out`` and time it."""
    shutil.rmtree(out, ignore_errors=True)
    given = {"output": str(out), "concurrency": concurrency, "executor": executor}
    config = load_tournament(path, load_registry(), keyword_overrides(given))
    _stamps.clear()
    _cpu_stamps.clear()
    cpu0, all0 = time.process_time(), _all_cpu()
    t0 = time.perf_counter()
    summary = run_tournament(config, log=lambda msg: None)
    wall = time.perf_counter() - t0
    cpu, total = time.process_time() - cpu0, _all_cpu() - all0
    steady = (len(_stamps) - 1) / (_stamps[-1] - _stamps[0]) if len(_stamps) > 1 else 0.0
    forfeits = sum(
        row.forfeits.get(kind, 0)
        for row in summary.leaderboard.stats
        for kind in ("timeout", "crash", "invalid", "illegal")
    )
    stored = store_module.open_existing(out)
    try:
        turns = sum(row.turns for row in stored.games())
    finally:
        stored.close()
    steady_cpu = (
        (_cpu_stamps[-1] - _cpu_stamps[0]) / (len(_cpu_stamps) - 1) if len(_cpu_stamps) > 1 else 0.0
    )
    return Run(summary.played, wall, steady, forfeits, turns, cpu, total, steady_cpu)


def _all_cpu() -> float:
    """CPU seconds of this process and of every descendant it (or they) waited for."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def write(work: Path, name: str, a: str, b: str, games: int, sandbox: str) -> Path:
    """A tournament file of ``games`` games between bots ``a`` and ``b`` (Python or awk
    sources)."""
    folder = work / name
    # The bots in a folder of their own: the outputs, written next to them, are no part
    # of the bots (Dask would ship them and check their copies before every game).
    (folder / "bots").mkdir(parents=True)
    commands = [
        bot_command(folder / "bots" / seat, source) for seat, source in (("a", a), ("b", b))
    ]
    path = folder / "t.yaml"
    # Two bots, seats swapped per seed: `games` per combination is the number of games.
    text = TOURNAMENT.format(
        games=games, sandbox=sandbox, a=commands[0], b=commands[1], out=folder / "out"
    )
    path.write_text(text)
    return path


def bot_command(stem: Path, source: str) -> str:
    """Write ``source`` next to ``stem`` and return the command that runs it."""
    if source == INSTANT_AWK:
        script = stem.with_suffix(".awk")
        script.write_text(source)
        return f"awk {awk_flags()}-f {shlex.quote(str(script))}"
    script = stem.with_suffix(".py")
    script.write_text(source)
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"


@functools.cache
def awk_flags() -> str:
    """mawk (Debian's awk) reads a pipe in whole blocks unless told to be interactive.

    Asked once: every awk bot's command uses the answer."""
    try:
        version = subprocess.run(
            ["awk", "-W", "version"], capture_output=True, text=True, timeout=10
        ).stdout
    except (OSError, subprocess.SubprocessError):
        version = ""
    return "-W interactive " if version.startswith("mawk") else ""


def median_runs(runs: list[Run]) -> tuple[float, float, int]:
    """Median wall rate, median steady rate, total forfeits."""
    return (
        statistics.median(r.rate for r in runs),
        statistics.median(r.steady for r in runs),
        sum(r.forfeits for r in runs),
    )


def turn_rate(runs: list[Run]) -> float:
    """Median turns per second of wall time (unlike games/s, not raised by short games)."""
    return statistics.median(r.turns / r.wall for r in runs)


def all_cpu_per_game_ms(runs: list[Run]) -> float:
    """Median CPU milliseconds per game of every process of the run (bots included)."""
    return statistics.median(1000 * r.total_cpu / max(1, r.games) for r in runs)


def cores_busy(runs: list[Run]) -> float:
    """Median cores kept busy by the run's processes."""
    return statistics.median(r.cores_busy for r in runs)


def cpu_per_game_ms(runs: list[Run]) -> float:
    """Median CPU milliseconds of the coordinator process per game."""
    return statistics.median(1000 * r.coordinator_cpu / max(1, r.games) for r in runs)


def steady_cpu_ms(runs: list[Run]) -> float:
    """Median CPU milliseconds of the coordinator per game once games are being stored."""
    return statistics.median(1000 * r.steady_cpu for r in runs)


def scaling(path: Path, levels: list[int], rounds: int, label: str) -> dict[int, list[Run]]:
    """Every level ``rounds`` times, interleaved."""
    runs: dict[int, list[Run]] = {c: [] for c in levels}
    for r in range(rounds):
        order = levels if r % 2 == 0 else levels[::-1]
        for c in order:
            runs[c].append(play(path, path.parent / f"out-{c}", c))
            last = runs[c][-1]
            print(
                f"  {label} round {r + 1} concurrency {c}: {last.games} games in "
                f"{last.wall:.2f} s ({last.rate:.2f}/s wall, {last.steady:.2f}/s steady)",
                file=sys.stderr,
                flush=True,
            )
    return runs


def report(label: str, runs: dict[int, list[Run]], target: float | None, cpu: bool) -> None:
    """Print one workload's table: rates and ratios to concurrency 1 (and CPU use)."""
    base_wall, base_steady, _ = median_runs(runs[1])
    base_turns = turn_rate(runs[1])
    print(f"\n{label}")
    header = (
        "  concurrency  games/s wall  x c=1   games/s steady  x c=1   turns/s  x c=1"
        "   forfeits  coordinator CPU ms/game"
    )
    print(header + ("  all CPU ms/game  cores busy" if cpu else ""))
    lost = 0
    for c, level in runs.items():
        wall, steady, forfeits = median_runs(level)
        lost += forfeits
        line = (
            f"  {c:>11}  {wall:12.2f}  {wall / base_wall:5.2f}   {steady:14.2f}  "
            f"{steady / base_steady:5.2f}   {turn_rate(level):7.1f}  "
            f"{turn_rate(level) / base_turns:5.2f}   {forfeits:8d}  {cpu_per_game_ms(level):23.1f}"
        )
        if cpu:
            line += f"  {all_cpu_per_game_ms(level):15.1f}  {cores_busy(level):10.2f}"
        print(line)
    top = max(runs)
    wall, steady, _ = median_runs(runs[top])
    if target is not None:
        verdict = "met" if wall / base_wall >= target * top else "NOT met"
        print(
            f"  target: concurrency {top} >= {target} x {top} x concurrency 1 (wall): {verdict} "
            f"({wall / base_wall:.2f} vs {target * top:.2f}); steady {steady / base_steady:.2f}"
        )
    if cpu:
        # The same CPU per game at every level means arena does no extra work in parallel:
        # what is missing from the speed-up is cores it did not get (others' load) or a
        # game that already keeps more than one core busy (simultaneous bots).
        extra = all_cpu_per_game_ms(runs[top]) / all_cpu_per_game_ms(runs[1])
        print(
            f"  CPU per game at concurrency {top} / at 1: {extra:.2f}; cores busy "
            f"{cores_busy(runs[1]):.2f} at 1, {cores_busy(runs[top]):.2f} at {top} of {top}"
        )
    if lost:
        print(
            f"  warning: {lost} forfeits (bots missed their clocks: the machine is loaded);"
            " a forfeit shortens its game, so games/s are not comparable: see turns/s"
        )


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=80, help="instant games per run")
    parser.add_argument("--heavy-games", type=int, default=24, help="cpu-heavy games per run")
    parser.add_argument("--rounds", type=int, default=3, help="runs of every level")
    parser.add_argument("--sandbox", default="auto", choices=("auto", "bwrap", "none"))
    parser.add_argument("--no-dask", action="store_true", help="skip the Dask comparison")
    parser.add_argument(
        "--dask-only", action="store_true", help="only the Dask comparison (instant bots)"
    )
    args = parser.parse_args()

    cores = os.cpu_count() or 1
    levels = list(range(1, cores + 1))
    work = Path(tempfile.mkdtemp(prefix="arena-scaling-"))
    os.chdir(work)
    try:
        instant = write(work, "instant", INSTANT_AWK, INSTANT_AWK, args.games, args.sandbox)
        python = write(work, "python", INSTANT_BOT, INSTANT_BOT, args.games, args.sandbox)
        heavy = write(work, "heavy", HEAVY_BOT, INSTANT_BOT, args.heavy_games, args.sandbox)
        steal0 = steal_ms()
        print(f"{machine()} at start, sandbox {args.sandbox}")
        play(instant, work / "warm", 1)  # page cache and bytecode, outside the figures
        if args.dask_only:
            dask_vs_local(instant, args.rounds, args.sandbox == "none")
            print(f"{machine()} at the end{steal(steal0)}")
            return 0
        instant_runs = scaling(instant, levels, args.rounds, "instant")
        python_runs = scaling(python, levels, args.rounds, "instant, Python")
        heavy_runs = scaling(heavy, levels, args.rounds, "cpu-heavy")
        # Bots inside bubblewrap are not waited for by arena: their CPU time is not counted.
        cpu = args.sandbox == "none"
        report(f"instant bots (awk), {args.games} games per run", instant_runs, 0.9, cpu)
        python_label = (
            f"instant bots in Python (two interpreters start per game), {args.games} games"
        )
        report(python_label, python_runs, None, cpu)
        heavy_label = f"cpu-heavy bot (20 ms CPU a turn), {args.heavy_games} games"
        report(heavy_label, heavy_runs, None, cpu)
        if not cpu:
            print("\n(CPU per game of all processes: with --sandbox none only)")
        if not args.no_dask:
            dask_vs_local(instant, args.rounds, args.sandbox == "none")
        print(f"{machine()} at the end{steal(steal0)}")
    finally:
        os.chdir("/")
        shutil.rmtree(work, ignore_errors=True)
    return 0


def steal(before: float | None) -> str:
    """``, steal 0.3%`` of every core's time since ``before`` (empty when unknown)."""
    after = steal_ms()
    if before is None or after is None:
        return ""
    spent = (time.perf_counter() - _start) * 1000 * (os.cpu_count() or 1)
    return f", steal {100 * (after - before) / max(spent, 1e-9):.1f}%"


_start = time.perf_counter()


def dask_vs_local(path: Path, rounds: int, cpu: bool = False) -> None:
    """The Dask executor (LocalCluster, 2 workers) against the local executor (-j 2)."""
    runs: dict[str, list[Run]] = {"local": [], "dask": []}
    for r in range(rounds):
        for executor in ("local", "dask") if r % 2 == 0 else ("dask", "local"):
            runs[executor].append(play(path, path.parent / f"out-{executor}", 2, executor))
            last = runs[executor][-1]
            print(
                f"  {executor} round {r + 1}: {last.games} games in {last.wall:.2f} s",
                file=sys.stderr,
                flush=True,
            )
    local_wall, local_steady, _ = median_runs(runs["local"])
    dask_wall, dask_steady, _ = median_runs(runs["dask"])
    print("\ninstant bots, concurrency 2: Dask (LocalCluster of 2 workers) against local")
    print(
        "  executor  games/s wall  games/s steady  turns/s  forfeits  coordinator CPU ms/game"
        "  steady"
    )
    for name, level in runs.items():
        wall, steady, forfeits = median_runs(level)
        print(
            f"  {name:<8}  {wall:12.2f}  {steady:14.2f}  {turn_rate(level):7.1f}  "
            f"{forfeits:8d}  {cpu_per_game_ms(level):23.1f}  {steady_cpu_ms(level):6.2f}"
        )
    print(
        f"  dask / local: {dask_wall / local_wall:.2f} wall (cluster start-up included), "
        f"{dask_steady / local_steady:.2f} steady, "
        f"{turn_rate(runs['dask']) / turn_rate(runs['local']):.2f} turns/s"
    )
    if cpu:
        # A game's core time (its referee and bots: every process the local run waited
        # for) over the coordinator's own CPU per game on Dask: the worker cores one
        # coordinator core keeps busy.
        game, coordinator = all_cpu_per_game_ms(runs["local"]), steady_cpu_ms(runs["dask"])
        print(
            f"  a game takes {game:.1f} ms of CPU (local executor, every process); one "
            f"coordinator core at {coordinator:.2f} ms a game keeps about "
            f"{game / coordinator:.0f} worker cores busy"
        )


if __name__ == "__main__":
    sys.exit(main())
