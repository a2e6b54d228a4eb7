"""Storing in batches (`Store.batch`): several games per commit, each stored whole or not at
all; what another process sees is committed games only; a killed writer loses only the
games of its open transaction; closing commits what waits."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.records import GameRecord, SeatRecord
from arena.results.store import Store
from support import REPO


def record(seed: int) -> GameRecord:
    seats = [SeatRecord(bot="a", rank=0, score=1.0), SeatRecord(bot="b", rank=1)]
    return GameRecord("toy", seed, {}, seats, "done", 3, 3, 1.0)


def add(store: Store, n: int) -> None:
    store.add_game(f"g{n}", n, 0, "", record(n), {"seed": n, "bots": ["a", "b"]})


def seen_elsewhere(out: Path) -> tuple[int, int]:
    """(games, seats) committed, as another connection reads them."""
    db = sqlite3.connect(out / "arena.sqlite")
    try:
        games = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        seats = db.execute("SELECT COUNT(*) FROM seats").fetchone()[0]
        return games, seats
    finally:
        db.close()


def test_games_wait_for_a_full_batch_and_closing_commits_the_rest(tmp_path):
    store = Store(tmp_path)
    store.batch(max_games=3, max_delay_s=3600)
    for n in range(2):
        add(store, n)
    assert seen_elsewhere(tmp_path) == (0, 0)
    assert store.count_games() == 2  # the same connection reads what waits
    add(store, 2)
    assert seen_elsewhere(tmp_path) == (3, 6)
    add(store, 3)
    assert seen_elsewhere(tmp_path) == (3, 6)
    store.close()
    assert seen_elsewhere(tmp_path) == (4, 8)


def test_a_lone_game_is_committed_after_the_delay(tmp_path):
    store = Store(tmp_path)
    try:
        store.batch(max_games=100, max_delay_s=0.05)
        add(store, 0)
        deadline = time.monotonic() + 60  # a wait for the timer, not a timed assertion
        while seen_elsewhere(tmp_path) != (1, 2) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert seen_elsewhere(tmp_path) == (1, 2)
    finally:
        store.close()


def test_a_game_that_fails_is_undone_alone(tmp_path):
    store = Store(tmp_path)
    store.batch(max_games=100, max_delay_s=3600)
    add(store, 0)
    with pytest.raises(sqlite3.IntegrityError):
        add(store, 0)  # the same key again: its rows fail, the first game's stay
    add(store, 1)
    store.close()
    assert seen_elsewhere(tmp_path) == (2, 4)


KILLED = """
import os, signal, sys
from pathlib import Path
sys.path.insert(0, {tests!r})
from core.results.test_batching import add
from arena.results.store import Store
store = Store(Path({out!r}))
store.batch(max_games=5, max_delay_s=3600)
for n in range(7):
    add(store, n)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_killed_writer_keeps_its_committed_games_whole(tmp_path):
    script = KILLED.format(tests=str(REPO / "tests"), out=str(tmp_path))
    env = dict(
        os.environ, PYTHONPATH=f"{REPO / 'tests'}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"
    )
    killed = subprocess.run([sys.executable, "-c", script], env=env, timeout=120)
    assert killed.returncode == -9
    assert seen_elsewhere(tmp_path) == (5, 10)  # the first batch; the two after it are lost
    store = Store(tmp_path)  # and the store takes the lost games' keys again
    try:
        for n in (5, 6):
            add(store, n)
        assert store.count_games() == 7
    finally:
        store.close()
