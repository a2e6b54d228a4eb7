"""What-ifs a benchmark may measure beside arena as it is: never used by arena itself."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import arena.referee.engine as engine


def _nice_only() -> int | None:
    """``engine._prioritize`` without its first choice: the referee at nice
    ``engine.REFEREE_NICE`` where allowed, never at a real-time priority."""
    try:
        before = os.getpriority(os.PRIO_PROCESS, 0)
        if before <= engine.REFEREE_NICE:
            return None
        os.setpriority(os.PRIO_PROCESS, 0, engine.REFEREE_NICE)
        return before
    except OSError:
        return None


def referee_without_realtime() -> None:
    """From now on (and in workers forked from this process), referees raise themselves
    to nice ``REFEREE_NICE`` only, not to ``SCHED_FIFO``: what real-time stamps cost,
    and what they buy (``bench/README.md``)."""
    engine._prioritize = _nice_only  # type: ignore[assignment]


@contextmanager
def realtime_off() -> Iterator[None]:
    """:func:`referee_without_realtime` for the games played in this block only."""
    saved = engine._prioritize
    referee_without_realtime()
    try:
        yield
    finally:
        engine._prioritize = saved  # type: ignore[assignment]
