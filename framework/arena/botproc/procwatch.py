"""Cheap repeated looks at one process: ``/proc`` and cgroup files kept open, re-read with
one ``pread`` each.

The referee looks at a bot's process at every turn (is it back reading its input? what
did it use so far?). Opening, reading and closing a ``/proc`` file through Python's ``io``
costs 10-25 us; a ``pread`` at offset 0 of a descriptor kept open regenerates the file's
text in the kernel (``seq_file``) in about 1 us. A kept descriptor names the process it
was opened for, never a later process that reuses its pid: once that process is gone its
reads fail (None here), as opening the path would.

The usual look needs no ``/proc/<pid>/stat`` (the kernel sums every thread's times to
write it): the thread count is the link count of the kept ``task`` folder (``fstat``),
and a thread whose ``wchan`` names a function is asleep there (a running or runnable
thread shows ``0``).
"""

from __future__ import annotations

import contextlib
import os

from arena.botproc.procinfo import POLL_WAITS, reading_input


class ProcFile:
    """One file kept open for re-reading (None from :meth:`read` once it is unreadable)."""

    __slots__ = ("fd",)

    def __init__(self, path: str) -> None:
        try:
            self.fd: int | None = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            self.fd = None

    def read(self, size: int = 4096) -> bytes | None:
        """The file's text now (None: gone or unreadable)."""
        if self.fd is None:
            return None
        try:
            return os.pread(self.fd, size, 0)
        except OSError:
            return None

    def close(self) -> None:
        """Close the descriptor (idempotent)."""
        if self.fd is not None:
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.fd = None


class ProcessWatch:
    """A bot's own process (below any wrapper), watched through kept-open files.

    The fast paths hold for a process with one thread and no children (most bots); any
    other shape is looked at the slow, general way (:func:`~arena.botproc.procinfo.reading_input`,
    a listing of its threads), with the same answers.
    """

    def __init__(self, pid: int) -> None:
        self.pid = pid
        base = f"/proc/{pid}/task/{pid}"
        self._stat = ProcFile(f"/proc/{pid}/stat")
        self._wchan = ProcFile(f"{base}/wchan")
        self._children = ProcFile(f"{base}/children")
        self._schedstat = ProcFile(f"{base}/schedstat")
        try:
            self._tasks: int | None = os.open(
                f"/proc/{pid}/task", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
            )
        except OSError:
            self._tasks = None
        self.threads = 0  # as the latest look said (0: not looked yet, or gone)
        self.blocked = False  # the latest reading(): one thread, no child, waiting on a pipe

    def _count_threads(self) -> int:
        """Its threads now, noted in :attr:`threads` (0 once it is gone): the link count
        of its ``task`` folder is 2 plus its threads."""
        try:
            links = os.fstat(self._tasks).st_nlink if self._tasks is not None else 2
        except OSError:
            links = 2
        self.threads = max(0, links - 2)
        return self.threads

    def _state(self) -> str | None:
        """Its state letter (``R``, ``S``...); None if gone."""
        text = self._stat.read()
        if not text:
            return None
        return text.rsplit(b")", 1)[1].split(maxsplit=1)[0].decode()

    def reading(self, polling: bool = True) -> bool | None:
        """Whether the process and all it started are idle, waiting to read a pipe (or,
        with ``polling``, in ``poll``/``select``/``epoll``): ``reading_input`` of the
        process (:mod:`~arena.botproc.procinfo`), cheap with one thread and no children."""
        self.blocked = False
        if self._count_threads() != 1 or self._children.read() != b"":
            return reading_input(self.pid, polling)  # gone, threads or children
        # Asleep in a named function (a pipe's read or a poll: an interruptible sleep,
        # state S), or not asleep at all.
        wchan = (self._wchan.read() or b"").decode().strip()
        if wchan in ("", "0"):
            # Running or runnable (no wait to name), or its wait hidden from us: its
            # state tells which (asleep: hidden).
            state = self._state()
            return None if state == "S" else False
        self.blocked = wchan.endswith(("pipe_read", "pipe_wait")) or (
            polling and (wchan.startswith(POLL_WAITS) or "poll_schedule" in wchan)
        )
        return self.blocked

    def single_thread_schedstat(self, still: bool = False) -> tuple[int, int] | None:
        """(ns on a CPU, ns in the run queue) of its only thread, when it has one thread
        (None: look at every thread instead). ``still``: it has not run since
        :meth:`reading` found it :attr:`blocked` (its thread count is known then)."""
        if not (still and self.blocked) and self._count_threads() != 1:
            return None
        text = self._schedstat.read()
        if not text:
            return None
        fields = text.split()
        try:
            return int(fields[0]), int(fields[1])
        except (IndexError, ValueError):
            return None

    def close(self) -> None:
        """Close every kept descriptor."""
        for f in (self._stat, self._wchan, self._children, self._schedstat):
            f.close()
        if self._tasks is not None:
            with contextlib.suppress(OSError):
                os.close(self._tasks)
            self._tasks = None
