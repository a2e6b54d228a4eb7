"""How bots are confined: the sandbox kinds, what the machine supports, bubblewrap's arguments.

Two kinds, the same protections underneath (see ``docs/architecture.md``):

* ``none``: the bot runs as arena's user in its own directory and session, with its
  cgroups, rlimits and (where the kernel allows) a private ``/tmp`` and ``/dev/shm``.
* ``bwrap``: additionally inside bubblewrap: every namespace private (PID, network, IPC,
  UTS, cgroup), all capabilities dropped, a new session; the system folders read-only,
  the bot's directory read-write, the files its command names (and the Python
  installation it runs on) read-only, and nothing else: no ``$HOME``, no other bot, no
  arena output. Started by root, the bot itself runs as ``nobody`` with no privileges
  (``setpriv``), so root-only files such as ``/etc/shadow`` stay unreadable.
"""

from __future__ import annotations

import functools
import json
import os
import pwd
import re
import resource
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from arena.botproc import cgroups, seccomp
from arena.botproc.commands import bot_folder
from arena.botproc.launcher import Launch, PrivateDirs, probe_private_dirs, shell_launch
from arena.errors import ConfigError
from arena.limits import DISK_MB as DEFAULT_DISK_MB
from arena.limits import MAX_PROCESSES, SANDBOXES

SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt")
"""What a sandboxed bot sees of the host, read-only (besides its own files)."""

ENV_KEEP = ("PATH", "LANG", "LANGUAGE", "TZ", "TERM")
"""Environment variables a sandboxed bot keeps (also ``LC_*`` and ``PYTHON*``)."""

FILE_SIZE_CAP_BYTES = 256 * 1024 * 1024
"""RLIMIT_FSIZE for persistent bots: no single file they write grows past this."""

KINDS = SANDBOXES


class SandboxUnavailable(ConfigError):
    """``sandbox: bwrap`` was asked for where bubblewrap does not work."""


@dataclass(frozen=True)
class BwrapHost:
    """What bubblewrap can do on this machine, for this user (probed once per process)."""

    path: str | None
    error: str | None = None
    setpriv: str | None = None
    options: frozenset[str] = frozenset()

    @property
    def as_nobody(self) -> bool:
        """Root runs bots as nobody (through setpriv inside the sandbox)."""
        return self.setpriv is not None


@dataclass(frozen=True)
class HostFacts:
    """What this machine allows, probed once per run by the process that resolves the
    sandbox (:func:`resolve_sandbox`) and sent with it to the worker processes, which then
    probe nothing: bubblewrap (None: not asked, for ``none``), the cgroups, and (for
    ``none``: a one-item tuple, None when not asked) the private ``/tmp`` and ``/dev/shm``."""

    bwrap: BwrapHost | None
    cgroups: cgroups.CgroupParents | None
    private: tuple[PrivateDirs | None] | None = None

    def adopt(self) -> None:
        """Use these results in this process where it has not probed yet."""
        global _host, _private
        if _host is None and self.bwrap is not None:
            _host = self.bwrap
        if _private is None and self.private is not None:
            _private = self.private
        cgroups.adopt(self.cgroups)


