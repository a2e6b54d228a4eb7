"""Bradley-Terry on the Elo scale, fitted at once to every pairing's counts (so the order
of the games does not matter); the leaderboard's default order."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

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
        encounters = [
            st.Encounter(a, b, pw.wins + 0.5 * pw.draws, pw.n)
            for (a, b), pw in counts.pairs.items()
            if a < b
        ]
        model = st.bradley_terry(counts.stats, encounters, counts.multi)
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
