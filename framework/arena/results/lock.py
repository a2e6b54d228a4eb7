"""One run at a time per output folder: ``arena run`` and ``arena match --output`` hold an
exclusive lock (``flock``) on ``.arena.lock`` in the folder for as long as they run.

Two runs on one folder would play the same games and overwrite each other's replay
files; the second one stops at once, naming the folder, before it writes anything. The
kernel drops the lock when its process ends, however it ends (``kill -9`` included): a
stale lock file never blocks a later run.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
from pathlib import Path

from arena.errors import ConfigError

LOCK_NAME = ".arena.lock"


class OutputLock:
    """The held lock of one output folder; :meth:`release` (or process exit) frees it."""

    def __init__(self, output: Path, fd: int) -> None:
        self.output = output
        self._fd: int | None = fd

    def release(self) -> None:
        """Free the lock (idempotent)."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None

    def __enter__(self) -> OutputLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def lock_output(output: Path) -> OutputLock:
    """Lock the (existing) output folder ``output`` for this process; :class:`ConfigError`
    when another run holds it or the lock file cannot be made."""
    path = output / LOCK_NAME
    flags = os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            why = f"cannot write in this output folder: {exc.strerror}"
            raise ConfigError(f"{output}: {why}") from None
        raise ConfigError(f"{output}: cannot lock this output folder: {exc.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        os.close(fd)
        if isinstance(exc, BlockingIOError):
            raise ConfigError(
                f"{output}: another arena is running on this output folder; wait for it to "
                "end or choose another output folder"
            ) from None
        raise ConfigError(f"{output}: cannot lock this output folder: {exc.strerror}") from None
    return OutputLock(output, fd)
