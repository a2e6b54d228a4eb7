"""Elo against the field: each bot's score over every game it played, as an Elo
difference (fastchess's formulas: pentanomial over seat-swapped pairs when there are
any, trinomial otherwise), computed from its counts, so it is kept as games are stored."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from arena.results.ratings.base import FittedRating, Rated, RatingColumn
from arena.results.stats import EloEstimate, elo_bound

if TYPE_CHECKING:
    from arena.results.rating import Counts


def signed(value: float, digits: int = 1) -> str:
    """``+55.6``; never ``-0.0``."""
    return f"{round(value, digits) + 0.0:+.{digits}f}"


def elo_text(e: EloEstimate) -> str:
    """``+55.6 ±27.7``; ``> +127`` for a 100% score (its 95% lower bound), ``< -127`` for
    0%; ``+190.8 (> -68)`` when only one bound of the interval is finite; ``-`` without
    games."""
    if e.n == 0:
        return "-"
    if not math.isfinite(e.elo):
        if e.elo > 0:
            return f"> {signed(e.elo_low, 0)}" if math.isfinite(e.elo_low) else "+inf"
        return f"< {signed(e.elo_high, 0)}" if math.isfinite(e.elo_high) else "-inf"
    if math.isfinite(e.elo_low) and math.isfinite(e.elo_high):
        return f"{signed(e.elo)} ±{e.elo_error:.1f}"
    if math.isfinite(e.elo_low):
        return f"{signed(e.elo)} (> {signed(e.elo_low, 0)})"
    return f"{signed(e.elo)} (< {signed(e.elo_high, 0)})"


def num(value: float | None, digits: int) -> float | None:
    """``value`` rounded, or ``None`` when missing or not finite (JSON has no infinity)."""
    if value is None or not math.isfinite(value):
        return None
    return round(value, digits) + 0.0  # + 0.0: never -0.0


class EloField(FittedRating):
    """A bot's Elo difference against the field it met, ±95%, and its LOS."""

    name: ClassVar[str] = "elo"
    title: ClassVar[str] = "Elo against the field"
    short: ClassVar[str] = "Elo"
    headline: ClassVar[str] = "elo"
    columns: ClassVar[tuple[RatingColumn, ...]] = (
        RatingColumn("elo", "Elo ±95%"),
        RatingColumn("los", "LOS"),
    )
    wide: ClassVar[tuple[str, ...]] = ("elo", "los")
    interval: ClassVar[str] = (
        "the score's normal 95% interval (pentanomial over pairs, else trinomial) mapped "
        "to Elo; a Wilson interval when every game or pair scored the same"
    )

    def number_keys(self) -> tuple[str, ...]:
        """The JSON/CSV fields, in order."""
        return ("elo", "elo_bound", "elo_ci", "elo_low", "elo_high", "los")

    def fit(self, counts: Counts, bots: Sequence[str]) -> dict[str, Rated]:
        """Every bot's rating, fitted on ``counts``."""
        out = {}
        for b, s in counts.stats.items():
            if not s.games:
                continue
            e = s.overall.elo()
            value = None if math.isnan(e.elo) else e.elo
            out[b] = Rated(
                value,
                {
                    "elo": num(e.elo, 1),
                    "elo_bound": elo_bound(e.elo),
                    "elo_ci": num(e.elo_error, 1),
                    "elo_low": num(e.elo_low, 1),
                    "elo_high": num(e.elo_high, 1),
                    "los": num(100 * e.los, 2),
                },
                {
                    "elo": elo_text(e),
                    "los": "-" if not math.isfinite(e.los) else f"{round(100 * e.los, 2):.1f}%",
                },
            )
        return out
