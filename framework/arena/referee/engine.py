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
from dataclasses import fields as dataclass_fields
from pathlib import Path
from typing import Any

from arena.botproc import BotHome, Sandbox, kill_every_bot, remove_retired
from arena.botproc.cgroups import CoreClaim, claim_cores, free_cores
from arena.game import FileTransport, Game, standing_moves
from arena.records import (
    REPLAY_FORMAT,
    BotSpec,
    Clock,
    ForfeitEntry,
    GameRecord,
    Replay,
    ReplayStep,
    SeatRecord,
)
from arena.referee.clocks import Stall, StepStall, turn_clock
from arena.referee.external import helper_scope
from arena.referee.file_seats import FileSeats
from arena.referee.line_seats import LineSeats
from arena.referee.seats import Seats, Table
from arena.viewdiff import ViewRecorder

MAX_STEPS = 100_000
"""A game still running after this many steps is a broken plugin, not a long game."""
RAW_CAP = 500
"""Characters of offending output kept with a forfeit."""


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
        self._cores: list[int | None] = [None] * len(self.bots)  # a core per seat, if given

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

    def _open_seats(self, home: BotHome) -> Seats:
        """The seats of this game: the one place that chooses them by the game's transport."""
        table = Table(
            game=self.game,
            bots=self.bots,
            sandbox=self.sandbox,
            clock=turn_clock(self.clock),
            home=home,
            cores=self._cores,
            stderr_paths=[self.stderr_path(i) for i in range(len(self.bots))],
        )
        transport = self.info.transport
        if isinstance(transport, FileTransport):
            return FileSeats(table, transport)
        return LineSeats(table)

    def _play(self, seed: int, settings: Mapping[str, Any]) -> GameRecord:
        n = len(self.bots)
        started = time.perf_counter()
        seats = [
            SeatRecord(bot=b.name, stderr=self.stderr_path(i).name) for i, b in enumerate(self.bots)
        ]
        for i in range(n):
            self.stderr_path(i).write_bytes(b"")
        steps: list[ReplayStep] = []
        state = self.game.start(seed, n, dict(settings))
        recorder = ViewRecorder(self.game.view(state)) if self.replay else None
        start_view = recorder.view if recorder is not None else None
        stalled = ""
        epilogue: dict[str, str] = {}
        home = BotHome.create(self.info.id, n, self.sandbox)
        claim, placed = _place(n)
        niced = _prioritize()
        self._cores = list(claim.cores) if claim is not None else [None] * n
        players = self._open_seats(home)
        try:
            players.start()
            remove_retired()  # the last game's folders, while these bots start up
            state, epilogue = self._loop(state, seats, players, steps, recorder)
        except Stall as stall:
            stalled = str(stall)
        finally:
            kill_every_bot()  # every bot signalled before any is waited for: they die together
            players.close()  # then each is waited for, the game's home closed
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
            self._write_replay(record, steps, state, start_view, epilogue)
        return record

    # -- the step loop -------------------------------------------------------------

    def _loop(
        self,
        state: Any,
        seats: list[SeatRecord],
        players: Seats,
        steps: list[ReplayStep],
        recorder: ViewRecorder | None,
    ) -> tuple[Any, dict[str, str]]:
        """Play every step to the game's end: the last state and the epilogue sent."""
        prompted = [False] * len(seats)
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
            stalled: StepStall | None = None
            try:
                moves, forfeits = players.play_step(state, to_act, budgets, step)
            except StepStall as stall:
                if not stall.forfeits:
                    raise
                # Another seat lost this step through its own fault: if that ends the
                # game, the result stands (a stall never voids a bot's own loss).
                moves, forfeits, stalled = stall.moves, stall.forfeits, stall
            for seat, given in forfeits.items():
                forfeit = players.forfeited(seat, given)
                seats[seat].forfeit = forfeit.reason
                seats[seat].detail = forfeit.detail
                seats[seat].raw = forfeit.raw[:RAW_CAP]
                step["forfeits"][str(seat)] = ForfeitEntry(
                    reason=forfeit.reason, detail=forfeit.detail, raw=forfeit.raw
                )
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
            if stalled is not None and self.game.to_act(state):
                raise stalled  # the game goes on: to be played again
            if actions:
                state = self.game.apply(state, actions)
            if recorder is not None:
                # Each step keeps only what changed in the view (see arena.viewdiff).
                step["view"] = recorder.record(self.game.view(state))
            step["turn"] = self.game.turn_number(state)
            steps.append(step)
            players.step_done(step)
            unobserved.append((len(steps) - 1, step, state))
        epilogue = players.finish(state, [s.forfeit is not None for s in seats])
        while unobserved:
            self._observe(*unobserved.popleft())
        return state, epilogue

    def _observe(self, index: int, step: ReplayStep, state: Any) -> None:
        if self.observer is not None:
            self.observer(index, step, state)

    # -- replay --------------------------------------------------------------------

    def _write_replay(
        self,
        record: GameRecord,
        steps: list[ReplayStep],
        state: Any,
        start_view: Any,
        epilogue: dict[str, str],
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
        if epilogue:
            replay["epilogue"] = dict(epilogue)
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
