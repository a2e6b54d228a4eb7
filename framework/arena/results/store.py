"""Storage: one SQLite file per output folder; each game committed the moment it ends.

Layout of an output folder::

    arena.sqlite                 tournament, bots, games, seats (each turn's time)
    games/<slug>/replay.json     every step's input and output per bot, timings, outcome
    games/<slug>/stderr-*.txt    each bot's stderr for that game (bounded)

A game is in the database only once it finished, with its identity (everything that
decided it, see :mod:`arena.results.identity`), so a stopped tournament resumes by skipping the
games already stored under the same key and identity. The ``current_games`` table lists the
stored games the tournament file defined at its last run (key, place in its schedule,
identity hash): the leaderboard shows only those, as the file now defines the
tournament; the others stay stored.
"""

from __future__ import annotations

import errno
import hashlib
import json
import shutil
import sqlite3
import time
import urllib.parse
from array import array
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext, suppress
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from arena.errors import ArenaError, ConfigError, OutputError
from arena.records import GameRecord, SeatRecord, StoredGame
from arena.results import history, kept, rating
from arena.results.batching import Batch
from arena.results.identity import canonical, identity_hash
from arena.results.kept import Kept as KeptRatings
from arena.results.kept import Percentiles
from arena.results.queries import (
    CURRENT_JOIN,
    GAME_COLUMNS,
    INDEXES,
    SEED_POINTS,
    GameFilter,
    page_query,
)
from arena.results.turn_times import pack_times, unpack_times
from arena.text import safe_text

DB_NAME = "arena.sqlite"
SCHEMA_VERSION = 3
"""Kept in SQLite's ``user_version``; 2 added game identities and the ``current_games`` table,
3 each seat's late answers and per-turn times (a folder of schema 2 is upgraded by
``arena run`` and read as it is by the other commands)."""
CLOSED_NAME = ".arena.closed"
"""Beside the database: its size, modification time and inode as the last writer closed
it whole (out of WAL mode). A writer finding the file so skips reading its every page
(``PRAGMA quick_check``: a tenth of a second per hundred thousand games); a file changed
since, by anything, is checked."""
RESUME_CHECK = "resume_check"
"""The meta key of the last run's :class:`ResumeCheck`."""
IDENTITY_SCHEMA = 2
"""The oldest schema that resumes: before it, games had no identities."""
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
    finished_at TEXT NOT NULL,
    identity TEXT NOT NULL,
    identity_hash TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS current_games (
    key TEXT PRIMARY KEY,
    ord INTEGER NOT NULL,
    round INTEGER NOT NULL,
    grp TEXT NOT NULL,
    identity_hash TEXT NOT NULL
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
    late INTEGER NOT NULL DEFAULT 0,
    turn_ms BLOB,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS seats_bot ON seats(bot);
"""


UPGRADES = {
    2: (
        "ALTER TABLE seats ADD COLUMN late INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE seats ADD COLUMN turn_ms BLOB",
    ),
}
"""The statements that bring a schema to the next one."""

TABLES = ("meta", "bots", "games", "current_games", "seats")
NewGame = tuple[str, int, int, str, GameRecord, dict[str, Any]]
"""A game to store: :meth:`Store.add_game`'s key, order, round, group, record, identity."""
"""The tables of every schema that resumes (:data:`IDENTITY_SCHEMA` on)."""

SQLITE_IOERR, SQLITE_CORRUPT, SQLITE_FULL, SQLITE_FORMAT, SQLITE_NOTADB = 10, 11, 13, 24, 26
"""SQLite's primary result codes (``sqlite3.Error.sqlite_errorcode & 0xff``) that tell a
machine's fault from a file that is not, or no longer, a database."""


def game_slug(key: str) -> str:
    """A folder name for a game key: readable prefix plus a short hash (unique, path-safe)."""
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in key)[:60]
    return f"{safe}-{hashlib.sha1(key.encode()).hexdigest()[:8]}"


@dataclass(frozen=True)
class GamesPage:
    """One page of a listing (:meth:`Store.games_page`): its games, how many games pass
    the filter, and how many are listed without one (current or every stored game)."""

    games: list[StoredGame]
    matching: int
    total: int


@dataclass(frozen=True)
class CurrentGame:
    """A stored game the tournament file defines: key, place in its schedule, identity hash."""

    key: str
    ord: int
    round: int
    group: str
    identity_hash: str


@dataclass(frozen=True)
class ResumeCheck:
    """What the last run's resume found: under the tournament file whose ``key`` it was
    (:func:`arena.tournament.resume.resume_key`), the current games table was right for
    every stored game up to id ``through``; a run under the same key checks only the
    games stored after it. ``games`` and ``current`` count the stored games up to
    ``through`` and the current games then (the store fills them in): a game or a
    current game deleted since, by hand, voids the check."""

    key: str
    through: int
    games: int = 0
    current: int = 0


@dataclass(frozen=True)
class DoneGames:
    """The current games as a fixed plan resumes them: how many, the first place of the
    schedule not stored (every place before it is), and the keys stored after it."""

    count: int
    start: int
    later: frozenset[str]


