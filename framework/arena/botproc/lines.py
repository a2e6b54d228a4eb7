"""Persistent bots speaking a line protocol: start, timestamped non-blocking reads, stop.

* :class:`LineBot` - one persistent process per game on stdin/stdout. A turn's clock
  starts just before the write that completes its input; output is read without blocking
  and every chunk is timestamped as soon as it is read; what is buffered is capped.
* :func:`wait_and_read` - the referee's only wait: in the kernel (``poll``) on the bots
  still to answer, until the earliest deadline; whatever is ready is read and stamped
  first, before any other work (stderr, the game's rules).
* :class:`LogSink` - a bot's stderr, drained from the referee's own ``poll`` loop into a
  bounded file; :class:`LineBot` files what arrives under the turn it belongs to.
* :func:`drain_logs` - the end of a game: the bots' last words on stderr, bounded in time.
* :class:`Usage` - what a bot's processes used up to an instant: CPU, run-queue wait.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import struct
import subprocess
import termios
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from arena.botproc.pressure import WaitCounters
from arena.botproc.procinfo import (
    descendants,
    exit_fd,
    main_process,
    own_wait_ns,
    reading_input,
    schedstat,
    threads_of,
    tree_threads,
    waiting_on_pipe,
)
from arena.botproc.procwatch import ProcessWatch
from arena.botproc.sandboxes.base import FILE_SIZE_CAP_BYTES, Sandbox
from arena.botproc.sandboxes.registry import backend_of
from arena.botproc.spawn import BotProcess, out_of_memory, spawn
from arena.errors import ArenaError
from arena.records import STDERR_ENDS

MAX_LINE_BYTES = 64 * 1024
"""A bot line longer than this (no newline yet) is an output flood."""
MAX_BUFFERED_BYTES = 1024 * 1024
"""Unread output above this is an output flood."""
STDERR_CAP_BYTES = 1024 * 1024
"""Bytes of stderr kept per bot per game; the rest is counted and dropped."""
READS_PER_PUMP = 4
"""Reads of 64 KiB at most per stderr drain, so a bot flooding its log cannot keep the
referee from the other bots' answers (the rest is read at the next wake-up)."""
END_QUIET_S = 0.05
"""At the end of a game, a bot's stderr is drained until it waits for input, or has been
silent this long..."""
END_DRAIN_S = 0.5
"""... or for this long at most, before it is killed."""
END_POLL_S = 0.002
"""How often, at most, the end-of-game drain looks whether a bot now waits for input (at
first after :data:`READY_FIRST_POLL_S`, the wait doubling up to this)."""
READY_WAIT_S = 0.05
"""How long a bot's next input waits for the bot to be back reading (so what it logs
after its answer is filed with that answer's turn) before it is sent anyway."""
READY_POLL_S = 0.0005
"""How often the referee looks whether the bot is back reading..."""
READY_FIRST_POLL_S = 0.00005
"""... after a first look this much later, the wait doubling up to :data:`READY_POLL_S`: a
bot that just answered usually needs a few tens of microseconds to be back reading (a
core of its own may be the referee's, which then has to let it run)."""
PIPE_READ_BYTES = 65536
"""Bytes asked of a bot's stdout per read."""


@dataclass(frozen=True)
class Usage:
    """What a bot's processes had used at one instant: CPU time (all of them: with a cpu
    cgroup, those already gone too) and each thread's wait in the run queue."""

    cpu_ns: int
    waits: dict[int, int]
    counters: WaitCounters | None = None
    """Its other waits' counters (:mod:`~arena.botproc.pressure`; None without cgroups)."""

    def since(self, before: Usage) -> tuple[float, float]:
        """(CPU ms of all the bot's processes, run-queue wait ms of its most delayed
        thread) between ``before`` and this instant."""
        cpu = max(0, self.cpu_ns - before.cpu_ns) / 1e6
        waits = (w - before.waits.get(t, 0) for t, w in self.waits.items())
        return cpu, max(0, max(waits, default=0)) / 1e6


