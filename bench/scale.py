"""The cost of commands as stores grow (issue 45): stores of 1k to 1M games between 10 to
1,000 bots, built through arena's own storage API, and the commands that read them, timed
beside the old code's (another checkout) on the same stores in the same run.

    python3 bench/scale.py [--games 1000 10000 100000 1000000] [--bots 10]
                           [--old /tmp/arena-old] [--old-rev REV] [--cache /tmp/arena-scale-2]
                           [--commands leaderboard ...] [--stores-only]

``--old`` is a checkout of the code to compare with (made by ``git archive REV | tar -x
-C /tmp/arena-old`` when missing, ``--old-rev REV``, default d0ef0b7); each checkout
runs its own ``framework`` and ``games`` folders first on ``PYTHONPATH``. Stores are
cached under ``--cache`` (a store is built once, by ``Store.add_games``: 2-player games
of random results, some forfeits, see :func:`build`). Per command and size: CPU seconds
(user + system of the command's process), peak memory (its max RSS) and, over the sizes,
the fitted growth exponent (the slope of log CPU over log games), and the new code's CPU
over the old's. ``leaderboard`` reads the fitted ratings kept by an earlier read;
``leaderboard, fitted again`` forgets them first (the first read after new games). Also
printed: storing's pace (games a second, one commit per game as before and batched), the
start-up of a tournament of 1,000 bots in one folder (``resume.bot_identities``), and
the load (``os.getloadavg``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "framework"))

from arena.records import GameRecord, SeatRecord  # noqa: E402
from arena.results.store import Store  # noqa: E402

OLD_COMMIT = "d0ef0b7"
FORFEITS = ("timeout", "crash", "invalid")


def bot_names(bots: int) -> list[str]:
    return [f"bot{i:04d}" for i in range(bots)]


def game_record(rng: random.Random, a: str, b: str, seed: int) -> GameRecord:
    """A 2-player game: a win either way or a draw, sometimes a forfeit."""
    first = rng.random()
    ranks = (0, 1) if first < 0.45 else (1, 0) if first < 0.9 else (0, 0)
    forfeit = rng.choice(FORFEITS) if rng.random() < 0.05 else None
    seats = [
        SeatRecord(bot=a, rank=ranks[0], score=float(1 - ranks[0]), moves=40, total_ms=80.0,
                   max_ms=5.0, forfeit=forfeit if ranks[0] else None, turn_ms=[2.0] * 40),
        SeatRecord(bot=b, rank=ranks[1], score=float(1 - ranks[1]), moves=40, total_ms=80.0,
                   max_ms=5.0, forfeit=forfeit if ranks[1] else None, turn_ms=[2.0] * 40),
    ]  # fmt: skip
    return GameRecord("stc", seed, {"max_turns": 200}, seats, "done", 40, 40, 120.0)


def games_to_store(games: int, bots: int) -> Iterator[tuple[Any, ...]]:
    """The ``add_game`` arguments of ``games`` random games between ``bots`` bots."""
    names = bot_names(bots)
    rng = random.Random(games * 1000 + bots)
    for n in range(games):
        a, b = rng.sample(names, 2)
        seed = n // 2
        identity = {"seed": seed, "bots": [{"name": a}, {"name": b}]}
        yield f"g{n}", n, n // 1000, "", game_record(rng, a, b, seed), identity


def add_games(store: Store, games: int, bots: int) -> None:
    for args in games_to_store(games, bots):
        store.add_game(*args)


BUILD_CHUNK = 100_000
"""Games a store is built with per transaction (``Store.add_games``)."""


def build(cache: Path, games: int, bots: int) -> Path:
    """The cached store of ``games`` games between ``bots`` bots (built when missing):
    through ``Store.add_games``, :data:`BUILD_CHUNK` games a transaction with the kept
    counts added once per chunk (the rows and counts a run writes, a million games in a
    few minutes of CPU rather than the half hour of one ``add_game`` each)."""
    import itertools
    import shutil

    out = cache / f"games{games}-bots{bots}"
    if (out / "built").is_file():
        return out
    if out.exists():
        shutil.rmtree(out)
    started = time.process_time()
    store = Store(out)
    store.set_meta({"name": out.name, "game": "stc", "format": "round-robin",
                    "bots": bot_names(bots), "variant_keys": [], "seed": 1})  # fmt: skip
    store.set_bots({name: f"python3 {name}.py" for name in bot_names(bots)})
    planned = games_to_store(games, bots)
    while chunk := list(itertools.islice(planned, BUILD_CHUNK)):
        store.add_games(chunk)
    assert store.kept(bot_names(bots)) is not None  # the kept counts are valid
    store.close()
    # One replay, for `arena view` of one game.
    replay = {"game": "stc", "seed": 0, "players": bot_names(2), "steps": [], "format": 2}
    (out / "games" / "g0").mkdir(parents=True, exist_ok=True)
    db = __import__("sqlite3").connect(out / "arena.sqlite")
    with db:
        db.execute("UPDATE games SET dir = 'games/g0' WHERE id = 1")
    db.close()
    (out / "games" / "g0" / "replay.json").write_text(json.dumps(replay))
    cpu = time.process_time() - started
    (out / "built").write_text(f"{cpu:.1f} s of CPU to build\n")
    print(f"built {games:,} games between {bots} bots: {cpu:.1f} s CPU", flush=True)
    return out


PEAK = """
import atexit, os, runpy, sys

