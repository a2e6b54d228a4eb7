"""The rating interface: what every rating declares and how the leaderboard asks it.

A rating is one of two kinds:

- **incremental** (TrueSkill, OpenSkill): a state updated event by event in schedule
  order (:meth:`IncrementalRating.update`); the state is plain JSON, so the store keeps
  it as games are stored;
- **fitted** (Bradley-Terry, Elo against the field): computed at once from counts that do
  not depend on the order of the games (:class:`arena.results.tally.Counts`).

Either way a rating gives each bot a :class:`Rated`: its sort value (higher is better),
the numbers of its JSON/CSV columns and the text of its table columns.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from arena.results.rating import Entry
    from arena.results.tally import Counts


@dataclass(frozen=True)
class RatingColumn:
    """A column a rating shows: ``key`` (JSON, ``--columns``), ``header`` (text tables)."""

    key: str
    header: str


@dataclass(frozen=True)
class Rated:
    """One bot's rating: ``value`` orders the table (higher first, ``None``: unrated),
    ``numbers`` are the JSON/CSV fields (rounded), ``cells`` the text of the table columns
    by key, ``raw`` the unrounded numbers (``mu``, ``sigma``; ``rating``, ``error``)."""

    value: float | None
    numbers: Mapping[str, Any] = field(default_factory=dict)
    cells: Mapping[str, str] = field(default_factory=dict)
    raw: Mapping[str, float] = field(default_factory=dict)


class Rating:
    """What every rating declares (subclass :class:`IncrementalRating` or
    :class:`FittedRating`).

    ``name`` is what ``rating:`` and ``--rating`` take; ``short`` heads the compact table's
    rating column (``BT ±95%``); ``headline`` is the key of that column among ``columns``;
    ``interval`` says in one sentence how its 95% interval is computed (docs/leaderboard.md
    explains each).
    """

    name: ClassVar[str]
    title: ClassVar[str]
    short: ClassVar[str]
    headline: ClassVar[str]
    columns: ClassVar[tuple[RatingColumn, ...]]
    wide: ClassVar[tuple[str, ...]]  # the keys of ``columns`` the wide table shows
    interval: ClassVar[str]
    incremental: ClassVar[bool] = False
    on_demand: ClassVar[bool] = False  # fitted only when chosen (costly): not in every table

    def headline_header(self) -> str:
        """The header of the compact table's rating column."""
        return next(c.header for c in self.columns if c.key == self.headline)

    def unrated(self) -> Rated:
        """What a bot without games shows."""
        return Rated(None, dict.fromkeys(self.number_keys()), {c.key: "-" for c in self.columns})

    def number_keys(self) -> tuple[str, ...]:
        """The JSON/CSV fields, in order."""
        raise NotImplementedError


class IncrementalRating(Rating):
    """A rating updated one event at a time, in schedule order; its state is JSON."""

    incremental: ClassVar[bool] = True

    def start(self) -> dict[str, Any]:
        """The state before any game."""
        return {}

    def update(self, state: dict[str, Any], event: Sequence[Entry]) -> None:
        """Rate one event of two or more seats (ranks in ``event``), in place."""
        raise NotImplementedError

    def rated(self, state: Mapping[str, Any], bot: str) -> Rated:
        """``bot``'s rating in ``state`` (its prior when it has not played)."""
        raise NotImplementedError

    def centre(self, state: Mapping[str, Any], bot: str) -> float:
        """``bot``'s most likely skill in ``state`` (its prior's when it has not played):
        what a chart of the rating over time draws."""
        raise NotImplementedError


class FittedRating(Rating):
    """A rating computed from order-free counts of every game."""

    def fit(self, counts: Counts, bots: Sequence[str]) -> dict[str, Rated]:
        """Every bot's rating from ``counts`` (bots without games are left out)."""
        raise NotImplementedError


def rate_events(
    rating: IncrementalRating,
    events: Iterable[Sequence[Entry]],
    state: dict[str, Any] | None = None,
    after: Callable[[int, Sequence[Entry], dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """The one update loop: ``state`` (or a new one) after every event of two seats or
    more, in the order given; ``after(i, event, state)`` is called after event ``i`` (from
    1) was rated."""
    state = rating.start() if state is None else state
    for i, event in enumerate(events, start=1):
        if len(event) >= 2:
            rating.update(state, event)
            if after is not None:
                after(i, event, state)
    return state
