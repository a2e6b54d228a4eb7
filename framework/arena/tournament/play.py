"""The one home of "play these games": ``arena run``, ``arena match`` and :func:`arena.run`
all play their games here.

A :class:`GamePlan` says which games (a lazy stream of :class:`~arena.records.GameSpec`),
how each becomes a worker's :class:`~arena.execute.jobs.Job`, and how many are expected.
:func:`play_plan` hands them to an executor and turns each result into an outcome
(:func:`outcome_of`): a :class:`Played` game goes to the caller's ``store``, a
:class:`Stalled` one is played again (:mod:`arena.tournament.stalls`, the only place that
counts stalls) or given up, a :class:`Failed` one goes to the caller's ``failed``. Every
step is published to the run's observers (:mod:`arena.events`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.events import (
    CoresWaiting,
    GameFailed,
    GameGivenUp,
    GameStalled,
    GameStored,
    Observers,
    RunFinished,
    RunStarted,
    RunState,
)
from arena.records import GameRecord, GameSpec
from arena.tournament.stalls import MAX_STALL_REPLAYS, StallBook, with_retries

if TYPE_CHECKING:
    from arena.cores import CoreWait
    from arena.execute.executor import Executor
    from arena.execute.jobs import Job
    from arena.execute.pool import Failure


@dataclass(frozen=True)
class Played:
    """The game ended (however the bots did): its record, to be stored."""

    record: GameRecord


@dataclass(frozen=True)
class Stalled:
    """The machine, not a bot, put a turn over its budget: not stored, played again."""

    why: str


@dataclass(frozen=True)
class Failed:
    """The referee could not finish the game (arena's or a plugin's failure)."""

    reason: str


Outcome = Played | Stalled | Failed


def outcome_of(result: dict[str, Any] | Failure) -> Outcome:
    """What a worker's result (a record as a dict, or a failure) means for the run."""
    if not isinstance(result, dict):
        return Failed(result.reason)
    if result.get("reason") == "stall":
        return Stalled(str(result.get("stall", "")))
    return Played(GameRecord.from_dict(result))


def _none() -> None:
    return None


@dataclass
class GamePlan:
    """The games of one run, and what the run knows of them.

    ``total()`` is the games expected in all, stored before included (None: not known;
    an SPRT's changes as results come in); ``status()`` the scheduler's state to show, if
    any. ``max_replays`` is how often a stalled game is played again before it is given
    up (0: at once, as ``arena match`` does)."""

    name: str
    output: Path | None
    specs: Iterator[GameSpec]
    job: Callable[[GameSpec], Job]
    total: Callable[[], int | None] = _none
    status: Callable[[], str | None] = _none
    stored: int = 0  # games already stored when the run began
    max_replays: int = MAX_STALL_REPLAYS
    more: Callable[[], Iterator[GameSpec] | None] = _none
    """The next round's games once every game of ``specs`` has ended (a format that plays
    round by round), else ``None``: the run is over."""


@dataclass
class PlanResult:
    """What :func:`play_plan` did: games stored, failures (``game <key>: why``), the
    stalls (:class:`~arena.tournament.stalls.StallBook`) and the stop signal, if any."""

    played: int = 0
    failures: list[str] = field(default_factory=list)
    stalls: StallBook = field(default_factory=lambda: StallBook(lambda _: None))
    stop_signal: int | None = None
    stop: Exception | None = None  # the Interrupted that ended the run early
    oversubscribed: int = 0  # games started without all their cores (concurrency above fair)


KeepGame = Callable[[GameSpec, GameRecord], None]
"""Keeps a played game (raises to stop the run: e.g. an OutputError on a full disk)."""
OnFailed = Callable[[GameSpec, str], None]


class _Loop:
    """One run's results handled as they come in (in the coordinating process)."""

    def __init__(
        self,
        plan: GamePlan,
        store: KeepGame,
        failed: OnFailed,
        observers: Observers,
        say: Callable[[str], None],
    ) -> None:
        self.plan = plan
        self.store = store
        self.on_failed = failed
        self.observers = observers
        self.say = say
        self.result = PlanResult(stalls=StallBook(say, plan.max_replays))
        self.done = plan.stored

    def total(self) -> int | None:
        total = self.plan.total()
        return None if total is None else max(total, self.done)

    def cores(self, wait: CoreWait | None) -> None:
        """A game waits for the machine's cores (said once per wait), or no longer does."""
        if wait is None:
            self.observers.publish(CoresWaiting(None))
            return
        message = wait.message()
        self.say(f"arena: {message}")
        self.observers.publish(CoresWaiting(message, wait.held, wait.games, wait.runs))

    def finished(self, spec: GameSpec, result: dict[str, Any] | Failure) -> None:
        """A game ended: stored, failed, or a stall (played again or given up)."""
        outcome = outcome_of(result)
        stalls = self.result.stalls
        if isinstance(outcome, Stalled):
            if stalls.stalled(spec, outcome.why):
                self.done += 1
                self.observers.publish(GameGivenUp(spec, outcome.why, self.done, self.total()))
            else:
                self.observers.publish(GameStalled(spec, outcome.why, stalls.replayed))
            return
        if isinstance(outcome, Failed):
            self.on_failed(spec, outcome.reason)
            self.result.failures.append(f"game {spec.key}: {outcome.reason}")
            self.done += 1
            self.observers.publish(GameFailed(spec, outcome.reason, self.done, self.total()))
            return
        self.store(spec, outcome.record)
        self.result.played += 1
        self.done += 1
        event = GameStored(
            spec, outcome.record, self.result.played, self.done, self.total(), self.plan.status()
        )
        self.observers.publish(event)


def play_plan(
    plan: GamePlan,
    executor: Executor,
    store: KeepGame,
    failed: OnFailed,
    observers: Observers,
    say: Callable[[str], None],
    stop_early: Callable[[], str | None] = _none,
) -> PlanResult:
    """Play ``plan``'s games (and the replays of stalled ones) on ``executor`` until done,
    ``stop_early()`` gives a reason (the stream of specs ended for it), or a stop signal.

    Publishes :class:`~arena.events.RunStarted` first and
    :class:`~arena.events.RunFinished` last, also when something raises."""
    from arena.execute.executor import LocalExecutor
    from arena.execute.stopping import Interrupted

    loop = _Loop(plan, store, failed, observers, say)
    if isinstance(executor, LocalExecutor):  # its games take cores from the machine's ledger
        executor.notice, executor.say = loop.cores, say
    stalls = loop.result.stalls
    observers.publish(RunStarted(plan.name, plan.output, loop.total(), plan.stored))
    state: RunState = "stopped"
    why: str | None = "arena stopped"
    try:
        todo = with_retries(plan.specs, stalls.retry, say)
        while True:
            executor.run(todo, plan.job, loop.finished)
            if stop_early():
                break
            if stalls.retry:
                todo = with_retries(iter(()), stalls.retry, say)  # the last stalls
                continue
            following = plan.more()  # every game so far has ended: the next round
            if following is None:
                break
            todo = with_retries(following, stalls.retry, say)
        why = stop_early()
        state = "stopped" if why else "done"
    except Interrupted as stop:
        loop.result.stop_signal = stop.signum
        loop.result.stop = stop
        why = f"interrupted ({stop})"
    finally:
        if isinstance(executor, LocalExecutor):
            loop.result.oversubscribed = executor.oversubscribed
        total = loop.total()
        observers.publish(RunFinished(state, loop.result.played, loop.done, total, why))
    return loop.result
