"""What the web app reads of the store beyond its listings, each one SQL query sized for a
page; and the games list's URL (its filters and keyset pages) as the store's listing takes it.

The games list is :meth:`arena.results.store.Store.games_by_id`, the store's listing
query paged by keyset (``id < before``, newest first): a page costs about the same on a
million games (bench/serve.py). Every id comes in as a number and goes to the database as
a parameter, never into a path.
"""

from __future__ import annotations

import json
import sqlite3
import urllib.parse
from dataclasses import dataclass, field

from arena.records import StoredGame
from arena.results.queries import GameFilter
from arena.results.store import Store
from arena.results.turn_times import unpack_times

PAGE_SIZE = 50
MAX_ID = 2**63 - 1
"""The largest id SQLite holds: a bigger number in a URL is read as this."""
REASONS = ("timeout", "crash", "memory", "invalid", "illegal")
URL_KEYS = {"bot": "bot", "opponent": "opponent", "result": "result", "reason": "forfeit"}
URL_KEYS |= {"seed": "seed", "round": "round"}
"""The games list's URL query keys and the :class:`GameFilter` field each one sets."""


def filter_query(flt: GameFilter) -> dict[str, str]:
    """The URL query that gives ``flt`` back."""
    out = {}
    for key, name in URL_KEYS.items():
        value = getattr(flt, name)
        if value is not None and value != "":
            out[key] = str(value)
    return out


def games_url(flt: GameFilter, **page: int) -> str:
    """The games list's URL of ``flt`` and a page key (``before=`` or ``after=``)."""
    query = urllib.parse.urlencode(filter_query(flt) | {k: str(v) for k, v in page.items()})
    return f"/games?{query}" if query else "/games"


@dataclass
class GamesPage:
    """One page of the games list and the keys of the next and previous pages."""

    rows: list[StoredGame]
    older: int | None  # `before` of the next (older) page
    newer: int | None  # `after` of the previous (newer) page
    filters: GameFilter = field(default_factory=GameFilter)

    def query(self) -> dict[str, str]:
        """The URL query of this page's filters."""
        return filter_query(self.filters)


def games_page(
    store: Store,
    filters: GameFilter,
    before: int | None = None,
    after: int | None = None,
    limit: int = PAGE_SIZE,
) -> GamesPage:
    """Every stored game passing ``filters``, newest first: those with an id below
    ``before`` (or, going back, the page just above ``after``), at most ``limit``."""
    after = None if after is None else min(after, MAX_ID)
    before = None if before is None else min(before, MAX_ID)
    rows, more = store.games_by_id(filters, before, after, limit)
    if not rows:
        return GamesPage([], None, None, filters)
    going_back = after is not None
    older = rows[-1].id if (more or going_back) else None
    newer = rows[0].id if (before is not None or (going_back and more)) else None
    return GamesPage(rows, older, newer, filters)


@dataclass(frozen=True)
class GameDetail:
    """One stored game (its seats in full), when it ended, its settings as stored."""

    game: StoredGame
    finished_at: str
    settings: str


def game_detail(store: Store, game_id: int) -> GameDetail | None:
    """The stored game ``game_id``, or ``None``."""
    if not 0 < game_id <= MAX_ID:
        return None
    game = store.game(game_id)
    if game is None:
        return None
    (finished,) = store.db.execute(
        "SELECT finished_at FROM games WHERE id = ?", (game_id,)
    ).fetchone()
    return GameDetail(game, str(finished), json.dumps(game.settings, sort_keys=True))


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


def _has_column(db: sqlite3.Connection, name: str) -> bool:
    return any(r[1] == name for r in db.execute("PRAGMA table_info(seats)"))


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
