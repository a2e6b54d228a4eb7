"""The current two-player games summed up in SQL by seat-swapped pair: what a league
resumes from without reading its games into Python (one pass over the games, in C).

A *pair* is what :func:`arena.results.rating.pair_id` names: the games of one round on
one settings variant between the same two bots, one per seating when complete. Points
and results are the pair's lower-named bot's (``low``), as
:class:`arena.results.rating.Pairwise` counts them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # (not imported where games are played: the store's module is)
    import sqlite3

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
PAIRS = (
    "CREATE TEMP TABLE pair_sums AS SELECT c.round AS r, g.settings AS st,"
    " MIN(a.bot, b.bot) AS low, MAX(a.bot, b.bot) AS high, COUNT(*) AS n,"
    f" COUNT(DISTINCT a.bot) AS seated, SUM({LOW_POINTS}) AS pts,"
    f" SUM({LOW_POINTS} = 1.0) AS wins, SUM({LOW_POINTS} = 0.5) AS draws, MIN(a.bot) AS first"
    f"{TWO_PLAYER} GROUP BY c.round, g.settings, low, high"
)
"""One row per pair (``first``: seated first in its game, when it holds one)."""


@dataclass(frozen=True)
class Pairing:
    """The current games of ``low`` against ``high``: results from ``low``'s side, and
    the rounds they played."""

    low: str
    high: str
    wins: int
    draws: int
    games: int
    rounds: int

    @property
    def losses(self) -> int:
        """The games ``low`` lost."""
        return self.games - self.wins - self.draws


@dataclass(frozen=True)
class Half:
    """A pair of one game: ``first`` seated first, ``points`` the low bot's."""

    round: int
    settings: dict[str, Any]
    low: str
    high: str
    first: str
    points: float


@dataclass
class PairSums:
    """The current two-player games by pair (:func:`pair_sums`)."""

    pairings: list[Pairing] = field(default_factory=list)
    ptnml: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    """Per pairing, its complete pairs by the low bot's points over them, in halves."""
    halves: list[Half] = field(default_factory=list)
    short: list[int] = field(default_factory=list)
    """The rounds of fewer games than ``per_round``."""
    last_round: int = -1
    regular: bool = True
    """Every round of one pairing, every pair of at most one game per seating and no bot
    seated against itself: what a league stores."""


def pair_sums(db: sqlite3.Connection, per_round: int) -> PairSums:
    """The current two-player games summed up by pair, and the rounds of fewer than
    ``per_round`` games."""
    db.execute("DROP TABLE IF EXISTS temp.pair_sums")
    db.execute(PAIRS)
    try:
        sums = PairSums()
        irregular = db.execute(
            "SELECT EXISTS(SELECT 1 FROM pair_sums WHERE n > seated OR n > 2 OR low = high)"
            " OR EXISTS(SELECT 1 FROM pair_sums GROUP BY r"
            " HAVING COUNT(DISTINCT low) > 1 OR COUNT(DISTINCT high) > 1)"
        ).fetchone()[0]
        if irregular:
            return PairSums(regular=False)
        sums.pairings = [
            Pairing(*row)
            for row in db.execute(
                "SELECT low, high, SUM(wins), SUM(draws), SUM(n), COUNT(DISTINCT r)"
                " FROM pair_sums GROUP BY low, high ORDER BY low, high"
            )
        ]
        for low, high, points, count in db.execute(
            "SELECT low, high, CAST(ROUND(2 * pts) AS INTEGER), COUNT(*) FROM pair_sums"
            " WHERE n = 2 GROUP BY low, high, 3"
        ):
            sums.ptnml.setdefault((low, high), [0] * 5)[points] += count
        sums.halves = [
            Half(r, json.loads(settings), low, high, first, points)
            for r, settings, low, high, first, points in db.execute(
                "SELECT r, st, low, high, first, pts FROM pair_sums WHERE n = 1 ORDER BY r"
            )
        ]
        sums.short = [
            r
            for (r,) in db.execute(
                "SELECT r FROM pair_sums GROUP BY r HAVING SUM(n) < ? ORDER BY r", (per_round,)
            )
        ]
        last = db.execute("SELECT MAX(r) FROM pair_sums").fetchone()[0]
        sums.last_round = -1 if last is None else int(last)
        return sums
    finally:
        db.execute("DROP TABLE IF EXISTS temp.pair_sums")


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
