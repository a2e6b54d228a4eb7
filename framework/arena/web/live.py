"""Live pages: one background task polls the folder and wakes every event stream.

Every :data:`POLL_S` the watcher reads the store's version (highest game id, games
count) and the status and control files, in a worker thread; when any changed it sends
the news to every subscriber at once (each waits on the same :class:`asyncio.Event`, so a
thousand idle streams cost a thousand sleeping coroutines and one poll). A stream that
the browser closes is cancelled by the server and simply stops waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from arena.web.folder import Folder, RunState, Version

POLL_S = 0.25
KEEPALIVE_S = 15.0
"""A comment line on an idle stream this often, so proxies and browsers keep it open."""


@dataclass(frozen=True)
class News:
    """What the pages are told: the store's version and the run's state."""

    seq: int
    version: Version
    run: RunState

    def event(self) -> str:
        """The server-sent event."""
        data = {"seq": self.seq, "last_id": self.version.last_id, **self.run.to_dict()}
        data["games_stored"] = self.version.games
        return f"event: update\ndata: {json.dumps(data)}\n\n"


class Watcher:
    """The one poller of a folder and the fan-out to its event streams."""

    def __init__(self, folder: Folder, child_state: Callable[[], str | None]) -> None:
        self.folder = folder
        self.child_state = child_state
        self.news = News(0, Version(), RunState("unknown", 0, None, None))
        self._changed = asyncio.Event()
        self._seen: tuple[Version, str, str | None] | None = None
        self._task: asyncio.Task[None] | None = None
        self.closing = False
        self.streams = 0

    def _look(self) -> tuple[Version, str, str | None]:
        try:
            version = self.folder.version()
        except Exception:  # a database being created or replaced: look again soon
            version = self.news.version
        return version, self.folder.status_text(), self.child_state()

    async def poll_once(self) -> None:
        """Look at the folder once; wake the streams when something changed."""
        seen = await asyncio.to_thread(self._look)
        if seen == self._seen:
            return
        self._seen = seen
        version, _, alive = seen
        run = await asyncio.to_thread(self.folder.run_state, version.games, alive)
        self.news = News(self.news.seq + 1, version, run)
        woken, self._changed = self._changed, asyncio.Event()
        woken.set()

    async def run(self) -> None:
        """Poll until closed."""
        while not self.closing:
            with contextlib.suppress(Exception):
                await self.poll_once()
            await asyncio.sleep(POLL_S)

    def start(self) -> None:
        """Start polling in the running event loop."""
        self._task = asyncio.get_running_loop().create_task(self.run())

    def end_streams(self) -> None:
        """End every event stream (the server is stopping: it waits for open requests)."""
        self.closing = True
        woken, self._changed = self._changed, asyncio.Event()
        woken.set()

    async def stop(self) -> None:
        """Stop polling and end every stream."""
        self.end_streams()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def stream(self) -> AsyncIterator[str]:
        """The event stream of one page: the news now, then each change."""
        self.streams += 1
        try:
            yield "retry: 1000\n\n" + self.news.event()
            sent = self.news.seq
            while not self.closing:
                changed = self._changed
                if self.news.seq == sent:
                    try:
                        await asyncio.wait_for(changed.wait(), KEEPALIVE_S)
                    except TimeoutError:
                        yield ": keepalive\n\n"
                        continue
                if self.closing:
                    return
                sent = self.news.seq
                yield self.news.event()
        finally:
            self.streams -= 1

    def state(self) -> dict[str, Any]:
        """The news as JSON (``/api/status``)."""
        return json.loads(self.news.event().split("data: ", 1)[1])
