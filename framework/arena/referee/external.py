"""Helper processes that games talk to in lines, run by the core (e.g. official referees).

Games never touch processes. A game that needs an external program - ``cg-referee``
drives a referee written for cg-brutaltester - asks the core for an
:class:`ExternalProcess` and only ever calls its line methods. The core starts the
program in its own session and a private directory, bounds every read by a timeout,
keeps its stderr, and kills it with everything it started when the game ends: the
referee (:class:`arena.referee.engine.Referee`) closes every helper opened while it plays a
game, and a helper nobody closes is killed when it is garbage-collected or at exit.
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import shutil
import subprocess
import tempfile
import time
import weakref
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path

from arena.botproc import LogSink, keep_child, kill_tree
from arena.errors import ExternalProcessError

MAX_LINE_BYTES = 16 * 1024 * 1024
"""A helper line longer than this is a broken helper."""


@dataclass
class _Scope:
    log_dir: Path | None
    helpers: list[ExternalProcess] = field(default_factory=list)


_SCOPE: ContextVar[_Scope | None] = ContextVar("arena_helper_scope", default=None)


@contextlib.contextmanager
def helper_scope(log_dir: Path | None) -> Iterator[None]:
    """Close every helper started inside the block when it ends; keep their stderr in ``log_dir``.

    The referee wraps each game in one, so a helper never outlives its game.
    """
    scope = _Scope(log_dir)
    token = _SCOPE.set(scope)
    try:
        yield
    finally:
        _SCOPE.reset(token)
        for helper in scope.helpers:
            helper.close()


def command_problem(command: str) -> str | None:
    """Why ``command`` cannot be started (``"command not found: 'jav'"``), or None.

    File arguments are looked up like bot commands: relative to the current folder.
    """
    from arena.botproc.commands import resolve_command

    argv = resolve_command(command, Path.cwd())
    return argv if isinstance(argv, str) else None


def _shutdown(proc: subprocess.Popen[bytes], log: LogSink, home: Path) -> None:
    # Kill first (the helper may be blocked writing), then collect what stderr holds.
    if proc.stdin is not None:
        with contextlib.suppress(OSError):
            proc.stdin.close()
    kill_tree(proc)
    if proc.stdout is not None:
        with contextlib.suppress(OSError):
            proc.stdout.close()
    log.close(timeout=0.2)
    shutil.rmtree(home, ignore_errors=True)


class ExternalProcess:
    """A helper program a game exchanges lines with; the core owns its process.

    ``command`` is a command line (split like a shell would; file arguments resolved
    against the current folder) or an argument vector. The program starts at once in a
    private working directory; its stderr goes to ``<game dir>/<name>-stderr.txt`` while
    the referee plays a game, else to a private file. Every method raises
    :class:`~arena.errors.ExternalProcessError` when the program dies, stops reading, or
    sends nothing for ``timeout_s`` seconds.
    """

    def __init__(
        self, command: str | Sequence[str], *, name: str = "helper", timeout_s: float = 30.0
    ) -> None:
        from arena.botproc.commands import resolve_command

        if isinstance(command, str):
            argv = resolve_command(command, Path.cwd())
            if isinstance(argv, str):
                raise ExternalProcessError(f"{name} {command!r}: {argv}")
        else:
            argv = tuple(command)
        self.name = name
        self.timeout_s = timeout_s
        self.argv = tuple(argv)
        self._home = Path(tempfile.mkdtemp(prefix=f"arena-{name}-"))
        scope = _SCOPE.get()
        log_dir = scope.log_dir if scope is not None and scope.log_dir is not None else self._home
        log_dir.mkdir(parents=True, exist_ok=True)
        self.stderr_path = log_dir / f"{name}-stderr.txt"
        try:
            self._proc = subprocess.Popen(
                self.argv,
                cwd=self._home,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,  # own process group: one kill ends the tree
                bufsize=0,
                close_fds=True,
            )
        except OSError as exc:
            shutil.rmtree(self._home, ignore_errors=True)
            raise ExternalProcessError(f"{name} {self.argv[0]!r}: {exc.strerror}") from None
        keep_child(self._proc.pid)  # arena's own helper: not a bot's orphan to sweep
        assert self._proc.stdin is not None and self._proc.stdout is not None
        assert self._proc.stderr is not None
        os.set_blocking(self._proc.stdin.fileno(), False)
        os.set_blocking(self._proc.stdout.fileno(), False)
        self._log = LogSink(self._proc.stderr, self.stderr_path)
        self._buffer = bytearray()
        self._eof = False
        self._closed = False
        self._finalizer = weakref.finalize(self, _shutdown, self._proc, self._log, self._home)
        if scope is not None:
            scope.helpers.append(self)

    @property
    def pid(self) -> int:
        """The helper's process id."""
        return self._proc.pid

    def _failure(self, what: str) -> ExternalProcessError:
        detail = f"{self.name}: {what}"
        code = None
        with contextlib.suppress(subprocess.TimeoutExpired):
            # A helper that closed its output is usually exiting: give it a moment.
            code = self._proc.wait(timeout=0.2 if self._eof else 0)
        if code is not None:
            detail += f" (exit code {code})" if code >= 0 else f" (killed by signal {-code})"
        error = error_line(self._log.tail(lines=200, cap=LogSink.TAIL_BYTES))
        if error:
            detail += f"; its stderr: {error[:400]}"
        return ExternalProcessError(detail)

    def send(self, text: str) -> None:
        """Write ``text`` completely (within the timeout)."""
        if self._closed:
            raise ExternalProcessError(f"{self.name}: already closed")
        assert self._proc.stdin is not None
        fd = self._proc.stdin.fileno()
        view = memoryview(text.encode())
        deadline = time.perf_counter() + self.timeout_s
        while view:
            try:
                view = view[os.write(fd, view) :]
            except BlockingIOError:
                remaining = deadline - time.perf_counter()
                if remaining <= 0:
                    raise self._failure(
                        f"did not read its input for {self.timeout_s:g} s"
                    ) from None
                self._log.pump()
                with contextlib.suppress(InterruptedError):
                    select.select([self._log.fileno()], [fd], [], min(remaining, 0.1))
            except OSError:
                raise self._failure("stopped reading its input") from None

    def read_line(self) -> str:
        """The next line the helper writes, without its newline (nor a trailing ``\\r``)."""
        if self._closed:
            raise ExternalProcessError(f"{self.name}: already closed")
        assert self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        deadline = time.perf_counter() + self.timeout_s
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                raw = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                return raw.decode("utf-8", "replace").rstrip("\r")
            if self._eof:
                raise self._failure("closed its output")
            if len(self._buffer) > MAX_LINE_BYTES:
                raise self._failure(f"sent a line over {MAX_LINE_BYTES} bytes")
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise self._failure(f"sent nothing for {self.timeout_s:g} s")
            waiting = [fd] if self._log.eof else [fd, self._log.fileno()]
            try:
                ready, _, _ = select.select(waiting, [], [], remaining)
            except InterruptedError:
                continue
            if self._log.fileno() in ready:
                self._log.pump()
            if fd in ready:
                try:
                    chunk = os.read(fd, 65536)
                except BlockingIOError:
                    continue
                except OSError:
                    chunk = b""
                if chunk:
                    self._buffer += chunk
                else:
                    self._eof = True

    def close(self) -> None:
        """Kill the helper and everything it started, keep its stderr; safe to call again."""
        self._closed = True
        self._finalizer()


_CONTINUATION = re.compile(r"\s*(at |Caused by:|\.\.\. \d+ more)")


def error_line(text: str) -> str:
    """The line of a helper's stderr that says what went wrong: for a stack trace (Java's
    ``Exception in thread ...`` followed by ``\tat`` lines), its exception line plus its
    last ``Caused by``; else the last line ("" for none)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    end = len(lines)
    while end > 0 and _CONTINUATION.match(lines[end - 1]):
        end -= 1
    if end == 0:
        return lines[-1] if lines else ""
    causes = [line for line in lines[end:] if line.startswith("Caused by:")]
    return lines[end - 1] + (f"; {causes[-1]}" if causes else "")