@dataclass(frozen=True)
class StoredPlace:
    """Where a stored game was in the schedule it was played in, its bots by seat and the
    hash of its identity (what resume compares, without reading whole games)."""

    key: str
    ord: int
    round: int
    group: str
    seats: tuple[str, ...]
    identity_hash: str


class Store:
    """The SQLite file of one output folder (created if ``create``).

    Raises :class:`ConfigError` when ``output`` is not a folder or cannot be created,
    when its ``arena.sqlite`` is not a database, and when an older or newer arena wrote it.
    A file of the previous schema is upgraded when ``create`` (``arena run`` writes to
    it), else read as it is (what it lacks reads as empty).
    """

    def __init__(self, output: Path, create: bool = True) -> None:
        self.output = output
        self.path = output / DB_NAME
        self._writes = create
        self._batch: Batch | None = None
        self._writer = create
        if create:
            make_output_folder(output, str(output))
            if self.path.exists():
                # Every check reads only: a file refused is left byte for byte as it was.
                self._check_untouched(pages=not self._as_closed())
            (output / CLOSED_NAME).unlink(missing_ok=True)  # written again by close()
        try:
            self.db = (
                sqlite3.connect(self.path, check_same_thread=False)
                if create
                else _read_only(self.path)
            )
        except sqlite3.Error as exc:
            raise self._refusal(exc) from None
        OPENED.append(self.path)
        try:
            version = _check_schema(self.db, self.path, self.output, create)
            if create:
                self.db.execute("PRAGMA journal_mode=WAL")
                # One transaction: a reader (arena serve beside a starting run) sees no
                # table or every table with its version, never tables without one.
                self.db.execute("BEGIN")
                with self.db:
                    for statement in SCHEMA.split(";"):
                        if statement.strip():
                            self.db.execute(statement)
                    for statement in INDEXES:
                        self.db.execute(statement)
                    kept.ensure(self.db)
                    for old in range(version or SCHEMA_VERSION, SCHEMA_VERSION):
                        for statement in UPGRADES[old]:
                            self.db.execute(statement)
                        kept.invalidate(self.db)  # built again under the new schema
                    self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self.db.commit()
            columns = {row[1] for row in self.db.execute("PRAGMA table_info(seats)")}
            self._timed = "turn_ms" in columns
            if not create:
                _add_indexes(self.path, self.db)
        except sqlite3.DatabaseError as exc:
            self.db.close()
            raise self._refusal(exc) from None
        except BaseException:
            self.db.close()
            raise

    def _as_closed(self) -> bool:
        """Whether the file is as a writer last closed it whole (:data:`CLOSED_NAME`)."""
        try:
            stamp = json.loads((self.output / CLOSED_NAME).read_text())
        except (OSError, ValueError):
            return False
        return stamp == _stamp(self.path) and not Path(f"{self.path}-wal").exists()

    def _check_untouched(self, pages: bool = True) -> None:
        """Before a writing connection opens an existing file: its schema and, with
        ``pages``, its pages (``PRAGMA quick_check``, which reads the whole file), read
        through a read-only connection."""
        try:
            probe = _read_only(self.path)
        except sqlite3.Error as exc:
            raise self._refusal(exc) from None
        try:
            _check_schema(probe, self.path, self.output, create=True)
            problem = str(probe.execute("PRAGMA quick_check(1)").fetchone()[0]) if pages else "ok"
        except sqlite3.DatabaseError as exc:
            raise self._refusal(exc) from None
        finally:
            probe.close()
        if problem != "ok":
            problem = " ".join(problem.replace("*** in database main ***", "").split())
            raise ConfigError(
                f"{self.path}: damaged arena database ({problem}); keep a copy, then run the "
                "tournament with --fresh or another output folder"
            )

    def _refusal(self, exc: sqlite3.Error) -> ArenaError:
        """One line for an SQLite error met while opening the file: a full disk or an I/O
        error is the machine's (exit 1, the file may well be whole); only a file in which
        SQLite finds no database, or a damaged one, is "not an arena database"."""
        code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
        if code == SQLITE_FULL:
            return OutputError(
                f"{self.path}: the disk is full ({exc}): make room, then run the same command again"
            )
        if code == SQLITE_IOERR:
            return OutputError(f"{self.path}: cannot read or write it ({exc})")
        if code in (SQLITE_NOTADB, SQLITE_CORRUPT, SQLITE_FORMAT) or (
            code == 0 and isinstance(exc, sqlite3.DatabaseError)
        ):
            return ConfigError(f"{self.path}: not an arena database ({exc})")
        return ConfigError(f"{self.path}: cannot open: {exc}")

    def close(self) -> None:
        """Commit the games a batch holds (:meth:`batch`), then close the database. A
        writer first leaves WAL mode: the WAL is written back and ``arena.sqlite-wal`` and
        ``-shm`` are deleted, so that an output folder holds one file that later readers
        (read-only, which cannot delete them) use as it is. Where a reader still has the
        file open the switch waits for the next close."""
        whole = False
        try:
            if self._batch is not None:
                self._batch.close()
            if self._writes:
                try:
                    self.db.execute("PRAGMA busy_timeout = 200")  # a reader: do not wait long
                    mode = self.db.execute("PRAGMA journal_mode=DELETE").fetchone()
                    whole = bool(mode) and str(mode[0]).lower() == "delete"
                except sqlite3.Error:  # busy (a reader), or the disk is full: WAL stays
                    pass
        finally:
            self.db.close()
        if whole:  # the next writer skips reading every page: the file is as left here
            with suppress(OSError):
                (self.output / CLOSED_NAME).write_text(json.dumps(_stamp(self.path)))

    def batch(self, max_games: int = 200, max_delay_s: float = 0.25) -> None:
        """From now on commit stored games in batches (:mod:`arena.results.batching`): once
        ``max_games`` wait, or ``max_delay_s`` after the first of them, and on :meth:`close`
        or :meth:`flush`. What ``arena run`` does: its games are then stored at the pace
        they end, not at the disk's pace of one commit each."""
        if self._batch is None:
            self._batch = Batch(self.db, max_games, max_delay_s)

    def flush(self) -> None:
        """Commit the games a batch holds now (nothing without :meth:`batch`)."""
        if self._batch is not None:
            self._batch.commit()

    def _writing(self) -> AbstractContextManager[Any]:
        """A transaction of its own for a write other than a game's (the waiting games of a
        batch are committed with it)."""
        if self._batch is None:
            return self.db
        return _after_batch(self._batch, self.db)

    def _game_rows(self) -> AbstractContextManager[Any]:
        """Where one game's rows are written: a transaction of its own, or while batching
        a savepoint in the batch's."""
        return self.db if self._batch is None else self._batch.game()

    def game_dir(self, key: str) -> Path:
        """Where a game's replay and stderr files go."""
        return self.output / "games" / game_slug(key)

    def set_meta(self, values: dict[str, Any]) -> None:
        """Record the tournament's description (name, game, settings...), as JSON values."""
        with self._writing():
            self.db.executemany(
                "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)",
                [(k, json.dumps(v)) for k, v in values.items()],
            )

    def meta(self) -> dict[str, Any]:
        """The tournament's description as recorded."""
        return {k: json.loads(v) for k, v in self.db.execute("SELECT key, value FROM meta")}

    def bot_commands(self) -> dict[str, str]:
        """Each bot's command as recorded (:meth:`set_bots`), by name."""
        return dict(self.db.execute("SELECT name, cmd FROM bots ORDER BY name").fetchall())

    def set_bots(self, bots: dict[str, str]) -> None:
        """Record each bot's command."""
        with self._writing():
            self.db.executemany(
                "INSERT OR REPLACE INTO bots(name, cmd) VALUES (?, ?)", list(bots.items())
            )

    def stored_places(self, after: int = 0) -> list[StoredPlace]:
        """Every stored game's place, bots and identity hash, in the order they were
        stored; with ``after``, only those of a greater id."""
        seats: dict[int, list[str]] = {}
        for game_id, bot in self.db.execute(
            "SELECT game_id, bot FROM seats WHERE game_id > ? ORDER BY game_id, seat", (after,)
        ):
            seats.setdefault(game_id, []).append(bot)
        return [
            StoredPlace(key, order, round_, group, tuple(seats.get(game_id, ())), digest)
            for game_id, key, order, round_, group, digest in self.db.execute(
                "SELECT id, key, ord, round, grp, identity_hash FROM games WHERE id > ?"
                " ORDER BY id",
                (after,),
            )
        ]

    def last_game_id(self) -> int:
        """The greatest id of a stored game (0: none)."""
        return int(self.db.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()[0])

    def resume_check(self) -> ResumeCheck | None:
        """What the last run's resume found (:class:`ResumeCheck`), if it said."""
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (RESUME_CHECK,)).fetchone()
        try:
            found = json.loads(row[0]) if row else None
            return None if found is None else ResumeCheck(**found)
        except (ValueError, TypeError):
            return None  # written by hand or damaged: checked again from the start

    def checked_through(self, key: str) -> int:
        """The id up to which the last run's check still holds for a run under ``key``
        (0: none, another key's, or games it reached deleted since)."""
        check = self.resume_check()
        if check is None or check.key != key:
            return 0
        later = self.db.execute(
            "SELECT COUNT(*) FROM current_games c JOIN games g ON g.key = c.key WHERE g.id > ?",
            (check.through,),
        )
        now = (self._games_through(check.through), self.count_current() - later.fetchone()[0])
        return check.through if now == (check.games, check.current) else 0

    def _games_through(self, game_id: int) -> int:
        """How many stored games have an id up to ``game_id``."""
        found = self.db.execute("SELECT COUNT(*) FROM games WHERE id <= ?", (game_id,))
        return int(found.fetchone()[0])

    def _set_check(self, check: ResumeCheck | None) -> None:
        """Record (or forget) the resume check with its counts, in the caller's
        transaction."""
        value = None
        if check is not None:
            games = self._games_through(check.through)
            value = asdict(ResumeCheck(check.key, check.through, games, self.count_current()))
        self.db.execute(
            "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)",
            (RESUME_CHECK, json.dumps(value)),
        )

    def keep_check(self, key: str) -> None:
        """The run holding this folder under ``key`` stored its games: every game stored
        since its check is current as the run stored it, so the check now reaches them."""
        with self._writing():  # (the batch's games committed first, its thread held off)
            check = self.resume_check()
            if check is not None and check.key == key:
                self._set_check(ResumeCheck(key, self.last_game_id()))

    def count_games(self) -> int:
        """How many games are stored (current or not)."""
        return int(self.db.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def left_out(self) -> int:
        """How many stored games the tournament file did not define at its last run: what
        the leaderboard, ``arena list`` and the report leave out unless ``--all``."""
        # Every row of current_games is a stored game of that identity: no join needed.
        return self.count_games() - self.count_current()

    def stored_identity(self, key: str) -> dict[str, Any]:
        """The full identity a stored game was played with."""
        row = self.db.execute("SELECT identity FROM games WHERE key = ?", (key,)).fetchone()
        return dict(json.loads(row[0])) if row else {}

    def remove_games(self, keys: Sequence[str]) -> None:
        """Delete stored games (database rows and game folders) so their keys can be played
        again: what ``arena run --update`` does to games a bot's edit made stale."""
        with self._writing():
            for key in keys:
                row = self.db.execute("SELECT id FROM games WHERE key = ?", (key,)).fetchone()
                if row is None:
                    continue
                self.db.execute("DELETE FROM seats WHERE game_id = ?", (row[0],))
                self.db.execute("DELETE FROM games WHERE id = ?", (row[0],))
                self.db.execute("DELETE FROM current_games WHERE key = ?", (key,))
            kept.invalidate(self.db)
        for key in keys:
            shutil.rmtree(self.game_dir(key), ignore_errors=True)

    def set_current(self, games: list[CurrentGame], check: ResumeCheck | None = None) -> None:
        """Record which stored games the tournament file now defines (replacing the list),
        and the ``check`` that found them; :meth:`add_game` adds every game played after."""
        rows = [(g.key, g.ord, g.round, g.group, g.identity_hash) for g in games]
        with self._writing():
            self.db.execute("DELETE FROM current_games")
            self.db.executemany(
                "INSERT INTO current_games(key, ord, round, grp, identity_hash)"
                " VALUES (?, ?, ?, ?, ?)",
                rows,
            )
            kept.on_set_current(self.db, rows)
            self._set_check(check)

    def update_current(self, after: int, games: list[CurrentGame], check: ResumeCheck) -> None:
        """Record which of the games stored with an id above ``after`` the file now
        defines (``games``; the others leave the list), the list being right for the games
        before them (:class:`ResumeCheck`); the kept ratings hold unless the list changed."""
        rows = {(g.key, g.ord, g.round, g.group, g.identity_hash) for g in games}
        with self._writing():
            listed = set(
                self.db.execute(
                    "SELECT c.key, c.ord, c.round, c.grp, c.identity_hash FROM current_games c"
                    " JOIN games g ON g.key = c.key WHERE g.id > ?",
                    (after,),
                )
            )
            if listed != rows:
                self.db.execute(
                    "DELETE FROM current_games WHERE key IN (SELECT key FROM games WHERE id > ?)",
                    (after,),
                )
                self.db.executemany(
                    "INSERT OR REPLACE INTO current_games(key, ord, round, grp, identity_hash)"
                    " VALUES (?, ?, ?, ?, ?)",
                    sorted(rows),
                )
                kept.invalidate(self.db)
            self._set_check(check)

    def done_games(self) -> DoneGames:
        """The current games as a fixed plan resumes them (:class:`DoneGames`): read in
        the schedule's order only when they leave a gap (a stop while games ran)."""
        count, first, last = self.db.execute(
            "SELECT COUNT(*), MIN(ord), MAX(ord) FROM current_games"
        ).fetchone()
        if count == 0 or (first == 0 and last == count - 1):  # (orders are distinct)
            return DoneGames(count, count, frozenset())
        start = 0
        for (order,) in self.db.execute("SELECT ord FROM current_games ORDER BY round, ord"):
            if order != start:
                break
            start += 1
        later = self.db.execute("SELECT key FROM current_games WHERE ord >= ?", (start,))
        return DoneGames(count, start, frozenset(key for (key,) in later))

    def add_game(
        self,
        key: str,
        order: int,
        round_: int,
        group: str,
        record: GameRecord,
        identity: dict[str, Any],
        folder: Path | None = None,
    ) -> int:
        """Store a finished game, its identity and its seats in one transaction, as a game
        of the current tournament; return its id. ``folder`` holds its files (default
        :meth:`game_dir`)."""
        with self._game_rows():
            game_id, row, replaced = self._insert(
                key, order, round_, group, record, identity, folder
            )
            kept.on_game_stored(self.db, game_id, row, replaced)
        return game_id

    def add_games(self, games: Iterable[NewGame]) -> list[int]:
        """Store many finished games (each :meth:`add_game`'s arguments) in one transaction,
        the kept counts updated once for all of them (an import, a benchmark's store: a
        hundred thousand games in a minute); return their ids."""
        ids: list[int] = []
        rows: list[tuple[str, int, int, str, str]] = []
        replaced = False
        with self._writing():
            for game in games:
                game_id, row, again = self._insert(*game)
                ids.append(game_id)
                rows.append(row)
                replaced = replaced or again
            if ids:
                kept.on_games_stored(self.db, ids, rows, replaced)
        return ids

    def _insert(
        self,
        key: str,
        order: int,
        round_: int,
        group: str,
        record: GameRecord,
        identity: dict[str, Any],
        folder: Path | None = None,
    ) -> tuple[int, tuple[str, int, int, str, str], bool]:
        """Write a game's rows (in the caller's transaction): its id, its current-games
        row, and whether its key was current with another game."""
        digest = identity_hash(identity)
        # (a string, not paths: this runs for every game, and paths cost more than the rows)
        where = (
            f"games/{game_slug(key)}" if folder is None else str(folder.relative_to(self.output))
        )
        replaced = self.db.execute("SELECT 1 FROM current_games WHERE key = ?", (key,)).fetchone()
        self.db.execute(
            "INSERT OR REPLACE INTO current_games(key, ord, round, grp, identity_hash)"
            " VALUES (?, ?, ?, ?, ?)",
            (key, order, round_, group, digest),
        )
        cur = self.db.execute(
            "INSERT INTO games(key, ord, round, grp, game, seed, settings, players, reason,"
            " turns, steps, duration_ms, dir, finished_at, identity, identity_hash)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                key,
                order,
                round_,
                group,
                record.game,
                record.seed,
                json.dumps(record.settings, sort_keys=True),
                len(record.seats),
                safe_text(record.reason),
                record.turns,
                record.steps,
                record.duration_ms,
                where,
                time.strftime("%Y-%m-%dT%H:%M:%S"),
                canonical(identity),
                digest,
            ),
        )
        game_id = int(cur.lastrowid or 0)
        self.db.executemany(
            "INSERT INTO seats(game_id, seat, bot, rank, score, forfeit, detail, raw,"
            " moves, total_ms, max_ms, stderr, late, turn_ms)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    game_id, i, s.bot, s.rank, s.score, s.forfeit, safe_text(s.detail),
                    safe_text(s.raw), s.moves, s.total_ms, s.max_ms, safe_text(s.stderr),
                    s.late, pack_times(s.turn_ms),
                )
                for i, s in enumerate(record.seats)
            ],
        )  # fmt: skip
        return game_id, (key, order, round_, group, digest), replaced is not None

    def games(self, current_only: bool = True) -> list[StoredGame]:
        """Stored games, seats included, in the order of the schedule.

        With ``current_only`` (the leaderboard's view) only the games the tournament file
        defined at its last run, with the identity it gave them, ordered and grouped as its
        schedule places them; otherwise every stored game in the order it was played.
        """
        seats: dict[int, list[SeatRecord]] = {}
        late = "late" if self._timed else "0"
        for row in self.db.execute(
            "SELECT game_id, bot, rank, score, forfeit, detail, raw, moves, total_ms, max_ms,"
            f" stderr, {late} FROM seats ORDER BY game_id, seat"
        ):
            seats.setdefault(row[0], []).append(SeatRecord(*row[1:]))
        if current_only:
            query = (
                "SELECT g.id, g.key, s.ord, s.round, s.grp, g.game, g.seed, g.reason, g.turns,"
                " g.duration_ms, g.dir, g.settings FROM games g JOIN current_games s"
                " ON s.key = g.key AND s.identity_hash = g.identity_hash"
                " ORDER BY s.round, s.ord, g.id"
            )
        else:
            query = (
                "SELECT id, key, ord, round, grp, game, seed, reason, turns, duration_ms, dir,"
                " settings FROM games ORDER BY id"
            )
        return [
            StoredGame(
                id=row[0], key=row[1], ord=row[2], round=row[3], group=row[4], game=row[5],
                seed=row[6], reason=row[7], turns=row[8], duration_ms=row[9], dir=row[10],
                seats=tuple(seats.get(row[0], [])), settings=json.loads(row[11]),
            )
            for row in self.db.execute(query)
        ]  # fmt: skip

    def rating_history(self, current_only: bool = True) -> history.Points:
        """Each bot's TrueSkill mu over the games the tournament file defined at its last
        run (:mod:`arena.results.history`), from the kept history (bounded); of
        ``current_only=False`` (every stored game), or when nothing is kept, from the games."""
        meta = self.meta()
        bots = list(meta.get("bots", []))
        if current_only and self._own_schema():
            with self._kept_lock():
                points = kept.read_history(self.db, bots)  # (without the counts)
            if points is not None:
                return points
        found = self.kept(bots, with_history=True) if current_only else None
        if found is not None and found.history is not None:
            return found.history
        games = self.games(current_only)
        bots += sorted({s.bot for g in games for s in g.seats} - set(bots))
        return history.from_events(bots, rating.events(games, meta.get("variant_keys", [])))

    def response_times(self, current_only: bool = True) -> dict[str, array[float]]:
        """Each bot's per-turn times (ms) over the games the tournament file defined at its
        last run (or every stored game); bots of games stored without times (an older
        arena) get none."""
        out: dict[str, array[float]] = {}
        if not self._timed:
            return out
        current = (
            " JOIN current_games c ON c.key = g.key AND c.identity_hash = g.identity_hash"
            if current_only
            else ""
        )
        for bot, blob in self.db.execute(
            "SELECT s.bot, s.turn_ms FROM seats s JOIN games g ON g.id = s.game_id"
            f"{current} ORDER BY g.id, s.seat"
        ):
            out.setdefault(bot, array("f")).extend(unpack_times(blob))
        return out

    def kept(self, bots: Sequence[str], with_history: bool = False) -> kept.Kept | None:
        """The ratings and counts kept as games were stored (:mod:`arena.results.kept`),
        built now when they are missing or stale and this folder can be written; ``None``
        when they cannot be (then read the games), or the file is of an older schema.
        ``with_history``: the rating history too (:attr:`Kept.history`)."""
        if not self._own_schema():
            return None
        with self._kept_lock():
            found = kept.read(self.db, bots, with_history)
            if found is not None or not self._can_build():
                return found
            if self._writer:  # this connection writes (a run): build in it
                with self._writing():
                    kept.rebuild(self.db)
                return kept.read(self.db, bots, with_history)
        return self._build_kept_as_reader(bots, with_history)

    def _kept_lock(self) -> AbstractContextManager[Any]:
        """What keeps the batch's commit thread off the kept tables while they are read."""
        return self._batch.lock if self._batch is not None else nullcontext()

    def keep_fitted(
        self, key: str, fitted: rating.Fitted, percentiles: Percentiles | None = None
    ) -> None:
        """Keep the fitted ratings of the kept counts of ``key``, and the bots'
        response-time ``percentiles`` (:func:`kept.keep_fitted`)
        when this folder can be written now: by a run in its own connection, by a reader
        only while no run holds the folder (else the next read fits them again)."""
        if not self._own_schema() or not self._can_build():
            return
        if self._writer:
            with self._kept_lock(), self._writing():
                kept.keep_fitted(self.db, key, fitted, percentiles)
            return
        from arena.results.lock import lock_output

        try:
            held = lock_output(self.output)
        except ConfigError:
            return
        try:
            db = sqlite3.connect(self.path, timeout=1)
            try:
                with db:
                    kept.keep_fitted(db, key, fitted, percentiles)
            finally:
                db.close()
        except sqlite3.Error:
            pass  # read-only, busy: fitted again next time
        finally:
            held.release()

    def _build_kept_as_reader(
        self, bots: Sequence[str], with_history: bool = False
    ) -> KeptRatings | None:
        """Build the kept tables from a reader (``arena leaderboard``, ``arena serve``) only
        while no run holds the folder: the rebuild is one write transaction (minutes on a
        million games) that would make a running ``arena run`` fail as "database is
        locked". The folder's lock is held meanwhile, so no run starts; while a run holds
        it, ``None``: the caller reads the games (slower, never in the run's way)."""
        from arena.results.lock import lock_output

        try:
            held = lock_output(self.output)
        except ConfigError:
            return None  # a run is writing (it keeps the tables itself), or no lock here
        try:
            db = sqlite3.connect(self.path, timeout=10)
        except sqlite3.Error:
            held.release()
            return None
        try:
            with db:
                kept.ensure(db)
                if not kept.is_valid(db):
                    kept.rebuild(db)
            return kept.read(db, bots, with_history)
        except sqlite3.Error:
            return None  # read-only folder, a busy writer...: read the games instead
        finally:
            db.close()
            held.release()

    def _own_schema(self) -> bool:
        """Whether the file is of this arena's schema (an older one is read as it is)."""
        return int(self.db.execute("PRAGMA user_version").fetchone()[0]) == SCHEMA_VERSION

    def _can_build(self) -> bool:
        """Whether this arena may write the kept tables into the file (a folder it may
        write)."""
        import os

        return os.access(self.output, os.W_OK)

    def game(self, game_id: int) -> StoredGame | None:
        """One stored game by id (current or not): one row by its key."""
        columns = GAME_COLUMNS.format(places="g.ord, g.round, g.grp")
        rows = self.db.execute(f"SELECT {columns} FROM games g WHERE g.id = ?", (game_id,))
        games = self._with_seats(rows.fetchall())
        return games[0] if games else None

    def games_page(
        self,
        flt: GameFilter | None = None,
        order: str = "schedule",
        limit: int | None = None,
        offset: int = 0,
        current_only: bool = True,
    ) -> GamesPage:
        """The stored games passing ``flt`` (:class:`~arena.results.queries.GameFilter`),
        sorted by ``order`` (:data:`~arena.results.queries.ORDERS`), ``limit`` of them
        (``None``: all) from ``offset``, seats included, with the count of games passing and
        of games listed (``current_only``: those the tournament file defines, as the
        leaderboard; else every stored game).

        Filters, order and page are one SQL query on indexes: a page costs the same in a
        store of a thousand games and of a million (the counts walk an index).
        """
        flt = flt or GameFilter()
        select, count, params = page_query(flt, order, current_only)
        rows = self.db.execute(
            select + " LIMIT ? OFFSET ?", [*params, -1 if limit is None else limit, offset]
        ).fetchall()
        # Every row of current_games is a stored game of that identity (add_game and
        # set_current write only those): counted without the join. When every stored game
        # is current, the filter's count needs no join either.
        stored = self.count_games()
        total = self.count_current() if current_only else stored
        if flt == GameFilter():
            matching = total
        else:
            if current_only and total == stored:
                _, count, params = page_query(flt, order, current_only=False)
            matching = int(self.db.execute(count, params).fetchone()[0])
        return GamesPage(self._with_seats(rows), matching, total)

    def games_by_id(
        self,
        flt: GameFilter | None = None,
        before: int | None = None,
        after: int | None = None,
        limit: int = 50,
        current_only: bool = False,
    ) -> tuple[list[StoredGame], bool]:
        """A keyset page of the games passing ``flt``, newest first: the ``limit`` newest
        with an id below ``before``, or (going back to newer games) the ``limit`` just
        above ``after``; and whether more games pass beyond the page's far end (older
        ones, or with ``after`` newer ones). The query of :meth:`games_page`, counting
        nothing: a page of any filter costs about the same on a million games."""
        flt = flt or GameFilter()
        order, past = ("oldest", after) if after is not None else ("newest", before)
        select, _, params = page_query(flt, order, current_only, past)
        rows = self.db.execute(select + " LIMIT ?", [*params, limit + 1]).fetchall()
        more = len(rows) > limit
        rows = rows[:limit]
        if after is not None:
            rows.reverse()
        return self._with_seats(rows), more

    def seed_points(self, current_only: bool = True) -> list[tuple[int, str, float, int]]:
        """``(seed, bot, points, opponents met)`` per seed and bot of the stored games
        (:data:`~arena.results.queries.SEED_POINTS`): how each seed split the bots."""
        sql = SEED_POINTS.format(current=CURRENT_JOIN if current_only else "")
        return [(int(s), str(b), float(p), int(n)) for s, b, p, n in self.db.execute(sql)]

    def count_current(self) -> int:
        """How many stored games the tournament file defined at its last run."""
        return int(self.db.execute("SELECT COUNT(*) FROM current_games").fetchone()[0])

    def _with_seats(self, rows: list[Any]) -> list[StoredGame]:
        """Stored games of the rows of a :data:`~arena.results.queries.GAME_COLUMNS` query,
        their seats read by id."""
        seats: dict[int, list[SeatRecord]] = {}
        late = "late" if self._timed else "0"
        columns = "game_id, bot, rank, score, forfeit, detail, raw, moves, total_ms, max_ms"
        for start in range(0, len(rows), 500):  # within SQLite's limit of parameters
            chunk = [row[0] for row in rows[start : start + 500]]
            for row in self.db.execute(
                f"SELECT {columns}, stderr, {late} FROM seats"
                f" WHERE game_id IN ({', '.join('?' * len(chunk))}) ORDER BY game_id, seat",
                chunk,
            ):
                seats.setdefault(row[0], []).append(SeatRecord(*row[1:]))
        return [
            StoredGame(
                id=row[0], key=row[1], ord=row[2], round=row[3], group=row[4], game=row[5],
                seed=row[6], reason=row[7], turns=row[8], duration_ms=row[9], dir=row[10],
                seats=tuple(seats.get(row[0], [])), settings=json.loads(row[11]),
            )
            for row in rows
        ]  # fmt: skip

    def forfeit_counts(self) -> dict[str, dict[str, int]]:
        """Per bot, its forfeits by reason over the games the tournament file defines
        (counted in SQL, on the forfeits' index)."""
        out: dict[str, dict[str, int]] = {}
        for bot, reason, count in self.db.execute(
            "SELECT s.bot, s.forfeit, COUNT(*) FROM seats s JOIN games g ON g.id = s.game_id"
            " JOIN current_games c ON c.key = g.key AND c.identity_hash = g.identity_hash"
            " WHERE s.forfeit IS NOT NULL GROUP BY s.bot, s.forfeit"
        ):
            out.setdefault(bot, {})[reason] = int(count)
        return out

    def has_bot(self, bot: str) -> bool:
        """Whether a bot played any stored game (an index lookup)."""
        found = self.db.execute("SELECT 1 FROM seats WHERE bot = ? LIMIT 1", (bot,))
        return found.fetchone() is not None

    def stored_bots(self) -> list[str]:
        """Every bot of the stored games, sorted (a walk of the bots' index)."""
        return [row[0] for row in self.db.execute("SELECT DISTINCT bot FROM seats ORDER BY bot")]


