#!/usr/bin/env python3
"""What ``arena run`` costs to resume a large tournament, end to end (issue 45, item 4).

For each size, a tournament of two shipped bots and a store of its games, written
straight into SQLite with the identities ``arena run`` gives them and its kept ratings
built, as the runs that stored them would have left it (:func:`fill`): a ``round-robin``
of ``games`` games, all stored but the last round; an open-ended ``league`` (no
``games``: it never ends) with ``games`` stored. Then ``arena run`` is timed three
times, each in its own process, to its first new game (then stopped with Ctrl-C; a
round-robin with nothing left to play, to its end), with its CPU seconds and peak
memory: *first resume* (no run has checked the store: every game is checked), *again*
(the same file: only the games stored since are), *touched* (a comment added to the
file: nothing that decides a game). Sizes side by side show the growth; the load
(``os.getloadavg``) is printed.

Run: python3 bench/resume_run.py [--games 1000 100000 1000000] [--format round-robin league]
                                 [--bots 2]   (1000: a 1,000-bot round-robin of 499,500 games)
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "framework"))
sys.path.insert(1, str(REPO / "games"))

from arena.plugins.registry import load_registry  # noqa: E402
from arena.results import kept  # noqa: E402
from arena.results.identity import canonical  # noqa: E402
from arena.results.store import Store  # noqa: E402
from arena.tournament.config import load_tournament  # noqa: E402
from arena.tournament.formats import fixed_plan  # noqa: E402
from arena.tournament.resume import bot_identities  # noqa: E402
from arena.tournament.schedule import pair_round  # noqa: E402

BOTS = REPO / "bots" / "stc"
TOURNAMENT = """name: resume-bench
game: stc
format: {format}
{limit}seed: 1
settings: {{max_turns: 4}}
bots:
{bot_lines}
output: {output}
"""
CHUNK = 50_000
OLD_COMMIT = "b64d4ef"
"""The code before resume checks (2026-12-02)."""


def specs(config, games: int):
    """The specs of the first ``games`` games the file schedules (league: round after
    round, the pairings in turn, as if its scheduler handed them out so)."""
    plan = fixed_plan(config)
    if plan is not None:
        yield from plan
        return
    pairings = itertools.cycle(itertools.combinations([b.name for b in config.bots], 2))
    order = 0
    for r in range(games // 2):
        yield from pair_round(*next(pairings), r, config.schedule_seed, 1, order)
        order += 2


def bot_lines(bots: int) -> str:
    """``bots`` bots, the shipped random and greedy bots in turn."""
    cmds = [f"python3 {BOTS}/random_bot.py", f"python3 {BOTS}/greedy.py"]
    return "\n".join(f"  - {{name: b{i:04d}, cmd: {cmds[i % 2]}}}" for i in range(bots))


def fill(path: Path, games: int) -> None:
    """Store ``games`` games of the file at ``path`` as ``arena run`` would: a fixed plan's
    every game but the last two, a league's first ``games`` (it has no end)."""
    config = load_tournament(path, load_registry())
    ids = bot_identities(config).ids
    store = Store(config.output)
    rng = random.Random(games)
    rows, seats = [], []
    for n, spec in enumerate(specs(config, games)):
        if n >= (games - 2 if config.format != "league" else games):
            break
        identity = ids.of(spec.seed, spec.variant, spec.seats)
        digest = ids.hash(spec.seed, spec.variant, spec.seats)
        rows.append((n + 1, spec.key, spec.order, spec.round, spec.group, spec.seed,
                     canonical(identity), digest))  # fmt: skip
        first = rng.random() < 0.5
        seats += [(n + 1, 0, spec.seats[0], 0 if first else 1, 1.0 if first else 0.0),
                  (n + 1, 1, spec.seats[1], 1 if first else 0, 0.0 if first else 1.0)]  # fmt: skip
        if len(rows) >= CHUNK:
            _write(store, rows, seats)
            rows, seats = [], []
    _write(store, rows, seats)
    with store.db:  # the kept ratings, as the runs that stored the games left them
        kept.rebuild(store.db)
    store.close()


def _write(store: Store, rows: list, seats: list) -> None:
    with store.db:
        store.db.executemany(
            "INSERT INTO games(id, key, ord, round, grp, game, seed, settings, players,"
            " reason, turns, steps, duration_ms, dir, finished_at, identity, identity_hash)"
            " VALUES (?, ?, ?, ?, ?, 'stc', ?, '{\"max_turns\":4}', 2, 'done', 4, 4, 10.0,"
            " '', '2026-12-03T00:00:00', ?, ?)",
            rows,
        )
        store.db.executemany(
            "INSERT INTO current_games(key, ord, round, grp, identity_hash) VALUES (?, ?, ?, ?, ?)",
            [
                (key, order, round_, group, digest)
                for _, key, order, round_, group, _, _, digest in rows
            ],
        )
        store.db.executemany(
            "INSERT INTO seats(game_id, seat, bot, rank, score, forfeit, detail, raw, moves,"
            " total_ms, max_ms, stderr) VALUES (?, ?, ?, ?, ?, NULL, '', '', 4, 4.0, 1.0, '')",
            seats,
        )


