"""A game that stalls at every replay is given up: the run says how many and why, the
leaderboard says so, and ``arena run`` ends with exit code 3; running it again plays it."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time

import pytest

from arena.botproc import cgroups
from arena.cli.main import main
from arena.errors import EXIT_GIVEN_UP
from arena.tournament import stalls

needs_cpu_cgroup = pytest.mark.skipif(
    (found := cgroups.parents()) is None or found.cpu is None,
    reason="no cpu cgroup controller here (root or a delegated cgroup v2 subtree)",
)

# 60 ms of CPU per 100 ms turn: in time alone, over it on a core shared with 8 busy processes.
STC_BOT = """
import sys, time
turn = 0
while True:
    lines = [sys.stdin.readline() for _ in range(34)]
    if not lines[-1]:
        break
    if turn:
        t = time.thread_time()
        while time.thread_time() - t < 0.06:
            pass
    print(f"{turn % 6} 1", flush=True)
    turn += 1
"""


@needs_cpu_cgroup
def test_a_game_stalling_at_every_replay_is_given_up_with_exit_code_3(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.setattr(stalls, "REPLAY_BACKOFF_S", 0.1)
    bot = tmp_path / "loaded.py"
    bot.write_text(textwrap.dedent(STC_BOT))
    (tmp_path / "t.yaml").write_text(
        textwrap.dedent(f"""
        game: stc
        games: 1
        concurrency: 1
        sandbox: none
        settings: {{max_turns: 3}}
        bots:
          - {{name: a, cmd: python3 {bot}}}
          - {{name: b, cmd: python3 {bot}}}
        output: {tmp_path / "out"}
        """)
    )
    # Eight busy processes outside arena on every core, each in a session of its own.
    hogs = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                f"import os\nos.sched_setaffinity(0, {{{core}}})\nwhile 1: pass",
            ],
            start_new_session=True,
        )
        for core in sorted(os.sched_getaffinity(0))
        for _ in range(8)
    ]
    time.sleep(0.2)
    try:
        code = main(["run", str(tmp_path / "t.yaml"), "--no-progress"])
    finally:
        for proc in hogs:
            proc.kill()
            proc.wait()
    out, err = capsys.readouterr()
    assert code == EXIT_GIVEN_UP == 3, err
    assert "1 game(s) given up, not stored" in err
    assert "run the same command again to play them" in err
    assert "given up after stalling at every replay" in out  # the leaderboard says so
    # On a quiet machine the same command plays it, and says nothing more of it.
    assert main(["run", str(tmp_path / "t.yaml"), "--no-progress"]) == 0
    out, err = capsys.readouterr()
    assert "1 games played now" in err
    assert "given up" not in out
