#!/usr/bin/env python3
"""What ``arena run`` costs to resume a large tournament, end to end (issue 45, item 4).

For each size, a tournament of two shipped bots (``round-robin`` or ``league``) and a
store already holding all its games but the last round, written straight into SQLite
with the identities ``arena run`` gives them and its kept ratings built, as the runs
that stored them would have left it (:func:`fill`). Then ``arena run`` is timed three
times, in its own process (CPU seconds, wall seconds, peak memory): *first resume* plays
the last round (no run has checked the store: every game is checked), *again* resumes
the finished tournament (nothing to play: the cost of resuming alone), *touched* does the
same after a comment was added to the tournament file (nothing that decides a game).
Sizes side by side show the growth; the load (``os.getloadavg``) is printed.

Run: python3 bench/resume_run.py [--games 1000 100000 1000000] [--format round-robin league]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
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
games: {games}
seed: 1
settings: {{max_turns: 4}}
bots:
  - {{name: a, cmd: python3 {bots}/random_bot.py}}
  - {{name: b, cmd: python3 {bots}/greedy.py}}
output: {output}
"""
CHUNK = 50_000


def specs(config, games: int):
    """The specs of the first ``games`` games the file schedules (league: round after
    round between the two bots, as its scheduler hands them out)."""
    plan = fixed_plan(config)
    if plan is not None:
        yield from plan
        return
    order = 0
    for r in range(games // 2):
        yield from pair_round("a", "b", r, config.schedule_seed, 1, order)
        order += 2


def fill(path: Path, games: int) -> None:
    """Store every game of the file at ``path`` but the last two, as ``arena run`` would."""
    config = load_tournament(path, load_registry())
    ids = bot_identities(config).ids
    store = Store(config.output)
    rng = random.Random(games)
    rows, seats = [], []
    for n, spec in enumerate(specs(config, games)):
        if n >= games - 2:
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


def arena(*args: str) -> tuple[float, float, float, str]:
    """CPU s, wall s and peak MiB of ``arena *args``, and what it says of stored games."""
    env = dict(os.environ, PYTHONPATH=f"{REPO / 'framework'}{os.pathsep}{REPO / 'games'}")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    began = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "arena", *args],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - began
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"arena {args[0]} failed:\n{err}")
    said = [line for line in err.splitlines() if "kept" in line or "stored" in line]
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024, " | ".join(said[:2])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1000, 100_000, 1_000_000])
    parser.add_argument("--format", nargs="+", default=["round-robin", "league"])
    parser.add_argument("--fill", nargs=2, metavar=("FILE", "GAMES"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.fill:
        fill(Path(args.fill[0]), int(args.fill[1]))
        return 0
    print(f"load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for fmt in args.format:
        for games in args.games:
            root = Path(tempfile.mkdtemp(prefix="arena-resume-"))
            try:
                path = root / "t.yaml"
                text = TOURNAMENT.format(format=fmt, games=games, bots=BOTS, output=root / "out")
                path.write_text(text)
                began = time.perf_counter()
                # In a process of its own: a child forked from a bench grown by the fill
                # would count the bench's memory in its peak.
                subprocess.run(
                    [sys.executable, __file__, "--fill", str(path), str(games)], check=True
                )
                print(f"{fmt} {games} games: store filled in {time.perf_counter() - began:.1f} s")
                for label in ("first resume", "again", "touched"):
                    if label == "touched":
                        path.write_text(text + "# a comment\n")
                    cpu, wall, mib, said = arena("run", str(path), "-j", "1")
                    print(f"  {label:12s} CPU {cpu:6.2f} s  wall {wall:6.2f} s  "
                          f"peak {mib:5.0f} MiB   {said}")  # fmt: skip
            finally:
                shutil.rmtree(root, ignore_errors=True)
    print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
