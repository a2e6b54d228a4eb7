"""What a run tells its observers as it goes: the events, the observer interface and the
fan-out that hands each event to every observer.

A run (``arena run``, ``arena match``, :func:`arena.run`) publishes, in order, one
:class:`RunStarted`, then for each game that ends one :class:`GameStored`,
:class:`GameStalled` (to be played again), :class:`GameGivenUp` or :class:`GameFailed`,
and last one :class:`RunFinished`, also when the run stops early. Between them, a
:class:`CoresWaiting` each time a game starts and stops waiting for the machine's cores.
A progress bar, a live report, a status file or a web app each implement
:class:`RunObserver` (only the methods they need) and are passed in by the caller; the run
knows none of them. Observers are called in the run's own process, one event at a time, as
games end: an observer that is slow slows the run.

This module is low in the core's layers: it imports only the shared records.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from arena.records import GameRecord, GameSpec

RunState = Literal["running", "stopped", "done"]
"""A run's state: still playing; stopped early (a signal, a bot's file changed, arena
failed); or done (every game it would play was played, stored or not)."""


@dataclass(frozen=True)
class RunStarted:
    """The run's games are about to be played (the bots are built, the folder locked)."""

    name: str  # the tournament's name, or "a vs b" for a match
    output: Path | None  # the output folder (None: a match without --output)
    total: int | None  # the games the run will have done; None: not known (open-ended)
    stored: int = 0  # games already stored before this run (resumed), counted in total


@dataclass(frozen=True)
class GameStored:
    """A game ended and is stored (the ``played``-th of this run)."""

    spec: GameSpec
    record: GameRecord
    played: int  # games stored by this run, this one included
    done: int  # games done (stored before, stored now, failed, given up)
    total: int | None  # the games expected in all (an SPRT's changes as it goes)
    status: str | None = None  # the scheduler's state, if it has one to show (SPRT's LLR)


@dataclass(frozen=True)
class GameStalled:
    """A game was broken off because the machine kept a bot waiting: not stored, it is
    played again."""

    spec: GameSpec
    why: str
    replayed: int  # stalled games played again so far in this run, this one included


@dataclass(frozen=True)
class GameGivenUp:
    """A game stalled at every replay: given up, not stored (it counts as done)."""

    spec: GameSpec
    why: str
    done: int
    total: int | None


@dataclass(frozen=True)
class GameFailed:
    """A game failed in the referee (arena's or a plugin's fault, never a bot's)."""

    spec: GameSpec
    reason: str
    done: int
    total: int | None


@dataclass(frozen=True)
class CoresWaiting:
    """A game waits for cores other arena runs hold (the machine's core ledger), or, with
    ``message`` None, the wait is over."""

    message: str | None  # e.g. "waiting for a core: 2 games of another arena run are ..."
    held: int = 0  # cores held by other arena processes
    games: int = 0  # their games
    runs: int = 0  # those processes


@dataclass(frozen=True)
class RunFinished:
    """The run ended: ``done``, or ``stopped`` early (``why`` says how)."""

    state: RunState
    played: int  # games stored by this run
    done: int
    total: int | None
    why: str | None = None


class RunObserver:
    """Something that follows a run: override the methods for the events it needs (each
    does nothing here)."""

    def started(self, event: RunStarted) -> None:
        """The run began."""

    def stored(self, event: GameStored) -> None:
        """A game was stored."""

    def stalled(self, event: GameStalled) -> None:
        """A game stalled and will be played again."""

    def given_up(self, event: GameGivenUp) -> None:
        """A game was given up after stalling at every replay."""

    def failed(self, event: GameFailed) -> None:
        """A game failed in the referee."""

    def waiting(self, event: CoresWaiting) -> None:
        """A game waits for the machine's cores (or stopped waiting)."""

    def finished(self, event: RunFinished) -> None:
        """The run ended (done or stopped)."""


Event = (
    RunStarted | GameStored | GameStalled | GameGivenUp | GameFailed | CoresWaiting | RunFinished
)

_METHOD: dict[type, str] = {
    RunStarted: "started",
    GameStored: "stored",
    GameStalled: "stalled",
    GameGivenUp: "given_up",
    GameFailed: "failed",
    CoresWaiting: "waiting",
    RunFinished: "finished",
}


class Observers:
    """The observers of one run: :meth:`publish` hands an event to each in turn. One that
    raises is logged (``say``, else the ``arena.events`` logger) and skipped for that
    event; the run and the other observers go on. Only a broken pipe (whoever read the
    command's output went away) goes through: the command ends as it always does then."""

    def __init__(
        self, observers: Iterable[RunObserver] = (), say: Callable[[str], None] | None = None
    ) -> None:
        self.observers = list(observers)
        self.say = say

    def publish(self, event: Event) -> None:
        """Hand ``event`` to every observer, in the order they were given."""
        method = _METHOD[type(event)]
        for observer in self.observers:
            try:
                getattr(observer, method)(event)
            except BrokenPipeError:
                raise  # the reader of the output went away (`| head`): the command ends
            except Exception as exc:  # an observer never stops the run
                message = (
                    f"arena: {type(observer).__name__} failed on {type(event).__name__}: "
                    f"{type(exc).__name__}: {exc}"
                )
                if self.say is not None:
                    self.say(message)
                else:
                    import logging  # only here: `arena --version` imports this module

                    logging.getLogger("arena.events").warning(message)