@dataclass(frozen=True)
class Sandbox:
    """How bot processes are confined (picklable: sent to worker processes).

    ``kind`` "none" or "bwrap" (see the module docstring). ``memory_mb`` caps a bot's memory:
    through its memory cgroup (all its processes, tmpfs and shm pages included) where
    there is one, else the address space of each process; it also sizes the bot's private
    tmpfs folders. ``max_processes`` caps how many processes a bot may run at once, where
    a pids cgroup is available. ``hide`` lists folders (the tournament's output) a
    sandboxed bot must never see even when they lie inside something it is shown.

    ``disk_mb`` caps what a bot writes: its private ``/tmp`` and ``/dev/shm`` are tmpfs
    of that size each, and a bot that keeps one process for the game (a line-protocol
    bot) gets its directory on its ``/tmp`` tmpfs (or one of its own), not on the host's
    disk. Those files are memory: with a memory cgroup, they count against ``memory_mb``.
    """

    kind: str = "none"
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
    mounts: tuple[tuple[str, str], ...] = ()
    """(copy on this machine, path the bot sees it at), read-only under bubblewrap: a
    Dask worker's copies of the ``read_only`` paths, shown where the tournament named them."""

    def adopt(self) -> None:
        """Use the probes' results this sandbox carries, if any (see :class:`HostFacts`)."""
        if self.facts is not None:
            self.facts.adopt()

    # -- the pieces spawn() puts together ----------------------------------------------

    def command(
        self,
        argv: Sequence[str],
        workdir: Path,
        cgroup: cgroups.BotCgroup | None,
        file_cap: int,
        scratch: bool = False,
    ) -> tuple[list[str], Launch | None]:
        """How to start ``argv`` (in ``workdir``) with every limit in force before its first
        instruction: the command line to exec, and the step the child takes between fork
        and exec (None: nothing, so it starts with ``vfork``). See ``launcher.py``.

        ``scratch``: nothing outside the bot reads ``workdir`` while the process lives (a
        line-protocol bot), so it may be a fresh tmpfs of ``disk_mb`` instead of the
        host's folder.
        """
        limits = [(resource.RLIMIT_FSIZE, file_cap), (resource.RLIMIT_CORE, 0)]
        if self.memory_mb and (cgroup is None or cgroup.memory_dir is None):
            limits.append((resource.RLIMIT_AS, self.memory_mb * 1024 * 1024))
        limits = [(limit, _within_hard_limit(limit, value)) for limit, value in limits]
        join = cgroup.join_files if cgroup is not None else ()
        if self.kind == "bwrap":
            fd9 = seccomp.program_path()
            bwrap = _bwrap_args(self, argv, workdir, bwrap_host(), fd9 is not None, scratch)
            return shell_launch(join, limits, bwrap, fd9), None
        private = None
        if (mode := private_dirs_supported()) is not None:
            _, shown = command_view(argv, str(workdir), self)
            private = PrivateDirs(
                str(workdir),
                self.tmpfs_bytes,
                mode.userns,
                tuple(shown),
                scratch and self.disk_mb is not None,
            )
        no_keyrings = seccomp.program() is not None
        # The bot's own behind unshare: a PID namespace of its own (see launcher.py).
        pid_ns = mode.pid_ns if mode is not None else ()
        launch = Launch(join, tuple(limits), private, os.getpid(), no_keyrings, bool(pid_ns))
        return [*pid_ns, *argv], launch

    def env(self, workdir: Path) -> dict[str, str]:
        """The bot's environment."""
        if self.kind == "bwrap":
            env = {k: v for k, v in os.environ.items() if _kept(k)}
            env.update(HOME="/tmp", TMPDIR="/tmp")
        else:
            env = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_")}
            env["TMPDIR"] = "/tmp" if private_dirs_supported() else str(workdir)
        env["PYTHONUNBUFFERED"] = "1"
        return env

    @property
    def tmpfs_bytes(self) -> int | None:
        """Size of each private tmpfs (the smaller of ``disk_mb`` and ``memory_mb``: its
        files are memory; None: the kernel's default)."""
        caps = [mb for mb in (self.disk_mb, self.memory_mb) if mb]
        return min(caps) * 1024 * 1024 if caps else None

    @property
    def bot_ids(self) -> tuple[int, int] | None:
        """(uid, gid) bots run as when not arena's own (root with bubblewrap: nobody)."""
        self.adopt()
        if self.kind == "bwrap" and bwrap_host().as_nobody:
            return nobody()
        return None

    def describe(self) -> str:
        """One line for the user: which sandbox and which protections are in force."""
        parts = []
        if self.kind == "bwrap":
            host = bwrap_host()
            who = "nobody" if host.as_nobody else _user_name()
            if os.getuid() == 0 and not host.as_nobody:
                who += " without capabilities"
            parts.append(
                f"bubblewrap: bots run as {who}, no network, read-only system, "
                "nothing of $HOME or other bots, private /tmp and /dev/shm"
            )
            if self.disk_mb and "--size" in host.options:
                parts.append(f"{self.disk_mb} MiB of files")
        else:
            mode = private_dirs_supported()
            tmp = "private" if mode is not None else "shared with the host"
            pids = "own PID namespace" if pid_namespace() else "arena's processes in reach"
            parts.append(f"none: bots run as {_user_name()}, /tmp and /dev/shm {tmp}, {pids}")
            if self.disk_mb:
                capped = mode is not None
                parts.append(f"{self.disk_mb} MiB of files" if capped else "files not capped")
        found = cgroups.parents()
        if found is None:
            parts.append(
                "no cgroups (max_processes not enforced, memory_mb per process, "
                "no CPU cap: a bot's children can take its opponent's time)"
            )
        else:
            caps = [f"{self.max_processes} processes" if self.max_processes else "pids"]
            if self.memory_mb:
                where = "cgroup" if found.memory is not None else "per process"
                caps.append(f"{self.memory_mb} MiB ({where})")
            if found.cpu is not None:
                # With cpusets a core of its own where enough are free; without, a core's
                # worth of CPU on any of them (said here: no warning, nothing is unfair).
                caps.append("1 core" if found.cpuset is not None else "1 core's worth (no cpuset)")
            parts.append(f"{found.describe()}; caps: {', '.join(caps)}")
        return "; ".join(parts)


