"""Fair time, the other side: the machine's wait excuses a turn only where it could have
put the turn over its limit, so a bot over its budget on its own is caught every turn,
however long the referee itself waited in the run queue while the bot was thinking; and
turn-per-process bots (file transport) get the same stall detection as line bots.
"""

from __future__ import annotations

import os
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.botproc import Sandbox, cgroups
from arena.records import BotSpec, Clock
from arena.referee.engine import Referee
from support.load import spinning
from support.toygame import FileToyGame, ToyGame

needs_cpu_cgroup = pytest.mark.skipif(
    (found := cgroups.parents()) is None or found.cpu is None,
    reason="no cpu cgroup controller here (root or a delegated cgroup v2 subtree)",
)
needs_two_cores = pytest.mark.skipif(
    len(os.sched_getaffinity(0)) < 2, reason="needs two cores (one of them kept busy)"
)


def bot(tmp_path: Path, name: str, source: str) -> BotSpec:
    path = tmp_path / "bots" / f"{name}.py"
    path.parent.mkdir(exist_ok=True, parents=True)
    path.write_text(textwrap.dedent(source))
    return BotSpec(name, (sys.executable, str(path)))


@pytest.fixture
def busy_core() -> Iterator[int]:
    """Eight busy processes outside arena, pinned to one core; yields that core."""
    core = max(os.sched_getaffinity(0))
    with spinning([core]):
        yield core


@pytest.fixture
def referee_on() -> Iterator[int]:
    """The referee (this process) made to share a core with eight busy processes at nice 0
    (at nice -20 they would starve the bots' launches, forked on this core before they
    move away); the bots start elsewhere."""
    core = max(os.sched_getaffinity(0))
    before = os.sched_getaffinity(0)
    with spinning([core], nice=False):
        os.sched_setaffinity(0, {core})
        try:
            yield core
        finally:
            os.sched_setaffinity(0, before)


# Sleeps 105 ms from having read its input, then answers; elsewhere than the busy core.
OVER = """
import os, sys, time
try:
    os.sched_setaffinity(0, set(range(os.cpu_count())) - {{{core}}})
except OSError:  # confined to a core of its own (a cpuset)
    pass
for n, line in enumerate(sys.stdin):
    if n:
        time.sleep({sleep!r})
    print(1, flush=True)
"""
QUICK = """
import os, sys
try:
    os.sched_setaffinity(0, set(range(os.cpu_count())) - {{{core}}})
except OSError:  # confined to a core of its own (a cpuset)
    pass
for line in sys.stdin:
    print(1, flush=True)
"""


@needs_two_cores
def test_a_bot_at_105_percent_is_caught_though_the_referee_waited_meanwhile(tmp_path, referee_on):
    # The referee shares a core with eight busy processes: every answer of the quick
    # seats wakes it, and it waits in the run queue each time, while seat 0 still sleeps.
    # Those waits did not delay seat 0's answer: its 105 ms turns are timeouts.
    game = ToyGame()
    clock = Clock(scale=100 / game.info.turn_ms)  # 100 ms turns
    caught = 0
    for attempt in range(5):
        quick = [bot(tmp_path, f"quick{i}", QUICK.format(core=referee_on)) for i in range(3)]
        over = bot(tmp_path, "over", OVER.format(core=referee_on, sleep=0.105))
        referee = Referee(
            game, [over, *quick], tmp_path / f"g{attempt}", Sandbox("none"), clock=clock
        )
        record = referee.play(1, {**game.info.settings, "turns": 3})
        assert record.reason != "stall", record.stall
        assert record.seats[0].forfeit == "timeout", record.seats[0]
        caught += 1
    assert caught == 5


# -- turn-per-process bots -----------------------------------------------------------

FILE_WORKER = """
import os, sys, time
try:
    os.sched_setaffinity(0, {{{core}}})
except OSError:  # confined to another core of its own (a cpuset)
    pass
t = time.process_time()
while time.process_time() - t < {work!r}:
    pass
open("move.json", "w").write("1")
"""


def play_file(tmp_path: Path, spec: BotSpec):
    game = FileToyGame()
    clock = Clock(scale=300 / game.info.turn_ms)  # 300 ms per turn, start-up included
    referee = Referee(game, [spec], tmp_path / "game", Sandbox("none"), clock=clock)
    return referee.play(3, {**game.info.settings, "turns": 2, "simultaneous": False})


@needs_cpu_cgroup
def test_a_file_turn_over_budget_from_waiting_in_the_run_queue_is_a_stall(tmp_path, busy_core):
    # 150 ms of CPU in a 300 ms turn, on a core eight other processes keep busy.
    record = play_file(tmp_path, bot(tmp_path, "w", FILE_WORKER.format(core=busy_core, work=0.15)))
    assert record.reason == "stall", record.seats[0]
    assert "waiting by the machine" in record.stall


@needs_cpu_cgroup
def test_a_file_turn_over_budget_on_its_own_still_loses(tmp_path, busy_core):
    spec = bot(tmp_path, "slow", FILE_WORKER.format(core=busy_core, work=0.45))
    record = play_file(tmp_path, spec)
    assert record.reason != "stall", record.stall
    assert record.seats[0].forfeit == "timeout"
