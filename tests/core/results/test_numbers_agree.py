"""The numbers of one table agree (issue 50, part 4): the Elo of a pairing counts every
game, the rating column names its rating, LOS and normalized Elo tell of the interval
shown; each figure worked out by hand."""

from __future__ import annotations

import math

import pytest

from arena.results.rating import Counts, Pairwise, rate
from arena.results.stats import NELO_SCALE, Pentanomial, normal_cdf, score_to_elo, wilson
from arena.views.leaderboard import ShownLeaderboard


def test_a_two_one_record_counts_its_unpaired_game():
    # --games 3: a pair won twice (WW), then a lost game whose other half was not played.
    pw = Pairwise(2, 0, 1, Pentanomial([0, 0, 0, 0, 1]))
    e = pw.elo()
    # By hand: score 2/3; the game variance (2 (1/3)^2 + (2/3)^2) / 3 = 2/9; the pair
    # scored 2 of 2 (variance 0), so the points' variance is 2/9 from the one unpaired
    # game; the mean's sd sqrt(2/9) / 3 = 0.157135.
    sd = math.sqrt(2 / 9) / 3
    assert e.n == 3 and e.score == pytest.approx(2 / 3)
    assert e.elo == pytest.approx(-400 * math.log10(1 / (2 / 3) - 1))  # +120.4
    assert round(e.elo, 1) == 120.4
    assert e.elo_low == pytest.approx(score_to_elo(2 / 3 - 1.959964 * sd), abs=1e-3)  # -100.9
    assert e.elo_high == pytest.approx(score_to_elo(2 / 3 + 1.959964 * sd), abs=1e-3)  # +633.9
    assert (round(e.elo_low, 1), round(e.elo_high, 1)) == (-100.9, 633.9)
    assert e.los == pytest.approx(normal_cdf((2 / 3 - 0.5) / sd))  # 85.6%, not 84.6 of a pair
    assert round(100 * e.los, 1) == 85.6
    assert math.isfinite(e.elo) and math.isfinite(e.elo_high)  # no bound: a game was lost


def test_without_unpaired_games_a_pairing_is_fastchess_pentanomial():
    counts = Pentanomial([1, 2, 5, 3, 1])
    wins_draws_losses = (10, 4, 10)  # any split of 24 games whose pairs are these 12
    pw = Pairwise(*wins_draws_losses, counts)
    assert pw.unpaired == 0 and pw.elo() == counts.estimate()


def test_normalized_elo_and_los_tell_of_the_interval_of_a_perfect_record():
    # Two pairs won twice: no spread measured, so the Wilson interval of 4 wins of 4
    # games is the interval; LOS and nElo use its centre and width, not the score 1.
    e = Pentanomial([0, 0, 0, 0, 2]).estimate()
    low, high = wilson(4, 4)
    centre, sd_mean = (low + high) / 2, (high - low) / (2 * 1.959963984540054)
    assert e.elo == math.inf and e.elo_low == pytest.approx(score_to_elo(low))
    assert e.los == pytest.approx(normal_cdf((centre - 0.5) / sd_mean))
    sd_game = math.sqrt(4) * sd_mean
    assert e.nelo == pytest.approx((centre - 0.5) / sd_game * NELO_SCALE)
    assert e.nelo - e.nelo_error == pytest.approx((low - 0.5) / sd_game * NELO_SCALE)


def test_the_compact_table_names_its_rating_and_sorts_by_it():
    counts = Counts()
    for name, wins in (("a", 1), ("b", 3)):
        s = counts.bot(name)
        s.games, s.wins, s.losses = 4, wins, 4 - wins
    counts.pairs = {("a", "b"): Pairwise(1, 0, 3), ("b", "a"): Pairwise(3, 0, 1)}
    counts.finish()
    # a has the better TrueSkill state (given), b the better record (Bradley-Terry).
    states = {"trueskill": {"a": [30.0, 1.0], "b": [20.0, 1.0]}}
    stats = rate(counts, states)
    board = ShownLeaderboard("t", stats, counts.pairs)
    header = board.compact(100).splitlines()[2]
    assert header.split()[:4] == ["#", "bot", "BT", "±95%"]
    assert [s.name for s in board.stats] == ["b", "a"]
    by_ts = board.sorted_by("trueskill")
    assert [s.name for s in by_ts.stats] == ["a", "b"]
    assert by_ts.compact(100).splitlines()[2].split()[:5] == ["#", "bot", "TS", "mu", "±95%"]
    row = by_ts.compact(100).splitlines()[4].split()
    assert row[:4] == ["1", "a", "30.0", "±2.0"]  # mu ± 1.96 sigma
