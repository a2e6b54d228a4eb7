"""Each bot's TrueSkill mu over the games played (the report's rating chart), computed
from the games (:func:`from_events`) or kept bounded in the store as games are stored
(:class:`Recorder`, :func:`read`), so a report reads at most :data:`LIMIT` points a bot
however many games it played.

A point is ``(i, mu)``: the bot's mu after rating event ``i`` (from 1, in schedule order;
0 is the prior). The kept history holds, per bot, its points number ``n`` (its ``n``-th
event, 0 the prior) for every ``n`` divisible by its *stride*, and its newest point: the
stride is 1 until the bot has more than :data:`LIMIT` points, then it doubles (every
other point dropped) each time they are more again. While no bot played :data:`LIMIT`
events the kept history is exactly the computed one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

from arena.results import ratings
from arena.results.rating import Entry

LIMIT = 800
"""Points kept a bot before they are thinned (twice the chart's 400, so a chart of a
store that was never thinned is the same as one computed from every game)."""

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS kept_history (bot TEXT NOT NULL, n INTEGER NOT NULL,"
    " i INTEGER NOT NULL, mu REAL NOT NULL, PRIMARY KEY (bot, n))",
    "CREATE TABLE IF NOT EXISTS kept_history_bots (bot TEXT PRIMARY KEY, n INTEGER NOT NULL,"
    " stride INTEGER NOT NULL, i INTEGER NOT NULL, mu REAL NOT NULL)",
)
TABLES = ("kept_history", "kept_history_bots")

Points = dict[str, list[tuple[int, float]]]


def trueskill() -> ratings.IncrementalRating:
    """The rating the history follows."""
    found = ratings.get("trueskill")
    assert isinstance(found, ratings.IncrementalRating)
    return found


def from_events(
    bots: Sequence[str],
    evs: Iterable[Sequence[Entry]],
    state: dict[str, Any] | None = None,
    offset: int = 0,
    history: Points | None = None,
) -> Points:
    """Each bot's points after every event of ``evs`` it took part in (``bots`` first, in
    that order, each from its prior's point unless ``history`` already holds it), rated
    from ``state`` (a new one by default; updated in place); event ``k`` of ``evs`` is
    event ``offset + k`` of the tournament."""
    rating = trueskill()
    state = rating.start() if state is None else state
    out: Points = {} if history is None else history
    for b in bots:
        out.setdefault(b, [(0, rating.centre(state, b))])
    evs = list(evs)
    for e in (e for event in evs for e in event):
        out.setdefault(e.bot, [(0, rating.centre(state, e.bot))])

    def record(i: int, event: Sequence[Entry], state: dict[str, Any]) -> None:
        for e in event:
            out[e.bot].append((offset + i, rating.centre(state, e.bot)))

    ratings.rate_events(rating, evs, state, record)
    return out


def ensure(db: sqlite3.Connection) -> None:
    """Create the history's tables when missing (in the caller's transaction)."""
    for statement in SCHEMA:
        db.execute(statement)


def clear(db: sqlite3.Connection) -> None:
    """Forget the kept history (the kept states are rated again from the start)."""
    for table in TABLES:
        db.execute(f"DELETE FROM {table}")


class Recorder:
    """Adds the points of events rated into the kept TrueSkill state to the kept history:
    pass :meth:`after` to :func:`arena.results.ratings.rate_events`, then :meth:`flush`."""

    def __init__(self, db: sqlite3.Connection, offset: int) -> None:
        self.db = db
        self.offset = offset  # events rated before these
        self.prior = trueskill().centre({}, "")
        # bot -> [n, stride, i, mu] of its newest point
        self.bots: dict[str, list[Any]] = {
            bot: [n, stride, i, mu]
            for bot, n, stride, i, mu in db.execute(
                "SELECT bot, n, stride, i, mu FROM kept_history_bots"
            )
        }
        self.rows: list[tuple[str, int, int, float]] = []

    def after(self, i: int, event: Sequence[Entry], state: dict[str, Any]) -> None:
        """Record each bot's point after event ``i`` of the rated stretch."""
        centre = trueskill().centre
        for e in event:
            kept = self.bots.get(e.bot)
            if kept is None:
                kept = self.bots[e.bot] = [0, 1, 0, self.prior]
                self.rows.append((e.bot, 0, 0, self.prior))
            kept[0] += 1
            kept[2], kept[3] = self.offset + i, centre(state, e.bot)
            n, stride = kept[0], kept[1]
            if n % stride == 0:
                self.rows.append((e.bot, n, kept[2], kept[3]))
                if n // stride + 1 > LIMIT:  # points 0, stride, ..., n: thin them
                    self._thin(e.bot, kept)

    def _thin(self, bot: str, kept: list[Any]) -> None:
        """Keep every other point of ``bot`` (the stride doubles)."""
        self._write_rows()
        kept[1] *= 2
        self.db.execute("DELETE FROM kept_history WHERE bot = ? AND n % ? != 0", (bot, kept[1]))

    def _write_rows(self) -> None:
        self.db.executemany(
            "INSERT OR REPLACE INTO kept_history(bot, n, i, mu) VALUES (?, ?, ?, ?)", self.rows
        )
        self.rows = []

    def flush(self) -> None:
        """Write the points recorded and each bot's newest point."""
        self._write_rows()
        self.db.executemany(
            "INSERT OR REPLACE INTO kept_history_bots(bot, n, stride, i, mu)"
            " VALUES (?, ?, ?, ?, ?)",
            [(bot, *kept) for bot, kept in self.bots.items()],
        )


def read(db: sqlite3.Connection) -> Points:
    """The kept points of every bot that played (its newest point last)."""
    out: Points = {}
    for bot, i, mu in db.execute("SELECT bot, i, mu FROM kept_history ORDER BY bot, n"):
        out.setdefault(bot, []).append((i, mu))
    for bot, n, stride, i, mu in db.execute("SELECT bot, n, stride, i, mu FROM kept_history_bots"):
        if n % stride:
            out[bot].append((i, mu))
    return out
