"""An ``arena.sqlite`` arena refuses is left byte for byte as it was (no table re-created,
not even the two header bytes a writing connection changes), and a machine's fault (a full
disk) is not called "not an arena database"."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from support import REPO, run_lines

TOURNAMENT = """\
name: refused
game: stc
games: {games}
seed: 5
sandbox: none
concurrency: 1
settings:
  max_turns: {turns}
bots:
  - name: a
    cmd: {python} {repo}/bots/stc/random_bot.py
  - name: b
    cmd: {python} {repo}/bots/stc/greedy.py
output: {out}
"""


def write_tournament(tmp_path: Path, out: Path, games: int = 2, turns: int = 3) -> Path:
    path = tmp_path / "t.yaml"
    text = TOURNAMENT.format(games=games, turns=turns, python=sys.executable, repo=REPO, out=out)
    path.write_text(text)
    return path


def arena(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    tmp = tmp_path / "tmp"
    tmp.mkdir(exist_ok=True)
    return subprocess.run(
        [sys.executable, "-m", "arena", *args],
        capture_output=True, text=True, cwd=REPO, timeout=300,
        env={**os.environ, "TMPDIR": str(tmp)},
    )  # fmt: skip


def errors(result: subprocess.CompletedProcess[str]) -> list[str]:
    return run_lines(result.stderr)


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The bytes of a whole arena.sqlite of two games, checkpointed."""
    root = tmp_path_factory.mktemp("stored")
    path = write_tournament(root, root / "out")
    result = arena(root, "run", str(path), "--no-progress")
    assert result.returncode == 0, result.stderr
    db = sqlite3.connect(root / "out" / "arena.sqlite")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("PRAGMA journal_mode=DELETE")
    db.close()
    return (root / "out" / "arena.sqlite").read_bytes()


def _place(tmp_path: Path, data: bytes) -> tuple[Path, Path]:
    out = tmp_path / "out"
    out.mkdir()
    (out / "arena.sqlite").write_bytes(data)
    return write_tournament(tmp_path, out), out / "arena.sqlite"


@pytest.mark.parametrize("table", ["current_games", "seats", "meta"])
def test_a_database_missing_a_table_is_refused_and_left_as_it_was(tmp_path, stored, table):
    scratch = tmp_path / "scratch.sqlite"
    scratch.write_bytes(stored)
    db = sqlite3.connect(scratch)
    db.execute(f"DROP TABLE {table}")
    db.commit()
    db.close()
    damaged = scratch.read_bytes()
    spec, db_path = _place(tmp_path, damaged)
    expected = (
        f"arena: {db_path}: damaged arena database (no {table} table); keep a copy, then run "
        "the tournament with --fresh or another output folder"
    )
    for args in (("run", str(spec), "--no-progress"), ("leaderboard", str(db_path.parent))):
        result = arena(tmp_path, *args)
        assert result.returncode == 2, result.stderr
        assert errors(result) == [expected]
        assert result.stdout == ""
        assert db_path.read_bytes() == damaged
    assert not (db_path.parent / "games").exists()


def test_a_damaged_page_is_refused_before_a_byte_is_written(tmp_path, stored):
    # Page 2 (4096 bytes a page) overwritten: the header reads, a table does not.
    page = int.from_bytes(stored[16:18], "big")
    damaged = bytearray(stored)
    damaged[page : page + 4] = b"\xff" * 4
    spec, db_path = _place(tmp_path, bytes(damaged))
    result = arena(tmp_path, "run", str(spec), "--no-progress")
    assert result.returncode == 2, result.stderr
    lines = errors(result)
    assert len(lines) == 1, result.stderr
    line = lines[0]
    assert line.startswith(f"arena: {db_path}: ")
    assert "damaged" in line or "not an arena database" in line
    assert "keep a copy" in line or "malformed" in line
    assert db_path.read_bytes() == bytes(damaged)  # header bytes 24-27 and 92-95 too


def test_a_page_damaged_after_arena_closed_the_file_is_still_found(tmp_path):
    """A writer that finds the file as the last one closed it (``.arena.closed``: size,
    time, inode) skips reading its every page; a file changed since is read whole."""
    out = tmp_path / "out"
    spec = write_tournament(tmp_path, out)
    assert arena(tmp_path, "run", str(spec), "--no-progress").returncode == 0
    db_path = out / "arena.sqlite"
    found = db_path.stat()
    assert json.loads((out / ".arena.closed").read_text()) == {
        "size": found.st_size, "mtime_ns": found.st_mtime_ns, "inode": found.st_ino,
    }  # fmt: skip
    again = arena(tmp_path, "run", str(spec), "--no-progress")  # (unchanged: not read whole)
    assert again.returncode == 0, again.stderr
    data = db_path.read_bytes()
    page = int.from_bytes(data[16:18], "big")
    with open(db_path, "r+b") as f:  # damaged in place: same size and inode, a new time
        f.seek(page)
        f.write(b"\xff" * 4)
    damaged = db_path.read_bytes()
    result = arena(tmp_path, "run", str(spec), "--no-progress")
    assert result.returncode == 2, result.stderr
    (line,) = errors(result)
    assert line.startswith(f"arena: {db_path}: ")
    assert "damaged" in line or "not an arena database" in line
    assert db_path.read_bytes() == damaged


def _unshare_works() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(
        ["unshare", "-rm", "sh", "-c", "mount -t tmpfs tmpfs /mnt"], capture_output=True
    )
    return probe.returncode == 0


@pytest.mark.skipif(not _unshare_works(), reason="no mount namespace here")
def test_a_rerun_on_a_still_full_disk_says_the_disk_is_full(tmp_path):
    disk = tmp_path / "disk"
    disk.mkdir()
    out = disk / "out"
    spec = write_tournament(tmp_path, out, games=30, turns=200)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    run = f"TMPDIR={tmp} {sys.executable} -m arena run {spec} --no-progress"
    # A small file system the first run fills; the second starts on it still full.
    script = (
        f"mount -t tmpfs -o size=600k tmpfs {disk} && {run}; echo rc=$?; "
        f"head -c 10000000 /dev/zero > {disk}/filler; {run} 2>&1; echo rc=$?"
    )
    result = subprocess.run(
        ["unshare", "-rm", "sh", "-c", script],
        capture_output=True, text=True, timeout=600, cwd=REPO,
    )  # fmt: skip
    first, second = result.stdout.split("rc=", 1)[1].split("\n", 1)
    assert first == "1", result.stderr
    lines = run_lines(second)
    assert lines[-1] == "rc=1", second
    assert len(lines) == 2, second
    assert "not an arena database" not in lines[0]
    assert "No space left on device" in lines[0] or "disk is full" in lines[0], lines[0]