def _stamp(path: Path) -> dict[str, int] | None:
    """A file's size, modification time and inode (``None``: missing)."""
    try:
        found = path.stat()
    except OSError:
        return None
    return {"size": found.st_size, "mtime_ns": found.st_mtime_ns, "inode": found.st_ino}


def _add_indexes(path: Path, db: sqlite3.Connection) -> None:
    """Make the listings' :data:`~arena.results.queries.INDEXES` in a store an older arena
    wrote (whose schema this one reads), once, through a short-lived writable connection;
    a folder that cannot be written, or a store busy with a run, is read without them."""
    names = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    wanted = [s for s in INDEXES if s.split(" EXISTS ")[1].split()[0] not in names]
    if not wanted:
        return
    try:
        writer = sqlite3.connect(path, timeout=0.1)
    except sqlite3.Error:
        return
    try:
        with writer:
            for statement in wanted:
                writer.execute(statement)
    except sqlite3.Error:
        pass  # read-only, or busy: the listings work without, only slower
    finally:
        writer.close()


@contextmanager
def _after_batch(batch: Batch, db: sqlite3.Connection) -> Iterator[None]:
    """``with db:`` once the games ``batch`` holds are committed (a failure then undoes
    only this transaction), holding its lock (its timer waits)."""
    with batch.lock:
        batch.commit()
        with db:
            yield


