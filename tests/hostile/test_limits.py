"""Hostile bots against the limits: every limit holds from the bot's first instruction, for
everything it starts, and a bot stopped by its memory cap loses for ``memory``."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from arena.records import BotSpec
from arena.referee.engine import Referee
from support.hostile import (
    MODES,
    kill_all,
    marker,
    mode_sandbox,
    needs_memory_cgroup,
    needs_pids_cgroup,
    pids_line,
    processes_with,
    survivors,
    write_bot,
)
from support.toygame import ToyGame

ANSWER = """
for line in sys.stdin:
    print(1, flush=True)
"""


def play(tmp_path: Path, source: str, mode: str, observer=None, turns: int = 2, **caps):
    """The hostile bot (seat 0) against a quiet one, under ``mode`` with ``caps``."""
    hostile = BotSpec("hostile", (sys.executable, str(write_bot(tmp_path, "hostile.py", source))))
    quiet = BotSpec(
        "quiet", (sys.executable, str(write_bot(tmp_path, "quiet.py", "import sys" + ANSWER)))
    )
    referee = Referee(
        ToyGame(), [hostile, quiet], tmp_path / "game", mode_sandbox(mode, **caps), observer
    )
    return referee.play(1, {"turns": turns, "simultaneous": True})


def stderr_of(tmp_path: Path, record, seat: int = 0) -> str:
    return (tmp_path / "game" / record.seats[seat].stderr).read_text()


FORK_BOMB = (
    """
import os, sys, time
forked = 0
for _ in range(1000):  # bounded: a regression cannot take the machine down
    try:
        if os.fork() == 0:
            time.sleep(10)
            os._exit(0)
        forked += 1
    except OSError:
        break
sys.stderr.write(f"forked {forked} {MARK}\\n")
"""
    + ANSWER
)


@needs_pids_cgroup
@pytest.mark.parametrize("mode", MODES)
def test_a_fork_bomb_from_the_first_instruction_never_exceeds_max_processes(tmp_path, mode):
    mark = marker()
    try:
        record = play(tmp_path, FORK_BOMB.replace("{MARK}", mark), mode, max_processes=32)
        forked = int(re.search(r"forked (\d+)", stderr_of(tmp_path, record)).group(1))
        assert forked < 32  # bubblewrap, the bot and its children share the cap
        assert survivors(mark) == []
    finally:
        kill_all(mark)


SPREAD = (
    """
import os, sys, time
# Three children at once, 64 MiB each: each one under the cap, together over it.
children = []
for i in range(3):
    pid = os.fork()
    if pid == 0:
        block = bytearray(b"\\x01") * (64 * 1024 * 1024)
        time.sleep(10)
        os._exit(0)
    children.append(pid)
time.sleep(1)
alive = sum(os.waitpid(pid, os.WNOHANG) == (0, 0) for pid in children)
sys.stderr.write(f"{alive} children alive\\n")
"""
    + ANSWER
)


@needs_memory_cgroup
@pytest.mark.parametrize("mode", MODES)
def test_the_memory_cap_holds_for_all_processes_of_a_bot_together(tmp_path, mode):
    record = play(tmp_path, SPREAD, mode, memory_mb=128)
    log = stderr_of(tmp_path, record)
    if record.seats[0].forfeit is None:
        alive = int(re.search(r"(\d+) children alive", log).group(1))
        assert alive <= 1, log  # the cap killed the others
    else:
        assert record.seats[0].forfeit == "memory", record.seats[0].detail


SHM = (
    """
import os, sys
held = 0
try:
    with open("/dev/shm/{MARK}", "wb") as f:
        for _ in range(16):  # at most 256 MiB
            f.write(b"\\x01" * (16 * 1024 * 1024))
            f.flush()
            held += 16
            sys.stderr.write(f"shm {held}\\n")
            sys.stderr.flush()
except OSError as exc:
    sys.stderr.write(f"stopped: {exc}\\n")
"""
    + ANSWER
)


@pytest.mark.parametrize("mode", MODES)
def test_shared_memory_counts_against_the_cap_and_is_freed_after_the_game(tmp_path, mode):
    mark = marker()
    host_file = Path("/dev/shm") / mark
    try:
        record = play(tmp_path, SHM.replace("{MARK}", mark), mode, memory_mb=128)
        log = stderr_of(tmp_path, record)
        held = [int(n) for n in re.findall(r"shm (\d+)", log)]
        assert max(held, default=0) <= 128, log
        assert record.seats[0].forfeit in (None, "memory")
        assert not host_file.exists()  # the bot's /dev/shm was its own, and is gone
    finally:
        if host_file.exists():
            host_file.unlink()


HOG = (
    """
import sys
sys.stdin.readline()
blocks = []
for _ in range(32):  # at most 512 MiB
    blocks.append(bytearray(b"\\x01") * (16 * 1024 * 1024))
print(1, flush=True)
"""
    + ANSWER
)


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_stopped_by_its_memory_cap_loses_for_memory(tmp_path, mode):
    record = play(tmp_path, HOG, mode, memory_mb=128)
    seat = record.seats[0]
    assert seat.forfeit == "memory", seat.detail
    assert "memory cap (128 MiB)" in seat.detail
    assert record.seats[1].rank == 0


EARLY = (
    """
import os, sys, time
if os.fork() == 0:  # a child started before anything else
    time.sleep(30)
    os._exit(0)
"""
    + ANSWER
)


@needs_pids_cgroup
@pytest.mark.parametrize("mode", MODES)
def test_every_process_of_a_bot_is_in_its_cgroup_with_its_limits(tmp_path, mode):
    script = "hostile.py"
    seen: dict[int, tuple[str, str]] = {}

    def inspect(index, step, state):
        if index:
            return
        for pid in processes_with(str(tmp_path / script)):
            try:
                groups = Path(f"/proc/{pid}/cgroup").read_text()
                limits = Path(f"/proc/{pid}/limits").read_text()
            except OSError:
                continue
            seen[pid] = (groups, limits)

    try:
        # The observer sees step 0 once step 1 was played and the game goes on: 3 turns.
        record = play(tmp_path, "import sys" + EARLY, mode, inspect, turns=3, memory_mb=256)
        assert record.seats[0].forfeit is None
        assert len(seen) >= 2  # the bot and its early child
        for groups, limits in seen.values():
            assert "/arena-" in pids_line(groups), groups
            size = next(line for line in limits.splitlines() if line.startswith("Max file size"))
            assert "unlimited" not in size
    finally:
        kill_all(str(tmp_path / script))
    assert survivors(str(tmp_path / script)) == []
