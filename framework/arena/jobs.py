"""A scheduled game as a job for a worker process: what it needs, and how it is played.

Kept apart from :mod:`arena.tournament` so that a worker process (of the local pool or a
Dask worker's game process) imports only the referee and the game plugins, not the
scheduling, storage, rating and progress-bar modules of the coordinator: a worker starts
sooner.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.botproc import Sandbox
from arena.game import Game
from arena.plugins import Registry, load_registry
from arena.referee import BotSpec, Clock, Heartbeat, Referee, StepObserver

_REGISTRY: Registry | None = None


def worker_registry() -> Registry:
    """The game registry of this process, loaded on first use."""
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = load_registry()
    return _REGISTRY


@dataclass(frozen=True)
class Job:
    """Everything a worker process needs to play one scheduled game (picklable)."""

    game: str
    seed: int
    settings: dict[str, Any]
    bots: tuple[BotSpec, ...]
    game_dir: str
    sandbox: Sandbox
    observer: Callable[[Game[Any], Sequence[str]], StepObserver] | None = None
    clock: Clock = field(default_factory=Clock)


def play_job(job: Job, heartbeat: Heartbeat | None = None) -> dict[str, Any]:
    """Play one game in this process and return its record as a dict (worker entry point).

    ``job.observer``, a module-level function, builds the step observer in the worker.
    """
    game = worker_registry().create(job.game)
    names = [b.name for b in job.bots]
    observer = job.observer(game, names) if job.observer is not None else None
    referee = Referee(
        game, job.bots, Path(job.game_dir), job.sandbox, observer, heartbeat, job.clock
    )
    return referee.play(job.seed, job.settings).to_dict()
