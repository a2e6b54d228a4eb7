"""What the machine allows, remembered until the next boot: probes' results cached.

Whether a sandbox backend works, where bot cgroups can be made and what a Python
interpreter shows of itself do not change while the machine runs the same kernel, user,
cgroup and programs; probing them costs milliseconds (forks, a test sandbox) at every
``arena`` command. This module only keeps the results, it knows no probe: the sandbox
backends (:mod:`arena.botproc.sandboxes`) and the cgroups name their facts and what they
depend on. The results are kept in the user's cache folder
(``$XDG_CACHE_HOME/arena`` or ``~/.cache/arena``, made mode 0700), each under the key of
what it depends on: the host's facts under the boot id, the user, arena's and Python's
versions and the files of the programs the probes run (path, size, time, inode: see
:func:`host_key`); the cgroups under all that and the process's own cgroup too (a new
terminal may start in another one: only the cgroups are probed again there). Any change
probes again. A few keys are kept at once, so commands started from different cgroups do
not throw each other's results away. A cache file that is not the user's own, is
writable by others, is a link or is of another format is never read.
``ARENA_NO_HOST_CACHE`` set to anything turns the cache off.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import stat
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

FORMAT = 4
"""The file's format: 1 (``host-facts.json``) kept one key and lost the cpuset parent; 2
knew no PID namespace for bots without bubblewrap; 3 named the facts of ``sandbox: none``
``private`` (now each backend's facts are under its name)."""
FILE_NAME = f"host-facts-{FORMAT}.json"
"""Named by its format: an arena of another format keeps its own file, not this one."""
MAX_KEYS = 16
"""Keys kept in the file at once; the least recently stored go first."""
CGROUP_FACTS = ("cgroups",)
"""The facts keyed on the process's own cgroup too; every other one on the host alone."""


def cache_dir() -> Path:
    """The user's cache folder for arena (not created here)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "arena"


def file_id(path: str | None) -> list[Any]:
    """What identifies a file's version: path, size, time, inode ([] for None)."""
    if path is None:
        return []
    try:
        st = os.stat(path)
    except OSError:
        return [path]
    return [path, st.st_size, st.st_mtime_ns, st.st_ino]


def boot_id() -> str | None:
    """This boot's id (None where the kernel does not say): nothing is cached past it."""
    try:
        with open("/proc/sys/kernel/random/boot_id") as f:
            return f.read().strip()
    except OSError:
        return None


def host_key(programs: Sequence[str]) -> str:
    """What the cached facts depend on, hashed: ``HOST/CGROUP``, the first part for the
    host's facts, the second for the cgroups ("" where the boot id is unknown).
    ``programs``: the programs the probes run (found in ``PATH``), their files in the key."""
    from arena.version import __version__

    boot = boot_id()
    try:
        with open("/proc/self/cgroup") as f:
            own_cgroup = f.read()
    except OSError:
        return ""
    if boot is None:
        return ""
    parts = [
        boot,
        os.getuid(),
        os.getgid(),
        __version__,
        sys.version,
        *[file_id(shutil.which(program)) for program in programs],
    ]
    host = hashlib.sha256(json.dumps(parts).encode()).hexdigest()
    cgroup = hashlib.sha256(json.dumps([host, own_cgroup]).encode()).hexdigest()
    return f"{host}/{cgroup}"


def _split(key: str) -> tuple[str, str] | None:
    host, _, cgroup = key.partition("/")
    return (host, cgroup) if host and cgroup else None


def _enabled() -> bool:
    return not os.environ.get("ARENA_NO_HOST_CACHE")


def _read() -> dict[str, Any]:
    """The cached entries by key ({} where there are none or the file is not safe)."""
    path = cache_dir() / FILE_NAME
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return {}
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o022:
            return {}
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = json.loads(f.read(1 << 20))
    except (OSError, ValueError):
        return {}
    finally:
        os.close(fd)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return {}
    entries = data.get("entries")
    if not isinstance(entries, dict):
        return {}
    return {k: v for k, v in entries.items() if isinstance(k, str) and isinstance(v, dict)}


def load(key: str) -> dict[str, Any] | None:
    """The facts cached under ``key`` (each part under its own), or None (none, another
    key, or not safe to read)."""
    parts = _split(key)
    if parts is None or not _enabled():
        return None
    entries = _read()
    host, cgroup = (entries.get(part) for part in parts)
    if host is None and cgroup is None:
        return None
    facts = {k: v for k, v in (host or {}).items() if k not in CGROUP_FACTS}
    facts.update({k: v for k, v in (cgroup or {}).items() if k in CGROUP_FACTS})
    return facts


def store(key: str, facts: dict[str, Any]) -> None:
    """Cache ``facts`` under ``key``, keeping the other keys' (the oldest dropped past
    :data:`MAX_KEYS`); silently nothing where the folder is not usable."""
    parts = _split(key)
    if parts is None or not _enabled():
        return
    host = {k: v for k, v in facts.items() if k not in CGROUP_FACTS}
    cgroup = {k: v for k, v in facts.items() if k in CGROUP_FACTS}
    _write(dict(zip(parts, (host, cgroup), strict=True)))


def _write(update: dict[str, dict[str, Any]]) -> None:
    """Put ``update``'s entries in the file (an empty one removes its key), last."""
    folder = cache_dir()
    with contextlib.suppress(OSError):
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = folder.lstat()
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o022:
            return
        entries = _read()
        for key, value in update.items():
            entries.pop(key, None)
            if value:
                entries[key] = value  # last: the most recently stored
        entries = dict(list(entries.items())[-MAX_KEYS:])
        tmp = folder / f".{FILE_NAME}.{os.getpid()}"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump({"format": FORMAT, "entries": entries}, f)
        os.replace(tmp, folder / FILE_NAME)


def enabled() -> bool:
    """Whether the cache is on (``ARENA_NO_HOST_CACHE`` unset)."""
    return _enabled()


def read_entry(key: str) -> dict[str, Any] | None:
    """The entry another part of arena cached under ``key`` (see :func:`write_entry`)."""
    return _read().get(key) if key and _enabled() else None


def write_entry(key: str, value: dict[str, Any]) -> None:
    """Cache ``value`` under ``key`` (a key of the caller's own, prefixed with its name),
    in the same safe file, until :data:`MAX_KEYS` later ones push it out."""
    if key and _enabled():
        _write({key: value})
