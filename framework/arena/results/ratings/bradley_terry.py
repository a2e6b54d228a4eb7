"""Bradley-Terry on the Elo scale, fitted at once to every pairing's counts (so the order
of the games does not matter); the leaderboard's default order."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from arena.results import blas
from arena.results import stats as st
from arena.results.ratings.base import FittedRating, Rated, RatingColumn

if TYPE_CHECKING:
    from arena.results.rating import Counts


def bt_text(rating: float | None, error: float | None) -> str:
    """``+158 ±204``; ``-`` for a bot without games."""
    if rating is None:
        return "-"
    return f"{round(rating) + 0:+d} ±" + ("inf" if error is None else f"{error:.0f}")


def _num(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits) + 0.0


class BradleyTerry(FittedRating):
    """Maximum likelihood over all games; one virtual draw per pairing keeps it finite."""

    name: ClassVar[str] = "bt"
    title: ClassVar[str] = "Bradley-Terry"
    short: ClassVar[str] = "BT"
    headline: ClassVar[str] = "bt"
    columns: ClassVar[tuple[RatingColumn, ...]] = (RatingColumn("bt", "BT ±95%"),)
    wide: ClassVar[tuple[str, ...]] = ("bt",)
    interval: ClassVar[str] = (
        "rating ± 1.96 standard errors from the inverse of the likelihood's information "
        "matrix (widened by the design effect of games of 3+ players)"
    )

    def number_keys(self) -> tuple[str, ...]:
        """The JSON/CSV fields, in order."""
        return ("bt", "bt_ci")

    def fit(self, counts: Counts, bots: Sequence[str]) -> dict[str, Rated]:
        """Every bot's rating, fitted on ``counts``."""
        import numpy as np  # only where ratings are fitted

        # each pairing once (a < b), read as columns: a thousand bots have 500,000
        found = [r for r in counts.results() if r[0] < r[1]]
        wins, draws, losses = (np.array([r[k] for r in found], dtype=np.int64) for k in (2, 3, 4))
        with blas.one_thread():
            model = st.bradley_terry_columns(
                counts.stats,
                [r[0] for r in found],
                [r[1] for r in found],
                wins + 0.5 * draws,
                wins + draws + losses,
                counts.multi,
            )
        out = {}
        for b, value in model.ratings.items():
            error = model.errors.get(b)
            out[b] = Rated(
                value,
                {"bt": _num(value, 1), "bt_ci": _num(error, 1)},
                {"bt": bt_text(value, error)},
                {"rating": value, "error": error if error is not None else math.inf},
            )
        return out
