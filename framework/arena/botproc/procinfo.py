"""The process table, read from ``/proc``: children, descendants, sessions, owners.

Every folder and cgroup arena creates for a game carries an *owner tag*, ``<pid>.<start>``
(the creating process and its start time in clock ticks since boot), so that a later run
can tell leftovers of a process that is gone from those of one still running, even after
the pid was reused.
"""

from __future__ import annotations

import os
import re
import threading

_OWNER = re.compile(r"(?:^|-)(\d+)\.(\d+)-[a-z0-9_]+$")


def children(pid: int) -> list[int]:
    """Direct children of ``pid`` from /proc/<pid>/task/*/children (empty if gone)."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                found += [int(c) for c in f.read().split()]
        except OSError:
            continue
    return found


def descendants(root: int) -> list[int]:
    """Every live process below ``root``, walking the kernel's children lists."""
    found: list[int] = []
    todo = [root]
    while todo:
        for child in children(todo.pop()):
            found.append(child)
            todo.append(child)
    return found


def _stat_fields(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return None
    # The command name (field 2) may hold spaces and parentheses: split after the last ")".
    return text.rsplit(")", 1)[1].split()


def start_time(pid: int) -> int | None:
    """When ``pid`` started (clock ticks since boot), or None if there is no such process."""
    fields = _stat_fields(pid)
    return int(fields[19]) if fields else None


def session_of(pid: int) -> int | None:
    """The session id of ``pid`` (None if gone)."""
    fields = _stat_fields(pid)
    return int(fields[3]) if fields else None


def is_zombie(pid: int) -> bool:
    """Whether ``pid`` has exited and waits to be reaped (or is gone)."""
    fields = _stat_fields(pid)
    return fields is None or fields[0] in ("Z", "X")


def owner_tag(pid: int | None = None) -> str:
    """``<pid>.<start time>`` of this process (or ``pid``): names what it creates."""
    pid = os.getpid() if pid is None else pid
    return f"{pid}.{start_time(pid) or 0}"


def owner_of(name: str) -> str | None:
    """The owner tag that ends ``name`` (``...-<tag>-<suffix>``), or None."""
    match = _OWNER.search(name)
    return f"{match.group(1)}.{match.group(2)}" if match else None


def owner_alive(name: str) -> bool | None:
    """Whether the process whose owner tag ends ``name`` (``...-<tag>-<suffix>``) still runs.

    None when ``name`` holds no owner tag (not ours to judge).
    """
    match = _OWNER.search(name)
    if match is None:
        return None
    pid, started = int(match.group(1)), int(match.group(2))
    return start_time(pid) == started


POLL_WAITS = ("ep_poll", "do_epoll_wait", "do_select", "core_sys_select", "do_sys_poll")
"""Kernel functions (``wchan``) of a thread sleeping until a descriptor is ready."""


def waiting_on_pipe(pid: int, polling: bool = False) -> bool:
    """Whether the processes of ``pid``'s tree are idle waiting to read a pipe: no thread
    runs and one sleeps in the kernel's pipe read (its ``wchan``), or with ``polling``
    in ``poll``, ``select`` or ``epoll`` (event-loop runtimes wait for their input so). A
    bot blocked reading its input has written everything it had to say. False when
    unknown (no ``/proc`` access, a kernel that hides ``wchan``).
    """
    return reading_input(pid, polling) is True


def reading_input(pid: int, polling: bool = True) -> bool | None:
    """Like :func:`waiting_on_pipe` (polling waits count by default), but None when it
    cannot be seen: a sleeping thread whose ``wchan`` the kernel hides, or no ``/proc``.

    The sandbox's processes above the bot (:data:`WRAPPERS`) are left out: they wait in
    ``poll`` or ``waitpid`` whatever the bot does."""
    reading = False
    root, found = main_process(pid)
    if not found:
        return None  # the sandbox has not started the bot yet
    for proc in [root, *descendants(root)]:
        try:
            tasks = os.listdir(f"/proc/{proc}/task")
        except OSError:
            continue  # gone meanwhile
        for tid in tasks:
            base = f"/proc/{proc}/task/{tid}"
            try:
                with open(f"{base}/stat") as f:
                    state = f.read().rsplit(")", 1)[1].split()[0]
                with open(f"{base}/wchan") as f:
                    wchan = f.read().strip()
            except (OSError, IndexError):
                return None
            if state not in ("S", "Z", "X"):
                return False  # running, or in an uninterruptible wait (a write...)
            if state == "S" and wchan in ("", "0"):
                return None  # hidden from us
            reading = (
                reading
                or wchan.endswith(("pipe_read", "pipe_wait"))
                or (polling and (wchan.startswith(POLL_WAITS) or "poll_schedule" in wchan))
            )
    return reading


def schedstat(tid: int, pid: int | None = None) -> tuple[int, int] | None:
    """(ns on a CPU, ns runnable but waiting in the run queue) of thread ``tid`` (of
    process ``pid`` when given) since it started: the first two fields of its
    ``schedstat``. None when it is gone or the kernel keeps no such count."""
    path = f"/proc/{tid}/schedstat" if pid is None else f"/proc/{pid}/task/{tid}/schedstat"
    try:
        with open(path) as f:
            fields = f.read().split()
        return int(fields[0]), int(fields[1])
    except (OSError, ValueError, IndexError):
        return None


WRAPPERS = ("bwrap", "setpriv", "unshare")
"""The programs a sandbox puts above a bot's own process (bubblewrap's, and ``unshare``'s
PID namespace without it): each waits for its one child, whatever the bot does."""


def main_process(pid: int, wrappers: tuple[str, ...] = WRAPPERS) -> tuple[int, bool]:
    """The bot's own process below ``pid``: down through ``wrappers`` (the sandbox's
    processes) while each has one child; and whether it is found for good (False while
    a wrapper has not started its child yet)."""
    for _ in range(8):
        try:
            with open(f"/proc/{pid}/comm") as f:
                name = f.read().strip()
        except OSError:
            return pid, False
        if name not in wrappers:
            return pid, True
        below = children(pid)
        if len(below) != 1:
            return pid, False
        pid = below[0]
    return pid, False


def threads_of(pid: int) -> list[int]:
    """The threads of process ``pid`` (empty if gone)."""
    try:
        return [int(t) for t in os.listdir(f"/proc/{pid}/task")]
    except (OSError, ValueError):
        return []


def tree_threads(pid: int) -> list[tuple[int, int]]:
    """(process, thread) of every thread of ``pid`` and its descendants now."""
    found: list[tuple[int, int]] = []
    for proc in [pid, *descendants(pid)]:
        try:
            found += [(proc, int(t)) for t in os.listdir(f"/proc/{proc}/task")]
        except (OSError, ValueError):
            continue
    return found


_own = threading.local()  # per thread: the descriptor of its schedstat


def _forget_own() -> None:
    """In a forked child: the descriptors kept are the parent's thread's."""
    global _own
    _own = threading.local()


os.register_at_fork(after_in_child=_forget_own)


def own_wait_ns() -> int:
    """How long the calling thread has waited in the run queue since it started (ns).

    Read through a descriptor kept open per thread (``pread`` of a ``/proc`` file makes
    the kernel write it afresh): well under a microsecond, so the referee can look at
    every read of a bot's output. A forked child opens its own."""
    fd = getattr(_own, "fd", None)
    try:
        if fd is None:
            fd = _own.fd = os.open("/proc/thread-self/schedstat", os.O_RDONLY | os.O_CLOEXEC)
        return int(os.pread(fd, 128, 0).split()[1])
    except (OSError, ValueError, IndexError):
        return 0


def exit_fd(pid: int) -> int | None:
    """A descriptor that becomes readable when process ``pid`` exits (a pidfd; None where
    the kernel or Python has none)."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None
