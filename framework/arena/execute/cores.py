"""A local pool's games and the machine's core ledger (:mod:`arena.cores`): a game starts
once its thinking bots have a core each, and the wait is told once per wait.

A pool whose games at once need more cores than the machine has (an explicit
``concurrency`` or ``-j`` above the fair one, which warns) may start a game without all its
cores, *oversubscribed*, but only when the cores it lacks are held by its own games: it
shares its own cores, never another run's. Those games are counted (the run's summary says
how many).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from arena.cores import Claim, CoreLedger, CoreWait, ledger_folder, playing_on

CoreNotice = Callable[[CoreWait | None], None]
"""Told when a game starts waiting for cores (what it waits for), and when the wait is
over (None)."""
POLL_S = 0.1
"""How often a waiting pool tries the ledger again."""


@dataclass
class CoreGate:
    """The cores a pool of ``size`` workers takes for its games, ``thinking`` per game."""

    size: int
    thinking: int
    notice: CoreNotice | None = None
    say: Callable[[str], None] | None = None
    ledger: CoreLedger | None = None
    oversubscribed: int = 0
    waits: int = 0
    waiting: bool = False
    _said: set[str] = field(default_factory=set)

    @classmethod
    def open(
        cls,
        size: int,
        thinking: int,
        notice: CoreNotice | None = None,
        say: Callable[[str], None] | None = None,
    ) -> CoreGate:
        """The gate on the machine's ledger (``ARENA_CORE_LEDGER``); one that cannot be
        used is said (``say``) and the games play without it."""
        gate = cls(size, thinking, notice, say)
        folder = ledger_folder()
        if folder is not None:
            try:
                gate.ledger = CoreLedger.open(folder)
            except OSError as exc:
                gate._tell(
                    f"arena: warning: core ledger {folder} cannot be used ({exc.strerror or exc}):"
                    " games take no cores from it, so other arena runs may share them"
                    " (see docs/fair-time.md)"
                )
        return gate

    @property
    def need(self) -> int:
        """Cores per game: one per thinking bot, at most the machine's."""
        assert self.ledger is not None
        return max(1, min(self.thinking, len(self.ledger.cores)))

    def take(self) -> Claim | None:
        """The next game's cores, or None: it waits (try again after :data:`POLL_S`)."""
        ledger = self.ledger
        if ledger is None:
            return Claim([])
        need = self.need
        claim = ledger.take(need)
        if claim is None and self._may_oversubscribe(need):
            claim = ledger.take(need, allow_fewer=True)
            if claim is not None:
                self.oversubscribed += 1
        for warning in ledger.warnings:
            self._tell(warning)
        if claim is not None:
            if self.waiting:
                self.waiting = False
                if self.notice is not None:
                    self.notice(None)
            return claim
        if not self.waiting:
            self.waiting = True
            self.waits += 1
            if self.notice is not None:
                self.notice(ledger.wait_info(need))
        return None

    def _may_oversubscribe(self, need: int) -> bool:
        """An explicit concurrency above the fair one, and the cores missing are this
        run's own (a game of it holds them)."""
        assert self.ledger is not None
        cores = len(self.ledger.cores)
        if self.size * need <= cores or not self.ledger.mine:
            return False
        return len(self.ledger.free()) + len(self.ledger.mine) >= need

    def close(self) -> None:
        """Let go of the ledger (every claim was released)."""
        if self.ledger is not None:
            self.ledger.close()

    def _tell(self, text: str) -> None:
        if text not in self._said:
            self._said.add(text)
            if self.say is not None:
                self.say(text)


@contextmanager
def one_game(thinking: int, say: Callable[[str], None] | None = None) -> Iterator[None]:
    """The cores of one game played in this process (:func:`arena.play`) held while the
    block runs, waited for first (said once on ``say``, by default standard error)."""
    tell = say or (lambda text: print(text, file=sys.stderr))

    def notice(wait: CoreWait | None) -> None:
        if wait is not None:
            tell(f"arena: {wait.message()}")

    gate = CoreGate.open(1, thinking, notice, tell)
    try:
        while (claim := gate.take()) is None:
            time.sleep(POLL_S)
        try:
            with playing_on(claim.cores or None):
                yield
        finally:
            claim.release()
    finally:
        gate.close()
