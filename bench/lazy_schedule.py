"""A 1,000-bot round-robin run, stopped and resumed by the real ``arena run`` (issue 45,
item 4): start-up to the first game and the coordinator's peak memory, beside the old
code (which built every game's spec in a list) where it can run, then a resume of a store
holding a few thousand of the round-robin's games.

    python3 bench/lazy_schedule.py [--bots 200 400 1000] [--games 1 2] [--resume-games 2000]
                                   [--old /tmp/arena-lazy-old] [--work /tmp/arena-lazy]

``--old`` is a checkout of the code before lazy plans (made by ``git archive`` of
:data:`OLD_COMMIT` when missing); each checkout runs its own ``framework`` and ``games``
folders first on ``PYTHONPATH``. The bots are one instant shell bot (stc, ``max_turns:
1``, ``sandbox: none``, ``concurrency: 2``): the figures are the coordinator's. Per run:
wall seconds from the command's start to its first game stored (the store polled every
10 ms), the coordinator's CPU seconds (user + system, bots excluded) and peak memory
(``VmHWM``) at that moment, read from ``/proc``; then a SIGINT, as a user's Ctrl-C. The
old code refuses more than 200,000 games: those rows say so. The resume phase plays
``--resume-games`` games of the 1,000-bot round-robin, stops, resumes it (timed as above),
stops it again and checks that no key is stored twice and that the count shown
(``resuming: K of N``) is the store's.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OLD_COMMIT = "92553cf"
"""``main`` before lazy round-robin plans."""
BOT = """\
while true; do
  i=0
  while [ $i -lt 34 ]; do read -r line || exit 0; i=$((i+1)); done
  echo "0 1"
done
"""
OLD_CAP = 200_000


@dataclass
class Start:
    """One run until its first new game, stopped with SIGINT."""

    wall: float  # seconds from the command's start to its first new game stored
    cpu: float  # the coordinator's CPU seconds then
    peak_mb: float  # its VmHWM then
    stderr: str
    code: int
    stored: int  # games in the store once it stopped


def write_tournament(work: Path, bots: int, games: int) -> Path:
    (work / "bot").mkdir(parents=True, exist_ok=True)  # its own folder: part of its identity
    (work / "bot" / "bot.sh").write_text(BOT)
    lines = "\n".join(f"  - {{name: b{i:04d}, cmd: sh {work}/bot/bot.sh}}" for i in range(bots))
    path = work / f"rr-{bots}-{games}.yaml"
    path.write_text(
        f"name: lazy\ngame: stc\ngames: {games}\nseed: 1\nconcurrency: 2\nsandbox: none\n"
        f"settings:\n  max_turns: 1\noutput: {work}/out-{bots}-{games}\nbots:\n{lines}\n"
    )
    return path


def count(out: Path) -> int:
    try:
        db = sqlite3.connect(f"file:{out / 'arena.sqlite'}?mode=ro", uri=True, timeout=0.05)
        try:
            return int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        finally:
            db.close()
    except sqlite3.Error:
        return -1


def proc_figures(pid: int) -> tuple[float, float]:
    """(CPU seconds, peak MB) of a running process, from ``/proc``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    status = Path(f"/proc/{pid}/status").read_text()
    peak = int(re.search(r"VmHWM:\s+(\d+)", status).group(1))  # type: ignore[union-attr]
    return cpu, peak / 1024


def start(checkout: Path, path: Path, out: Path, until: int, timeout: float = 900) -> Start:
    """Run ``arena run PATH`` with ``checkout``'s code until ``until`` games are stored
    (first the first new one is timed), then SIGINT it."""
    env = dict(os.environ, COLUMNS="120")
    env["PYTHONPATH"] = os.pathsep.join([str(checkout / "framework"), str(checkout / "games")])
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    before = max(count(out), 0)
    began = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "arena", "run", str(path), "--output", str(out)],
        cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    wall = cpu = peak = math.nan
    while proc.poll() is None and time.monotonic() - began < timeout:
        stored = count(out)
        if math.isnan(wall) and stored > before:
            wall = time.monotonic() - began
            cpu, peak = proc_figures(proc.pid)
        if stored >= until:
            break
        time.sleep(0.01)
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)  # as a user's Ctrl-C
    _, err = proc.communicate(timeout=300)
    return Start(wall, cpu, peak, err, proc.returncode, count(out))


def plans(old: Path | None, bots: list[int], games: list[int]) -> None:
    """The plan's own cost in this process, what start-up does with it: the old list
    (``round_robin`` of ``old``'s schedule module), indexed by key, its seeds and its
    count, against the lazy plan's count, seeds and first spec. CPU seconds and the peak
    of Python's allocations (``tracemalloc``) during it."""
    import importlib.util
    import tracemalloc

    sys.path.insert(0, str(REPO / "framework"))
    from arena.tournament.schedule import RoundPlan

    listed = None
    if old is not None:
        spec = importlib.util.spec_from_file_location(
            "old_schedule", old / "framework/arena/tournament/schedule.py"
        )
        assert spec is not None and spec.loader is not None
        listed = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(listed)

    def old_start(names: list[str], g: int) -> int:
        specs = listed.round_robin(names, 2, g, 1)  # type: ignore[union-attr]
        by_key = {s.key: s for s in specs}
        seeds = {s.seed for s in specs}
        return len(by_key) + len(seeds)

    def new_start(names: list[str], g: int) -> int:
        plan = RoundPlan(names, 2, g, 1)
        return len(plan) + len(plan.round_seeds()) + next(iter(plan)).order

    print("| bots | games | planned | code | plan at start-up: CPU s | peak of allocations MB |")
    print("|---|---|---|---|---|---|")
    for n in bots:
        names = [f"b{i:04d}" for i in range(n)]
        for g in games:
            for name, run in (("old", old_start), ("new", new_start)):
                if name == "old" and listed is None:
                    continue
                tracemalloc.start()
                began = time.process_time()
                run(names, g)
                cpu = time.process_time() - began
                peak = tracemalloc.get_traced_memory()[1] / 2**20
                tracemalloc.stop()
                print(f"| {n} | {g} | {math.comb(n, 2) * g:,} | {name} | {cpu:.2f} | "
                      f"{peak:.1f} |", flush=True)  # fmt: skip


