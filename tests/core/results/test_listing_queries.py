"""Listings in SQL: `Store.games_page` filters, sorts and pages stored games in one query,
the games of each filter worked out by hand on a store of six games; `arena list` shows
its pages; a store an older arena wrote gets the listings' indexes when first read, and a
store arena refuses is left as it was."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from arena.records import GameRecord, SeatRecord
from arena.results.queries import INDEXES, GameFilter
from arena.results.store import CurrentGame, Store
from support import REPO

# (players as (bot, rank, forfeit), seed, round, turns); ids are 1..6 in this order.
GAMES = [
    ([("a", 0, None), ("b", 1, None)], 5, 0, 10),  # 1: a wins
    ([("b", 0, None), ("a", 0, None)], 6, 0, 40),  # 2: a draw
    ([("a", 1, "timeout"), ("c", 0, None)], 5, 1, 20),  # 3: c wins, a timed out
    ([("c", 0, None), ("b", 1, "crash")], 7, 1, 30),  # 4: c wins, b crashed
    ([("a", 0, None)], 8, 2, 5),  # 5: a alone (a score, no result)
    ([("a", 1, None), ("b", 0, None), ("c", 0, None)], 9, 2, 15),  # 6: b and c draw
]


def fill(out: Path) -> None:
    store = Store(out)
    store.set_meta({"name": "six", "game": "toy", "bots": ["a", "b", "c"]})
    for order, (seats, seed, round_, turns) in enumerate(GAMES):
        records = [
            SeatRecord(bot=bot, rank=rank, score=1.0 - rank, forfeit=forfeit)
            for bot, rank, forfeit in seats
        ]
        record = GameRecord("toy", seed, {}, records, "done", turns, turns, 1.0)
        store.add_game(
            f"g{order}",
            order,
            round_,
            f"r{round_}",
            record,
            {"seed": seed, "bots": [s[0] for s in seats]},
        )
    store.close()


@pytest.fixture(scope="module")
def six(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("six")
    fill(out)
    return out


def ids(out: Path, flt: GameFilter, **page: object) -> list[int]:
    store = Store(out, create=False)
    try:
        return [g.id for g in store.games_page(flt, **page).games]  # type: ignore[arg-type]
    finally:
        store.close()


@pytest.mark.parametrize(
    ("flt", "expected"),
    [
        (GameFilter(), [1, 2, 3, 4, 5, 6]),
        (GameFilter(bot="a"), [1, 2, 3, 5, 6]),
        (GameFilter(bot="a", result="win"), [1]),
        (GameFilter(bot="a", result="draw"), [2]),
        (GameFilter(bot="a", result="loss"), [3, 6]),
        (GameFilter(bot="a", result="forfeit"), [3]),
        (GameFilter(bot="c", result="draw"), [6]),
        (GameFilter(result="win"), [1, 3, 4]),  # someone won
        (GameFilter(result="loss"), [1, 3, 4]),
        (GameFilter(result="draw"), [2, 6]),
        (GameFilter(result="forfeit"), [3, 4]),
        (GameFilter(opponent="b"), [1, 2, 4, 6]),
        (GameFilter(bot="a", opponent="b"), [1, 2, 6]),
        (GameFilter(bot="a", opponent="a"), []),
        (GameFilter(bot="a", opponent="c", result="loss"), [3, 6]),
        (GameFilter(forfeit="crash"), [4]),
        (GameFilter(bot="a", forfeit="crash"), []),
        (GameFilter(bot="a", forfeit="timeout"), [3]),
        (GameFilter(seed=5), [1, 3]),
        (GameFilter(round=2), [3, 4]),
        (GameFilter(bot="b", round=3), [6]),
    ],
)
def test_each_filter_selects_the_games_worked_out_by_hand(six, flt, expected):
    assert ids(six, flt) == expected


def test_orders_pages_and_counts(six):
    assert ids(six, GameFilter(), order="newest") == [6, 5, 4, 3, 2, 1]
    assert ids(six, GameFilter(), order="longest") == [2, 4, 3, 6, 1, 5]
    assert ids(six, GameFilter(), order="shortest") == [5, 1, 6, 3, 4, 2]
    assert ids(six, GameFilter(), limit=2, offset=2) == [3, 4]
    store = Store(six, create=False)
    try:
        page = store.games_page(GameFilter(bot="a"), "newest", limit=2, offset=1)
        assert [g.id for g in page.games] == [5, 3]
        assert (page.matching, page.total) == (5, 6)
        assert [(s.bot, s.forfeit) for s in page.games[1].seats] == [("a", "timeout"), ("c", None)]
        assert store.game(4) is not None and store.game(4).seed == 7  # type: ignore[union-attr]
        assert store.game(99) is None
    finally:
        store.close()


def test_current_games_only_unless_asked_for_every_stored_game(tmp_path):
    fill(tmp_path)
    store = Store(tmp_path)
    try:
        kept = [CurrentGame(f"g{i}", i, GAMES[i][2], f"r{GAMES[i][2]}", "") for i in range(6)]
        digests = dict(store.db.execute("SELECT key, identity_hash FROM games"))
        store.set_current(
            [CurrentGame(c.key, c.ord, c.round, c.group, digests[c.key]) for c in kept[:4]]
        )
        page = store.games_page(GameFilter(bot="a"))
        assert ([g.id for g in page.games], page.matching, page.total) == ([1, 2, 3], 3, 4)
        every = store.games_page(GameFilter(bot="a"), current_only=False)
        assert ([g.id for g in every.games], every.matching, every.total) == (
            [1, 2, 3, 5, 6],
            5,
            6,
        )
    finally:
        store.close()


def arena(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, COLUMNS="200")
    return subprocess.run(
        [sys.executable, "-m", "arena", *args],
        capture_output=True, text=True, cwd=REPO, env=env, timeout=120,
    )  # fmt: skip


def shown_ids(stdout: str) -> list[str]:
    table = stdout.split("\n\n")[0].splitlines()
    return [line.split()[0] for line in table if line[:1].isdigit()]


def test_arena_list_shows_a_page_and_says_how_to_get_the_next(six):
    listed = arena("list", str(six), "--bot", "a", "--sort", "newest", "--limit", "2")
    assert listed.returncode == 0, listed.stderr
    assert shown_ids(listed.stdout) == ["6", "5"]
    assert listed.stdout.endswith(
        "5 of 6 games, 1-2 shown (--page 2 for the next 2, --limit 0 for all)\n"
    )
    last = arena("list", str(six), "--bot", "a", "--limit", "2", "--page", "3")
    assert last.stdout.endswith("5 of 6 games, 5-5 shown\n")
    assert shown_ids(last.stdout) == ["6"]
    crashed = arena("list", str(six), "--forfeit", "crash", "--opponent", "c")
    assert crashed.stdout.endswith("\n1 of 6 games\n") and "b crash" in crashed.stdout
    bad = arena("list", str(six), "--opponent", "zed")
    assert bad.returncode == 2
    assert bad.stderr == f"arena: --opponent 'zed': no such bot in {six} (bots: a, b, c)\n"
    zero = arena("list", str(six), "--page", "0")
    assert zero.returncode == 2 and "--page: 0 is below 1" in zero.stderr


def index_names(path: Path) -> set[str]:
    db = sqlite3.connect(path)
    try:
        return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    finally:
        db.close()


LISTING_INDEXES = {s.split(" EXISTS ")[1].split()[0] for s in INDEXES}


def test_an_older_store_gets_the_indexes_when_first_read(tmp_path):
    fill(tmp_path)
    db = sqlite3.connect(tmp_path / "arena.sqlite")
    for name in LISTING_INDEXES:
        db.execute(f"DROP INDEX {name}")
    db.commit()
    db.close()
    assert not LISTING_INDEXES & index_names(tmp_path / "arena.sqlite")
    assert ids(tmp_path, GameFilter(bot="b", result="loss")) == [1, 4]
    assert index_names(tmp_path / "arena.sqlite") >= LISTING_INDEXES


def test_a_store_arena_refuses_is_left_as_it_was(tmp_path):
    fill(tmp_path)
    db = sqlite3.connect(tmp_path / "arena.sqlite")
    for name in LISTING_INDEXES:
        db.execute(f"DROP INDEX {name}")
    db.execute("PRAGMA user_version = 99")
    db.commit()
    db.close()
    before = (tmp_path / "arena.sqlite").read_bytes()
    listed = arena("list", str(tmp_path))
    assert listed.returncode == 2 and "written by a newer arena" in listed.stderr
    assert (tmp_path / "arena.sqlite").read_bytes() == before


def test_a_read_only_store_lists_without_the_indexes(tmp_path):
    fill(tmp_path)
    db = sqlite3.connect(tmp_path / "arena.sqlite")
    for name in LISTING_INDEXES:
        db.execute(f"DROP INDEX {name}")
    db.execute("PRAGMA journal_mode=DELETE")
    db.commit()
    db.close()
    os.chmod(tmp_path / "arena.sqlite", 0o444)
    os.chmod(tmp_path, 0o555)
    try:
        if os.access(tmp_path / "arena.sqlite", os.W_OK):
            pytest.skip("running as root: nothing is read-only")
        assert ids(tmp_path, GameFilter(bot="a", result="win")) == [1]
    finally:
        os.chmod(tmp_path, 0o755)
    assert not LISTING_INDEXES & index_names(tmp_path / "arena.sqlite")
