"""The game process a Dask worker thread plays its games in: real processes, real games."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from arena.botproc import BOT_HOMES, Sandbox
from arena.execute import game_process
from arena.execute.game_process import GameProcess, GameProcessDied, GameRequest
from arena.execute.jobs import Job
from arena.records import BotSpec

# Plays Smash The Code by cycling columns; waits SLEEP seconds before every answer but the
# first; on turn STOP (if any) makes the file STOP_FLAG (the test then stops the game
# process: a bot cannot, it has a PID namespace of its own).
CYCLER = """\
import os, signal, sys, time
turn = 0
while True:
    lines = [sys.stdin.readline() for _ in range(34)]
    if not lines[0]:
        break
    if turn:
        time.sleep({sleep})
    if turn == {stop}:
        open({flag!r}, "w").close()
    print(turn % 6, 1, flush=True)
    turn += 1
"""
STOP_FLAG = "stop-flag"


def request(
    tmp_path: Path, turns: int, sleep: float = 0.0, game: str = "stc", stop: int = -1
) -> GameRequest:
    bot = tmp_path / f"cycler-{sleep}-{stop}.py"
    bot.write_text(CYCLER.format(sleep=sleep, stop=stop, flag=str(tmp_path / STOP_FLAG)))
    bots = (BotSpec("a", ("python3", str(bot))), BotSpec("b", ("python3", str(bot))))
    job = Job(game, 7, {"max_turns": turns}, bots, "", Sandbox())
    return GameRequest(job, "none", None, 64)


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def scratch_folders(pid: int) -> list[Path]:
    """The scratch folders of the game process ``pid`` (named with its owner tag)."""
    return [p for p in BOT_HOMES.glob("dask-*") if f"-{pid}." in p.name]


def test_games_are_played_one_after_another_in_one_kept_process(tmp_path):
    process = GameProcess()
    try:
        first = process.play(request(tmp_path, 5))
        assert process.proc is not None
        pid = process.proc.pid
        second = process.play(request(tmp_path, 7))
        assert process.proc.pid == pid  # the same process played both
        assert scratch_folders(pid) == []  # each game's folder removed after it
    finally:
        process.close()
    assert (first["record"]["turns"], second["record"]["turns"]) == (5, 7)
    assert [s["bot"] for s in first["record"]["seats"]] == ["a", "b"]
    assert sorted(second["files"]) == ["replay.json", "stderr-0-a.txt", "stderr-1-b.txt"]
    replay = json.loads(second["files"]["replay.json"])
    assert replay["seed"] == 7 and len(replay["steps"]) == 7
    assert not alive(pid)  # closing its input ended it


def test_a_referee_failure_is_that_games_error_and_the_process_goes_on(tmp_path):
    process = GameProcess()
    try:
        with pytest.raises(RuntimeError, match=r"UnknownGame: .*nosuchgame"):
            process.play(request(tmp_path, 3, game="nosuchgame"))
        assert process.play(request(tmp_path, 3))["record"]["turns"] == 3
    finally:
        process.close()


def test_a_game_process_killed_mid_game_is_reported_and_replaced(tmp_path):
    process = GameProcess()
    try:
        process.play(request(tmp_path, 2))
        assert process.proc is not None
        pid = process.proc.pid
        killer = subprocess.Popen(["sh", "-c", f"sleep 1; kill -9 {pid}"])
        with pytest.raises(GameProcessDied, match="was killed by signal 9"):
            process.play(request(tmp_path, 60, sleep=0.05))
        killer.wait()
        assert process.play(request(tmp_path, 3))["record"]["turns"] == 3
        assert process.proc is not None and process.proc.pid != pid
    finally:
        process.close()


def test_a_stopped_game_process_is_abandoned_by_the_watchdog(tmp_path, monkeypatch):
    monkeypatch.setattr(game_process, "WATCHDOG_GRACE_S", 1.0)
    process = GameProcess()

    def stop_it_on_the_flag() -> None:  # the game process stalls for good mid-game
        flag = tmp_path / STOP_FLAG
        deadline = time.monotonic() + 60
        while not flag.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert process.proc is not None
        os.kill(process.proc.pid, signal.SIGSTOP)

    stopper = threading.Thread(target=stop_it_on_the_flag)
    try:
        started = time.monotonic()
        stopper.start()
        with pytest.raises(GameProcessDied, match="abandoned by the watchdog"):
            process.play(request(tmp_path, 20, stop=3))
        assert time.monotonic() - started < 30
        stopper.join()
        monkeypatch.undo()  # a new process needs its usual start-up time
        assert process.play(request(tmp_path, 3))["record"]["turns"] == 3
    finally:
        process.close()


def test_the_game_process_stops_its_game_when_its_parent_dies(tmp_path):
    # A parent (like a Dask worker) starts a long game in its game process, then is killed.
    long = request(tmp_path, 200, sleep=0.05)
    (tmp_path / "request.json").write_text(json.dumps(list(long.job.bots[0].argv)))
    parent = tmp_path / "parent.py"
    parent.write_text(
        textwrap.dedent(
            f"""
            import json
            from arena.botproc import Sandbox
            from arena.execute.game_process import GameProcess, GameRequest
            from arena.execute.jobs import Job
            from arena.referee.engine import BotSpec
            argv = tuple(json.load(open({str(tmp_path / "request.json")!r})))
            bots = (BotSpec("a", argv), BotSpec("b", argv))
            job = Job("stc", 7, {{"max_turns": 200}}, bots, "", Sandbox())
            process = GameProcess()
            process._alive()
            print(process.proc.pid, flush=True)
            process.play(GameRequest(job, "none", None, 64))
            """
        )
    )
    proc = subprocess.Popen([sys.executable, str(parent)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    child = int(proc.stdout.readline())
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not scratch_folders(child):
        time.sleep(0.05)
    children = Path(f"/proc/{child}/task/{child}/children")
    bots: list[int] = []
    while time.monotonic() < deadline and len(bots) < 2:  # mid-game: both bots started
        time.sleep(0.05)
        bots = [int(c) for c in children.read_text().split()]
    assert alive(child) and scratch_folders(child)
    assert len(bots) == 2
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and (alive(child) or any(map(alive, bots))):
        time.sleep(0.05)
    assert not alive(child) and not any(map(alive, bots))  # the game and its bots stopped
    assert scratch_folders(child) == []  # and its folder is gone
