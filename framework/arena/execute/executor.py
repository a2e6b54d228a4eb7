"""The one interface every executor offers: play these games, report each as it ends.

The tournament's run (and ``arena match``) hands an executor a lazy stream of scheduled
games, a way to turn one into a :class:`~arena.execute.jobs.Job`, and a callback; the
executor decides where the games are played. :class:`LocalExecutor` plays them in worker
processes on this machine (:mod:`arena.execute.pool`); ``DaskExecutor``
(:mod:`arena.execute.dask_executor`) on a Dask cluster. Both stop the same way on SIGINT
or SIGTERM (:class:`~arena.execute.stopping.StopSignals`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from arena.execute.jobs import Job, play_games
from arena.execute.pool import Failure
from arena.records import GameSpec

Finished = Callable[[GameSpec, "dict[str, Any] | Failure"], None]
"""Called in the coordinating process as each game ends: its record (a dict) or why it
failed in the referee."""


class Executor(Protocol):
    """Plays scheduled games somewhere and reports each one as it ends."""

    def run(
        self, todo: Iterator[GameSpec], job: Callable[[GameSpec], Job], finished: Finished
    ) -> None:
        """Play every game of ``todo`` (asked for lazily, as there is room), calling
        ``finished`` as each ends; raises :class:`~arena.execute.stopping.Interrupted`
        once a stop signal has stopped everything."""

    def close(self) -> None:
        """Release what the executor holds (workers, connections)."""


@dataclass
class LocalExecutor:
    """Games in worker processes of this machine, ``workers`` at once."""

    workers: int
    start_method: str = "spawn"
    """``fork``: workers are copies of this process, ready at once (``arena match``)."""

    def run(
        self, todo: Iterator[GameSpec], job: Callable[[GameSpec], Job], finished: Finished
    ) -> None:
        """Play them in a :class:`~arena.execute.pool.WorkerPool` (started for this run)."""
        play_games(todo, job, self.workers, finished, self.start_method)

    def close(self) -> None:
        """Nothing outlives :meth:`run`: the pool's workers stop when it returns."""
