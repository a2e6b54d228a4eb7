"""Control groups of bots: pids, memory and CPU caps per bot, and the kill of all it started.

Where the machine lets arena create cgroups (as root on cgroup v1 or v2, or in a delegated
v2 subtree), every bot gets its own group. The bot's launcher joins it before the bot's
first instruction (``launcher.py``), so bubblewrap and everything the bot starts are inside:
a fork bomb meets ``pids.max``, memory (tmpfs and shm pages included) meets the memory
limit, and at the end every process of the group is killed, orphans and escapees included.

With the ``cpu`` controller, a bot's processes together get one core's worth of CPU
(``cpu.max``, v1 ``cpu.cfs_quota_us``) at a weight above other work's (``cpu.weight``,
v1 ``cpu.shares``): children a bot starts, whatever session they enter, compete with that
bot alone, never with its opponent. The group's CPU time (``cpu.stat``, v1
``cpuacct.usage``) is what ``clock: cpu`` charges.

Groups are created below the cgroup arena itself runs in when that works (so they nest
under whatever limits the machine gives arena), else at the hierarchy's root. Their names,
``arena-<owner tag>-<n>``, let a later run remove what a killed one left behind.
"""

from __future__ import annotations

import contextlib
import fcntl
import itertools
import os
import re
import select
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.botproc import procinfo
from arena.botproc.pressure import LIMIT_FILES as MEMORY_LIMIT_FILES
from arena.botproc.pressure import (
    USAGE_FILES,
    MemoryUse,
    PressureFiles,
    WaitCounters,
    limit_hits,
    storage_use,
)
from arena.botproc.procwatch import ProcFile
from arena.cores import given, held_elsewhere

PREFIX = "arena-"
LEGACY_NAME = re.compile(r"arena-(\d+)-\d+$")
KILL_ALL_S = 0.2
"""How long :meth:`BotCgroup.kill_all` keeps killing a group that does not empty."""


@dataclass(frozen=True)
class CgroupParents:
    """Where arena can create bot groups: the parent folder per controller (None: unusable).

    On cgroup v2 both are the same folder (a process belongs to one group only).
    """

    version: int
    pids: Path | None
    memory: Path | None
    cpu: Path | None = None
    cpuacct: Path | None = None  # v1 only: on v2 the cpu group's cpu.stat counts CPU time
    cpuset: Path | None = None  # where bots can be given cores of their own
    pressure: Path | None = None
    """Where a bot's group has PSI files of its own (its waits: see
    :mod:`~arena.botproc.pressure`): on v2 the groups' folder; on v1, the root of the v2
    hierarchy mounted beside it, where each bot gets a threaded group for its PSI only
    (:data:`PSI_JOIN`), when arena itself runs in that root."""

    def folders(self) -> list[Path]:
        """The distinct parent folders."""
        found = (self.pids, self.memory, self.cpu, self.cpuacct, self.cpuset, self.pressure)
        return list(dict.fromkeys(p for p in found if p is not None))

    def describe(self) -> str:
        """E.g. ``cgroups v1: pids, memory, cpu``."""
        pairs = (
            ("pids", self.pids),
            ("memory", self.memory),
            ("cpu", self.cpu),
            ("cpuset", self.cpuset),
        )
        names = [n for n, p in pairs if p is not None]
        return f"cgroups v{self.version}: {', '.join(names)}"


_parents: CgroupParents | bool | None = False  # False: not probed yet in this process
_counter = itertools.count()


def parents() -> CgroupParents | None:
    """Where this process can create bot groups, or None (probed once per process, or
    handed over by the process that started this one: :func:`adopt`)."""
    global _parents
    if _parents is False:
        _parents = _probe()
    return _parents if isinstance(_parents, CgroupParents) else None


def adopt(found: CgroupParents | None) -> None:
    """Take another process's :func:`parents` (same machine and user) unless probed here."""
    global _parents
    if _parents is False:
        _parents = found


def parents_to_json(found: CgroupParents | None) -> Any:
    """The cgroup parents as JSON values (for :mod:`arena.hostcache`)."""
    if found is None:
        return None
    paths = (found.pids, found.memory, found.cpu, found.cpuacct, found.cpuset, found.pressure)
    return [found.version, *[str(p) if p is not None else None for p in paths]]


