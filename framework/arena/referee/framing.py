"""Framing: cutting what a line-protocol bot writes into the units a game interprets.

A game reads either whole lines (the CodinGame way) or whitespace-separated words, as a C
referee reading with ``scanf`` does (``GameInfo.framing``). Each unit keeps the arrival
time of the line it came in, so clocks stay exact per command; units left over after a
seat's move wait for its next turn, as they would in the original's input stream.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field

from arena.game import Framing

C_SPACE = re.compile(r"[ \t\n\v\f\r]+")
"""What C's ``isspace`` calls whitespace (``scanf`` skips it); ASCII only."""


@dataclass
class UnitReader:
    """One seat's queue of units (lines or words), each with its arrival time.

    Kept for the whole game, so words sent after a move are read in the next turn.
    """

    framing: Framing = "lines"
    queue: deque[tuple[str, float]] = field(default_factory=deque)

    @property
    def separator(self) -> str:
        """How the units of one command are joined for :meth:`~arena.game.Game.interpret`."""
        return " " if self.framing == "tokens" else "\n"

    def feed(self, line: str, arrived: float) -> None:
        """Add one line the bot wrote (without its newline), split as the framing says."""
        if self.framing == "tokens":
            self.queue.extend((word, arrived) for word in C_SPACE.split(line) if word)
        else:
            self.queue.append((line, arrived))

    def pop(self) -> tuple[str, float] | None:
        """The oldest unit and its arrival time, or None when none is waiting."""
        return self.queue.popleft() if self.queue else None
