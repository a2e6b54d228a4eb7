"""Stop signals (SIGINT, SIGTERM) while games run: one handler for every executor.

Signals are process-wide, so is the record of the first one: the executors note the signal
that stopped them, and the command line uses it to keep that signal's exit code when a
second one (a second Ctrl-C, or Ctrl-C after a SIGTERM) arrives while it is still winding
down. :class:`StopSignals` is what the local pool and the Dask executor both install while
they run games.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType, TracebackType

from arena.errors import ArenaError

_first: int | None = None


def note_stop(signum: int) -> None:
    """Record ``signum`` unless an earlier stop signal was already recorded."""
    global _first
    if _first is None:
        _first = signum


def first_stop() -> int | None:
    """The first stop signal this process took, or ``None``."""
    return _first


class Interrupted(ArenaError):
    """SIGINT or SIGTERM stopped the games; ``signum`` says which."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


class StopSignals:
    """While installed (``with StopSignals() as stop:``), SIGINT and SIGTERM set a flag.

    The executor looks at the flag between games (:meth:`check`) and waits for games under
    :meth:`waiting`: only such a wait is cut short by a signal (:class:`Interrupted` is
    raised in it), so a game being stored is never cut in half. Outside the main thread
    signals cannot be handled, and nothing is installed.
    """

    def __init__(self) -> None:
        self.signum: int | None = None
        self._waiting = False
        self._previous: dict[int, Callable[..., object] | int | None] = {}

    def __enter__(self) -> StopSignals:
        if threading.current_thread() is threading.main_thread():
            for s in (signal.SIGINT, signal.SIGTERM):
                self._previous[s] = signal.getsignal(s)
                signal.signal(s, self._handle)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        for s, handler in self._previous.items():
            signal.signal(s, handler)
        self._previous.clear()

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        note_stop(signum)
        if self.signum is None:
            self.signum = signum
        if self._waiting:
            raise Interrupted(self.signum)

    def check(self) -> None:
        """Raise :class:`Interrupted` once a stop signal has come."""
        if self.signum is not None:
            raise Interrupted(self.signum)

    @contextmanager
    def waiting(self, check: bool = True) -> Iterator[None]:
        """A wait a stop signal may interrupt (raising :class:`Interrupted` in it); with
        ``check``, a signal that came before it raises at once."""
        self._waiting = True
        try:
            if check:
                self.check()
            yield
        finally:
            self._waiting = False
