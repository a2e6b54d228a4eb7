"""Match statistics, each formula checked on a worked example computed by hand here, and
against numbers the reference tools publish.

Sources (public code, read for the formulas):
- fastchess ``app/src/matchmaking/elo/elo_wdl.cpp``, ``elo_pentanomial.cpp`` (Elo, error,
  nElo, LOS), ``app/src/matchmaking/elo/mod.rs`` (its unit tests' expected values),
  ``app/src/matchmaking/sprt/sprt.cpp`` and ``app/tests/sprt_test.cpp`` (LLR, bounds);
- fishtest ``server/fishtest/stats/LLRcalc.py`` (the same LLR in Python);
- cutechess ``projects/lib/src/elo.cpp`` (Elo, error margin, LOS, draw ratio);
- Wilson (1927) / Newcombe (1998) for the score interval; Hunter (2004), "MM algorithms
  for generalized Bradley-Terry models", for the Bradley-Terry fit.
"""

from __future__ import annotations

import itertools
import math
import random

import pytest

from arena.results.leaderboard import Timing
from arena.results.stats import (
    Z95,
    Encounter,
    Pentanomial,
    Sprt,
    _mle_mean,
    _mle_normalized,
    bradley_terry,
    elo_to_score,
    information_order,
    normal_cdf,
    percentile,
    score_to_elo,
    trinomial,
    wilson,
)


def elo(score: float) -> float:
    """The logistic Elo of a score, written out: -400 log10(1/s - 1)."""
    return -400 * math.log10(1 / score - 1)


def test_score_and_elo_convert_both_ways_with_infinities_at_the_ends():
    assert score_to_elo(0.75) == pytest.approx(400 * math.log10(3))  # 190.85
    assert score_to_elo(0.5) == 0
    assert elo_to_score(400 * math.log10(3)) == pytest.approx(0.75)
    assert score_to_elo(1.0) == math.inf and score_to_elo(1.2) == math.inf
    assert score_to_elo(0.0) == -math.inf
    assert normal_cdf(0) == 0.5 and normal_cdf(1.959963984540054) == pytest.approx(0.975)


def test_trinomial_elo_error_and_los_by_hand():
    # 6 wins, 2 draws, 2 losses (fastchess EloWDL / cutechess Elo):
    # score = (6 + 2/2) / 10 = 0.7
    # variance per game = (6 (1 - .7)² + 2 (.5 - .7)² + 2 (0 - .7)²) / 10 = 0.16
    # 95% score interval = 0.7 ± 1.96 sqrt(0.16 / 10)
    e = trinomial(wins=6, draws=2, losses=2)
    sd = math.sqrt(0.16 / 10)
    low, high = 0.7 - Z95 * sd, 0.7 + Z95 * sd
    assert e.n == 10 and e.score == pytest.approx(0.7) and e.variance == pytest.approx(0.16)
    assert e.elo == pytest.approx(elo(0.7))  # +147.2
    assert e.elo_low == pytest.approx(elo(low)) and e.elo_high == pytest.approx(elo(high))
    assert e.elo_error == pytest.approx((elo(high) - elo(low)) / 2)
    assert e.los == pytest.approx(0.5 * (1 + math.erf((0.7 - 0.5) / sd / math.sqrt(2))))
    # normalized Elo: (score - 1/2) / sd(game) * 800 / ln 10
    assert e.nelo == pytest.approx(0.2 / 0.4 * 800 / math.log(10))


def test_trinomial_matches_fastchess_and_cutechess_published_numbers():
    # fastchess elo/mod.rs test_elo_wdl_2: Stats::new(wins 136, losses 96, draws 111)
    e = trinomial(wins=136, draws=111, losses=96)
    assert round(e.nelo, 2) == 49.77 and round(e.nelo_error, 2) == 36.77
    assert round(e.elo, 2) == 40.70 and round(e.elo_error, 2) == 30.43
    assert f"{100 * e.los:.2f} %" == "99.60 %"
    # test_elo_wdl_1: Stats::new(76, 89, 123) -> nElo -20.76 +/- 40.13, LOS 15.53 %
    e = trinomial(wins=76, draws=123, losses=89)
    assert (round(e.nelo, 2), round(e.nelo_error, 2)) == (-20.76, 40.13)
    assert f"{100 * e.los:.2f} %" == "15.53 %"
    # A cutechess-cli run: "Score of A vs B: 99 - 97 - 104 [0.503] 300 /
    # Elo difference: 2.3 +/- 31.8, LOS: 55.7 %, DrawRatio: 34.7 %"
    e = trinomial(wins=99, draws=104, losses=97)
    assert (round(e.elo, 1), round(e.elo_error, 1), round(100 * e.los, 1)) == (2.3, 31.9, 55.7)
    # cutechess's 31.8 comes from its approximate inverse erf (phiInv(0.975) ~ 1.958).
    assert abs(e.elo_error - 31.8) < 0.1
    # "45 - 37 - 18 [0.540] 100 / Elo difference: 27.9 +/- 62.4, LOS: 81.2 %"
    e = trinomial(wins=45, draws=18, losses=37)
    assert (round(e.elo, 1), round(100 * e.los, 1)) == (27.9, 81.2)
    assert abs(e.elo_error - 62.4) < 0.15


