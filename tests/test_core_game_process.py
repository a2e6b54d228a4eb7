"""The game process a Dask worker thread plays its games in: real processes, real games."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from arena.botproc import Sandbox
from arena.game_process import GameProcess, GameProcessDied
from arena.jobs import Job
from arena.referee import BotSpec

# Plays Smash The Code by cycling columns; waits SLEEP seconds before every answer but the first.
CYCLER = """\
import sys, time
turn = 0
while True:
    lines = [sys.stdin.readline() for _ in range(34)]
    if not lines[0]:
        break
    if turn:
        time.sleep({sleep})
    print(turn % 6, 1, flush=True)
    turn += 1
"""


def job(tmp_path: Path, name: str, turns: int, sleep: float = 0.0, game: str = "stc") -> Job:
    bot = tmp_path / f"cycler-{sleep}.py"
    bot.write_text(CYCLER.format(sleep=sleep))
    bots = (BotSpec("a", ("python3", str(bot))), BotSpec("b", ("python3", str(bot))))
    return Job(game, 7, {"max_turns": turns}, bots, str(tmp_path / name), Sandbox("none"))


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_games_are_played_one_after_another_in_one_kept_process(tmp_path):
    process = GameProcess()
    try:
        first = process.play(job(tmp_path, "g1", 5))
        assert process.proc is not None
        pid = process.proc.pid
        second = process.play(job(tmp_path, "g2", 7))
        assert process.proc.pid == pid  # the same process played both
    finally:
        process.close()
    assert (first["turns"], second["turns"]) == (5, 7)
    assert [s["bot"] for s in first["seats"]] == ["a", "b"]
    replay = json.loads((tmp_path / "g2" / "replay.json").read_text())
    assert replay["seed"] == 7 and len(replay["steps"]) == 7
    assert sorted(p.name for p in (tmp_path / "g1").iterdir()) == [
        "replay.json",
        "stderr-0-a.txt",
        "stderr-1-b.txt",
    ]
    assert not alive(pid)  # closing its input ended it


def test_a_referee_failure_is_that_games_error_and_the_process_goes_on(tmp_path):
    process = GameProcess()
    try:
        with pytest.raises(RuntimeError, match=r"UnknownGame: .*nosuchgame"):
            process.play(job(tmp_path, "bad", 3, game="nosuchgame"))
        assert process.play(job(tmp_path, "good", 3))["turns"] == 3
    finally:
        process.close()


def test_a_game_process_killed_mid_game_is_reported_and_replaced(tmp_path):
    process = GameProcess()
    try:
        process.play(job(tmp_path, "warm", 2))
        assert process.proc is not None
        pid = process.proc.pid
        killer = subprocess.Popen(
            ["sh", "-c", f"sleep 1; kill -9 {pid}"], start_new_session=True
        )  # fmt: skip
        with pytest.raises(GameProcessDied, match="killed by signal 9"):
            process.play(job(tmp_path, "long", 60, sleep=0.05))
        killer.wait()
        assert process.play(job(tmp_path, "after", 3))["turns"] == 3
        assert process.proc is not None and process.proc.pid != pid
    finally:
        process.close()


def test_the_game_process_dies_with_its_parent(tmp_path):
    # A parent (like a Dask worker) starts a long game in its game process, then is killed.
    long_job = job(tmp_path, "orphan", 200, sleep=0.05)
    (tmp_path / "job.json").write_text(
        json.dumps([long_job.game, long_job.seed, long_job.settings, long_job.game_dir])
    )
    parent = tmp_path / "parent.py"
    parent.write_text(
        textwrap.dedent(
            f"""
            import json, sys
            from arena.botproc import Sandbox
            from arena.game_process import GameProcess
            from arena.jobs import Job
            from arena.referee import BotSpec
            game, seed, settings, folder = json.load(open({str(tmp_path / "job.json")!r}))
            bots = tuple(BotSpec(n, ("python3", {str(tmp_path / "cycler-0.05.py")!r}))
                         for n in "ab")
            process = GameProcess()
            process._alive()
            print(process.proc.pid, flush=True)
            process.play(Job(game, seed, settings, bots, folder, Sandbox("none")))
            """
        )
    )
    proc = subprocess.Popen([sys.executable, str(parent)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    child = int(proc.stdout.readline())
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (Path(long_job.game_dir) / "stderr-0-a.txt").exists():
        time.sleep(0.05)
    time.sleep(0.5)  # mid-game: 200 turns of 50 ms
    assert alive(child)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and alive(child):
        time.sleep(0.05)
    assert not alive(child)
    assert not (Path(long_job.game_dir) / "replay.json").exists()  # the game stopped there
