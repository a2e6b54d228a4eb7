"""Faults of the machine and of files, through the real CLI: each is one line naming what
went wrong and the documented exit code, nothing stored is lost and the next run works."""

from __future__ import annotations

import fcntl
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from support import REPO, run_lines
from support.hostile import stc_bot, write_bot

TOURNAMENT = """\
name: faults
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


def arena(
    tmp_path: Path, *args: str, cwd: Path = REPO, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """The real command, its temporary folders under ``tmp_path/tmp``."""
    tmp = tmp_path / "tmp"
    tmp.mkdir(exist_ok=True)
    return subprocess.run(
        [sys.executable, "-m", "arena", *args],
        capture_output=True, text=True, cwd=cwd, timeout=300,
        env={**os.environ, "TMPDIR": str(tmp), **(env or {})},
    )  # fmt: skip


def write_tournament(tmp_path: Path, out: Path, games: int = 1, turns: int = 3) -> Path:
    path = tmp_path / "t.yaml"
    text = TOURNAMENT.format(games=games, turns=turns, python=sys.executable, repo=REPO, out=out)
    path.write_text(text)
    return path


def one_line(result: subprocess.CompletedProcess[str], code: int) -> str:
    """The only line of standard error (the sandbox line aside), after exit ``code``."""
    lines = run_lines(result.stderr)
    assert result.returncode == code, result.stderr
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr and "bug" not in result.stderr
    return lines[0]


def played(tmp_path: Path, games: int = 1) -> Path:
    """An output folder holding ``games`` finished games."""
    out = tmp_path / "out"
    result = arena(tmp_path, "run", str(write_tournament(tmp_path, out, games)), "--no-progress")
    assert result.returncode == 0, result.stderr
    return out


def test_a_tournament_file_without_end_is_refused_unread_or_after_a_mebibyte(tmp_path):
    line = one_line(arena(tmp_path, "run", "/dev/zero"), 2)
    assert line == "arena: /dev/zero: a device, not a tournament file"
    big = tmp_path / "big.yaml"
    big.write_text("# " + "x" * (1024 * 1024) + "\n")
    line = one_line(arena(tmp_path, "run", str(big)), 2)
    assert line == f"arena: {big}: larger than 1024 KiB: not a tournament file"


def test_a_nul_byte_is_one_line_naming_its_line(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("game: stc\nname: x\x00y\n")
    assert one_line(arena(tmp_path, "run", str(path)), 2) == (
        f"arena: {path} (line 2): invalid YAML: character #x0000 is not allowed"
    )


@pytest.mark.parametrize("key", ["output", "name"])
def test_a_list_where_text_belongs_is_refused_with_its_line(tmp_path, key):
    path = write_tournament(tmp_path, tmp_path / "out")
    text = path.read_text()
    text = "\n".join(f"{key}: [a, b]" if x.startswith(f"{key}:") else x for x in text.split("\n"))
    path.write_text(text)
    line = one_line(arena(tmp_path, "run", str(path), cwd=tmp_path), 2)
    number = text.split("\n").index(f"{key}: [a, b]") + 1
    assert line == f"arena: {path}: {key} (line {number}): must be text, not ['a', 'b']"
    assert not (tmp_path / "['a', 'b']").exists()


def test_a_second_run_on_the_same_output_stops_at_once_and_the_first_goes_on(tmp_path):
    out = tmp_path / "out"
    path = write_tournament(tmp_path, out, games=3, turns=3)
    # Bot b waits, as each game starts, for a child that stopped itself (SIGSTOP; the bot,
    # first of its PID namespace, could not) until the test lets it go on: the first run
    # is still running, whatever the load, when the second starts. Budgets x100: the wait
    # is no timeout, a loaded machine no stall.
    hold = (
        "import os, signal\nif (child := os.fork()) == 0:\n"
        "    os.kill(os.getpid(), signal.SIGSTOP)\n    os._exit(0)\nos.waitpid(child, 0)\n"
    )
    held_path = write_bot(tmp_path, "held.py", stc_bot(prelude=hold))
    text = path.read_text().replace(f"{REPO}/bots/stc/greedy.py", str(held_path))
    path.write_text(text.replace("concurrency: 1\n", "concurrency: 1\nclock_scale: 100\n"))
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    first = subprocess.Popen(
        [sys.executable, "-m", "arena", "run", str(path), "--no-progress"],
        cwd=REPO, env={**os.environ, "TMPDIR": str(tmp)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        _go_on(first, "held.py", once=True)  # the first run is in its first game now
        second = arena(tmp_path, "run", str(path), "--no-progress")
        line = one_line(second, 2)
        assert line.startswith(f"arena: {out}: another arena is running on this output folder")
        _go_on(first, "held.py")
        _, err = first.communicate(timeout=300)
    finally:
        first.kill()
    assert first.returncode == 0, err
    db = sqlite3.connect(out / "arena.sqlite")
    assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (3,)
    # Once the first has ended, the folder is free again.
    assert "resuming: 3 of 3" in arena(tmp_path, "run", str(path), "--no-progress").stderr


def _go_on(run: subprocess.Popen[str], name: str, once: bool = False) -> None:
    """While ``run`` goes on, wake every process named ``name`` in its command line that
    stopped itself (looked for every 20 ms); ``once``: return on finding the first, left
    stopped."""
    while run.poll() is None:
        for pid in _stopped(name):
            if once:
                return
            os.kill(pid, signal.SIGCONT)
        time.sleep(0.02)
    assert not once, run.communicate()[1]


def _stopped(name: str) -> list[int]:
    """Processes in the stopped state (``T``) with ``name`` in their command line."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            cmdline = (entry / "cmdline").read_bytes()
        except (OSError, IndexError):
            continue
        if state == "T" and name.encode() in cmdline:
            found.append(int(entry.name))
    return found