def parents_from_json(value: Any) -> CgroupParents | None:
    """The cgroup parents back, or None; raises ValueError for anything else, or when a
    cached folder is gone."""
    if value is None:
        return None
    version, *paths = value
    if len(paths) != 6:
        raise ValueError("not a cgroup parents entry")
    found = CgroupParents(int(version), *[Path(p) if p is not None else None for p in paths])
    if not all(folder.is_dir() for folder in found.folders()):
        raise ValueError("a cgroup parent is gone")
    return found


def _mounts() -> tuple[Path | None, dict[str, tuple[Path, str]]]:
    """The cgroup2 mount point, and each v1 controller's (mount point, root in hierarchy)."""
    unified: Path | None = None
    v1: dict[str, tuple[Path, str]] = {}
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return None, v1
    for line in lines:
        left, _, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if len(fields) < 5 or len(tail) < 3:
            continue
        root, mount = fields[3], Path(fields[4].replace("\\040", " "))
        if tail[0] == "cgroup2" and unified is None:
            unified = mount
        elif tail[0] == "cgroup":
            for option in tail[2].split(","):
                if option in CONTROLLERS:
                    v1[option] = (mount, root)
    return unified, v1


def _own_paths() -> dict[str, str]:
    """This process's group per v1 controller, and ``""`` for the v2 group."""
    out: dict[str, str] = {}
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return out
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        if parts[0] == "0" and parts[1] == "":
            out[""] = parts[2]
        for name in parts[1].split(","):
            out[name] = parts[2]
    return out


def _under(mount: Path, root: str, path: str | None) -> Path | None:
    if path is None or not (path + "/").startswith(root.rstrip("/") + "/"):
        return None
    rel = path[len(root.rstrip("/")) :].lstrip("/")
    return mount / rel if rel else None


CONTROLLERS = ("pids", "memory", "cpu", "cpuacct", "cpuset")


def _probe() -> CgroupParents | None:
    unified, v1 = _mounts()
    own = _own_paths()
    found: dict[str, Path] = {}
    for controller in CONTROLLERS:
        if controller not in v1:
            continue
        mount, root = v1[controller]
        for folder in (_under(mount, root, own.get(controller)), mount):
            if folder is not None and _usable(folder, controller, 1):
                found[controller] = folder
                break
    if found.keys() & {"pids", "memory"}:
        cpu = found.get("cpu")
        acct = found.get("cpuacct") if cpu is not None else None
        pids, memory, cpuset = found.get("pids"), found.get("memory"), found.get("cpuset")
        # Beside v1: threaded groups of the v2 root (a thread moves within its threaded
        # domain only: this process must be in the root; another's group is not changed).
        psi = unified is not None and own.get("", "/") == "/" and _usable(unified, "psi", 2)
        pressure = unified if psi else None
        return CgroupParents(1, pids, memory, cpu, acct, cpuset, pressure)
    if unified is None:
        return None
    for folder in (_under(unified, "/", own.get("")), unified):
        if folder is None:
            continue
        kinds = ("pids", "memory", "cpu", "cpuset", "pressure")
        usable = [c for c in kinds if _usable(folder, c, 2)]
        if "pids" in usable:
            memory = folder if "memory" in usable else None
            cpu = folder if "cpu" in usable else None
            cpuset = folder if "cpuset" in usable else None
            pressure = folder if "pressure" in usable else None
            return CgroupParents(2, folder, memory, cpu, None, cpuset, pressure)
    return None


PSI_JOIN = "cgroup.threads"
"""How a launcher joins its PSI group beside cgroup v1: a threaded group of the v2 root,
joined by its one thread, as v1's ``tasks`` (a v2 ``cgroup.procs`` move waits for an RCU
grace period after idle: 6 to 40 ms here)."""

JOIN_FILES = {1: "tasks", 2: "cgroup.procs"}
"""The file a launcher writes ``0`` (itself) to, to join a group, per cgroup version.

On v1, ``tasks`` moves the writing thread alone, which is the whole launcher: a shell, or
the referee's child between fork and exec, has one thread. Moving a whole process
(``cgroup.procs``) takes the kernel's global threadgroup lock, whose writer waits for an
RCU grace period unless another move happened moments before: 6 to 16 ms more for a
game's first bot (``bench/protections.py``). Moving only the current thread skips that
lock. On v2 a domain group is joined through ``cgroup.procs`` only."""