@dataclass(frozen=True)
class LateStamp:
    """The first line of a turn read after :attr:`LineBot.late_after`: when it was read,
    how long the referee itself had waited in the run queue since it last found the
    bot's output empty (its stamp is that much late at most: the bot's own time is
    not), and what the bot had used when it was read (:meth:`LineBot.usage`)."""

    at: float
    hold_ns: int
    usage: Usage


class LogSink:
    """Keeps what a bot writes on its log pipe: the first ``cap`` bytes go to a file.

    The referee feeds it from its own ``poll`` loop (no threads): the pipe is drained
    whenever the referee waits on the bot, so a bot that logs a lot only ever blocks
    while it is not on the clock. :meth:`take_recent` returns what was read since its
    last call (for per-turn logs), bounded too.
    """

    RECENT_CAP = 8 * 1024
    TAIL_BYTES = 8 * 1024

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

    def pump(self, reads: int | None = None) -> None:
        """Read what the pipe holds now (never blocks): at most ``reads`` chunks of 64 KiB,
        or until it is empty."""
        while not self.eof and not self.pipe.closed:
            if reads is not None:
                if reads <= 0:
                    return
                reads -= 1
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

    def tail(self, lines: int | None = None, cap: int | None = None) -> str:
        """The end of what the bot wrote (its last ``lines`` lines within its last ``cap``
        bytes: :data:`TAIL_LINES` and :data:`TAIL_CAP` by default, at most
        :attr:`TAIL_BYTES`), whatever was taken or dropped before: e.g. a crash's traceback."""
        self.pump()
        return stderr_tail(bytes(self._tail), lines or TAIL_LINES, cap or TAIL_CAP)

    @property
    def has_recent(self) -> bool:
        """Something was read since the last :meth:`take_recent`."""
        return bool(self._recent)

    def take_recent(self) -> str:
        """What was read since the last call (at most 8 KiB), decoded leniently.

        It does not read the pipe: the caller pumps first (and decides which turn the
        text belongs to)."""
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
        self.eof = True
        with contextlib.suppress(OSError):
            self.pipe.close()


TAIL_LINES = 10
"""Lines of a crashed bot's stderr kept with its forfeit..."""
TAIL_CAP = 2048
"""... in its last this many bytes."""


def stderr_tail(data: bytes, lines: int = TAIL_LINES, cap: int = TAIL_CAP) -> str:
    """The last ``lines`` non-blank lines of ``data`` (its last ``cap`` bytes), decoded
    leniently, trailing spaces and carriage returns removed ("" for none)."""
    text = data[-cap:].decode("utf-8", "replace")
    kept = [line.rstrip() for line in text.splitlines() if line.strip()]
    return "\n".join(kept[-lines:])


def crash_detail(summary: str, tail: str) -> str:
    """A forfeit's detail: ``summary`` on its first line, then the end of the bot's stderr
    (each line indented by two spaces) when it wrote any."""
    if not tail:
        return summary
    return f"{summary}{STDERR_ENDS}\n" + "\n".join(f"  {line}" for line in tail.splitlines())


class BotClosed(ArenaError):
    """The bot's stdout closed (it exited or crashed); ``exit_code`` when known."""

    def __init__(self, exit_code: int | None) -> None:
        super().__init__(f"exit code {exit_code}")
        self.exit_code = exit_code


class InputStalled(ArenaError):
    """The bot stopped reading: its input could not be written before the deadline."""


class OutputFlood(ArenaError):
    """The bot wrote more than the referee buffers; ``raw`` is its first bytes."""

    def __init__(self, message: str, raw: str) -> None:
        super().__init__(message)
        self.raw = raw


