"""A candidate's verdict against a pool of bots: better, not worse, or worse.

The candidate plays every pool bot in seat-swapped pairs on shared seeds; each pair is
scored on the pentanomial (``[LL, LD, WL+DD, WD, WW]``, see :mod:`arena.results.stats`).
Two sequential tests run on the **pooled** pentanomial (the candidate's pairs against
every pool bot, added up), each a GSPRT as fastchess and fishtest compute it
(:class:`~arena.results.stats.Sprt`):

- **better**: H0 ``elo = elo0`` against H1 ``elo = elo1`` (by default normalized Elo
  ``[0, 5]``): accepting H1 means the candidate is better;
- **not worse**: H0 ``elo = elo0 - (elo1 - elo0)`` against H1 ``elo = elo0`` (by default
  ``[-5, 0]``): accepting H0 means the candidate is worse.

The stopping rule: each test stops the first time its log-likelihood ratio reaches one of
Wald's bounds (``ln(beta / (1 - alpha))``, ``ln((1 - beta) / alpha)``) and its answer is
then kept. The run stops as soon as the answer is clear:

- ``better`` as soon as the first test accepts H1;
- ``worse`` as soon as the second test accepts H0;
- ``not worse`` once the first accepted H0 and the second H1;
- ``inconclusive`` if the game limit comes first.

Since each answer is the answer of one Wald test stopped at its own bound, the chance of
``better`` when the candidate is exactly ``elo0`` is about ``alpha``, and the chance of
anything else when it is ``elo1`` about ``beta`` (the simulation in the tests checks it:
:func:`simulate`). Each pool bot's pairs also get both tests, shown beside the pooled
ones so a regression against one opponent is visible, but only the pooled answer decides.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from arena.results.stats import (
    NELO_SCALE,
    PENTANOMIAL_SCORES,
    Pentanomial,
    Sprt,
    _mle_normalized,
)

Answer = Literal["better", "not worse", "worse", "inconclusive"]
Decision = Literal["H0", "H1"] | None


@dataclass(frozen=True)
class VerdictRule:
    """The bounds and error rates of the two tests (normalized Elo by default)."""

    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "normalized"

    def __post_init__(self) -> None:
        if not self.elo1 > self.elo0:
            raise ValueError(f"elo1 ({self.elo1:g}) must be above elo0 ({self.elo0:g})")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0 < value < 1:
                raise ValueError(f"{name} must be between 0 and 1, not {value:g}")
        if self.alpha + self.beta >= 1:
            raise ValueError("alpha + beta must be less than 1")

    @property
    def better(self) -> Sprt:
        """The test of ``elo1`` (better) against ``elo0``."""
        return Sprt(self.elo0, self.elo1, self.alpha, self.beta, self.model)

    @property
    def not_worse(self) -> Sprt:
        """The test of ``elo0`` (not worse) against ``elo0 - margin`` (worse)."""
        margin = self.elo1 - self.elo0
        return Sprt(self.elo0 - margin, self.elo0, self.alpha, self.beta, self.model)

    def describe(self) -> str:
        """``better: normalized Elo [0, 5]; worse: [-5, 0]; alpha 0.05, beta 0.05``."""
        b, w = self.better, self.not_worse
        return (
            f"better: {self.model} Elo [{b.elo0:g}, {b.elo1:g}]; worse: [{w.elo0:g}, {w.elo1:g}]; "
            f"alpha {self.alpha:g}, beta {self.beta:g}"
        )


@dataclass
class SequentialTest:
    """One sequential test: its last LLR and, once it reached a bound, its kept decision."""

    test: Sprt
    llr: float = 0.0
    decision: Decision = None

    def update(self, counts: Sequence[int]) -> None:
        """Look at the pairs so far, unless the test has already stopped."""
        if self.decision is None and any(counts):
            self.llr = self.test.llr(counts)
            self.decision = self.test.verdict(self.llr)  # type: ignore[assignment]


@dataclass
class VerdictTests:
    """The two tests over one set of pairs (pooled, or against one pool bot)."""

    better: SequentialTest
    not_worse: SequentialTest
    pentanomial: Pentanomial = field(default_factory=Pentanomial)

    @classmethod
    def of(cls, rule: VerdictRule) -> VerdictTests:
        """Both tests, before any pair."""
        return cls(SequentialTest(rule.better), SequentialTest(rule.not_worse))

    def add(self, first: float, second: float) -> None:
        """Count a pair (the candidate's points in its two games) and look again."""
        self.pentanomial.add(first, second)
        self.update()

    def update(self) -> None:
        """Look at the current counts with both tests."""
        self.better.update(self.pentanomial.counts)
        self.not_worse.update(self.pentanomial.counts)

    @property
    def answer(self) -> Answer:
        """The answer so far (``inconclusive`` while the rule says go on)."""
        if self.better.decision == "H1":
            return "better"
        if self.not_worse.decision == "H0":
            return "worse"
        if self.better.decision == "H0" and self.not_worse.decision == "H1":
            return "not worse"
        return "inconclusive"


@dataclass
class CandidateVerdict:
    """Where a candidate stands against its pool: pooled tests and one pair per pool bot."""

    rule: VerdictRule
    candidate: str
    pool: tuple[str, ...]
    pooled: VerdictTests = field(init=False)
    per_opponent: dict[str, VerdictTests] = field(init=False)

    def __post_init__(self) -> None:
        self.pooled = VerdictTests.of(self.rule)
        self.per_opponent = {bot: VerdictTests.of(self.rule) for bot in self.pool}

    def add_pair(self, opponent: str, first: float, second: float) -> None:
        """Count a seat-swapped pair against ``opponent``: the candidate's points in each game."""
        self.per_opponent[opponent].add(first, second)
        self.pooled.add(first, second)

    @property
    def answer(self) -> Answer:
        """The pooled answer, the one that decides."""
        return self.pooled.answer

    @property
    def done(self) -> bool:
        """True once the pooled answer is clear."""
        return self.answer != "inconclusive"

    @property
    def pairs(self) -> int:
        """Pairs counted over the whole pool."""
        return self.pooled.pentanomial.pairs

    def to_dict(self) -> dict[str, object]:
        """The JSON verdict."""
        return {
            "candidate": self.candidate,
            "pool": list(self.pool),
            "verdict": self.answer,
            "rule": {
                "elo0": self.rule.elo0,
                "elo1": self.rule.elo1,
                "alpha": self.rule.alpha,
                "beta": self.rule.beta,
                "model": self.rule.model,
            },
            "pooled": _tests_dict(self.pooled),
            "opponents": {bot: _tests_dict(t) for bot, t in self.per_opponent.items()},
        }


def _tests_dict(tests: VerdictTests) -> dict[str, object]:
    estimate = tests.pentanomial.estimate()
    return {
        "answer": tests.answer,
        "pairs": tests.pentanomial.pairs,
        "pentanomial": list(tests.pentanomial.counts),
        "elo": _finite(estimate.elo),
        "elo_low": _finite(estimate.elo_low),
        "elo_high": _finite(estimate.elo_high),
        "better": _state_dict(tests.better),
        "not_worse": _state_dict(tests.not_worse),
    }


def _finite(value: float) -> float | None:
    """A figure for JSON: rounded, ``None`` where it is unbounded or not measured yet."""
    return None if math.isnan(value) or math.isinf(value) else round(value, 1)


def _state_dict(state: SequentialTest) -> dict[str, object]:
    t = state.test
    return {
        "elo0": t.elo0,
        "elo1": t.elo1,
        "llr": round(state.llr, 3),
        "lower": round(t.lower, 3),
        "upper": round(t.upper, 3),
        "decision": state.decision,
    }


# -- simulation: the stopping rule's error rates ---------------------------------------
#
# Many simulated runs step in lockstep, so the GSPRT's log-likelihood ratio is computed
# for all of them at once with numpy: the same maximum-likelihood fixed point and secular
# equation as ``Sprt.llr`` (a test checks both agree), a hundred times faster than a run
# at a time.

POINTS = ((0.0, 0.0), (0.0, 0.5), (1.0, 0.0), (1.0, 0.5), (1.0, 1.0))  # a pair per bin


def pair_distribution(nelo: float, base: Sequence[float]) -> list[float]:
    """The pentanomial distribution nearest ``base`` whose normalized Elo is ``nelo``
    (the distribution the GSPRT itself assumes under a hypothesis)."""
    return _mle_normalized(PENTANOMIAL_SCORES, base, math.sqrt(2) * nelo / NELO_SCALE)


def _solve_theta_many(phi: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """``stats._solve_theta`` for each row: Newton steps inside the root's bracket, on the
    rows not yet converged only."""
    low, high = -1 / phi.max(axis=1), -1 / phi.min(axis=1)
    theta = np.where((low < 0) & (high > 0), 0.0, (low + high) / 2)
    todo = np.arange(len(theta))
    for _ in range(200):
        x, p, t = phi[todo], probs[todo], theta[todo]
        q = x / (1 + t[:, None] * x)
        value = (p * q).sum(axis=1)
        slope = -(p * q * q).sum(axis=1)
        lo = np.where(value > 0, t, low[todo])
        hi = np.where(value < 0, t, high[todo])
        low[todo], high[todo] = lo, hi
        with np.errstate(divide="ignore", invalid="ignore"):
            step = t - value / slope
        step = np.where((lo < step) & (step < hi), step, (lo + hi) / 2)
        theta[todo] = step
        todo = todo[(np.abs(step - t) > 1e-15 * np.maximum(1.0, np.abs(t))) & (value != 0)]
        if not todo.size:
            break
    return theta


def _mle_normalized_many(probs: np.ndarray, t: float) -> np.ndarray:
    """``stats._mle_normalized`` for each row of ``probs`` (pentanomial scores)."""
    scores = np.array(PENTANOMIAL_SCORES)
    p = np.full(probs.shape, 1 / len(scores))
    for _ in range(1000):
        mu = (p * scores).sum(axis=1, keepdims=True)
        sigma = np.sqrt((p * (scores - mu) ** 2).sum(axis=1, keepdims=True))
        phi = scores - 0.5 - 0.5 * t * sigma * (1 + ((scores - mu) / sigma) ** 2)
        theta = _solve_theta_many(phi, probs)
        new = probs / (1 + theta[:, None] * phi)
        if np.abs(new - p).max() < 1e-10:
            return new
        p = new
    return p


def llr_many(test: Sprt, counts: np.ndarray) -> np.ndarray:
    """``test.llr`` of each row of pentanomial ``counts`` (normalized model only)."""
    if test.model != "normalized":
        raise ValueError("the batch LLR knows the normalized model only")
    regular = np.where(counts > 0, counts.astype(float), 1e-3)
    total = regular.sum(axis=1)
    probs = regular / total[:, None]
    p0 = _mle_normalized_many(probs, math.sqrt(2) * test.elo0 / NELO_SCALE)
    p1 = _mle_normalized_many(probs, math.sqrt(2) * test.elo1 / NELO_SCALE)
    return total * (probs * (np.log(p1) - np.log(p0))).sum(axis=1)


@dataclass(frozen=True)
class Simulation:
    """How often each answer came out of ``runs`` simulated runs at a true strength."""

    runs: int
    answers: Mapping[str, int]
    mean_pairs: float

    def share(self, *answers: str) -> float:
        """The share of runs that ended with one of ``answers``."""
        return sum(self.answers.get(a, 0) for a in answers) / self.runs


def simulate(
    rule: VerdictRule,
    nelo: float,
    runs: int,
    *,
    base: Sequence[float] = (0.05, 0.2, 0.5, 0.2, 0.05),
    max_pairs: int = 1_000_000,
    seed: int = 1,
) -> Simulation:
    """``runs`` simulated runs of the stopping rule, pairs drawn at normalized Elo ``nelo``
    (around the draw-heavy ``base``), each looked at after every pair until its answer
    is clear (as :class:`VerdictTests` does, a test's decision kept once it reached a bound)."""
    rng = np.random.default_rng(seed)
    weights = np.array(pair_distribution(nelo, base))
    counts = np.zeros((runs, 5), dtype=np.int64)
    # Per run and test: 0 going on, 1 accepted H1, -1 accepted H0.
    better = np.zeros(runs, dtype=np.int8)
    not_worse = np.zeros(runs, dtype=np.int8)
    active = np.ones(runs, dtype=bool)
    tests = ((rule.better, better), (rule.not_worse, not_worse))
    while active.any() and counts[active].sum(axis=1).max() < max_pairs:
        rows = np.flatnonzero(active)
        counts[rows, rng.choice(5, size=rows.size, p=weights)] += 1
        for test, decided in tests:
            open_rows = rows[decided[rows] == 0]
            if open_rows.size:
                llr = llr_many(test, counts[open_rows])
                decided[open_rows] = np.where(
                    llr >= test.upper, 1, np.where(llr <= test.lower, -1, 0)
                )
        finished = (better == 1) | (not_worse == -1) | ((better == -1) & (not_worse == 1))
        active &= ~finished
    answers: dict[str, int] = {}
    for b, w in zip(better, not_worse, strict=True):
        tests_answer = _answer(int(b), int(w))
        answers[tests_answer] = answers.get(tests_answer, 0) + 1
    return Simulation(runs, answers, float(counts.sum(axis=1).mean()))


def _answer(better: int, not_worse: int) -> Answer:
    """:attr:`VerdictTests.answer` from the two tests' states (1 H1, -1 H0, 0 going on)."""
    if better == 1:
        return "better"
    if not_worse == -1:
        return "worse"
    if better == -1 and not_worse == 1:
        return "not worse"
    return "inconclusive"