def _within_hard_limit(limit: int, value: int) -> int:
    """``value``, or this process's own hard limit where that is lower (it stays in force:
    only root may raise a hard limit, and a bot never gets more than arena has)."""
    hard = resource.getrlimit(limit)[1]
    return value if hard == resource.RLIM_INFINITY else min(value, hard)


def _kept(key: str) -> bool:
    return key in ENV_KEEP or key.startswith(("LC_", "PYTHON"))


def _user_name() -> str:
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


_private: tuple[PrivateDirs | None] | None = None  # (the probe's result,) once known


def private_dirs_supported() -> PrivateDirs | None:
    """How bots without bubblewrap get a private /tmp and /dev/shm here (None: they cannot).

    Probed once per process (a forked child tries it), or handed over by the process that
    started this one (:class:`HostFacts`).
    """
    global _private
    if _private is None:
        probe = tempfile.mkdtemp(prefix="arena-probe-")
        try:
            _private = (probe_private_dirs(probe),)
        finally:
            os.rmdir(probe)
    return _private[0]


def pid_namespace() -> bool:
    """Whether bots without bubblewrap get a PID namespace of their own here."""
    mode = private_dirs_supported()
    return mode is not None and bool(mode.pid_ns)


# -- bubblewrap -----------------------------------------------------------------------


_host: BwrapHost | None = None


def bwrap_host() -> BwrapHost:
    """Whether and how bubblewrap works here (probed once per process, or handed over by
    the process that started this one: :class:`HostFacts`)."""
    global _host
    if _host is None:
        _host = _probe_bwrap()
    return _host


def _probe_bwrap() -> BwrapHost:
    path = shutil.which("bwrap")
    if path is None:
        return BwrapHost(None, "bubblewrap (bwrap) is not installed")
    try:
        helptext = subprocess.run(
            [path, "--help"], capture_output=True, text=True, timeout=10
        ).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        return BwrapHost(path, f"{path} does not run: {exc}")
    options = frozenset(re.findall(r"^\s+(--[a-z0-9-]+)", helptext, re.MULTILINE))
    # Root runs the bot as nobody through setpriv; else (or if that fails) as itself.
    setpriv = shutil.which("setpriv") if os.getuid() == 0 else None
    error = ""
    for drop in dict.fromkeys([setpriv, None]):
        host = BwrapHost(path, None, drop, options)
        error = _try_bwrap(host)
        if not error:
            return host
    return BwrapHost(path, error, None, options)


def _try_bwrap(host: BwrapHost) -> str:
    """Run ``true`` in a sandbox like a bot's; the error text, empty if it worked."""
    workdir = Path(tempfile.mkdtemp(prefix="arena-probe-"))
    try:
        workdir.chmod(0o755)  # like a bot's: bwrap, root without capabilities, enters it
        if host.as_nobody:
            os.chown(workdir, *nobody())
        argv = _bwrap_args(Sandbox("bwrap"), ["true"], workdir, host)
        result = subprocess.run(argv, capture_output=True, text=True, timeout=30, env={})
    except (OSError, subprocess.SubprocessError) as exc:
        return str(exc)
    finally:
        os.rmdir(workdir)
    if result.returncode != 0:
        lines = (result.stderr or result.stdout).strip().splitlines()
        return lines[-1] if lines else f"exit code {result.returncode}"
    return ""


def bwrap_works() -> bool:
    """Whether bubblewrap is installed and can create a bot's sandbox on this machine."""
    return bwrap_host().error is None


