"""The referee's clocks: how a turn is charged and when it is over, one class per kind.

A tournament's ``clock`` (:class:`~arena.records.Clock`) picks one: ``wall`` (the default,
:class:`WallClock`) charges the wall time from a turn's input to its answer and breaks the
game off as a stall when only the machine's waits put a turn over its limit; ``cpu``
(:class:`CpuClock`) charges the CPU time the bot's processes used. The seats ask their
clock every question a clock rule answers; nothing else tests the clock's kind.
See ``docs/fair-time.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from arena.botproc import LineBot, Usage
from arena.botproc.pressure import turn_waits
from arena.errors import ArenaError
from arena.records import Clock, Forfeit, SeatIO

CPU_WALL_FACTOR = 4.0
"""With ``clock: cpu``, a turn may last this many times its budget in wall time (plus a
second) before a bot that does not answer, using no CPU (sleeping, waiting), forfeits;
with ``clock: wall``, the most a turn the machine keeps waiting is waited for."""


class Stall(ArenaError):
    """A turn went over its budget only because the machine kept the bot or the referee
    waiting: the game is broken off, to be played again."""


class StepStall(Stall):
    """A step in which a seat stalled, raised once every other seat of it was judged: the
    moves and forfeits of those seats (a forfeit may decide the game: see the referee)."""

    def __init__(self, stall: Stall, moves: dict[int, Any], forfeits: dict[int, Forfeit]):
        super().__init__(str(stall))
        self.moves = moves
        self.forfeits = forfeits


@dataclass
class PendingTurn:
    """A line seat's turn from its input to its answer."""

    who: str  # ``seat 0 (greedy)``, for a stall's message
    start: float
    deadline: float  # the budget and the margin (wall clock): past it, the seat forfeits
    budget_ms: float
    margin_ms: float
    lines: list[str] = field(default_factory=list)
    command: list[str] = field(default_factory=list)  # units of a command not yet whole
    usage: Usage | None = None  # the bot's CPU and run-queue wait as its clock started
    check_at: float = float("inf")  # clock cpu: when to look at the CPU used next
    own: str = ""  # why none of the turn's waits is forgiven (the bot's own doing), if so

    @property
    def limit_ms(self) -> float:
        """The budget and the margin: a turn charged more forfeits."""
        return self.budget_ms + self.margin_ms

    def budget_text(self) -> str:
        """``100 ms``, or ``100 ms + 50 ms margin`` with a time margin."""
        text = f"{self.budget_ms:g} ms"
        return f"{text} + {self.margin_ms:g} ms margin" if self.margin_ms else text

    def stall(self, io: SeatIO, waited: float) -> Stall:
        """The stall of this turn, charged ``io["ms"]``, ``waited`` ms of it the machine's."""
        return Stall(
            f"{self.who} took {io['ms']:.1f} ms (budget {self.budget_text()}), "
            f"{waited:.1f} ms of it kept waiting by the machine"
        )


class TurnClock:
    """The rules of one kind of clock (a subclass per kind; see :func:`turn_clock`)."""

    kind: ClassVar[str]
    excuses_turn_processes: ClassVar[bool] = False
    """Whether a per-turn process the machine kept waiting past its limit is given that
    time (:func:`~arena.botproc.run_turn_process`'s ``excuse``)."""
    spent: ClassVar[str] = ""
    """What a late answer's time was (``of CPU `` for the CPU clock)."""

    def __init__(self, clock: Clock) -> None:
        self.margin_ms = clock.margin_ms

    def arm(self, bot: LineBot, p: PendingTurn) -> None:
        """Set up the watch of a turn whose input was just sent."""

    def charge(self, bot: LineBot, p: PendingTurn, at: float, io: SeatIO) -> float:
        """The ms the turn is charged up to ``at``."""
        return max(0.0, at - p.start) * 1000.0

    def check_late(self, bot: LineBot, p: PendingTurn, io: SeatIO, arrived: float) -> None:
        """An answer stamped ``arrived`` was charged over its limit: raise :class:`Stall`
        when that was not the bot's doing."""

    def overdue(self, bot: LineBot, p: PendingTurn, io: SeatIO, now: float) -> bool:
        """The seat has not answered by ``p.deadline`` (``io["ms"]`` charged up to
        ``now``): True to wait on (the deadline moved), False for a timeout; raises
        :class:`Stall` when the game must be played again."""
        return False

    def check(self, bot: LineBot, p: PendingTurn, now: float, io: SeatIO) -> Forfeit | None:
        """At ``p.check_at``: a timeout already, or None (and when to look next)."""
        return None

    def timeout_detail(self, p: PendingTurn, io: SeatIO) -> str:
        """Why a seat that never answered forfeits."""
        return f"no answer within {p.budget_text()}{_own(p)}"

    def late_detail(self, p: PendingTurn, io: SeatIO) -> str:
        """Why a seat that answered too late forfeits."""
        spent = f"{io['ms']:.1f} ms {self.spent}"
        return f"answered after {spent}(budget {p.budget_text()}){_own(p)}"


def _own(p: PendingTurn) -> str:
    """``; its waits were its own: ...`` when the bot caused them (see :func:`waited_ms`)."""
    return f"; its waits were its own: {p.own}" if p.own else ""


