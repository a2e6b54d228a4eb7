"""Starting a bot's process in its sandbox, and ending it with everything it started.

The process that starts bots is a child subreaper: whatever a bot's children do (double
fork, ``setsid``, their parent exiting), orphans come back to it instead of to init, and
:func:`sweep_orphans` kills them at the end of the game. With cgroups, the bot's group is
emptied too; in the bot's PID namespace (bubblewrap's, or ``unshare``'s without it),
everything dies with the bot.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.botproc import procinfo
from arena.botproc.cgroups import BotCgroup
from arena.botproc.commands import start_problem
from arena.botproc.launcher import SHELL, become_subreaper
from arena.botproc.sandboxes.base import Sandbox
from arena.botproc.sandboxes.registry import backend_of

_live: dict[int, BotProcess] = {}
"""Bots this process started and has not reaped yet, by pid (other children: orphans)."""
_kept: set[int] = set()
"""Children started on purpose that are not bots (a game's helper): never swept."""
_subreaper = False


@dataclass
class BotProcess:
    """A started bot: its process and its cgroup (None where the machine has none)."""

    proc: subprocess.Popen[bytes]
    cgroup: BotCgroup | None
    signalled: bool = False  # signal() ran: everything found then was sent SIGKILL

    @property
    def pid(self) -> int:
        """The bot's process id (bubblewrap's, when sandboxed)."""
        return self.proc.pid

    def oom_kills(self) -> int:
        """How many of the bot's processes its memory cap killed."""
        return self.cgroup.oom_kills() if self.cgroup is not None else 0

    def signal(self) -> None:
        """Send SIGKILL to the bot and everything it started, without waiting for them.

        First its top process, then the whole cgroup (everything the bot started,
        wherever it went); then, for machines without cgroups, the descendants collected
        before the bot died (collected after, they would be orphans handed to us), the
        bot's process group, and each descendant by pid (those that called ``setsid``).
        """
        proc = self.proc
        self.signalled = True
        pids = procinfo.descendants(proc.pid) if proc.returncode is None else []
        # The top process first: where it is a wrapper (unshare, which waits for the bot)
        # that outlived the bot by a moment, it would report the bot's death on the bot's
        # stderr ("unshare: sigprocmask unblock failed"); dead first, it says nothing.
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(proc.pid, signal.SIGKILL)
        if self.cgroup is not None:
            self.cgroup.signal_all()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        for pid in [proc.pid, *pids]:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)

    def kill(self) -> None:
        """Kill the bot and everything it started, reap it, remove its cgroup."""
        if not self.signalled or self.cgroup is None:
            # (With a cgroup, what was signalled already is killed until the group is
            # empty below: nothing it started can have escaped the first signal.)
            self.signal()
        self.proc.wait()  # SIGKILL cannot be ignored: a blocking wait, no polling delay
        _live.pop(self.proc.pid, None)
        if self.cgroup is not None:
            self.cgroup.remove()  # killed until empty first (a fork racing the signals)


def spawn(
    argv: Sequence[str],
    workdir: Path,
    sandbox: Sandbox,
    stdin: int | None,
    stdout: int | None,
    stderr: int | None,
    file_cap: int,
    scratch: bool = False,
    core: int | None = None,
) -> BotProcess:
    """Start one bot process: its own session and directory, every limit set before it runs.

    ``scratch``: see :meth:`~arena.botproc.sandboxes.base.SandboxBackend.command`;
    ``core``: the CPU its cgroup confines it to (:func:`~arena.botproc.cgroups.claim_cores`)."""
    global _subreaper
    # What the machine allows, as probed where the sandbox was resolved.
    backend = backend_of(sandbox)
    if not _subreaper:
        become_subreaper()
        _subreaper = True
    cgroup = BotCgroup.create(sandbox.max_processes, sandbox.memory_mb, core=core)
    try:
        command, launch = backend.command(sandbox, argv, workdir, cgroup, file_cap, scratch)
        try:
            proc = subprocess.Popen(
                command,
                cwd=workdir,
                stdin=stdin,
                stdout=stdout,
                stderr=stderr,
                start_new_session=True,  # own session and process group: one killpg ends it
                bufsize=0,
                close_fds=True,
                env=backend.env(sandbox, workdir),
                preexec_fn=launch,
            )
        except (OSError, subprocess.SubprocessError) as exc:
            # The bot's program could not be run at all: a stand-in says why on its
            # stderr and exits 127, so the seat forfeits (crash) with the reason in sight.
            why = start_problem(argv[0]) or f"{type(exc).__name__}: {exc}"
            proc = subprocess.Popen(
                [SHELL, "-c", STAND_IN, "arena", why],
                cwd=workdir,
                stdin=stdin,
                stdout=stdout,
                stderr=stderr,
                start_new_session=True,
                close_fds=True,
                env={},
            )
    except BaseException:
        if cgroup is not None:
            cgroup.remove()
        raise
    bot = _live[proc.pid] = BotProcess(proc, cgroup)
    return bot