def _check_schema(db: sqlite3.Connection, path: Path, output: Path, create: bool) -> int:
    """The schema version of the file at ``path`` (0 for a new one), if this arena reads
    it: every table of its schema there (a file missing one is refused, never repaired)."""
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "games" not in tables:
        if create and not tables:
            return 0
        raise ConfigError(f"{path}: not an arena database (no games table)")
    if version < IDENTITY_SCHEMA:
        raise ConfigError(
            f"{path}: written by an older arena, without game identities: "
            f"run the tournament again with --fresh to start over in {output}"
        )
    if version > SCHEMA_VERSION:
        raise ConfigError(
            f"{path}: written by a newer arena (schema {version}, this one reads "
            f"{SCHEMA_VERSION}): upgrade arena"
        )
    missing = [name for name in TABLES if name not in tables]
    if missing:
        raise ConfigError(
            f"{path}: damaged arena database (no {missing[0]} table); keep a copy, then "
            "run the tournament with --fresh or another output folder"
        )
    return version


OPENED: list[Path] = []
"""Database files this process opened, to name one in :func:`database_error`."""


def _read_only(path: Path) -> sqlite3.Connection:
    """A read-only connection (``mode=ro``): reading never writes, and works where this user
    cannot write (another user's folder, a read-only mount). A WAL file whose ``-shm``
    cannot be made there is read as immutable."""
    uri = "file:" + urllib.parse.quote(str(path.absolute()))
    db = sqlite3.connect(f"{uri}?mode=ro", uri=True)
    try:
        db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        return db
    except sqlite3.OperationalError:  # e.g. no -shm could be made here
        db.close()
    except sqlite3.DatabaseError:  # not a database at all: the schema check says so
        return db
    return sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True)


