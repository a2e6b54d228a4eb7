"""The wall clock's judgement of a turn over its limit, from recorded counters (values
worked out by hand): a stall where the machine's waits explain the overage, the bot's
timeout where its own do (its memory limit, its own threads, its disk). And a stall
never voids a loss of another seat's own that decides the game."""

from __future__ import annotations

import sys
from dataclasses import dataclass

import pytest

from arena.botproc import Sandbox, Usage
from arena.botproc.lines import LateStamp
from arena.botproc.pressure import MemoryUse, Pressure, StorageUse, WaitCounters
from arena.records import BotSpec, Clock, SeatIO
from arena.referee import engine
from arena.referee.clocks import PendingTurn, Stall, WallClock, waited_ms
from support.toygame import ToyGame

MIB = 1 << 20
CALM = MemoryUse(hits=0, usage=30 * MIB, peak=30 * MIB, limit=256 * MIB)
AT_LIMIT = MemoryUse(hits=0, usage=256 * MIB - 100_000, peak=256 * MIB, limit=256 * MIB)
DISK = StorageUse(read=0, written=0)


def usage(cpu_ms: float, queued_ms: float, stalls: Pressure, memory: MemoryUse = CALM) -> Usage:
    """What a bot had used: its group's CPU, its one thread's run-queue wait, its PSI."""
    counters = WaitCounters(stalls, memory, DISK)
    return Usage(int(cpu_ms * 1e6), {7: int(queued_ms * 1e6)}, counters)


START = usage(0.0, 0.0, Pressure(0, 0, 0))


def turn(budget_ms: float = 100.0) -> PendingTurn:
    p = PendingTurn("seat 0 (bot)", 0.0, budget_ms / 1000.0, budget_ms, 0.0)
    p.usage = START
    return p


def io(ms: float, budget_ms: float = 100.0) -> SeatIO:
    return {"input": "", "lines": [], "ms": ms, "budget_ms": budget_ms, "stderr": ""}


@dataclass
class RecordedBot:
    """What the clock asks of a line bot: its usage now and its late stamp."""

    now: Usage
    late: LateStamp | None = None

    def usage(self) -> Usage:
        return self.now


def test_a_memory_stall_of_the_machine_makes_a_late_answer_a_stall():
    # 180 ms charged, 60 ms of CPU: 120 ms off its core. 4 ms in the run queue (its
    # group: 9 ms, its start-up chain), 76 ms reclaiming memory far from its own limit:
    # 9 + 76 = 85 ms the machine's; 180 - 85 = 95 ms <= 100 ms: a stall.
    end = usage(60.0, 4.0, Pressure(9_000, 0, 76_000))
    p, seat = turn(), io(180.0)
    assert waited_ms(p, seat, end, 0.0) == pytest.approx(85.0)
    assert seat["wait_ms"] == 80.0  # as far as it made the turn miss
    with pytest.raises(Stall, match=r"took 180.0 ms \(budget 100 ms\), 85.0 ms of it"):
        WallClock(Clock()).check_late(RecordedBot(end), p, seat, 0.18)


def test_the_same_stall_at_its_own_memory_limit_is_its_timeout():
    end = usage(60.0, 4.0, Pressure(9_000, 0, 76_000), AT_LIMIT)
    p, seat = turn(), io(180.0)
    clock = WallClock(Clock())
    clock.check_late(RecordedBot(end), p, seat, 0.18)  # no stall: a timeout
    assert seat["wait_ms"] == 0.0
    assert clock.late_detail(p, seat) == (
        "answered after 180.0 ms (budget 100 ms); its waits were its own: "
        "it was at its memory limit (256 MiB) during the turn"
    )


def test_threads_that_fight_each_other_make_no_wait_of_the_machine():
    # Four threads on its one core: 240 ms charged, 240 ms of its group's CPU, its main
    # thread 180 ms in the run queue behind its own threads: no time off its core.
    end = usage(240.0, 180.0, Pressure(240_000, 0, 0))
    p, seat = turn(), io(240.0)
    assert waited_ms(p, seat, end, 0.0) == 0.0
    WallClock(Clock()).check_late(RecordedBot(end), p, seat, 0.24)  # a timeout