LIMIT_FILES = {
    (1, "pids"): "pids.max",
    (2, "pids"): "pids.max",
    (1, "memory"): "memory.limit_in_bytes",
    (2, "memory"): "memory.max",
    (1, "cpu"): "cpu.cfs_quota_us",
    (2, "cpu"): "cpu.max",
    (1, "cpuacct"): "cpuacct.usage",
    (1, "cpuset"): "cpuset.cpus",
    (2, "cpuset"): "cpuset.cpus",
    (2, "pressure"): "cpu.pressure",  # any v2 group's, where the kernel has PSI
}

CPU_PERIOD_US = 10_000
"""The period of a bot's CPU quota: short, so a bot whose children spin is held back
within 10 ms, not 100 (the kernel's default)."""
RT_RUNTIME_US = 100_000
"""Real-time run time per second a bot's group may use on cgroup v1 (where the kernel
gives groups none by default): 10%, as the whole machine gets 95%."""
CPU_WEIGHT = 10_000
"""A bot's group's ``cpu.weight`` (v2; the kernel's most), 100 times a process outside
arena's groups: a thinking bot gets its whole core against background work (plain
processes spinning on every core included), and the clock notes whatever wait remains
(``stall``). Its quota (one core's worth) bounds what it can take; a bot waiting for its
input takes nothing, so the rest of the machine has every core between turns."""
CPU_SHARES = 262_144
"""The same on cgroup v1 (``cpu.shares``, the kernel's most): 256 times a process outside
arena's groups."""


def _usable(folder: Path, controller: str, version: int) -> bool:
    """Whether a child group of ``folder`` gets ``controller`` and a process can join it."""
    if version == 2 and controller not in ("pressure", "psi"):  # PSI needs no controller
        try:
            enabled = (folder / "cgroup.subtree_control").read_text().split()
        except OSError:
            return False
        if controller not in enabled:
            # Possible at the root, or in a delegated group without processes of its own.
            with contextlib.suppress(OSError):
                (folder / "cgroup.subtree_control").write_text(f"+{controller}")
    probe = folder / f"{PREFIX}{procinfo.owner_tag()}-probe{controller}"
    try:
        probe.mkdir()
    except FileExistsError:
        pass
    except OSError:
        return False
    try:
        if controller == "cpuset" and version == 1:
            _inherit_cpuset(probe)  # an empty v1 cpuset cannot be joined
        if controller in ("pressure", "psi"):  # present but turned off: cgroup.pressure 0
            join = probe / JOIN_FILES[version]
            if controller == "psi":
                (probe / "cgroup.type").write_text("threaded")
                join = probe / PSI_JOIN
            readable = (probe / "cpu.pressure").read_bytes().startswith(b"some ")
            return readable and _can_join(join)
        return (probe / LIMIT_FILES[version, controller]).exists() and _can_join(
            probe / JOIN_FILES[version]
        )
    except OSError:
        return False
    finally:
        with contextlib.suppress(OSError):
            probe.rmdir()


def _inherit_cpuset(group: Path, cpus: str | None = None) -> None:
    """Give a new v1 cpuset group its parent's memory nodes, and ``cpus`` (default: the
    parent's CPUs): v1 creates it with none, and nothing can join it then."""
    parent = group.parent
    (group / "cpuset.mems").write_text((parent / "cpuset.mems").read_text().strip())
    (group / "cpuset.cpus").write_text(cpus or (parent / "cpuset.cpus").read_text().strip())