def to_first_new_game(
    checkout: Path, path: Path, stored: int, stop: bool
) -> tuple[float, float, float]:
    """``arena run path`` of ``checkout`` until the first game after the ``stored`` ones
    is stored (then stopped with Ctrl-C when ``stop``), or to its end: seconds to that
    game (or to the end, with nothing to play), CPU s, peak MiB."""
    env = dict(os.environ, PYTHONPATH=f"{checkout / 'framework'}{os.pathsep}{checkout / 'games'}")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    db_path = _database(path)
    with tempfile.TemporaryFile("w+") as err:
        began = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "arena", "run", str(path), "-j", "1"],
                                env=env, stdout=subprocess.DEVNULL, stderr=err)  # fmt: skip
        first = None
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if first is None and _last_id(db_path) > stored:
                first = time.perf_counter() - began
                if stop:
                    proc.send_signal(signal.SIGINT)  # as a user's Ctrl-C
            time.sleep(0.02)
        ended = time.perf_counter() - began
        proc.returncode = os.waitstatus_to_exitcode(status)  # (reaped here, not by Popen)
        err.seek(0)
        text = err.read()
    if proc.returncode not in (0, 130):
        raise SystemExit(f"arena run failed ({proc.returncode}):\n{text}")
    cpu = usage.ru_utime + usage.ru_stime
    return (first if first is not None else ended), cpu, usage.ru_maxrss / 1024


def _database(path: Path) -> Path:
    """The database of the tournament file ``path`` (t.yaml: out, t-old.yaml: out-old)."""
    return path.parent / path.stem.replace("t", "out", 1) / "arena.sqlite"


def _last_id(db_path: Path) -> int:
    try:
        db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=0.05)
        try:
            return int(db.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()[0])
        finally:
            db.close()
    except sqlite3.Error:
        return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1000, 100_000, 1_000_000])
    parser.add_argument("--format", nargs="+", default=["round-robin", "league"])
    parser.add_argument("--bots", type=int, default=2,
                        help="a round-robin's `games` split over their pairings")  # fmt: skip
    parser.add_argument("--old", type=Path, default=Path("/tmp/arena-resume-old"))
    parser.add_argument("--old-rev", default=OLD_COMMIT,
                        help="the code to compare with (a checkout made in --old)")  # fmt: skip
    parser.add_argument("--no-old", action="store_true",
                        help="time the new code only (the old one's report of a thousand bots "
                        "does not finish)")  # fmt: skip
    parser.add_argument("--fill", nargs=2, metavar=("FILE", "GAMES"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.fill:
        fill(Path(args.fill[0]), int(args.fill[1]))
        return 0
    from scale import old_checkout  # the other benches' checkout of an old revision

    old = old_checkout(args.old, args.old_rev)
    print(f"load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for fmt in args.format:
        for games in args.games:
            root = Path(tempfile.mkdtemp(prefix="arena-resume-"))
            try:
                path = root / "t.yaml"
                per_pairing = max(1, round(games / math.comb(args.bots, 2)))
                games = per_pairing * math.comb(args.bots, 2) if fmt != "league" else games
                limit = f"games: {per_pairing}\n" if fmt != "league" else ""  # (a league: no end)
                text = TOURNAMENT.format(format=fmt, limit=limit, bot_lines=bot_lines(args.bots),
                                         output=root / "out")  # fmt: skip
                path.write_text(text)
                began = time.perf_counter()
                # In a process of its own: a child forked from a bench grown by the fill
                # would count the bench's memory in its peak.
                subprocess.run(
                    [sys.executable, __file__, "--fill", str(path), str(games)], check=True
                )
                took = time.perf_counter() - began
                print(f"{fmt} {games} games, {args.bots} bots: store filled in {took:.1f} s")
                # The same store for the old code, in a folder of its own.
                if not args.no_old:
                    shutil.copytree(root / "out", root / "out-old")
                old_text = text.replace(str(root / "out"), str(root / "out-old"))
                old_path = root / "t-old.yaml"
                old_path.write_text(old_text)
                for label in ("first resume", "again", "touched"):
                    figures = []
                    runs = [(REPO, path, text), (old, old_path, old_text)][
                        : 1 if args.no_old else 2
                    ]
                    for checkout, file, body in runs:
                        if label == "touched":
                            file.write_text(body + "# a comment\n")
                        stored = _last_id(_database(file))
                        figures.append(to_first_new_game(checkout, file, stored, fmt == "league"))
                    first, cpu, mib = figures[0]
                    line = (f"  {label:12s} first new game (or end) after {first:6.2f} s, CPU "
                            f"{cpu:6.2f} s, peak {mib:5.0f} MiB")  # fmt: skip
                    if len(figures) > 1:
                        old_first, old_cpu, old_mib = figures[1]
                        line += (f" | old {old_first:6.2f} s, {old_cpu:6.2f} s, {old_mib:5.0f} MiB"
                                 f" | time new/old {first / old_first:.2f}")  # fmt: skip
                    print(line)
            finally:
                shutil.rmtree(root, ignore_errors=True)
    print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
