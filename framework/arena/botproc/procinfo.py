"""The process table, read from ``/proc``: children, descendants, sessions, owners.

Every folder and cgroup arena creates for a game carries an *owner tag*, ``<pid>.<start>``
(the creating process and its start time in clock ticks since boot), so that a later run
can tell leftovers of a process that is gone from those of one still running, even after
the pid was reused.
"""

from __future__ import annotations

import os
import re

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


def waiting_on_pipe(pid: int) -> bool:
    """Whether the processes of ``pid``'s tree are idle waiting to read a pipe: no thread
    runs and one sleeps in the kernel's pipe read (its ``wchan``). A bot blocked reading
    its input has written everything it had to say. False when unknown (no ``/proc``
    access, a kernel that hides ``wchan``).
    """
    reading = False
    for proc in [pid, *descendants(pid)]:
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
                return False
            if state not in ("S", "Z", "X"):
                return False  # running, or in an uninterruptible wait (a write...)
            reading = reading or wchan.endswith(("pipe_read", "pipe_wait"))
    return reading


def exit_fd(pid: int) -> int | None:
    """A descriptor that becomes readable when process ``pid`` exits (a pidfd; None where
    the kernel or Python has none)."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None
