"""A bot cannot make its own turns stalls (real processes, real cgroups): the waits it
causes itself (its memory limit, its own threads) are its own time, beside a CPU hog too."""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

import pytest

from arena.botproc import Sandbox, cgroups
from arena.records import BotSpec, Clock, GameRecord
from arena.referee.engine import Referee
from support.load import spinning
from support.toygame import ToyGame

TOY_100MS = Clock(scale=100 / ToyGame.info.turn_ms)  # the toy's 300 ms turns as 100 ms
found = cgroups.parents()
needs_memory_cgroup = pytest.mark.skipif(
    found is None or found.memory is None, reason="no memory cgroup here (root, or v2 delegation)"
)
needs_cpu_cgroup = pytest.mark.skipif(
    found is None or found.cpu is None, reason="no cpu cgroup controller here"
)

# Fills 40 of its 64 MiB before its first answer; from its second turn on it writes a
# file of its own through its page cache, over and over: at its memory limit, reclaiming
# and writing back its own pages, never answering.
AT_ITS_LIMIT = """
import os, sys
hold = bytearray(40 << 20)
for i in range(0, len(hold), 4096):
    hold[i] = 1
first = True
for line in sys.stdin:
    if not first:
        chunk = b"x" * (1 << 20)
        with open(sys.argv[1], "wb") as f:
            while True:
                for _ in range(200):
                    f.write(chunk)
                f.seek(0)
    first = False
    print(1, flush=True)
"""

# From its second turn on, three threads hash big buffers (the GIL released) while the
# main thread thinks 60 ms of CPU: four threads on the one core its group gets.
FIGHTING_THREADS = """
import hashlib, sys, threading, time
def churn():
    data = b"x" * (8 << 20)
    while True:
        hashlib.sha256(data).digest()
first = True
for line in sys.stdin:
    if not first and threading.active_count() == 1:
        for _ in range(3):
            threading.Thread(target=churn, daemon=True).start()
    if not first:
        t = time.thread_time()
        while time.thread_time() - t < 0.060:
            pass
    first = False
    print(1, flush=True)
"""


def play(tmp_path: Path, source: str, *args: str, memory_mb: int | None = None) -> GameRecord:
    script = tmp_path / "bot.py"
    script.write_text(textwrap.dedent(source))
    bots = [BotSpec("bot", (sys.executable, str(script), *args))]
    game = ToyGame()
    sandbox = Sandbox("none", memory_mb=memory_mb)
    referee = Referee(game, bots, tmp_path / "game", sandbox, clock=TOY_100MS)
    return referee.play(7, {**game.info.settings, "turns": 4})


@needs_memory_cgroup
def test_a_bot_at_its_memory_limit_beside_a_cpu_hog_loses_it_is_never_a_stall(tmp_path):
    core = max(os.sched_getaffinity(0))
    with spinning([core]):
        record = play(tmp_path, AT_ITS_LIMIT, str(tmp_path / "own-file"), memory_mb=64)
    seat = record.seats[0]
    assert record.reason != "stall", record.stall
    assert seat.forfeit in ("timeout", "memory"), seat.detail
    if seat.forfeit == "timeout":
        assert "its waits were its own: it was at its memory limit (64 MiB)" in seat.detail


@needs_cpu_cgroup
def test_a_bot_whose_threads_fight_each_other_on_its_core_loses(tmp_path):
    record = play(tmp_path, FIGHTING_THREADS)
    seat = record.seats[0]
    assert record.reason != "stall", record.stall
    assert seat.forfeit == "timeout", seat.detail
    assert seat.moves == 1  # its first turn, before the threads