@dataclass
class LineBot:
    """A persistent bot process speaking a line protocol.

    ``lines`` holds complete lines with the ``perf_counter`` time they were read; the
    referee pops them and compares those times with its deadlines, so a line read in
    time counts as in time however late the referee looks at it.

    Its stderr is filed by turn: what it writes before it starts reading the input of
    its next turn belongs to its previous turn, the rest to its current turn (both
    taken by :meth:`take_logs`).
    """

    argv: Sequence[str]
    workdir: Path
    stderr_path: Path
    sandbox: Sandbox = field(default_factory=Sandbox)
    proc: subprocess.Popen[bytes] | None = None
    lines: deque[tuple[str, float]] = field(default_factory=deque)
    flood: OutputFlood | None = None
    """Set (and reading stops) once the bot wrote more than the caps allow."""
    _partial: bytearray = field(default_factory=bytearray)
    _buffered: int = 0
    _eof: bool = False
    _log: LogSink | None = None
    _process: BotProcess | None = None
    _stopped: bool = False
    _held: str = ""  # stderr of the previous turn, not yet taken
    _exit_fd: int | None = None  # readable once the bot's own process has exited
    _fresh: int = 0  # bytes of the latest input while the bot has not started reading it
    _turns: int = 0  # inputs of new turns sent
    _watch: ProcessWatch | None = None  # its files kept open, once it is known
    turn_usage: Usage | None = None
    """What the bot had used when its current turn's input was sent (:meth:`usage`)."""
    late_after: float = float("inf")
    """A line read after this ``perf_counter`` time (the referee sets its turn's limit) is
    noted with what the machine did meanwhile: :attr:`late`."""
    late: LateStamp | None = None
    """The current turn's first line read after :attr:`late_after` (None: none yet)."""
    _looked: int = 0  # the referee's run-queue wait when it last found stdout empty
    core: int | None = None
    """The CPU the bot is confined to (a core of its own), None: any."""

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
            scratch=True,  # nothing else reads its directory: it may be a capped tmpfs
            core=self.core,
        )
        self.proc = self._process.proc
        assert self.proc.stdout is not None and self.proc.stderr is not None
        os.set_blocking(self.proc.stdout.fileno(), False)
        assert self.proc.stdin is not None
        os.set_blocking(self.proc.stdin.fileno(), False)
        self._log = LogSink(self.proc.stderr, self.stderr_path)
        self._exit_fd = exit_fd(self.proc.pid)

    def exit_fileno(self) -> int | None:
        """A descriptor readable once the bot's process has exited (None: unknown here)."""
        return self._exit_fd

    def exited(self) -> None:
        """The bot's process has exited: take what its stdout holds, then read no more.

        Its end of file may never come: a child it left behind can hold the pipe open.
        What such a child writes is not the bot's answer, so the bot is :attr:`closed`
        once the lines it wrote itself are taken.
        """
        self.pump()
        self._eof = True

    def fileno(self) -> int:
        """The stdout descriptor to wait on."""
        assert self.proc is not None and self.proc.stdout is not None
        return self.proc.stdout.fileno()

    def log_fileno(self) -> int | None:
        """The stderr descriptor to drain while waiting (None once it is closed)."""
        return self._log.fileno() if self._log is not None and not self._log.eof else None

    @property
    def stopped(self) -> bool:
        """:meth:`stop` was called."""
        return self._stopped

    def waiting_for_input(self) -> bool:
        """Whether the bot is blocked reading its input, all it wrote in the pipes (False
        when this cannot be seen: see :func:`~arena.botproc.procinfo.waiting_on_pipe`)."""
        return self._process is not None and waiting_on_pipe(self._process.pid)

    def send(
        self,
        text: str,
        deadline: float,
        new_turn: bool = True,
        meanwhile: Callable[[], None] | None = None,
    ) -> float:
        """Write ``text`` completely; return when the turn's clock started: the
        ``perf_counter`` time taken just before the write that completed it.

        The clock starts before that write, never after it returns: once the last bytes
        are in the pipe the bot may read them, answer and be timed while the referee is
        still returning from ``write`` (or was descheduled there). So the time measured
        is never less than the time the bot had the whole input.

        ``new_turn`` (False for the reply to an in-turn query) files what the bot wrote
        on stderr so far under its previous turn. The pipe is non-blocking, so a bot that
        stops reading cannot hang the referee: raises :class:`InputStalled` if the text
        cannot be written by ``deadline``, and :class:`BotClosed` when the bot no longer
        reads its input at all. While the pipe is full, ``meanwhile`` is called every
        millisecond (the referee reads and stamps the other bots' answers).
        """
        assert self.proc is not None and self.proc.stdin is not None
        fd = self.proc.stdin.fileno()
        # Seen back reading just now: it cannot run until this write (its usage below
        # needs no new look at its threads).
        still = bool(new_turn and self._turns and self._await_reading(deadline, meanwhile))
        if new_turn and self._log is not None:
            # All it logged so far is its previous turn's (no need to ask, as pump_log
            # does, whether it started reading: the input is not written yet).
            self._log.pump(READS_PER_PUMP)
            if self._log.has_recent:
                self._hold(self._log.take_recent())
            self._fresh = 0
        if new_turn:
            self._turns += 1
            self.turn_usage = self.usage(still)
            self.late, self.late_after = None, float("inf")
        data = text.encode()
        view = memoryview(data)
        started = time.perf_counter()
        while view:
            try:
                started = time.perf_counter()  # the stamp of the write that completes it
                view = view[os.write(fd, view) :]
            except BlockingIOError:
                remaining = deadline - time.perf_counter()
                if remaining <= 0:
                    raise InputStalled() from None
                if meanwhile is not None:
                    meanwhile()
                    remaining = min(remaining, 0.001)
                with contextlib.suppress(InterruptedError):
                    select.select([], [fd], [], remaining)
            except OSError:
                raise BotClosed(self.proc.poll()) from None
        if new_turn:
            self._fresh = len(data)
            self._looked = own_wait_ns()
        return started

    def _await_reading(self, deadline: float, meanwhile: Callable[[], None] | None) -> bool:
        """Wait until the bot is back reading its input (at most :data:`READY_WAIT_S`, and
        not when that cannot be seen), draining its stderr meanwhile: whatever it logs
        after its answer, however late, is then in the pipe before its next input is, and
        filed with the turn it answered. Its clock starts after this, at the write.
        ``meanwhile`` is called at every look (the referee stamps the answers of the bots
        already sent their input). Whether it was seen back reading.
        """
        assert self.proc is not None and self._process is not None
        give_up = min(deadline, time.perf_counter() + READY_WAIT_S)
        pause = READY_FIRST_POLL_S
        while (reading := self._reading()) is False and self.proc.poll() is None:
            if meanwhile is not None:
                meanwhile()
            left = give_up - time.perf_counter()
            if left <= 0:
                return False
            fd = self.log_fileno()
            with contextlib.suppress(InterruptedError):
                select.select([fd] if fd is not None else [], [], [], min(left, pause))
            if fd is not None and self._log is not None:
                self._log.pump(READS_PER_PUMP)
            pause = min(2 * pause, READY_POLL_S)
        return reading is True

    def _main_watch(self) -> tuple[int, ProcessWatch | None]:
        """The bot's own process (below the sandbox's), and its watch once it is known."""
        assert self._process is not None
        if self._watch is not None:
            return self._watch.pid, self._watch
        top = self._process.pid
        # Below the sandbox's processes (procinfo.WRAPPERS: bubblewrap's, unshare's).
        main, final = main_process(top)
        if backend_of(self.sandbox).launcher_on_top:
            # Never the launcher shell that becomes the sandbox (bubblewrap), or setpriv
            # before it becomes the bot (not final until then).
            final = final and main != top
        if final:
            self._watch = ProcessWatch(main)
        return main, self._watch

    def _reading(self) -> bool | None:
        """Whether the bot's own process (and all it started) is back reading its input
        (:func:`~arena.botproc.procinfo.reading_input`; None: it cannot be seen)."""
        main, watch = self._main_watch()
        return watch.reading() if watch is not None else reading_input(main)

    def usage(self, still: bool = False) -> Usage:
        """The CPU time of the bot's processes now (its cgroup's, else its process tree's:
        then CPU of children already gone is not counted) and the run-queue waits of its
        own process's threads (not its children's: those compete with it, not for it).
        ``still``: it has not run since it was last seen back reading."""
        assert self._process is not None
        main, watch = self._main_watch()
        waits: dict[int, int] = {}
        # One thread at the latest look (the usual bot): its schedstat, one pread.
        only = watch.single_thread_schedstat(still) if watch is not None else None
        if only is not None:
            waits[main] = only[1]
        else:
            for tid in threads_of(main):
                if (stat := schedstat(tid, main)) is not None:
                    waits[tid] = stat[1]
        group = self._process.cgroup
        cpu = group.cpu_ns() if group is not None else None
        if cpu is None:
            stats = (schedstat(t, p) for p, t in tree_threads(self._process.pid))
            cpu = sum(stat[0] for stat in stats if stat is not None)
        counters = None
        if group is not None:
            # Whose storage writes count: the sandbox's processes (reapers of orphans),
            # the bot's own and its live children (each process counts those it reaped).
            tree = [self._process.pid, main] if group.pressure_dir is not None else []
            if tree and not (still and watch is not None and watch.blocked):  # no child
                tree += descendants(main)
            counters = group.counters(tree)
        return Usage(cpu, waits, counters)

    def pump(self, looked: int | None = None) -> None:
        """Read whatever stdout holds now and split it into lines, each stamped with the
        time right after the read that brought its end (never blocks).

        Past the buffer caps, sets :attr:`flood` and reads no more. At end of file, the
        bot is :attr:`closed` once its lines are taken. ``looked``: the referee's run-queue
        wait (:func:`~arena.botproc.procinfo.own_wait_ns`) read just before this call,
        noted as of the moment it finds the pipe empty (None: read then).
        """
        fd = self.fileno()
        while not self._eof and self.flood is None:
            try:
                chunk = os.read(fd, PIPE_READ_BYTES)
            except BlockingIOError:
                # Nothing yet: the referee is not late for it.
                self._looked = own_wait_ns() if looked is None else looked
                return
            except OSError:
                chunk = b""
            now = time.perf_counter()
            if not chunk:
                self._eof = True
                return
            self._partial += chunk
            if b"\n" in chunk:
                if now > self.late_after and self.late is None:
                    # The referee's wait since it last found nothing is all its stamp
                    # can be late by; the bot's usage as of its answer, not later.
                    self.late = LateStamp(now, own_wait_ns() - self._looked, self.usage())
                *complete, rest = self._partial.split(b"\n")
                for raw in complete:
                    line = raw.decode("utf-8", "replace").rstrip("\r")
                    self.lines.append((line, now))
                    self._buffered += len(raw)
                self._partial = bytearray(rest)
            if len(self._partial) > MAX_LINE_BYTES:
                raw_text = bytes(self._partial[:200]).decode("utf-8", "replace")
                message = f"output flood: over {MAX_LINE_BYTES} bytes in one line"
                self.flood = OutputFlood(message, raw_text)
            elif self._buffered + len(self._partial) > MAX_BUFFERED_BYTES:
                first = self.lines[0][0][:200] if self.lines else ""
                message = f"output flood: over {MAX_BUFFERED_BYTES} bytes unread"
                self.flood = OutputFlood(message, first)
            elif len(chunk) < PIPE_READ_BYTES:
                # A pipe's read returns less than asked only once it is empty: no need
                # of another read to find it so.
                self._looked = own_wait_ns() if looked is None else looked
                return

    def mark_empty(self, own_wait: int) -> None:
        """The referee found this bot's output empty when its own run-queue wait read
        ``own_wait`` (:func:`~arena.botproc.procinfo.own_wait_ns`)."""
        self._looked = own_wait

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
        if (code := self.proc.poll()) is not None or self._exit_fd is None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = self.proc.wait(timeout=wait) if code is None else code
            return code
        # In the kernel on its pidfd: back as soon as it exits (Popen.wait with a timeout
        # would look again after sleeps doubling from 0.5 ms: up to twice as late).
        with contextlib.suppress(InterruptedError):
            select.select([self._exit_fd], [], [], wait)
        return self.proc.poll()

    # -- stderr, filed by turn ------------------------------------------------------

    def pump_log(self) -> None:
        """Drain stderr without blocking (a bounded amount), filing it by turn.

        While the bot has not started reading its latest input (its stdin pipe still
        holds all of it: ``FIONREAD``), what it wrote belongs to its previous turn.
        """
        if self._log is None:
            return
        self._log.pump(READS_PER_PUMP)
        if self._fresh and self.proc is not None and self.proc.stdin is not None:
            if self._unread_input() >= self._fresh:
                self._hold(self._log.take_recent())
            else:
                self._fresh = 0  # it started reading: what follows is this turn's

    def _unread_input(self) -> int:
        """Bytes written to the bot's stdin that it has not read yet (0 if unknown)."""
        assert self.proc is not None and self.proc.stdin is not None
        try:
            raw = fcntl.ioctl(self.proc.stdin.fileno(), termios.FIONREAD, b"\0\0\0\0")
        except (OSError, ValueError):
            return 0
        return int(struct.unpack("i", raw)[0])

    def _hold(self, text: str) -> None:
        room = LogSink.RECENT_CAP - len(self._held)
        if text and room > 0:
            self._held += text[:room]

    def take_logs(self, drain: bool = True) -> tuple[str, str]:
        """The bot's stderr since the last call, the pipe drained once (not with
        ``drain=False``: what it holds is then read by the next :meth:`send`, as its
        previous turn's): (its previous turn's, written after :meth:`send` started its
        current one but before the bot read that input; its current turn's, bounded)."""
        if drain:
            self.pump_log()
        held, self._held = self._held, ""
        if self._log is None or not self._log.has_recent:
            return held, ""
        return held, self._log.take_recent()

    def last_stderr_line(self) -> str:
        """The bot's latest stderr line, kept for the next :meth:`take_logs`."""
        return self._log.last_line() if self._log else ""

    def stderr_tail(self) -> str:
        """The end of the bot's stderr (:meth:`LogSink.tail`), "" if none."""
        return self._log.tail() if self._log else ""

    def out_of_memory(self) -> str | None:
        """Why the bot's memory cap stopped it, or None (see :func:`out_of_memory`)."""
        if self._process is None:
            return None
        last = self._log.latest_line() if self._log else ""
        memory, tmpfs = self.sandbox.memory_mb, self.sandbox.tmpfs_bytes
        disk = tmpfs >> 20 if tmpfs and self.sandbox.disk_mb else None  # its tmpfs's size
        return out_of_memory(self._process.oom_kills(), last, memory, disk)

    def stop(self) -> None:
        """End the bot: close its stdin, kill it and everything it started, flush stderr.

        What stderr held is still filed by turn afterwards (:meth:`take_logs`). Safe to
        call again (a forfeiting bot is stopped at once, then with the others at the end
        of the game): later calls do nothing.
        """
        if self.proc is None or self._stopped:
            return
        self._stopped = True
        if self._log is not None:
            self.pump_log()  # filed while the input it has not read is still countable
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
            if self._fresh:  # killed before it read its last input: its previous turn's
                self._hold(self._log.take_recent())
        if self._exit_fd is not None:
            os.close(self._exit_fd)
            self._exit_fd = None
        if self._watch is not None:
            self._watch.close()