def test_a_pair_counts_by_the_points_of_its_two_games():
    p = Pentanomial()
    for first, second in [(1, 1), (1, 0), (0.5, 0.5), (0, 1), (1, 0.5), (0.5, 0), (0, 0)]:
        p.add(first, second)
    #                  LL LD WL+DD WD WW
    assert p.counts == [1, 1, 3, 1, 1] and p.pairs == 7
    assert p.reversed().counts == [1, 1, 3, 1, 1][::-1]


def test_pentanomial_elo_by_hand():
    # Pairs [LL, LD, WL+DD, WD, WW] = [1, 0, 2, 1, 1] (fastchess EloPentanomial):
    # score = (0 + 2 * 0.5 + 0.75 + 1) / 5 = 0.55
    # variance per pair = (.55² + 2 * .05² + .2² + .45²) / 5 = 0.11
    e = Pentanomial([1, 0, 2, 1, 1]).estimate()
    sd = math.sqrt(0.11 / 5)
    assert e.n == 5 and e.score == pytest.approx(0.55) and e.variance == pytest.approx(0.11)
    assert e.elo == pytest.approx(elo(0.55))
    low, high = 0.55 - Z95 * sd, 0.55 + Z95 * sd
    assert e.elo_error == pytest.approx((elo(high) - elo(low)) / 2)
    assert e.los == pytest.approx(normal_cdf(0.05 / sd))
    # nElo of pairs: (score - 1/2) / sqrt(2 var) * 800 / ln 10
    assert e.nelo == pytest.approx(0.05 / math.sqrt(0.22) * 800 / math.log(10))


def test_pentanomial_matches_fastchess_published_numbers():
    # fastchess elo/mod.rs: Stats::from_pentanomial(ll, ld, wl, dd, wd, ww)
    # (34, 54, 31, 32, 64, 75) -> nElo 57.94 +/- 28.28, Elo 55.58 +/- 27.65, LOS 100.00 %
    e = Pentanomial([34, 54, 31 + 32, 64, 75]).estimate()
    assert (round(e.nelo, 2), round(e.nelo_error, 2)) == (57.94, 28.28)
    assert (round(e.elo, 2), round(e.elo_error, 2)) == (55.58, 27.65)
    assert f"{100 * e.los:.2f} %" == "100.00 %"
    # (332, 433, 457, 41, 333, 334) -> -9.17 +/- 10.96, -8.64 +/- 10.33, LOS 5.05 %
    e = Pentanomial([332, 433, 457 + 41, 333, 334]).estimate()
    assert (round(e.nelo, 2), round(e.nelo_error, 2)) == (-9.17, 10.96)
    assert (round(e.elo, 2), round(e.elo_error, 2)) == (-8.64, 10.33)
    assert f"{100 * e.los:.2f} %" == "5.05 %"


def test_pairs_are_the_honest_variance_when_seats_decide_games():
    # A game where the seat decides: each bot wins as first player. 10 pairs, all W+L.
    # As 20 independent games this looks like a coin toss with a wide interval; as
    # pairs it is exactly even, every pair scoring 1/2, with no spread measured: the
    # pairs then claim no more than the same games would as single games (not ±0).
    games = trinomial(wins=10, draws=0, losses=10)
    pairs = Pentanomial([0, 0, 10, 0, 0]).estimate()
    assert games.elo == pairs.elo == 0
    assert games.elo_error > 40 and pairs.los == 0.5
    assert pairs.elo_error == pytest.approx(trinomial(10, 0, 10).elo_error, rel=0.3)
    assert pairs.elo_error > 100


