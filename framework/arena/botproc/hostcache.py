"""What the machine allows, remembered until the next boot: the probes' results cached.

Whether bubblewrap works, where bot cgroups can be made and whether bots without
bubblewrap get a private ``/tmp`` do not change while the machine runs the same kernel,
user, cgroup and programs; probing them costs milliseconds (forks, a test sandbox) at
every ``arena`` command. The results are kept in the user's cache folder
(``$XDG_CACHE_HOME/arena`` or ``~/.cache/arena``, made mode 0700), each under the key of
what it depends on: bubblewrap's and the private folders' results under the boot id, the
user, arena's and Python's versions and bubblewrap's and setpriv's files (path, size,
time, inode); the cgroups under all that and the process's own cgroup too (a new
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arena.botproc import cgroups
from arena.botproc.launcher import PrivateDirs

FORMAT = 3
"""The file's format: 1 (``host-facts.json``) kept one key and lost the cpuset parent; 2
knew no PID namespace for bots without bubblewrap."""
FILE_NAME = f"host-facts-{FORMAT}.json"
"""Named by its format: an arena of another format keeps its own file, not this one."""
MAX_KEYS = 16
"""Keys kept in the file at once; the least recently stored go first."""
HOST_FACTS = ("bwrap", "private")
"""The facts keyed on the host alone; ``cgroups`` is keyed on the own cgroup too."""


def cache_dir() -> Path:
    """The user's cache folder for arena (not created here)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "arena"


def _file_id(path: str | None) -> list[Any]:
    if path is None:
        return []
    try:
        st = os.stat(path)
    except OSError:
        return [path]
    return [path, st.st_size, st.st_mtime_ns, st.st_ino]


