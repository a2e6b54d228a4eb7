"""Line seats: persistent bot processes that read their input and write their answers as
lines on pipes (every game but those with a :class:`~arena.game.FileTransport`)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Mapping, Sequence
from typing import Any

from arena.botproc import (
    BotClosed,
    InputStalled,
    LineBot,
    crash_detail,
    drain_logs,
    stop_bots,
    wait_and_read,
)
from arena.errors import AnswerError
from arena.game import Ignore, Incomplete, Move, Reply
from arena.records import Forfeit, ReplayStep, SeatIO
from arena.referee.clocks import PendingTurn, Stall, StepStall
from arena.referee.framing import UnitReader
from arena.referee.seats import STEP_LOG_CAP, Table, Verdicts

EPILOGUE_WRITE_S = 0.5
"""How long the referee tries to write a game's epilogue to a bot that reads slowly."""


class LineSeats:
    """The :class:`~arena.referee.seats.Seats` of a game of persistent line bots."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.clock = table.clock
        self.game = table.game
        n = len(table.bots)
        self.bots: list[LineBot] = []
        self.readers = [UnitReader(table.game.info.framing) for _ in range(n)]
        self.logs = _TurnLogs.of(n)

    def start(self) -> None:
        t = self.table
        self.bots = [
            LineBot(b.argv, t.home.workdirs[i], t.stderr_paths[i], t.sandbox, core=core)
            for i, (b, core) in enumerate(zip(t.bots, t.cores, strict=True))
        ]
        for bot in self.bots:
            bot.start()

    def play_step(
        self, state: Any, to_act: list[int], budgets: dict[int, float], step: ReplayStep
    ) -> Verdicts:
        """Send every input, then wait on all the seats at once, reading and stamping whatever
        arrives before judging anything."""
        moves: dict[int, Move] = {}
        forfeits: dict[int, Forfeit] = {}
        pending = self._send_inputs(state, to_act, budgets, step, forfeits)
        bots = self.bots
        gather = _Gather(bots, pending)
        stalled: Stall | None = None
        while pending:
            gather()
            for seat in list(pending):
                try:
                    verdict = self._read_answers(state, seat, pending[seat], step, gather)
                except Stall as stall:
                    # The other seats are still judged: a loss of their own this step
                    # may decide the game, which a stall must not void.
                    stalled = stalled or stall
                    del pending[seat]
                    continue
                if verdict is None:
                    continue
                del pending[seat]
                if isinstance(verdict, Move):
                    moves[seat] = verdict
                else:
                    forfeits[seat] = verdict
            if pending:
                # Only here does the referee wait: in the kernel, until the earliest
                # deadline; what arrives is read and stamped before anything else.
                now = time.perf_counter()
                wake = min(min(p.deadline, p.check_at) for p in pending.values())
                # Every seat ready as it returned read, the others found empty then.
                gather.fresh = wait_and_read([bots[s] for s in pending], wake - now)
        if stalled is not None:
            raise StepStall(stalled, moves, forfeits)
        return moves, forfeits

    def _send_inputs(
        self,
        state: Any,
        to_act: list[int],
        budgets: dict[int, float],
        step: ReplayStep,
        forfeits: dict[int, Forfeit],
    ) -> dict[int, PendingTurn]:
        """Send each seat of ``to_act`` its input, starting its clock: the turns now
        waiting for an answer (a seat that cannot take its input forfeits)."""
        bots = self.bots
        pending: dict[int, PendingTurn] = {}
        margin_ms = self.clock.margin_ms
        for seat in to_act:
            prompt = self.game.prompt(state, seat)
            io: SeatIO = {
                "input": prompt,
                "lines": [],
                "ms": 0.0,
                "budget_ms": budgets[seat],
                "stderr": "",
            }
            step["io"][str(seat)] = io
            # Its log was filed as the last step ended (every seat's is); what it wrote
            # since is drained by send() below and filed, as its previous turn's, with the
            # log it writes before reading this input. (Nothing is held back here: the
            # end-of-step filing took it all.)
            self.logs.begin(seat, io)
            limit_s = (budgets[seat] + margin_ms) / 1000.0
            try:
                # The clock starts just before the write that completes the input.
                start = bots[seat].send(
                    prompt,
                    time.perf_counter() + limit_s,
                    # A bot slow to take its input does not hold up the stamps of the
                    # answers of those sent theirs already.
                    meanwhile=lambda: _pump_all([bots[s] for s in pending]),
                )
            except InputStalled:
                forfeits[seat] = Forfeit("timeout", "did not read its input")
                continue
            except BotClosed:
                forfeits[seat] = self._crashed(seat)
                continue
            p = pending[seat] = PendingTurn(
                self.table.who(seat), start, start + limit_s, budgets[seat], margin_ms
            )
            p.usage = bots[seat].turn_usage
            self.clock.arm(bots[seat], p)
        return pending

    def _read_answers(
        self, state: Any, seat: int, p: PendingTurn, step: ReplayStep, gather: _Gather
    ) -> Move | Forfeit | None:
        """Consume what seat has sent; a Move or Forfeit ends its turn, None waits for more.

        Lines are taken from the bot only when the reader has no unit left, so what waits
        unread stays bounded by the bot's own buffer caps. ``gather`` reads and stamps the
        other seats' output before each call into the game, so time spent in the rules
        never counts against them.
        """
        bot, reader, clock = self.bots[seat], self.readers[seat], self.clock
        io = step["io"][str(seat)]
        if bot.flood is not None:
            return Forfeit("invalid", str(bot.flood), bot.flood.raw)
        while True:
            unit = reader.pop()
            if unit is None:
                if not bot.lines:
                    break
                line, arrived = bot.pop_line()
                # A line sent before this turn's input (an extra line last turn) counts as 0 ms.
                io["ms"] = clock.charge(bot, p, arrived, io)
                p.lines.append(line)
                io["lines"].append(line)  # quoted with its turn, even when too late
                if arrived > p.deadline or io["ms"] > p.limit_ms:
                    clock.check_late(bot, p, io, arrived)
                    return Forfeit("timeout", clock.late_detail(p, io), line)
                reader.feed(line, arrived)
                continue
            text, arrived = unit
            io["ms"] = clock.charge(bot, p, arrived, io)
            p.command.append(text)
            command = reader.separator.join(p.command)
            gather()
            gather.fresh = False  # the rules take time: look again before the next call
            try:
                answer = self.game.interpret(state, seat, command)
            except AnswerError as bad:
                return Forfeit(bad.reason, bad.message, bad.raw or command)
            if isinstance(answer, Incomplete):
                continue
            p.command.clear()
            if isinstance(answer, Move):
                step["moves"][str(seat)] = command
                if answer.message:
                    step["messages"][str(seat)] = answer.message
                if io["ms"] > p.budget_ms:
                    io["late"] = True  # over the budget, within the margin
                return answer
            if isinstance(answer, Reply):
                # Keyed by the index of the query line it answers.
                io.setdefault("replies", {})[str(len(io["lines"]) - 1)] = answer.text
                try:
                    bot.send(answer.text, p.deadline, new_turn=False)
                except (InputStalled, BotClosed):
                    return Forfeit("timeout", "did not read the answer to its query", command)
            elif not isinstance(answer, Ignore):
                raise TypeError(f"{self.game.info.id}.interpret returned {answer!r}")
        return self._silent(seat, p, io)

    def _crashed(self, seat: int) -> Forfeit:
        """Seat's bot ended before its input could be written: the same crash, told the same
        way, as a bot that ends after reading it (which of the two happens is a matter of
        microseconds), once it has ended and what it wrote on stderr is read (both bounded
        in time)."""
        bot = self.bots[seat]
        code = bot.exit_code()
        drain_logs([bot])
        summary = self.table.exit_summary(seat, code, "without answering")
        return Forfeit("crash", crash_detail(summary, bot.stderr_tail()))

    def _silent(self, seat: int, p: PendingTurn, io: SeatIO) -> Forfeit | None:
        """Seat has sent nothing more: a crash, a timeout, or None to wait on."""
        bot, clock = self.bots[seat], self.clock
        now = time.perf_counter()
        if bot.closed:
            io["ms"] = (now - p.start) * 1000.0
            summary = self.table.exit_summary(seat, bot.exit_code(), "without answering")
            detail = crash_detail(summary, bot.stderr_tail())
            return Forfeit("crash", detail, "\n".join(p.lines))
        if now > p.deadline:
            bot.pump()  # what came while the rules read another seat's answer
            if bot.lines:
                return None
            io["ms"] = clock.charge(bot, p, now, io)
            if clock.overdue(bot, p, io, now):
                return None
            return Forfeit("timeout", clock.timeout_detail(p, io), "\n".join(p.lines))
        if now >= p.check_at:
            return clock.check(bot, p, now, io)
        return None

    def forfeited(self, seat: int, forfeit: Forfeit) -> Forfeit:
        """A crash the memory cap caused says so; the bot is stopped and its log filed."""
        bot = self.bots[seat]
        if forfeit.reason == "crash" and (why := bot.out_of_memory()):
            forfeit = Forfeit("memory", f"{why}; {forfeit.detail}", forfeit.raw)
        bot.stop()
        self.logs.settle(seat, bot)
        return forfeit

    def step_done(self, step: ReplayStep) -> None:
        """File every seat's stderr under its turns (a seat that played reads the rest as its next
        input is sent)."""
        for seat, bot in enumerate(self.bots):
            # What the pipe of a seat that played this step still holds is read as its
            # next input is sent (LineBot.send: what it wrote before reading it is this
            # turn's), or at the next settle if it does not play the next step: filed
            # then, before this step is observed. One read less a step.
            self.logs.settle(seat, bot, drain=str(seat) not in step["io"])

    def finish(self, state: Any, forfeited: Sequence[bool]) -> dict[str, str]:
        """Epilogues, then the bots' last logs (bounded in time), then every bot stopped."""
        epilogue = self._send_epilogues(state, forfeited)
        # The end: the bots' last logs (bounded in time), then they are stopped.
        drain_logs(self.bots)
        stop_bots(self.bots)  # every bot signalled before any is waited for
        for seat, bot in enumerate(self.bots):
            self.logs.settle(seat, bot)
        return epilogue

    def _send_epilogues(self, state: Any, forfeited: Sequence[bool]) -> dict[str, str]:
        """Write each bot that did not forfeit the game's :meth:`~arena.game.Game.epilogue`
        (kept for the replay); a bot that no longer reads is not waited for."""
        sent: dict[str, str] = {}
        for seat, bot in enumerate(self.bots):
            if forfeited[seat] or bot.stopped:
                continue
            text = self.game.epilogue(state, seat)
            if not text:
                continue
            sent[str(seat)] = text
            with contextlib.suppress(InputStalled, BotClosed):
                bot.send(text, time.perf_counter() + EPILOGUE_WRITE_S, new_turn=False)
        return sent

    def close(self) -> None:
        """Stop every bot, then close the game's home (their orphans killed)."""
        for bot in self.bots:
            bot.stop()
        self.table.home.close()  # orphans of the bots killed; the folder goes with the next game