def bwrap_argv(sandbox: Sandbox, argv: Sequence[str], workdir: Path) -> list[str]:
    """The bubblewrap command line that runs ``argv`` for one bot."""
    return _bwrap_args(sandbox, argv, workdir, bwrap_host())


def _bwrap_args(
    sandbox: Sandbox,
    argv: Sequence[str],
    workdir: Path,
    host: BwrapHost,
    fd9: bool = False,
    scratch: bool = False,
) -> list[str]:
    """``fd9``: descriptor 9 holds the seccomp filter (:mod:`arena.botproc.seccomp`);
    ``scratch``: the bot's directory is a tmpfs (see :meth:`Sandbox.command`)."""
    assert host.path is not None
    args = [
        host.path,
        "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent", "--new-session",
        "--cap-drop", "ALL",
    ]  # fmt: skip
    if host.as_nobody:
        # Kept only until setpriv (below) becomes nobody, which clears them all.
        for cap in ("CAP_SETUID", "CAP_SETGID", "CAP_SETPCAP"):
            args += ["--cap-add", cap]
    visible: list[str] = []
    for d in SYSTEM_DIRS:
        if os.path.islink(d):
            args += ["--symlink", os.readlink(d), d]
        elif os.path.isdir(d):
            args += ["--ro-bind", d, d]
            visible.append(d)
    args += ["--proc", "/proc", "--dev", "/dev"]
    for d in ("/tmp", "/dev/shm"):
        if "--perms" in host.options:
            args += ["--perms", "1777"]
        if sandbox.tmpfs_bytes and "--size" in host.options:
            args += ["--size", str(sandbox.tmpfs_bytes)]
        args += ["--tmpfs", d]
    made = {"/tmp", "/dev/shm"}
    program, shown = command_view(argv, str(workdir), sandbox, host.as_nobody)
    for path in shown:
        # Already visible: under a bound system folder, or under one of its links (/bin
        # is usr/bin on a merged-/usr system: /bin/sh must not be made again).
        if _inside(path, visible) or _inside(os.path.realpath(os.path.dirname(path)), visible):
            continue
        if any(other != path and _inside(path, [other]) for other in shown):
            continue  # inside a folder (or a link to one) that is shown whole
        args += _parents(path, made, visible, host)
        if os.path.islink(path):  # its target is shown too (command_view): a link to it
            args += ["--symlink", os.readlink(path), path]
        else:
            args += ["--ro-bind", path, path]
    for source, target in sandbox.mounts:
        args += [*_parents(target, made, visible, host), "--ro-bind", source, target]
    wd = str(workdir)
    if scratch and sandbox.disk_mb and {"--size", "--perms"} <= host.options:
        # On the /tmp tmpfs (its cap shared) when inside it, else a tmpfs of its own.
        args += _parents(wd, made, visible, host)
        if _inside(wd, ["/tmp"]):
            args += ["--perms", "0777", "--dir", wd]
        else:
            args += ["--size", str(sandbox.tmpfs_bytes), "--perms", "0777", "--tmpfs", wd]
    else:
        args += [*_parents(wd, made, visible, host), "--bind", wd, wd]
    real_wd = os.path.realpath(wd)
    links = [path for path in shown if os.path.islink(path)]
    for hidden in sandbox.hide:
        if _inside(real_wd, [os.path.realpath(hidden)]):
            continue  # the bot's own directory lies inside: its folder is hidden anyway
        for seen in hidden_views(hidden, [*visible, *shown]):
            if any(_inside(seen, [link]) for link in links):
                continue  # seen through a link made above: hidden at the link's target
            args += ["--tmpfs", seen]
    if fd9:
        args += ["--seccomp", "9"]
    args += ["--remount-ro", "/", "--chdir", wd, "--"]
    if host.setpriv is not None:
        uid, gid = nobody()
        args += [
            host.setpriv, f"--reuid={uid}", f"--regid={gid}", "--clear-groups",
            "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--",
        ]  # fmt: skip
    return [*args, program, *argv[1:]]


def _inside(path: str, folders: Sequence[str]) -> bool:
    return any(path == f or path.startswith(f.rstrip("/") + "/") for f in folders)