def _can_join(join_file: Path) -> bool:
    """Fork a child that joins a group through ``join_file`` and exits: the permission
    checks of a real join."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child
        code = 1
        try:
            fd = os.open(join_file, os.O_WRONLY)
            os.write(fd, b"0")
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


class BotCgroup:
    """The group(s) of one bot: pids and memory caps, OOM count, kill of every member."""

    def __init__(self, dirs: list[Path], memory_dir: Path | None, version: int) -> None:
        self.dirs = dirs
        self.memory_dir = memory_dir
        self.version = version
        self.cpu_dir: Path | None = None
        self.acct_dir: Path | None = None
        self.final_oom_kills: int | None = None
        self._cpu_file: ProcFile | None = None  # opened at the first cpu_ns()
        self.pressure_dir: Path | None = None  # its v2 group with PSI files, if any
        self._pressure: PressureFiles | None = None  # opened at the first counters()
        self._limit_files: list[ProcFile] | None = None

    @classmethod
    def create(
        cls,
        max_processes: int | None,
        memory_mb: int | None,
        cpus: float | None = 1.0,
        core: int | None = None,
    ) -> BotCgroup | None:
        """A new group capped at ``max_processes``, ``memory_mb`` and ``cpus`` cores' worth
        of CPU (None: no CPU cap), confined to CPU ``core`` where given (a cpuset; see
        :func:`claim_cores`); None where unsupported.

        The pids group is made even without a cap: it is how the end of the game finds every
        process the bot started. The memory group only with a cap; the cpu group wherever
        the controller is available (it also counts the bot's CPU time).
        """
        found = parents()
        if found is None:
            return None
        name = f"{PREFIX}{procinfo.owner_tag()}-{next(_counter)}"
        wanted: dict[Path, list[str]] = {}
        for controller, parent in (
            ("pids", found.pids),
            ("memory", found.memory if memory_mb else None),
            ("cpu", found.cpu),
            ("cpuacct", found.cpuacct),
            ("cpuset", found.cpuset if core is not None else None),
            ("pressure", found.pressure),
        ):
            if parent is not None:
                wanted.setdefault(parent, []).append(controller)
        group = cls([], None, found.version)
        try:
            for parent, controllers in wanted.items():
                path = parent / name
                path.mkdir()
                group.dirs.append(path)
                if "pids" in controllers and max_processes:
                    (path / "pids.max").write_text(str(max_processes))
                if "memory" in controllers and memory_mb:
                    group.memory_dir = path
                    group._cap_memory(memory_mb * 1024 * 1024)
                if "cpu" in controllers:
                    group.cpu_dir = path
                    group._cap_cpu(cpus)
                if "cpuacct" in controllers:
                    group.acct_dir = path
                if "pressure" in controllers:
                    group.pressure_dir = path
                    if found.version == 1:
                        (path / "cgroup.type").write_text("threaded")
                if "cpuset" in controllers:
                    if found.version == 1:
                        _inherit_cpuset(path, str(core))
                    else:
                        (path / "cpuset.cpus").write_text(str(core))
        except OSError:
            group.remove()
            return None
        return group if group.dirs else None

    def _cap_cpu(self, cpus: float | None) -> None:
        assert self.cpu_dir is not None
        d = self.cpu_dir
        quota = -1 if not cpus else max(1000, int(cpus * CPU_PERIOD_US))
        if self.version == 2:
            (d / "cpu.weight").write_text(str(CPU_WEIGHT))
            (d / "cpu.max").write_text(f"{'max' if quota < 0 else quota} {CPU_PERIOD_US}")
        else:
            (d / "cpu.shares").write_text(str(CPU_SHARES))
            (d / "cpu.cfs_period_us").write_text(str(CPU_PERIOD_US))
            (d / "cpu.cfs_quota_us").write_text(str(quota))
            # Real-time scheduling needs run time in its group (v1 RT group scheduling):
            # a share of the parent's, as far as it goes (none: the bot stays SCHED_OTHER).
            with contextlib.suppress(OSError):
                (d / "cpu.rt_runtime_us").write_text(str(RT_RUNTIME_US))

    def cpu_ns(self) -> int | None:
        """CPU time used so far by every process that was ever in the group (None: not
        counted here). Read through a descriptor kept open (one ``pread``)."""
        if self._cpu_file is None:
            if self.acct_dir is not None:
                self._cpu_file = ProcFile(str(self.acct_dir / "cpuacct.usage"))
            elif self.version == 2 and self.dirs:
                self._cpu_file = ProcFile(str(self.dirs[0] / "cpu.stat"))
            else:
                return None
        text = self._cpu_file.read()
        if not text:
            return None
        try:
            if self.acct_dir is not None:
                return int(text)
            for line in text.splitlines():
                if line.startswith(b"usage_usec "):
                    return int(line.split()[1]) * 1000
        except ValueError:
            pass
        return None

    def threads(self) -> list[int]:
        """Every thread of every process in the group now (empty if unknown)."""
        name = "tasks" if self.version == 1 else "cgroup.threads"
        for d in self.dirs[:1]:
            with contextlib.suppress(OSError, ValueError):
                return [int(t) for t in (d / name).read_text().split()]
        return []

    def _cap_memory(self, limit: int) -> None:
        assert self.memory_dir is not None
        d = self.memory_dir
        if self.version == 2:
            (d / "memory.max").write_text(str(limit))
            # Swap would let the bot hold more than the cap; one OOM kill takes the group.
            for name, value in (("memory.swap.max", "0"), ("memory.oom.group", "1")):
                with contextlib.suppress(OSError):
                    (d / name).write_text(value)
        else:
            (d / "memory.limit_in_bytes").write_text(str(limit))
            with contextlib.suppress(OSError):  # only with swap accounting
                (d / "memory.memsw.limit_in_bytes").write_text(str(limit))

    @property
    def join_files(self) -> tuple[str, ...]:
        """The files a single-threaded launcher writes ``0`` to, to join the group
        (:data:`JOIN_FILES`; on v1, the threaded group for PSI through :data:`PSI_JOIN`)."""
        psi = self.pressure_dir if self.version == 1 else None
        own = JOIN_FILES[self.version]
        return tuple(str(d / (PSI_JOIN if d == psi else own)) for d in self.dirs)

    def counters(self, pids: list[int]) -> WaitCounters:
        """What the kernel counted for the bot so far beyond its run-queue waits (see
        :mod:`~arena.botproc.pressure`): its group's PSI totals (None without them), its
        memory cgroup's limit events and use, and, where its PSI is seen, what ``pids``
        read from and wrote to storage. A few ``pread`` of files kept open."""
        if self._pressure is None and self.pressure_dir is not None:
            self._pressure = PressureFiles(self.pressure_dir)
        own = self._pressure.read() if self._pressure is not None else None
        if self._limit_files is None:
            names = (*MEMORY_LIMIT_FILES[self.version], *USAGE_FILES[self.version])
            folder = self.memory_dir
            self._limit_files = [ProcFile(f"{folder}/{n}") for n in names] if folder else []
        memory = None
        if self._limit_files:
            texts = [f.read() for f in self._limit_files]
            hits = limit_hits(texts[:-3], self.version)
            use = [_bytes(text) for text in texts[-3:]]
            memory = MemoryUse(hits, *use)
        storage = storage_use(pids) if own is not None else None
        return WaitCounters(own, memory, storage)

    def members(self) -> set[int]:
        """Every process in the group now."""
        found: set[int] = set()
        for d in self.dirs:
            with contextlib.suppress(OSError, ValueError):
                found.update(int(p) for p in (d / "cgroup.procs").read_text().split())
        return found

    def oom_kills(self) -> int:
        """How many of the group's processes the memory cap killed so far."""
        if self.final_oom_kills is not None:
            return self.final_oom_kills
        if self.memory_dir is None:
            return 0
        name = "memory.events" if self.version == 2 else "memory.oom_control"
        with contextlib.suppress(OSError, ValueError):
            for line in (self.memory_dir / name).read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill":
                    return int(value)
        return 0

    def signal_all(self) -> set[int]:
        """SIGKILL every process in the group now, without waiting; those it found."""
        if self.version == 2 and self.dirs:
            with contextlib.suppress(OSError):  # cgroup.kill: Linux 5.14+
                (self.dirs[0] / "cgroup.kill").write_text("1")
        pids = self.members()
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        return pids

    def kill_all(self) -> None:
        """SIGKILL every process in the group until it is empty (bounded).

        Between rounds it waits at most 1 ms for the processes it signalled to exit, in the
        kernel (their pidfds): woken as soon as they are gone, not after a fixed sleep.
        """
        give_up = time.perf_counter() + KILL_ALL_S
        while pids := self.signal_all():
            if time.perf_counter() > give_up:
                return
            _wait_exit(pids, 0.001)

    def remove(self) -> None:
        """Kill every member, note the OOM count, then remove the group (idempotent)."""
        if not self.dirs:
            return
        self.kill_all()
        self.final_oom_kills = self.oom_kills()
        if self._cpu_file is not None:
            self._cpu_file.close()
        if self._pressure is not None:
            self._pressure.close()
        for f in self._limit_files or ():
            f.close()
        for d in self.dirs:
            _rmdir(d)
        self.dirs = []


def _bytes(text: bytes | None) -> int:
    """A memory cgroup file's byte count (0: unreadable, or ``max``: no limit)."""
    try:
        return int(text or b"0")
    except ValueError:
        return 0


def _wait_exit(pids: set[int], timeout: float) -> None:
    """Wait until every process of ``pids`` has exited, or ``timeout`` seconds passed.

    A killed process leaves its cgroup as it exits, when its pidfd becomes readable.
    Without pidfds (old kernels), simply sleeps ``timeout``.
    """
    fds: list[int] = []
    try:
        for pid in pids:
            try:
                fds.append(os.pidfd_open(pid))
            except ProcessLookupError:
                continue  # gone already
            except (AttributeError, OSError):
                time.sleep(timeout)
                return
        deadline = time.perf_counter() + timeout
        waiting = list(fds)
        while waiting and (left := deadline - time.perf_counter()) > 0:
            with contextlib.suppress(InterruptedError):
                ready, _, _ = select.select(waiting, [], [], left)
                waiting = [fd for fd in waiting if fd not in ready]
    finally:
        for fd in fds:
            os.close(fd)


def _rmdir(path: Path) -> None:
    for _ in range(1000):
        try:
            path.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.001)  # the last processes are still leaving the group


