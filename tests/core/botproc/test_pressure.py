"""Whose waits a turn's were, judged from counters read around it (recorded values,
worked out by hand): the machine's are forgiven, the bot's own never."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.botproc import cgroups, procinfo, resolve_sandbox
from arena.botproc.homes import BotHome, remove_retired
from arena.botproc.pressure import (
    MemoryUse,
    Pressure,
    PressureFiles,
    StorageUse,
    WaitCounters,
    Waits,
    limit_hits,
    some_total,
    turn_waits,
    visibility_note,
)
from arena.botproc.spawn import spawn
from support.hostile import MODES

MIB = 1 << 20
LIMIT = 64 * MIB
CALM = MemoryUse(hits=0, usage=20 * MIB, peak=20 * MIB, limit=LIMIT)
DISK = StorageUse(read=4096, written=0)


def counters(
    cpu: int = 0,
    io: int = 0,
    memory: int = 0,
    use: MemoryUse | None = CALM,
    storage: StorageUse | None = DISK,
) -> WaitCounters:
    return WaitCounters(Pressure(cpu, io, memory), use, storage)


START = counters(cpu=1_000, io=2_000, memory=3_000)


def test_psi_totals_are_read_from_the_some_line():
    text = (
        b"some avg10=72.41 avg60=84.88 avg300=43.21 total=6197629856\n"
        b"full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
    )
    assert some_total(text) == 6197629856
    assert some_total(b"full avg10=0.00 avg60=0.00 avg300=0.00 total=5\n") is None
    assert some_total(b"") is None
    assert some_total(None) is None


def test_limit_events_count_max_high_and_oom_on_v2_and_fail_counts_on_v1():
    events = b"low 0\nhigh 2\nmax 5\noom 1\noom_kill 1\noom_group_kill 0\n"
    assert limit_hits([events], 2) == 2 + 5 + 1
    assert limit_hits([b"3\n", b"4\n", None], 1) == 7
    assert limit_hits([None, b"junk"], 1) == 0


def test_the_machines_waits_are_forgiven_cpu_and_the_larger_of_io_and_memory():
    # 12 ms waiting for a CPU, 30 ms on I/O (its disk idle), 45 ms on memory (the machine
    # reclaiming: it is far from its own limit): 12 and 45 (I/O and memory overlap).
    end = counters(cpu=13_000, io=32_000, memory=48_000)
    assert turn_waits(START, end) == Waits(run_queue=12.0, blocked=45.0)
    end = counters(cpu=1_000, io=72_000, memory=3_500)
    assert turn_waits(START, end) == Waits(run_queue=0.0, blocked=70.0)


def test_nothing_is_forgiven_in_a_turn_at_its_own_memory_limit():
    stalled = dict(cpu=40_000, io=50_000, memory=90_000)
    # Its usage at the limit at its answer (within 2 MiB of 64 MiB).
    at_limit = MemoryUse(hits=0, usage=LIMIT - MIB, peak=LIMIT - MIB, limit=LIMIT)
    waits = turn_waits(START, counters(**stalled, use=at_limit))
    assert waits.run_queue == waits.blocked == 0.0
    assert waits.own == "it was at its memory limit (64 MiB) during the turn"
    # Reached it during the turn and let go since: its peak tells.
    was = MemoryUse(hits=0, usage=10 * MIB, peak=LIMIT - 512 * 1024, limit=LIMIT)
    assert turn_waits(START, counters(**stalled, use=was)).own
    # The kernel counted it meeting its limit (v2 memory.events): twice.
    hit = MemoryUse(hits=2, usage=30 * MIB, peak=30 * MIB, limit=LIMIT)
    waits = turn_waits(START, counters(**stalled, use=hit))
    assert waits == Waits(own="its memory cgroup met its limit 2 time(s) during the turn")


def test_a_limit_met_in_an_earlier_turn_does_not_make_this_ones_waits_its_own():
    earlier = MemoryUse(hits=3, usage=10 * MIB, peak=LIMIT, limit=LIMIT)
    before = counters(cpu=1_000, io=2_000, memory=3_000, use=earlier)
    end = counters(cpu=21_000, io=2_000, memory=3_000, use=earlier)
    assert turn_waits(before, end) == Waits(run_queue=20.0, blocked=0.0)


def test_io_waits_are_its_own_when_it_read_or_wrote_storage_itself():
    end = dict(cpu=1_000, io=62_000, memory=3_000)
    wrote = StorageUse(read=4096, written=8192)
    assert turn_waits(START, counters(**end, storage=wrote)) == Waits()
    read = StorageUse(read=1 << 30, written=0)
    assert turn_waits(START, counters(**end, storage=read)) == Waits()
    assert turn_waits(START, counters(**end, storage=None)) == Waits()  # unknown: its own
    assert turn_waits(START, counters(**end)) == Waits(blocked=60.0)


def test_memory_stalls_of_a_bot_without_a_memory_cap_are_not_forgiven():
    before = counters(cpu=1_000, io=2_000, memory=3_000, use=None)
    end = counters(cpu=5_000, io=2_000, memory=93_000, use=None)
    assert turn_waits(before, end) == Waits(run_queue=4.0, blocked=0.0)


def test_without_psi_of_its_own_only_its_memory_limit_is_judged():
    blind = WaitCounters(None, CALM, None)
    assert turn_waits(blind, blind) == Waits()
    at_limit = WaitCounters(None, MemoryUse(0, LIMIT, LIMIT, LIMIT), None)
    assert turn_waits(blind, at_limit).own
    assert turn_waits(None, START) == Waits()


needs_psi_groups = pytest.mark.skipif(
    (found := cgroups.parents()) is None or found.pressure is None,
    reason="bots get no cgroup v2 group with PSI files here (root or a delegated subtree)",
)


@needs_psi_groups
def test_a_bot_group_has_psi_files_of_its_own():
    group = cgroups.BotCgroup.create(None, 64)
    assert group is not None and group.pressure_dir is not None
    try:
        files = PressureFiles(group.pressure_dir)
        assert files.read() == Pressure(0, 0, 0)  # nobody in it yet
        files.close()
        seen = group.counters([])
        assert seen.memory is not None and seen.memory.limit == 64 * MIB
        # Beside v1, joined by the launcher's one thread (no wait for an RCU grace period).
        join = "cgroup.threads" if group.version == 1 else "cgroup.procs"
        assert Path(group.join_files[-1]).name == join
    finally:
        group.remove()


def test_where_bots_have_no_psi_of_their_own_a_run_notes_it_once():
    note = visibility_note(own_pressure=False)
    assert note is not None and note.startswith("note: disk and memory waits are not visible (")
    assert note.endswith(
        "a turn they put over its budget is the bot's timeout; see docs/fair-time.md"
    )


# A bot with a second thread and a child process, both started after its launcher joined.
THREAD_AND_CHILD = """
import subprocess, sys, threading, time
threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
print("ready", flush=True)
sys.stdin.readline()
"""


@needs_psi_groups
@pytest.mark.parametrize("mode", MODES)
def test_every_thread_and_child_of_a_bot_stalls_in_its_own_psi_group(mode):
    sandbox = resolve_sandbox(mode)
    home = BotHome.create("test", 1, sandbox)
    argv = [sys.executable, "-c", THREAD_AND_CHILD]
    pipe = subprocess.PIPE
    bot = spawn(argv, home.workdirs[0], sandbox, pipe, pipe, subprocess.DEVNULL, 1 << 20)
    try:
        assert bot.proc.stdout is not None
        assert bot.proc.stdout.readline() == b"ready\n"
        assert bot.cgroup is not None and bot.cgroup.pressure_dir is not None
        name = bot.cgroup.pressure_dir.name
        tree = [bot.pid, *procinfo.descendants(bot.pid)]
        tasks = [(pid, tid) for pid in tree for tid in os.listdir(f"/proc/{pid}/task")]
        assert len(tasks) >= 3  # the bot's two threads and its child (and bubblewrap's own)
        for pid, tid in tasks:
            lines = Path(f"/proc/{pid}/task/{tid}/cgroup").read_text().splitlines()
            v2 = next(line for line in lines if line.startswith("0::"))
            assert v2.rsplit("/", 1)[-1] == name, (pid, tid, v2)
        seen = bot.cgroup.counters(tree)
        assert seen.own is not None and seen.own.cpu > 0  # its start-up waited for a CPU
        assert seen.storage is not None
    finally:
        bot.kill()
        home.close()
        remove_retired()