def hidden_views(hidden: str, shown: Sequence[str]) -> list[str]:
    """Every path at which ``hidden`` shows inside a sandbox that shows ``shown``.

    Paths are compared resolved: a folder shown through a symbolic link (bound at the
    link's path) shows ``hidden`` under that path when ``hidden``'s real path lies inside
    the folder's real path.
    """
    real = os.path.realpath(hidden)
    views: list[str] = []
    for path in shown:
        for base in dict.fromkeys([path, os.path.realpath(path)]):
            for target in dict.fromkeys([hidden, real]):
                if _inside(target, [base]):
                    views.append(path.rstrip("/") + target[len(base.rstrip("/")) :])
    return list(dict.fromkeys(views))


def _parents(path: str, made: set[str], visible: list[str], host: BwrapHost) -> list[str]:
    """``--dir`` for each missing ancestor of ``path``, world-traversable (bwrap's are 0700)."""
    out: list[str] = []
    parts = Path(path).parts[1:-1]
    for i in range(len(parts)):
        folder = "/" + "/".join(parts[: i + 1])
        if folder in made or _inside(folder, visible):
            continue
        made.add(folder)
        if "--perms" in host.options:
            out += ["--perms", "0755"]
        out += ["--dir", folder]
    return out


def command_view(
    argv: Sequence[str], workdir: str, sandbox: Sandbox | None = None, as_nobody: bool = False
) -> tuple[str, list[str]]:
    """The program to exec and every host path a sandboxed bot needs to see for ``argv``.

    The program is looked up in ``PATH`` on the host (``PATH`` folders such as
    ``~/.pyenv/shims`` are hidden inside). A Python interpreter (a pyenv shim included) is
    asked once for its installation: its prefixes are shown, and a shim is replaced by the
    interpreter it runs. Every other argument that names an existing file or folder is
    shown too, read-only; so is the bot's own folder (that of the program its command
    runs: :func:`~arena.botproc.commands.bot_folder`) unless ``sandbox.files`` is
    ``named``, and the sandbox's ``read_only`` paths. A symbolic link is shown with its
    target. Each path is listed once, never inside another one listed (bubblewrap cannot
    mount a file inside a folder it has already mounted read-only). Bots that run as
    ``nobody`` (``as_nobody``) are not shown a folder that others may not read and enter:
    they see the named files alone, as before.
    """
    program = argv[0]
    found = program if "/" in program else shutil.which(program)
    shown: list[str] = []
    if found is not None:
        found = os.path.abspath(found)
        python = _python_install(found) if _looks_like_python(found) else None
        if python is not None:
            program, prefixes = python
            shown += prefixes
        else:
            program = found
            shown += [found, os.path.realpath(found)]
    for arg in argv[1:]:
        if arg.startswith("/") and os.path.exists(arg) and not _inside(arg, [workdir]):
            shown += [os.path.normpath(arg), os.path.realpath(arg)]
    if sandbox is None or sandbox.files != "named":
        folder = bot_folder(argv)
        if folder is not None and _may_show_folder(folder, workdir, as_nobody):
            shown.append(folder)
    if sandbox is not None:
        shown += [os.path.normpath(p) for p in sandbox.read_only if os.path.exists(p)]
        shown += [os.path.realpath(p) for p in sandbox.read_only if os.path.exists(p)]
    return program, _outermost(shown)


def _may_show_folder(folder: str, workdir: str, as_nobody: bool) -> bool:
    """Whether a bot may see all of ``folder``: not the root, not a system folder (seen
    anyway), nor one holding the bots' private directories (the temporary folder); for a
    bot running as nobody, only a folder others may read and enter."""
    homes = os.path.dirname(os.path.dirname(workdir))  # BOT_HOMES: <homes>/<game>/seatN
    if folder == "/" or folder in SYSTEM_DIRS or _inside(homes, [folder]):
        return False
    if as_nobody:
        try:
            return os.stat(folder).st_mode & 0o005 == 0o005
        except OSError:
            return False
    return True


def _outermost(paths: Sequence[str]) -> list[str]:
    """``paths`` without repeats and without those inside another one, in order."""
    unique = list(dict.fromkeys(paths))
    folders = [p for p in unique if os.path.isdir(p) and not os.path.islink(p)]
    return [p for p in unique if not any(f != p and _inside(p, [f]) for f in folders)]


def _looks_like_python(path: str) -> bool:
    return re.fullmatch(r"(python|pypy)[0-9.]*", os.path.basename(path)) is not None


