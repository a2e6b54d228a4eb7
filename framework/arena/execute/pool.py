"""Worker processes that play games, one game each at a time, so that no bot can take arena down.

The main process of ``arena run`` and ``arena match`` never starts a bot: each game is
played in a worker process (``spawn``: a clean interpreter, single-threaded, so bots can be
started with a ``preexec_fn``). The main process hands a worker one game at a time and:

* a worker that dies (a bot killed its parent) costs only its game: it is reported as a
  referee failure with the reason, the worker is replaced, the games go on;
* a watchdog abandons a game that runs past the longest it could legitimately take: the
  referee announces every step with the seconds its clocks allow (a heartbeat written to
  a shared page, no system call), and a worker silent for that long plus
  :data:`WATCHDOG_GRACE_S` (a bot stopped it with SIGSTOP, a game's rules loop) is killed;
* a game starts only once the machine's core ledger gave its thinking bots a core each
  (:class:`~arena.execute.cores.CoreGate`): the worker is told which, to pin its bots to
  them, and the cores are given back as the game ends, however it ends;
* SIGINT and SIGTERM stop everything the same way: no game starts after the signal,
  running games end (their workers kill every bot and exit), and a second signal kills
  the workers outright; :class:`Interrupted` then tells the caller which signal it was.

A worker is started without the caller's main module: ``spawn`` would otherwise run the
script that called arena again in every worker (a script without an ``if __name__ ==
"__main__":`` guard, or one read from standard input, then fails every game). A worker
that dies before it says it is ready never ran a bot: that is arena's failure, and
:data:`START_FAILURES` of them in a row stop the games with :class:`WorkerStartError`.

Both the main process and the workers are child subreapers: whatever a bot leaves behind
comes back to one of them and is killed.
"""

from __future__ import annotations

import contextlib
import math
import mmap
import multiprocessing
import os
import signal
import struct
import sys
import tempfile
import threading
import time
import types
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from types import FrameType
from typing import Any, Generic, TypeVar

from arena.botproc import remove_leftovers
from arena.botproc.homes import bot_homes, remove_tree
from arena.botproc.launcher import PR_SET_PDEATHSIG, become_subreaper, prctl
from arena.botproc.procinfo import owner_tag
from arena.botproc.seatdisk import allow_private_mounts
from arena.botproc.spawn import kill_every_bot, sweep_orphans
from arena.cores import Claim, playing_on
from arena.errors import ArenaError
from arena.execute.cores import POLL_S, CoreGate
from arena.execute.stopping import Interrupted, StopSignals

WATCHDOG_GRACE_S = 10.0
"""Seconds a game may run past its current step's clocks before the watchdog abandons it."""
STOP_GRACE_S = 5.0
"""Seconds workers get, after SIGINT or SIGTERM, to kill their bots and exit."""
START_FAILURES = 3
"""Workers in a row that die before they are ready (no bot started) before the games stop."""

K = TypeVar("K")
Heartbeat = Callable[[float], None]
PlayFunction = Callable[[Any, Heartbeat], Any]


@dataclass(frozen=True)
class Failure:
    """A game the referee could not finish, and why."""

    reason: str


class WorkerStartError(ArenaError):
    """Worker processes die as they start, before any bot runs: arena cannot play here."""


class _WorkerStop(BaseException):
    """Raised in a worker by SIGTERM: end the game now (bots are killed on the way out)."""


_CLOCK = struct.Struct("d")


