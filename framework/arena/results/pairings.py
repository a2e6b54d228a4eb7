"""The current two-player games summed up in SQL, by seating and by seat-swapped pair:
what a league resumes from without reading its games into Python (a million games sum
up in seconds, in a few megabytes).

A *pair* is what :func:`arena.results.rating.pair_id` names: the games of one round on
one settings variant between the same two bots, one per seating when complete.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

TWO_PLAYER = (
    " FROM games g JOIN current_games c ON c.key = g.key AND c.identity_hash = g.identity_hash"
    " JOIN seats a ON a.game_id = g.id AND a.seat = 0"
    " JOIN seats b ON b.game_id = g.id AND b.seat = 1"
    " WHERE g.players = 2"
)
"""The current two-player games, ``a`` seated first and ``b`` second."""
LOW_POINTS = (
    "CASE WHEN a.rank = b.rank THEN 0.5 WHEN (a.rank < b.rank) = (a.bot < b.bot) THEN 1.0"
    " ELSE 0.0 END"
)
"""The points of the pair's lower-named bot in a game (:func:`arena.records.pair_points`)."""


@dataclass(frozen=True)
class Seating:
    """The current games of ``first`` seated first against ``second``: how many, and
    how many ``first`` won and drew."""

    first: str
    second: str
    games: int
    wins: int
    draws: int


@dataclass(frozen=True)
class PairGames:
    """The games of one pair (``low`` < ``high`` by name): how many, of how many
    seatings, and ``low``'s points over them; ``first`` seated first in the earliest."""

    round: int
    settings: dict[str, Any]
    low: str
    high: str
    games: int
    seatings: int
    low_points: float
    first: str


def seatings(db: sqlite3.Connection) -> list[Seating]:
    """Every seating of the current two-player games, in the order of the bots' names."""
    rows = db.execute(
        "SELECT a.bot, b.bot, COUNT(*), SUM(a.rank < b.rank), SUM(a.rank = b.rank)"
        f"{TWO_PLAYER} GROUP BY a.bot, b.bot ORDER BY a.bot, b.bot"
    )
    return [Seating(*row) for row in rows]


def pairs(db: sqlite3.Connection) -> Iterator[PairGames]:
    """Every pair of the current two-player games of two bots, in the order of rounds
    (within a round, of its games' places in the schedule)."""
    rows = db.execute(
        "SELECT c.round, g.settings, MIN(a.bot, b.bot) AS low, MAX(a.bot, b.bot) AS high,"
        f" COUNT(*), COUNT(DISTINCT a.bot), SUM({LOW_POINTS}), MIN(c.ord), a.bot"
        f"{TWO_PLAYER} AND a.bot != b.bot GROUP BY c.round, g.settings, low, high"
        " ORDER BY c.round, MIN(c.ord)"
    )
    for round_, settings, low, high, games, seated, points, _, first in rows:
        yield PairGames(round_, json.loads(settings), low, high, games, seated, points, first)


def round_games(db: sqlite3.Connection, rounds: Sequence[int]) -> dict[int, list[tuple[str, ...]]]:
    """Per round of ``rounds``, its current two-player games as (key, first, second), in
    their places in the schedule."""
    out: dict[int, list[tuple[str, ...]]] = {r: [] for r in rounds}
    chunk = 500  # (SQLite's bound on parameters)
    for at in range(0, len(rounds), chunk):
        part = list(rounds[at : at + chunk])
        marks = ",".join("?" * len(part))
        for round_, key, first, second in db.execute(
            f"SELECT c.round, g.key, a.bot, b.bot{TWO_PLAYER} AND c.round IN ({marks})"
            " ORDER BY c.round, c.ord, g.id",
            part,
        ):
            out[round_].append((key, first, second))
    return out


def has_self_games(db: sqlite3.Connection) -> bool:
    """Whether a current two-player game seats one bot twice."""
    return bool(db.execute(f"SELECT 1{TWO_PLAYER} AND a.bot = b.bot LIMIT 1").fetchone())
