"""Hostile bots against the processes that referee them: a bot that kills or stops its
parent, or hunts arena's processes by name, cannot void a game or end the run. Under
bubblewrap, and under ``sandbox: none`` where the kernel gives bots a PID namespace of
their own (root, or a user with user namespaces), no process of arena's exists for the
bot; elsewhere the killed worker's game fails in the referee and is played again.

A worker that stops for a reason of its own (stopped from outside here) is abandoned by
the watchdog, and the next run plays its game."""

from __future__ import annotations

import os
import signal
import sqlite3
from pathlib import Path

import pytest

from arena.botproc.sandboxes.none import pid_namespace
from support.hostile import (
    MODES,
    arena,
    kill_all,
    processes_with,
    start_arena,
    stc_bot,
    stop_session,
    tournament,
    wait_for,
)

KILL_PARENT = stc_bot("import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n")
STOP_PARENT = stc_bot("import os, signal\nos.kill(os.getppid(), signal.SIGSTOP)\n")

HUNT = """
import os, signal
# Every process whose command line names the tournament file: arena and its workers.
for entry in os.listdir("/proc"):
    if entry.isdigit() and int(entry) != os.getpid():
        try:
            with open(f"/proc/{{entry}}/cmdline", "rb") as f:
                if {target!r}.encode() in f.read():
                    os.kill(int(entry), signal.{signal})
        except OSError:
            pass
"""


def hunter(tmp_path: Path, sig: str) -> str:
    """A bot that sends ``sig`` to every process of arena's it finds before it plays."""
    return stc_bot(HUNT.format(target=str(tmp_path / "t.yaml"), signal=sig))


def stored(out: Path) -> list[tuple[str, str]]:
    db = sqlite3.connect(out / "arena.sqlite")
    return db.execute("SELECT key, reason FROM games ORDER BY key").fetchall()


def protected(mode: str) -> bool:
    """Whether arena's processes are out of a bot's reach in ``mode`` on this machine."""
    return mode == "bwrap" or pid_namespace()


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("mode", MODES)
def test_a_bot_that_kills_its_parent_costs_only_its_own_games(tmp_path, mode, workers):
    bots = {"killer": KILL_PARENT, "a": stc_bot(), "b": stc_bot()}
    path = tournament(tmp_path, bots, sandbox=mode, games=2, concurrency=workers)
    for _attempt in range(2):  # and a rerun resumes without dying either
        result = arena("run", str(path), "--no-progress")
        assert "Traceback" not in result.stderr
        keys = [key for key, _ in stored(tmp_path / "out")]
        innocent = [k for k in keys if "killer" not in k]
        assert len(innocent) == 2  # a against b, both seat orders: never lost
        if protected(mode):
            # Its parent is out of reach (getppid() is 0 in a PID namespace of its own):
            # every game is played and stored, the killer's among them.
            assert result.returncode == 0, result.stderr
            assert len(keys) == 6
        else:
            # The killer's four games failed in the referee, each with the reason.
            assert result.returncode == 1, result.stderr
            failures = [
                line for line in result.stderr.splitlines() if "failed in the referee" in line
            ]
            assert len(failures) == 4
            assert all("killed by SIGKILL" in line for line in failures)
            assert len(keys) == 2
        assert "BT ±95%" in result.stdout  # the leaderboard


@pytest.mark.parametrize("sig", ["SIGKILL", "SIGSTOP"])
@pytest.mark.parametrize("mode", MODES)
def test_a_bot_that_hunts_arenas_processes_cannot_void_its_games(tmp_path, mode, sig):
    if not protected(mode):
        pytest.skip("no PID namespace for bots without bubblewrap here")
    bots = {"hunter": hunter(tmp_path, sig), "a": stc_bot()}
    path = tournament(tmp_path, bots, sandbox=mode, games=2, concurrency=1)
    result = arena("run", str(path), "--no-progress", timeout=240)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    # Both games were played to the end and stored: nothing of arena's was reached.
    assert len(stored(tmp_path / "out")) == 2
    assert "BT ±95%" in result.stdout


def test_the_sandbox_line_says_whether_bots_get_a_pid_namespace(tmp_path):
    path = tournament(tmp_path, {"a": stc_bot(), "b": stc_bot()}, games=1)
    result = arena("run", str(path), "--no-progress")
    assert result.returncode == 0, result.stderr
    expected = "own PID namespace" if pid_namespace() else "arena's processes in reach"
    sandbox_line = next(x for x in result.stderr.splitlines() if x.startswith("arena: sandbox "))
    assert expected in sandbox_line


def _parent(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[1])


def _worker_of(bot: int, run: int) -> int | None:
    """The process of ``run`` (arena) that started ``bot``: its child on the way up."""
    pid = bot
    for _ in range(8):
        try:
            parent = _parent(pid)
        except OSError:
            return None
        if parent == run:
            return pid
        pid = parent
    return None


def test_a_stopped_worker_is_abandoned_by_the_watchdog_and_its_game_played_again(tmp_path):
    slow = stc_bot("import time\n", per_turn="time.sleep(0.05)")
    bots = {"slow": slow, "a": stc_bot()}
    path = tournament(tmp_path, bots, games=2, concurrency=1, settings="max_turns: 60")
    marker = str(tmp_path / "bots" / "slow.py")
    proc = start_arena("run", str(path), "--no-progress")
    try:
        assert wait_for(lambda: processes_with(marker), timeout=60)
        worker = _worker_of(processes_with(marker)[0], proc.pid)
        assert worker is not None
        os.kill(worker, signal.SIGSTOP)  # the worker stalls for good, by no bot's doing
        _out, err = proc.communicate(timeout=240)
    finally:
        stop_session(proc)
        kill_all(marker)
    assert proc.returncode == 1, err
    failures = [line for line in err.splitlines() if "failed in the referee" in line]
    assert len(failures) == 1
    assert "abandoned by the watchdog" in failures[0]
    assert "Traceback" not in err
    assert len(stored(tmp_path / "out")) == 1
    again = arena("run", str(path), "--no-progress")  # the next run plays the lost game
    assert again.returncode == 0, again.stderr
    assert len(stored(tmp_path / "out")) == 2