def _worker_main(conn: Connection, clock_path: str, play: PlayFunction, parent: int) -> None:
    """A worker's life: play the games it is sent until told to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to handle

    def stop(signum: int, frame: FrameType | None) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise _WorkerStop()

    signal.signal(signal.SIGTERM, stop)
    with contextlib.suppress(OSError):
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM)  # the main process died: stop too
    if os.getppid() != parent:
        return
    become_subreaper()
    allow_private_mounts()  # per-turn bots' directories may get a tmpfs of their own
    with open(clock_path, "r+b") as f:
        clock = mmap.mmap(f.fileno(), _CLOCK.size)
    conn.send(("ready", None))  # from here on, a death may be a bot's doing

    def heartbeat(seconds: float) -> None:
        _CLOCK.pack_into(clock, 0, time.monotonic() + seconds + WATCHDOG_GRACE_S)

    try:
        while True:
            try:
                item = conn.recv()
            except (EOFError, OSError):
                break
            if item is None:
                break
            job, cores = item  # the cores the ledger gave the game (None: no ledger)
            heartbeat(0.0)
            try:
                with playing_on(cores):
                    result: tuple[str, Any] = ("done", play(job, heartbeat))
            except Exception as exc:  # a referee or plugin bug: this game only
                result = ("failed", f"{type(exc).__name__}: {exc}")
            _CLOCK.pack_into(clock, 0, math.inf)
            conn.send(result)
    except _WorkerStop:
        pass
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        kill_every_bot()
        remove_leftovers(mine=True)


@dataclass
class _Worker(Generic[K]):
    proc: multiprocessing.process.BaseProcess
    conn: Connection
    clock: mmap.mmap
    clock_path: Path
    key: K | None = None
    busy: bool = False
    ready: bool = False
    claim: Claim | None = None  # the cores its game holds

    def give_back(self) -> None:
        """Release the cores of its game (idempotent)."""
        if self.claim is not None:
            self.claim.release()
            self.claim = None

    def deadline(self) -> float:
        return float(_CLOCK.unpack_from(self.clock, 0)[0])


@dataclass
class WorkerPool(Generic[K]):
    """``size`` worker processes playing jobs with ``play(job, heartbeat)``.

    ``play`` must be a module-level function (it is sent to the workers by name).
    """

    size: int
    play: PlayFunction
    start_method: str = "spawn"
    """How workers start: ``spawn`` (a clean interpreter) or ``fork`` (a copy of this
    process: no interpreter to start, no module to import again; only from a process
    with a single thread, see :func:`fork_safe`)."""
    gate: CoreGate | None = None
    """Where each game takes its cores before it starts (None: it takes none)."""
    workers: list[_Worker[K]] = field(default_factory=list)
    _stop: StopSignals = field(default_factory=StopSignals)
    _dir: Path | None = None
    _start_failures: int = 0

    def run(self, jobs: Iterable[tuple[K, Any]], done: Callable[[K, Any], None]) -> None:
        """Play every ``(key, job)``; ``done(key, result or Failure)`` as each game ends.

        Raises :class:`Interrupted` after stopping everything on SIGINT or SIGTERM.
        """
        become_subreaper()
        self._dir = Path(tempfile.mkdtemp(prefix=f"pool-{owner_tag()}-", dir=bot_homes()))
        with self._stop:
            try:
                self._loop(iter(jobs), done)
            except (Interrupted, WorkerStartError):
                self._stop_all()
                raise
            finally:
                self._close()
        self._stop.check()

    # -- the main loop ----------------------------------------------------------------

    def _loop(self, jobs: Any, done: Callable[[K, Any], None]) -> None:
        exhausted = False
        pending: tuple[K, Any] | None = None  # the next game, waiting for its cores
        while True:
            self._stop.check()
            while not exhausted and len([w for w in self.workers if w.busy]) < self.size:
                item = pending if pending is not None else next(jobs, None)
                if item is None:
                    exhausted = True
                    break
                claim = self.gate.take() if self.gate is not None else None
                if self.gate is not None and claim is None:
                    pending = item  # the ledger has not the cores yet: try again soon
                    break
                pending = None
                key, job = item
                self._assign(key, job, claim)
            busy = [w for w in self.workers if w.busy]
            if not busy and pending is None:
                return
            now = time.monotonic()
            timeout = min([1.0] + [max(0.0, w.deadline() - now) for w in busy])
            if pending is not None:
                timeout = min(timeout, POLL_S)
            with self._stop.waiting():
                ready = wait([w.conn for w in busy] + [w.proc.sentinel for w in busy], timeout)
            for w in busy:
                self._check(w, ready, done)

    def _assign(self, key: K, job: Any, claim: Claim | None = None) -> None:
        worker = next((w for w in self.workers if not w.busy), None) or self._start()
        item = (job, list(claim.cores) if claim is not None and claim.cores else None)
        try:
            worker.conn.send(item)
        except OSError:  # it died while idle: a new one takes the game
            self._replace(worker)
            worker = self._start()
            worker.conn.send(item)
        _CLOCK.pack_into(worker.clock, 0, time.monotonic() + WATCHDOG_GRACE_S)
        worker.key, worker.busy, worker.claim = key, True, claim

    def _check(self, w: _Worker[K], ready: list[Any], done: Callable[[K, Any], None]) -> None:
        assert w.key is not None
        if w.conn in ready:
            try:
                kind, payload = w.conn.recv()
            except (EOFError, OSError):
                kind, payload = "died", None
            if kind == "ready":
                w.ready = True
                self._start_failures = 0
                return
            if kind != "died":
                w.busy = False
                w.give_back()  # before the next game is asked for
                done(w.key, payload if kind == "done" else Failure(str(payload)))
                return
        if w.conn in ready or w.proc.sentinel in ready:
            w.proc.join(1.0)
            why = _death(w.proc.exitcode)
            self._replace(w)
            if not w.ready:  # no bot had started: arena's failure, not a bot's
                self._start_failures += 1
                message = (
                    f"a worker process {why} as it started, before any bot ran (an arena "
                    "failure; its error, if any, is on standard error)"
                )
                done(w.key, Failure(message))
                if self._start_failures >= START_FAILURES:
                    raise WorkerStartError(f"{START_FAILURES} in a row: {message}")
                return
            done(
                w.key, Failure(f"the worker process {why} during the game (a bot may have done it)")
            )
        elif time.monotonic() > w.deadline():
            self._replace(w, kill=True)
            done(
                w.key,
                Failure(
                    "abandoned by the watchdog: the game ran over its step's clocks by "
                    f"{WATCHDOG_GRACE_S:.0f} s (a bot may have stopped the worker)"
                ),
            )

    # -- workers ----------------------------------------------------------------------

    def _start(self) -> _Worker[K]:
        assert self._dir is not None
        ctx: Any = multiprocessing.get_context(self.start_method)
        if self.start_method == "fork":
            # What this process buffered would be written again by the copy as it ends.
            for stream in (sys.stdout, sys.stderr):
                with contextlib.suppress(OSError, ValueError, AttributeError):
                    stream.flush()
        clock_path = self._dir / f"clock-{len(self.workers)}-{time.monotonic_ns()}"
        clock_path.write_bytes(_CLOCK.pack(math.inf))
        with open(clock_path, "r+b") as f:
            clock = mmap.mmap(f.fileno(), _CLOCK.size)
        ours, theirs = ctx.Pipe()
        proc = ctx.Process(
            target=_worker_main,
            args=(theirs, str(clock_path), self.play, os.getpid()),
            daemon=True,
            name="arena-worker",
        )
        with _without_main():
            proc.start()
        theirs.close()
        worker: _Worker[K] = _Worker(proc, ours, clock, clock_path)
        self.workers.append(worker)
        return worker

    def _replace(self, w: _Worker[K], kill: bool = False) -> None:
        """Drop a dead or hung worker and what it left (its bots, folders, cgroups)."""
        if kill and w.proc.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(w.proc.pid, signal.SIGKILL)  # works on a stopped process too
        w.proc.join()
        self.workers.remove(w)
        self._release(w)
        sweep_orphans()  # its bots' orphans came back to this process
        remove_leftovers()  # its bot folders and cgroups: their owner is gone

    def _release(self, w: _Worker[K]) -> None:
        w.give_back()
        with contextlib.suppress(OSError):
            w.conn.close()
        with contextlib.suppress(BufferError, ValueError):
            w.clock.close()
        with contextlib.suppress(OSError):
            w.clock_path.unlink()

    def _stop_all(self) -> None:
        """After a signal: SIGTERM every worker, give them a moment, then SIGKILL."""
        for w in self.workers:
            if w.proc.pid is not None and w.proc.exitcode is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(w.proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_GRACE_S
        try:
            while (alive := [w for w in self.workers if w.proc.exitcode is None]) and (
                remaining := deadline - time.monotonic()
            ) > 0:
                # The first signal is in already: only a second one cuts this wait short.
                with self._stop.waiting(check=False):
                    wait([w.proc.sentinel for w in alive], remaining)
        except Interrupted:
            pass  # a second signal: no more waiting
        for w in self.workers:
            if w.proc.pid is not None and w.proc.exitcode is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(w.proc.pid, signal.SIGKILL)
            w.proc.join()

    def _close(self) -> None:
        for w in self.workers:
            if w.proc.exitcode is None:
                with contextlib.suppress(OSError):
                    w.conn.send(None)
        for w in self.workers:
            w.proc.join(STOP_GRACE_S)
            if w.proc.exitcode is None and w.proc.pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(w.proc.pid, signal.SIGKILL)
                w.proc.join()
            self._release(w)
        self.workers = []
        sweep_orphans()
        remove_leftovers()
        if self._dir is not None:
            remove_tree(self._dir)


def fork_safe() -> bool:
    """Whether a worker may be a ``fork`` of this process: it runs one thread (a fork of a
    process with others may copy a lock one of them held) on a system that forks."""
    return threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods()


@contextlib.contextmanager
def _without_main() -> Iterator[None]:
    """Hide the caller's ``__main__`` while a worker starts, so that ``spawn`` does not
    import it again in the worker: the worker needs only arena, and a script run again
    there would start its own games (the documented example has no ``__main__`` guard)."""
    main = sys.modules.get("__main__")
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        if main is not None:
            sys.modules["__main__"] = main


def _death(exitcode: int | None) -> str:
    if exitcode is None:
        return "stopped answering"
    if exitcode < 0:
        return f"was killed by {signal.Signals(-exitcode).name}"
    return f"exited with code {exitcode}"
