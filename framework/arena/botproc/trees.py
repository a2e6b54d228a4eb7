"""Removing a folder a bot had its hands on, whatever it left there.

A bot may leave any tree in its directory: thousands of nested folders (deeper than
Python's recursion limit, longer than ``PATH_MAX``), folders it made unreadable or
unwritable (``chmod 000``), symbolic links to anything, FIFOs. :func:`remove_tree` walks
it with an explicit stack of names, one open directory at a time, relative to that
directory's descriptor (never a long path), never follows a link, gives a folder back its
owner's permissions before entering or emptying it, and never raises: it returns what
it could not remove, for the caller to report once.
"""

from __future__ import annotations

import contextlib
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass
class _Level:
    """One folder on the way down: its name in its parent, and entries that would not go."""

    name: str
    stuck: set[str] = field(default_factory=set)


def _open_dir(name: str, parent: int) -> int:
    """Open the folder ``name`` in ``parent`` (never through a link), first giving it
    back read, write and search permission for its owner if it needs them."""
    try:
        fd = os.open(name, _DIR_FLAGS, dir_fd=parent)
    except PermissionError:
        _chmod_dir(name, parent)
        fd = os.open(name, _DIR_FLAGS, dir_fd=parent)
    with contextlib.suppress(OSError):
        if stat.S_IMODE(os.fstat(fd).st_mode) & 0o700 != 0o700:
            os.fchmod(fd, 0o700)
    return fd


def _chmod_dir(name: str, parent: int) -> None:
    """``chmod 700`` the folder ``name`` of ``parent`` without following a link."""
    path_flags = getattr(os, "O_PATH", 0) | os.O_NOFOLLOW | os.O_DIRECTORY | os.O_CLOEXEC
    fd = os.open(name, path_flags, dir_fd=parent)
    try:
        # chmod through /proc/self/fd acts on the very folder opened, never on a link.
        os.chmod(f"/proc/self/fd/{fd}", 0o700)
    finally:
        os.close(fd)


def _remove_entry(name: str, parent: int) -> bool:
    """Remove a non-folder (or an empty folder) ``name`` of ``parent``; whether it went."""
    for attempt in range(2):
        try:
            st = os.lstat(name, dir_fd=parent)
            if stat.S_ISDIR(st.st_mode):
                os.rmdir(name, dir_fd=parent)
            else:
                os.unlink(name, dir_fd=parent)
            return True
        except FileNotFoundError:
            return True
        except PermissionError:
            if attempt:
                return False
            with contextlib.suppress(OSError):
                os.fchmod(parent, 0o700)  # a folder the bot made unwritable
        except OSError:
            return False
    return False


def _is_dir(name: str, parent: int) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(name, dir_fd=parent).st_mode)
    except OSError:
        return False


def remove_tree(path: Path | str) -> str | None:
    """Remove ``path`` and everything under it; None once it is gone, else why not.

    Iterative (any depth), never follows a symbolic link, and gives back their owner's
    permissions to folders a bot took them from; it never raises.
    """
    path = Path(path)
    try:
        parent = os.open(path.parent, _DIR_FLAGS & ~os.O_NOFOLLOW)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"{path}: {exc.strerror or exc}"
    try:
        if not _is_dir(path.name, parent):
            if _remove_entry(path.name, parent) or not os.path.lexists(path):
                return None
            return f"{path}: could not be removed"
        return _remove_folder(path, parent)
    finally:
        os.close(parent)


def _remove_folder(path: Path, top_parent: int) -> str | None:
    """Remove the folder ``path`` (an entry of the open folder ``top_parent``)."""
    levels = [_Level(path.name)]
    try:
        current = _open_dir(path.name, top_parent)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"{path}: {exc.strerror or exc}"
    stuck_inside = 0
    try:
        while True:
            level = levels[-1]
            # Empty the current folder of everything but folders; enter the first folder
            # that is not empty (and not known to be stuck).
            child = None
            try:
                with os.scandir(current) as entries:
                    names = [e.name for e in entries]
            except OSError:
                names = []
            for name in names:
                if name in level.stuck:
                    continue
                if not _is_dir(name, current):
                    if not _remove_entry(name, current):
                        level.stuck.add(name)
                        stuck_inside += 1
                    continue
                if _remove_entry(name, current):  # an empty folder goes at once
                    continue
                child = name
                break
            if child is not None:
                try:
                    fd = _open_dir(child, current)
                except OSError:
                    level.stuck.add(child)
                    stuck_inside += 1
                    continue
                os.close(current)
                current = fd
                levels.append(_Level(child))
                continue
            # The current folder holds nothing it can lose: go up and remove it.
            done = levels.pop()
            if not levels:
                break
            try:
                up = os.open("..", _DIR_FLAGS & ~os.O_NOFOLLOW, dir_fd=current)
            except OSError as exc:
                return f"{path}: {exc.strerror or exc}"
            os.close(current)
            current = up
            if not done.stuck and not _remove_entry(done.name, current):
                levels[-1].stuck.add(done.name)
                stuck_inside += 1
            elif done.stuck:
                levels[-1].stuck.add(done.name)
    finally:
        os.close(current)
    if _remove_entry(path.name, top_parent) and not stuck_inside:
        return None
    if not os.path.lexists(path):
        return None
    return f"{path}: {stuck_inside or 'some'} entries could not be removed"
