"""The machine's core ledger: every arena process of a machine, whoever runs it, takes a
core per bot that thinks at once for each game it plays, and gives it back as the game ends.

The ledger is a folder every user may write (``/dev/shm/arena-cores``, mode 1777, like
``/tmp``) holding one lock file per CPU, ``core-<n>.lock``. A core is held while a
process holds an exclusive ``flock`` on its file: the kernel drops the lock when the
holder exits, however it ends (``kill -9`` included), so no core is ever left taken by a
process that is gone. A game takes all of its cores or none (no lock is ever waited for
while another is held, so no two games wait for each other). The holder writes who it is
into the file (its process id and its game's number), so a waiting run can say what it
waits for; only that text is trusted from the file, and only to be shown.

Against another local user the folder is opened without following a symbolic link and
each lock file too (``O_NOFOLLOW``); a lock file is created with ``O_CREAT | O_EXCL`` at
mode 0666 (whatever the umask), an existing one is opened without ``O_CREAT`` (which
``fs.protected_regular`` would refuse in a sticky folder), and only as a regular file with
one link. A core whose file is anything else (a symbolic link, a fifo, a file no one may
open) is *spoiled*: arena says so once and plays on that core without the ledger, so a
planted file can never keep a core from everyone (see ``docs/fair-time.md``).

``ARENA_CORE_LEDGER`` chooses the folder (a path), or turns the ledger off (``off``).
``ARENA_CORE_TRACE`` names a file each take and give is appended to, in the order they
happen (the ledger's tests read it).

This module imports only the standard library: the bot processes' layer reads the cores
the ledger gave this process's game (:func:`given`) to pin its bots to them.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ENV = "ARENA_CORE_LEDGER"
TRACE_ENV = "ARENA_CORE_TRACE"
DEFAULT_FOLDER = Path("/dev/shm" if os.path.isdir("/dev/shm") else "/tmp") / "arena-cores"
OFF = ("off", "0", "no", "false")
FOLDER_MODE = 0o1777
FILE_MODE = 0o666
INFO_BYTES = 64
"""At most this much of a lock file is read back (the holder's ``<pid> <game>``)."""


def ledger_folder() -> Path | None:
    """The ledger's folder as ``ARENA_CORE_LEDGER`` says (default :data:`DEFAULT_FOLDER`),
    or None when it turns the ledger off."""
    value = os.environ.get(ENV, "").strip()
    if value.lower() in OFF:
        return None
    if value in ("", "on", "1", "yes", "true"):
        return DEFAULT_FOLDER
    return Path(value)


def machine_cores() -> list[int]:
    """The CPUs this process may run on: the ledger's cores, as this process sees them."""
    try:
        return sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return list(range(os.cpu_count() or 1))


@dataclass(frozen=True)
class CoreWait:
    """Why a game waits for cores: ``need`` of ``cores``, ``held`` by ``games`` games of
    ``runs`` other arena processes (``mine``: held by this run's own games)."""

    need: int
    cores: int
    held: int
    games: int
    runs: int
    mine: int = 0

    def message(self) -> str:
        """E.g. ``waiting for a core: 2 games of another arena run are using them (2 of 2
        cores held by others)``."""
        what = "a core" if self.need == 1 else f"{self.need} cores"
        if self.held == 0:
            return f"waiting for {what}: this run's other games are using them"
        games = f"{self.games} game{'' if self.games == 1 else 's'}"
        runs = "another arena run" if self.runs == 1 else f"{self.runs} other arena runs"
        verb = "is" if self.games == 1 else "are"
        mine = f", {self.mine} by this run" if self.mine else ""
        return (
            f"waiting for {what}: {games} of {runs} {verb} using them "
            f"({self.held} of {self.cores} cores held by others{mine})"
        )


@dataclass
class Claim:
    """The cores one game holds (``fds``: their locks; a spoiled core has none)."""

    cores: list[int]
    fds: list[int] = field(default_factory=list)
    oversubscribed: bool = False
    """Started without all of its cores (an explicit concurrency above the fair one)."""
    ledger: CoreLedger | None = None
    game: int = 0  # its number among this process's claims

    def release(self) -> None:
        """Give the cores back (idempotent)."""
        if self.ledger is not None:
            self.ledger.gave(self)
            self.ledger = None
        for fd in self.fds:
            _HELD.discard(fd)
            with contextlib.suppress(OSError):
                os.close(fd)
        self.fds = []


_HELD: set[int] = set()
"""The descriptors of every lock this process holds: a forked child closes its copies
(:func:`_forked`), or a lock would outlive its release in the parent (a lock belongs to the
open file, which both then share)."""


def _forked() -> None:
    for fd in _HELD:
        with contextlib.suppress(OSError):
            os.close(fd)
    _HELD.clear()


os.register_at_fork(after_in_child=_forked)


class CoreLedger:
    """The ledger in ``folder`` (opened: :meth:`open`), as one arena process uses it."""

    def __init__(self, folder: Path, dir_fd: int, cores: list[int]) -> None:
        self.folder = folder
        self.cores = cores
        self._dir_fd = dir_fd
        self.mine: set[int] = set()  # cores this process holds now
        self.spoiled: dict[int, str] = {}  # core: why its file is not used
        self.warnings: list[str] = []  # said once each (spoiled files), for the caller
        self._games = 0

    @classmethod
    def open(cls, folder: Path, cores: list[int] | None = None) -> CoreLedger:
        """The ledger in ``folder`` (created, mode 1777, when missing); raises
        :class:`OSError` with a reason when it cannot be used."""
        try:
            os.mkdir(folder, FOLDER_MODE)
            os.chmod(folder, FOLDER_MODE, follow_symlinks=False)  # whatever the umask
        except FileExistsError:
            pass
        flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
        try:
            dir_fd = os.open(folder, flags)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                raise OSError(exc.errno, "not a folder (a symbolic link or a file)") from None
            raise
        info = os.fstat(dir_fd)
        trusted = info.st_uid in (0, os.getuid())
        if not trusted and not info.st_mode & stat.S_ISVTX:
            os.close(dir_fd)
            raise OSError(errno.EPERM, f"owned by user {info.st_uid} and not sticky")
        return cls(folder, dir_fd, cores if cores is not None else machine_cores())

    def close(self) -> None:
        """Close the folder (the claims keep their locks until released)."""
        with contextlib.suppress(OSError):
            os.close(self._dir_fd)

    # -- lock files ----------------------------------------------------------------------

    def _open(self, core: int) -> tuple[int | None, bool]:
        """Core ``core``'s lock file, opened (descriptor, writable), or (None, False) when
        it is spoiled (noted in :attr:`spoiled`)."""
        name = f"core-{core}.lock"
        base = os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK | os.O_NOCTTY
        writable = True
        fd: int | None
        try:
            fd = os.open(
                name, base | os.O_RDWR | os.O_CREAT | os.O_EXCL, FILE_MODE, dir_fd=self._dir_fd
            )
            with contextlib.suppress(OSError):
                os.fchmod(fd, FILE_MODE)
        except FileExistsError:
            try:
                fd = os.open(name, base | os.O_RDWR, dir_fd=self._dir_fd)
            except PermissionError:
                writable = False  # a lock works on a read-only descriptor too
                fd = self._open_read(name, core)
            except OSError as exc:
                fd = None
                self._spoil(core, exc.strerror or str(exc), exc.errno)
        except OSError as exc:
            fd = None
            self._spoil(core, exc.strerror or str(exc), exc.errno)
        if fd is None:
            return None, False
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1:
            os.close(fd)
            kind = "not a regular file" if not stat.S_ISREG(info.st_mode) else "a hard link"
            self._spoil(core, kind)
            return None, False
        return fd, writable

    def _open_read(self, name: str, core: int) -> int | None:
        flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK | os.O_NOCTTY
        try:
            return os.open(name, flags, dir_fd=self._dir_fd)
        except OSError as exc:
            self._spoil(core, exc.strerror or str(exc), exc.errno)
            return None

    def _spoil(self, core: int, why: str, code: int | None = None) -> None:
        if code == errno.ELOOP:
            why = "a symbolic link"
        if core not in self.spoiled:
            self.spoiled[core] = why
            self.warnings.append(
                f"arena: warning: core ledger: {self.folder / f'core-{core}.lock'} is not "
                f"arena's lock file ({why}): core {core} is used without the ledger "
                "(see docs/fair-time.md)"
            )

    def _lock(self, core: int) -> tuple[int | None, bool]:
        """Core ``core``'s lock, held now (descriptor, writable), or (None, False) when
        another holds it. A spoiled core: (-1, False)."""
        fd, writable = self._open(core)
        if fd is None:
            return -1, False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return None, False
        return fd, writable

    # -- claims --------------------------------------------------------------------------

    def take(self, n: int, allow_fewer: bool = False) -> Claim | None:
        """``n`` cores no other game holds (highest first), all or none (None), or with
        ``allow_fewer`` as many as are free (the caller starts its game oversubscribed)."""
        claim = Claim([], [], game=self._games + 1)
        record = f"{os.getpid()} {claim.game}\n".encode()
        for core in sorted(set(self.cores) - self.mine, reverse=True):
            if len(claim.cores) == n:
                break
            fd, can_write = self._lock(core)
            if fd is None:
                continue
            claim.cores.append(core)
            if fd < 0:
                continue  # spoiled: no lock
            claim.fds.append(fd)
            _HELD.add(fd)
            if can_write:  # who holds it, for the runs that wait
                with contextlib.suppress(OSError):
                    os.ftruncate(fd, 0)
                    os.pwrite(fd, record, 0)
        if len(claim.cores) < n and not allow_fewer:
            claim.release()
            return None
        self._games += 1
        claim.ledger = self
        claim.oversubscribed = len(claim.cores) < n
        self.mine.update(claim.cores)
        _trace("over" if claim.oversubscribed else "take", claim.cores, claim.game)
        return claim

    def gave(self, claim: Claim) -> None:
        """``claim`` is being released (its locks are still held: traced first)."""
        _trace("give", claim.cores, claim.game)
        self.mine.difference_update(claim.cores)

    def free(self) -> list[int]:
        """The cores no game holds now (this process's own excluded; spoiled included)."""
        return [c for c in self.cores if c not in self.mine and self._holder(c) is None]

    def _holder(self, core: int) -> tuple[str, str] | None:
        """Who holds ``core`` (their process id and game, as their file says), or None."""
        fd, _ = self._open(core)
        if fd is None:
            return None
        try:
            try:  # shared: probes never keep each other out, only a holder does
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
                return None
            except OSError:
                pass
            with contextlib.suppress(OSError):
                words = os.pread(fd, INFO_BYTES, 0).decode("ascii", "replace").split()
                if len(words) >= 2 and words[0].isdigit():
                    return words[0], words[1]
            return "?", ""  # not written yet (or not by arena): one unknown holder
        finally:
            os.close(fd)

    def wait_info(self, need: int) -> CoreWait:
        """What a game that needs ``need`` cores waits for now."""
        holders = [h for c in self.cores if c not in self.mine and (h := self._holder(c))]
        return CoreWait(
            need,
            len(self.cores),
            len(holders),
            len(set(holders)),
            len({pid for pid, _ in holders}),
            len(self.mine),
        )


def _trace(what: str, cores: Iterable[int], game: int) -> None:
    """Append ``<what> <pid> <game> <cores>`` to :data:`TRACE_ENV`'s file, if set: one
    ``write`` of an ``O_APPEND`` file, so the lines keep the order the events had (a take
    is written once its locks are held, a give while they still are)."""
    path = os.environ.get(TRACE_ENV)
    if not path:
        return
    line = f"{what} {os.getpid()} {game} {','.join(map(str, sorted(cores)))}\n".encode()
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            os.write(fd, line)
        finally:
            os.close(fd)


# -- the cores of this process's game (a worker's) ---------------------------------------

_given: list[int] | None = None


def given() -> list[int] | None:
    """The cores the ledger gave the game this process plays now (None: none given)."""
    return _given


@contextlib.contextmanager
def playing_on(cores: list[int] | None) -> Iterator[None]:
    """While the block plays a game, :func:`given` says ``cores``."""
    global _given
    before, _given = _given, cores
    try:
        yield
    finally:
        _given = before


def held_elsewhere() -> set[int]:
    """The cores of the machine's ledger some game holds now (empty without a ledger)."""
    folder = ledger_folder()
    if folder is None or not folder.is_dir():
        return set()
    try:
        ledger = CoreLedger.open(folder)
    except OSError:
        return set()
    try:
        return set(ledger.cores) - set(ledger.free())
    finally:
        ledger.close()
