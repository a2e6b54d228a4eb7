"""Waits beyond the run queue: what the kernel counted for a bot during a turn, and whose
doing each wait was.

The kernel's pressure stall information (PSI, Linux 4.20+) counts, per cgroup v2 group and
for the whole machine (``/proc/pressure``), the microseconds during which at least one task
waited for a CPU (``cpu``), for I/O (``io``: disk reads and writes, page faults that read
a file) or on memory (``memory``: reclaim, thrashing, compaction). Every bot has a v2 group
of its own where arena can make one (on cgroup v1 machines, in the v2 hierarchy mounted
beside it: :attr:`~arena.botproc.cgroups.CgroupParents.pressure`), so its stalls are its
own group's, from its launcher's start-up on.

A turn's waits are judged by :func:`turn_waits` from counters read as the turn's input was
sent and at its answer (or deadline): see ``docs/fair-time.md``. A wait is forgiven only
where the bot did not cause it: none is in a turn during which its memory cgroup met its
limit (it fills its own memory); memory stalls only with a memory cap of its own (else
they may be its own allocations); I/O stalls only in a turn during which it read and
wrote nothing to storage itself (it waited on others' I/O, not its own disk).

Kernel delay accounting (taskstats) is not used: it is off by default
(``kernel.task_delayacct``), its netlink interface needs ``CAP_NET_ADMIN``, and
``/proc/<pid>/stat`` shows only block I/O, in 10 ms ticks.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path

from arena.botproc.procwatch import ProcFile

KINDS = ("cpu", "io", "memory")
MACHINE = "/proc/pressure"


@dataclass(frozen=True)
class Pressure:
    """PSI ``some`` totals (us) at one instant: how long at least one task of the group (or
    of the machine) waited for a CPU, for I/O, on memory."""

    cpu: int
    io: int
    memory: int

    def since(self, before: Pressure) -> Pressure:
        """What was counted between ``before`` and this instant."""
        return Pressure(
            max(0, self.cpu - before.cpu),
            max(0, self.io - before.io),
            max(0, self.memory - before.memory),
        )


def some_total(text: bytes | None) -> int | None:
    """The ``total=`` of a PSI file's ``some`` line (its first), None if unreadable."""
    if not text or not text.startswith(b"some "):
        return None
    end = text.find(b"\n")
    at = text.find(b"total=", 0, end if end >= 0 else len(text))
    if at < 0:
        return None
    try:
        return int(text[at + 6 : end if end >= 0 else len(text)])
    except ValueError:
        return None


class PressureFiles:
    """The PSI files of one folder (a v2 group, or ``/proc/pressure``), kept open."""

    def __init__(self, folder: str | Path) -> None:
        prefix = "" if str(folder) == MACHINE else ".pressure"
        self._files = [ProcFile(f"{folder}/{kind}{prefix}") for kind in KINDS]

    def read(self) -> Pressure | None:
        """The totals now (None when any file is missing or unreadable)."""
        totals = [some_total(f.read(256)) for f in self._files]
        if any(total is None for total in totals):
            return None
        cpu, io, memory = totals
        assert cpu is not None and io is not None and memory is not None
        return Pressure(cpu, io, memory)

    def close(self) -> None:
        """Close every file (idempotent)."""
        for f in self._files:
            f.close()


_machine: PressureFiles | None = None


def machine_pressure() -> Pressure | None:
    """The whole machine's totals now (``/proc/pressure``; None without PSI)."""
    global _machine
    if _machine is None:
        _machine = PressureFiles(MACHINE)
    return _machine.read()


LIMIT_SLACK = 2 << 20
"""A memory cgroup within this (or 1/32 of its limit, the larger) of its limit is at it:
the kernel reclaims in batches, so a group that fills its memory stays just below it."""


