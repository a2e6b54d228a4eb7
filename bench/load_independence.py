"""Results independent of load: bot0 against enemy (Smash The Code), the same seat-swapped
games played alone on the machine (one game at a time, no other work), then at the
default concurrency under each of these loads:

* ``hog``: a CPU hog (2 x cores busy processes outside arena);
* ``second-run``: a second ``arena run`` of the same games on the same machine, started
  just before (the two share the machine's cores through the core ledger);
* ``disk``: disk pressure (writers that write 8 MiB and ``fsync`` it, over and over, in a
  file beside the run's output).

Prints, for each phase: bot0's win rate with its 95% (Wilson) interval beside the quiet
run's, the timeouts of each (honest) bot, the games stored of the games planned, the games
replayed after a stall and given up, the waits for cores, the wall time, and the machine's
load, steal time and CPU count. Each loaded win rate must lie within the quiet run's
interval, with 0 timeouts and every game stored (issue 48's figures).

    python3 bench/load_independence.py [--games 200] [--max-turns 200] [--hog N|auto]
        [--writers 2] [--phases hog,second-run,disk] [--sandbox auto|none]
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from arena.plugins.registry import load_registry
from arena.tournament.config import load_tournament
from arena.tournament.run import run_tournament

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import machine, steal_ms

REPO = Path(__file__).resolve().parent.parent
HOG = "while True: pass"


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a win rate (draws count half)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def tournament_file(root: Path, label: str, games: int, sandbox: str, max_turns: int) -> Path:
    """The file of ``games`` bot0-enemy games (seats swapped per seed), output in
    ``root / label``."""
    out = root / label
    config_text = f"""
name: load-{label}
game: stc
format: round-robin
games: {games}
seed: 1
sandbox: {sandbox}
settings: {{max_turns: {max_turns}}}
bots:
  - name: bot0
    cmd: python3 {REPO / "bots/stc/bot0.py"}
  - name: enemy
    cmd: python3 {REPO / "bots/stc/enemy.py"}
output: {out}
"""
    path = root / f"{label}.yaml"
    path.write_text(config_text)
    return path


def play(
    root: Path, label: str, games: int, concurrency: int | None, sandbox: str, max_turns: int
) -> dict:
    """Play ``games`` bot0-enemy games (seats swapped per seed); what came out."""
    path = tournament_file(root, label, games, sandbox, max_turns)
    if concurrency is not None:
        path.write_text(path.read_text() + f"concurrency: {concurrency}\n")
    config = load_tournament(path, load_registry())
    said: list[str] = []
    started, stolen = time.perf_counter(), steal_ms()
    summary = run_tournament(config, log=said.append)
    took = time.perf_counter() - started
    rows = {row["bot"]: row for row in summary.leaderboard.rows()}
    bot0 = rows["bot0"]
    n = int(bot0["games"])
    wins = float(bot0.get("wins", 0)) + 0.5 * float(bot0.get("draws", 0))
    steal = steal_ms()
    return {
        "label": label,
        "concurrency": config.concurrency,
        "games": n,
        "wins": wins,
        "interval": wilson(wins, n),
        "timeouts": {b: int(r.get("timeout", 0)) for b, r in rows.items()},
        "planned": games,
        "stored": summary.played + summary.resumed,
        "waits": sum(line.startswith("arena: waiting for") for line in said),
        "oversubscribed": summary.oversubscribed,
        "replayed": summary.replayed,
        "given_up": summary.abandoned,
        "took": took,
        "steal": None if steal is None or stolen is None else steal - stolen,
        "machine": machine(),
    }


def rate(r: dict) -> float:
    """bot0's win rate (draws half)."""
    return float(r["wins"]) / max(1, int(r["games"]))


def show(r: dict, quiet: dict | None = None) -> None:
    low, high = r["interval"]
    steal = "unknown" if r["steal"] is None else f"{r['steal']:.0f} ms"
    beside = ""
    if quiet is not None:
        q_low, q_high = quiet["interval"]
        beside = f" (quiet {rate(quiet):.3f} [{q_low:.3f}, {q_high:.3f}])"
    print(
        f"{r['label']}: {r['stored']} of {r['planned']} games stored at concurrency "
        f"{r['concurrency']} in {r['took']:.0f} s; bot0 win rate {rate(r):.3f} "
        f"[{low:.3f}, {high:.3f}]{beside}; timeouts {r['timeouts']}; {r['replayed']} stall "
        f"replays, {r['given_up']} given up; {r['waits']} waits for cores, "
        f"{r['oversubscribed']} oversubscribed; {r['machine']}, steal {steal}",
        flush=True,
    )
    for line in r.get("notes", ()):
        print(f"  {line}", flush=True)


@contextmanager
def hogging(n: int) -> Iterator[None]:
    """``n`` busy processes outside arena while the block runs."""
    busy = [subprocess.Popen([sys.executable, "-c", HOG], start_new_session=True) for _ in range(n)]
    try:
        yield
    finally:
        for proc in busy:
            proc.kill()
            proc.wait()


