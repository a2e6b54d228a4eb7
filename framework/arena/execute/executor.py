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

from arena.execute.cores import CoreGate, CoreNotice
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
    """Games in worker processes of this machine, ``workers`` at once, each once its
    ``thinking`` bots have a core each from the machine's ledger (:mod:`arena.cores`)."""

    workers: int
    start_method: str = "spawn"
    """``fork``: workers are copies of this process, ready at once (``arena match``)."""
    thinking: int = 1
    notice: CoreNotice | None = None
    """Told when a game waits for cores, and when the wait is over."""
    say: Callable[[str], None] | None = None
    """Where the ledger's warnings go (a planted lock file, an unusable folder)."""
    oversubscribed: int = 0
    """Games started without all their cores (a concurrency above the fair one)."""

    def run(
        self, todo: Iterator[GameSpec], job: Callable[[GameSpec], Job], finished: Finished
    ) -> None:
        """Play them in a :class:`~arena.execute.pool.WorkerPool` (started for this run)."""
        gate = CoreGate.open(max(1, self.workers), self.thinking, self.notice, self.say)
        try:
            play_games(todo, job, self.workers, finished, self.start_method, gate)
        finally:
            self.oversubscribed += gate.oversubscribed
            gate.close()

    def close(self) -> None:
        """Nothing outlives :meth:`run`: the pool's workers stop when it returns."""