@dataclass(frozen=True)
class MemoryUse:
    """A bot's memory cgroup at one instant (bytes): how often it met its limit (v2
    ``memory.events`` ``max``, ``high`` and ``oom``; v1 fail counts, which some kernels no
    longer keep), its usage now, its most so far, its limit."""

    hits: int
    usage: int
    peak: int
    limit: int

    def at_limit(self, value: int) -> bool:
        """Whether ``value`` bytes are at this group's limit (:data:`LIMIT_SLACK`)."""
        return self.limit > 0 and value >= self.limit - max(LIMIT_SLACK, self.limit // 32)


@dataclass(frozen=True)
class StorageUse:
    """Bytes a bot's processes (and the children each reaped) had read from and written
    to storage (``/proc/<pid>/io`` ``read_bytes``, ``write_bytes``)."""

    read: int
    written: int


@dataclass(frozen=True)
class WaitCounters:
    """What the kernel counted for one bot, beyond its run-queue waits, at one instant:
    its group's PSI totals (None: not visible here), its memory cgroup (None: no memory
    cap) and its storage reads and writes (None: not known)."""

    own: Pressure | None
    memory: MemoryUse | None = None
    storage: StorageUse | None = None


@dataclass(frozen=True)
class Waits:
    """A turn's waits as :func:`turn_waits` judged them (ms).

    ``run_queue``: how long a task of the bot's group (its start-up chain included) waited
    for a CPU; ``blocked``: how long it waited for I/O or on memory where that was not its
    own doing; ``own``: why none of its waits is forgiven ("": they may be)."""

    run_queue: float = 0.0
    blocked: float = 0.0
    own: str = ""


def turn_waits(before: WaitCounters | None, after: WaitCounters | None) -> Waits:
    """The waits of a turn from the counters read as it started and at its answer.

    Nothing is forgiven when its memory cgroup met its limit meanwhile (its limit events
    rose, or its usage reached its limit: it fills its own memory). Otherwise
    ``run_queue`` is its group's CPU stall, and ``blocked`` the larger of its memory
    stall (the machine reclaiming: with a memory cap of its own only, else it may be the
    bot's own allocations) and its I/O stall (only when it read and wrote nothing to
    storage itself meanwhile: it waited on others' I/O). The caller caps them by the time
    the bot's processes left their core unused (its own CPU time is never a wait).
    """
    if before is None or after is None:
        return Waits()
    mem_before, mem_after = before.memory, after.memory
    if mem_before is not None and mem_after is not None:
        if mem_after.hits > mem_before.hits:
            hits = mem_after.hits - mem_before.hits
            return Waits(own=f"its memory cgroup met its limit {hits} time(s) during the turn")
        reached = mem_after.at_limit(mem_after.peak) and not mem_before.at_limit(mem_before.peak)
        if reached or mem_after.at_limit(mem_after.usage):
            mib = mem_after.limit >> 20
            return Waits(own=f"it was at its memory limit ({mib} MiB) during the turn")
    if before.own is None or after.own is None:
        return Waits()
    own = after.own.since(before.own)
    memory = own.memory if mem_after is not None else 0
    # None (unknown) counts as having read or written.
    idle_disk = before.storage is not None and before.storage == after.storage
    io = own.io if idle_disk else 0
    return Waits(run_queue=own.cpu / 1000.0, blocked=max(io, memory) / 1000.0)


LIMIT_FILES = {2: ("memory.events",), 1: ("memory.failcnt", "memory.memsw.failcnt")}
"""The files that count how often a memory cgroup met its limit, per cgroup version."""
USAGE_FILES = {
    2: ("memory.current", "memory.peak", "memory.max"),
    1: ("memory.usage_in_bytes", "memory.max_usage_in_bytes", "memory.limit_in_bytes"),
}
"""A memory cgroup's usage now, its most so far and its limit, per cgroup version."""


def limit_hits(texts: list[bytes | None], version: int) -> int:
    """How often a memory cgroup met its limit, from its :data:`LIMIT_FILES` as read (a
    missing one counts nothing): v2 ``memory.events`` ``max``, ``high`` and ``oom``, the
    sum of v1's fail counts."""
    hits = 0
    for text in texts:
        if not text:
            continue
        with contextlib.suppress(ValueError):
            if version == 1:
                hits += int(text)
                continue
            for line in text.splitlines():
                key, _, value = line.partition(b" ")
                if key in (b"max", b"high", b"oom"):
                    hits += int(value)
    return hits


def storage_use(pids: list[int]) -> StorageUse | None:
    """What the processes ``pids`` (and the children each reaped) read from and wrote to
    storage so far (``/proc/<pid>/io``); None when one cannot be read."""
    read = written = 0
    for pid in dict.fromkeys(pids):
        try:
            with open(f"/proc/{pid}/io", "rb") as f:
                for line in f.read().splitlines():
                    if line.startswith(b"read_bytes:"):
                        read += int(line.split()[1])
                    elif line.startswith(b"write_bytes:"):
                        written += int(line.split()[1])
        except (OSError, ValueError, IndexError):
            return None
    return StorageUse(read, written)


def visibility_note(own_pressure: bool) -> str | None:
    """The note a run prints once where some waits are not visible (None: all are), given
    whether bots' groups have PSI files of their own."""
    machine = machine_pressure() is not None
    if own_pressure and machine:
        return None
    why = (
        "no pressure stall information here (Linux 4.20+ with CONFIG_PSI and psi=1)"
        if not machine
        else "bots have no cgroup v2 group of their own with PSI files (root, or a "
        "delegated cgroup v2 subtree)"
    )
    return (
        f"note: disk and memory waits are not visible ({why}): a turn they put over its "
        "budget is the bot's timeout; see docs/fair-time.md"
    )
