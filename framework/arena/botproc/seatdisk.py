"""A total cap on the files a per-turn bot (a file protocol) keeps in its directory.

A per-turn bot's directory outlives each of its processes: the referee writes the next
input there and reads the answer, so it cannot be a tmpfs of the bot's own mount
namespace, as a line-protocol bot's is (:class:`~arena.botproc.launcher.PrivateDirs`).
Instead the process that plays the game (a worker of the pool, a Dask worker's game
process, ``arena match``) moves once into a mount namespace of its own,
and mounts on each seat's directory a tmpfs of ``disk_mb`` (:func:`cap_seats`), where it
runs as root. Its bots,
its children, start in that namespace and see the tmpfs at the directory's path; the
referee reads it through its descriptor; nothing of it is visible on the host, and it
goes when the game ends (or with the process). Writing past the cap fails with
``ENOSPC``: the bot loses for ``memory`` if it dies of it.

Where that cannot be done (not root, a process with threads), the
directory's total size is measured after each turn instead (:func:`directory_bytes`,
through the descriptor, links never followed) and a bot over ``disk_mb`` loses for
``memory``: a check after the fact, the host's disk holds what the turn wrote meanwhile.
"""

from __future__ import annotations

import contextlib
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from arena.botproc.launcher import (
    CLONE_NEWNS,
    MS_NODEV,
    MS_NOSUID,
    MS_PRIVATE,
    MS_REC,
    _libc,
    _mount,
    _unshare,
)
from arena.botproc.sandboxes.base import Sandbox
from arena.botproc.sandboxes.registry import backend_of

MNT_DETACH = 2
_allowed = False  # this process plays games and nothing else: see allow_private_mounts
_private: bool | None = None  # this process's own mount namespace: made, failed, not tried


def allow_private_mounts() -> None:
    """Say that this process (single-threaded, playing games only: a pool worker, a Dask
    worker's game process) may move into a mount namespace of its own for the first game
    that needs it. Elsewhere (a script running a referee) caps are checked instead."""
    global _allowed
    _allowed = True


def private_mounts() -> bool:
    """Move this process into a mount namespace of its own (once, if allowed); whether it
    is in one. Fails (False) in a process with other threads, or where the kernel
    refuses the namespaces; nothing is changed then.
    """
    global _private
    if _private is None and _allowed:
        _private = _enter()
    return bool(_private)


def _enter() -> bool:
    # Only root: another user would need a user namespace, whose capabilities this
    # process would then hold, and its bots (which hold none) could no longer open what
    # it shares with them under /proc (bubblewrap's seccomp filter). It checks instead.
    if os.getuid() != 0:
        return False
    try:
        _unshare(CLONE_NEWNS)
        # Nothing mounted here may propagate back to the host.
        _mount(None, "/", None, MS_REC | MS_PRIVATE, "")
    except OSError:
        return False
    return True


@dataclass
class SeatCaps:
    """The tmpfs mounted on a game's seat directories (empty: none could be)."""

    mounted: list[str] = field(default_factory=list)
    cap_bytes: int | None = None
    checked: bool = False
    """No tmpfs: each turn's end measures the directory instead (:func:`over_cap`)."""

    def release(self) -> None:
        """Unmount them (the game is over, its descriptors closed)."""
        for path in self.mounted:
            _libc.umount2(path.encode(), MNT_DETACH)
        self.mounted = []


def cap_seats(workdirs: list[Path], fds: list[int], sandbox: Sandbox) -> SeatCaps:
    """Mount a tmpfs of the sandbox's disk cap on each seat directory (still empty), and
    open ``fds`` again on them; without a cap, nothing. Where no tmpfs can be mounted the
    caps are checked after each turn (:attr:`SeatCaps.checked`)."""
    if not sandbox.disk_mb:
        return SeatCaps()
    size = sandbox.tmpfs_bytes or sandbox.disk_mb * 1024 * 1024
    caps = SeatCaps(cap_bytes=sandbox.disk_mb * 1024 * 1024)
    if not private_mounts():
        caps.checked = True
        return caps
    ids = backend_of(sandbox).bot_ids(sandbox)
    uid, gid = ids if ids is not None else (os.getuid(), os.getgid())
    options = f"size={size},mode=0755,uid={uid},gid={gid}"
    try:
        for i, wd in enumerate(workdirs):
            _mount("tmpfs", str(wd), "tmpfs", MS_NOSUID | MS_NODEV, options)
            caps.mounted.append(str(wd))
            fd = os.open(wd, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
            os.close(fds[i])
            fds[i] = fd
    except OSError:
        caps.release()
        caps.checked = True
    return caps


def directory_bytes(dir_fd: int, limit: int) -> int:
    """Bytes of every regular file below ``dir_fd`` (links never followed); stops counting
    once past ``limit``, or past 10,000 entries (then more than ``limit``)."""
    total, budget = 0, 10_000
    todo: list[tuple[int, bool]] = [(dir_fd, False)]
    try:
        while todo:
            fd, own = todo.pop()
            try:
                names = os.listdir(fd)
                budget -= len(names)
                if budget < 0:
                    return limit + 1
                for name in names:
                    with contextlib.suppress(OSError):
                        st = os.stat(name, dir_fd=fd, follow_symlinks=False)
                        if stat.S_ISREG(st.st_mode):
                            total += st.st_blocks * 512 if st.st_blocks else st.st_size
                        elif stat.S_ISDIR(st.st_mode):
                            flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
                            todo.append((os.open(name, flags, dir_fd=fd), True))
                    if total > limit:
                        return total
            finally:
                if own:
                    os.close(fd)
    finally:
        for fd, own in todo:
            if own:
                os.close(fd)
    return total


def over_cap(dir_fd: int, caps: SeatCaps, disk_mb: int | None) -> str | None:
    """The forfeit detail when a checked directory holds more than the cap, else None."""
    if not caps.checked or caps.cap_bytes is None:
        return None
    used = directory_bytes(dir_fd, caps.cap_bytes)
    if used <= caps.cap_bytes:
        return None
    return f"filled its disk cap ({disk_mb} MiB): its directory holds over {used >> 20} MiB"
