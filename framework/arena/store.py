"""Storage: one SQLite file per output folder; each game committed the moment it ends.

Layout of an output folder::

    arena.sqlite                 tournament, bots, games, seats
    games/<slug>/replay.json     every step's input and output per bot, timings, outcome
    games/<slug>/stderr-*.txt    each bot's stderr for that game (bounded)

A game is in the database only once it finished, so a stopped tournament resumes by
skipping the keys already stored.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.referee import GameRecord, SeatRecord

DB_NAME = "arena.sqlite"
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS bots (name TEXT PRIMARY KEY, cmd TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL UNIQUE,
    ord INTEGER NOT NULL,
    round INTEGER NOT NULL,
    grp TEXT NOT NULL,
    game TEXT NOT NULL,
    seed INTEGER NOT NULL,
    settings TEXT NOT NULL,
    players INTEGER NOT NULL,
    reason TEXT NOT NULL,
    turns INTEGER NOT NULL,
    steps INTEGER NOT NULL,
    duration_ms REAL NOT NULL,
    dir TEXT NOT NULL,
    finished_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    bot TEXT NOT NULL,
    rank INTEGER NOT NULL,
    score REAL NOT NULL,
    forfeit TEXT,
    detail TEXT NOT NULL,
    raw TEXT NOT NULL,
    moves INTEGER NOT NULL,
    total_ms REAL NOT NULL,
    max_ms REAL NOT NULL,
    stderr TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS seats_bot ON seats(bot);
"""


def game_slug(key: str) -> str:
    """A folder name for a game key: readable prefix plus a short hash (unique, path-safe)."""
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in key)[:60]
    return f"{safe}-{hashlib.sha1(key.encode()).hexdigest()[:8]}"


@dataclass(frozen=True)
class StoredGame:
    """A finished game read back from the store."""

    id: int
    key: str
    ord: int
    round: int
    group: str
    game: str
    seed: int
    reason: str
    turns: int
    duration_ms: float
    dir: str
    seats: tuple[SeatRecord, ...]
    settings: dict[str, Any] = field(default_factory=dict)


class Store:
    """The SQLite file of one output folder."""

    def __init__(self, output: Path) -> None:
        self.output = output
        output.mkdir(parents=True, exist_ok=True)
        self.path = output / DB_NAME
        self.db = sqlite3.connect(self.path)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.executescript(SCHEMA)
        self.db.commit()

    def close(self) -> None:
        """Close the database."""
        self.db.close()

    def game_dir(self, key: str) -> Path:
        """Where a game's replay and stderr files go."""
        return self.output / "games" / game_slug(key)

    def set_meta(self, values: dict[str, Any]) -> None:
        """Record the tournament's description (name, game, settings...), as JSON values."""
        with self.db:
            self.db.executemany(
                "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)",
                [(k, json.dumps(v)) for k, v in values.items()],
            )

    def meta(self) -> dict[str, Any]:
        """The tournament's description as recorded."""
        return {k: json.loads(v) for k, v in self.db.execute("SELECT key, value FROM meta")}

    def set_bots(self, bots: dict[str, str]) -> None:
        """Record each bot's command."""
        with self.db:
            self.db.executemany(
                "INSERT OR REPLACE INTO bots(name, cmd) VALUES (?, ?)", list(bots.items())
            )

    def finished_keys(self) -> set[str]:
        """Keys of the games already stored."""
        return {row[0] for row in self.db.execute("SELECT key FROM games")}

    def add_game(self, key: str, order: int, round_: int, group: str, record: GameRecord) -> int:
        """Store a finished game and its seats in one transaction; return its id."""
        with self.db:
            cur = self.db.execute(
                "INSERT INTO games(key, ord, round, grp, game, seed, settings, players, reason,"
                " turns, steps, duration_ms, dir, finished_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    key,
                    order,
                    round_,
                    group,
                    record.game,
                    record.seed,
                    json.dumps(record.settings, sort_keys=True),
                    len(record.seats),
                    record.reason,
                    record.turns,
                    record.steps,
                    record.duration_ms,
                    str(self.game_dir(key).relative_to(self.output)),
                    time.strftime("%Y-%m-%dT%H:%M:%S"),
                ),
            )
            game_id = int(cur.lastrowid or 0)
            self.db.executemany(
                "INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        game_id, i, s.bot, s.rank, s.score, s.forfeit, s.detail, s.raw,
                        s.moves, s.total_ms, s.max_ms, s.stderr,
                    )
                    for i, s in enumerate(record.seats)
                ],
            )  # fmt: skip
        return game_id

    def games(self) -> list[StoredGame]:
        """Every stored game in schedule order (round, then order), seats included."""
        seats: dict[int, list[SeatRecord]] = {}
        for row in self.db.execute(
            "SELECT game_id, bot, rank, score, forfeit, detail, raw, moves, total_ms, max_ms,"
            " stderr FROM seats ORDER BY game_id, seat"
        ):
            seats.setdefault(row[0], []).append(SeatRecord(*row[1:]))
        return [
            StoredGame(
                id=row[0], key=row[1], ord=row[2], round=row[3], group=row[4], game=row[5],
                seed=row[6], reason=row[7], turns=row[8], duration_ms=row[9], dir=row[10],
                seats=tuple(seats.get(row[0], [])), settings=json.loads(row[11]),
            )
            for row in self.db.execute(
                "SELECT id, key, ord, round, grp, game, seed, reason, turns, duration_ms, dir,"
                " settings FROM games ORDER BY round, ord, id"
            )
        ]  # fmt: skip

    def game(self, game_id: int) -> StoredGame | None:
        """One stored game by id."""
        return next((g for g in self.games() if g.id == game_id), None)


def open_existing(output: Path) -> Store:
    """Open the store of an output folder that must already hold one."""
    from arena.errors import ConfigError

    if not (output / DB_NAME).is_file():
        raise ConfigError(f"{output}: no {DB_NAME} here (is it an arena output folder?)")
    return Store(output)
