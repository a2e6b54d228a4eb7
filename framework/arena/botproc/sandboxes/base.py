"""What a sandbox is: its settings (:class:`Sandbox`) and what every backend does
(:class:`SandboxBackend`). The backends (``none.py``, ``bwrap.py``) and the table that
names them (``registry.py``) sit above this module; nothing here knows a backend.
"""

from __future__ import annotations

import functools
import os
import pwd
import resource
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from arena.botproc import cgroups
from arena.botproc.launcher import Launch
from arena.errors import ConfigError
from arena.limits import DISK_MB as DEFAULT_DISK_MB
from arena.limits import MAX_PROCESSES, SandboxKind

SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt")
"""What a sandboxed bot sees of the host, read-only (besides its own files)."""

ENV_KEEP = ("PATH", "LANG", "LANGUAGE", "TZ", "TERM")
"""Environment variables a sandboxed bot keeps (also ``LC_*`` and ``PYTHON*``)."""

FILE_SIZE_CAP_BYTES = 256 * 1024 * 1024
"""RLIMIT_FSIZE for persistent bots: no single file they write grows past this."""


class SandboxUnavailable(ConfigError):
    """A sandbox was asked for (``sandbox: bwrap``) where it does not work."""


@dataclass(frozen=True)
class HostFacts:
    """What this machine allows, probed once per run by the process that resolves the
    sandbox (:func:`~arena.botproc.sandboxes.registry.resolve_sandbox`) and sent with it
    to the worker processes, which then probe nothing: the sandbox backend's own probe
    (``(kind, result)``) and the cgroups."""

    probe: tuple[str, Any]
    cgroups: cgroups.CgroupParents | None


@dataclass(frozen=True)
class Sandbox:
    """How bot processes are confined (picklable: sent to worker processes).

    ``kind`` names the backend that confines them (see ``docs/sandbox.md``; ``auto`` only
    in a request a Dask worker resolves for its machine);
    :func:`~arena.botproc.sandboxes.registry.backend_of` gives its object. ``memory_mb``
    caps a bot's memory: through its memory cgroup (all its processes, tmpfs and shm
    pages included) where there is one, else the address space of each process; it also
    sizes the bot's private tmpfs folders. ``max_processes`` caps how many processes a
    bot may run at once, where a pids cgroup is available. ``hide`` lists folders (the
    tournament's output) a sandboxed bot must never see even when they lie inside
    something it is shown.

    ``disk_mb`` caps what a bot writes: its private ``/tmp`` and ``/dev/shm`` are tmpfs
    of that size each, and a bot that keeps one process for the game (a line-protocol
    bot) gets its directory on its ``/tmp`` tmpfs (or one of its own), not on the host's
    disk. Those files are memory: with a memory cgroup, they count against ``memory_mb``.
    """

    kind: SandboxKind = "none"
    memory_mb: int | None = None
    hide: tuple[str, ...] = ()
    max_processes: int | None = MAX_PROCESSES
    disk_mb: int | None = DEFAULT_DISK_MB
    facts: HostFacts | None = field(default=None, compare=False, repr=False)
    files: str = "folder"
    """What a sandboxed bot sees of its own files: ``folder``, the folder of the program
    its command runs (:func:`~arena.botproc.commands.bot_folder`) besides the files the
    command names, or ``named``, those files alone."""
    read_only: tuple[str, ...] = ()
    """More host files and folders (absolute paths) every bot sees, read-only."""
    build: bool = False
    """A build's sandbox: no other bot runs beside it, so it may lock files (compilers'
    caches do), which bots may not (:mod:`arena.botproc.seccomp`)."""
    mounts: tuple[tuple[str, str], ...] = ()
    """(copy on this machine, path the bot sees it at), read-only: a Dask worker's copies
    of the ``read_only`` paths, shown where the tournament named them (only by a backend
    that :attr:`~SandboxBackend.shows_copies`)."""

    @property
    def tmpfs_bytes(self) -> int | None:
        """Size of each private tmpfs (the smaller of ``disk_mb`` and ``memory_mb``: its
        files are memory; None: the kernel's default)."""
        caps = [mb for mb in (self.disk_mb, self.memory_mb) if mb]
        return min(caps) * 1024 * 1024 if caps else None

    def rlimits(self, cgroup: cgroups.BotCgroup | None, file_cap: int) -> list[tuple[int, int]]:
        """The rlimits a bot starts with (each within arena's own hard limit)."""
        limits = [(resource.RLIMIT_FSIZE, file_cap), (resource.RLIMIT_CORE, 0)]
        if self.memory_mb and (cgroup is None or cgroup.memory_dir is None):
            limits.append((resource.RLIMIT_AS, self.memory_mb * 1024 * 1024))
        return [(limit, _within_hard_limit(limit, value)) for limit, value in limits]


