"""Persistent bots speaking a line protocol: start, timestamped non-blocking reads, stop.

* :class:`LineBot` - one persistent process per game on stdin/stdout. Output is read
  without blocking (non-blocking pipe plus ``select``), every line is timestamped when it
  arrives, and what is buffered is capped.
* :class:`LogSink` - a bot's stderr, drained from the referee's own ``select`` loop into a
  bounded file.
"""

from __future__ import annotations

import contextlib
import os
import select
import subprocess
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from arena.botproc.sandbox import FILE_SIZE_CAP_BYTES, Sandbox
from arena.botproc.spawn import BotProcess, out_of_memory, spawn

MAX_LINE_BYTES = 64 * 1024
"""A bot line longer than this (no newline yet) is an output flood."""
MAX_BUFFERED_BYTES = 1024 * 1024
"""Unread output above this is an output flood."""
STDERR_CAP_BYTES = 1024 * 1024
"""Bytes of stderr kept per bot per game; the rest is counted and dropped."""


class LogSink:
    """Keeps what a bot writes on its log pipe: the first ``cap`` bytes go to a file.

    The referee feeds it from its own ``select`` loop (no threads): the pipe is drained
    whenever the referee waits on the bot, so a bot that logs a lot only ever blocks
    while it is not on the clock. :meth:`take_recent` returns what arrived since its
    last call (for per-turn logs), bounded too.
    """

    RECENT_CAP = 8 * 1024
    TAIL_BYTES = 1024

    def __init__(self, pipe: IO[bytes], path: Path, cap: int = STDERR_CAP_BYTES) -> None:
        self.pipe = pipe
        os.set_blocking(pipe.fileno(), False)
        self._file = path.open("ab")
        self._cap = cap
        self._written = 0
        self.dropped = 0
        self.eof = False
        self._recent = bytearray()
        self._tail = b""

    def fileno(self) -> int:
        """The pipe's descriptor, for ``select``."""
        return self.pipe.fileno()

    def pump(self) -> None:
        """Read whatever the pipe holds now (never blocks)."""
        while not self.eof:
            try:
                chunk = os.read(self.pipe.fileno(), 65536)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if not chunk:
                self.eof = True
                return
            keep = chunk[: max(0, self._cap - self._written)]
            if keep:
                self._file.write(keep)
                self._written += len(keep)
            self.dropped += len(chunk) - len(keep)
            self._tail = (self._tail + chunk)[-self.TAIL_BYTES :]
            room = self.RECENT_CAP - len(self._recent)
            if room > 0:
                self._recent += chunk[:room]

    def last_line(self) -> str:
        """The last non-empty line written since :meth:`take_recent` (e.g. a crash's error)."""
        self.pump()
        lines = bytes(self._recent).decode("utf-8", "replace").strip().splitlines()
        return lines[-1].strip() if lines else ""

    def latest_line(self) -> str:
        """The last non-empty line the bot wrote, whatever was taken or dropped before it."""
        self.pump()
        lines = bytes(self._tail).decode("utf-8", "replace").strip().splitlines()
        return lines[-1].strip() if lines else ""

    def take_recent(self) -> str:
        """What the bot wrote since the last call (at most 8 KiB), decoded leniently."""
        self.pump()
        data = bytes(self._recent)
        self._recent.clear()
        return data.decode("utf-8", "replace")

    def close(self, timeout: float = 1.0) -> None:
        """Drain to the end of the pipe (bounded wait), note any truncation, close."""
        deadline = time.perf_counter() + timeout
        while not self.eof:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                break
            with contextlib.suppress(InterruptedError):
                select.select([self.fileno()], [], [], remaining)
            self.pump()
        if self.dropped:
            note = f"\n[arena: stderr truncated, {self.dropped} bytes dropped]\n"
            self._file.write(note.encode())
        self._file.close()
        with contextlib.suppress(OSError):
            self.pipe.close()


class BotClosed(Exception):
    """The bot's stdout closed (it exited or crashed); ``exit_code`` when known."""

    def __init__(self, exit_code: int | None) -> None:
        super().__init__(f"exit code {exit_code}")
        self.exit_code = exit_code


class InputStalled(Exception):
    """The bot stopped reading: its input could not be written before the deadline."""


class OutputFlood(Exception):
    """The bot wrote more than the referee buffers; ``raw`` is its first bytes."""

    def __init__(self, message: str, raw: str) -> None:
        super().__init__(message)
        self.raw = raw


