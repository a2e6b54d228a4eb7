"""The referee: plays one game between bot processes, keeping clocks and recording everything.

It knows no game's rules: it drives a :class:`~arena.game.Game` through its contract
(see ``docs/architecture.md``) and owns the processes, the clocks and the replay.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from pathlib import Path
from typing import Any

from arena.botproc import (
    BotClosed,
    BotHome,
    InputStalled,
    LineBot,
    Sandbox,
    TurnProcessResult,
    Usage,
    crash_detail,
    drain_logs,
    kill_every_bot,
    remove_retired,
    run_turn_process,
    stop_bots,
    wait_and_read,
)
from arena.botproc.cgroups import CoreClaim, claim_cores, free_cores
from arena.botproc.commands import start_problem
from arena.botproc.seatdisk import SeatCaps, cap_seats, over_cap
from arena.errors import AnswerError, ArenaError
from arena.game import FileTransport, Game, Ignore, Incomplete, Move, Reply, standing_moves
from arena.records import (
    REPLAY_FORMAT,
    BotSpec,
    Clock,
    Forfeit,
    ForfeitEntry,
    GameRecord,
    Replay,
    ReplayStep,
    SeatIO,
    SeatRecord,
)
from arena.referee.external import helper_scope
from arena.referee.framing import UnitReader
from arena.viewdiff import ViewRecorder

MAX_STEPS = 100_000
"""A game still running after this many steps is a broken plugin, not a long game."""
RAW_CAP = 500
"""Characters of offending output kept with a forfeit."""
STEP_LOG_CAP = 8 * 1024
"""Bytes of a per-turn process's stderr kept in its step record (the file keeps more)."""


CPU_WALL_FACTOR = 4.0
"""With ``clock: cpu``, a turn may last this many times its budget in wall time (plus a
second) before a bot that does not answer, using no CPU (sleeping, waiting), forfeits."""


class _Stall(ArenaError):
    """A turn went over its budget only because the machine kept the bot or the referee
    waiting: the game is broken off, to be played again."""


EPILOGUE_WRITE_S = 0.5
"""How long the referee tries to write a game's epilogue to a bot that reads slowly."""


@dataclass
class _Pending:
    start: float
    deadline: float  # the budget and the margin (wall clock): past it, the seat forfeits
    budget_ms: float
    margin_ms: float
    lines: list[str] = field(default_factory=list)
    command: list[str] = field(default_factory=list)  # units of a command not yet whole
    usage: Usage | None = None  # the bot's CPU and run-queue wait as its clock started
    check_at: float = float("inf")  # clock cpu: when to look at the CPU used next

    @property
    def limit_ms(self) -> float:
        """The budget and the margin: a turn charged more forfeits."""
        return self.budget_ms + self.margin_ms


@dataclass
class _TurnLogs:
    """Which step record each seat's stderr goes to: its current turn and the one before
    (a bot's log written after its answer, before it reads its next input, is the
    previous turn's; see :class:`~arena.botproc.LineBot`)."""

    current: list[SeatIO | None]
    previous: list[SeatIO | None]

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


StepObserver = Callable[[int, ReplayStep, Any], None]
"""Called for every step, in order, with (step index, step record, state after the step),
once the record is whole: when the step after it was played and the game goes on (each
seat's stderr then holds what it wrote after answering), or at the end of the game."""
Heartbeat = Callable[[float], None]
"""Called as every step starts with the seconds it may legitimately take (a watchdog's cue)."""


