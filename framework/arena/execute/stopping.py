"""The first stop signal (SIGINT or SIGTERM) this process took, whoever handled it.

Signals are process-wide, so is this record: the game pools note the signal that stopped
them, and the command line uses it to keep that signal's exit code when a second one (a
second Ctrl-C, or Ctrl-C after a SIGTERM) arrives while it is still winding down.
"""

from __future__ import annotations

_first: int | None = None


def note_stop(signum: int) -> None:
    """Record ``signum`` unless an earlier stop signal was already recorded."""
    global _first
    if _first is None:
        _first = signum


def first_stop() -> int | None:
    """The first stop signal this process took, or ``None``."""
    return _first
