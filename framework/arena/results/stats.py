"""Match statistics: Elo with 95% intervals, LOS, Wilson intervals, SPRT, Bradley-Terry.

Pure functions over counts; no I/O, no knowledge of games or the store. The formulas are
the ones fastchess uses (``app/src/matchmaking/elo/``, ``sprt/``), which follow Michel Van
den Bergh's notes on normalized Elo and fishtest's ``stat_util``:

- **trinomial**: games scored 1, 1/2, 0 (win, draw, loss) for the first player;
- **pentanomial**: the two games of one seed played with seats swapped form a *pair*
  scored 0, 1/4, 1/2, 3/4, 1 (``LL, LD, WL+DD, WD, WW``); pairs are independent where
  single games of one seed are not, so their variance is the honest one;
- the score ``s`` maps to an Elo difference ``-400 log10(1/s - 1)``; the 95% interval is
  ``s ± 1.96 sqrt(var / n)`` mapped the same way, and fastchess reports half its width;
- LOS (likelihood of superiority) is ``Phi((s - 1/2) / sqrt(var / n))``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Z95 = 1.959963984540054  # two-sided 95% quantile of the standard normal
NELO_SCALE = 800 / math.log(10)  # normalized Elo per (score - 1/2) / sigma
ELO_PER_NATURAL = 400 / math.log(10)  # Elo per unit of log-strength (Bradley-Terry)

TRINOMIAL_SCORES = (0.0, 0.5, 1.0)  # loss, draw, win
PENTANOMIAL_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)  # LL, LD, WL+DD, WD, WW (per game of the pair)


def score_to_elo(score: float) -> float:
    """Elo difference giving expected ``score`` (logistic): ``-400 log10(1/score - 1)``.

    A score of 1 (or more) is ``+inf``, 0 (or less) ``-inf``.
    """
    if score >= 1:
        return math.inf
    if score <= 0:
        return -math.inf
    return -400 * math.log10(1 / score - 1)


def elo_to_score(elo: float) -> float:
    """Expected score of a player ``elo`` points stronger: ``1 / (1 + 10^(-elo/400))``."""
    return 1 / (1 + 10 ** (-elo / 400))


def normal_cdf(x: float) -> float:
    """Standard normal distribution function (``inf`` -> 1, ``-inf`` -> 0)."""
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


@dataclass(frozen=True)
class EloEstimate:
    """Elo difference of the first player over the second, from ``n`` games or pairs.

    ``elo_error`` is fastchess's ``+/-``: half the width of the 95% interval
    ``[elo_low, elo_high]`` (which is not symmetric around ``elo``). ``nelo`` is
    normalized Elo, the scale of SPRT's default model. Infinite values mean the score or
    an interval bound reached 0% or 100% (then :func:`elo_bound` says which way).

    When every game (pair) scored the same (always so for one), the spread is not zero
    but unmeasured: the interval is then the Wilson interval of the score over the games
    (``n``, or ``2n`` for pairs), so two wins out of two give LOS about 85%, not 100%,
    and an interval, not ``±0``.
    """

    n: int
    score: float
    variance: float  # of one game's (trinomial) or one pair's (pentanomial) score
    elo: float
    elo_error: float
    elo_low: float
    elo_high: float
    los: float  # probability that the first player is the stronger, 0-1
    nelo: float
    nelo_error: float


def _estimate(scores: Sequence[float], counts: Sequence[int], nelo_factor: float) -> EloEstimate:
    n = sum(counts)
    if n == 0:
        nan = math.nan
        return EloEstimate(0, nan, nan, nan, nan, nan, nan, nan, nan, nan)
    score = sum(a * c for a, c in zip(scores, counts, strict=True)) / n
    variance = sum(c * (a - score) ** 2 for a, c in zip(scores, counts, strict=True)) / n
    return _interval(n, score, variance, math.sqrt(variance / n), round(nelo_factor * n))


def _interval(n: int, score: float, variance: float, sd_mean: float, games: int) -> EloEstimate:
    """The estimate from a mean ``score`` of ``n`` units (games or pairs) of ``games``
    games, the variance of one unit's score and the standard deviation of the mean."""
    centre = score
    low_s, high_s = score - Z95 * sd_mean, score + Z95 * sd_mean
    if sd_mean <= 0 or (0 < score < 1 and (low_s <= 0 or high_s >= 1)):
        # Every game (pair) scored the same, one game included: the sample shows no
        # spread, which is not the same as none; or the normal interval of a score that
        # is not one-sided reaches 0% or 100% (an infinite Elo bound the data do not
        # show). Fall back to the Wilson interval of the score over the games played (a
        # pair is two), which stays inside (0, 1) unless the score is 0 or 1; LOS and
        # normalized Elo then use its centre and the spread it implies, so all three
        # tell of the one interval.
        low_s, high_s = wilson(score * games, games)
        centre, sd_mean = (low_s + high_s) / 2, (high_s - low_s) / (2 * Z95)
    los = normal_cdf((centre - 0.5) / sd_mean)
    sd = math.sqrt(games) * sd_mean  # of one game's score
    low, high = score_to_elo(low_s), score_to_elo(high_s)
    return EloEstimate(
        n=n,
        score=score,
        variance=variance,
        elo=score_to_elo(score),
        elo_error=(high - low) / 2,
        elo_low=low,
        elo_high=high,
        los=los,
        nelo=(centre - 0.5) / sd * NELO_SCALE,
        nelo_error=(high_s - low_s) / 2 / sd * NELO_SCALE,
    )


