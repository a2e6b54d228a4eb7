"""Commits that keep up with the games: several stored games in one SQLite transaction.

A commit waits for the disk (a few ms); games of small bots end faster than that. While
batching (:meth:`arena.results.store.Store.batch`), each game is written inside its own
savepoint of one open transaction, and the transaction is committed once ``max_games``
games wait, or ``max_delay_s`` after the first of them, by a timer thread, whichever
comes first (and when the store closes). A game is still stored whole or not at all: its
savepoint is rolled back alone when its rows fail. A kill loses at most the games of the
open transaction, whose files are written again when a resumed run plays them again (a
game is in the database only once committed, never without its files).

Reads through the same connection see the waiting games; other processes see them after
the commit, at most ``max_delay_s`` later.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager


class Batch:
    """The open transaction of a store's connection ``db``, committed in batches.

    Every use of ``db`` while batching holds :attr:`lock` (the store's methods do).
    """

    def __init__(self, db: sqlite3.Connection, max_games: int, max_delay_s: float) -> None:
        self.db = db
        self.max_games = max_games
        self.max_delay_s = max_delay_s
        self.lock = threading.RLock()
        self.waiting = 0  # games written since the last commit
        self.since = 0.0  # monotonic time of the first of them
        self.error: sqlite3.Error | None = None  # a commit of the timer's that failed
        self.closed = False
        self._wake = threading.Condition(self.lock)
        self._timer = threading.Thread(target=self._commit_late, daemon=True, name="arena-commit")
        self._timer.start()

    @contextmanager
    def game(self) -> Iterator[None]:
        """Write one game's rows inside (under the lock): in a savepoint of the open
        transaction, committed with the batch; its rows alone undone if they fail."""
        with self.lock:
            self.raise_error()
            if not self.db.in_transaction:
                self.db.execute("BEGIN")
            self.db.execute("SAVEPOINT game")
            try:
                yield
            except BaseException:
                self.db.execute("ROLLBACK TO game")
                self.db.execute("RELEASE game")
                raise
            self.db.execute("RELEASE game")
            self.waiting += 1
            if self.waiting == 1:
                self.since = time.monotonic()
                self._wake.notify()
            if self.waiting >= self.max_games:
                self.commit()

    def commit(self) -> None:
        """Commit the waiting games now (under the lock)."""
        with self.lock:
            self.raise_error()
            if self.db.in_transaction:
                self.db.commit()
            self.waiting = 0

    def raise_error(self) -> None:
        """Raise the error of a commit the timer could not make (the games it held are
        not stored: a resumed run plays them again)."""
        if self.error is not None:
            error, self.error = self.error, None
            raise error

    def close(self) -> None:
        """Commit what waits and stop the timer."""
        with self.lock:
            self.closed = True
            self._wake.notify()
        self._timer.join()
        self.commit()

    def _commit_late(self) -> None:
        """The timer: commit the waiting games ``max_delay_s`` after the first of them."""
        with self.lock:
            while not self.closed:
                if not self.waiting:
                    self._wake.wait()
                    continue
                left = self.since + self.max_delay_s - time.monotonic()
                if left > 0:
                    self._wake.wait(left)
                    continue
                try:
                    self.db.commit()
                except sqlite3.Error as exc:
                    self.error = exc
                    self.db.rollback()
                self.waiting = 0