def test_extreme_scores_give_infinite_elo_not_a_crash():
    e = trinomial(wins=8, draws=0, losses=0)
    assert e.elo == math.inf and 0.999 < e.los < 1.0  # eight wins: nearly sure, not sure
    e = Pentanomial([3, 0, 0, 0, 0]).estimate()
    assert e.elo == -math.inf and 0.0 < e.los < 0.01
    assert math.isnan(trinomial(0, 0, 0).elo)


def test_wilson_interval_by_hand_and_newcombes_example():
    # (p + z²/2n ± z sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)
    def by_hand(k: float, n: int) -> tuple[float, float]:
        p, z = k / n, 1.959963984540054
        centre = p + z * z / (2 * n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        return (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)

    for k, n in [(3, 4), (1.5, 4), (7, 10), (0, 5)]:
        assert wilson(k, n) == pytest.approx(by_hand(k, n))
    # Newcombe (1998), "Two-sided confidence intervals for the single proportion",
    # example 81/263: score (Wilson) interval 0.2553 to 0.3662.
    low, high = wilson(81, 263)
    assert (round(low, 4), round(high, 4)) == (0.2553, 0.3662)
    # The point of it: 4 of 4 is [0.51, 1], inside 0-100%, not 100±30%.
    low, high = wilson(4, 4)
    assert high == 1.0 and round(low, 2) == 0.51
    assert wilson(0, 0) == (0.0, 1.0)


def test_sprt_bounds_are_walds():
    # sprt.cpp: lower = ln(beta / (1 - alpha)), upper = ln((1 - beta) / alpha)
    t = Sprt(0, 5, alpha=0.05, beta=0.05)
    assert t.lower == pytest.approx(-math.log(19)) and t.upper == pytest.approx(math.log(19))
    t = Sprt(0, 5, alpha=0.05, beta=0.1)
    assert (round(t.lower, 2), round(t.upper, 2)) == (-2.25, 2.89)
    assert t.verdict(2.9) == "H1" and t.verdict(-2.26) == "H0" and t.verdict(0.0) is None


@pytest.mark.parametrize(
    ("counts", "elo0", "elo1", "model", "expected"),
    [
        # fastchess app/tests/sprt_test.cpp, Stats(ll, ld, wl, dd, wd, ww); WL and DD merge.
        ((365, 16618, 36029 + 200, 16974, 390), 0, 2, "normalized", 2.25),
        ((127, 4883, 10311 + 401, 5150, 104), -1.75, 0.25, "normalized", 3.01),
        ((223, 9863, 20279 + 1000, 10037, 246), 0.5, 2.5, "logistic", -3.07),
        ((871, 26175, 55003 + 980, 26678, 821), 0, 2, "logistic", -4.98),
    ],
)
def test_pentanomial_llr_matches_fastchess(counts, elo0, elo1, model, expected):
    assert Sprt(elo0, elo1, model=model).llr(counts) == pytest.approx(expected, abs=0.005)


@pytest.mark.parametrize(
    ("wins", "losses", "draws", "elo0", "elo1", "model", "expected"),
    [
        # fastchess sprt_test.cpp, Stats(wins, losses, draws)
        (36433, 36027, 68692, 0, 2, "normalized", 0.92),
        (10871, 10650, 20431, -1.75, 0.25, "normalized", 2.30),
        (21404, 21184, 40708, 0.5, 2.5, "logistic", -1.57),
        (57433, 57030, 106593, 0, 2, "logistic", -2.59),
    ],
)
def test_trinomial_llr_matches_fastchess(wins, losses, draws, elo0, elo1, model, expected):
    llr = Sprt(elo0, elo1, model=model).llr_trinomial(wins, draws, losses)
    assert llr == pytest.approx(expected, abs=0.005)


def test_llr_constrained_estimates_meet_their_constraints():
    # The LLR compares the closest distributions (maximum likelihood) with mean s0 and s1
    # (logistic) or with t = (mean - 1/2) / sd (normalized); fishtest asserts the same.
    probs = [0.1, 0.2, 0.35, 0.25, 0.1]
    scores = (0.0, 0.25, 0.5, 0.75, 1.0)
    p = _mle_mean(scores, probs, 0.52)
    assert sum(p) == pytest.approx(1) and sum(
        a * q for a, q in zip(scores, p, strict=True)
    ) == pytest.approx(0.52)
    p = _mle_normalized(scores, probs, 0.05)
    mu = sum(a * q for a, q in zip(scores, p, strict=True))
    sd = math.sqrt(sum(q * (a - mu) ** 2 for a, q in zip(scores, p, strict=True)))
    assert sum(p) == pytest.approx(1) and (mu - 0.5) / sd == pytest.approx(0.05)


def test_llr_is_close_to_fishtests_brownian_approximation():
    # LLR_alt2 (fishtest LLRcalc.py): N (s1 - s0)(2s - s0 - s1) / (2 var), a check of the
    # exact LLR's size and sign for a moderate sample.
    counts = [30, 200, 500, 230, 40]
    n = sum(counts)
    s = sum(c * a for c, a in zip(counts, (0, 0.25, 0.5, 0.75, 1), strict=True)) / n
    var = sum(c * (a - s) ** 2 for c, a in zip(counts, (0, 0.25, 0.5, 0.75, 1), strict=True)) / n
    s0, s1 = elo_to_score(0), elo_to_score(10)
    approx = n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var)
    assert Sprt(0, 10, model="logistic").llr(counts) == pytest.approx(approx, rel=0.02)