def with_unpaired(wins: int, draws: int, losses: int, pairs: Pentanomial) -> EloEstimate:
    """Elo, 95% interval, LOS and normalized Elo over every game of a pairing: the
    seat-swapped ``pairs`` (pentanomial) and the games left unpaired (the other games
    among ``wins``, ``draws``, ``losses``), which fastchess would drop.

    The score is the points of all ``n`` games over ``n``; the variance of the total is
    the pairs' (4 times the pentanomial variance of a pair's mean score, per pair) plus,
    per unpaired game, the trinomial variance of every game. Without unpaired games this
    is :meth:`Pentanomial.estimate` exactly.
    """
    n = wins + draws + losses
    unpaired = n - 2 * pairs.pairs
    if unpaired <= 0 or pairs.pairs == 0:
        return pairs.estimate() if pairs.pairs else trinomial(wins, draws, losses)
    p = pairs.pairs
    pair_mean = sum(a * c for a, c in zip(PENTANOMIAL_SCORES, pairs.counts, strict=True)) / p
    pair_var = (
        sum(c * (a - pair_mean) ** 2 for a, c in zip(PENTANOMIAL_SCORES, pairs.counts, strict=True))
        / p
    )
    score = (wins + 0.5 * draws) / n
    game_var = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2) / n
    total_var = p * 4 * pair_var + unpaired * game_var  # of the points of all games
    return _interval(n, score, game_var, math.sqrt(total_var) / n, n)


def trinomial(wins: int, draws: int, losses: int) -> EloEstimate:
    """Elo, 95% interval, LOS and normalized Elo from single games (fastchess ``EloWDL``)."""
    return _estimate(TRINOMIAL_SCORES, (losses, draws, wins), 1.0)


