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
is played again at least this many times, and for at least :data:`GIVE_UP_AFTER_S`; then
it is given up (not stored), the run says so and ends with
:data:`~arena.errors.EXIT_GIVEN_UP`; running it again plays it."""
GIVE_UP_AFTER_S = 900.0
"""A stalled game is given up only once it has been stalling this long (15 minutes from
its first stall): under sustained load a run slows down (:func:`backoff_s`) rather than
giving up."""
REPLAY_BACKOFF_S = 10.0
"""Before a stalled game is played again, arena waits at most this long for the machine
to calm down (:func:`machine_busy`), twice as long after each further stall of the same
game, up to :data:`MAX_BACKOFF_S`."""
MAX_BACKOFF_S = 120.0
BACKOFF_POLL_S = 0.5
CALM_PRESSURE = 20.0
"""The machine is calm when, over the last 10 s, tasks waited for a CPU, for I/O and on
memory each less than this share of the time (``/proc/pressure/*``, ``some avg10``)."""
PRESSURE_DIR = Path("/proc/pressure")


def some_avg10(text: str) -> float:
    """The ``some avg10`` share (%) of a PSI file's text; ValueError if there is none."""
    first = text.split("\n", 1)[0].split()
    if len(first) < 2 or first[0] != "some" or not first[1].startswith("avg10="):
        raise ValueError(f"not a PSI line: {first!r}")
    return float(first[1].partition("=")[2])


def machine_busy() -> bool:
    """Whether the machine is contended now: tasks waited for a CPU, for I/O or on memory
    more than :data:`CALM_PRESSURE` % of the last 10 s (Linux PSI: the waits a stall
    forgives), or, without PSI, more tasks are runnable than there are cores
    (``/proc/loadavg``). False when neither can be read."""
    try:
        shares = [some_avg10((PRESSURE_DIR / kind).read_text()) for kind in ("cpu", "io", "memory")]
        return max(shares) >= CALM_PRESSURE
    except (OSError, ValueError):
        pass
    try:
        running = Path("/proc/loadavg").read_text().split()[3].split("/")[0]
        return int(running) - 1 > len(os.sched_getaffinity(0))  # not counting this process
    except (OSError, IndexError, ValueError):
        return False


def backoff_s(stalls: int) -> float:
    """The most arena waits for calm before replaying a game that stalled ``stalls``
    times: :data:`REPLAY_BACKOFF_S`, doubled at each further stall, at most
    :data:`MAX_BACKOFF_S` (10, 20, 40, 80, 120, 120 ... s)."""
    return min(REPLAY_BACKOFF_S * 2.0 ** max(0, stalls - 1), MAX_BACKOFF_S)


def load() -> float:
    """The machine's load average over the last minute (0 where unknown)."""
    try:
        return os.getloadavg()[0]
    except OSError:
        return 0.0


def settle(until: float) -> float:
    """Wait until the machine is calm (:func:`machine_busy`) or ``until`` (a
    ``time.monotonic`` instant); the seconds waited."""
    start = time.monotonic()
    while machine_busy() and (left := until - time.monotonic()) > 0:
        time.sleep(min(BACKOFF_POLL_S, left))
    return time.monotonic() - start


class StallBook:
    """The stalls of one run: how often each game stalled, why, which wait to be played
    again (with when they stalled) and which were given up."""

    def __init__(self, say: Callable[[str], None], max_replays: int = MAX_STALL_REPLAYS) -> None:
        self.say = say
        self.max_replays = max_replays
        self.counts: dict[str, int] = {}
        self.first: dict[str, float] = {}  # when each game first stalled (monotonic)
        self.why: list[str] = []
        self.retry: deque[tuple[GameSpec, float]] = deque()
        """The games to play again, each with the instant its wait for calm ends."""
        self.given_up: list[str] = []

    def stalled(self, spec: GameSpec, detail: str) -> bool:
        """Note a stalled game (``detail``: why): to be played again once the machine is
        calm or its back-off (:func:`backoff_s`) is over (False), or given up (True: it
        stalled more than ``max_replays`` times, by default :data:`MAX_STALL_REPLAYS`, and
        has been stalling for :data:`GIVE_UP_AFTER_S`; it counts as done for the
        progress)."""
        now = time.monotonic()
        count = self.counts[spec.key] = self.counts.get(spec.key, 0) + 1
        first = self.first.setdefault(spec.key, now)
        self.why.append(f"{spec.key}: {detail}")
        if self.max_replays and (count <= self.max_replays or now - first < GIVE_UP_AFTER_S):
            self.retry.append((spec, now + backoff_s(count)))
            return False
        self.given_up.append(f"game {spec.key}: {detail}")
        if self.max_replays == 0:
            return True  # never played again: the caller says so in its own words
        self.say(
            f"game {spec.key} given up: it stalled {count} times in {(now - first) / 60:.0f}"
            f" min (the machine kept a bot waiting: {detail}); not stored: run the same"
            " command again to play it, on a quieter machine, with fewer games at once, or"
            " with `clock: cpu`"
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
                f"arena: {abandoned} game(s) given up, not stored: each stalled more than "
                f"{MAX_STALL_REPLAYS + 1} times in {GIVE_UP_AFTER_S / 60:.0f} min (a turn over "
                "its budget only because the machine kept a bot waiting), so the leaderboard "
                "lacks them; run the same "
                "command again to play them (on a quieter machine, with fewer games at once, "
                "or with `clock: cpu`)"
            )


def with_retries(
    specs: Iterator[GameSpec],
    retry: deque[tuple[GameSpec, float]],
    say: Callable[[str], None] | None = None,
) -> Iterator[GameSpec]:
    """The games of ``specs``, each game waiting in ``retry`` (a stall to play again, with
    the instant its back-off ends) first, once the machine is calm or its back-off is over
    (:func:`settle`); meanwhile the other games go on. When only replays are left and the
    machine is busy, ``say`` is told what the run waits for
    (``arena: machine busy (load 19): waiting to replay 4 games ...``), once per count."""
    told: set[int] = set()

    def ready() -> Iterator[GameSpec]:
        while retry:
            spec, until = retry[0]
            if machine_busy() and time.monotonic() < until:
                return
            retry.popleft()
            yield spec

    for spec in specs:
        yield from ready()
        yield spec
    while retry:
        spec, until = retry.popleft()
        waiting = len(retry) + 1
        if say is not None and waiting not in told and machine_busy():
            told.add(waiting)
            most = max(0.0, until - time.monotonic())
            games = "game" if waiting == 1 else "games"
            say(
                f"arena: machine busy (load {load():.0f}): waiting to replay {waiting} {games}"
                f" (the next within {most:.0f} s; see docs/fair-time.md)"
            )
        settle(until)
        yield spec