class Referee:
    """Plays one game of ``game`` between ``bots`` (seat order) and records it.

    ``game_dir`` receives ``replay.json`` and one stderr file per seat; the bots'
    working directories are private temporary folders, removed while the next game's bots
    start (or at exit). ``replay=False`` records no views and writes no ``replay.json``
    (``arena match`` without ``--output``: nobody would read them).
    """

    def __init__(
        self,
        game: Game[Any],
        bots: Sequence[BotSpec],
        game_dir: Path,
        sandbox: Sandbox | None = None,
        observer: StepObserver | None = None,
        heartbeat: Heartbeat | None = None,
        clock: Clock | None = None,
        replay: bool = True,
    ) -> None:
        self.game = game
        self.bots = list(bots)
        self.game_dir = game_dir
        self.sandbox = sandbox or Sandbox()
        self.observer = observer
        self.heartbeat = heartbeat
        self.clock = clock or Clock()
        self.replay = replay
        self.info = game.info
        self._home: BotHome | None = None
        self._caps = SeatCaps()
        self._cores: list[int | None] = [None] * len(self.bots)  # a core per seat, if given
        self._epilogue: dict[str, str] = {}  # text sent once the game was over, by seat

    def stderr_path(self, seat: int) -> Path:
        """Where seat's stderr is kept."""
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in self.bots[seat].name)
        return self.game_dir / f"stderr-{seat}-{safe}.txt"

    def play(self, seed: int, settings: Mapping[str, Any]) -> GameRecord:
        """Play the game to its end; never raises for anything a bot does."""
        n = len(self.bots)
        if not self.info.min_players <= n <= self.info.max_players:
            raise ValueError(
                f"{self.info.id} is for {self.info.min_players}-{self.info.max_players} players"
            )
        self.game_dir.mkdir(parents=True, exist_ok=True)
        # Helper processes a game opens (arena.ExternalProcess) end with the game.
        with helper_scope(self.game_dir):
            return self._play(seed, settings)

    def _play(self, seed: int, settings: Mapping[str, Any]) -> GameRecord:
        n = len(self.bots)
        started = time.perf_counter()
        seats = [
            SeatRecord(bot=b.name, stderr=self.stderr_path(i).name) for i, b in enumerate(self.bots)
        ]
        for i in range(n):
            self.stderr_path(i).write_bytes(b"")
        self._epilogue = {}
        home = self._home = BotHome.create(self.info.id, n, self.sandbox)
        if self.info.transport is not None:  # per-turn bots: their directory's total cap
            self._caps = cap_seats(home.workdirs, home.fds, self.sandbox)
        workdirs = home.workdirs
        line_bots: list[LineBot] = []
        readers = [UnitReader(self.info.framing) for _ in range(n)]
        steps: list[ReplayStep] = []
        state = self.game.start(seed, n, dict(settings))
        recorder = ViewRecorder(self.game.view(state)) if self.replay else None
        start_view = recorder.view if recorder is not None else None
        stalled = ""
        claim, placed = _place(n)
        niced = _prioritize()
        self._cores = list(claim.cores) if claim is not None else [None] * n
        try:
            if self.info.transport is None:
                line_bots = [
                    LineBot(b.argv, workdirs[i], self.stderr_path(i), self.sandbox, core=core)
                    for i, (b, core) in enumerate(zip(self.bots, self._cores, strict=True))
                ]
                for bot in line_bots:
                    bot.start()
            remove_retired()  # the last game's folders, while these bots start up
            state = self._loop(state, seats, line_bots, readers, workdirs, steps, recorder)
        except _Stall as stall:
            stalled = str(stall)
        finally:
            kill_every_bot()  # every bot signalled before any is waited for: they die together
            for bot in line_bots:
                bot.stop()
            home.close()  # orphans of the bots killed; the folder goes with the next game
            self._caps.release()
            if placed is not None:
                with contextlib.suppress(OSError):
                    os.sched_setaffinity(0, placed)
            if claim is not None:
                claim.release()
            if niced is not None:
                _unprioritize(niced)
        if stalled:
            # Broken off, not played out: no ranks, no replay; the run plays it again.
            return GameRecord(
                game=self.info.id,
                seed=seed,
                settings=dict(settings),
                seats=seats,
                reason="stall",
                turns=self.game.turn_number(state),
                steps=len(steps),
                duration_ms=(time.perf_counter() - started) * 1000.0,
                stall=stalled,
            )
        outcome = self.game.outcome(state)
        forfeited = [s.forfeit is not None for s in seats]
        ranks = _forfeiters_last(list(outcome.ranks), forfeited, outcome.forfeits_ranked)
        for seat, seat_record in enumerate(seats):
            seat_record.rank = ranks[seat]
            seat_record.score = float(outcome.scores[seat])
        record = GameRecord(
            game=self.info.id,
            seed=seed,
            settings=dict(settings),
            seats=seats,
            reason=outcome.reason,
            turns=self.game.turn_number(state),
            steps=len(steps),
            duration_ms=(time.perf_counter() - started) * 1000.0,
            replay="replay.json" if self.replay else "",
        )
        if self.replay:
            self._write_replay(record, steps, state, start_view)
        return record

    # -- the step loop -------------------------------------------------------------

    def _loop(
        self,
        state: Any,
        seats: list[SeatRecord],
        line_bots: list[LineBot],
        readers: list[UnitReader],
        workdirs: list[Path],
        steps: list[ReplayStep],
        recorder: ViewRecorder | None,
    ) -> Any:
        prompted = [False] * len(seats)
        logs = _TurnLogs.of(len(seats))
        unobserved: deque[tuple[int, ReplayStep, Any]] = deque()
        margin_s = self.clock.margin_ms / 1000.0
        while to_act := list(self.game.to_act(state)):
            # The game goes on: the step before the last one is whole now (its seats' logs
            # written after they answered it arrived while the last one was played).
            while len(unobserved) > 1:
                self._observe(*unobserved.popleft())
            if len(steps) >= MAX_STEPS:
                raise RuntimeError(f"{self.info.id}: still running after {MAX_STEPS} steps")
            budgets = {}
            for seat in to_act:
                game_ms = self.game.clock_ms(state, seat, not prompted[seat])
                budgets[seat] = self.clock.budget_ms(game_ms)
                prompted[seat] = True
            if self.heartbeat is not None:
                self.heartbeat(sum(budgets.values()) / 1000.0 + len(budgets) * margin_s)
            step: ReplayStep = {
                "to_act": to_act,
                "moves": {},
                "messages": {},
                "forfeits": {},
                "io": {},
            }
            if isinstance(self.info.transport, FileTransport):
                moves, forfeits = self._file_step(state, to_act, budgets, workdirs, step)
            else:
                moves, forfeits = self._line_step(
                    state, to_act, budgets, line_bots, readers, step, logs
                )
            for seat, forfeit in forfeits.items():
                if (
                    line_bots
                    and forfeit.reason == "crash"
                    and (why := line_bots[seat].out_of_memory())
                ):
                    forfeit = Forfeit("memory", f"{why}; {forfeit.detail}", forfeit.raw)
                seats[seat].forfeit = forfeit.reason
                seats[seat].detail = forfeit.detail
                seats[seat].raw = forfeit.raw[:RAW_CAP]
                step["forfeits"][str(seat)] = ForfeitEntry(
                    reason=forfeit.reason, detail=forfeit.detail, raw=forfeit.raw
                )
                if line_bots:
                    line_bots[seat].stop()
                    logs.settle(seat, line_bots[seat])
                state = self.game.eliminate(state, seat)
            for seat_key, io in step["io"].items():
                record = seats[int(seat_key)]
                record.total_ms += io["ms"]
                record.max_ms = max(record.max_ms, io["ms"])
                if int(seat_key) in moves:
                    record.moves += 1
                    record.turn_ms.append(io["ms"])
                    record.late += bool(io.get("late"))
            # Each answering seat's move as the game parsed it (messages are kept as read).
            step["actions"] = {
                str(seat): self.game.action_view(move.action)
                for seat, move in sorted(moves.items())
            }
            actions = {seat: move.action for seat, move in moves.items()}
            actions = standing_moves(self.game, state, actions, bool(forfeits))
            if actions:
                state = self.game.apply(state, actions)
            if recorder is not None:
                # Each step keeps only what changed in the view (see arena.viewdiff).
                step["view"] = recorder.record(self.game.view(state))
            step["turn"] = self.game.turn_number(state)
            steps.append(step)
            for seat, bot in enumerate(line_bots):
                # What the pipe of a seat that played this step still holds is read as
                # its next input is sent (LineBot.send: what it wrote before reading it is
                # this turn's), or at the next settle if it does not play the next step:
                # filed then, before this step is observed. One read less a step.
                logs.settle(seat, bot, drain=str(seat) not in step["io"])
            unobserved.append((len(steps) - 1, step, state))
        self._send_epilogues(state, seats, line_bots)
        # The end: the bots' last logs (bounded in time), then they are stopped.
        drain_logs(line_bots)
        stop_bots(line_bots)  # every bot signalled before any is waited for
        for seat, bot in enumerate(line_bots):
            logs.settle(seat, bot)
        while unobserved:
            self._observe(*unobserved.popleft())
        return state

    def _send_epilogues(
        self, state: Any, seats: list[SeatRecord], line_bots: list[LineBot]
    ) -> None:
        """Write each line bot that did not forfeit the game's :meth:`~arena.game.Game.epilogue`
        (kept for the replay); a bot that no longer reads is not waited for."""
        for seat, bot in enumerate(line_bots):
            if seats[seat].forfeit is not None or bot.stopped:
                continue
            text = self.game.epilogue(state, seat)
            if not text:
                continue
            self._epilogue[str(seat)] = text
            with contextlib.suppress(InputStalled, BotClosed):
                bot.send(text, time.perf_counter() + EPILOGUE_WRITE_S, new_turn=False)

    def _observe(self, index: int, step: ReplayStep, state: Any) -> None:
        if self.observer is not None:
            self.observer(index, step, state)

    def _line_step(
        self,
        state: Any,
        to_act: list[int],
        budgets: dict[int, float],
        bots: list[LineBot],
        readers: list[UnitReader],
        step: ReplayStep,
        logs: _TurnLogs,
    ) -> tuple[dict[int, Move], dict[int, Forfeit]]:
        moves: dict[int, Move] = {}
        forfeits: dict[int, Forfeit] = {}
        pending: dict[int, _Pending] = {}
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
            logs.begin(seat, io)
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
            except BotClosed as closed:
                summary = self._exit_summary(seat, closed.exit_code, "before its turn")
                forfeits[seat] = Forfeit("crash", crash_detail(summary, bots[seat].stderr_tail()))
                continue
            p = pending[seat] = _Pending(start, start + limit_s, budgets[seat], margin_ms)
            p.usage = bots[seat].turn_usage
            if self.clock.kind == "wall":
                # A line read past the limit is noted with the machine's doing meanwhile.
                bots[seat].late_after = p.deadline
            else:
                # Checked on CPU time as it is used; the wall clock only catches a bot
                # that never answers without using CPU.
                p.check_at, p.deadline = p.deadline, start + limit_s * CPU_WALL_FACTOR + 1.0

        gather = _Gather(bots, pending)
        while pending:
            gather()
            for seat in list(pending):
                verdict = self._read_answers(
                    state, seat, bots[seat], readers[seat], pending[seat], step, gather
                )
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
        return moves, forfeits

    def _read_answers(
        self,
        state: Any,
        seat: int,
        bot: LineBot,
        reader: UnitReader,
        p: _Pending,
        step: ReplayStep,
        gather: _Gather,
    ) -> Move | Forfeit | None:
        """Consume what seat has sent; a Move or Forfeit ends its turn, None waits for more.

        Lines are taken from the bot only when the reader has no unit left, so what waits
        unread stays bounded by the bot's own buffer caps. ``gather`` reads and stamps the
        other seats' output before each call into the game, so time spent in the rules
        never counts against them.
        """
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
                io["ms"] = self._charge(bot, p, arrived, io)
                p.lines.append(line)
                io["lines"].append(line)  # quoted with its turn, even when too late
                if arrived > p.deadline or io["ms"] > p.limit_ms:
                    self._excuse(seat, bot, p, io, arrived)
                    spent = "of CPU " if self.clock.kind == "cpu" else ""
                    detail = f"answered after {io['ms']:.1f} ms {spent}(budget {_budget_text(p)})"
                    return Forfeit("timeout", detail, line)
                reader.feed(line, arrived)
                continue
            text, arrived = unit
            io["ms"] = self._charge(bot, p, arrived, io)
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
                raise TypeError(f"{self.info.id}.interpret returned {answer!r}")
        now = time.perf_counter()
        if bot.closed:
            io["ms"] = (now - p.start) * 1000.0
            summary = self._exit_summary(seat, bot.exit_code(), "without answering")
            detail = crash_detail(summary, bot.stderr_tail())
            return Forfeit("crash", detail, "\n".join(p.lines))
        if now > p.deadline:
            bot.pump()  # what came while the rules read another seat's answer
            if bot.lines:
                return None
            io["ms"] = self._charge(bot, p, now, io)
            if self.clock.kind == "wall" and p.usage is not None:
                # Over on the wall clock: is it on the bot's own time? While the machine's
                # wait is what puts it over, the bot may still answer in time: wait on.
                # (It has not answered: the referee's lateness since is not the bot's.)
                waited = self._waited(p, io, bot.usage(), 0.0)
                if io["ms"] - waited <= p.limit_ms:
                    if now - p.start < p.limit_ms / 1000.0 * CPU_WALL_FACTOR + 1.0:
                        p.deadline = p.start + (p.limit_ms + waited + 1.0) / 1000.0
                        return None
                    self._stall(seat, p, io, waited)
            detail = f"no answer within {_budget_text(p)}"
            if self.clock.kind == "cpu":
                detail += f" of CPU ({io['wall_ms']:.0f} ms passed)"
            return Forfeit("timeout", detail, "\n".join(p.lines))
        if now >= p.check_at:
            used = self._charge(bot, p, now, io)
            if used > p.limit_ms:
                io["ms"] = used
                detail = f"used {used:.1f} ms of CPU without answering (budget {_budget_text(p)})"
                return Forfeit("timeout", detail, "\n".join(p.lines))
            # All its processes together get one core at most: no sooner over the limit.
            p.check_at = now + max(0.001, (p.limit_ms - used) / 1000.0)
        return None

    def _charge(self, bot: LineBot, p: _Pending, at: float, io: SeatIO) -> float:
        """The ms the turn is charged up to ``at``: the wall time since its input (``clock:
        wall``), or the CPU time all the bot's processes used since (``clock: cpu``, read
        now; the wall time goes to ``io["wall_ms"]``)."""
        wall = max(0.0, at - p.start) * 1000.0
        if self.clock.kind != "cpu" or p.usage is None:
            return wall
        io["wall_ms"] = round(wall, 3)
        return bot.usage().since(p.usage)[0]

    def _waited(self, p: _Pending, io: SeatIO, usage: Usage, hold_ms: float) -> float:
        """The ms of seat's turn so far (``io["ms"]``, wall clock, up to ``usage``: its
        answer, or now) that the machine kept it waiting, as far as that could have put it
        over its limit: the bot's own process runnable in the run queue while its
        processes were not using the core they get (its children's CPU is its own doing),
        and the referee itself runnable but not running where that could have delayed
        the stamp of its answer (``hold_ms``: since it last found the bot's output empty;
        before, the bot was still thinking). Never the
        bot's own CPU time, and noted (``io["wait_ms"]``) only up to the overage: what
        made the turn miss."""
        assert p.usage is not None
        cpu, queued = usage.since(p.usage)
        room = max(0.0, io["ms"] - cpu)
        waited = min(min(queued, room) + hold_ms, room)
        io["wait_ms"] = round(min(waited, max(0.0, io["ms"] - p.limit_ms)), 3)
        return waited

    def _excuse(self, seat: int, bot: LineBot, p: _Pending, io: SeatIO, arrived: float) -> None:
        """Raise :class:`_Stall` when seat's turn, over its limit on the wall clock, would
        be within it but for the time the machine kept it waiting (:meth:`_waited`, as of
        its answer's stamp)."""
        if self.clock.kind != "wall" or p.usage is None:
            return
        late = bot.late
        if late is not None and late.at == arrived:
            waited = self._waited(p, io, late.usage, late.hold_ns / 1e6)
        else:  # read within the limit, charged over it: only the referee's start
            waited = self._waited(p, io, bot.usage(), 0.0)
        if io["ms"] - waited <= p.limit_ms:
            self._stall(seat, p, io, waited)

    def _stall(self, seat: int, p: _Pending, io: SeatIO, waited: float) -> None:
        raise _Stall(
            f"seat {seat} ({self.bots[seat].name}) took "
            f"{io['ms']:.1f} ms (budget {_budget_text(p)}), {waited:.1f} ms of it kept "
            "waiting by the machine"
        )

    def _file_step(
        self,
        state: Any,
        to_act: list[int],
        budgets: dict[int, float],
        workdirs: list[Path],
        step: ReplayStep,
    ) -> tuple[dict[int, Move], dict[int, Forfeit]]:
        transport = self.info.transport
        assert isinstance(transport, FileTransport)
        moves: dict[int, Move] = {}
        forfeits: dict[int, Forfeit] = {}
        for seat in to_act:
            prompt = self.game.prompt(state, seat)
            log_path = self.stderr_path(seat)
            log_start = log_path.stat().st_size if log_path.exists() else 0
            result = run_turn_process(
                self.bots[seat].argv,
                workdirs[seat],
                transport.input_name,
                prompt,
                transport.output_name,
                (budgets[seat] + self.clock.margin_ms) / 1000.0,
                self.stderr_path(seat),
                transport.max_extra_files,
                transport.max_file_bytes,
                self.sandbox,
                self._home.fds[seat] if self._home is not None else None,
                excuse=self.clock.kind == "wall",
                core=self._cores[seat],
            )
            output = result.output or ""
            io: SeatIO = {
                "input": prompt,
                "lines": [output] if result.output is not None else [],
                "ms": result.elapsed_ms,
                "budget_ms": budgets[seat],
                "exit_code": result.exit_code,
                "stderr": _read_from(log_path, log_start, STEP_LOG_CAP),
            }
            step["io"][str(seat)] = io
            limit_ms = budgets[seat] + self.clock.margin_ms
            if result.waited_ms:
                over = max(0.0, result.elapsed_ms - limit_ms)
                io["wait_ms"] = round(min(result.waited_ms, over), 3)
            if result.excused and not result.timed_out and result.started:
                # Over its limit only because the machine kept it waiting: not its doing.
                raise _Stall(
                    f"seat {seat} ({self.bots[seat].name}) took {result.elapsed_ms:.1f} ms "
                    f"(limit {limit_ms:g} ms), {result.waited_ms:.1f} ms of it kept waiting "
                    "by the machine"
                )
            verdict = self._judge_file_turn(state, seat, transport, result, budgets[seat])
            if self._home is not None and (
                full := over_cap(self._home.fds[seat], self._caps, self.sandbox.disk_mb)
            ):
                verdict = Forfeit("memory", full, output)
            if isinstance(verdict, Move):
                moves[seat] = verdict
                step["moves"][str(seat)] = output
                if verdict.message:
                    step["messages"][str(seat)] = verdict.message
                if result.elapsed_ms > budgets[seat]:
                    io["late"] = True  # over the budget, within the margin
            else:
                forfeits[seat] = verdict
        return moves, forfeits

    def _judge_file_turn(
        self,
        state: Any,
        seat: int,
        transport: FileTransport,
        result: TurnProcessResult,
        budget_ms: float,
    ) -> Move | Forfeit:
        out, output = transport.output_name, result.output
        if not result.started and result.file_problem is not None:
            return Forfeit("invalid", result.file_problem)
        if result.memory is not None and not result.timed_out and result.exit_code != 0:
            return Forfeit("memory", result.memory, output or "")
        if result.timed_out:
            margin = self.clock.margin_ms
            extra = f" + {margin:g} ms margin" if margin else ""
            return Forfeit("timeout", f"still running after {budget_ms:g} ms{extra}")
        if result.exit_code != 0:
            reason, meaning = transport.exit_codes.get(result.exit_code or 0, ("crash", ""))
            context = f"({meaning})" if meaning else ""
            summary = self._exit_summary(seat, result.exit_code, context)
            return Forfeit(reason, crash_detail(summary, result.log_tail), output or "")
        if result.file_problem is not None:
            return Forfeit("invalid", result.file_problem)
        if output is None:
            return Forfeit("invalid", f"exited 0 without writing {out}")
        try:
            answer = self.game.interpret(state, seat, output)
        except AnswerError as bad:
            return Forfeit(bad.reason, bad.message, bad.raw or output)
        if not isinstance(answer, Move):
            return Forfeit("invalid", f"{out} holds no move", output)
        return answer

    def _exit_summary(self, seat: int, code: int | None, context: str) -> str:
        """How seat's bot ended (``exited with code 1 without answering``); for the codes
        of a program that could not be run (126, 127), why it could not, where known."""
        text = _exit_text(code, context)
        if code in (126, 127) and (why := start_problem(self.bots[seat].argv[0])) is not None:
            text += f": {why}"
        return text

    # -- replay --------------------------------------------------------------------

    def _write_replay(
        self, record: GameRecord, steps: list[ReplayStep], state: Any, start_view: Any
    ) -> None:
        replay: Replay = {
            "format": REPLAY_FORMAT,
            "game": self.info.id,
            "version": self.info.version,
            "seed": record.seed,
            "settings": record.settings,
            "players": [s.bot for s in record.seats],
            "start_view": start_view,
            "steps": steps,
            "outcome": {
                "ranks": [s.rank for s in record.seats],
                "scores": [s.score for s in record.seats],
                "reason": record.reason,
            },
            # Each turn's time is in its step already (io.ms).
            # Scalars only (no deep copy of each turn's time just to drop it).
            "seats": [
                {f.name: getattr(s, f.name) for f in dataclass_fields(s) if f.name != "turn_ms"}
                for s in record.seats
            ],
            "final": self.game.view(state),
        }
        if self._epilogue:
            replay["epilogue"] = dict(self._epilogue)
        path = self.game_dir / record.replay
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(replay, separators=(",", ":")))
        tmp.replace(path)


