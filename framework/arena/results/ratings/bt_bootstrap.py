"""Bradley-Terry with a bootstrap interval (``rating: bt-boot``): the ratings of ``bt``,
and as each one's 95% interval the 2.5th and 97.5th percentiles of the ratings fitted
again on :data:`RESAMPLES` resamples of the games.

A resample draws each pairing's games again with replacement, as many as it played
(its wins, draws and losses from a multinomial of its own shares), and keeps the
one virtual draw per pairing that ``bt`` adds; each resample is fitted by Newton's
method, all resamples at once (numpy). The generator's seed
is fixed, so the same games always give the same interval. The interval needs no normal
approximation: it follows a skewed likelihood (few games, lopsided scores) where
``bt``'s ± standard errors are symmetric by construction.

It is fitted only when chosen (``rating: bt-boot``, ``--rating bt-boot``): its cost is
:data:`RESAMPLES` fits. Games of 3+ players are not resampled (a game's pairs are not
independent): those tournaments show ``-`` here (their intervals: ``bt``, ``openskill``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from arena.results.ratings.base import FittedRating, Rated, RatingColumn
from arena.results.ratings.bradley_terry import BradleyTerry

if TYPE_CHECKING:
    from arena.results.rating import Counts

RESAMPLES = 1000
SEED = 20261202
ITERATIONS = 100
TOLERANCE = 1e-7
"""The iterations stop when no resample's log-strength moves more than this (0.00002 Elo)."""
ELO = 400.0 / math.log(10.0)


def interval_text(value: float | None, low: float | None, high: float | None) -> str:
    """``+158 [-40, +350]``; ``-`` for a bot without an interval."""
    if value is None:
        return "-"
    if low is None or high is None:
        return f"{round(value) + 0:+d}"
    return f"{round(value) + 0:+d} [{round(low) + 0:+d}, {round(high) + 0:+d}]"


class BradleyTerryBootstrap(FittedRating):
    """``bt``'s ratings with percentile intervals from resampled games."""

    name: ClassVar[str] = "bt-boot"
    title: ClassVar[str] = "Bradley-Terry, bootstrap interval"
    short: ClassVar[str] = "BT boot"
    headline: ClassVar[str] = "bt_boot"
    columns: ClassVar[tuple[RatingColumn, ...]] = (RatingColumn("bt_boot", "BT [boot 95%]"),)
    wide: ClassVar[tuple[str, ...]] = ("bt_boot",)
    interval: ClassVar[str] = (
        f"the 2.5th and 97.5th percentiles of the Bradley-Terry ratings refitted on "
        f"{RESAMPLES:,} resamples of the games (each pairing's games drawn again with "
        "replacement, as many as it played)"
    )
    on_demand: ClassVar[bool] = True

    def number_keys(self) -> tuple[str, ...]:
        """The JSON/CSV fields, in order."""
        return ("bt_boot", "bt_boot_low", "bt_boot_high")

    def fit(self, counts: Counts, bots: Sequence[str]) -> dict[str, Rated]:
        """``bt``'s ratings, each with its bootstrap interval (none for 3+ players)."""
        point = BradleyTerry().fit(counts, bots)
        bounds = {} if counts.multi else bootstrap_bounds(counts)
        out = {}
        for b, rated in point.items():
            value = rated.raw.get("rating")
            low, high = bounds.get(b, (None, None))
            out[b] = Rated(
                value,
                {"bt_boot": _num(value), "bt_boot_low": _num(low), "bt_boot_high": _num(high)},
                {"bt_boot": interval_text(value, low, high)},
                {"rating": value if value is not None else math.nan},
            )
        return out


def _num(value: float | None) -> float | None:
    return None if value is None else round(value, 1) + 0.0


