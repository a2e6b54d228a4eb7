"""TrueSkill (the ``trueskill`` package, its defaults: mu 25, sigma 25/3), rated event by
event in schedule order; sorted by the conservative ``mu - 3 sigma``."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from arena.results.ratings.base import IncrementalRating, Rated, RatingColumn

if TYPE_CHECKING:
    from arena.results.rating import Entry

Z95 = 1.959963984540054


def mu_text(mu: float, sigma: float) -> str:
    """``27.1 ±9.8``: a Gaussian rating and its 95% interval's half-width."""
    return f"{mu:.1f} ±{Z95 * sigma:.1f}"


class TrueSkill(IncrementalRating):
    """Microsoft's TrueSkill: every bot a Gaussian belief N(mu, sigma^2) about its skill."""

    name: ClassVar[str] = "trueskill"
    title: ClassVar[str] = "TrueSkill"
    short: ClassVar[str] = "TS"
    headline: ClassVar[str] = "ts"
    columns: ClassVar[tuple[RatingColumn, ...]] = (
        RatingColumn("ts", "TS mu ±95%"),
        RatingColumn("mu", "mu"),
        RatingColumn("sigma", "sigma"),
        RatingColumn("mu-3sigma", "mu-3σ"),
    )
    wide: ClassVar[tuple[str, ...]] = ("mu", "sigma", "mu-3sigma")
    interval: ClassVar[str] = "mu ± 1.96 sigma (the Gaussian belief's 95%); sorted by mu - 3 sigma"

    def __init__(self) -> None:
        self._env: Any = None

    def env(self) -> Any:
        """The TrueSkill environment (package defaults, no scipy backend)."""
        if self._env is None:
            import trueskill

            self._env = trueskill.TrueSkill(backend=None)
        return self._env

    def number_keys(self) -> tuple[str, ...]:
        """The JSON/CSV fields, in order."""
        return ("mu", "sigma", "mu-3sigma")

    def update(self, state: dict[str, Any], event: Sequence[Entry]) -> None:
        """Rate one event in ``state``, in place (two seats in closed form, the package's
        numbers to 1e-9; more through the package's factor graph)."""
        env = self.env()
        prior = (env.mu, env.sigma)
        if len(event) == 2:
            a, b = event
            new_a, new_b = rate_pair(
                env, tuple(state.get(a.bot, prior)), tuple(state.get(b.bot, prior)), a.rank, b.rank
            )
            state[a.bot], state[b.bot] = list(new_a), list(new_b)
            return
        before = [env.create_rating(*state.get(e.bot, prior)) for e in event]
        new = env.rate([(r,) for r in before], ranks=[e.rank for e in event])
        for e, (r,) in zip(event, new, strict=True):
            state[e.bot] = [r.mu, r.sigma]

    def centre(self, state: Mapping[str, Any], bot: str) -> float:
        """``bot``'s mu in ``state``."""
        return float(state[bot][0]) if bot in state else float(self.env().mu)

    def rated(self, state: Mapping[str, Any], bot: str) -> Rated:
        """``bot``'s rating in ``state``."""
        env = self.env()
        mu, sigma = state.get(bot, (env.mu, env.sigma))
        low = mu - 3 * sigma
        return Rated(
            low,
            {"mu": round(mu, 2), "sigma": round(sigma, 2), "mu-3sigma": round(low, 2)},
            {
                "ts": mu_text(mu, sigma),
                "mu": f"{round(mu, 2):.2f}",
                "sigma": f"{round(sigma, 2):.2f}",
                "mu-3sigma": f"{round(low, 2) + 0.0:.2f}",
            },
            {"mu": mu, "sigma": sigma},
        )


def rate_pair(
    env: Any, a: tuple[float, ...], b: tuple[float, ...], rank_a: int, rank_b: int
) -> tuple[tuple[float, float], tuple[float, float]]:
    """TrueSkill's update of two players (mu, sigma) after one game, in closed form: the
    numbers ``env.rate`` gives for two teams of one (its own v and w functions), about five
    times faster, which ratings over a million games need."""
    if rank_b < rank_a:
        new_b, new_a = rate_pair(env, b, a, rank_b, rank_a)
        return new_a, new_b
    var_a = a[1] ** 2 + env.tau**2
    var_b = b[1] ** 2 + env.tau**2
    c2 = 2 * env.beta**2 + var_a + var_b
    c = math.sqrt(c2)
    margin = env.ppf((env.draw_probability + 1) / 2) * math.sqrt(2) * env.beta
    t, e = (a[0] - b[0]) / c, margin / c
    if rank_a == rank_b:
        v, w = env.v_draw(t, e), env.w_draw(t, e)
    else:
        v, w = env.v_win(t, e), env.w_win(t, e)
    mu_a, mu_b = a[0] + var_a / c * v, b[0] - var_b / c * v
    sigma_a = math.sqrt(var_a * (1 - var_a / c2 * w))
    sigma_b = math.sqrt(var_b * (1 - var_b / c2 * w))
    return (mu_a, sigma_a), (mu_b, sigma_b)