def startup(checkouts: dict[str, Path], work: Path, bots: list[int], games: list[int]) -> None:
    print("| bots | games | planned | code | first game (wall s) | CPU s | peak MB | exit |")
    print("|---|---|---|---|---|---|---|---|")
    for n in bots:
        for g in games:
            path = write_tournament(work, n, g)
            planned = math.comb(n, 2) * g
            for name, checkout in checkouts.items():
                out = work / f"out-{n}-{g}-{name}"
                shutil.rmtree(out, ignore_errors=True)
                if name == "old" and planned > OLD_CAP:
                    print(f"| {n} | {g} | {planned:,} | old | refused (more than "
                          f"{OLD_CAP:,} games) | | | |", flush=True)  # fmt: skip
                    continue
                r = start(checkout, path, out, 1)
                print(f"| {n} | {g} | {planned:,} | {name} | {r.wall:.2f} | {r.cpu:.2f} | "
                      f"{r.peak_mb:.0f} | {r.code} |", flush=True)  # fmt: skip
                shutil.rmtree(out, ignore_errors=True)


def resume(checkouts: dict[str, Path], work: Path, bots: int, games: int) -> int:
    """Play ``games`` games of a ``bots``-bot round-robin, stop, resume with each code
    (on a copy of the store), stop; 1 when a key is stored twice or a count is wrong."""
    path = write_tournament(work, bots, 1)
    planned = math.comb(bots, 2)
    base = work / f"resume-{bots}"
    shutil.rmtree(base, ignore_errors=True)
    began = time.monotonic()
    first = start(checkouts["new"], path, base, games, timeout=3600)
    kept = first.stored
    print(f"\nresume: {kept:,} of {planned:,} games played in {time.monotonic() - began:.0f} s, "
          f"stopped (exit {first.code})")  # fmt: skip
    print("| code | stored | resume to the first new game (wall s) | CPU s | peak MB | "
          "shown | exit | keys stored twice |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|")
    failed = 0
    for name, checkout in checkouts.items():
        if name == "old" and planned > OLD_CAP:
            print(f"| old | {kept:,} | refused (more than {OLD_CAP:,} games) | | | | | |")
            continue
        out = work / f"resume-{bots}-{name}"
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(base, out)
        r = start(checkout, path, out, kept + 1)
        shown = re.search(r"resuming: (\d+) of (\d+) games", r.stderr)
        said = f"{shown.group(1)} of {shown.group(2)}" if shown else "none"
        db = sqlite3.connect(out / "arena.sqlite")
        twice = db.execute("SELECT COUNT(*) - COUNT(DISTINCT key) FROM games").fetchone()[0]
        db.close()
        right = shown is not None and (int(shown.group(1)), int(shown.group(2))) == (kept, planned)
        failed |= int(twice != 0 or not right or r.code != 130)
        print(f"| {name} | {kept:,} | {r.wall:.2f} | {r.cpu:.2f} | {r.peak_mb:.0f} | {said} | "
              f"{r.code} | {twice} |", flush=True)  # fmt: skip
    return failed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, nargs="+", default=[200, 400, 1000])
    parser.add_argument("--games", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--resume-bots", type=int, nargs="+", default=[400, 1000])
    parser.add_argument("--resume-games", type=int, default=2000)
    parser.add_argument("--old", type=Path, default=Path("/tmp/arena-lazy-old"))
    parser.add_argument("--work", type=Path, default=Path("/tmp/arena-lazy"))
    parser.add_argument("--no-old", action="store_true", help="only this checkout's code")
    parser.add_argument("--plans-only", action="store_true", help="only the in-process plan costs")
    args = parser.parse_args()
    checkouts = {"new": REPO}
    if not args.no_old:
        from scale import old_checkout  # the other benches' checkout of an old revision

        checkouts = {"old": old_checkout(args.old, OLD_COMMIT), **checkouts}
    print(f"load before: {os.getloadavg()[0]:.1f} (2 cores shared)")
    plans(checkouts.get("old"), args.bots, args.games)
    if args.plans_only:
        return 0
    startup(checkouts, args.work, args.bots, args.games)
    failed = 0
    for bots in args.resume_bots:
        failed |= resume(checkouts, args.work, bots, args.resume_games)
    print(f"load after: {os.getloadavg()[0]:.1f}")
    return failed


if __name__ == "__main__":
    sys.exit(main())
