"""Scheduling (pairs, seat swaps, shared seeds) and ratings (TrueSkill, tallies, matrix)."""

from __future__ import annotations

import random

import pytest
import trueskill

from arena.records import SeatRecord
from arena.results.rating import Pairwise, compute, events
from arena.results.stats import Encounter, bradley_terry, mean_interval
from arena.results.store import StoredGame
from arena.tournament.schedule import round_robin, round_seed


def test_round_robin_plays_every_pair_on_shared_seeds_with_seats_swapped():
    specs = round_robin(["a", "b", "c"], 2, 4, seed=9)
    assert [s.seats for s in specs] == [
        ("a", "b"), ("b", "a"), ("a", "c"), ("c", "a"), ("b", "c"), ("c", "b"),
        ("a", "b"), ("b", "a"), ("a", "c"), ("c", "a"), ("b", "c"), ("c", "b"),
    ]  # fmt: skip
    assert [s.round for s in specs] == [0] * 6 + [1] * 6
    assert {s.seed for s in specs[:6]} == {round_seed(9, 0)}
    assert {s.seed for s in specs[6:]} == {round_seed(9, 1)}
    assert round_seed(9, 0) != round_seed(9, 1)
    assert len({s.key for s in specs}) == 12


def test_an_odd_game_count_plays_exactly_that_many_games_per_pair():
    specs = round_robin(["a", "b"], 2, 3, seed=1)
    assert [(s.round, s.seats) for s in specs] == [
        (0, ("a", "b")),
        (0, ("b", "a")),
        (1, ("a", "b")),
    ]


def test_multiplayer_schedules_every_combination_in_every_seat_rotation():
    specs = round_robin(["a", "b", "c", "d", "e"], 4, 4, seed=1)
    combos = {tuple(sorted(s.seats)) for s in specs}
    assert len(combos) == 5  # C(5, 4)
    abcd = [s.seats for s in specs if sorted(s.seats) == ["a", "b", "c", "d"]]
    assert abcd == [
        ("a", "b", "c", "d"),
        ("b", "c", "d", "a"),
        ("c", "d", "a", "b"),
        ("d", "a", "b", "c"),
    ]
    assert len({s.seed for s in specs}) == 1


def test_one_player_games_put_every_bot_on_the_same_seeds_in_one_group_per_round():
    specs = round_robin(["a", "b", "c"], 1, 2, seed=1)
    assert [(s.round, s.seats, s.group) for s in specs] == [
        (0, ("a",), "r0"), (0, ("b",), "r0"), (0, ("c",), "r0"),
        (1, ("a",), "r1"), (1, ("b",), "r1"), (1, ("c",), "r1"),
    ]  # fmt: skip


def game(i: int, group: str, *seats: tuple[str, int, float, str | None]) -> StoredGame:
    records = tuple(SeatRecord(bot=b, rank=r, score=s, forfeit=f) for b, r, s, f in seats)
    return StoredGame(i, f"k{i}", i, i, group, "g", 1, "", 1, 1.0, "", records)


def test_ratings_are_trueskill_updates_in_schedule_order_with_draws():
    games = [
        game(0, "x", ("a", 0, 10, None), ("b", 1, 5, None)),
        game(1, "y", ("b", 0, 7, None), ("a", 0, 7, None)),
        game(2, "z", ("a", 1, 0, "timeout"), ("b", 0, 3, None)),
    ]
    stats, pairs = compute(["a", "b"], games)
    env = trueskill.TrueSkill(backend=None)
    a, b = env.create_rating(), env.create_rating()
    (a,), (b,) = env.rate([(a,), (b,)], ranks=[0, 1])
    (b,), (a,) = env.rate([(b,), (a,)], ranks=[0, 0])
    (a,), (b,) = env.rate([(a,), (b,)], ranks=[1, 0])
    by_name = {s.name: s for s in stats}
    assert (
        abs(by_name["a"].ratings["trueskill"].raw["mu"] - a.mu) < 1e-9
        and abs(by_name["a"].ratings["trueskill"].raw["sigma"] - a.sigma) < 1e-9
    )
    assert abs(by_name["b"].ratings["trueskill"].raw["mu"] - b.mu) < 1e-9
    assert (by_name["a"].wins, by_name["a"].draws, by_name["a"].losses) == (1, 1, 1)
    assert by_name["a"].forfeits["timeout"] == 1
    assert (pairs[("a", "b")].wins, pairs[("a", "b")].draws, pairs[("a", "b")].losses) == (1, 1, 1)
    assert stats[0].value("trueskill") >= stats[1].value("trueskill")


def test_one_player_rounds_are_ranked_by_score_as_a_free_for_all():
    games = [
        game(0, "r0", ("a", 0, 30, None)),
        game(1, "r0", ("b", 0, 40, None)),
        game(2, "r0", ("c", 0, 40, None)),
        game(3, "r1", ("a", 0, 50, "invalid")),
        game(4, "r1", ("b", 0, 10, None)),
    ]
    evs = events(games)
    assert [[(e.bot, e.rank) for e in ev] for ev in evs] == [
        [("a", 2), ("b", 0), ("c", 0)],
        [("a", 1), ("b", 0)],  # a forfeited: last whatever its score
    ]
    stats, _ = compute(["a", "b", "c"], games)
    by_name = {s.name: s for s in stats}
    assert (by_name["b"].wins, by_name["b"].draws) == (1, 1)
    assert by_name["a"].losses == 2
    assert by_name["a"].avg_rank == 2.5


