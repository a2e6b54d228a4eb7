"""The rating history behind the bot page's chart: TrueSkill step by step, ending where the
leaderboard's ratings end."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from arena.records import GameRecord, SeatRecord, StoredGame
from arena.results import rating, ratings
from arena.results.leaderboard import leaderboard_from_store
from arena.results.ratings.trueskill import rate_pair
from arena.results.store import Store
from arena.web import snapshot as snapshots
from arena.web.folder import Folder
from arena.web.snapshot import Snapshots, rating_history


def test_the_closed_form_is_trueskills_update_of_two_players() -> None:
    env = ratings.get("trueskill").env()  # type: ignore[attr-defined]
    rng = random.Random(3)
    checked = 0
    for _ in range(2000):
        a = (rng.uniform(0, 50), rng.uniform(0.5, 8.4))
        b = (rng.uniform(0, 50), rng.uniform(0.5, 8.4))
        ranks = rng.choice([(0, 1), (1, 0), (0, 0)])
        try:
            (x,), (y,) = env.rate(
                [(env.create_rating(*a),), (env.create_rating(*b),)], ranks=list(ranks)
            )
        except FloatingPointError:  # the package's own limit: the same for both
            continue
        (mu_a, sigma_a), (mu_b, sigma_b) = rate_pair(env, a, b, *ranks)
        assert (mu_a, sigma_a, mu_b, sigma_b) == pytest.approx(
            (x.mu, x.sigma, y.mu, y.sigma), abs=1e-9
        )
        checked += 1
    assert checked > 1900


def _game(i: int, seats: list[tuple[str, int]]) -> StoredGame:
    return StoredGame(
        id=i, key=f"g{i}", ord=i, round=0, group=str(i), game="stc", seed=i, reason="end",
        turns=1, duration_ms=1.0, dir="", seats=tuple(SeatRecord(b, r) for b, r in seats),
    )  # fmt: skip


def test_the_history_ends_at_the_leaderboards_ratings() -> None:
    rng = random.Random(5)
    names = ["a", "b", "c", "d"]
    games = []
    for i in range(300):
        if i % 10 == 0:  # a few games of three: the package's own update
            three = rng.sample(names, 3)
            games.append(_game(i, [(three[0], 0), (three[1], 1), (three[2], 1)]))
            continue
        x, y = rng.sample(names, 2)
        games.append(_game(i, [(x, rng.choice([0, 1])), (y, rng.choice([0, 1]))]))
    stats, _ = rating.compute(names, games)
    history, events = rating_history(names, games, [])
    assert events == 300
    for s in stats:
        last = history[s.name][-1]
        raw = s.ratings["trueskill"].raw
        assert (last.mu, last.sigma) == pytest.approx((raw["mu"], raw["sigma"]), abs=1e-9)
        assert history[s.name][0].event == 0 and history[s.name][0].mu == 25.0


def _store_game(store: Store, i: int, winner: str, loser: str) -> None:
    seats = [SeatRecord(winner, 0, 1.0), SeatRecord(loser, 1, 0.0)]
    record = GameRecord("stc", i, {}, seats, "end", 5, 10, 1.0)
    store.add_game(f"g{i}", i, 0, str(i), record, {"seed": i, "bots": [winner, loser]})


def _fresh(snaps: Snapshots, folder: Folder) -> snapshots.Snapshot:
    """The snapshot of the store as it is now (waiting for the one being computed)."""
    version = folder.version()
    for _ in range(2):  # the first get may start the refresh the second returns
        snaps.get(version)
        if snaps._busy is not None:
            snaps._busy.join(60)
    return snaps.get(version)


def test_the_history_waits_its_turn_and_the_chart_ends_at_the_board(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the histories may not be computed again (their share of a core used up), a
    new game moves the leaderboard on at once and a bot's chart ends at its rating now."""
    store = Store(tmp_path / "out")
    store.set_meta({"name": "t", "game": "stc", "bots": ["a", "b"], "seed": 1})
    for i in range(4):
        _store_game(store, i, "a", "b")
    folder = Folder(tmp_path / "out")
    monkeypatch.setattr(snapshots, "HISTORY_SHARE", 1e-12)  # never again, once made
    snaps = Snapshots(folder)
    first = _fresh(snaps, folder)
    assert first.history_version == first.version == folder.version()
    assert [p.event for p in first.history_of("b")] == [0, 1, 2, 3, 4]
    _store_game(store, 4, "b", "a")
    _store_game(store, 5, "b", "a")
    later = _fresh(snaps, folder)
    assert later.version.games == 6 and later.history_version.games == 4
    assert later.history is first.history
    board = leaderboard_from_store(store).stats
    now = next(s for s in board if s.name == "b").ratings["trueskill"].raw
    *kept, last = later.history_of("b")
    assert kept == first.history["b"]
    assert (last.event, last.mu, last.sigma) == (6, now["mu"], now["sigma"])
    # Once its turn comes, the history is of every game again: no extra point.
    monkeypatch.setattr(snapshots, "HISTORY_SHARE", 1e12)
    again = _fresh(snaps, folder)
    assert again.history_version == again.version
    assert [p.event for p in again.history_of("b")] == [0, 1, 2, 3, 4, 5, 6]
    assert again.history_of("b")[-1].mu == pytest.approx(now["mu"], abs=1e-9)
    store.close()