def stop_bots(bots: Sequence[LineBot]) -> None:
    """Stop every bot in ``bots`` (:meth:`LineBot.stop`), all of them sent SIGKILL before
    any is waited for: they die together instead of one after the other.

    Each bot's stderr is drained first, while the input it has not read is still countable.
    """
    for bot in bots:
        if not bot.stopped and bot._process is not None:
            bot.pump_log()
            bot._process.signal()
    for bot in bots:
        bot.stop()


def wait_and_read(bots: Sequence[LineBot], timeout: float) -> bool:
    """Wait in the kernel until one of ``bots`` has sent a whole line (or ended), or
    ``timeout`` seconds pass; read and stamp every bot whose output is ready as it is,
    before anything else.

    The stamp is taken right after each read (:meth:`LineBot.pump`), so the time a bot is
    charged ends when its bytes were in the pipe, as early as the referee can know it;
    the referee's own work (stderr, the game's rules, the other seats) comes after the
    stamps. Every bot's stderr is drained meanwhile (a bounded amount per wake-up), so
    none blocks on a full log pipe.

    Returns at once when a bot already holds a complete line: an earlier :meth:`LineBot.pump`
    (the referee reads every seat's output while the rules read one seat's) may have taken
    it from the pipe, and the kernel would not wake for it. Whether it waited (then every
    bot's output was read, or found empty, as it returned).
    """
    if any(b.lines for b in bots):
        return False
    poller = select.poll()
    outs = {b.fileno(): b for b in bots if not b.closed and b.flood is None}
    logs = {fd: b for b in bots if (fd := b.log_fileno()) is not None}
    exits = {fd: b for b in outs.values() if (fd := b.exit_fileno()) is not None}
    for fd in [*outs, *logs, *exits]:
        poller.register(fd, select.POLLIN)
    deadline = time.perf_counter() + timeout
    while outs:
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            return False
        try:
            events = poller.poll(remaining * 1000.0)  # milliseconds, rounded up
        except InterruptedError:
            continue
        ready = [outs[fd] for fd, _ in events if fd in outs]
        if ready:
            # Read once for every bot, as poll returned: the others had sent nothing then,
            # so the referee's wait for a CPU until then (woken by another bot) cannot
            # have delayed their stamps; the bots read below are found empty just after
            # (a wait in between would only excuse them more).
            looked = own_wait_ns()
            for bot in ready:
                bot.pump(looked)  # stamps first
            for bot in outs.values():
                if bot not in ready:
                    bot.mark_empty(looked)
        ended = [exits[fd] for fd, _ in events if fd in exits]
        for bot in ended:
            bot.exited()  # an exit with its stdout still held open by a child it left
        for fd, _ in events:
            if fd in logs:
                logs[fd].pump_log()
                if logs[fd].log_fileno() is None:
                    poller.unregister(fd)
                    del logs[fd]
        if ended or not events or any(b.lines or b._eof or b.flood is not None for b in ready):
            return True
        # Only part of a line came (a bot writing its answer in pieces: Python's print
        # under PYTHONUNBUFFERED writes each argument apart): wait on for the rest here,
        # its stamp taken as its end is read, as before.
    return False


