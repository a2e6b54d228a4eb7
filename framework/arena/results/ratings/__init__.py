"""Ratings behind one interface (:mod:`.base`), found by name in :data:`RATINGS`.

Adding a rating is a module with a :class:`~.base.IncrementalRating` or
:class:`~.base.FittedRating` subclass and one line in :data:`RATINGS`; the leaderboard,
its JSON/CSV, ``rating:`` and ``--rating`` take it from there.
"""

from __future__ import annotations

from arena.results.ratings.base import (
    FittedRating,
    IncrementalRating,
    Rated,
    Rating,
    RatingColumn,
    rate_events,
)
from arena.results.ratings.bradley_terry import BradleyTerry
from arena.results.ratings.bt_bootstrap import BradleyTerryBootstrap
from arena.results.ratings.elo import EloField
from arena.results.ratings.openskill import OpenSkill
from arena.results.ratings.trueskill import TrueSkill

RATINGS: dict[str, type[Rating]] = {
    "bt": BradleyTerry,
    "elo": EloField,
    "trueskill": TrueSkill,
    "openskill": OpenSkill,
    "bt-boot": BradleyTerryBootstrap,
}
"""Every rating by the name ``rating:`` and ``--rating`` take, in the wide table's order
(those :attr:`~.base.Rating.on_demand` only when chosen)."""

DEFAULT = "bt"
"""The rating the table sorts by unless ``rating:`` or ``--rating`` says otherwise."""

TIE_BREAKS = ("bt", "trueskill")
"""After the chosen rating, the order falls back on these, then on the name."""

_MADE: dict[str, Rating] = {}


def get(name: str) -> Rating:
    """The rating called ``name`` (one instance per process); KeyError when unknown."""
    if name not in _MADE:
        _MADE[name] = RATINGS[name]()
    return _MADE[name]


def everyone(chosen: str | None = None) -> list[Rating]:
    """Every rating a table shows, in :data:`RATINGS` order: all but those fitted only
    on demand, unless ``chosen``."""
    return [get(n) for n, r in RATINGS.items() if not r.on_demand or n == chosen]


def check_name(value: object) -> str | None:
    """Why ``value`` is not a rating's name, or ``None`` when it is one."""
    if isinstance(value, str) and value in RATINGS:
        return None
    return f"unknown rating {value!r} (known: {', '.join(RATINGS)})"


__all__ = [
    "DEFAULT",
    "RATINGS",
    "TIE_BREAKS",
    "FittedRating",
    "IncrementalRating",
    "Rated",
    "Rating",
    "RatingColumn",
    "check_name",
    "everyone",
    "get",
    "rate_events",
]