def test_every_seat_silent_through_its_first_turn_under_memory_pressure_is_a_stall():
    # Both stc seats silent for their whole 1,000 ms first turn, each 3 ms in the run
    # queue and 40 ms on a CPU: their interpreters' pages were being read back while the
    # machine reclaimed (910 ms and 990 ms of memory stall, far from their limits).
    # Seat 0: 1,020 ms charged, 3 + 910 = 913 ms the machine's: 107 ms <= 1,000 ms.
    # Seat 1: 3 + 990 = 993 ms, but only 1,020 - 40 = 980 ms off its core: 980 ms.
    # Each is waited on (its deadline moved by the machine's wait), then stalls.
    clock = WallClock(Clock())
    for memory, waited in ((910_000, 913.0), (990_000, 980.0)):
        end = usage(40.0, 3.0, Pressure(3_000, 0, memory))
        p, seat = turn(1000.0), io(1020.0, 1000.0)
        assert clock.overdue(RecordedBot(end), p, seat, 1.02) is True  # waited on
        assert p.deadline == pytest.approx((1000.0 + waited + 1.0) / 1000)
        with pytest.raises(Stall):
            clock.overdue(RecordedBot(end), p, seat, 5.1)  # 4 x 1 s + 1 s later: a stall


def test_silent_seats_that_only_slept_time_out_whatever_the_machine_does():
    # A sleeping bot stalls on nothing: its group counts no wait; its silence is its own.
    clock = WallClock(Clock())
    end = usage(2.0, 0.5, Pressure(500, 0, 0))
    p, seat = turn(1000.0), io(1020.0, 1000.0)
    assert clock.overdue(RecordedBot(end), p, seat, 1.02) is False
    assert clock.timeout_detail(p, seat) == "no answer within 1000 ms"


# -- a stall never voids a loss that decides the game ----------------------------------

SILENT_AFTER_FIRST = """
import sys, time
first = True
for line in sys.stdin:
    if not first:
        time.sleep(60)
    first = False
    print(1, flush=True)
"""


class StallsSeat(WallClock):
    """A wall clock that finds the machine kept the seats ``stalled`` waiting (as the
    counters would show) and every other silent seat to blame."""

    stalled: tuple[str, ...] = ()

    def overdue(self, bot, p: PendingTurn, io: SeatIO, now: float) -> bool:
        if p.who.startswith(self.stalled):
            raise p.stall(io, io["ms"])
        return False


def play_silent(tmp_path, monkeypatch, players: int, stalled: tuple[str, ...]):
    StallsSeat.stalled = stalled
    monkeypatch.setattr(engine, "turn_clock", lambda clock: StallsSeat(clock))
    tmp_path.mkdir(exist_ok=True)
    script = tmp_path / "silent.py"
    script.write_text(SILENT_AFTER_FIRST)
    bots = [BotSpec(f"b{i}", (sys.executable, str(script))) for i in range(players)]
    game = ToyGame()
    clock = Clock(scale=100 / ToyGame.info.turn_ms)
    referee = engine.Referee(game, bots, tmp_path / "game", Sandbox("none"), clock=clock)
    return referee.play(7, {**game.info.settings, "turns": 3})


def test_a_seat_that_loses_on_its_own_while_its_opponent_stalls_loses_the_game(
    tmp_path, monkeypatch
):
    record = play_silent(tmp_path, monkeypatch, 2, ("seat 1",))
    assert record.reason != "stall", record.stall
    assert record.seats[0].forfeit == "timeout"
    assert record.seats[1].forfeit is None
    assert [s.rank for s in record.seats] == [1, 0]


def test_a_stall_beside_a_loss_that_does_not_end_the_game_is_still_a_stall(tmp_path, monkeypatch):
    record = play_silent(tmp_path, monkeypatch, 3, ("seat 1", "seat 2"))
    assert record.reason == "stall"
    alone = play_silent(tmp_path / "alone", monkeypatch, 2, ("seat 0", "seat 1"))
    assert alone.reason == "stall"  # every seat stalled: no loss of anyone's own