# Asked with -S: no site module, so no .pth file runs and the interpreter answers several
# times faster. The virtual environment site would have made sys.prefix is found the way
# site finds it: a pyvenv.cfg beside the interpreter or one folder up.
_PYTHON_QUERY = """
import json, os, sys
bin_dir = os.path.dirname(os.path.abspath(sys.executable))
venv = os.path.dirname(bin_dir)
if not any(os.path.isfile(os.path.join(d, "pyvenv.cfg")) for d in (bin_dir, venv)):
    venv = None
print(json.dumps([sys.executable, venv or sys.prefix, sys.base_prefix,
                  venv or sys.exec_prefix, sys.base_exec_prefix]))
"""


@functools.lru_cache(maxsize=32)
def _python_install(path: str) -> tuple[str, list[str]] | None:
    """(interpreter to exec, installation folders to show) for a Python, or None (its
    answer cached across runs: :func:`hostcache.python_install`)."""
    from arena.botproc import hostcache

    return hostcache.python_install(path, _ask_python)


def _ask_python(path: str) -> tuple[str, list[str]] | None:
    try:
        out = subprocess.run(
            [path, "-S", "-c", _PYTHON_QUERY], capture_output=True, text=True, timeout=30, cwd="/"
        ).stdout
        executable, *prefixes = json.loads(out.strip().splitlines()[-1])
    except (OSError, subprocess.SubprocessError, ValueError, IndexError):
        return None
    if not executable or not os.path.isabs(executable):
        return None
    folders = [os.path.realpath(p) for p in prefixes if p]
    folders += [os.path.realpath(executable), executable, path]
    if os.path.realpath(path) != os.path.realpath(executable):
        path = executable  # a shim (pyenv): run the interpreter it runs
        folders.pop()
    outermost = [f for f in folders if not any(_inside(f, [o]) for o in folders if o != f)]
    return path, list(dict.fromkeys(outermost))


# -- choosing ----------------------------------------------------------------------------


def resolve_sandbox(
    kind: str,
    memory_mb: int | None = None,
    hide: Sequence[Path] = (),
    max_processes: int | None = MAX_PROCESSES,
    disk_mb: int | None = DEFAULT_DISK_MB,
) -> Sandbox:
    """Turn the configured kind (``auto``, ``bwrap``, ``none``) into a :class:`Sandbox`.

    Raises :class:`SandboxUnavailable` for ``bwrap`` where bubblewrap does not work.
    """
    if kind not in KINDS:
        raise ConfigError(f"unknown sandbox {kind!r} (one of {', '.join(KINDS)})")
    from arena.botproc import hostcache

    key = hostcache.host_key()  # the probes' results, cached until the next boot
    cached = hostcache.adopt_cached(key)
    host_error = bwrap_host().error if kind != "none" else None
    if kind == "bwrap" and host_error is not None:
        raise SandboxUnavailable(f"bubblewrap does not work here: {host_error}")
    if kind == "auto":
        kind = "bwrap" if host_error is None else "none"
    hidden = tuple(str(Path(p).resolve()) for p in hide)
    private = (private_dirs_supported(),) if kind == "none" else None
    facts = HostFacts(bwrap_host() if kind == "bwrap" else None, cgroups.parents(), private)
    hostcache.remember(key, cached)
    return Sandbox(kind, memory_mb, hidden, max_processes, disk_mb, facts)


def cpu_warning() -> str | None:
    """The warning when bots get cgroups but cannot be confined to a core (no ``cpu``
    controller): what a bot's children burn is then nobody's, and can cost its opponent
    its time. Without any cgroup the sandbox line says so already (``no CPU cap``)."""
    found = cgroups.parents()
    if found is None or found.cpu is not None:
        return None  # without cpusets too: each bot still gets one core's worth of CPU
    return (
        "warning: no cpu cgroup controller here (run as root or delegate a cgroup v2 "
        "subtree with cpu): a bot's processes are not confined to one core, so one that "
        "starts busy children can slow its opponent; `clock: cpu` charges no child time"
    )


def auto_warning(requested: str, sandbox: Sandbox) -> str | None:
    """The one warning for ``auto`` falling back to no sandbox (None when not needed)."""
    if requested != "auto" or sandbox.kind != "none":
        return None
    return (
        f"warning: {bwrap_host().error}: bots are not isolated from each other or the host "
        "(install bubblewrap, e.g. `apt-get install bubblewrap`, or set `sandbox: none`)"
    )
