"""The web app's reads of the store, each one SQL query sized for a page.

The games list pages by keyset (``id < before``, newest first, ``LIMIT``): the games are
walked newest first by id and each one's seats looked up by game, stopping at the page, so
a page costs about the same on a million games. (``Store.games_page`` is the store's
listing, but it selects the filtered ids and counts them before the page: 14 s for a page
of a bot's wins on a million games, against 12 ms here; see bench/serve.py.) Every id comes
in as a number and goes to the database as a parameter, never into a path.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import Any

from arena.records import result_of
from arena.results.turn_times import unpack_times

PAGE_SIZE = 50
MAX_ID = 2**63 - 1
"""The largest id SQLite holds: a bigger number in a URL is read as this."""
RESULTS = ("win", "loss", "draw", "forfeit")
REASONS = ("timeout", "crash", "memory", "invalid", "illegal")


@dataclass(frozen=True)
class Seat:
    """One seat of a listed game."""

    seat: int
    bot: str
    rank: int
    score: float
    forfeit: str | None
    result: str


@dataclass(frozen=True)
class GameRow:
    """One line of the games list."""

    id: int
    round: int
    seed: int
    reason: str
    turns: int
    duration_ms: float
    finished_at: str
    seats: tuple[Seat, ...]

    @property
    def result(self) -> str:
        """``greedy wins``, ``draw: a, b`` or, for one player, its score."""
        if len(self.seats) == 1:
            return f"score {self.seats[0].score:g}"
        first = [s.bot for s in self.seats if s.rank == min(x.rank for x in self.seats)]
        return f"{first[0]} wins" if len(first) == 1 else "draw: " + ", ".join(first)


@dataclass(frozen=True)
class Filters:
    """What the games list is narrowed to (every field optional)."""

    bot: str | None = None
    opponent: str | None = None
    result: str | None = None  # win, loss, draw (of ``bot``, or anyone's), forfeit
    reason: str | None = None  # a forfeit reason
    seed: int | None = None
    round: int | None = None  # as shown: 1 is the first

    def query(self) -> dict[str, str]:
        """The URL query that gives these filters back."""
        out = {}
        for key in ("bot", "opponent", "result", "reason", "seed", "round"):
            value = getattr(self, key)
            if value is not None and value != "":
                out[key] = str(value)
        return out


@dataclass
class GamesPage:
    """One page of the games list and the keys of the next and previous pages."""

    rows: list[GameRow]
    older: int | None  # `before` of the next (older) page
    newer: int | None  # `after` of the previous (newer) page
    filters: Filters = field(default_factory=Filters)


def _where(f: Filters) -> tuple[list[str], list[Any]]:
    """SQL conditions on games ``g`` (and the chosen bot's seat ``b``) for ``f``."""
    conds: list[str] = []
    args: list[Any] = []
    if f.seed is not None:
        conds.append("g.seed = ?")
        args.append(f.seed)
    if f.round is not None:
        conds.append("g.round = ?")
        args.append(f.round - 1)
    if f.bot is not None:
        conds.append("b.bot = ?")
        args.append(f.bot)
    if f.opponent is not None:
        conds.append(
            # +o.bot: looked up by game (its seats), not through the index of every seat of the bot
            "EXISTS (SELECT 1 FROM seats o WHERE o.game_id = g.id AND +o.bot = ?"
            + (" AND o.seat != b.seat)" if f.bot is not None else ")")
        )
        args.append(f.opponent)
    best = "(SELECT MIN(x.rank) FROM seats x WHERE x.game_id = g.id)"
    firsts = f"(SELECT COUNT(*) FROM seats x WHERE x.game_id = g.id AND x.rank = {best})"
    if f.result == "forfeit":
        conds.append(
            "b.forfeit IS NOT NULL"
            if f.bot is not None
            else "EXISTS (SELECT 1 FROM seats x WHERE x.game_id = g.id AND x.forfeit IS NOT NULL)"
        )
    elif f.result in ("win", "loss", "draw") and f.bot is not None:
        if f.result == "loss":
            conds.append(f"b.rank > {best}")
        else:
            conds.append(f"b.rank = {best} AND {firsts} {'= 1' if f.result == 'win' else '> 1'}")
        conds.append("g.players > 1")
    elif f.result in ("win", "loss"):
        conds.append(f"g.players > 1 AND {firsts} = 1")
    elif f.result == "draw":
        conds.append(f"g.players > 1 AND {firsts} > 1")
    if f.reason is not None:
        if f.bot is not None:
            conds.append("b.forfeit = ?")
        else:
            conds.append("EXISTS (SELECT 1 FROM seats x WHERE x.game_id = g.id AND x.forfeit = ?)")
        args.append(f.reason)
    return conds, args


def games_page(
    db: sqlite3.Connection,
    filters: Filters,
    before: int | None = None,
    after: int | None = None,
    limit: int = PAGE_SIZE,
) -> GamesPage:
    """Games passing ``filters``, newest first: those with an id below ``before`` (or,
    going back, the page just above ``after``), at most ``limit``."""
    conds, args = _where(filters)
    source = "games g"
    if filters.bot is not None:
        # One row per game even when the bot holds several seats: its first seat. CROSS
        # JOIN keeps games the outer loop: newest first by id, stopping at the page.
        source = (
            "games g CROSS JOIN seats b ON b.game_id = g.id AND b.seat ="
            " (SELECT MIN(y.seat) FROM seats y WHERE y.game_id = g.id AND y.bot = ?)"
        )
        args = [filters.bot, *args]
    order = "DESC"
    if after is not None:
        conds.append("g.id > ?")
        args.append(min(after, MAX_ID))
        order = "ASC"
    elif before is not None:
        conds.append("g.id < ?")
        args.append(min(before, MAX_ID))
    where = f" WHERE {' AND '.join(conds)}" if conds else ""
    sql = (
        "SELECT g.id, g.round, g.seed, g.reason, g.turns, g.duration_ms, g.finished_at"
        f" FROM {source}{where} ORDER BY g.id {order} LIMIT ?"
    )
    found = db.execute(sql, [*args, limit + 1]).fetchall()
    more = len(found) > limit
    found = found[:limit]
    if order == "ASC":
        found.reverse()
    rows = _with_seats(db, found)
    if not rows:
        return GamesPage([], None, None, filters)
    going_back = after is not None
    older = rows[-1].id if (more or going_back) else None
    newer = rows[0].id if (before is not None or (going_back and more)) else None
    return GamesPage(rows, older, newer, filters)


def _with_seats(db: sqlite3.Connection, found: list[tuple[Any, ...]]) -> list[GameRow]:
    if not found:
        return []
    ids = [r[0] for r in found]
    seats: dict[int, list[tuple[Any, ...]]] = {}
    marks = ",".join("?" * len(ids))
    for row in db.execute(
        "SELECT game_id, seat, bot, rank, score, forfeit FROM seats"
        f" WHERE game_id IN ({marks}) ORDER BY game_id, seat",
        ids,
    ):
        seats.setdefault(row[0], []).append(row[1:])
    out = []
    for gid, round_, seed, reason, turns, ms, at in found:
        mine = seats.get(gid, [])
        ranks = [s[2] for s in mine]
        listed = tuple(
            Seat(s[0], s[1], s[2], s[3], s[4], result_of(ranks, i)) for i, s in enumerate(mine)
        )
        out.append(GameRow(gid, round_ + 1, seed, reason, turns, ms, at, listed))
    return out


@dataclass(frozen=True)
class SeatDetail:
    """A seat of one game in full: its result, forfeit, times and stderr."""

    seat: int
    bot: str
    rank: int
    score: float
    forfeit: str | None
    detail: str
    moves: int
    total_ms: float
    max_ms: float
    stderr: str
    late: int
    result: str


@dataclass(frozen=True)
class GameDetail:
    """One stored game: its row, seats and where its files are (relative to the folder)."""

    row: GameRow
    key: str
    game: str
    settings: str
    dir: str
    seats: tuple[SeatDetail, ...]


def game_detail(db: sqlite3.Connection, game_id: int) -> GameDetail | None:
    """The stored game ``game_id``, or ``None``."""
    if not 0 < game_id <= MAX_ID:
        return None
    found = db.execute(
        "SELECT id, round, seed, reason, turns, duration_ms, finished_at, key, game, settings,"
        " dir FROM games WHERE id = ?",
        (game_id,),
    ).fetchone()
    if found is None:
        return None
    late = "late" if _has_column(db, "late") else "0"
    seats = db.execute(
        "SELECT seat, bot, rank, score, forfeit, detail, moves, total_ms, max_ms, stderr,"
        f" {late} FROM seats WHERE game_id = ? ORDER BY seat",
        (game_id,),
    ).fetchall()
    ranks = [s[2] for s in seats]
    details = tuple(
        SeatDetail(
            s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], result_of(ranks, i)
        )
        for i, s in enumerate(seats)
    )
    (row,) = _with_seats(db, [found[:7]])
    return GameDetail(row, found[7], found[8], found[9], found[10], details)