@dataclass
class LineBot:
    """A persistent bot process speaking a line protocol.

    ``lines`` holds complete lines with the ``perf_counter`` time they arrived; the
    referee pops them and compares arrival times with its deadlines, so a line that
    arrived in time counts as in time however late the referee looks at it.
    """

    argv: Sequence[str]
    workdir: Path
    stderr_path: Path
    sandbox: Sandbox = field(default_factory=Sandbox)
    proc: subprocess.Popen[bytes] | None = None
    lines: deque[tuple[str, float]] = field(default_factory=deque)
    _partial: bytearray = field(default_factory=bytearray)
    _buffered: int = 0
    _eof: bool = False
    _log: LogSink | None = None
    _process: BotProcess | None = None
    _stopped: bool = False

    def start(self) -> None:
        """Start the process in its working directory (stdout non-blocking).

        Its limits and cgroup are in force before its first instruction (``launcher.py``).
        """
        self.workdir.mkdir(parents=True, exist_ok=True)
        self._process = spawn(
            self.argv,
            self.workdir,
            self.sandbox,
            subprocess.PIPE,
            subprocess.PIPE,
            subprocess.PIPE,
            FILE_SIZE_CAP_BYTES,
        )
        self.proc = self._process.proc
        assert self.proc.stdout is not None and self.proc.stderr is not None
        os.set_blocking(self.proc.stdout.fileno(), False)
        assert self.proc.stdin is not None
        os.set_blocking(self.proc.stdin.fileno(), False)
        self._log = LogSink(self.proc.stderr, self.stderr_path)

    def fileno(self) -> int:
        """The stdout descriptor to wait on."""
        assert self.proc is not None and self.proc.stdout is not None
        return self.proc.stdout.fileno()

    def log_fileno(self) -> int | None:
        """The stderr descriptor to drain while waiting (None once it is closed)."""
        return self._log.fileno() if self._log is not None and not self._log.eof else None

    def pump_log(self) -> None:
        """Drain stderr without blocking."""
        if self._log is not None:
            self._log.pump()

    def send(self, text: str, deadline: float) -> float:
        """Write ``text`` completely; return the ``perf_counter`` time it was all written.

        The pipe is non-blocking, so a bot that stops reading cannot hang the referee:
        raises :class:`InputStalled` if the text cannot be written by ``deadline``, and
        :class:`BotClosed` when the bot no longer reads its input at all.
        """
        assert self.proc is not None and self.proc.stdin is not None
        fd = self.proc.stdin.fileno()
        view = memoryview(text.encode())
        while view:
            try:
                view = view[os.write(fd, view) :]
            except BlockingIOError:
                remaining = deadline - time.perf_counter()
                if remaining <= 0:
                    raise InputStalled() from None
                select.select([], [fd], [], remaining)
            except OSError:
                raise BotClosed(self.proc.poll()) from None
        return time.perf_counter()

    def pump(self) -> None:
        """Read whatever stdout has now, split it into timestamped lines.

        Raises :class:`OutputFlood` past the buffer caps. At end of file, sets ``closed``.
        """
        fd = self.fileno()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            now = time.perf_counter()
            if not chunk:
                self._eof = True
                return
            self._partial += chunk
            if b"\n" in chunk:
                *complete, rest = self._partial.split(b"\n")
                for raw in complete:
                    line = raw.decode("utf-8", "replace").rstrip("\r")
                    self.lines.append((line, now))
                    self._buffered += len(raw)
                self._partial = bytearray(rest)
            if len(self._partial) > MAX_LINE_BYTES:
                raw_text = bytes(self._partial[:200]).decode("utf-8", "replace")
                raise OutputFlood(
                    f"output flood: over {MAX_LINE_BYTES} bytes in one line", raw_text
                )
            if self._buffered + len(self._partial) > MAX_BUFFERED_BYTES:
                first = self.lines[0][0][:200] if self.lines else ""
                raise OutputFlood(f"output flood: over {MAX_BUFFERED_BYTES} bytes unread", first)

    def pop_line(self) -> tuple[str, float]:
        """The oldest complete line and its arrival time (call only when ``lines``)."""
        line, at = self.lines.popleft()
        self._buffered -= len(line)
        return line, at

    @property
    def closed(self) -> bool:
        """The bot closed its stdout and every complete line has been taken."""
        return self._eof and not self.lines

    def exit_code(self, wait: float = 0.2) -> int | None:
        """The exit code if the process ended (waiting at most ``wait`` seconds)."""
        if self.proc is None:
            return None
        with contextlib.suppress(subprocess.TimeoutExpired):
            return self.proc.wait(timeout=wait)
        return None

    def last_stderr_line(self) -> str:
        """The bot's latest stderr line, kept for the next :meth:`take_stderr`."""
        return self._log.last_line() if self._log else ""

    def take_stderr(self) -> str:
        """Stderr written since the last call (bounded)."""
        return self._log.take_recent() if self._log else ""

    def out_of_memory(self) -> str | None:
        """Why the bot's memory cap stopped it, or None (see :func:`out_of_memory`)."""
        if self._process is None:
            return None
        last = self._log.latest_line() if self._log else ""
        return out_of_memory(self._process.oom_kills(), last, self.sandbox.memory_mb)

    def stop(self) -> None:
        """End the bot: close its stdin, kill it and everything it started, flush stderr.

        Safe to call again (a forfeiting bot is stopped at once, then with the others at
        the end of the game): later calls do nothing.
        """
        if self.proc is None or self._stopped:
            return
        self._stopped = True
        if self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
        assert self._process is not None
        self._process.kill()
        if self.proc.stdout is not None:
            with contextlib.suppress(OSError):
                self.proc.stdout.close()
        if self._log is not None:
            self._log.close()


def wait_readable(bots: Sequence[LineBot], timeout: float) -> None:
    """Block until one of ``bots`` has output, or ``timeout`` seconds pass.

    Every bot's stderr is drained meanwhile, so none blocks on a full log pipe.
    """
    logs = {fd: bot for bot in bots if (fd := bot.log_fileno()) is not None}
    outs = [b.fileno() for b in bots]
    deadline = time.perf_counter() + timeout
    while True:
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            return
        try:
            ready, _, _ = select.select([*outs, *logs], [], [], remaining)
        except InterruptedError:
            continue
        for fd in ready:
            if fd in logs:
                logs[fd].pump_log()
                if logs[fd].log_fileno() is None:
                    del logs[fd]
        if any(fd in outs for fd in ready) or not ready:
            return