class SandboxBackend(Protocol):
    """One way of confining bots (the model: tox 4's registered environments).

    Each backend probes once per process whether and how it works here, keeps that
    result itself (handed to worker processes in :class:`HostFacts`, and to later runs
    through :mod:`arena.hostcache`), and answers every question callers would otherwise
    answer by testing the sandbox's kind.
    """

    kind: SandboxKind
    title: str
    """Its name for the user (``bubblewrap``)."""
    isolates: bool
    """Bots are kept from each other and the host (the warning when ``auto`` falls back
    to one that does not)."""
    programs: tuple[str, ...]
    """Host programs its probe depends on (their files key the cached probe)."""
    launcher_on_top: bool
    """The bot's process tree starts with a launcher shell that becomes the sandbox (not
    the bot's own process until the sandbox's programs below it have exec'd)."""
    system_programs_first: bool
    """Bots see only the system folders of the host's ``PATH``: a build step's program
    there wins over one earlier in ``PATH``."""
    shows_copies: bool
    """It can show a file at another path than the host's (:attr:`Sandbox.mounts`)."""

    def probe(self) -> Any:
        """What this machine allows this backend (probed once per process, or adopted)."""

    def unusable(self) -> str | None:
        """Why it cannot confine bots here (None: it can)."""

    def adopt(self, found: Any) -> None:
        """Use another process's :meth:`probe` result where this one has not probed."""

    def cached(self) -> tuple[Any] | None:
        """The probe's result as a JSON value (one-item tuple), None where not probed."""

    def adopt_cached(self, value: Any) -> None:
        """Adopt a result :meth:`cached` gave (raises ValueError, TypeError, KeyError)."""

    def command(
        self,
        sandbox: Sandbox,
        argv: Sequence[str],
        workdir: Path,
        cgroup: cgroups.BotCgroup | None,
        file_cap: int,
        scratch: bool,
    ) -> tuple[list[str], Launch | None]:
        """How to start ``argv`` (in ``workdir``) with every limit in force before its
        first instruction: the command line to exec, and the step the child takes between
        fork and exec (None: nothing, so it starts with ``vfork``). See ``launcher.py``.

        ``scratch``: nothing outside the bot reads ``workdir`` while the process lives (a
        line-protocol bot), so it may be a fresh tmpfs of ``disk_mb`` instead of the
        host's folder."""

    def env(self, sandbox: Sandbox, workdir: Path) -> dict[str, str]:
        """The bot's environment."""

    def bot_ids(self, sandbox: Sandbox) -> tuple[int, int] | None:
        """(uid, gid) bots run as when not arena's own."""

    def describe(self, sandbox: Sandbox) -> str:
        """Its part of the sandbox line for the user (the protections it gives)."""


def _within_hard_limit(limit: int, value: int) -> int:
    """``value``, or this process's own hard limit where that is lower (it stays in force:
    only root may raise a hard limit, and a bot never gets more than arena has)."""
    hard = resource.getrlimit(limit)[1]
    return value if hard == resource.RLIM_INFINITY else min(value, hard)


def kept_env(key: str) -> bool:
    """Whether a sandboxed bot keeps the environment variable ``key``."""
    return key in ENV_KEEP or key.startswith(("LC_", "PYTHON"))


def user_name() -> str:
    """The name of arena's user (``uid N`` where it has none)."""
    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        return f"uid {os.getuid()}"


@functools.lru_cache(maxsize=1)
def nobody() -> tuple[int, int]:
    """The uid and gid of ``nobody`` (65534 where the name is unknown)."""
    try:
        entry = pwd.getpwnam("nobody")
        return entry.pw_uid, entry.pw_gid
    except KeyError:
        return 65534, 65534


def inside(path: str, folders: Sequence[str]) -> bool:
    """Whether ``path`` is one of ``folders`` or lies inside one."""
    return any(path == f or path.startswith(f.rstrip("/") + "/") for f in folders)
