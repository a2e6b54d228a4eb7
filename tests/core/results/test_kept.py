"""Ratings kept in the store as games are stored give the leaderboard a from-scratch
computation gives, for stores of every format, games stored out of schedule order, stores
resumed, edited (`--update`) and older stores without the kept tables."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from arena.records import GameRecord, SeatRecord
from arena.results import kept
from arena.results.rating import StoredPairs
from arena.results.store import CurrentGame, Store, open_existing
from arena.tournament.schedule import gauntlet, pair_round, round_robin
from arena.views.leaderboard import shown_leaderboard

BOTS = ["ant", "bee", "cat", "dog", "eel"]


def record(seats: tuple[str, ...], rng: random.Random, settings: dict[str, int]) -> GameRecord:
    ranks = [rng.randint(0, len(seats) - 1) for _ in seats]
    return GameRecord(
        game="stc",
        seed=1,
        settings=settings,
        seats=[
            SeatRecord(
                bot=b, rank=r, score=float(rng.randint(0, 50)),
                forfeit=rng.choice([None, None, None, "timeout", "crash"]),
                late=rng.randint(0, 1), turn_ms=[rng.random() * 40 for _ in range(3)],
            )
            for b, r in zip(seats, ranks, strict=True)
        ],
        reason="end", turns=3, steps=3, duration_ms=1.0,
    )  # fmt: skip


def schedule(fmt: str) -> tuple[list[tuple[int, int, str, tuple[str, ...], int]], int]:
    """(order, round, key, seats, variant) of a format's games, and players per game."""
    if fmt == "round-robin":
        specs, players = round_robin(BOTS, 2, 6, seed=3, variants=2), 2
    elif fmt == "gauntlet":
        specs, players = gauntlet(BOTS, "cat", 2, 5, seed=3), 2  # an odd game: unpaired
    elif fmt == "multi-player":
        specs, players = round_robin(BOTS, 4, 4, seed=3), 4
    elif fmt == "sprt":
        specs, players = [s for r in range(12) for s in pair_round("ant", "bee", r, 3)], 2
    else:  # league: pairings chosen as it goes, some rounds cut short (unpaired games)
        rng = random.Random(5)
        specs, players = [], 2
        for r in range(25):
            a, b = rng.sample(BOTS, 2)
            specs += pair_round(a, b, r, 3, order=len(specs))[: rng.choice([1, 2, 2])]
    return [(s.order, s.round, s.key, s.seats, s.variant) for s in specs], players


def fill(out: Path, fmt: str, shuffle: int, batch: bool = False) -> Store:
    """A store of ``fmt``'s games, stored in schedule order moved by up to ``shuffle``
    places (games of a run end out of order), through the store's own API (``batch``:
    several games per commit, as a run stores them)."""
    store = Store(out)
    if batch:
        store.batch(max_games=7)
    store.set_meta(meta_of(fmt))
    for game in games_of(fmt, shuffle):
        store.add_game(*game)
    store.flush()
    return store


def meta_of(fmt: str) -> dict:
    variant_keys = ["layout"] if fmt == "round-robin" else []
    return {"name": fmt, "game": "stc", "format": fmt, "players": schedule(fmt)[1],
            "bots": BOTS, "variant_keys": variant_keys, "seed": 3}  # fmt: skip


def games_of(fmt: str, shuffle: int) -> list[tuple]:
    """``Store.add_game``'s arguments for ``fmt``'s games, in the order :func:`fill`
    stores them."""
    games, _ = schedule(fmt)
    rng = random.Random(fmt)
    placed = sorted(games, key=lambda g: g[0] + rng.uniform(0, shuffle))
    out = []
    for order, round_, key, seats, variant in placed:
        settings = {"layout": variant + 1} if fmt == "round-robin" else {}
        identity = {"game": "stc", "seed": round_, "bots": list(seats), "settings": settings}
        out.append((key, order, round_, key, record(seats, rng, settings), identity))
    return out


def boards(store: Store) -> tuple[dict, dict]:
    """The leaderboard's JSON from the kept counts and from scratch."""
    found = store.kept(store.meta()["bots"])  # built here when stale
    assert found is not None, "the kept counts should be valid"
    from_kept = json.loads(shown_leaderboard(store).render("json"))
    store_kept = store.kept
    store.kept = lambda bots: None  # type: ignore[method-assign]
    try:
        scratch = json.loads(shown_leaderboard(store).render("json"))
    finally:
        store.kept = store_kept  # type: ignore[method-assign]
    return from_kept, scratch


def same(a: object, b: object) -> bool:
    """Equal, floats to 1e-9 (sums kept in another order)."""
    if isinstance(a, float) and isinstance(b, float):
        return a == pytest.approx(b, rel=1e-9, abs=1e-9)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


