"""``OUTPUT/status.json``: where a run is, for whoever looks from outside (``arena serve``,
a script, a person with ``cat``).

:class:`StatusWriter` is the observer every run uses (``arena run``, ``arena match
--output``, :func:`arena.run`). It writes the file at the start, after a game ends (at most
every :data:`MIN_INTERVAL_S`), and at the end, each time whole (a temporary file renamed
over it), so a reader never sees half a file::

    {"state": "running", "games_done": 12, "games_total": 40, "stalls_replayed": 0,
     "given_up": 0, "failed": 0, "eta_s": 31.5, "pid": 4242,
     "started": "2026-12-02T04:50:00+00:00", "updated": "2026-12-02T04:50:14+00:00",
     "waiting_for_cores": null}

``waiting_for_cores`` says what the next game waits for while other arena runs hold the
machine's cores (``waiting for a core: 2 games of another arena run are using them ...``),
else null.

A contest with leagues adds ``"leagues": {bot: league}`` (each bot's league by name).

:func:`read_status` reads it back; a ``running`` file whose process is gone (killed, the
machine restarted) reads as ``stopped``.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from arena.events import (
    CoresWaiting,
    GameFailed,
    GameGivenUp,
    GameStalled,
    GameStored,
    RunFinished,
    RunObserver,
    RunStarted,
)

STATUS_NAME = "status.json"
MIN_INTERVAL_S = 0.5
"""Seconds at least between two writes while games end (the start and the end are
always written)."""
KEYS = (
    "state",
    "games_done",
    "games_total",
    "stalls_replayed",
    "given_up",
    "failed",
    "eta_s",
    "pid",
    "started",
    "updated",
    "waiting_for_cores",
)
"""The file's keys, in order: ``arena serve`` reads exactly these."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class StatusWriter(RunObserver):
    """Keeps ``output/status.json`` up to date as the run goes."""

    def __init__(
        self, output: Path, leagues: Callable[[], dict[str, str] | None] | None = None
    ) -> None:
        self.path = Path(output) / STATUS_NAME
        self.leagues = leagues  # each bot's league now (a contest's), when it has some
        self.state = "running"
        self.done = 0
        self.total: int | None = None
        self.replayed = 0
        self.given = 0
        self.failures = 0
        self.started_at = _now()
        self.first_done = 0  # games already done when the run began (resumed)
        self.clock_start = time.monotonic()
        self.last_write = float("-inf")
        self.cores_wait: str | None = None

    def status(self) -> dict[str, Any]:
        """The file's content now."""
        leagues = self.leagues() if self.leagues is not None else None
        return {
            "state": self.state,
            "games_done": self.done,
            "games_total": self.total,
            "stalls_replayed": self.replayed,
            "given_up": self.given,
            "failed": self.failures,
            "eta_s": self._eta(),
            "pid": os.getpid(),
            "started": self.started_at,
            "updated": _now(),
            "waiting_for_cores": self.cores_wait,
            **({"leagues": leagues} if leagues is not None else {}),
        }

    def _eta(self) -> float | None:
        """Seconds left at this run's pace so far; None before its first game, for an
        open-ended run, and once it is over."""
        now_done = self.done - self.first_done
        if self.state != "running" or self.total is None or now_done <= 0:
            return None
        per_game = (time.monotonic() - self.clock_start) / now_done
        return round(max(self.total - self.done, 0) * per_game, 1)

    def write(self) -> None:
        """Write the file whole: a temporary file beside it, renamed over it. A write that
        fails (a full disk) is skipped: the file says less, the run says why it stopped."""
        tmp = self.path.with_name(f".{STATUS_NAME}.{os.getpid()}.tmp")
        try:
            tmp.write_text(json.dumps(self.status()) + "\n", encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError:
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
        self.last_write = time.monotonic()

    def _game_ended(self, done: int, total: int | None) -> None:
        self.done, self.total = done, total
        if time.monotonic() - self.last_write >= MIN_INTERVAL_S:
            self.write()

    def started(self, event: RunStarted) -> None:
        """The run began: the first write."""
        self.done = self.first_done = event.stored
        self.total = event.total
        self.clock_start = time.monotonic()
        self.write()

    def stored(self, event: GameStored) -> None:
        """A game was stored."""
        self._game_ended(event.done, event.total)

    def stalled(self, event: GameStalled) -> None:
        """A game stalled (played again)."""
        self.replayed = event.replayed
        if time.monotonic() - self.last_write >= MIN_INTERVAL_S:
            self.write()

    def given_up(self, event: GameGivenUp) -> None:
        """A game was given up."""
        self.given += 1
        self._game_ended(event.done, event.total)

    def failed(self, event: GameFailed) -> None:
        """A game failed in the referee."""
        self.failures += 1
        self._game_ended(event.done, event.total)

    def waiting(self, event: CoresWaiting) -> None:
        """A game waits for cores (or no longer does): written at once."""
        self.cores_wait = event.message
        self.write()

    def finished(self, event: RunFinished) -> None:
        """The run ended: the last write, with its state."""
        self.state = event.state
        self.cores_wait = None
        self.done, self.total = event.done, event.total
        self.write()


def read_status(output: Path) -> dict[str, Any] | None:
    """``output``'s status file as a dict (:data:`KEYS`), or None when there is none or it
    cannot be read. A ``running`` status whose process is gone reads as ``stopped``."""
    try:
        data = json.loads((Path(output) / STATUS_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    if data.get("state") == "running" and not _alive(data.get("pid")):
        data["state"] = "stopped"
        data["eta_s"] = None
    return data


def _alive(pid: Any) -> bool:
    """Whether a process ``pid`` runs on this machine (one we may not signal counts)."""
    if isinstance(pid, bool) or not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
