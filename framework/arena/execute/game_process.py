"""A process of its own that plays the games a Dask worker thread is sent, one at a time.

A Dask worker runs tasks in threads, beside its own event loop, and bots may only be
started from a process with no other thread (their launcher runs between fork and exec)
and timed by a referee no other thread delays. So a Dask task hands its game to a
:class:`GameProcess`: a plain ``python -m arena.execute.game_process`` child, started once per
worker thread and kept, that lives as a worker of the local pool does
(:mod:`arena.execute.pool`): SIGINT ignored, SIGTERM ends the game (its bots killed), it dies
with the thread that started it, it is a child subreaper and kills every bot it started
as it exits. Each game is played by :func:`~arena.execute.jobs.play_job` in a scratch folder of
its own under the bot homes (named with its owner tag: a later run on the machine removes
it if the process was killed), and comes back with the files the referee wrote there.

The protocol is length-prefixed pickles between a parent and the child it started: a
:class:`GameRequest` in; ``("beat", seconds)`` as a step starts that the last beat
of the game does not cover (see :data:`BEAT_SLACK_S`), then
``("done", {"record": ..., "files": {name: bytes}})`` or ``("failed", reason)`` out. The
parent runs the same watchdog as the local pool on those beats
(:data:`~arena.execute.pool.WATCHDOG_GRACE_S`). The child writes nothing else to that pipe
(its standard output goes to standard error) and ends when its input closes.
"""

from __future__ import annotations

import contextlib
import functools
import os
import pickle
import select
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path
from types import FrameType
from typing import IO, Any

from arena.botproc.sandboxes.base import DEFAULT_DISK_MB
from arena.errors import ArenaError
from arena.execute.jobs import Job
from arena.execute.pool import WATCHDOG_GRACE_S

_LENGTH = 8
BEAT_SLACK_S = 1.0
"""Seconds a beat vouches for beyond its step's clocks (the watchdog waits that much longer)."""


@dataclass(frozen=True)
class GameRequest:
    """A game for the game process: the job (its ``game_dir`` and ``sandbox`` are the
    game process's to choose) and the sandbox as configured (``auto`` decided there):
    every option of the local executor's, ``read_only`` as (this machine's copy, the
    path the tournament named) pairs."""

    job: Job
    sandbox: str
    memory_mb: int | None
    max_processes: int
    disk_mb: int | None = DEFAULT_DISK_MB
    files: str = "folder"
    read_only: tuple[tuple[str, str], ...] = ()


class WorkerRefused(ArenaError):
    """This machine cannot play the game as the tournament asks (said in one line)."""


class GameProcessDied(ArenaError, RuntimeError):
    """The process playing a game died or was abandoned before answering."""


def _send(pipe: IO[bytes], value: Any) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    pipe.write(len(data).to_bytes(_LENGTH, "big") + data)
    pipe.flush()


def _receive(pipe: IO[bytes]) -> Any:
    header = pipe.read(_LENGTH)
    if len(header) < _LENGTH:
        raise EOFError
    size = int.from_bytes(header, "big")
    data = pipe.read(size)
    if len(data) < size:
        raise EOFError
    return pickle.loads(data)


def _read_exactly(fd: int, size: int) -> bytes:
    """``size`` bytes from ``fd`` (straight from the descriptor: nothing is left buffered
    where ``select`` cannot see it)."""
    chunks: list[bytes] = []
    while size:
        chunk = os.read(fd, size)
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _receive_fd(fd: int) -> Any:
    size = int.from_bytes(_read_exactly(fd, _LENGTH), "big")
    return pickle.loads(_read_exactly(fd, size))