@pytest.mark.parametrize("fmt", ["round-robin", "gauntlet", "sprt", "league", "multi-player"])
def test_kept_ratings_are_those_computed_from_scratch(tmp_path, monkeypatch, fmt):
    monkeypatch.setattr(kept, "TAIL", 4)  # the checkpoint moves many times
    store = fill(tmp_path, fmt, shuffle=6)
    from_kept, scratch = boards(store)
    assert same(from_kept, scratch)
    assert from_kept["leaderboard"][0]["games"] > 0 and kept.is_valid(store.db)
    checkpoint = kept._get(store.db, "checkpoint")
    assert checkpoint is not None  # the states were advanced, not rated from scratch
    store.close()


def test_games_stored_in_batches_are_kept_as_they_commit(tmp_path, monkeypatch):
    monkeypatch.setattr(kept, "TAIL", 3)
    store = fill(tmp_path, "multi-player", shuffle=5, batch=True)
    from_kept, scratch = boards(store)
    assert same(from_kept, scratch)
    store.close()
    reader = open_existing(tmp_path)  # another process, after the commits
    assert same(json.loads(shown_leaderboard(reader).render("json")), scratch)
    reader.close()


def test_a_game_stored_before_the_checkpoint_rates_everything_again(tmp_path, monkeypatch):
    monkeypatch.setattr(kept, "TAIL", 2)
    store = fill(tmp_path, "round-robin", shuffle=60)  # far out of order
    from_kept, scratch = boards(store)
    assert same(from_kept, scratch)
    store.close()


def test_an_older_store_gets_its_kept_tables_on_first_read(tmp_path):
    store = fill(tmp_path, "league", shuffle=2)
    expected, _ = boards(store)
    for table in (*kept.TABLES, "kept_meta"):
        store.db.execute(f"DROP TABLE {table}")
    store.db.commit()
    store.close()
    reader = open_existing(tmp_path)
    assert not kept.has_tables(reader.db)
    assert same(json.loads(shown_leaderboard(reader).render("json")), expected)
    reader.close()
    reader = open_existing(tmp_path)  # built once, kept
    assert kept.is_valid(reader.db)
    reader.close()


def test_a_reader_never_builds_the_tables_while_a_run_holds_the_folder(tmp_path):
    """The rebuild is one long write transaction: built by a reader (`arena serve`,
    `arena leaderboard`) while a run writes, it would make the run fail as locked."""
    from arena.results.lock import lock_output

    store = fill(tmp_path, "league", shuffle=2)
    expected, _ = boards(store)
    for table in (*kept.TABLES, "kept_meta"):
        store.db.execute(f"DROP TABLE {table}")
    store.db.commit()
    store.close()
    with lock_output(tmp_path):  # as a running `arena run` holds it
        reader = open_existing(tmp_path)
        assert reader.kept(BOTS) is None
        assert same(json.loads(shown_leaderboard(reader).render("json")), expected)
        assert not kept.has_tables(reader.db)  # nothing written beside the run
        reader.close()
    reader = open_existing(tmp_path)  # no run: the reader builds them once
    assert reader.kept(BOTS) is not None and kept.is_valid(reader.db)
    reader.close()


def test_a_read_only_store_without_kept_tables_is_read_from_scratch(tmp_path):
    store = fill(tmp_path, "sprt", shuffle=2)
    expected, _ = boards(store)
    store.db.execute("DROP TABLE kept_meta")
    store.db.commit()
    store.close()
    tmp_path.chmod(0o555)
    try:
        reader = open_existing(tmp_path)
        if not reader._can_build():  # root may write anyway: then the tables are built
            assert reader.kept(BOTS) is None
        assert same(json.loads(shown_leaderboard(reader).render("json")), expected)
        reader.close()
    finally:
        tmp_path.chmod(0o755)


def test_removed_games_and_a_new_game_list_build_the_counts_again(tmp_path):
    store = fill(tmp_path, "round-robin", shuffle=2)
    places = store.stored_places()
    current = [CurrentGame(p.key, p.ord, p.round, p.group, p.identity_hash) for p in places]
    store.set_current(current)  # a resumed run: the same games
    assert kept.is_valid(store.db)
    store.remove_games([places[0].key, places[5].key])  # --update
    assert not kept.is_valid(store.db)
    from_kept, scratch = boards(store)  # built on read
    assert same(from_kept, scratch) and kept.is_valid(store.db)
    store.set_current(current[10:])  # the file now defines fewer games
    assert not kept.is_valid(store.db)
    from_kept, scratch = boards(store)
    assert same(from_kept, scratch)
    assert from_kept["title"] == f"round-robin (stc, {len(current) - 10} games)"
    store.close()


