"""The leaderboard and each bot's rating over time, recomputed only when games were stored.

The leaderboard reads the ratings the store keeps (:mod:`arena.results.kept`): it is
made again whenever the store's version moves on, in milliseconds at any size. Each
bot's rating history needs every stored game rated again in schedule order (about a
minute of CPU on a million games), so it is made again only when it costs at most
:data:`HISTORY_SHARE` of a core: after a history that took S seconds the next waits
S / HISTORY_SHARE; until then a bot's chart ends at the leaderboard's rating now. One
thread computes the next snapshot while pages go on showing the last one (which says
what game count it is of).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from arena.records import StoredGame
from arena.results import rating, ratings
from arena.views.leaderboard import ShownLeaderboard, shown_leaderboard
from arena.web.folder import Folder, Version

FIRST_WAIT_S = 3.0
"""How long a page waits for the first leaderboard before it says it is being computed."""
MAX_POINTS = 300
"""Points per bot in the rating chart (long tournaments are sampled evenly)."""
HISTORY_SHARE = 0.02
"""The share of a core the rating histories may take while games keep being stored."""


@dataclass(frozen=True)
class Point:
    """A bot's TrueSkill rating after one rating event: its mean and its deviation."""

    event: int
    mu: float
    sigma: float


@dataclass
class Snapshot:
    """The leaderboard of one version of the store, and each bot's rating history over
    the ``events`` rating events of the games of ``history_version`` (an older one when
    the history waits for its turn, :data:`HISTORY_SHARE`)."""

    version: Version
    board: ShownLeaderboard | None
    history: dict[str, list[Point]] = field(default_factory=dict)
    events: int = 0
    seconds: float = 0.0
    computing: bool = False  # none made yet: the first is being computed
    history_version: Version = field(default_factory=Version)
    history_cpu_s: float = 0.0

    def history_of(self, bot: str) -> list[Point]:
        """``bot``'s rating over time; when the history is of fewer games than the
        leaderboard, it ends with the leaderboard's TrueSkill rating now (at an event
        counted as one per game stored since)."""
        points = list(self.history.get(bot, []))
        if self.history_version == self.version or self.board is None:
            return points
        stats = next((s for s in self.board.stats if s.name == bot), None)
        rated = None if stats is None else stats.ratings.get("trueskill")
        if rated is None or "mu" not in rated.raw:
            return points
        later = max(1, self.version.games - self.history_version.games)
        return [*points, Point(self.events + later, rated.raw["mu"], rated.raw["sigma"])]


def rating_history(
    bots: Sequence[str], games: Sequence[StoredGame], variant_keys: Sequence[str]
) -> tuple[dict[str, list[Point]], int]:
    """Each bot's TrueSkill mu and sigma after the rating events it took part in, in
    schedule order (sampled to about :data:`MAX_POINTS` each), and the number of events:
    the ratings :func:`arena.results.rating.compute` ends with, step by step (the same
    update loop, :func:`arena.results.ratings.rate_events`)."""
    trueskill = ratings.get("trueskill")
    assert isinstance(trueskill, ratings.IncrementalRating)
    state = trueskill.start()

    def now(bot: str) -> tuple[float, float]:
        raw = trueskill.rated(state, bot).raw
        return raw["mu"], raw["sigma"]

    full: dict[str, list[Point]] = {b: [Point(0, *now(b))] for b in bots}
    events = rating.events(games, variant_keys)
    for event in events:
        for e in event:
            full.setdefault(e.bot, [Point(0, *now(e.bot))])

    def record(i: int, event: Sequence[rating.Entry], _: dict[str, Any]) -> None:
        for e in event:
            full[e.bot].append(Point(i, *now(e.bot)))

    ratings.rate_events(trueskill, events, state, record)
    return {bot: _sample(points) for bot, points in full.items()}, len(events)


def _sample(points: list[Point]) -> list[Point]:
    if len(points) <= MAX_POINTS:
        return points
    step = (len(points) - 1) / (MAX_POINTS - 1)
    return [points[round(i * step)] for i in range(MAX_POINTS)]


def compute(folder: Folder, previous: Snapshot | None = None, history: bool = True) -> Snapshot:
    """The snapshot of the store as it is now (in this thread): its leaderboard, and its
    rating histories when ``history`` (else those of ``previous``)."""
    started = time.perf_counter()
    store = folder.store()
    if store is None:
        return Snapshot(Version(), None)
    version = folder.version()
    board = shown_leaderboard(store)
    if not history and previous is not None and previous.board is not None:
        return Snapshot(
            version,
            board,
            previous.history,
            previous.events,
            time.perf_counter() - started,
            history_version=previous.history_version,
            history_cpu_s=previous.history_cpu_s,
        )
    cpu = time.thread_time()
    meta = store.meta()
    histories, events = rating_history(
        list(meta.get("bots", [])), store.games(), list(meta.get("variant_keys", []))
    )
    return Snapshot(
        version,
        board,
        histories,
        events,
        time.perf_counter() - started,
        history_version=version,
        history_cpu_s=time.thread_time() - cpu,
    )


class Snapshots:
    """The latest snapshot of a folder, brought up to date by one thread at a time."""

    def __init__(self, folder: Folder) -> None:
        self.folder = folder
        self._latest: Snapshot | None = None
        self._lock = threading.Lock()
        self._busy: threading.Thread | None = None
        self._history_at = 0.0  # when the latest rating histories were made

    def get(self, version: Version) -> Snapshot:
        """The snapshot of ``version`` if made, else the latest one while the next is
        computed in the background; before the first one, a wait of at most
        :data:`FIRST_WAIT_S`, then an empty snapshot (``computing``)."""
        with self._lock:
            latest = self._latest
            if (
                latest is not None
                and latest.version == version
                and (latest.history_version == version or not self._history_due())
            ):
                return latest
            if self._busy is None or not self._busy.is_alive():
                self._busy = threading.Thread(target=self._refresh, daemon=True)
                self._busy.start()
            busy = self._busy
        if latest is None:
            busy.join(FIRST_WAIT_S)
            with self._lock:
                return self._latest or Snapshot(Version(), None, computing=True)
        return latest

    def _history_due(self) -> bool:
        """Whether the rating histories may be computed again (:data:`HISTORY_SHARE`)."""
        latest = self._latest
        if latest is None or latest.board is None:
            return True
        return time.monotonic() >= self._history_at + latest.history_cpu_s / HISTORY_SHARE

    def _refresh(self) -> None:
        with self._lock:
            previous, due = self._latest, self._history_due()
        try:
            snapshot = compute(self.folder, previous, due)
        except Exception:  # a store changing underneath: the next poll tries again
            return
        with self._lock:
            if snapshot.history_version == snapshot.version:
                self._history_at = time.monotonic()
            self._latest = snapshot
