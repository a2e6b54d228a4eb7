"""The rating history kept as games are stored (the report's chart) is the one computed from
every game on small stores, whatever the order games end in, and stays bounded on long
ones: each bot's points a subset of the computed ones, spread over the whole run, its
newest point last."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from arena.records import GameRecord, SeatRecord
from arena.results import history, kept, rating
from arena.results.store import Store, open_existing
from arena.tournament.schedule import round_robin
from arena.views.report import write_report

BOTS = ["ant", "bee", "cat", "dog"]


def fill(out: Path, players: int, rounds: int, shuffle: int, replays: bool = False) -> Store:
    """A round-robin's games of random ranks, stored in schedule order moved by up to
    ``shuffle`` places (as games of a run end), through the store's own API."""
    specs = round_robin(BOTS, players, rounds, seed=3)
    store = Store(out)
    store.set_meta({"name": "h", "game": "stc", "players": players, "bots": BOTS,
                    "variant_keys": [], "seed": 3})  # fmt: skip
    rng = random.Random(players * 100 + rounds)
    for spec in sorted(specs, key=lambda s: s.order + rng.uniform(0, shuffle)):
        seats = [SeatRecord(bot=b, rank=rng.randint(0, 1), score=1.0) for b in spec.seats]
        record = GameRecord("stc", spec.round, {}, seats, "end", 3, 3, 1.0)
        identity = {"seed": spec.round, "bots": list(spec.seats)}
        store.add_game(spec.key, spec.order, spec.round, "", record, identity)
        if replays:
            folder = store.game_dir(spec.key)
            folder.mkdir(parents=True)
            replay = {"game": "stc", "seed": spec.round, "players": list(spec.seats), "steps": []}
            (folder / "replay.json").write_text(json.dumps(replay))
    store.flush()
    return store


def computed(store: Store) -> history.Points:
    """Today's computation: every current game rated in schedule order."""
    games = store.games()
    return history.from_events(BOTS, rating.events(games, []))


def close(a: history.Points, b: history.Points) -> bool:
    return list(a) == list(b) and all(
        [i for i, _ in a[k]] == [i for i, _ in b[k]]
        and [mu for _, mu in a[k]] == pytest.approx([mu for _, mu in b[k]], rel=1e-12)
        for k in a
    )


@pytest.mark.parametrize("players", [2, 3])
def test_the_kept_history_is_the_computed_one_on_small_stores(tmp_path, monkeypatch, players):
    monkeypatch.setattr(kept, "TAIL", 3)  # the checkpoint moves many times
    store = fill(tmp_path, players, rounds=6, shuffle=5)
    found = store.kept(BOTS, with_history=True)
    assert found is not None and found.history is not None
    assert kept._get(store.db, "checkpoint") is not None  # most points were kept, not rated
    full = computed(store)
    assert close(found.history, full)
    assert close(store.rating_history(), full)
    assert len(full["ant"]) > 10
    store.close()


def test_a_game_stored_before_the_checkpoint_keeps_the_history_exact(tmp_path, monkeypatch):
    monkeypatch.setattr(kept, "TAIL", 2)
    store = fill(tmp_path, 2, rounds=8, shuffle=40)  # far out of order
    assert close(store.rating_history(), computed(store))
    store.close()


def test_a_long_history_is_thinned_to_a_bounded_subset(tmp_path, monkeypatch):
    monkeypatch.setattr(kept, "TAIL", 3)
    monkeypatch.setattr(history, "LIMIT", 10)
    store = fill(tmp_path, 2, rounds=20, shuffle=0)  # each bot: 60 events
    found = store.rating_history()
    full = computed(store)
    assert list(found) == list(full)
    for bot, points in found.items():
        every = full[bot]
        assert len(every) == 61
        # the points kept up to the checkpoint, every 8th (thinned twice: 61 > 10, 31 > 10
        # then 16 > 10), the newest kept one, then the tail's rated on reading (at most 2 TAIL)
        assert len(points) <= 10 + 1 + 2 * 3
        assert points[0] == (0, 25.0) and points[-1] == pytest.approx(every[-1])
        assert all(p in every for p in points)  # exact points of the run, in order
        assert [i for i, _ in points] == sorted({i for i, _ in points})
        assert points[1][0] == every[8][0]  # its 8th event
    store.close()


def test_an_older_stores_kept_counts_are_built_again_with_their_history(tmp_path, monkeypatch):
    monkeypatch.setattr(kept, "TAIL", 3)
    store = fill(tmp_path, 2, rounds=6, shuffle=2)
    full = computed(store)
    for table in history.TABLES:  # as an arena before the kept history left it
        store.db.execute(f"DROP TABLE {table}")
    store.db.execute("DELETE FROM kept_meta WHERE key = 'history'")
    store.db.commit()
    store.close()
    reader = open_existing(tmp_path)
    assert not kept.is_valid(reader.db)
    assert close(reader.rating_history(), full)
    assert kept.is_valid(reader.db)
    reader.close()


def test_the_reports_rating_chart_is_the_one_of_every_game(tmp_path, monkeypatch):
    monkeypatch.setattr(kept, "TAIL", 3)
    # in schedule order, so that every stored game (rated in the order stored) is the same
    fill(tmp_path, 2, rounds=5, shuffle=0, replays=True).close()

    def chart(every_game: bool) -> str:
        page = write_report(tmp_path, every_game=every_game).path.read_text()
        found = re.search(r'<section id="ratings">.*?</section>', page)
        assert found is not None
        return found.group(0)

    from_kept = chart(False)
    assert from_kept.count("<polyline") == 4
    assert from_kept == chart(True)  # every stored game, rated now