class GameProcess:
    """The parent's handle on one game process (started on first use, restarted if dead)."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None

    def play(self, request: GameRequest) -> dict[str, Any]:
        """Play ``request`` in the child: ``{"record": ..., "files": ...}``.

        Raises :class:`GameProcessDied` when the child dies or the watchdog abandons the
        game (the child is then killed), :class:`RuntimeError` with the reason when the
        referee failed.
        """
        proc = self._alive()
        assert proc.stdin is not None and proc.stdout is not None
        deadline = time.monotonic() + WATCHDOG_GRACE_S
        try:
            _send(proc.stdin, request)
            while True:
                # Wait for the next message, no later than the game's clocks allow.
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([proc.stdout], [], [], left)[0]:
                    self._kill()
                    raise GameProcessDied(
                        "abandoned by the watchdog: the game ran over its step's clocks by "
                        f"{WATCHDOG_GRACE_S:.0f} s (a bot may have stopped its process)"
                    )
                kind, payload = _receive_fd(proc.stdout.fileno())
                if kind == "beat":
                    deadline = time.monotonic() + float(payload) + WATCHDOG_GRACE_S
                    continue
                break
        except (OSError, EOFError):
            code = proc.wait()
            self.proc = None
            why = f"was killed by signal {-code}" if code < 0 else f"exited with code {code}"
            raise GameProcessDied(
                f"the process playing the game {why} (a bot may have done it)"
            ) from None
        if kind != "done":
            raise RuntimeError(str(payload))
        return dict(payload)

    def _alive(self) -> subprocess.Popen[bytes]:
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "arena.execute.game_process", str(os.getpid())],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                close_fds=True,
            )
        return self.proc

    def _kill(self) -> None:
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()  # works on a stopped process too
            self.proc.wait()
            self.proc = None

    def close(self) -> None:
        """Let the child end (its input closes) and reap it."""
        if self.proc is None:
            return
        with contextlib.suppress(OSError):
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self._kill()
        self.proc = None


@functools.lru_cache(maxsize=8)
def _sandbox(kind: str, memory_mb: int | None, max_processes: int, disk_mb: int | None) -> Any:
    from arena.botproc import resolve_sandbox

    # hide: nothing of arena's is visible to a sandboxed bot here (no output folder).
    return resolve_sandbox(kind, memory_mb, (), max_processes, disk_mb)


def request_sandbox(request: GameRequest) -> Any:
    """The sandbox of ``request`` on this machine: its kind decided here, its ``read_only``
    copies shown where the tournament named them (under bubblewrap; without it, a bot
    sees this machine's files: the named path must then exist here)."""
    from arena.botproc import backend_of

    sandbox = _sandbox(request.sandbox, request.memory_mb, request.max_processes, request.disk_mb)
    sandbox = replace(sandbox, files=request.files)
    if backend_of(sandbox).shows_copies:
        return replace(sandbox, mounts=request.read_only)
    missing = [named for _, named in request.read_only if not os.path.exists(named)]
    if missing:
        raise WorkerRefused(
            f"read_only {missing[0]}: not on this worker's machine, and without bubblewrap "
            "(sandbox none here) its shipped copy cannot be shown there: install "
            "bubblewrap on the workers or put the path on every worker"
        )
    return replace(sandbox, read_only=tuple(named for _, named in request.read_only))


def play_request(request: GameRequest, heartbeat: Any) -> dict[str, Any]:
    """Play one request in this process in a scratch folder; the record and its files."""
    from arena.botproc.homes import bot_homes, remove_tree
    from arena.botproc.procinfo import owner_tag
    from arena.execute.jobs import play_job

    sandbox = request_sandbox(request)
    job = request.job
    scratch = Path(tempfile.mkdtemp(prefix=f"dask-{job.game}-{owner_tag()}-", dir=bot_homes()))
    try:
        game_dir = scratch / "game"
        record = play_job(replace(job, game_dir=str(game_dir), sandbox=sandbox), heartbeat)
        files = {p.name: p.read_bytes() for p in sorted(game_dir.iterdir()) if p.is_file()}
        return {"record": record, "files": files}
    finally:
        remove_tree(scratch)


def serve(requests: IO[bytes], results: IO[bytes]) -> None:
    """Play every request read from ``requests``, answering on ``results``, until it closes."""

    covered = 0.0  # until when the last beat of this game vouches for it

    def heartbeat(seconds: float) -> None:
        # A beat covers BEAT_SLACK_S more than the step asks: the steps within it need
        # none (at most a message a second, not one a step; never a stricter watchdog).
        nonlocal covered
        if time.monotonic() + seconds > covered:
            covered = time.monotonic() + seconds + BEAT_SLACK_S
            _send(results, ("beat", seconds + BEAT_SLACK_S))

    while True:
        try:
            request = _receive(requests)
        except EOFError:
            return
        covered = 0.0
        try:
            result: tuple[str, Any] = ("done", play_request(request, heartbeat))
        except WorkerRefused as exc:  # one clear line (a read_only path missing here)
            result = ("failed", str(exc))
        except Exception as exc:  # a referee or plugin bug, no sandbox here: this game only
            result = ("failed", f"{type(exc).__name__}: {exc}")
        _send(results, result)


class _Stop(BaseException):
    """SIGTERM (or the death of the parent): end the game now, its bots killed."""


def _stop(signum: int, frame: FrameType | None) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise _Stop()


def main(argv: list[str] | None = None) -> int:
    """``python -m arena.execute.game_process PARENT_PID``: serve requests on stdin and stdout."""
    from arena.botproc import remove_leftovers
    from arena.botproc.launcher import PR_SET_PDEATHSIG, become_subreaper, prctl
    from arena.botproc.seatdisk import allow_private_mounts
    from arena.botproc.spawn import kill_every_bot

    args = sys.argv[1:] if argv is None else argv
    # Ctrl-C in the terminal of a `dask worker` stops the worker, which ends this process.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop)
    with contextlib.suppress(OSError):
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM)  # the worker (thread) died: stop too
    if args and os.getppid() != int(args[0]):
        return 0  # it died before that
    become_subreaper()
    allow_private_mounts()  # per-turn bots' directories may get a tmpfs of their own
    remove_leftovers()  # what killed runs on this machine left behind
    results = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # a stray print goes to stderr, never into the results
    try:
        serve(sys.stdin.buffer, results)
    except (_Stop, BrokenPipeError):
        pass
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        kill_every_bot()
        remove_leftovers(mine=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
