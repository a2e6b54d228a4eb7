"""The bots' private directories: one folder per game, one directory per seat, removed after.

They live under :data:`BOT_HOMES` (one folder per user, mode 0700, never followed through a
link), named ``<game>-<owner tag>-<random>`` so that a later run removes what a killed one
left behind. A finished game's folder is removed while the next game's bots start up (or at
exit): removing folders can cost milliseconds each (ext4 mounted with ``discard``), time the
referee would otherwise add to every game. Each seat's directory stays open as a descriptor
for the whole game: the referee reads and writes protocol files through it, so a bot that
renames or replaces its directory cannot redirect the referee anywhere else.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import stat
import sys
import tempfile
from pathlib import Path

from arena.botproc import procinfo, trees
from arena.botproc.sandboxes.base import Sandbox
from arena.botproc.sandboxes.registry import backend_of
from arena.botproc.spawn import sweep_orphans

BOT_HOMES = Path(tempfile.gettempdir()) / f"arena-bots-{os.getuid()}"
"""Parent of every bot's private working directory (hidden from sandboxed bots)."""

_retired: list[Path] = []
"""Folders of finished games this process has yet to remove (:func:`remove_retired`)."""


def private_folder(path: Path) -> bool:
    """Create ``path`` (mode 0700) where it is missing; whether it is now a folder of this
    user's own (never a link to one), made 0700 again where others could enter it."""
    with contextlib.suppress(FileExistsError):
        path.mkdir(mode=0o700)
    st = path.lstat()
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid():
        return False
    if stat.S_IMODE(st.st_mode) & 0o077:
        path.chmod(0o700)
    return True


def bot_homes() -> Path:
    """:data:`BOT_HOMES`, created if needed; refuses one that is not this user's own folder,
    or one inside a folder where another user could replace it (:func:`replaceable_by_others`)."""
    if (open_folder := replaceable_by_others(BOT_HOMES.parent)) is not None:
        raise RuntimeError(
            f"{open_folder} (the temporary folder, $TMPDIR) is writable by others without "
            f"the sticky bit: another user could replace {BOT_HOMES}; refusing to use it"
        )
    if not private_folder(BOT_HOMES):
        raise RuntimeError(f"{BOT_HOMES} is not a folder of this user: refusing to use it")
    return BOT_HOMES


def replaceable_by_others(folder: Path) -> Path | None:
    """The first of ``folder`` and its parents that lets another user rename or replace
    what it holds (another user's, or writable by others without the sticky bit); None."""
    for path in [folder, *folder.parents]:
        try:
            st = path.stat()
        except OSError:
            continue
        open_to_others = st.st_mode & 0o022 and not st.st_mode & stat.S_ISVTX
        if st.st_uid not in (0, os.getuid()) or open_to_others:
            return path
    return None


class BotHome:
    """One game's folder of bot directories (``seat0``, ``seat1``...).

    The directories belong to the user bots run as (nobody, when root sandboxes them).
    :meth:`close` kills the orphans the game's bots left, then removes everything.
    """

    def __init__(self, path: Path, seats: int, sandbox: Sandbox) -> None:
        self.path = path
        self.workdirs = [path / f"seat{i}" for i in range(seats)]
        self.fds: list[int] = []
        ids = backend_of(sandbox).bot_ids(sandbox)
        for wd in self.workdirs:
            wd.mkdir(mode=0o755)
            if ids is not None:
                os.chown(wd, *ids)
            self.fds.append(os.open(wd, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW))

    @classmethod
    def create(cls, game: str, seats: int, sandbox: Sandbox) -> BotHome:
        """A fresh folder for ``game`` with one directory per seat."""
        prefix = f"{game}-{procinfo.owner_tag()}-"
        path = Path(tempfile.mkdtemp(prefix=prefix, dir=bot_homes()))
        path.chmod(0o755)  # bots running as nobody must reach their directory
        return cls(path, seats, sandbox)

    def close(self) -> None:
        """Kill the bots' orphans and close the descriptors; the folder goes at the next
        :func:`remove_retired` (idempotent)."""
        sweep_orphans()
        for fd in self.fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        self.fds = []
        if self.path not in _retired:
            _retired.append(self.path)


def remove_retired() -> None:
    """Remove the folders of finished games: the referee calls it once a game's bots are
    starting (it would wait for them anyway); it also runs at exit."""
    while _retired:
        remove_tree(_retired.pop())


atexit.register(remove_retired)


def remove_tree(path: Path) -> bool:
    """Remove ``path`` whatever a bot left in it (any depth, folders it made unreadable;
    never follows links); whether it is gone. A failure is never fatal: it is reported
    once on standard error and the run goes on (a later run tries again)."""
    why = trees.remove_tree(path)
    if why is not None and str(path) not in _reported:
        _reported.add(str(path))
        with contextlib.suppress(OSError, ValueError):
            print(f"arena: could not remove a bot folder: {why}", file=sys.stderr, flush=True)
    return why is None


_reported: set[str] = set()
"""Clean-up failures already reported by this process."""


def remove_leftover_homes(mine: bool = False) -> int:
    """Remove game folders whose owner is gone (``mine``: or is this process); how many."""
    removed = 0
    if not BOT_HOMES.is_dir() or BOT_HOMES.is_symlink():
        return 0
    me = procinfo.owner_tag()
    try:
        children = list(BOT_HOMES.iterdir())
    except OSError:
        return 0
    for child in children:
        gone = procinfo.owner_alive(child.name) is False
        if (gone or (mine and procinfo.owner_of(child.name) == me)) and remove_tree(child):
            removed += 1
    return removed