@dataclass
class Pentanomial:
    """Counts of pairs by the first player's points over the two games (0 to 2 by halves).

    ``counts[k]`` is the number of pairs worth ``k/2`` points: ``[LL, LD, WL+DD, WD, WW]``,
    fastchess's ``Ptnml(0-2)``.
    """

    counts: list[int] = field(default_factory=lambda: [0] * 5)

    @property
    def pairs(self) -> int:
        """Pairs counted."""
        return sum(self.counts)

    def add(self, first: float, second: float) -> None:
        """Count one pair from the first player's points in its two games (1, 1/2 or 0)."""
        self.counts[round(2 * (first + second))] += 1

    def merge(self, other: Pentanomial) -> None:
        """Add another pairing's counts (a bot against the field)."""
        self.counts = [a + b for a, b in zip(self.counts, other.counts, strict=True)]

    def reversed(self) -> Pentanomial:
        """The same pairs seen from the second player."""
        return Pentanomial(self.counts[::-1])

    def estimate(self) -> EloEstimate:
        """Elo, 95% interval, LOS and normalized Elo over pairs (fastchess ``EloPentanomial``)."""
        return _estimate(PENTANOMIAL_SCORES, self.counts, 2.0)


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a rate ``successes / n`` (draws may count half).

    Unlike ``p ± z sqrt(p(1-p)/n)`` it is asymmetric and stays inside [0, 1]: 4 wins
    out of 4 gives about [0.51, 1], not 100±30%. ``(0, 1)`` when ``n`` is 0.
    """
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(ordered: Sequence[float], q: float) -> float:
    """The ``q``-quantile (0 < q <= 1) of sorted values by the nearest-rank method: the
    smallest value at or above which a share ``q`` of the values lies (always one of
    them). ``percentile([1, 2, 3, 4], 0.5)`` is 2; ``q = 1`` gives the maximum."""
    if not ordered:
        raise ValueError("percentile of no values")
    rank = max(1, math.ceil(q * len(ordered) - 1e-9))
    return ordered[min(rank, len(ordered)) - 1]


# -- SPRT -----------------------------------------------------------------------------

SPRT_MODELS = ("normalized", "logistic")


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test of H0: ``elo = elo0`` against H1: ``elo = elo1``.

    ``model`` is ``normalized`` (fastchess's and fishtest's default: the bounds are
    normalized Elo) or ``logistic`` (plain Elo). ``alpha`` is the chance to accept H1 when
    H0 holds, ``beta`` the chance to accept H0 when H1 holds; Wald's bounds on the
    log-likelihood ratio are ``ln(beta / (1 - alpha))`` and ``ln((1 - beta) / alpha)``.
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "normalized"

    @property
    def lower(self) -> float:
        """LLR at or below which H0 is accepted."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """LLR at or above which H1 is accepted."""
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, pentanomial: Sequence[int]) -> float:
        """The log-likelihood ratio of H1 over H0 for pair counts ``[LL, LD, WL+DD, WD, WW]``.

        Empty bins count 1e-3 pairs (fastchess's regularisation), so the LLR is finite.
        """
        return self._llr(PENTANOMIAL_SCORES, pentanomial, math.sqrt(2))

    def llr_trinomial(self, wins: int, draws: int, losses: int) -> float:
        """The log-likelihood ratio for single games (when no game is paired)."""
        return self._llr(TRINOMIAL_SCORES, (losses, draws, wins), 1.0)

    def verdict(self, llr: float) -> str | None:
        """``"H1"`` or ``"H0"`` once the LLR reached a bound, else ``None`` (go on)."""
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    def _llr(self, scores: Sequence[float], counts: Sequence[int], t_factor: float) -> float:
        regular = [float(c) if c else 1e-3 for c in counts]
        total = sum(regular)
        probs = [c / total for c in regular]
        if self.model == "logistic":
            p0 = _mle_mean(scores, probs, elo_to_score(self.elo0))
            p1 = _mle_mean(scores, probs, elo_to_score(self.elo1))
        else:
            p0 = _mle_normalized(scores, probs, t_factor * self.elo0 / NELO_SCALE)
            p1 = _mle_normalized(scores, probs, t_factor * self.elo1 / NELO_SCALE)
        return total * sum(
            p * (math.log(a) - math.log(b)) for p, a, b in zip(probs, p1, p0, strict=True)
        )

    def result(self, candidate: str, baseline: str, pentanomial: Pentanomial) -> SprtResult:
        """The test's state after the pairs ``candidate`` played against ``baseline``."""
        llr = self.llr(pentanomial.counts)
        return SprtResult(self, candidate, baseline, llr, pentanomial.pairs, self.verdict(llr))

    def describe(self) -> str:
        """``normalized Elo [0, 5], alpha 0.05, beta 0.05``."""
        return (
            f"{self.model} Elo [{self.elo0:g}, {self.elo1:g}], "
            f"alpha {self.alpha:g}, beta {self.beta:g}"
        )


@dataclass(frozen=True)
class SprtResult:
    """Where an SPRT stands: the LLR of ``candidate`` over ``baseline`` and the verdict."""

    test: Sprt
    candidate: str
    baseline: str
    llr: float
    pairs: int
    verdict: str | None  # "H1", "H0" or None (inconclusive so far)

    @property
    def outcome(self) -> str:
        """``H1 accepted``, ``H0 accepted`` or ``inconclusive``."""
        return f"{self.verdict} accepted" if self.verdict else "inconclusive"

    def progress(self) -> str:
        """``LLR 1.23 (-2.94, 2.94) [0, 5]``, as fastchess prints it."""
        t = self.test
        return f"LLR {self.llr:.2f} ({t.lower:.2f}, {t.upper:.2f}) [{t.elo0:g}, {t.elo1:g}]"

    def to_dict(self) -> dict[str, object]:
        """The JSON form."""
        t = self.test
        return {
            "candidate": self.candidate,
            "baseline": self.baseline,
            "elo0": t.elo0,
            "elo1": t.elo1,
            "alpha": t.alpha,
            "beta": t.beta,
            "model": t.model,
            "llr": round(self.llr, 4),
            "lower": round(t.lower, 4),
            "upper": round(t.upper, 4),
            "pairs": self.pairs,
            "verdict": self.verdict,
            "result": self.outcome,
        }


def _solve_theta(phi: Sequence[float], probs: Sequence[float]) -> float:
    """The root of ``f(theta) = sum p_i phi_i / (1 + theta phi_i)`` where every
    ``1 + theta phi_i > 0`` (fishtest's ``secular``).

    ``f`` falls strictly from ``+inf`` to ``-inf`` on ``(-1/max phi, -1/min phi)``, so it
    has one root there: Newton steps, bisecting whenever a step leaves the bracket.
    """
    low, high = -1 / max(phi), -1 / min(phi)
    theta = 0.0 if low < 0 < high else (low + high) / 2
    for _ in range(200):
        value = slope = 0.0
        for p, x in zip(probs, phi, strict=True):
            q = x / (1 + theta * x)
            value += p * q
            slope -= p * q * q
        if value > 0:
            low = theta
        elif value < 0:
            high = theta
        else:
            return theta
        step = theta - value / slope
        if not low < step < high:
            step = (low + high) / 2
        if abs(step - theta) <= 1e-15 * max(1.0, abs(theta)):
            return step
        theta = step
    return theta


def _mle_mean(scores: Sequence[float], probs: Sequence[float], s: float) -> list[float]:
    """Maximum-likelihood distribution on ``scores`` with mean ``s`` near the empirical
    ``probs`` (Van den Bergh, "Comments on normalized Elo", proposition 1.1)."""
    phi = [a - s for a in scores]
    theta = _solve_theta(phi, probs)
    return [p / (1 + theta * x) for p, x in zip(probs, phi, strict=True)]


def _mle_normalized(scores: Sequence[float], probs: Sequence[float], t: float) -> list[float]:
    """Maximum-likelihood distribution with ``(mean - 1/2) / sd = t`` near ``probs``
    (Van den Bergh, section 4.1: a fixed point, started from the uniform distribution)."""
    p = [1 / len(scores)] * len(scores)
    for _ in range(1000):
        mu = sum(a * q for a, q in zip(scores, p, strict=True))
        sigma = math.sqrt(sum(q * (a - mu) ** 2 for a, q in zip(scores, p, strict=True)))
        phi = [a - 0.5 - 0.5 * t * sigma * (1 + ((a - mu) / sigma) ** 2) for a in scores]
        theta = _solve_theta(phi, probs)
        new = [q / (1 + theta * x) for q, x in zip(probs, phi, strict=True)]
        if max(abs(a - b) for a, b in zip(new, p, strict=True)) < 1e-10:
            return new
        p = new
    return p


# -- Bradley-Terry ----------------------------------------------------------------------


@dataclass(frozen=True)
class Encounter:
    """Head-to-head results between two bots: ``score`` of ``a`` over ``games`` games."""

    a: str
    b: str
    score: float
    games: int


@dataclass
class BradleyTerry:
    """Bradley-Terry ratings (Elo scale, mean 0 per connected group of bots) with 95% errors.

    ``P(a beats b) = 1 / (1 + 10^((r_b - r_a)/400))`` fitted by maximum likelihood over all
    games at once, so the order games were played in does not matter. Draws count half a
    win each way. One virtual draw between every two bots that met (BayesElo's kind of
    prior) keeps a bot that won every game at a finite rating. Bots without games have
    no rating.
    """

    ratings: dict[str, float]
    errors: dict[str, float]  # 95% half-width, Elo
    covariance: dict[tuple[str, str], float]  # of the ratings, Elo^2 (same group only)
    matrices: list[tuple[Mapping[str, int], Any]] = field(default_factory=list)
    """The covariance of groups too large to list by name: (index of each bot, matrix)."""

    def diff_sd(self, a: str, b: str) -> float:
        """Standard deviation of ``r_a - r_b`` (``inf`` when they share no group)."""
        cov = self.covariance
        if (a, b) in cov:
            return math.sqrt(max(0.0, cov[a, a] + cov[b, b] - 2 * cov[a, b]))
        for index, matrix in self.matrices:
            if a in index and b in index:
                i, j = index[a], index[b]
                return math.sqrt(max(0.0, matrix[i, i] + matrix[j, j] - 2 * matrix[i, j]))
        return math.inf


GamePairs = Sequence[tuple[str, str, float]]
"""The pairs of one game of 3+ players: ``(a, b, points of a over b)``, each pair once."""


def bradley_terry(
    bots: Iterable[str],
    encounters: Iterable[Encounter],
    multi: Iterable[GamePairs] | Mapping[GamePairs, int] = (),
) -> BradleyTerry:
    """Fit :class:`BradleyTerry` ratings to head-to-head ``encounters``.

    A game of 3+ players counts in ``encounters`` as one result per pair of its players.
    Those results are not independent (a bot that came first beat everyone that game), so
    the errors would be too narrow if they were treated as separate games: give each such
    game's pairs in ``multi`` as well (or a mapping from a game's pairs to how many games
    had exactly those), and the variance they bring is scaled up by how much more each
    game's score residuals vary together than separate games' would (see
    :func:`_design_effect_covariance`). The ratings themselves do not change (under a
    Plackett-Luce ranking model the pairwise order follows Bradley-Terry exactly, so the
    pairwise fit stays consistent).

    The cost grows with the pairings that met, not the games: Newton steps solved by
    LAPACK (numpy) on the information matrix of each connected group of bots.
    """
    found = list(encounters)
    a, b = [e.a for e in found], [e.b for e in found]
    score, games = [e.score for e in found], [e.games for e in found]
    return bradley_terry_columns(bots, a, b, score, games, multi)


def bradley_terry_columns(
    bots: Iterable[str],
    a: Sequence[str],
    b: Sequence[str],
    score: Any,
    games: Any,
    multi: Iterable[GamePairs] | Mapping[GamePairs, int] = (),
) -> BradleyTerry:
    """:func:`bradley_terry` of the encounters given as columns: ``score[k]`` points of
    ``a[k]`` over ``b[k]`` in ``games[k]`` games (sequences or arrays), so that a
    thousand bots' 500,000 pairings are read without an object each."""
    import numpy as np  # only where ratings are fitted: `arena match` starts without it

    names = list(dict.fromkeys(bots))
    place = {n: i for i, n in enumerate(names)}
    score = np.asarray(score, dtype=float)
    games = np.asarray(games)
    first = np.array([place.get(x, -1) for x in a], dtype=np.intp)
    second = np.array([place.get(x, -1) for x in b], dtype=np.intp)
    useful = games > 0
    if (first[useful] < 0).any() or (second[useful] < 0).any():
        # bots not among ``bots``: placed in the order of their first encounter
        for k in np.flatnonzero(useful).tolist():
            if a[k] != b[k]:
                for bot in (a[k], b[k]):
                    place.setdefault(bot, len(names))
                    if len(names) < len(place):
                        names.append(bot)
        first = np.array([place.get(x, -1) for x in a], dtype=np.intp)
        second = np.array([place.get(x, -1) for x in b], dtype=np.intp)
    useful &= first != second
    weighted = list(multi.items()) if isinstance(multi, Mapping) else [(list(g), 1) for g in multi]
    out = BradleyTerry({}, {}, {})
    if not useful.any():
        return out
    first, second, score, games = first[useful], second[useful], score[useful], games[useful]
    # Each pairing once, (lo, hi) by place: lo's points over hi, hi's over lo, in order.
    lo, hi = np.minimum(first, second), np.maximum(first, second)
    lo_points = np.where(first == lo, score, games - score)
    pairing, at = np.unique(lo * len(names) + hi, return_inverse=True)
    won_lo = np.bincount(at, lo_points, len(pairing)) + 0.5  # and the virtual draw
    won_hi = np.bincount(at, games - lo_points, len(pairing)) + 0.5
    lo, hi = pairing // len(names), pairing % len(names)
    label = _components(len(names), lo, hi)
    for root in np.unique(label[lo]):  # each group, in the order of its first bot
        members = np.flatnonzero(label == root)
        group = [names[i] for i in members]
        local = np.full(len(names), -1, dtype=np.intp)
        local[members] = np.arange(len(members))
        inside = label[lo] == root
        rows = (local[lo[inside]], local[hi[inside]], won_lo[inside], won_hi[inside])
        chosen = set(group)
        games_of = [(g, c) for g, c in weighted if g and g[0][0] in chosen]
        _fit_group(group, rows, out, games_of)
    return out


def _components(k: int, lo: Any, hi: Any) -> Any:
    """Each bot's group (bots linked by games), as the lowest place in it: the links'
    ends hooked onto the lower label, then labels followed to their roots, until stable."""
    import numpy as np

    label = np.arange(k)
    while True:
        low = np.minimum(label[lo], label[hi])
        hooked = label.copy()
        np.minimum.at(hooked, label[lo], low)
        np.minimum.at(hooked, label[hi], low)
        while True:  # path halving to the roots
            jumped = hooked[hooked]
            if np.array_equal(jumped, hooked):
                break
            hooked = jumped
        if np.array_equal(hooked, label):
            return label
        label = hooked


def _fit_group(
    group: list[str],
    rows: tuple[Any, Any, Any, Any],
    out: BradleyTerry,
    multi: Sequence[tuple[GamePairs, int]] = (),
) -> None:
    """Fit one group's ratings: ``rows`` are its pairings (first's and second's place in
    ``group``, first's points over second and second's over first, virtual draw
    included), in order of places."""
    import numpy as np

    k = len(group)
    index = {name: i for i, name in enumerate(group)}
    i_idx, j_idx, s_ij, s_ji = rows
    n_ij = s_ij + s_ji

    def loglik(theta: Any) -> float:
        d = theta[i_idx] - theta[j_idx]
        # log p_ij = -log(1 + e^-d), computed without overflow
        return -float(np.sum(s_ij * np.logaddexp(0.0, -d) + s_ji * np.logaddexp(0.0, d)))

    def laplacian(theta: Any) -> tuple[Any, Any]:
        p = 1 / (1 + np.exp(theta[j_idx] - theta[i_idx]))
        g = s_ij - n_ij * p
        grad = np.bincount(i_idx, g, k) - np.bincount(j_idx, g, k)
        return grad, _laplacian(k, i_idx, j_idx, n_ij * p * (1 - p))

    # Newton's method on the log-likelihood, which is concave; the ratings are only
    # defined up to a constant, so the Laplacian is inverted on the sum-zero subspace:
    # pinv(L) = (L + J/k)^-1 - J/k for a connected group (J: all ones).
    theta = np.zeros(k)
    current = loglik(theta)
    for _ in range(100):
        grad, lap = laplacian(theta)
        step = np.linalg.solve(lap + 1 / k, grad) - grad.sum() / k
        scale = 1.0
        while True:  # halve the step until the likelihood does not drop
            trial = theta + scale * step
            value = loglik(trial)
            if value >= current - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        theta, current = trial, value
        if float(np.max(np.abs(scale * step))) < 1e-10:
            break
    _, lap = laplacian(theta)
    inv = np.linalg.inv(lap + 1 / k) - 1 / k
    if multi:
        inv = _design_effect_covariance(inv, lap, theta, index, multi)
    centred = ELO_PER_NATURAL * (theta - theta.mean())
    errors = Z95 * ELO_PER_NATURAL * np.sqrt(np.maximum(0.0, np.diag(inv)))
    cov = ELO_PER_NATURAL**2 * inv
    for i, a in enumerate(group):
        out.ratings[a] = float(centred[i])
        out.errors[a] = float(errors[i])
    if k <= 300:  # the covariance by name serves the league's pairing (few bots)
        values = cov.tolist()
        for i, a in enumerate(group):
            for j, b in enumerate(group):
                out.covariance[a, b] = values[i][j]
    else:
        out.matrices.append((index, cov))


def _laplacian(k: int, i_idx: Any, j_idx: Any, w: Any) -> Any:
    """The weighted Laplacian (information) matrix of pairs ``(i, j)`` with weights ``w``,
    each pair once (as :func:`bradley_terry_columns` gives them): its cells set, not
    summed, so a thousand bots' matrix is not a million bins counted twice a step."""
    import numpy as np

    lap = np.zeros((k, k))
    lap[i_idx, j_idx] = -w
    lap[j_idx, i_idx] = -w
    lap[np.diag_indices(k)] = np.bincount(i_idx, w, k) + np.bincount(j_idx, w, k)
    return lap


def _design_effect_covariance(
    inv: Any, lap: Any, theta: Any, index: Mapping[str, int], multi: Sequence[tuple[GamePairs, int]]
) -> Any:
    """``inv (lap + (c - 1) H_multi) inv``: the multi-player games' information scaled by
    their design effect ``c``.

    ``H_multi`` is what the model expects those games' score residuals to vary by if every
    pair were a game of its own, ``J_multi`` how much they vary, each game's residuals
    taken together. ``c = tr(J_multi) / tr(H_multi)`` (at least 1: a game's pairs share
    their players, so they are never worth more than separate games). A full sandwich,
    ``J_multi`` in place of ``H_multi``, is as wide on average but can come out narrower
    than the model in a short tournament whose outcomes hardly vary. Games with the same
    pairs and points count once, times how many there were.
    """
    import numpy as np

    k = len(theta)
    h_multi = np.zeros((k, k))
    spread = 0.0  # tr(J_multi)
    for pairs, count in multi:
        resid: dict[int, float] = {}
        for a, b, points in pairs:
            i, j = index[a], index[b]
            p = 1 / (1 + math.exp(theta[j] - theta[i]))
            w = count * p * (1 - p)
            h_multi[i, i] += w
            h_multi[j, j] += w
            h_multi[i, j] -= w
            h_multi[j, i] -= w
            resid[i] = resid.get(i, 0.0) + points - p
            resid[j] = resid.get(j, 0.0) - (points - p)
        spread += count * sum(r * r for r in resid.values())
    expected = float(np.trace(h_multi))  # tr(H_multi)
    extra = max(0.0, spread / expected - 1.0) if expected > 0 else 0.0
    return inv @ (lap + extra * h_multi) @ inv


def information_order(
    candidates: Sequence[tuple[str, str]],
    model: BradleyTerry,
    played: Callable[[str, str], int],
) -> list[tuple[str, str]]:
    """Pairings sorted by how much a new game between them tells (most first).

    A pairing's value is the overlap of the two ratings, ``exp(-z^2/2)`` with
    ``z = (r_a - r_b) / sd(r_a - r_b)`` (1 for equal ratings, about 0.14 two standard
    deviations apart; 1 when either has no rating yet), divided by one plus the pairs
    they already played. Ties keep the order of ``candidates``.
    """

    def value(pair: tuple[str, str]) -> float:
        a, b = pair
        if a not in model.ratings or b not in model.ratings:
            overlap = 1.0
        else:
            sd = model.diff_sd(a, b)
            gap = model.ratings[a] - model.ratings[b]
            overlap = 1.0 if sd == math.inf else math.exp(-0.5 * (gap / sd) ** 2) if sd else 0.0
        return overlap / (1 + played(a, b))

    return sorted(candidates, key=lambda pair: -value(pair))


def elo_bound(value: float | None) -> str | None:
    """``"+"`` for an Elo of ``+inf``, ``"-"`` for ``-inf``, ``None`` when finite or missing:
    the direction JSON keeps where it writes the value itself as ``null``."""
    if value is None or math.isnan(value) or math.isfinite(value):
        return None
    return "+" if value > 0 else "-"


@dataclass(frozen=True)
class ScoreInterval:
    """Mean of a bot's scores with a 95% interval that stays inside the scores' range.

    The normal interval ``mean ± 1.96 s / sqrt(n)`` is clipped to ``[lowest, highest]``
    of the scores observed (games do not declare the range of their scores): a mean of
    scores that cannot be negative never gets a negative bound. ``low``/``high`` are
    ``None`` for fewer than two scores (no spread measured, so no interval).
    """

    n: int
    mean: float
    half: float | None  # the unclipped half-width
    low: float | None
    high: float | None


@dataclass
class Moments:
    """Count, mean, sum of squared deviations (Welford's running form), lowest and highest
    of a stream of values: what :func:`score_interval` needs, kept without the values."""

    n: int = 0
    total: float = 0.0
    m2: float = 0.0
    low: float = math.inf
    high: float = -math.inf

    @property
    def mean(self) -> float:
        """The mean (0 for no values)."""
        return self.total / self.n if self.n else 0.0

    def add(self, value: float) -> None:
        """Count one more value."""
        before = self.mean
        self.n += 1
        self.total += value
        self.m2 += (value - before) * (value - self.mean)
        self.low = min(self.low, value)
        self.high = max(self.high, value)

    def merge(self, other: Moments) -> None:
        """Count another stream's values too (Chan's pairwise form of the moments)."""
        if other.n == 0:
            return
        if self.n == 0:
            self.n, self.total, self.m2 = other.n, other.total, other.m2
            self.low, self.high = other.low, other.high
            return
        n = self.n + other.n
        delta = other.mean - self.mean
        self.m2 += other.m2 + delta * delta * self.n * other.n / n
        self.n, self.total = n, self.total + other.total
        self.low, self.high = min(self.low, other.low), max(self.high, other.high)

    @staticmethod
    def of(values: Iterable[float]) -> Moments:
        """The moments of ``values``."""
        m = Moments()
        for v in values:
            m.add(v)
        return m


def score_interval(values: Sequence[float] | Moments) -> ScoreInterval:
    """:class:`ScoreInterval` of ``values``: ``[0, 300, 1450, 0]`` has mean 437.5 and the
    normal interval -242.2 to 1117.2, clipped to 0 to 1117.2."""
    m = values if isinstance(values, Moments) else Moments.of(values)
    if m.n == 0:
        return ScoreInterval(0, 0.0, None, None, None)
    if m.n < 2:
        return ScoreInterval(1, m.mean, None, None, None)
    half = 1.96 * math.sqrt(max(0.0, m.m2) / (m.n - 1) / m.n)
    return ScoreInterval(m.n, m.mean, half, max(m.low, m.mean - half), min(m.high, m.mean + half))


def mean_interval(values: Sequence[float]) -> tuple[float, float]:
    """Mean and 95% half-width (normal approximation; 0 for fewer than two values)."""
    if not values:
        return 0.0, 0.0
    mean = sum(values) / len(values)
    if len(values) < 2:
        return mean, 0.0
    var = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return mean, 1.96 * math.sqrt(var / len(values))