def test_llr_of_one_sided_results_grows_with_the_pairs():
    # A bot winning every pair: each pair adds the same to the LLR (empty bins count
    # 1e-3, so it stays finite); 150 such pairs cross ln(19) for normalized [0, 5].
    # (fastchess's own tests for this degenerate case expect different numbers in
    # different versions, 104 or 5550 pairs for 2.94; fishtest's LLRcalc, which this
    # follows to convergence, gives the linear growth checked here.)
    t = Sprt(0, 5)
    one, ten = t.llr([0, 0, 0, 0, 1]), t.llr([0, 0, 0, 0, 10])
    assert one > 0 and ten > 9 * one
    assert t.verdict(t.llr([0, 0, 0, 0, 150])) == "H1"
    assert t.verdict(t.llr([0, 0, 0, 0, 140])) is None
    assert t.verdict(t.llr([150, 0, 0, 0, 0])) == "H0"


def test_bradley_terry_two_bots_by_hand():
    # a scored 3 of 4 against b; one virtual draw added: 3.5 to 1.5.
    # MLE: 10^((ra - rb)/400) = 3.5 / 1.5, ratings centred on 0.
    bt = bradley_terry(["a", "b"], [Encounter("a", "b", 3, 4)])
    gap = 400 * math.log10(3.5 / 1.5)
    assert bt.ratings["a"] == pytest.approx(gap / 2) and bt.ratings["b"] == pytest.approx(-gap / 2)
    # Fisher information of the gap (natural units): n p (1 - p) with n = 5, p = 0.7;
    # each centred rating has a quarter of the gap's variance.
    w = 5 * 0.7 * 0.3
    unit = 400 / math.log(10)
    assert bt.diff_sd("a", "b") == pytest.approx(unit / math.sqrt(w))
    assert bt.errors["a"] == pytest.approx(Z95 * unit / math.sqrt(4 * w))


def _hunter_mm(names, wins):
    """Hunter's (2004) MM iteration: gamma_i <- W_i / sum_j n_ij / (gamma_i + gamma_j)."""
    gamma = dict.fromkeys(names, 1.0)
    for _ in range(20000):
        new = {}
        for i in names:
            w = sum(wins.get((i, j), 0) for j in names)
            den = sum(
                (wins.get((i, j), 0) + wins.get((j, i), 0)) / (gamma[i] + gamma[j])
                for j in names
                if j != i
            )
            new[i] = w / den
        mean = sum(math.log(g) for g in new.values()) / len(new)
        gamma = {k: math.exp(math.log(g) - mean) for k, g in new.items()}
    return {k: 400 * math.log10(g) for k, g in gamma.items()}


def test_bradley_terry_agrees_with_hunters_mm_and_ignores_game_order():
    results = [("a", "b", 7, 10), ("b", "c", 6, 10), ("a", "c", 4, 6), ("c", "d", 3, 8)]
    wins = {}
    for a, b, score, n in results:
        wins[a, b] = score + 0.5  # with the same virtual draw per pair that met
        wins[b, a] = n - score + 0.5
    expected = _hunter_mm(["a", "b", "c", "d"], wins)
    for order in itertools.permutations(results):
        bt = bradley_terry("abcd", [Encounter(*r) for r in order])
        for name, value in expected.items():
            assert bt.ratings[name] == pytest.approx(value, abs=1e-6)


