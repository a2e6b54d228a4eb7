"""``sandbox: none``: no bubblewrap. The bot runs as arena's user in its own directory and
session, with its cgroups, rlimits and (where the kernel allows) a private ``/tmp`` and
``/dev/shm`` and a PID namespace of its own (see ``launcher.py`` and docs/sandbox.md).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from arena.botproc import cgroups, seccomp
from arena.botproc.launcher import Launch, PrivateDirs, probe_private_dirs
from arena.botproc.sandboxes.base import Sandbox, SandboxKind, user_name
from arena.botproc.sandboxes.view import command_view

_private: tuple[PrivateDirs | None] | None = None  # (the probe's result,) once known


def private_dirs_supported() -> PrivateDirs | None:
    """How bots without bubblewrap get a private /tmp and /dev/shm here (None: they cannot).

    Probed once per process (a forked child tries it), or handed over by the process that
    started this one (:class:`~arena.botproc.sandboxes.base.HostFacts`).
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


def private_to_json(private: PrivateDirs | None) -> Any:
    """The probe's result as a JSON value (for the host cache)."""
    return None if private is None else {"userns": private.userns, "pid_ns": private.pid_ns}


def private_from_json(value: Any) -> PrivateDirs | None:
    """The probe's result back (its folder, sizes and kept paths are chosen per bot)."""
    if value is None:
        return None
    pid_ns = value.get("pid_ns", [])
    if not all(isinstance(word, str) for word in pid_ns):
        raise ValueError("not a command")
    return PrivateDirs("/", 1024 * 1024, bool(value["userns"]), pid_ns=tuple(pid_ns))


class NoneBackend:
    """Bots as arena's user, confined by the launcher's steps alone."""

    kind: SandboxKind = "none"
    title = "none"
    isolates = False
    programs: tuple[str, ...] = ("unshare",)
    launcher_on_top = False
    system_programs_first = False
    shows_copies = False

    def probe(self) -> PrivateDirs | None:
        """:meth:`~arena.botproc.sandboxes.base.SandboxBackend.probe`."""
        return private_dirs_supported()

    def unusable(self) -> str | None:
        """:meth:`~arena.botproc.sandboxes.base.SandboxBackend.unusable`."""
        return None

    def adopt(self, found: Any) -> None:
        """:meth:`~arena.botproc.sandboxes.base.SandboxBackend.adopt`."""
        global _private
        if _private is None:
            _private = (found,)

    def cached(self) -> tuple[Any] | None:
        """:meth:`~arena.botproc.sandboxes.base.SandboxBackend.cached`."""
        return None if _private is None else (private_to_json(_private[0]),)

    def adopt_cached(self, value: Any) -> None:
        """:meth:`~arena.botproc.sandboxes.base.SandboxBackend.adopt_cached`."""
        self.adopt(private_from_json(value))

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
        private = None
        if (mode := private_dirs_supported()) is not None:
            _, shown = command_view(argv, str(workdir), sandbox)
            private = PrivateDirs(
                str(workdir),
                sandbox.tmpfs_bytes,
                mode.userns,
                tuple(shown),
                scratch and sandbox.disk_mb is not None,
            )
        no_keyrings = seccomp.program() is not None
        # The bot's own behind unshare: a PID namespace of its own (see launcher.py).
        pid_ns = mode.pid_ns if mode is not None else ()
        limits = tuple(sandbox.rlimits(cgroup, file_cap))
        # Root's bot keeps no capability: unshare needs them, so setpriv drops them
        # after it where it runs; else the launch, before exec.
        drop: tuple[str, ...] = ()
        if os.geteuid() == 0 and pid_ns and (setpriv := shutil.which("setpriv")):
            drop = (setpriv, "--bounding-set=-all", "--inh-caps=-all", "--")
        drop_caps = os.geteuid() == 0 and not drop
        launch = Launch(join, limits, private, os.getpid(), no_keyrings, bool(pid_ns), drop_caps)
        return [*pid_ns, *drop, *argv], launch

    def env(self, sandbox: Sandbox, workdir: Path) -> dict[str, str]:
        """:meth:`~arena.botproc.sandboxes.base.SandboxBackend.env`."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_")}
        env["TMPDIR"] = "/tmp" if private_dirs_supported() else str(workdir)
        env["PYTHONUNBUFFERED"] = "1"
        return env

    def bot_ids(self, sandbox: Sandbox) -> tuple[int, int] | None:
        """:meth:`~arena.botproc.sandboxes.base.SandboxBackend.bot_ids`."""
        return None

    def describe(self, sandbox: Sandbox) -> str:
        """:meth:`~arena.botproc.sandboxes.base.SandboxBackend.describe`."""
        mode = private_dirs_supported()
        tmp = "private" if mode is not None else "shared with the host"
        pids = "own PID namespace" if pid_namespace() else "arena's processes in reach"
        parts = [f"none: bots run as {user_name()}, /tmp and /dev/shm {tmp}, {pids}"]
        if sandbox.disk_mb:
            parts.append(
                f"{sandbox.disk_mb} MiB of files" if mode is not None else "files not capped"
            )
        return "; ".join(parts)


BACKEND = NoneBackend()