class WallClock(TurnClock):
    """``clock: wall``: the wall time from input to answer; what the machine kept the bot
    (or the referee, where it could delay the stamp) waiting is not the bot's."""

    kind = "wall"
    excuses_turn_processes = True

    def arm(self, bot: LineBot, p: PendingTurn) -> None:
        """A line read past the limit is noted with the machine's doing meanwhile."""
        bot.late_after = p.deadline

    def check_late(self, bot: LineBot, p: PendingTurn, io: SeatIO, arrived: float) -> None:
        """A stall when the turn is within its limit once the machine's waits until the answer's
        stamp are taken off."""
        if p.usage is None:
            return
        late = bot.late
        if late is not None and late.at == arrived:
            waited = waited_ms(p, io, late.usage, late.hold_ns / 1e6)
        else:  # read within the limit, charged over it: only the referee's start
            waited = waited_ms(p, io, bot.usage(), 0.0)
        if io["ms"] - waited <= p.limit_ms:
            raise p.stall(io, waited)

    def overdue(self, bot: LineBot, p: PendingTurn, io: SeatIO, now: float) -> bool:
        """While the machine's wait is what puts the turn over, wait on (at most
        :data:`CPU_WALL_FACTOR` times the limit and a second, then a stall)."""
        if p.usage is None:
            return False
        # Over on the wall clock: is it on the bot's own time? While the machine's wait
        # is what puts it over, the bot may still answer in time: wait on. (It has not
        # answered: the referee's lateness since is not the bot's.)
        waited = waited_ms(p, io, bot.usage(), 0.0)
        if io["ms"] - waited > p.limit_ms:
            return False
        if now - p.start < p.limit_ms / 1000.0 * CPU_WALL_FACTOR + 1.0:
            p.deadline = p.start + (p.limit_ms + waited + 1.0) / 1000.0
            return True
        raise p.stall(io, waited)


class CpuClock(TurnClock):
    """``clock: cpu``: the CPU time all the bot's processes used since its input; the wall
    clock only catches a bot that never answers without using CPU."""

    kind = "cpu"
    spent = "of CPU "

    def arm(self, bot: LineBot, p: PendingTurn) -> None:
        """Look at the CPU used first at the wall deadline (no sooner over: one core at most), and
        forfeit a bot that uses none only much later."""
        p.check_at, p.deadline = p.deadline, p.start + p.limit_ms / 1000.0 * CPU_WALL_FACTOR + 1.0

    def charge(self, bot: LineBot, p: PendingTurn, at: float, io: SeatIO) -> float:
        """The CPU time all the bot's processes used since its input (the wall time goes to
        ``io["wall_ms"]``)."""
        wall = super().charge(bot, p, at, io)
        if p.usage is None:
            return wall
        io["wall_ms"] = round(wall, 3)
        return bot.usage().since(p.usage)[0]

    def check(self, bot: LineBot, p: PendingTurn, now: float, io: SeatIO) -> Forfeit | None:
        """Over the limit on CPU already: a timeout; else look again when it could be."""
        used = self.charge(bot, p, now, io)
        if used > p.limit_ms:
            io["ms"] = used
            detail = f"used {used:.1f} ms of CPU without answering (budget {p.budget_text()})"
            return Forfeit("timeout", detail, "\n".join(p.lines))
        # All its processes together get one core at most: no sooner over the limit.
        p.check_at = now + max(0.001, (p.limit_ms - used) / 1000.0)
        return None

    def timeout_detail(self, p: PendingTurn, io: SeatIO) -> str:
        """``no answer within 100 ms of CPU (520 ms passed)``."""
        return f"no answer within {p.budget_text()} of CPU ({io['wall_ms']:.0f} ms passed)"


CLOCKS: dict[str, type[TurnClock]] = {c.kind: c for c in (WallClock, CpuClock)}
"""Every kind of clock, by the name a tournament's ``clock`` key gives."""


def turn_clock(clock: Clock) -> TurnClock:
    """The rules of ``clock``'s kind."""
    return CLOCKS[clock.kind](clock)


def waited_ms(p: PendingTurn, io: SeatIO, usage: Usage, hold_ms: float) -> float:
    """The ms of seat's turn so far (``io["ms"]``, wall clock, up to ``usage``: its
    answer, or now) that the machine kept it waiting, as far as that could have put it
    over its limit: the bot's own process (or any of its group's, its start-up chain
    included) runnable in the run queue, and its group waiting for I/O or on memory as far
    as the rest of the machine did too (:func:`~arena.botproc.pressure.turn_waits`), while
    its processes were not using the core they get (its children's CPU is its own doing);
    and the referee itself runnable but not running where that could have delayed the
    stamp of its answer (``hold_ms``: since it last found the bot's output empty; before,
    the bot was still thinking). Never the bot's own CPU time, and none of the bot's
    waits in a turn during which it met its own memory limit (``p.own`` says so). Noted
    (``io["wait_ms"]``) only up to the overage: what made the turn miss."""
    assert p.usage is not None
    cpu, queued = usage.since(p.usage)
    room = max(0.0, io["ms"] - cpu)
    waits = turn_waits(p.usage.counters, usage.counters)
    p.own = waits.own
    bots = 0.0 if waits.own else max(queued, waits.run_queue) + waits.blocked
    waited = min(min(bots, room) + hold_ms, room)
    io["wait_ms"] = round(min(waited, max(0.0, io["ms"] - p.limit_ms)), 3)
    return waited
