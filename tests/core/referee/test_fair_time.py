"""Fair time with real processes: a bot loses on time only through its own fault.

A bot's processes share one core of their own (its cgroup), so children it starts cannot
take its opponent's time; a turn over its budget only because the machine kept the bot
waiting in the run queue is a ``stall``, replayed, never a timeout; a bot that really
takes too long still loses; ``clock: cpu`` charges the CPU of all the bot's processes;
a log written after an answer stays with that answer's turn, however late it comes.
"""

from __future__ import annotations

import json
import os
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.botproc import Sandbox, bwrap_works, cgroups, lines
from arena.plugins.registry import load_registry
from arena.records import BotSpec, Clock
from arena.referee.engine import Referee
from arena.tournament.config import load_tournament
from arena.tournament.run import run_tournament
from arena.views.leaderboard import ShownLeaderboard
from support.load import spinning, stc_tournament, stc_worker
from support.toygame import ToyGame

TOY_100MS = Clock(scale=100 / ToyGame.info.turn_ms)  # the toy's 300 ms turns as 100 ms

needs_cpu_cgroup = pytest.mark.skipif(
    (found := cgroups.parents()) is None or found.cpu is None,
    reason="no cpu cgroup controller here (root or a delegated cgroup v2 subtree)",
)


def bot(tmp_path: Path, name: str, source: str, *args: str) -> BotSpec:
    path = tmp_path / "bots" / f"{name}.py"
    path.parent.mkdir(exist_ok=True)
    path.write_text(textwrap.dedent(source))
    return BotSpec(name, (sys.executable, str(path), *args))


def play(
    tmp_path: Path,
    bots: list[BotSpec],
    clock: Clock = TOY_100MS,
    turns: int = 4,
    sandbox: str = "none",
):
    game = ToyGame()
    referee = Referee(game, bots, tmp_path / "game", Sandbox(sandbox), clock=clock)
    return referee.play(7, {**game.info.settings, "turns": turns})


# A bot that spends WORK seconds of its own CPU on every turn but the first.
WORKER = """
import os, sys, time
CPU = {cpu!r}
if CPU is not None:
    try:
        os.sched_setaffinity(0, {{CPU}})
    except OSError:  # confined to another core of its own (a cpuset)
        pass
first = True
for line in sys.stdin:
    if not first:
        t = time.thread_time()
        while time.thread_time() - t < {work!r}:
            pass
    first = False
    print(1, flush=True)
"""

THIEF = """
import os, sys
started = False
for line in sys.stdin:
    if not started:  # 8 children that leave its session and spin for ever
        started = True
        for _ in range(8):
            if os.fork() == 0:
                os.setsid()
                while True:
                    pass
    print(1, flush=True)
"""


def worker(tmp_path: Path, name: str, work: float, cpu: int | None = None) -> BotSpec:
    return bot(tmp_path, name, WORKER.format(work=work, cpu=cpu))


@pytest.fixture
def hogs() -> Iterator[int]:
    """Eight busy processes outside arena, pinned to one core; yields that core."""
    core = max(os.sched_getaffinity(0))
    with spinning([core]):
        yield core


@needs_cpu_cgroup
def test_a_thief_bots_spinning_children_do_not_make_its_opponent_time_out(tmp_path):
    honest = worker(tmp_path, "honest", 0.040)  # 40 ms of CPU per 100 ms turn
    record = play(tmp_path, [bot(tmp_path, "thief", THIEF), honest], turns=6)
    assert record.reason != "stall", record.stall
    assert record.seats[1].forfeit is None, record.seats[1].detail
    assert record.seats[1].moves == 6
    assert record.seats[0].forfeit is None


@needs_cpu_cgroup
def test_a_turn_over_budget_from_waiting_in_the_run_queue_is_a_stall(tmp_path, hogs):
    # 60 ms of CPU per 100 ms turn, on a core eight other processes keep busy.
    record = play(tmp_path, [worker(tmp_path, "honest", 0.060, hogs)])
    assert record.reason == "stall"
    assert "waiting by the machine" in record.stall
    assert record.seats[0].forfeit is None


@needs_cpu_cgroup
def test_a_bot_over_its_budget_on_its_own_still_loses(tmp_path, hogs):
    busy = play(tmp_path / "loaded", [worker(tmp_path, "slow", 0.150, hogs)])
    assert busy.reason != "stall"
    assert busy.seats[0].forfeit == "timeout"
    idle = play(tmp_path / "idle", [worker(tmp_path, "slow", 0.150)])
    assert idle.seats[0].forfeit == "timeout"