def database_error(exc: sqlite3.DatabaseError) -> ArenaError:
    """One line for an SQLite error met while reading or writing a store (a damaged page,
    a file changed underneath), naming the file."""
    where = OPENED[-1] if OPENED else DB_NAME
    if "disk is full" in str(exc):
        return OutputError(f"{where}: {exc}: make room, then run the same command again")
    return ConfigError(
        f"{where}: damaged or unreadable arena database ({exc}); keep a copy, then run the "
        "tournament with --fresh or another output folder"
    )


def left_out_note(count: int) -> str:
    """The line every view adds when it leaves stored games out (empty when none)."""
    if count <= 0:
        return ""
    games = "1 stored game is" if count == 1 else f"{count} stored games are"
    return (
        f"{games} left out: not in the tournament as its file defined it at the last run "
        "(--all shows every stored game)"
    )


def make_output_folder(output: Path, where: str) -> None:
    """Create an output folder (and its parents); :class:`ConfigError` naming ``where``
    (the key or option that gave it) when it is a file or cannot be created."""
    if output.exists() and not output.is_dir():
        raise ConfigError(f"{where}: {str(output)!r} is a file, not a folder")
    try:
        output.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        why = exc.strerror or str(exc)
        base = _nearest_existing(output)
        if exc.errno == errno.ENOENT and base is not None and base.is_dir():
            # Every missing folder was to be made, so the one that exists refused it.
            why = f"{base} does not take new folders (a special file system, not one for files)"
        raise ConfigError(f"{where}: cannot create the folder {str(output)!r}: {why}") from None


def _nearest_existing(path: Path) -> Path | None:
    """The deepest folder of ``path``'s own and its parents that exists (None: none)."""
    for folder in (path.absolute(), *path.absolute().parents):
        if folder.exists():
            return folder
    return None


def clear_output(output: Path) -> None:
    """Delete what arena wrote in an output folder (``arena.sqlite`` and ``games/``) to start
    over; anything else in the folder is left alone."""
    for name in (DB_NAME, f"{DB_NAME}-wal", f"{DB_NAME}-shm", f"{DB_NAME}-journal"):
        (output / name).unlink(missing_ok=True)
    shutil.rmtree(output / "games", ignore_errors=True)


def open_existing(output: Path) -> Store:
    """Open the store of an output folder that must already hold one (or its
    ``arena.sqlite`` itself); :class:`ConfigError` otherwise."""
    if output.is_file() and output.name == DB_NAME:
        output = output.parent
    elif output.is_file():
        raise ConfigError(f"{output}: a file, not an arena output folder")
    if not (output / DB_NAME).is_file():
        raise ConfigError(f"{output}: no {DB_NAME} here (is it an arena output folder?)")
    return Store(output, create=False)
