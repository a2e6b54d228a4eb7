"""A process of its own that plays the games it is sent, one at a time, over a pipe.

A Dask worker runs tasks in threads, beside its own event loop; bots must be started and
timed from a process with no other thread (forking a threaded process is unsafe, and a
busy thread delays the referee's readings). So a Dask task hands its game to a
:class:`GameProcess`: a plain ``python -m arena.game_process`` child, started once per
worker thread and kept, that plays each :class:`~arena.jobs.Job` with
:func:`~arena.jobs.play_job`, exactly as a worker of the local pool does.

The protocol is length-prefixed pickles between a parent and the child it started:
a job in, ``("done", record dict)`` or ``("failed", reason)`` out. The child writes
nothing else to that pipe (its standard output goes to standard error), ends when its
input closes, and is killed at once if its parent dies (a worker lost mid-game: the
game is played again elsewhere, nobody waits for this one).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import subprocess
import sys
from typing import IO, Any

_LENGTH = 8


class GameProcessDied(RuntimeError):
    """The process playing a game ended before answering (a bot may have killed it)."""


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


class GameProcess:
    """The parent's handle on one game process (started on first use, restarted if dead)."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None

    def play(self, job: Any) -> dict[str, Any]:
        """Play ``job`` in the child; its record dict. Raises :class:`GameProcessDied` if the
        child dies, :class:`RuntimeError` with the reason if the referee failed."""
        proc = self._alive()
        assert proc.stdin is not None and proc.stdout is not None
        try:
            _send(proc.stdin, job)
            kind, payload = _receive(proc.stdout)
        except (OSError, EOFError):
            code = proc.wait()
            self.proc = None
            why = f"killed by signal {-code}" if code < 0 else f"exited with code {code}"
            raise GameProcessDied(
                f"the process playing the game {why} (a bot may have done it)"
            ) from None
        if kind != "done":
            raise RuntimeError(str(payload))
        return dict(payload)

    def _alive(self) -> subprocess.Popen[bytes]:
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "arena.game_process", str(os.getpid())],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                close_fds=True,
            )
        return self.proc

    def close(self) -> None:
        """Let the child end (its input closes) and reap it."""
        if self.proc is None:
            return
        with contextlib.suppress(OSError):
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None


def serve(jobs: IO[bytes], results: IO[bytes]) -> None:
    """Play every job read from ``jobs``, answering on ``results``, until ``jobs`` closes."""
    from arena.jobs import play_job

    while True:
        try:
            job = _receive(jobs)
        except EOFError:
            return
        try:
            result: tuple[str, Any] = ("done", play_job(job))
        except Exception as exc:  # a referee or plugin bug: this game only
            result = ("failed", f"{type(exc).__name__}: {exc}")
        _send(results, result)


def _die_with_parent(parent: int) -> bool:
    """Be killed when the thread that started this process ends (its Dask worker died):
    a game nobody waits for stops at once. False if the parent is already gone."""
    with contextlib.suppress(Exception):  # Linux only; elsewhere the pipe's end is enough
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    return os.getppid() == parent


def main(argv: list[str] | None = None) -> int:
    """``python -m arena.game_process PARENT_PID``: serve jobs on standard input and output."""
    args = sys.argv[1:] if argv is None else argv
    if args and not _die_with_parent(int(args[0])):
        return 0
    # Ctrl-C in the terminal of a `dask worker` stops the worker; this process then ends
    # when its input closes, after the game it is playing.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    results = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # a stray print goes to stderr, never into the results
    with contextlib.suppress(BrokenPipeError):  # the parent is gone
        serve(sys.stdin.buffer, results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