class _TurnLogs:
    """Which step record each seat's stderr goes to: its current turn and the one before
    (a bot's log written after its answer, before it reads its next input, is the
    previous turn's; see :class:`~arena.botproc.LineBot`)."""

    __slots__ = ("current", "previous")

    def __init__(self, current: list[SeatIO | None], previous: list[SeatIO | None]) -> None:
        self.current = current
        self.previous = previous

    @staticmethod
    def of(n: int) -> _TurnLogs:
        return _TurnLogs([None] * n, [None] * n)

    def settle(self, seat: int, bot: LineBot, drain: bool = True) -> None:
        """File what seat's bot wrote on stderr so far under the turns it belongs to
        (``drain=False``: what was read of it; the rest goes with the next input's)."""
        previous, current = bot.take_logs(drain)
        _append_log(self.previous[seat], previous)
        _append_log(self.current[seat], current)

    def begin(self, seat: int, io: SeatIO) -> None:
        """Seat's new turn is ``io`` (call once :meth:`settle` filed the old ones: the
        end of each step settles every seat)."""
        self.previous[seat], self.current[seat] = self.current[seat], io


def _append_log(io: SeatIO | None, text: str) -> None:
    if io is not None and text:
        room = STEP_LOG_CAP - len(io["stderr"])
        if room > 0:
            io["stderr"] += text[:room]


class _Gather:
    """Reads and stamps what every seat still to answer has sent (never blocks), before
    each call into the game's rules, so time spent in the rules never counts against
    them; not again while :attr:`fresh` (nothing was done since every seat was read)."""

    __slots__ = ("bots", "fresh", "pending")

    def __init__(self, bots: Sequence[LineBot], pending: Mapping[int, Any]) -> None:
        self.bots = bots
        self.pending = pending
        self.fresh = False

    def __call__(self) -> None:
        if not self.fresh:
            for seat in self.pending:
                self.bots[seat].pump()
            self.fresh = True


def _pump_all(bots: Sequence[LineBot]) -> None:
    """Read and stamp whatever each of ``bots`` has sent (never blocks)."""
    for bot in bots:
        bot.pump()