def drain_logs(
    bots: Sequence[LineBot],
    quiet: float = END_QUIET_S,
    most: float = END_DRAIN_S,
) -> None:
    """At the end of a game, read each bot's stderr until the bot waits for input (it has
    said all it had to: no wait at all for a bot already waiting), or has written nothing
    for ``quiet`` seconds, or ``most`` seconds have passed; so what a bot logs after its
    last answer is kept before it is killed. Bounded in time, and in size by the caps.
    """
    now = time.perf_counter()
    end = now + most
    heard = {id(b): now for b in bots}
    todo = [b for b in bots if not b.stopped and b.log_fileno() is not None]
    pause = READY_FIRST_POLL_S
    while todo:
        now = time.perf_counter()
        left = []
        for bot in todo:
            done = bot.waiting_for_input()  # first: what it wrote before is in the pipe
            bot.pump_log()
            if bot.log_fileno() is None or done or now - heard[id(bot)] >= quiet:
                continue
            left.append(bot)
        todo = left
        if not todo or now >= end:
            return
        poller = select.poll()
        fds = {}
        for bot in todo:
            fd = bot.log_fileno()
            if fd is not None:
                fds[fd] = bot
                poller.register(fd, select.POLLIN)
        try:
            events = poller.poll(min(pause, end - now) * 1000.0)
        except InterruptedError:
            continue
        for fd, _ in events:
            heard[id(fds[fd])] = time.perf_counter()
        pause = min(2 * pause, END_POLL_S)
