"""A scheduled game as a job for a worker process: what it needs, and how it is played.

Kept apart from :mod:`arena.tournament.run` so that a worker process (of the local pool or a
Dask worker's game process) imports only the referee and the game plugins, not the
scheduling, storage, rating and progress-bar modules of the coordinator: a worker starts
sooner. ``arena match`` plays its games with this module alone, for the same reason: it
starts fast.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.botproc import (
    Sandbox,
    SandboxUnavailable,
    auto_warning,
    bot_homes,
    cpu_warning,
    describe,
    remove_leftovers,
    resolve_sandbox,
    waits_note,
)
from arena.botproc.sandboxes.base import DEFAULT_DISK_MB
from arena.errors import ConfigError
from arena.execute.cores import CoreGate
from arena.execute.pool import Failure, WorkerPool
from arena.game import Game
from arena.plugins.registry import Registry, load_registry
from arena.records import BotSpec, Clock
from arena.referee.engine import Heartbeat, Referee, StepObserver

if TYPE_CHECKING:
    from arena.records import GameSpec

_REGISTRY: Registry | None = None


def worker_registry(loaded: Registry | None = None) -> Registry:
    """The game registry of this process, loaded on first use (or ``loaded``, one the
    caller loaded: its workers, forked, then load none)."""
    global _REGISTRY
    if loaded is not None:
        _REGISTRY = loaded
    if _REGISTRY is None:
        _REGISTRY = load_registry()
    return _REGISTRY


@dataclass(frozen=True)
class Job:
    """Everything a worker process needs to play one scheduled game (picklable).

    ``replay``: record the game's replay (``replay.json``; False when it would not be kept).
    """

    game: str
    seed: int
    settings: dict[str, Any]
    bots: tuple[BotSpec, ...]
    game_dir: str
    sandbox: Sandbox
    observer: Callable[[Game[Any], Sequence[str]], StepObserver] | None = None
    clock: Clock = field(default_factory=Clock)
    replay: bool = True


def play_job(
    job: Job, heartbeat: Heartbeat | None = None, game: Game[Any] | None = None
) -> dict[str, Any]:
    """Play one game in this process and return its record as a dict (worker entry point).

    ``job.observer``, a module-level function, builds the step observer in the worker.
    ``game`` plays it instead of the registry's ``job.game`` (:func:`arena.play` may be
    given a class no plugin registers).
    """
    if game is None:
        game = worker_registry().create(job.game)
    names = [b.name for b in job.bots]
    observer = job.observer(game, names) if job.observer is not None else None
    referee = Referee(
        game,
        job.bots,
        Path(job.game_dir),
        job.sandbox,
        observer,
        heartbeat,
        job.clock,
        job.replay,
    )
    return referee.play(job.seed, job.settings).to_dict()


def choose_sandbox(
    kind: str,
    memory_mb: int | None,
    hide: Sequence[Path],
    max_processes: int | None,
    where: str = "--sandbox",
    disk_mb: int = DEFAULT_DISK_MB,
) -> Sandbox:
    """The sandbox to run bots in, checked with the other input, before any game.

    ``sandbox: bwrap`` where bubblewrap does not work is a :class:`ConfigError` naming
    ``where`` (the file, key and line, or the option).
    """
    try:
        sandbox = resolve_sandbox(kind, memory_mb, hide, max_processes, disk_mb)
    except SandboxUnavailable as exc:
        raise ConfigError(f"{where}: {exc}") from None
    try:
        bot_homes()
    except (RuntimeError, OSError) as exc:
        raise ConfigError(f"bot directories: {exc}") from None
    return sandbox


def announce_sandbox(requested: str, sandbox: Sandbox, say: Callable[[str], None]) -> None:
    """Just before the first game: say which sandbox is in use (``auto`` without bubblewrap
    warns once that bots are not isolated), and remove what a killed run left behind."""
    if warning := auto_warning(requested, sandbox):
        say(f"arena: {warning}")
    if warning := cpu_warning():
        say(f"arena: {warning}")
    if note := waits_note():
        say(f"arena: {note}")
    say(f"arena: sandbox {describe(sandbox)}")
    remove_leftovers()


def play_games(
    todo: Iterable[GameSpec],
    job: Callable[[GameSpec], Job],
    workers: int,
    finished: Callable[[GameSpec, dict[str, Any] | Failure], None],
    start_method: str = "spawn",
    gate: CoreGate | None = None,
) -> None:
    """Play the games of ``todo``, ``workers`` at once, calling ``finished(spec, record or
    Failure)`` in this process as each one ends.

    Every game is played in a worker process (:mod:`arena.execute.pool`), even one at a time:
    a bot that kills or stops its parent costs that game, never the run. ``start_method``:
    how workers start (see :class:`~arena.execute.pool.WorkerPool`); ``gate``: where each
    game takes its cores first (:mod:`arena.execute.cores`). Raises
    :class:`~arena.execute.stopping.Interrupted` once SIGINT or SIGTERM has stopped everything.
    """
    pool: WorkerPool[GameSpec] = WorkerPool(max(1, workers), play_job, start_method, gate)
    pool.run(((spec, job(spec)) for spec in todo), finished)
