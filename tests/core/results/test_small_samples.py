"""Numbers that do not mislead on small samples: worked examples."""

from __future__ import annotations

import json
import math
import re

import pytest

from arena.records import SeatRecord
from arena.results.rating import compute
from arena.results.stats import (
    Pentanomial,
    elo_bound,
    normal_cdf,
    score_interval,
    trinomial,
    wilson,
)
from arena.results.store import StoredGame
from arena.views.leaderboard import ShownLeaderboard


def game(i: int, *seats: tuple[str, int, float]) -> StoredGame:
    records = tuple(SeatRecord(bot=b, rank=r, score=s) for b, r, s in seats)
    return StoredGame(i, f"k{i}", i, i // 2, f"r{i // 2}", "g", 1, "", 1, 1.0, "", records)


def test_two_wins_are_not_a_certainty():
    # 2 wins of 2: the games show no spread, so the interval is Wilson's over 2 games,
    # [0.342, 1]: centre 0.671, sd 0.168 -> LOS = Phi(1.02) = 84.6%, not 100%, no "±0".
    e = trinomial(2, 0, 0)
    low, high = wilson(2, 2)
    assert (round(low, 3), high) == (0.342, 1.0)
    assert round(100 * e.los, 1) == 84.6
    assert e.elo == math.inf and e.elo_high == math.inf
    assert e.elo_low == pytest.approx(-400 * math.log10(1 / low - 1))


def test_a_single_pair_has_an_interval():
    # One pair won twice is two games: Wilson over 2 games, the same as above.
    one = Pentanomial([0, 0, 0, 0, 1]).estimate()
    assert one.n == 1 and round(100 * one.los, 1) == 84.6
    # Two pairs, 1/2 and 1: spread measured, but the normal interval 0.75 ± 0.49 reaches
    # past 100% (fastchess writes "+190.8 (> -68)", LOS 92.1%) for a score that lost a
    # game: the Wilson interval of 3 of 4 games, [0.301, 0.954], is the interval, and LOS
    # is that of its centre and width.
    two = Pentanomial([0, 0, 1, 0, 1]).estimate()
    low, high = wilson(3, 4)
    assert (round(low, 3), round(high, 3)) == (0.301, 0.954)
    assert round(two.elo, 1) == 190.8 and math.isfinite(two.elo_high)
    assert two.elo_low == pytest.approx(-400 * math.log10(1 / low - 1))
    assert two.elo_high == pytest.approx(-400 * math.log10(1 / high - 1))
    sd = (high - low) / (2 * 1.959963984540054)
    assert two.los == pytest.approx(normal_cdf(((low + high) / 2 - 0.5) / sd))
    assert round(100 * two.los, 1) == 77.8


def test_an_infinite_elo_is_a_bound_in_text_and_a_direction_in_json():
    games = [game(0, ("a", 0, 1), ("b", 1, 0)), game(1, ("b", 1, 0), ("a", 0, 1))]
    stats, pairs = compute(["a", "b"], games)
    board = ShownLeaderboard("t", stats, pairs)
    wide = board.render(wide=True)
    assert "inf" not in wide
    # a's Elo is above its 95% lower bound, b's below its upper bound
    assert re.search(r"> [+-]\d+", wide) and re.search(r"< [+-]\d+", wide)
    rows = {r["bot"]: r for r in json.loads(board.render("json"))["leaderboard"]}
    assert (rows["a"]["elo"], rows["a"]["elo_bound"]) == (None, "+")
    assert (rows["b"]["elo"], rows["b"]["elo_bound"]) == (None, "-")
    assert rows["a"]["elo_low"] is not None and rows["a"]["elo_high"] is None
    assert elo_bound(12.0) is None and elo_bound(-math.inf) == "-"
    assert "enemy" not in board.compact(100) and "a vs b: 2 games 2/0/0" in board.compact(100)


def test_a_bot_without_games_ranks_last():
    # c has not played yet (a league that just added it): TrueSkill's prior (mu 25,
    # sigma 8.3, mu - 3 sigma = 0) would place it above b, which lost.
    games = [game(0, ("a", 0, 1), ("b", 1, 0)), game(1, ("b", 1, 0), ("a", 0, 1))]
    stats, _ = compute(["a", "b", "c"], games)
    assert [s.name for s in stats] == ["a", "b", "c"]
    by_name = {s.name: s for s in stats}
    assert by_name["c"].value("trueskill") > by_name["b"].value(
        "trueskill"
    )  # what used to rank it 2nd


def test_score_intervals_stay_inside_the_scores_range():
    # Scores 0, 300, 1450, 0: mean 437.5, normal half-width 1.96 * 687.4 / 2 = 673.7,
    # so 437.5 ± 673.7 would reach -236; clipped to the lowest score observed, 0.
    interval = score_interval([0, 300, 1450, 0])
    assert interval.mean == 437.5 and interval.half == pytest.approx(675.86, abs=0.01)
    assert (interval.low, round(interval.high or 0, 1)) == (0, 1113.4)
    assert score_interval([5.0]).low is None  # one score: no interval at all
    games = [game(i, ("a", 0, s), ("b", 1, 0)) for i, s in enumerate([0, 300, 1450, 0])]
    stats, pairs = compute(["a", "b"], games)
    board = ShownLeaderboard("t", stats, pairs)
    row = next(r for r in board.rows() if r["bot"] == "a")
    assert (row["score"], row["score_low"], row["score_high"]) == (437.5, 0.0, 1113.36)
    assert "437.5 [0-1113]" in board.render(wide=True)


def test_csv_headers_are_ascii_and_no_number_reads_minus_zero():
    games = [game(0, ("a", 0, -0.0), ("b", 0, 0.0)), game(1, ("b", 0, 0.0), ("a", 0, -0.0))]
    stats, pairs = compute(["a", "b"], games)
    board = ShownLeaderboard("t", stats, pairs)
    header = board.render("csv").splitlines()[0]
    assert header.isascii() and "score_ci" in header
    for text in (board.render(wide=True), board.render("csv"), board.compact(100)):
        assert "-0.0" not in text and " -0 " not in text and "-0\n" not in text