def peak():  # this process's own high-water mark (max RSS would count the bench's too)
    with open("/proc/self/status") as status, open(os.environ["SCALE_PEAK"], "w") as out:
        out.write(next(line.split()[1] for line in status if line.startswith("VmHWM")))

atexit.register(peak)
sys.argv = ["arena", *sys.argv[1:]]
runpy.run_module("arena", run_name="__main__", alter_sys=True)
"""


def run(checkout: Path, args: list[str]) -> tuple[float, float, int]:
    """(CPU seconds, peak MB, exit code) of ``python -m arena ARGS`` with ``checkout``'s
    code. The peak is the command's ``VmHWM``: a child's max RSS would start at this
    process's size (Linux keeps it across ``fork`` and ``exec``)."""
    env = dict(os.environ, COLUMNS="120")
    env["PYTHONPATH"] = os.pathsep.join([str(checkout / "framework"), str(checkout / "games")])
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.NamedTemporaryFile("r", suffix=".peak") as peak:
        env["SCALE_PEAK"] = peak.name
        proc = subprocess.Popen(
            [sys.executable, "-c", PEAK, *args], env=env, cwd=tempfile.gettempdir(),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        _, status, usage = os.wait4(proc.pid, 0)
        kb = peak.read().strip()
    proc.returncode = os.waitstatus_to_exitcode(status)
    mb = int(kb) / 1024 if kb else float("nan")
    return usage.ru_utime + usage.ru_stime, mb, proc.returncode


def exponent(points: list[tuple[int, float]]) -> float | None:
    """The least-squares slope of log CPU over log size."""
    pts = [(math.log(n), math.log(max(c, 1e-3))) for n, c in points]
    if len(pts) < 2:
        return None
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    den = sum((x - mx) ** 2 for x, _ in pts)
    return sum((x - mx) * (y - my) for x, y in pts) / den if den else None


COMMANDS = {
    "leaderboard": lambda out: ["leaderboard", str(out)],
    "leaderboard, fitted again": lambda out: ["leaderboard", str(out)],
    "report": lambda out: ["report", str(out), "-o",
                           str(Path(tempfile.gettempdir()) / f"scale-{out.name}.html")],
    "list --bot X": lambda out: ["list", str(out), "--bot", "bot0001"],
    "list --bot X --result loss": lambda out: ["list", str(out), "--bot", "bot0001",
                                               "--result", "loss"],
    "view ID (one game)": lambda out: ["view", "1", "--from", str(out), "-o",
                                       str(Path(tempfile.gettempdir()) / "scale-view.html")],
}  # fmt: skip
REFIT = {"leaderboard, fitted again"}
"""Commands run with the kept fit forgotten first (:func:`forget_fit`): the first
leaderboard after new games, which fits Bradley-Terry and Elo again."""


def forget_fit(out: Path) -> None:
    """Drop the fitted ratings kept in ``out``'s store (the next read fits them again)."""
    import sqlite3

    db = sqlite3.connect(out / "arena.sqlite")
    with db:
        if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'kept_meta'").fetchone():
            db.execute("DELETE FROM kept_meta WHERE key = 'fitted'")
    db.close()


def storing_pace(games: int = 3000) -> dict[str, tuple[float, float]]:
    """Games stored a second through ``Store.add_game`` (by the wall clock, by this
    process's CPU): one commit each, and batched."""
    pace = {}
    for label, batched in (("one commit a game", False), ("batched", True)):
        with tempfile.TemporaryDirectory() as tmp:
            store = Store(Path(tmp))
            if batched:
                store.batch()
            ready = list(games_to_store(games, 10))  # made before: only storing is timed
            start, cpu = time.perf_counter(), time.process_time()
            for game in ready:
                store.add_game(*game)
            store.close()
            wall, cpu = time.perf_counter() - start, time.process_time() - cpu
            pace[label] = (games / wall, games / cpu)
    return pace


STARTUP = """
import sys, time
from pathlib import Path
from arena.cli.common import installed_games
from arena.tournament.config import load_tournament
from arena.tournament.resume import bot_identities
config = load_tournament(Path(sys.argv[1]), installed_games())
bot_identities(config)
"""


def startup(checkout: Path, cache: Path, bots: int = 1000) -> tuple[float, float]:
    """CPU and peak MB of loading a tournament of ``bots`` bots in one folder and making
    their identities (what `arena run` does before its first game)."""
    folder = cache / f"bots{bots}"
    folder.mkdir(parents=True, exist_ok=True)
    lines = ["name: many", "game: stc", "format: gauntlet", "champion: bot0000", "games: 2",
             "seed: 1",
             f"output: {cache / 'many-out'}", "bots:"]  # fmt: skip
    for name in bot_names(bots):
        (folder / f"{name}.py").write_text("print(0)\n")
        lines.append(f"  - {{name: {name}, cmd: python3 {folder / name}.py}}")
    yaml = cache / f"bots{bots}.yaml"
    yaml.write_text("\n".join(lines) + "\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(checkout / "framework"), str(checkout / "games")])
    proc = subprocess.Popen([sys.executable, "-c", STARTUP, str(yaml)], env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        return float("nan"), float("nan")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


LEAGUE = """
import sys, time
from types import SimpleNamespace
from arena.tournament.formats import LeagueScheduler
bots = int(sys.argv[1])
config = SimpleNamespace(bots=[SimpleNamespace(name=f"b{i}") for i in range(bots)],
                         variants=[], schedule_seed=1, games=None)
league = LeagueScheduler(config, [])
games = league.specs()
for _ in range(20):  # the first pairings (coverage first)
    next(games)
start = time.process_time()
rounds = int(sys.argv[2])
for _ in range(2 * rounds):
    next(games)
print((time.process_time() - start) / rounds * 1000)
"""


def league_pairing(checkout: Path, bots: int = 1000, rounds: int = 200) -> float:
    """CPU ms of the league's choice of the next pairing (a round), at ``bots`` bots."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(checkout / "framework"), str(checkout / "games")])
    out = subprocess.run([sys.executable, "-c", LEAGUE, str(bots), str(rounds)], env=env,
                         capture_output=True, text=True, check=True)  # fmt: skip
    return float(out.stdout)


def old_checkout(path: Path, rev: str = OLD_COMMIT) -> Path:
    if not (path / "framework").is_dir():
        path.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(REPO), "archive", rev],
                                 check=True, capture_output=True).stdout  # fmt: skip
        subprocess.run(["tar", "-x", "-C", str(path)], input=archive, check=True)
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1000, 10000, 100000, 1000000])
    parser.add_argument("--bots", type=int, nargs="+", default=[10])
    parser.add_argument("--old", type=Path, default=Path("/tmp/arena-old"))
    parser.add_argument("--old-rev", default=OLD_COMMIT,
                        help="the revision --old is made of when missing")  # fmt: skip
    parser.add_argument("--cache", type=Path, default=Path("/tmp/arena-scale-2"))
    parser.add_argument(
        "--old-up-to",
        type=int,
        default=1000000,
        help="time the old code only on stores up to this many games",
    )
    parser.add_argument("--commands", nargs="+", choices=list(COMMANDS), default=list(COMMANDS))
    parser.add_argument("--stores-only", action="store_true",
                        help="skip storing's pace, the league and start-up figures")  # fmt: skip
    args = parser.parse_args()
    old = old_checkout(args.old, args.old_rev)
    print(f"load before: {os.getloadavg()}")
    if not args.stores_only:
        side_figures(old, args.cache)
    for bots in args.bots:
        stores(old, args, bots)
    print(f"load after: {os.getloadavg()}")
    return 0


def side_figures(old: Path, cache: Path) -> None:
    """Storing's pace, the league's next pairing and the start-up of 1,000 bots."""
    for label, (wall, cpu) in storing_pace().items():
        print(f"storing, {label}: {wall:,.0f} games/s (wall), {cpu:,.0f} games/s of CPU")
    for name, checkout in (("new", REPO), ("old", old)):
        ms = league_pairing(checkout, rounds=200 if name == "new" else 20)
        print(f"league, next pairing at 1,000 bots ({name}): {ms:.3f} ms CPU a round")
    for name, checkout in (("new", REPO), ("old", old)):
        cpu, mb = startup(checkout, cache)
        print(f"start-up of 1,000 bots in one folder ({name}): {cpu:.2f} s CPU, {mb:.0f} MB")


def stores(old: Path, args: argparse.Namespace, bots: int) -> None:
    """Each command on each store of ``bots`` bots, new code and old, and the growth."""
    figures: dict[tuple[str, str], list[tuple[int, float]]] = {}
    for games in args.games:
        out = build(args.cache, games, bots)
        for command in args.commands:
            argv = COMMANDS[command]
            new_cpu = math.nan
            for name, checkout in (("new", REPO), ("old", old)):
                if name == "old" and games > args.old_up_to:
                    continue
                args_of = argv(out)
                if command in REFIT:
                    forget_fit(out)
                cpu, mb, code = run(checkout, args_of)
                figures.setdefault((command, name), []).append((games, cpu))
                size = ""
                if command == "report" and code == 0:
                    size = f"  {Path(args_of[-1]).stat().st_size / 1024:,.0f} KB page"
                ratio = ""
                if name == "new":
                    new_cpu = cpu
                elif cpu > 0:
                    ratio = f"  new/old {new_cpu / cpu:.2f}"
                print(f"{bots:>5} bots {games:>8} games  {command:<28} {name}: "
                      f"{cpu:7.2f} s CPU {mb:7.0f} MB  exit {code}{size}{ratio}  "
                      f"load {os.getloadavg()[0]:.1f}", flush=True)  # fmt: skip
    for (command, name), points in figures.items():
        slope = exponent(points)
        shown = "-" if slope is None else f"{slope:.2f}"
        print(f"{bots:>5} bots  {command:<28} {name}: growth exponent {shown}")


if __name__ == "__main__":
    raise SystemExit(main())