def test_bradley_terry_of_a_cycle_is_flat_and_lonely_bots_have_no_rating():
    cycle = [Encounter("a", "b", 2, 3), Encounter("b", "c", 2, 3), Encounter("c", "a", 2, 3)]
    bt = bradley_terry(["a", "b", "c", "idle"], cycle)
    assert all(abs(bt.ratings[x]) < 1e-9 for x in "abc")
    assert "idle" not in bt.ratings and bt.diff_sd("a", "idle") == math.inf


def test_bradley_terry_keeps_a_perfect_record_finite():
    bt = bradley_terry(["a", "b"], [Encounter("a", "b", 50, 50)])
    assert bt.ratings["a"] == pytest.approx(200 * math.log10(50.5 / 0.5))


def test_bradley_terry_errors_of_four_player_games_cover_the_true_differences():
    # Under Plackett-Luce rankings, P(a placed above b) is exactly Bradley-Terry's, so the
    # pairwise fit is right; but the six pairs of one game are not six independent games.
    # Treated as such, the 95% intervals held the true difference 87% of the time here;
    # with each game's pairs given (their design effect widens the errors), 95%.
    rng = random.Random(1)
    theta = {"a": 0.0, "b": 0.3, "c": 0.6, "d": -0.2}  # log-strengths
    strengths = {k: math.exp(v) for k, v in theta.items()}
    hits = total = 0
    for _ in range(200):
        won: dict[tuple[str, str], int] = {}
        multi = []
        for _ in range(40):
            # Plackett-Luce: u ** (1 / strength), highest first
            order = sorted(strengths, key=lambda b: -(rng.random() ** (1 / strengths[b])))
            game_pairs = [(x, y, 1.0) for x, y in itertools.combinations(order, 2)]
            multi.append(game_pairs)
            for x, y, _ in game_pairs:
                won[x, y] = won.get((x, y), 0) + 1
        encounters = [
            Encounter(x, y, won.get((x, y), 0), won.get((x, y), 0) + won.get((y, x), 0))
            for x, y in itertools.combinations("abcd", 2)
        ]
        bt = bradley_terry("abcd", encounters, multi)
        for x, y in itertools.combinations("abcd", 2):
            true = (theta[x] - theta[y]) * 400 / math.log(10)
            hits += abs(bt.ratings[x] - bt.ratings[y] - true) <= 1.96 * bt.diff_sd(x, y)
            total += 1
    assert 0.92 <= hits / total <= 0.97


def test_information_order_prefers_overlapping_ratings_and_few_pairs():
    bt = bradley_terry(
        ["a", "b", "c"],
        [Encounter("a", "b", 5, 10), Encounter("b", "c", 10, 10), Encounter("a", "c", 10, 10)],
    )
    pairs = [("a", "b"), ("a", "c"), ("b", "c")]
    assert information_order(pairs, bt, lambda a, b: 5)[0] == ("a", "b")  # equal ratings
    played = {("a", "b"): 1000, ("a", "c"): 5, ("b", "c"): 5}
    assert information_order(pairs, bt, lambda a, b: played[a, b])[-1] == ("a", "b")


def test_percentiles_are_nearest_rank_values_of_the_data():
    # Nearest rank: the smallest value with at least q of the values at or below it.
    values = sorted([12.0, 3.0, 7.0, 5.0, 9.0, 1.0, 4.0, 8.0, 2.0, 6.0])
    assert percentile(values, 0.5) == 5.0  # 5 of 10 values are <= 5
    assert percentile(values, 0.99) == 12.0  # 99% of 10 values needs all 10
    assert percentile(values, 0.9) == 9.0
    assert percentile(values, 1.0) == 12.0
    assert percentile([4.0], 0.5) == 4.0
    hundred = [float(v) for v in range(1, 101)]
    assert (percentile(hundred, 0.5), percentile(hundred, 0.99)) == (50.0, 99.0)
    assert percentile(hundred, 0.07) == 7.0  # 0.07 * 100 is 7.000000000000001 in floats
    timing = Timing.of([30.0, 10.0, 20.0], late=2)
    assert timing == Timing(2, 20.0, 30.0, 30.0)
    assert Timing.of([]) == Timing(0, None, None, None)