def test_match_output_is_locked_too(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    with open(out / ".arena.lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # as a running arena holds it
        result = arena(
            tmp_path, "match", "stc", "python3 bots/stc/greedy.py", "python3 bots/stc/greedy.py",
            "--output", str(out), "--sandbox", "none",
        )  # fmt: skip
    line = one_line(result, 2)
    assert line.startswith(f"arena: {out}: another arena is running on this output folder")
    assert not list(out.glob("game-*"))


def _corrupt(db: Path, page: int) -> None:
    with open(db, "r+b") as f:
        f.seek(4096 * (page - 1))
        f.write(b"\xff" * 4096)


@pytest.mark.parametrize("command", ["leaderboard", "list", "report"])
def test_a_damaged_database_page_is_one_line(tmp_path, command):
    out = played(tmp_path, games=2)
    for name in ("arena.sqlite-wal", "arena.sqlite-shm"):
        (out / name).unlink(missing_ok=True)
    _corrupt(out / "arena.sqlite", 2)
    line = one_line(arena(tmp_path, command, str(out)), 2)
    assert line.startswith(f"arena: {out / 'arena.sqlite'}: damaged or unreadable arena database")


@pytest.mark.parametrize("command", ["view", "report"])
def test_html_to_an_unwritable_path_is_one_line(tmp_path, command):
    out = played(tmp_path)
    target = tmp_path / "no-such-folder" / "file.html"
    target.parent.write_text("a file, not a folder")
    args = ["view", "1", "--from", str(out)] if command == "view" else ["report", str(out)]
    line = one_line(arena(tmp_path, *args, "-o", str(target)), 2)
    assert line.startswith(f"arena: -o {target}: cannot write:")


def test_a_deleted_current_folder_is_one_line(tmp_path):
    gone = tmp_path / "gone"
    gone.mkdir()
    proc = subprocess.run(
        [sys.executable, "-c",
         f"import os, runpy, sys; os.chdir({str(gone)!r}); os.rmdir({str(gone)!r}); "
         "sys.argv = ['arena', 'list', 'out']; runpy.run_module('arena', run_name='__main__')"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert one_line(proc, 2) == "arena: the current folder no longer exists: cd to a folder first"


def _unshare_works() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(
        ["unshare", "-rm", "sh", "-c", "mount -t tmpfs tmpfs /mnt"], capture_output=True
    )
    return probe.returncode == 0


needs_unshare = pytest.mark.skipif(not _unshare_works(), reason="no mount namespace here")


def _in_namespace(script: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["unshare", "-rm", "sh", "-c", script],
        capture_output=True, text=True, timeout=timeout, cwd=REPO,
    )  # fmt: skip


@needs_unshare
def test_a_database_the_user_cannot_write_is_read(tmp_path):
    out = played(tmp_path, games=2)
    arena_cmd = f"{sys.executable} -m arena"
    # Read-only: the output folder mounted read-only, as from a read-only share.
    script = (
        f"mount --bind {out} {out} && mount -o remount,bind,ro {out} && "
        f"{arena_cmd} leaderboard {out} && {arena_cmd} list {out} && "
        f"{arena_cmd} show 1 --from {out} && {arena_cmd} report {out} -o {tmp_path}/r.html"
    )
    result = _in_namespace(script)
    assert result.returncode == 0, result.stderr
    assert "not an arena database" not in result.stderr
    assert "a wins" in result.stdout or "b wins" in result.stdout or "draw" in result.stdout
    assert (tmp_path / "r.html").is_file()


@needs_unshare
def test_a_full_disk_stops_the_run_in_one_line_and_every_stored_game_is_whole(tmp_path):
    disk = tmp_path / "disk"
    disk.mkdir()
    out = disk / "out"
    path = write_tournament(tmp_path, out, games=30, turns=200)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    # A small file system: the replays fill it after a few games.
    script = (
        f"mount -t tmpfs -o size=600k tmpfs {disk} && "
        f"TMPDIR={tmp} {sys.executable} -m arena run {path} --no-progress; echo rc=$?; "
        f"{sys.executable} -c \"import sqlite3; print('stored', sqlite3.connect('{out}/arena.sqlite')"
        ".execute('PRAGMA integrity_check').fetchone()[0], sqlite3.connect("
        f"'{out}/arena.sqlite').execute('SELECT COUNT(*) FROM games').fetchone()[0])\""
    )
    result = _in_namespace(script)
    lines = run_lines(result.stderr)
    assert "rc=1" in result.stdout, result.stderr
    assert len(lines) == 1, result.stderr
    assert "No space left on device" in lines[0] or "disk is full" in lines[0]
    # Where the disk fills decides which writer says it (a replay's file, or SQLite): each
    # says how to go on.
    assert "run it again to resume" in lines[0] or "run the same command again" in lines[0]
    assert "stored ok" in result.stdout
    assert "Traceback" not in result.stderr


def test_an_arena_bot_cache_that_is_a_file_is_one_line(tmp_path):
    pytest.importorskip("distributed")
    path = write_tournament(tmp_path, tmp_path / "out")
    path.write_text(path.read_text() + "executor: dask\n")
    cache = tmp_path / "a-file"
    cache.write_text("")
    result = arena(tmp_path, "run", str(path), env={"ARENA_BOT_CACHE": str(cache)})
    assert one_line(result, 2) == (
        f"arena: ARENA_BOT_CACHE={cache}: not a folder (the bot-file cache of the workers)"
    )