def leftovers(mine: bool = False) -> Iterator[Path]:
    """Groups named by arena whose owner is gone (a killed run), or (``mine``) is this process."""
    found = parents()
    if found is None:
        return
    me = procinfo.owner_tag()
    for folder in found.folders():
        with contextlib.suppress(OSError):
            for child in folder.iterdir():
                if not child.name.startswith(PREFIX):
                    continue
                alive = procinfo.owner_alive(child.name)
                if alive is None and (legacy := LEGACY_NAME.match(child.name)):
                    # arena-<pid>-<n>, named by earlier versions: the pid alone tells.
                    alive = os.path.exists(f"/proc/{legacy.group(1)}")
                if alive is False or (mine and procinfo.owner_of(child.name) == me):
                    yield child


def remove_leftovers(mine: bool = False) -> int:
    """Kill what still runs in leftover groups (see :func:`leftovers`), remove them; how many."""
    found = parents()
    stale = list(leftovers(mine))
    for path in stale:
        BotCgroup([path], None, found.version if found else 1).remove()
    return len(stale)


# -- cores of their own: cpusets -------------------------------------------------------

_SHM = "/dev/shm" if os.path.isdir("/dev/shm") else "/tmp"
CORE_LOCKS = Path(_SHM) / f"arena-cores-{os.getuid()}"
"""One lock file per CPU: a game holds the locks of the cores its bots are confined to, so
games in other processes (and other runs) give their bots other cores."""


