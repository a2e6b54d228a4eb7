"""The referee's seats: the bots of one game behind one interface, whatever their transport.

The engine (:class:`~arena.referee.engine.Referee`) plays the steps and keeps the record;
how a seat's bot is given its input and how its answer comes back is the seats' job:
:class:`~arena.referee.line_seats.LineSeats` (persistent processes talking lines on
pipes, the default) or :class:`~arena.referee.file_seats.FileSeats` (a process per turn,
files in and out: a game's :class:`~arena.game.FileTransport`). The engine chooses one,
in one place; both ask their :class:`~arena.referee.clocks.TurnClock` every clock rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from arena.botproc import BotHome, Sandbox
from arena.botproc.commands import start_problem
from arena.game import Game, Move
from arena.records import BotSpec, Forfeit, ReplayStep
from arena.referee.clocks import TurnClock

STEP_LOG_CAP = 8 * 1024
"""Bytes of a seat's stderr kept in its step record (the stderr file keeps more)."""

Verdicts = tuple[dict[int, Move], dict[int, Forfeit]]
"""What a step's seats did: the moves of those that answered, the forfeits of the others."""


@dataclass(frozen=True)
class Table:
    """What the seats of one game share: the game, its bots and where they run."""

    game: Game[Any]
    bots: Sequence[BotSpec]
    sandbox: Sandbox
    clock: TurnClock
    home: BotHome
    cores: Sequence[int | None]  # a core per seat, where the game got them
    stderr_paths: Sequence[Path]

    def who(self, seat: int) -> str:
        """``seat 0 (greedy)``."""
        return f"seat {seat} ({self.bots[seat].name})"

    def exit_summary(self, seat: int, code: int | None, context: str) -> str:
        """How seat's bot ended (``exited with code 1 without answering``); for the codes
        of a program that could not be run (126, 127), why it could not, where known."""
        text = exit_text(code, context)
        if code in (126, 127) and (why := start_problem(self.bots[seat].argv[0])) is not None:
            text += f": {why}"
        return text


class Seats(Protocol):
    """The bots of one game as the referee talks to them (every call but :meth:`close`
    from the referee's own thread, in this order: start, then play_step, forfeited and
    step_done for each step, then finish; close always, last)."""

    def start(self) -> None:
        """Get ready for the first step (start the persistent bots)."""

    def play_step(
        self, state: Any, to_act: list[int], budgets: dict[int, float], step: ReplayStep
    ) -> Verdicts:
        """Give every seat of ``to_act`` its input and judge what it does within its
        budget (ms), recording each seat's exchange in ``step["io"]``; raises
        :class:`~arena.referee.clocks.Stall` when the machine, not a bot, made a turn late."""
        ...

    def forfeited(self, seat: int, forfeit: Forfeit) -> Forfeit:
        """Seat lost the game: stop its bot; the forfeit as the user should read it."""
        ...

    def step_done(self, step: ReplayStep) -> None:
        """The step was applied: file what the seats wrote on stderr under its turns."""

    def finish(self, state: Any, forfeited: Sequence[bool]) -> dict[str, str]:
        """The game is over: the epilogue for those still playing, then the bots end; the
        text sent, by seat (for the replay)."""
        ...

    def close(self) -> None:
        """End every bot and close the game's home (idempotent; after anything)."""


def exit_text(code: int | None, context: str) -> str:
    """``exited with code 1 before its turn``, ``killed by signal 9 ...``."""
    if code is None:
        return f"closed its output {context}".strip()
    if code < 0:
        return f"killed by signal {-code} {context}".strip()
    return f"exited with code {code} {context}".strip()