DISK = """
import os, sys
block = os.urandom(1 << 20)
with open(sys.argv[1], "wb") as f:
    while True:
        f.seek(0)
        for _ in range(8):
            f.write(block)
        f.flush()
        os.fsync(f.fileno())
"""


@contextmanager
def disk_pressure(root: Path, writers: int) -> Iterator[None]:
    """``writers`` processes writing 8 MiB and ``fsync``-ing it, over and over, in files
    beside the run's output, while the block runs."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", DISK, str(root / f"pressure-{i}.bin")], start_new_session=True
        )
        for i in range(writers)
    ]
    try:
        yield
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()
        for i in range(writers):
            (root / f"pressure-{i}.bin").unlink(missing_ok=True)


def with_second_run(
    root: Path, label: str, games: int, sandbox: str, max_turns: int, notes: list[str]
) -> Callable[[], None]:
    """Start a second ``arena run`` of the same games (its own output); the function that
    waits for it to end and notes what it did in ``notes``."""
    path = tournament_file(root, f"{label}-other", games, sandbox, max_turns)
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "arena", "run", str(path), "--no-progress"],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )

    def finish() -> None:
        _, err = proc.communicate()
        took = time.perf_counter() - started
        stored = games_stored(root / f"{label}-other")
        waits = sum(line.startswith("arena: waiting for") for line in err.splitlines())
        notes.append(
            f"the second run: exit {proc.returncode}, {stored} of {games} games stored in "
            f"{took:.0f} s, {waits} waits for cores"
        )

    return finish


def games_stored(out: Path) -> int:
    """Games stored in a run's output folder (0 without a store)."""
    try:
        db = sqlite3.connect(f"file:{out / 'arena.sqlite'}?mode=ro", uri=True)
        try:
            return int(db.execute("SELECT COUNT(*) FROM current_games").fetchone()[0])
        finally:
            db.close()
    except sqlite3.Error:
        return 0


def loaded_phase(args: argparse.Namespace, root: Path, phase: str) -> dict:
    """Play the games at the default concurrency under ``phase``'s load."""
    games, sandbox, turns = args.games, args.sandbox, args.max_turns
    if phase == "hog":
        hogs = 2 * (os.cpu_count() or 1) if args.hog == "auto" else int(args.hog)
        with hogging(hogs):
            return play(root, f"hog{hogs}", games, None, sandbox, turns)
    if phase == "disk":
        with disk_pressure(root, args.writers):
            return play(root, f"disk{args.writers}", games, None, sandbox, turns)
    if phase == "second-run":
        notes: list[str] = []
        finish = with_second_run(root, phase, games, sandbox, turns, notes)
        try:
            result = play(root, phase, games, None, sandbox, turns)
        finally:
            finish()
        result["notes"] = notes
        return result
    raise SystemExit(f"unknown phase {phase!r} (hog, second-run, disk)")


def verdict(alone: dict, loaded: dict) -> bool:
    """Print and return whether ``loaded`` matches the quiet run as issue 48 asks: bot0's
    win rate inside the quiet run's interval, 0 timeouts, every game stored."""
    a, b = rate(alone), rate(loaded)
    within = alone["interval"][0] <= b <= alone["interval"][1]
    no_timeouts = not any(alone["timeouts"].values()) and not any(loaded["timeouts"].values())
    every_game = loaded["stored"] == loaded["planned"] and alone["stored"] == alone["planned"]
    ok = within and no_timeouts and every_game
    print(
        f"{loaded['label']}: win rates {a:.3f} alone, {b:.3f} loaded: "
        f"{'within' if within else 'NOT within'} the quiet run's 95% interval; "
        f"timeouts {'0' if no_timeouts else 'SOME'}; "
        f"{'every game stored' if every_game else 'games MISSING'}: " + ("OK" if ok else "FAILED")
    )
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per run (even)")
    parser.add_argument("--max-turns", type=int, default=200, help="stc's max_turns")
    parser.add_argument("--hog", default="auto", help="busy processes (auto: 2 x cores)")
    parser.add_argument("--writers", type=int, default=2, help="disk writers (fsync loops)")
    parser.add_argument("--phases", default="hog,second-run,disk", help="loads, in order")
    parser.add_argument("--sandbox", default="auto")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="load-independence-"))
    print(
        f"load independence: bot0 vs enemy, {args.games} games per run, max_turns "
        f"{args.max_turns}; {machine()}",
        flush=True,
    )
    ok = True
    try:
        alone = play(root, "alone", args.games, 1, args.sandbox, args.max_turns)
        show(alone)
        for phase in [p for p in args.phases.split(",") if p]:
            loaded = loaded_phase(args, root, phase)
            show(loaded, alone)
            ok = verdict(alone, loaded) and ok
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
