"""``arena serve`` beside a run that is making its database: the first page of a served
tournament file is asked for while the run creates ``arena.sqlite``. A file without its
first table is "no games yet", never an error page; a store refused for a real reason
still says why, and the page's league form never turns that into a server error."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from arena.errors import ConfigError
from arena.results import kept
from arena.results.store import DB_NAME, Store
from arena.web.folder import Folder


def test_a_database_file_without_tables_is_a_store_being_made(tmp_path: Path) -> None:
    sqlite3.connect(tmp_path / DB_NAME).close()  # what a run's first instant leaves
    folder = Folder(tmp_path)
    assert folder.has_store
    assert folder.store() is None
    assert folder.is_league() is False


def test_a_damaged_store_is_still_refused_and_is_no_league(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / DB_NAME)
    db.execute("CREATE TABLE unrelated (x)")
    db.commit()
    db.close()
    folder = Folder(tmp_path)
    with pytest.raises(ConfigError, match="not an arena database"):
        folder.store()
    assert folder.is_league() is False  # the error page renders (it asks this)


def test_a_store_is_created_in_one_transaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A creation broken off after its tables leaves none behind: a reader never sees
    tables without their schema version (read as a store of an older arena)."""

    def broken(db: sqlite3.Connection) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(kept, "ensure", broken)
    with pytest.raises(ConfigError):
        Store(tmp_path)
    db = sqlite3.connect(f"file:{tmp_path / DB_NAME}?mode=ro", uri=True)
    try:
        assert db.execute("SELECT name FROM sqlite_master").fetchall() == []
    finally:
        db.close()
    assert Folder(tmp_path).store() is None
    monkeypatch.undo()
    Store(tmp_path).close()  # the next run makes it whole
    assert Folder(tmp_path).store() is not None