def _place(n: int) -> tuple[CoreClaim | None, set[int] | None]:
    """A core of its own for each of ``n`` bots where the machine has that many free
    (:func:`~arena.botproc.cgroups.claim_cores`), and the referee moved off them onto
    the cores no game holds, when there are any: (the claim, the referee's CPUs before,
    to restore; None when not moved)."""
    claim = claim_cores(n)
    if claim is None:
        return None, None
    free = free_cores() - set(claim.cores)
    try:
        before = os.sched_getaffinity(0)
        if free and free & before:
            os.sched_setaffinity(0, free & before)
            return claim, before
    except OSError:
        pass
    return claim, None


REFEREE_NICE = -10
"""The referee's nice value while it plays a game, where it may not use real-time
scheduling but may raise its priority (see :func:`_prioritize`)."""


def _prioritize() -> int | None:
    """Run this thread, while it referees, at the lowest real-time priority (``SCHED_FIFO``
    1), else at nice :data:`REFEREE_NICE`, where allowed (root, ``CAP_SYS_NICE``): woken
    by an answer, it reads and stamps it at once, however busy the core, so its stamps
    are not late for a CPU (and no wait of its own needs excusing). Not passed on to the
    processes it starts (``SCHED_RESET_ON_FORK``). The nice value to restore (None: left
    as it was)."""
    try:
        before = os.getpriority(os.PRIO_PROCESS, 0)
        if os.sched_getscheduler(0) != os.SCHED_OTHER:
            return None
        try:
            os.sched_setscheduler(0, os.SCHED_FIFO | os.SCHED_RESET_ON_FORK, os.sched_param(1))
            return before
        except OSError:
            pass
        if before <= REFEREE_NICE:
            return None
        os.sched_setscheduler(0, os.SCHED_OTHER | os.SCHED_RESET_ON_FORK, os.sched_param(0))
        try:
            os.setpriority(os.PRIO_PROCESS, 0, REFEREE_NICE)
        except OSError:
            os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
            return None
        return before
    except (OSError, AttributeError):
        return None