@dataclass
class CoreClaim:
    """Cores a game holds for its bots (one per seat, in seat order) while it plays."""

    cores: list[int]
    fds: list[int]

    def release(self) -> None:
        """Give the cores back (idempotent)."""
        for fd in self.fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        self.fds = []


def _cpu_list(text: str) -> list[int]:
    """``0-2,5`` as [0, 1, 2, 5]."""
    found: list[int] = []
    for part in text.strip().split(","):
        if not part:
            continue
        low, _, high = part.partition("-")
        found += range(int(low), int(high or low) + 1)
    return found


def machine_cores() -> list[int]:
    """The CPUs bots' cpusets can be given (the cpuset arena's groups are created in)."""
    found = parents()
    if found is None or found.cpuset is None:
        return []
    for name in ("cpuset.effective_cpus", "cpuset.cpus.effective", "cpuset.cpus"):
        with contextlib.suppress(OSError, ValueError):
            cores = _cpu_list((found.cpuset / name).read_text())
            if cores:
                return cores
    return []


def _lock(core: int) -> int | None:
    """The lock of ``core``, held (an open descriptor), or None when another holds it."""
    try:
        CORE_LOCKS.mkdir(mode=0o700, exist_ok=True)
        fd = os.open(CORE_LOCKS / f"core-{core}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def claim_cores(n: int) -> CoreClaim | None:
    """A core of its own for each of ``n`` bots, none held by another game: the cores the
    machine's ledger gave this game (:func:`arena.cores.given`) where they are enough and
    free here, else the highest free ones; None when there are not that many free (the
    bots then share every core) or no cpuset controller."""
    order = sorted(machine_cores(), reverse=True)
    ledger = [c for c in given() or () if c in order]
    if len(ledger) >= n:
        claim = _claim(ledger, n)
        if claim is not None:
            return claim
    return _claim(order, n)


def _claim(order: list[int], n: int) -> CoreClaim | None:
    """``n`` cores of ``order`` (tried in that order) whose locks are free, or None."""
    claim = CoreClaim([], [])
    for core in order:
        if len(claim.cores) == n:
            break
        fd = _lock(core)
        if fd is not None:
            claim.cores.append(core)
            claim.fds.append(fd)
    if n and len(claim.cores) == n:
        return claim
    claim.release()
    return None


def free_cores() -> set[int]:
    """The CPUs no game holds for its bots now, here or in the machine's ledger (where the
    referee may run)."""
    free = set()
    held = held_elsewhere()
    for core in set(machine_cores()) - held:
        fd = _lock(core)
        if fd is not None:
            free.add(core)
            os.close(fd)
    return free