def test_the_kept_tables_are_built_in_the_storing_transaction(tmp_path):
    store = fill(tmp_path, "sprt", shuffle=0)
    games = kept._get(store.db, "games")
    db = sqlite3.connect(tmp_path / "arena.sqlite")  # another reader sees both or neither
    stored = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    assert games == stored == 24
    db.close()
    store.close()


def test_arena_leaderboard_sorts_by_the_rating_asked_for(tmp_path):
    import subprocess
    import sys

    fill(tmp_path, "round-robin", shuffle=0).close()

    def arena(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "arena", "leaderboard", str(tmp_path), *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=300)

    bad = arena("--rating", "glicko")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr == (
        "arena: --rating: unknown rating 'glicko' (known: bt, elo, trueskill, openskill, bt-boot)\n"
    )
    for name, key in (("trueskill", "mu-3sigma"), ("openskill", "os_mu-3sigma"), ("bt", "bt")):
        done = arena("--rating", name, "--format", "json")
        data = json.loads(done.stdout)
        assert data["rating"] == name
        values = [row[key] for row in data["leaderboard"]]
        assert values == sorted(values, reverse=True)


@pytest.mark.parametrize("fmt", ["round-robin", "league", "multi-player"])
def test_games_stored_at_once_are_counted_as_one_by_one(tmp_path, monkeypatch, fmt):
    """``Store.add_games`` (imports, the benchmark's stores) counts thousands of games in
    one go: the leaderboard is the one of the same games stored one by one."""
    monkeypatch.setattr(kept, "TAIL", 3)
    monkeypatch.setattr(kept, "CHUNK", 7)  # the counts built and advanced in many chunks
    one_by_one = fill(tmp_path / "one", fmt, shuffle=4)
    expected, _ = boards(one_by_one)
    at_once = Store(tmp_path / "all")
    at_once.set_meta(meta_of(fmt))
    games = games_of(fmt, shuffle=4)
    half = len(games) // 2
    assert at_once.add_games(games[:half]) == list(range(1, half + 1))
    at_once.add_games(games[half:])  # counted onto the first half's kept counts
    assert kept.is_valid(at_once.db)
    from_kept, scratch = boards(at_once)
    assert same(from_kept, scratch) and same(from_kept, expected)
    assert same(at_once.rating_history(), one_by_one.rating_history())
    one_by_one.close()
    at_once.close()


def test_fitted_ratings_are_kept_until_other_games_count(tmp_path):
    """Bradley-Terry and Elo are fitted once for a set of games (a thousand bots' fit
    takes a second): the next leaderboard of the same games reads them, the same figures;
    a game stored after makes them fitted again."""
    store = fill(tmp_path, "round-robin", shuffle=2)
    first = shown_leaderboard(store).render("json")
    found = store.kept(BOTS)
    assert found is not None and found.fitted is not None  # kept by the first read
    assert found.percentiles is not None and not found.times  # with the times' percentiles
    assert json.loads(shown_leaderboard(store).render("json")) == json.loads(first)
    store.close()
    reader = open_existing(tmp_path)  # another process reads what the first kept
    kept_now = reader.kept(BOTS)
    assert kept_now is not None and kept_now.fitted is not None
    assert shown_leaderboard(reader).render("json") == first
    reader.close()
    store = Store(tmp_path)
    rng = random.Random(9)
    store.add_game("extra", 10_000, 99, "extra", record(("ant", "bee"), rng, {"layout": 1}),
                   {"game": "stc", "seed": 99, "bots": ["ant", "bee"]})  # fmt: skip
    again = store.kept(BOTS)
    assert again is not None and again.fitted is None  # other games: fitted again
    assert again.percentiles is None and again.times  # and the times read again
    from_kept, scratch = boards(store)
    assert same(from_kept, scratch) and from_kept != json.loads(first)
    store.close()


@pytest.mark.parametrize("fmt", ["league", "multi-player"])
def test_the_table_of_kept_counts_makes_no_object_per_pairing(tmp_path, fmt):
    """A thousand bots have some 500,000 pairings: the compact table, its rows and the fits
    (Elo against the field, Bradley-Terry) read the kept pairings as rows, and give the
    figures of the games from scratch; only what lists the pairings (JSON) makes them."""
    store = fill(tmp_path, fmt, shuffle=2)
    board = shown_leaderboard(store)
    board.render("table", width=200)
    rows = board.rows()
    assert isinstance(board.pairs, StoredPairs) and not board.pairs.made
    from_kept, scratch = boards(store)
    assert same(rows, scratch["leaderboard"]) and same(from_kept, scratch)
    store.close()
