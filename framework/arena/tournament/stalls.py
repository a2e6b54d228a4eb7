"""Stalled games: broken off because the machine, not a bot, put a turn over its budget.

A stall is not stored. It is played again, a bounded number of times, once the machine
is calm (or after a while): :class:`StallBook` keeps the count, the replays waiting and
the games given up; :func:`with_retries` feeds the replays back among the scheduled games.
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from arena.records import GameSpec

if TYPE_CHECKING:  # the store (sqlite3) is imported only where games are stored
    from arena.results.store import Store

MAX_STALL_REPLAYS = 3
"""A game broken off as a ``stall`` (the machine, not a bot, put a turn over its budget)
is played again at most this many times; then it is given up (not stored), the run says
so and ends with :data:`~arena.errors.EXIT_GIVEN_UP`; running it again plays it."""
REPLAY_BACKOFF_S = 10.0
"""Before a stalled game is played again, arena waits at most this long for the machine
to calm down (:func:`machine_busy`)."""
BACKOFF_POLL_S = 0.5
CALM_PRESSURE = 20.0
"""The machine is calm when, over the last 10 s, tasks waited for a CPU less than this
share of the time (``/proc/pressure/cpu``, ``some avg10``)."""


def machine_busy() -> bool:
    """Whether the machine's CPUs are contended now: tasks waited for a CPU more than
    :data:`CALM_PRESSURE` % of the last 10 s (Linux PSI), or, without PSI, more tasks are
    runnable than there are cores (``/proc/loadavg``). False when neither can be read."""
    try:
        first = Path("/proc/pressure/cpu").read_text().split("\n", 1)[0]
        return float(first.split()[1].partition("=")[2]) >= CALM_PRESSURE
    except (OSError, IndexError, ValueError):
        pass
    try:
        running = Path("/proc/loadavg").read_text().split()[3].split("/")[0]
        return int(running) - 1 > len(os.sched_getaffinity(0))  # not counting this process
    except (OSError, IndexError, ValueError):
        return False


def settle(since: float, most: float | None = None) -> float:
    """Wait until the machine is calm (:func:`machine_busy`) or ``most`` seconds
    (default :data:`REPLAY_BACKOFF_S`) after ``since`` (a ``time.monotonic`` instant);
    the seconds waited."""
    most = REPLAY_BACKOFF_S if most is None else most
    start = time.monotonic()
    while machine_busy() and (left := since + most - time.monotonic()) > 0:
        time.sleep(min(BACKOFF_POLL_S, left))
    return time.monotonic() - start


class StallBook:
    """The stalls of one run: how often each game stalled, why, which wait to be played
    again (with when they stalled) and which were given up."""

    def __init__(self, say: Callable[[str], None], max_replays: int = MAX_STALL_REPLAYS) -> None:
        self.say = say
        self.max_replays = max_replays
        self.counts: dict[str, int] = {}
        self.why: list[str] = []
        self.retry: deque[tuple[GameSpec, float]] = deque()
        self.given_up: list[str] = []

    def stalled(self, spec: GameSpec, detail: str) -> bool:
        """Note a stalled game (``detail``: why): to be played again (False), or given up
        (True: it stalled more than ``max_replays`` times, by default
        :data:`MAX_STALL_REPLAYS`; it counts as done for the progress)."""
        count = self.counts[spec.key] = self.counts.get(spec.key, 0) + 1
        self.why.append(f"{spec.key}: {detail}")
        if count <= self.max_replays:
            self.retry.append((spec, time.monotonic()))
            return False
        self.given_up.append(f"game {spec.key}: {detail}")
        if self.max_replays == 0:
            return True  # never played again: the caller says so in its own words
        self.say(
            f"game {spec.key} given up: it stalled {count} times (the machine kept a"
            f" bot waiting: {detail}); not stored: run the same command again to play it,"
            " on a quieter machine, with fewer games at once, or with `clock: cpu`"
        )
        return True

    @property
    def replayed(self) -> int:
        """Games played again after a stall (those given up not counted)."""
        return sum(self.counts.values()) - len(self.given_up)

    def record(self, store: Store) -> None:
        """Keep the counts in the store's meta (the leaderboard shows them) and say them."""
        abandoned = len(self.given_up)
        if self.counts:
            before = store.meta().get("stall_replays") or {}
            store.set_meta(
                {
                    "stall_replays": {
                        "replayed": int(before.get("replayed", 0)) + self.replayed,
                        "abandoned": int(before.get("abandoned", 0)) + abandoned,
                        "given_up": abandoned,  # by the latest run: still unplayed
                        "why": self.why[-1],
                    }
                }
            )
            self.say(
                f"arena: {self.replayed} game(s) replayed after a stall (a turn over its "
                f"budget only because the machine kept a bot waiting; last: {self.why[-1]})"
            )
        elif (store.meta().get("stall_replays") or {}).get("given_up"):
            # The games an earlier run gave up were played now.
            meta = dict(store.meta()["stall_replays"], given_up=0)
            store.set_meta({"stall_replays": meta})
        if abandoned:
            self.say(
                f"arena: {abandoned} game(s) given up, not stored: each stalled "
                f"{MAX_STALL_REPLAYS + 1} times (a turn over its budget only because the "
                "machine kept a bot waiting), so the leaderboard lacks them; run the same "
                "command again to play them (on a quieter machine, with fewer games at once, "
                "or with `clock: cpu`)"
            )


def with_retries(
    specs: Iterator[GameSpec],
    retry: deque[tuple[GameSpec, float]],
    say: Callable[[str], None] | None = None,
) -> Iterator[GameSpec]:
    """The games of ``specs``, each game waiting in ``retry`` (a stall to play again, with
    when it stalled) first, once the machine is calm or :data:`REPLAY_BACKOFF_S` passed
    (:func:`settle`); meanwhile the other games go on."""
    told = False

    def ready() -> Iterator[GameSpec]:
        while retry:
            spec, since = retry[0]
            if machine_busy() and time.monotonic() < since + REPLAY_BACKOFF_S:
                return
            retry.popleft()
            yield spec

    for spec in specs:
        yield from ready()
        yield spec
    while retry:
        spec, since = retry.popleft()
        waited = settle(since)
        if waited >= 1.0 and say is not None and not told:
            told = True
            say(f"arena: waited {waited:.0f} s for the machine to calm down before a replay")
        yield spec
