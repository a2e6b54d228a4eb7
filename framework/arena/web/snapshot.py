"""The leaderboard and each bot's rating over time, recomputed only when games were stored.

Ratings are computed from every stored game (:func:`leaderboard_from_store`), which takes
seconds on a million games; pages must not wait for that while a run adds games. So the
latest snapshot is kept, and when the store's version moves on one thread computes the
next while pages go on showing the last one (it says which game count it is of).
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


@dataclass(frozen=True)
class Point:
    """A bot's TrueSkill rating after one rating event: its mean and its deviation."""

    event: int
    mu: float
    sigma: float


@dataclass
class Snapshot:
    """The leaderboard of one version of the store, each bot's rating history with it."""

    version: Version
    board: ShownLeaderboard | None
    history: dict[str, list[Point]] = field(default_factory=dict)
    events: int = 0
    seconds: float = 0.0
    computing: bool = False  # none made yet: the first is being computed


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


def compute(folder: Folder) -> Snapshot:
    """The snapshot of the store as it is now (in this thread)."""
    started = time.perf_counter()
    store = folder.store()
    if store is None:
        return Snapshot(Version(), None)
    version = folder.version()
    board = shown_leaderboard(store)
    meta = store.meta()
    history, events = rating_history(
        list(meta.get("bots", [])), store.games(), list(meta.get("variant_keys", []))
    )
    return Snapshot(version, board, history, events, time.perf_counter() - started)


class Snapshots:
    """The latest snapshot of a folder, brought up to date by one thread at a time."""

    def __init__(self, folder: Folder) -> None:
        self.folder = folder
        self._latest: Snapshot | None = None
        self._lock = threading.Lock()
        self._busy: threading.Thread | None = None

    def get(self, version: Version) -> Snapshot:
        """The snapshot of ``version`` if made, else the latest one while the next is
        computed in the background; before the first one, a wait of at most
        :data:`FIRST_WAIT_S`, then an empty snapshot (``computing``)."""
        with self._lock:
            latest = self._latest
            if latest is not None and latest.version == version:
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

    def _refresh(self) -> None:
        try:
            snapshot = compute(self.folder)
        except Exception:  # a store changing underneath: the next poll tries again
            return
        with self._lock:
            self._latest = snapshot