STAND_IN = 'printf "arena: cannot start the bot: %s\\n" "$1" >&2; exit 127'
"""What runs instead of a bot whose program cannot be started (its reason as ``$1``)."""


OOM_MESSAGES = (
    "MemoryError",  # Python
    "std::bad_alloc",  # C++
    "Cannot allocate memory",  # C (strerror ENOMEM), many runtimes
    "out of memory",  # Go, Node ("JavaScript heap out of memory"), Rust
    "OutOfMemoryError",  # Java
)


DISK_MESSAGES = ("No space left on device", "ENOSPC", "File too large", "EFBIG")
"""What a bot's last stderr line says when it met its disk cap (or the file size cap)."""


def out_of_memory(
    oom_kills: int, last_stderr_line: str, memory_mb: int | None, disk_mb: int | None = None
) -> str | None:
    """Why a bot that crashed ran out of its memory cap, or None if it did not.

    Exact where a memory cgroup caps the bot (the kernel counts the processes it killed);
    where only the address-space limit caps it, the bot sees its allocation fail and most
    runtimes say so in their last line of stderr. The files a bot writes are memory too
    (tmpfs): a bot that crashed on its ``disk_mb`` cap ran out of memory as well.
    """
    if disk_mb and any(message in last_stderr_line for message in DISK_MESSAGES):
        return f"filled its disk cap ({disk_mb} MiB): {last_stderr_line[:200]}"
    if not memory_mb:
        return None
    if oom_kills:
        return f"killed by its memory cap ({memory_mb} MiB)"
    if any(message in last_stderr_line for message in OOM_MESSAGES):
        return f"ran out of its memory cap ({memory_mb} MiB): {last_stderr_line[:200]}"
    return None


def keep_child(pid: int) -> None:
    """Mark a child this process started on purpose (not a bot): never swept as an orphan.

    For processes the core starts outside the bot sandbox, such as a game's helper
    (:mod:`arena.referee.external`); end them with :func:`kill_tree`.
    """
    _kept.add(pid)


def kill_tree(proc: subprocess.Popen[bytes]) -> None:
    """Kill a process that is not a bot with everything it started, then reap it."""
    _kept.discard(proc.pid)
    BotProcess(proc, None).kill()


def kill_every_bot() -> None:
    """Kill every bot this process started and every orphan (the end of a game, a worker's
    last act). Every bot is signalled before any is waited for: they die together."""
    bots = list(_live.values())
    for bot in bots:
        bot.signal()
    for bot in bots:
        bot.kill()
    sweep_orphans()


def sweep_orphans() -> int:
    """Kill and reap every child of this process that is not a live bot; how many.

    Those are orphans of bots that came back to this subreaper. Children in this
    process's own session (worker processes, tools it ran) are never touched: a bot and
    all it starts live in sessions of their own.
    """
    me, session = os.getpid(), os.getsid(0)
    swept = 0
    for _ in range(100):
        strays = [
            pid
            for pid in procinfo.children(me)
            if pid not in _live
            and pid not in _kept
            and procinfo.session_of(pid) not in (session, None)
        ]
        if not strays:
            break
        for pid in strays:
            for victim in [*procinfo.descendants(pid), pid]:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(victim, signal.SIGKILL)
        for pid in strays:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
        swept += len(strays)
    return swept