def bootstrap_bounds(
    counts: Counts, resamples: int = RESAMPLES, seed: int = SEED
) -> dict[str, tuple[float, float]]:
    """Each bot's (2.5th, 97.5th) percentile of its resampled ratings (mean 0 over the
    bots of its connected group, as ``bt``'s)."""
    import numpy as np
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    pairs = [(a, b, pw) for (a, b), pw in counts.pairs.items() if a < b and pw.n > 0]
    names = sorted({x for a, b, _ in pairs for x in (a, b)})
    if not pairs:
        return {}
    index = {n: i for i, n in enumerate(names)}
    i_idx = np.array([index[a] for a, _, _ in pairs], dtype=np.intp)
    j_idx = np.array([index[b] for _, b, _ in pairs], dtype=np.intp)
    shares = np.array([[pw.wins, pw.draws, pw.losses] for _, _, pw in pairs], dtype=float)
    games = shares.sum(axis=1)
    rng = np.random.default_rng(seed)
    # (resamples, pairings, 3): each pairing's games drawn again, their number kept
    drawn = rng.multinomial(
        games.astype(np.int64), shares / games[:, None], size=(resamples, len(pairs))
    )
    score = drawn[..., 0] + 0.5 * drawn[..., 1] + 0.5  # a's points, with the virtual draw
    total = games + 1.0
    graph = coo_matrix((np.ones(len(pairs)), (i_idx, j_idx)), shape=(len(names),) * 2)
    _, group = connected_components(graph, directed=False)
    observed = shares[:, 0] + 0.5 * shares[:, 1] + 0.5
    start = _fit_all(i_idx, j_idx, observed[None, :], total[None, :] - observed, len(names), group)
    theta = _fit_all(i_idx, j_idx, score, total[None, :] - score, len(names), group, start)
    low, high = np.percentile(theta * ELO, [2.5, 97.5], axis=0)
    return {n: (float(low[i]), float(high[i])) for n, i in index.items()}


def _fit_all(
    i_idx: Any, j_idx: Any, s_ij: Any, s_ji: Any, k: int, group: Any, start: Any = None
) -> Any:
    """Log-strengths (resamples x bots) maximizing each resample's likelihood, centred to
    mean 0 within each connected group; started from ``start`` (the observed games' fit:
    resamples lie near it) or from zero.

    Newton's method, all resamples at once: the likelihood is concave, and the Hessian's
    only null directions (a group's common shift) are closed by adding each group's
    all-ones block, which leaves the step of a centred gradient unchanged."""
    import numpy as np
    from scipy.sparse import csr_matrix

    pairs = i_idx.size
    rows = np.arange(pairs)
    ones = np.ones(pairs)
    signed = csr_matrix((np.r_[ones, -ones], (np.r_[i_idx, j_idx], np.r_[rows, rows])), (k, pairs))
    # each pairing's weight lands on four cells of a bot x bot matrix, flattened
    cells = np.r_[i_idx * k + i_idx, j_idx * k + j_idx, i_idx * k + j_idx, j_idx * k + i_idx]
    spread = csr_matrix(
        (np.r_[ones, ones, -ones, -ones], (cells, np.tile(rows, 4))), shape=(k * k, pairs)
    )
    same_group = (group[:, None] == group[None, :]).astype(float)
    n_ij = s_ij + s_ji
    shape = (s_ij.shape[0], k)
    theta = np.zeros(shape) if start is None else np.array(np.broadcast_to(start, shape))
    for _ in range(ITERATIONS):
        p_ij = 1.0 / (1.0 + np.exp(theta[:, j_idx] - theta[:, i_idx]))
        gradient = (signed @ (s_ij - n_ij * p_ij).T).T
        weight = n_ij * p_ij * (1.0 - p_ij)
        hessian = (spread @ weight.T).T.reshape(-1, k, k) + same_group
        step = np.linalg.solve(hessian, gradient[..., None])[..., 0]
        step *= np.minimum(1.0, 1.0 / np.maximum(np.abs(step).max(axis=1, keepdims=True), 1e-300))
        theta += step
        if float(np.abs(step).max()) < TOLERANCE:
            break
    members = csr_matrix((np.ones(k), (group, np.arange(k))))  # groups x bots
    sizes = np.asarray(members.sum(axis=1)).ravel()
    return theta - ((members @ theta.T).T / sizes)[:, group]
