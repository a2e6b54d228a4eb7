"""The candidate's verdict: the two sequential tests, their stopping rule, their error rates."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

from arena.results.stats import Sprt, wilson
from arena.results.verdict import (
    CandidateVerdict,
    VerdictRule,
    VerdictTests,
    llr_many,
    pair_distribution,
    simulate,
)

WW, WD, WL, DL, LL = (1.0, 1.0), (1.0, 0.5), (1.0, 0.0), (0.5, 0.0), (0.0, 0.0)


def test_the_two_tests_of_the_default_rule() -> None:
    rule = VerdictRule()
    assert (rule.better.elo0, rule.better.elo1) == (0, 5)
    assert (rule.not_worse.elo0, rule.not_worse.elo1) == (-5, 0)
    assert rule.describe() == (
        "better: normalized Elo [0, 5]; worse: [-5, 0]; alpha 0.05, beta 0.05"
    )


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"elo0": 5, "elo1": 5}, "elo1 (5) must be above elo0 (5)"),
        ({"alpha": 1}, "alpha must be between 0 and 1, not 1"),
        ({"beta": 0}, "beta must be between 0 and 1, not 0"),
        ({"alpha": 0.5, "beta": 0.5}, "alpha + beta must be less than 1"),
    ],
)
def test_a_rule_that_cannot_decide_is_refused(kwargs: dict[str, float], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        VerdictRule(**kwargs)


def test_a_candidate_that_wins_every_pair_is_better_and_stops_there() -> None:
    verdict = CandidateVerdict(VerdictRule(0, 50), "new", ("a", "b", "c"))
    pairs = 0
    while not verdict.done:
        verdict.add_pair("abc"[pairs % 3], *WW)
        pairs += 1
    assert verdict.answer == "better"
    # The first pair whose pooled LLR reaches the upper bound ends the run.
    test = VerdictRule(0, 50).better
    assert test.llr([0, 0, 0, 0, pairs]) >= test.upper > test.llr([0, 0, 0, 0, pairs - 1])
    assert verdict.pairs == pairs
    assert sum(t.pentanomial.pairs for t in verdict.per_opponent.values()) == pairs


def test_a_candidate_that_loses_every_pair_is_worse() -> None:
    verdict = CandidateVerdict(VerdictRule(0, 50), "new", ("a",))
    while not verdict.done:
        verdict.add_pair("a", *LL)
    assert verdict.answer == "worse"
    assert verdict.pooled.not_worse.decision == "H0"


def test_an_even_candidate_is_not_worse_only_once_both_tests_stopped() -> None:
    tests = VerdictTests.of(VerdictRule(0, 50))
    seen_half = False
    cycle = [WL, WD, DL]  # a score of exactly one half, with some spread
    while tests.answer == "inconclusive":
        tests.add(*cycle[tests.pentanomial.pairs % 3])
        # One test may stop first: its answer is kept while the other goes on.
        if (tests.better.decision is None) != (tests.not_worse.decision is None):
            seen_half = True
            kept = tests.better.decision or tests.not_worse.decision
            assert kept in ("H0", "H1")
    assert tests.answer == "not worse"
    assert (tests.better.decision, tests.not_worse.decision) == ("H0", "H1")
    assert seen_half


def test_a_stopped_test_keeps_its_decision_whatever_comes_after() -> None:
    tests = VerdictTests.of(VerdictRule(0, 50))
    while tests.not_worse.decision is None:
        tests.add(*WW)
    llr = tests.not_worse.llr
    for _ in range(50):
        tests.add(*LL)
    assert tests.not_worse.decision == "H1" and tests.not_worse.llr == llr


def test_the_json_verdict_names_every_figure() -> None:
    verdict = CandidateVerdict(VerdictRule(), "new", ("a", "b"))
    verdict.add_pair("a", *WL)
    verdict.add_pair("b", *WW)
    data = verdict.to_dict()
    assert data["verdict"] == "inconclusive"
    assert data["pool"] == ["a", "b"]
    assert data["pooled"]["pentanomial"] == [0, 0, 1, 0, 1]  # type: ignore[index]
    assert data["opponents"]["a"]["pentanomial"] == [0, 0, 1, 0, 0]  # type: ignore[index]
    assert data["pooled"]["better"]["lower"] == -2.944  # type: ignore[index]
    assert data["pooled"]["better"]["upper"] == 2.944  # type: ignore[index]


def test_the_batch_llr_is_the_sprts_llr() -> None:
    rng = random.Random(3)
    counts = np.array([[rng.randrange(0, 60) for _ in range(5)] for _ in range(300)])
    counts[0] = [0, 0, 0, 0, 7]  # every pair the same: the regularised bins decide
    for test in (Sprt(0, 5), Sprt(-5, 0), Sprt(0, 60)):
        batch = llr_many(test, counts)
        one_by_one = [test.llr(list(map(int, row))) for row in counts]
        assert batch == pytest.approx(one_by_one, rel=1e-9, abs=1e-9)


def test_the_simulated_pairs_have_the_hypothesis_strength() -> None:
    for nelo in (-60, 0, 60):
        probs = pair_distribution(nelo, (0.05, 0.2, 0.5, 0.2, 0.05))
        scores = np.array([0, 0.25, 0.5, 0.75, 1])
        mean = float(np.dot(probs, scores))
        sd = float(np.sqrt(np.dot(probs, (scores - mean) ** 2)))
        assert (mean - 0.5) / sd * 800 / np.log(10) / np.sqrt(2) == pytest.approx(nelo, abs=1e-6)


def test_the_stopping_rule_keeps_its_error_rates_over_a_thousand_runs() -> None:
    """At elo0 the candidate is called better in about alpha of the runs, at elo1 called
    anything else in about beta (Wald: at most alpha / (1 - beta)); observed over 1,000
    seeded runs at each (a wide [0, 60] so the runs are short; the rule is the same)."""
    rule = VerdictRule(0, 60, alpha=0.05, beta=0.05)
    at_elo0 = simulate(rule, 0, 1000, seed=11)
    at_elo1 = simulate(rule, 60, 1000, seed=12)
    false_better = at_elo0.share("better")
    missed = at_elo1.share("not worse", "worse", "inconclusive")
    for observed, chosen in ((false_better, rule.alpha), (missed, rule.beta)):
        low, _ = wilson(observed * 1000, 1000)
        assert low <= chosen, (observed, chosen)  # not above the chosen rate beyond noise
        assert observed <= chosen / (1 - 0.05) + 0.01
    assert at_elo0.share("inconclusive") == at_elo1.share("inconclusive") == 0
