"""The rating history behind the bot page's chart: TrueSkill step by step, ending where the
leaderboard's ratings end."""

from __future__ import annotations

import random

import pytest

from arena.records import SeatRecord, StoredGame
from arena.results import rating, ratings
from arena.results.ratings.trueskill import rate_pair
from arena.web.snapshot import rating_history


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
