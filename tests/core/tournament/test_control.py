"""The control file pauses a real ``arena run`` before its next game; resuming lets it
finish, and Ctrl-C ends a paused run at once with nothing lost."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from arena.tournament.control import Control, read_control, write_control
from support import REPO

TOURNAMENT = """
name: paused
game: stc
games: 2
seed: 1
concurrency: 1
settings:
  max_turns: 10
bots:
  - name: a
    cmd: {python} {repo}/bots/stc/greedy.py
  - name: b
    cmd: {python} {repo}/bots/stc/random_bot.py
output: {output}
"""


def _start(tmp_path: Path) -> subprocess.Popen[str]:
    path = tmp_path / "t.yaml"
    path.write_text(TOURNAMENT.format(python=sys.executable, repo=REPO, output=tmp_path / "out"))
    return subprocess.Popen(
        [sys.executable, "-m", "arena", "run", str(path), "--no-progress"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )


def _games(output: Path) -> int:
    db = sqlite3.connect(f"file:{output / 'arena.sqlite'}?mode=ro", uri=True)
    try:
        return int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    finally:
        db.close()


def _wait_for_database(output: Path, proc: subprocess.Popen[str]) -> None:
    while not (output / "arena.sqlite").exists() and proc.poll() is None:
        time.sleep(0.1)
    time.sleep(2)  # time to start a game, had the pause not held it


def test_the_control_file_reads_as_it_was_written(tmp_path: Path) -> None:
    assert read_control(tmp_path) == Control(paused=False)
    write_control(tmp_path, Control(paused=True))
    assert (tmp_path / "control.json").read_text() == '{"paused": true}\n'
    assert read_control(tmp_path) == Control(paused=True)
    (tmp_path / "control.json").write_text("{not json")
    assert read_control(tmp_path) == Control(paused=False)


def test_a_paused_run_waits_then_resumes(tmp_path: Path) -> None:
    output = tmp_path / "out"
    output.mkdir()
    write_control(output, Control(paused=True))
    proc = _start(tmp_path)
    _wait_for_database(output, proc)
    assert proc.poll() is None and _games(output) == 0
    write_control(output, Control(paused=False))
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert _games(output) == 2
    # A pause is said (once): one left by a killed server must not hold a run silently.
    note = f"arena: paused by {output / 'control.json'} (arena serve's pause)"
    assert err.count(note) == 1, err


def test_ctrl_c_ends_a_paused_run(tmp_path: Path) -> None:
    output = tmp_path / "out"
    output.mkdir()
    write_control(output, Control(paused=True))
    proc = _start(tmp_path)
    _wait_for_database(output, proc)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert _games(output) == 0