def test_interval_helpers_match_hand_computation():
    mean, half = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    assert abs(half - 1.96 * (1.6666666666666667 / 4) ** 0.5) < 1e-12
    pw = Pairwise(wins=3, draws=0, losses=1)
    assert pw.rate == 0.75
    # Wilson: (p + z²/2n ± z sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n), z = 1.96, n = 4
    z2 = 1.959963984540054**2
    centre, half = (0.75 + z2 / 8) / (1 + z2 / 4), (z2 * (0.75 * 0.25 / 4 + z2 / 64)) ** 0.5
    low, high = pw.interval()
    assert abs(low - (centre - half / (1 + z2 / 4))) < 1e-12
    assert abs(high - (centre + half / (1 + z2 / 4))) < 1e-12
    # 4 wins of 4 is no longer 100±30%: the interval is asymmetric and ends at 100%.
    low, high = Pairwise(wins=4).interval()
    assert high == 1.0 and 0.50 < low < 0.52


def test_settings_variants_replay_each_round_per_variant_on_the_same_seed():
    specs = round_robin(["a", "b"], 1, 2, seed=4, variants=2)
    assert [(s.round, s.variant, s.seats, s.group) for s in specs] == [
        (0, 0, ("a",), "r0v0"), (0, 0, ("b",), "r0v0"),
        (0, 1, ("a",), "r0v1"), (0, 1, ("b",), "r0v1"),
        (1, 0, ("a",), "r1v0"), (1, 0, ("b",), "r1v0"),
        (1, 1, ("a",), "r1v1"), (1, 1, ("b",), "r1v1"),
    ]  # fmt: skip
    assert specs[0].seed == specs[2].seed != specs[4].seed
    assert len({s.key for s in specs}) == 8
    assert round_robin(["a", "b"], 2, 2, seed=4)[0].key == "r0:a,b"  # unchanged without variants


def test_scores_are_kept_per_variant():
    def solo(i: int, group: str, bot: str, score: float, layout: int) -> StoredGame:
        g = game(i, group, (bot, 0, score, None))
        return StoredGame(**{**g.__dict__, "settings": {"layout": layout}})

    games = [solo(0, "r0v0", "a", 10, 1), solo(1, "r0v1", "a", 30, 2), solo(2, "r1v0", "a", 20, 1)]
    stats, _ = compute(["a"], games, ["layout"])
    kept = {k: (m.n, m.mean, m.low, m.high) for k, m in stats[0].variant_scores.items()}
    assert kept == {"layout=1": (2, 15, 10, 20), "layout=2": (1, 30, 30, 30)}


def test_bradley_terry_errors_of_four_player_games_count_each_game_once():
    # Rankings drawn with Plackett-Luce (u ** (1 / strength), highest first): each game's
    # six pairs move together (the winner beat all three), so the leaderboard's errors are
    # wider than six independent games per game would give (by the games' design effect).
    rng = random.Random(3)
    strength = {"a": 2.0, "b": 1.5, "c": 1.0, "d": 0.7}
    games = []
    for i in range(40):
        order = sorted(strength, key=lambda b: -(rng.random() ** (1 / strength[b])))
        seats = [(bot, rank, 4.0 - rank, None) for rank, bot in enumerate(order)]
        games.append(game(i, f"r{i}", *seats))
    stats, pairs = compute(["a", "b", "c", "d"], games)
    encounters = [
        Encounter(a, b, pw.wins + 0.5 * pw.draws, pw.n) for (a, b), pw in pairs.items() if a < b
    ]
    naive = bradley_terry("abcd", encounters)
    robust = {s.name: s.ratings["bt"].raw["error"] for s in stats}
    assert {s.name: s.ratings["bt"].raw["rating"] for s in stats} == pytest.approx(naive.ratings)
    for name in "abcd":
        assert robust[name] > naive.errors[name] * 1.05


def test_bradley_terry_errors_of_a_short_predictable_four_player_tournament_stay_the_models():
    # a always first and d always last: each game's residuals are smaller than the model
    # expects, and a full sandwich would make the errors narrower than six independent games
    # per game; a game's pairs are never worth more than that, so the errors stay the model's.
    orders = [("a", "b", "c", "d"), ("a", "c", "b", "d")] * 4
    games = [
        game(i, f"r{i}", *((bot, rank, 4.0 - rank, None) for rank, bot in enumerate(order)))
        for i, order in enumerate(orders)
    ]
    stats, pairs = compute(["a", "b", "c", "d"], games)
    encounters = [
        Encounter(a, b, pw.wins + 0.5 * pw.draws, pw.n) for (a, b), pw in pairs.items() if a < b
    ]
    naive = bradley_terry("abcd", encounters)
    assert {s.name: s.ratings["bt"].raw["error"] for s in stats} == pytest.approx(naive.errors)
