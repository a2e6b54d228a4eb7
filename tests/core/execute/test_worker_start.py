"""Worker processes: started without the caller's main module; a worker that dies as it
starts is arena's failure, never blamed on a bot."""

from __future__ import annotations

import sys
import types
from typing import Any

import pytest

from arena.execute.pool import START_FAILURES, Failure, WorkerPool, WorkerStartError


def _unimportable_play() -> Any:
    """A play function whose module exists only in this process: a worker cannot load it."""
    ghost = types.ModuleType("arena_ghost_module")

    def play(job: Any, heartbeat: Any) -> Any:
        return job

    play.__module__ = "arena_ghost_module"
    play.__qualname__ = "play"
    ghost.play = play  # type: ignore[attr-defined]
    sys.modules["arena_ghost_module"] = ghost
    return play


def test_workers_that_die_as_they_start_stop_the_games_and_blame_arena(capfd):
    pool: WorkerPool[int] = WorkerPool(1, _unimportable_play())
    results: dict[int, Any] = {}
    with pytest.raises(WorkerStartError):
        pool.run(((i, i) for i in range(10)), results.__setitem__)
    assert len(results) == START_FAILURES  # then no more games are tried
    for failure in results.values():
        assert isinstance(failure, Failure)
        assert "as it started, before any bot ran (an arena failure" in failure.reason
        assert "bot may" not in failure.reason
    capfd.readouterr()


def test_a_worker_plays_without_running_the_main_module_again(tmp_path):
    # The main module here is pytest's; a worker that ran it again would never answer.
    pool: WorkerPool[int] = WorkerPool(2, _echo)
    results: dict[int, Any] = {}
    pool.run(((i, i * 10) for i in range(4)), results.__setitem__)
    assert results == {0: 0, 1: 10, 2: 20, 3: 30}


def _echo(job: Any, heartbeat: Any) -> Any:
    return job