def host_key() -> str:
    """What the cached facts depend on, hashed: ``HOST/CGROUP``, the first part for the
    host's facts, the second for the cgroups ("" where the boot id is unknown)."""
    from arena.version import __version__

    try:
        with open("/proc/sys/kernel/random/boot_id") as f:
            boot = f.read().strip()
        with open("/proc/self/cgroup") as f:
            own_cgroup = f.read()
    except OSError:
        return ""
    parts = [
        boot,
        os.getuid(),
        os.getgid(),
        __version__,
        sys.version,
        _file_id(shutil.which("bwrap")),
        _file_id(shutil.which("setpriv")),
        _file_id(shutil.which("unshare")),
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
    facts = {k: v for k, v in (host or {}).items() if k in HOST_FACTS}
    if cgroup is not None and "cgroups" in cgroup:
        facts["cgroups"] = cgroup["cgroups"]
    return facts


def store(key: str, facts: dict[str, Any]) -> None:
    """Cache ``facts`` under ``key``, keeping the other keys' (the oldest dropped past
    :data:`MAX_KEYS`); silently nothing where the folder is not usable."""
    parts = _split(key)
    if parts is None or not _enabled():
        return
    host = {k: v for k, v in facts.items() if k in HOST_FACTS}
    cgroup = {"cgroups": facts["cgroups"]} if "cgroups" in facts else {}
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


def read_entry(key: str) -> dict[str, Any] | None:
    """The entry another part of arena cached under ``key`` (see :func:`write_entry`)."""
    return _read().get(key) if key and _enabled() else None


def write_entry(key: str, value: dict[str, Any]) -> None:
    """Cache ``value`` under ``key`` (a key of the caller's own, prefixed with its name),
    in the same safe file, until :data:`MAX_KEYS` later ones push it out."""
    if key and _enabled():
        _write({key: value})


# -- a Python interpreter's installation -------------------------------------------------

PythonInstall = tuple[str, list[str]]


def python_key(path: str) -> str:
    """What a Python interpreter's answer about itself (its prefixes) depends on: its
    file, the files it links to, a ``pyvenv.cfg`` beside it or one folder up, and the
    variables that move its prefixes ("" where the boot id is unknown)."""
    try:
        with open("/proc/sys/kernel/random/boot_id") as f:
            boot = f.read().strip()
    except OSError:
        return ""
    here = os.path.dirname(os.path.abspath(path))
    parts = [
        "python",
        boot,
        os.getuid(),
        path,
        os.path.realpath(path),
        _file_id(path),
        _file_id(os.path.join(here, "pyvenv.cfg")),
        _file_id(os.path.join(os.path.dirname(here), "pyvenv.cfg")),
        [os.environ.get(name) for name in ("PYTHONHOME", "PYTHONEXECUTABLE")],
    ]
    return "python-" + hashlib.sha256(json.dumps(parts).encode()).hexdigest()


def python_install(path: str, ask: Callable[[str], PythonInstall | None]) -> PythonInstall | None:
    """``ask(path)``, the interpreter's own answer, or the one cached for it. Only the
    answer of an interpreter that is itself (not a script that runs another one, as a
    pyenv shim does, which may choose another Python next time) is cached."""
    key = python_key(path) if _enabled() else ""
    if key:
        cached = _read().get(key, {}).get("python")
        with contextlib.suppress(TypeError, ValueError):
            executable, folders = cached
            if (
                isinstance(executable, str)
                and isinstance(folders, list)
                and all(isinstance(f, str) for f in folders)
            ):
                return executable, list(folders)
    found = ask(path)
    if key and found is not None and os.path.realpath(found[0]) == os.path.realpath(path):
        _write({key: {"python": [found[0], found[1]]}})
    return found


# -- the facts, as JSON ------------------------------------------------------------------


def parents_to_json(found: cgroups.CgroupParents | None) -> Any:
    """The cgroup parents as JSON values."""
    if found is None:
        return None
    paths = (found.pids, found.memory, found.cpu, found.cpuacct, found.cpuset)
    return [found.version, *[str(p) if p is not None else None for p in paths]]


def parents_from_json(value: Any) -> cgroups.CgroupParents | None:
    """The cgroup parents back, or None; raises ValueError for anything else, or when a
    cached folder is gone."""
    if value is None:
        return None
    version, *paths = value
    if len(paths) != 5:
        raise ValueError("not a cgroup parents entry")
    found = cgroups.CgroupParents(
        int(version), *[Path(p) if p is not None else None for p in paths]
    )
    if not all(folder.is_dir() for folder in found.folders()):
        raise ValueError("a cgroup parent is gone")
    return found


def private_to_json(private: PrivateDirs | None) -> Any:
    """Whether bots without bubblewrap get private folders (and how) as a JSON value."""
    return None if private is None else {"userns": private.userns, "pid_ns": private.pid_ns}


def private_from_json(value: Any, workdir: str) -> PrivateDirs | None:
    """The probe's result back (its folder, sizes and kept paths are chosen per bot)."""
    if value is None:
        return None
    pid_ns = value.get("pid_ns", [])
    if not all(isinstance(word, str) for word in pid_ns):
        raise ValueError("not a command")
    return PrivateDirs(workdir, 1024 * 1024, bool(value["userns"]), pid_ns=tuple(pid_ns))


def adopt_cached(key: str) -> dict[str, Any]:
    """Take the cached facts under ``key`` in this process where it has not probed yet;
    return them (empty when none could be used)."""
    from arena.botproc import sandbox

    facts = load(key) or {}
    try:
        if "bwrap" in facts and sandbox._host is None:
            path, error, setpriv, options = facts["bwrap"]
            sandbox._host = sandbox.BwrapHost(path, error, setpriv, frozenset(options))
        if "cgroups" in facts:
            cgroups.adopt(parents_from_json(facts["cgroups"]))
        if "private" in facts and sandbox._private is None:
            sandbox._private = (private_from_json(facts["private"], "/"),)
    except (TypeError, ValueError, KeyError):
        return {}  # not a usable cache: probed again, and stored anew
    return facts


def remember(key: str, cached: dict[str, Any]) -> None:
    """Cache what this process knows now (probed or taken from the cache) when it adds
    to what was cached."""
    from arena.botproc import sandbox

    facts = dict(cached)
    if sandbox._host is not None:
        host = sandbox._host
        facts["bwrap"] = [host.path, host.error, host.setpriv, sorted(host.options)]
    facts["cgroups"] = parents_to_json(cgroups.parents())
    if sandbox._private is not None:
        facts["private"] = private_to_json(sandbox._private[0])
    if facts != cached:
        store(key, facts)
