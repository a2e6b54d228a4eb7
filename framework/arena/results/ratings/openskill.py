"""OpenSkill's Plackett-Luce model (the ``openskill`` package): a Bayesian rating for
games of any number of players ranked at once (Weng and Lin 2011), such as four-player
Blocking; rated event by event in schedule order, sorted by ``mu - 3 sigma``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from arena.results.ratings.base import IncrementalRating, Rated, RatingColumn
from arena.results.ratings.trueskill import mu_text

if TYPE_CHECKING:
    from arena.results.rating import Entry


class OpenSkill(IncrementalRating):
    """Plackett-Luce with the package's defaults (mu 25, sigma 25/3)."""

    name: ClassVar[str] = "openskill"
    title: ClassVar[str] = "OpenSkill (Plackett-Luce)"
    short: ClassVar[str] = "OS"
    headline: ClassVar[str] = "os"
    columns: ClassVar[tuple[RatingColumn, ...]] = (
        RatingColumn("os", "OS mu ±95%"),
        RatingColumn("os_mu-3sigma", "OS mu-3σ"),
    )
    wide: ClassVar[tuple[str, ...]] = ("os",)
    interval: ClassVar[str] = "mu ± 1.96 sigma (the Gaussian belief's 95%); sorted by mu - 3 sigma"

    def __init__(self) -> None:
        self._model: Any = None

    def model(self) -> Any:
        """The Plackett-Luce model."""
        if self._model is None:
            from openskill.models import PlackettLuce

            self._model = PlackettLuce()
        return self._model

    def number_keys(self) -> tuple[str, ...]:
        """The JSON/CSV fields, in order."""
        return ("os_mu", "os_sigma", "os_mu-3sigma")

    def update(self, state: dict[str, Any], event: Sequence[Entry]) -> None:
        """Rate one event in ``state``, in place."""
        model = self.model()
        before = [
            model.rating(*state.get(e.bot, (model.mu, model.sigma)), name=e.bot) for e in event
        ]
        new = model.rate([[r] for r in before], ranks=[e.rank for e in event])
        for e, (r,) in zip(event, new, strict=True):
            state[e.bot] = [r.mu, r.sigma]

    def centre(self, state: Mapping[str, Any], bot: str) -> float:
        """``bot``'s mu in ``state``."""
        return float(state[bot][0]) if bot in state else float(self.model().mu)

    def rated(self, state: Mapping[str, Any], bot: str) -> Rated:
        """``bot``'s rating in ``state``."""
        model = self.model()
        mu, sigma = state.get(bot, (model.mu, model.sigma))
        low = mu - 3 * sigma
        return Rated(
            low,
            {"os_mu": round(mu, 2), "os_sigma": round(sigma, 2), "os_mu-3sigma": round(low, 2)},
            {"os": mu_text(mu, sigma), "os_mu-3sigma": f"{round(low, 2) + 0.0:.2f}"},
            {"mu": mu, "sigma": sigma},
        )
