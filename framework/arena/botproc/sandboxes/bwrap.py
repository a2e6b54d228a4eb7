"""``sandbox: bwrap``: each bot inside bubblewrap.

Every namespace private (PID, network, IPC, UTS, cgroup), all capabilities dropped, a
new session; the system folders read-only, the bot's directory read-write, the files its
command names (and the Python installation it runs on) read-only, and nothing else: no
``$HOME``, no other bot, no arena output. Started by root, the bot itself runs as
``nobody`` with no privileges (``setpriv``), so root-only files such as ``/etc/shadow``
stay unreadable.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.botproc import cgroups, seccomp
from arena.botproc.launcher import Launch, shell_launch
from arena.botproc.sandboxes.base import (
    SYSTEM_DIRS,
    Sandbox,
    SandboxKind,
    inside,
    kept_env,
    nobody,
    user_name,
)
from arena.botproc.sandboxes.view import command_view, hidden_views


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


_host: BwrapHost | None = None


def bwrap_host() -> BwrapHost:
    """Whether and how bubblewrap works here (probed once per process, or handed over by
    the process that started this one:
    :class:`~arena.botproc.sandboxes.base.HostFacts`)."""
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


def _bwrap_args(
    sandbox: Sandbox,
    argv: Sequence[str],
    workdir: Path,
    host: BwrapHost,
    fd9: bool = False,
    scratch: bool = False,
) -> list[str]:
    """The bubblewrap command line that runs ``argv`` for one bot. ``fd9``: descriptor 9
    holds the seccomp filter (:mod:`arena.botproc.seccomp`); ``scratch``: the bot's
    directory is a tmpfs (see :meth:`~arena.botproc.sandboxes.base.SandboxBackend.command`)."""
    assert host.path is not None
    args = [
        host.path,
        "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent", "--new-session",
        "--cap-drop", "ALL",
    ]  # fmt: skip
    if "--as-pid-1" in host.options:
        # The bot (setpriv first, as root) is the namespace's process 1: no process of
        # bubblewrap's is inside for it to read (its environment) or signal.
        args.append("--as-pid-1")
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
        if inside(path, visible) or inside(os.path.realpath(os.path.dirname(path)), visible):
            continue
        if any(other != path and inside(path, [other]) for other in shown):
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
        if inside(wd, ["/tmp"]):
            args += ["--perms", "0777", "--dir", wd]
        else:
            args += ["--size", str(sandbox.tmpfs_bytes), "--perms", "0777", "--tmpfs", wd]
    else:
        args += [*_parents(wd, made, visible, host), "--bind", wd, wd]
    real_wd = os.path.realpath(wd)
    links = [path for path in shown if os.path.islink(path)]
    for hidden in sandbox.hide:
        if inside(real_wd, [os.path.realpath(hidden)]):
            continue  # the bot's own directory lies inside: its folder is hidden anyway
        for seen in hidden_views(hidden, [*visible, *shown]):
            if any(inside(seen, [link]) for link in links):
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


def _parents(path: str, made: set[str], visible: list[str], host: BwrapHost) -> list[str]:
    """``--dir`` for each missing ancestor of ``path``, world-traversable (bwrap's are 0700)."""
    out: list[str] = []
    parts = Path(path).parts[1:-1]
    for i in range(len(parts)):
        folder = "/" + "/".join(parts[: i + 1])
        if folder in made or inside(folder, visible):
            continue
        made.add(folder)
        if "--perms" in host.options:
            out += ["--perms", "0755"]
        out += ["--dir", folder]
    return out


class BwrapBackend:
    """Bots inside bubblewrap (as ``nobody`` when arena runs as root)."""

    kind: SandboxKind = "bwrap"
    title = "bubblewrap"
    isolates = True
    programs: tuple[str, ...] = ("bwrap", "setpriv")
    launcher_on_top = True
    system_programs_first = True
    shows_copies = True

    def probe(self) -> BwrapHost:
        """:meth:`~arena.botproc.sandboxes.base.SandboxBackend.probe`."""
        return bwrap_host()

    def unusable(self) -> str | None:
        """:meth:`~arena.botproc.sandboxes.base.SandboxBackend.unusable`."""
        return bwrap_host().error

    def adopt(self, found: Any) -> None:
        """:meth:`~arena.botproc.sandboxes.base.SandboxBackend.adopt`."""
        global _host
        if _host is None and isinstance(found, BwrapHost):
            _host = found

    def cached(self) -> tuple[Any] | None:
        """:meth:`~arena.botproc.sandboxes.base.SandboxBackend.cached`."""
        if _host is None:
            return None
        return ([_host.path, _host.error, _host.setpriv, sorted(_host.options)],)

    def adopt_cached(self, value: Any) -> None:
        """:meth:`~arena.botproc.sandboxes.base.SandboxBackend.adopt_cached`."""
        path, error, setpriv, options = value
        self.adopt(BwrapHost(path, error, setpriv, frozenset(options)))

    def command(
        self,
        sandbox: Sandbox,
        argv: Sequence[str],
        workdir: Path,
        cgroup: cgroups.BotCgroup | None,
        file_cap: int,
        scratch: bool,
    ) -> tuple[list[str], Launch | None]:
        """:meth:`~arena.botproc.sandboxes.base.SandboxBackend.command`."""
        join = cgroup.join_files if cgroup is not None else ()
        limits = sandbox.rlimits(cgroup, file_cap)
        fd9 = seccomp.program_path(locks=not sandbox.build)
        bwrap = _bwrap_args(sandbox, argv, workdir, bwrap_host(), fd9 is not None, scratch)
        return shell_launch(join, limits, bwrap, fd9), None

    def env(self, sandbox: Sandbox, workdir: Path) -> dict[str, str]:
        """:meth:`~arena.botproc.sandboxes.base.SandboxBackend.env`."""
        env = {k: v for k, v in os.environ.items() if kept_env(k)}
        env.update(HOME="/tmp", TMPDIR="/tmp", PYTHONUNBUFFERED="1")
        return env

    def bot_ids(self, sandbox: Sandbox) -> tuple[int, int] | None:
        """:meth:`~arena.botproc.sandboxes.base.SandboxBackend.bot_ids`."""
        return nobody() if bwrap_host().as_nobody else None

    def describe(self, sandbox: Sandbox) -> str:
        """:meth:`~arena.botproc.sandboxes.base.SandboxBackend.describe`."""
        host = bwrap_host()
        who = "nobody" if host.as_nobody else user_name()
        if os.getuid() == 0 and not host.as_nobody:
            who += " without capabilities"
        parts = [
            f"bubblewrap: bots run as {who}, no network, read-only system, "
            "nothing of $HOME or other bots, private /tmp and /dev/shm"
        ]
        if sandbox.disk_mb and "--size" in host.options:
            parts.append(f"{sandbox.disk_mb} MiB of files")
        return "; ".join(parts)


BACKEND = BwrapBackend()