FORKER = """
import os, sys, time
for line in sys.stdin:
    pid = os.fork()
    if pid == 0:  # the child does the work; the bot itself sleeps in waitpid
        t = time.thread_time()
        while time.thread_time() - t < {work!r}:
            pass
        os._exit(0)
    os.waitpid(pid, 0)
    print(1, flush=True)
"""


def test_clock_cpu_charges_the_cpu_of_the_bots_children(tmp_path):
    cpu_clock = Clock(scale=100 / ToyGame.info.turn_ms, kind="cpu")
    spec = bot(tmp_path, "forker", FORKER.format(work=0.040))
    record = play(tmp_path / "fits", [spec], cpu_clock, turns=3)
    assert record.seats[0].forfeit is None
    assert all(ms >= 39 for ms in record.seats[0].turn_ms), record.seats[0].turn_ms
    over = bot(tmp_path, "forker2", FORKER.format(work=0.150))
    record = play(tmp_path / "over", [over], cpu_clock, turns=3)
    assert record.seats[0].forfeit == "timeout"
    assert "CPU" in record.seats[0].detail


LATE_LOGGER = """
import sys, time
for n, line in enumerate(sys.stdin):
    print(1, flush=True)
    time.sleep(0.005)  # its log comes 5 ms after its answer
    print(f"log of turn {n}", file=sys.stderr, flush=True)
"""


@pytest.mark.parametrize(
    "sandbox",
    [
        "none",
        pytest.param(
            "bwrap",
            marks=pytest.mark.skipif(not bwrap_works(), reason="bubblewrap cannot run here"),
        ),
    ],
)
def test_a_log_written_after_the_answer_stays_with_its_turn(tmp_path, monkeypatch, sandbox):
    # The referee waits at most READY_WAIT_S (50 ms) for a bot to be back reading; a host
    # stall of that long (this VM showed some in full runs) would misfile a log by design.
    # A longer cap here tests the mechanism, not the machine. Under bubblewrap, its own
    # processes wait in poll whatever the bot does: they are not the bot waiting for input.
    monkeypatch.setattr(lines, "READY_WAIT_S", 1.0)
    quick = bot(tmp_path, "quick", "import sys\nfor line in sys.stdin: print(1, flush=True)\n")
    play(tmp_path, [bot(tmp_path, "late", LATE_LOGGER), quick], turns=6, sandbox=sandbox)
    steps = json.loads((tmp_path / "game" / "replay.json").read_text())["steps"]
    logs = [step["io"]["0"]["stderr"] for step in steps]
    assert logs == [f"log of turn {n}\n" for n in range(6)]


# -- a tournament replays its stalls -----------------------------------------------------


@needs_cpu_cgroup
def test_a_tournament_replays_a_stalled_game_and_says_so(tmp_path):
    core = max(os.sched_getaffinity(0))
    # Busy outside arena on the loaded bot's core (the game's bots are given that core, or
    # share every core: spinning) until that bot starts a second time (bots do not see
    # the test's /tmp: the hogs watch the process table).
    spin = textwrap.dedent("""
        import os, sys
        os.sched_setaffinity(0, {int(sys.argv[1])})
        seen = set()
        while len(seen) < 2:
            for pid in os.listdir("/proc"):
                try:
                    with open(f"/proc/{pid}/cmdline", "rb") as f:
                        command = f.read()
                    # The bot's own process (not this very line, nor the unshare
                    # that starts it in a PID namespace of its own).
                    if b"load" b"ed.py" in command and b"unshare" not in command:
                        seen.add(pid)
                except OSError:
                    pass
    """)
    loaded = tmp_path / "loaded.py"
    loaded.write_text(stc_worker(0.06, cpu=core))
    plain = tmp_path / "plain.py"
    plain.write_text(stc_worker(0.0))
    tournament = stc_tournament(tmp_path, {"loaded": loaded, "plain": plain}, games=2)
    with spinning([core], source=spin):
        config = load_tournament(tournament, load_registry())
        summary = run_tournament(config, log=lambda _: None)
    assert summary.abandoned == 0, summary.stalled
    assert summary.played == 2
    rows = summary.leaderboard.rows()
    assert all(row.get("timeout", 0) == 0 for row in rows), rows
    if summary.replayed == 0:  # seen once in four full runs: the hogs never took the core
        pytest.skip("no turn stalled: the busy processes did not take the bot's core this time")
    assert "replayed after a stall" in ShownLeaderboard.of(summary.leaderboard).render()
