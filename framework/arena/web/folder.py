"""The output folder as the web app reads it: a read-only store per thread, the store's
version (what tells a page it changed), and the run's state.

The database is opened ``mode=ro`` (:class:`arena.results.store.Store` with
``create=False``): in WAL mode a reader never blocks the run writing it, and the run's
lock (``.arena.lock``, an ``flock``) is never taken here, so nothing here blocks the run.
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.errors import ArenaError
from arena.results.status import STATUS_NAME, read_status
from arena.results.store import DB_NAME, Store
from arena.tournament.control import read_control
from arena.tournament.steering import takes_bots

STATES = ("running", "stopped", "done")


@dataclass(frozen=True)
class Version:
    """What changes when a game is stored: the highest game id and the number of games."""

    last_id: int = 0
    games: int = 0


@dataclass(frozen=True)
class RunState:
    """The run's state as a page shows it (``unknown`` without a status file)."""

    state: str
    games_done: int
    games_total: int | None
    eta_s: float | None
    stalls_replayed: int = 0
    given_up: int = 0
    failed: int = 0
    paused: bool = False
    waiting_for_cores: str | None = None  # what the next game waits for (the core ledger)

    def to_dict(self) -> dict[str, Any]:
        """The JSON the event stream sends."""
        return {
            "state": self.state,
            "games_done": self.games_done,
            "games_total": self.games_total,
            "eta_s": self.eta_s,
            "stalls_replayed": self.stalls_replayed,
            "given_up": self.given_up,
            "failed": self.failed,
            "paused": self.paused,
            "waiting_for_cores": self.waiting_for_cores,
        }


class Folder:
    """One output folder, read by many threads (each with its own read-only connection)."""

    def __init__(self, output: Path) -> None:
        self.output = output
        self._local = threading.local()

    @property
    def has_store(self) -> bool:
        """Whether the run has created its database yet."""
        return (self.output / DB_NAME).is_file()

    def store(self) -> Store | None:
        """This thread's read-only store (``None`` before the run made one, or while it
        is making it: a file without its first table yet)."""
        store: Store | None = getattr(self._local, "store", None)
        if store is None:
            if not self.has_store:
                return None
            try:
                store = Store(self.output, create=False)
            except ArenaError:
                if self._being_made():
                    return None
                raise
            self._local.store = store
        return store

    def _being_made(self) -> bool:
        """Whether the database file holds no table yet (a run has just created it)."""
        try:
            db = sqlite3.connect(f"file:{self.output / DB_NAME}?mode=ro", uri=True)
            try:
                return db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] == 0
            finally:
                db.close()
        except sqlite3.Error:
            return False

    def is_league(self) -> bool:
        """Whether the folder holds a league (a format that takes bots while it runs);
        not one while its store cannot be read (the page then says why)."""
        try:
            store = self.store()
            if store is None:
                return False
            fmt = store.meta().get("format")
        except (ArenaError, sqlite3.Error, ValueError):  # damaged: not a league to steer
            return False
        return fmt is not None and takes_bots(str(fmt))

    def db(self) -> sqlite3.Connection | None:
        """This thread's read-only connection."""
        store = self.store()
        return None if store is None else store.db

    def version(self) -> Version:
        """The store's version: two index lookups, cheap enough to poll."""
        db = self.db()
        if db is None:
            return Version()
        (last,) = db.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()
        (count,) = db.execute("SELECT COUNT(*) FROM current_games").fetchone()
        return Version(int(last), int(count))

    def status_text(self) -> str:
        """The raw status and control files (what the watcher compares between polls)."""
        parts = []
        for name in (STATUS_NAME, "control.json"):
            try:
                parts.append((self.output / name).read_text("utf-8", errors="replace"))
            except OSError:
                parts.append("")
        return "\0".join(parts)

    def run_state(self, games: int, child: str | None = None) -> RunState:
        """The run's state from ``status.json``; a "running" whose process is gone reads
        as stopped. Without the file: the state of the run this server started
        (``child``), else ``unknown``, with the store's count of games."""
        paused = read_control(self.output).paused
        status = read_status(self.output)  # a "running" whose process is gone: "stopped"
        if status is None:
            state = child or "unknown"
            return RunState(state, games, None, None, paused=paused)
        state = str(status.get("state"))
        if state not in STATES:
            state = "unknown"
        if child == "running":  # started again: the file is the last run's until it writes
            state = "running"
        return RunState(
            state,
            _int(status.get("games_done"), games) or 0,
            _int(status.get("games_total"), None),
            _float(status.get("eta_s")),
            _int(status.get("stalls_replayed"), 0) or 0,
            _int(status.get("given_up"), 0) or 0,
            _int(status.get("failed"), 0) or 0,
            paused,
            _text(status.get("waiting_for_cores")),
        )


def _int(value: Any, default: int | None) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _text(value: Any) -> str | None:
    return value[:300] if isinstance(value, str) else None


def _float(value: Any) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return None