def _unprioritize(nice: int) -> None:
    """Undo :func:`_prioritize`."""
    with contextlib.suppress(OSError):
        os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
        os.setpriority(os.PRIO_PROCESS, 0, nice)


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


def _read_from(path: Path, offset: int, cap: int) -> str:
    """At most ``cap`` bytes of ``path`` from ``offset``, decoded leniently ("" if gone)."""
    try:
        with path.open("rb") as f:
            f.seek(offset)
            return f.read(cap).decode("utf-8", "replace")
    except OSError:
        return ""


def _exit_text(code: int | None, context: str) -> str:
    if code is None:
        return f"closed its output {context}".strip()
    if code < 0:
        return f"killed by signal {-code} {context}".strip()
    return f"exited with code {code} {context}".strip()


def _forfeiters_last(ranks: list[int], forfeited: list[bool], game_decides: bool) -> list[int]:
    """Keep the game's order among seats that did not forfeit; forfeiters tie below them.

    With ``game_decides`` (:attr:`~arena.game.Outcome.forfeits_ranked`), a forfeiter the
    game ranks equal to the last of the other seats stays tied with them: seats out in
    the same step (stc: one forfeits, the other's own move kills it) rank as the game
    decides. A forfeiter is never placed above a seat that did not forfeit.
    """
    survivors = [r for r, f in zip(ranks, forfeited, strict=True) if not f]
    last = max(survivors, default=0)
    # Sort keys: the game's rank for seats that did not forfeit; a forfeiter ties with
    # the last of them when allowed and the game says so, else comes after all of them.
    keys = [
        last + 1 if lost and not (game_decides and survivors and rank == last) else rank
        for rank, lost in zip(ranks, forfeited, strict=True)
    ]
    return [sum(1 for other in keys if other < key) for key in keys]


def _budget_text(p: _Pending) -> str:
    """``100 ms``, or ``100 ms + 50 ms margin`` with a time margin."""
    text = f"{p.budget_ms:g} ms"
    return f"{text} + {p.margin_ms:g} ms margin" if p.margin_ms else text
