"""The web app's reads of the store, each one SQL query sized for a page.

The games list is the store's listing (:meth:`arena.results.store.Store.games_page`:
filters and page in one query on indexes); the rest are small queries of their own. Every
id comes in as a number and goes to the database as a parameter, never into a path.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import Any

from arena.records import StoredGame, result_of
from arena.results.queries import GameFilter
from arena.results.store import Store, unpack_times

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
    """One page of the games list: its games, its number (0: the newest), how many games
    pass the filters and how many are stored."""

    rows: list[GameRow]
    number: int
    matching: int
    total: int
    size: int = PAGE_SIZE
    filters: Filters = field(default_factory=Filters)

    @property
    def older(self) -> int | None:
        """The next page's number, if there is one."""
        return self.number + 1 if (self.number + 1) * self.size < self.matching else None

    @property
    def newer(self) -> int | None:
        """The previous page's number, if there is one."""
        return self.number - 1 if self.number > 0 else None

    @property
    def pages(self) -> int:
        """How many pages the matching games fill."""
        return max(1, -(-self.matching // self.size))


def games_page(
    store: Store, filters: Filters, number: int | None = 0, limit: int = PAGE_SIZE
) -> GamesPage:
    """Page ``number`` of the stored games passing ``filters``, newest first, through the
    store's listing (:meth:`arena.results.store.Store.games_page`: one query on indexes)."""
    number = max(0, min(number or 0, MAX_ID // (limit + 1)))
    flt = GameFilter(
        bot=filters.bot,
        opponent=filters.opponent,
        result=filters.result,
        forfeit=filters.reason,
        seed=filters.seed,
        round=filters.round,
    )
    page = store.games_page(flt, "newest", limit, number * limit, current_only=False)
    rows = [_row(g) for g in page.games]
    return GamesPage(rows, number, page.matching, page.total, limit, filters)


def _row(game: StoredGame) -> GameRow:
    ranks = [s.rank for s in game.seats]
    seats = tuple(
        Seat(i, s.bot, s.rank, s.score, s.forfeit, result_of(ranks, i))
        for i, s in enumerate(game.seats)
    )
    return GameRow(
        game.id, game.round + 1, game.seed, game.reason, game.turns, game.duration_ms, "", seats
    )


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