def _has_column(db: sqlite3.Connection, name: str) -> bool:
    return any(r[1] == name for r in db.execute("PRAGMA table_info(seats)"))


def bot_names(db: sqlite3.Connection) -> list[str]:
    """Every bot the store knows (its ``bots`` table), by name."""
    return [r[0] for r in db.execute("SELECT name FROM bots ORDER BY name")]


def bot_command(db: sqlite3.Connection, bot: str) -> str | None:
    """The command a bot was run with, or ``None`` for an unknown bot."""
    row = db.execute("SELECT cmd FROM bots WHERE name = ?", (bot,)).fetchone()
    return None if row is None else str(row[0])


@dataclass(frozen=True)
class ForfeitRow:
    """A game a bot forfeited: which, why, and the end of its stderr."""

    game_id: int
    reason: str
    detail: str
    stderr: str


def bot_forfeits(db: sqlite3.Connection, bot: str, limit: int = 20) -> list[ForfeitRow]:
    """The bot's latest forfeits, newest first."""
    return [
        ForfeitRow(gid, reason, detail, stderr[-2000:])
        for gid, reason, detail, stderr in db.execute(
            "SELECT game_id, forfeit, detail, stderr FROM seats WHERE bot = ?"
            " AND forfeit IS NOT NULL ORDER BY game_id DESC LIMIT ?",
            (bot, limit),
        )
    ]


def recent_times(db: sqlite3.Connection, bot: str, games: int = 200) -> list[float]:
    """The bot's per-turn response times (ms) over its latest ``games`` games, oldest first."""
    if not _has_column(db, "turn_ms"):
        return []
    blobs = db.execute(
        "SELECT turn_ms FROM seats WHERE bot = ? ORDER BY game_id DESC LIMIT ?", (bot, games)
    ).fetchall()
    out: list[float] = []
    for (blob,) in reversed(blobs):
        out.extend(unpack_times(blob))
    return out
