"""The files a bot's command names, packed to travel and unpacked into a content-addressed cache.

A tournament played on other machines must not need the user's checkout there. Every
file or folder that a bot's command names (the absolute paths
:func:`arena.tournament.config.resolve_command` made), except the system's own (interpreters and
what comes with them: see :data:`SYSTEM_DIRS`), is packed with its executable bits and
named by the SHA-256 of its name and content. A worker unpacks each pack once into
``<cache>/<digest>/<name>`` (:func:`unpack`; atomic, so several processes can share the
cache) and runs the command with its paths rewritten to those copies (:func:`localize`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import stat
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from arena.errors import ArenaError

SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
"""Paths under these folders (and under Python's own prefixes) are the machine's, not the
bot's: a worker is expected to have them at the same place, like the interpreters."""
MAX_PACK_BYTES = 512 * 1024 * 1024
"""Most bytes the files of one tournament's commands may hold (a folder named by mistake
should not be copied to every worker)."""
CACHE_ENV = "ARENA_BOT_CACHE"
"""Environment variable naming the cache folder (default: ``<tmp>/arena-bot-files``)."""


class PackError(ArenaError):
    """A named file or folder that cannot be packed (unreadable, too large)."""


@dataclass(frozen=True)
class FileRef:
    """A packed file or folder in a command line: replaced by its cached copy on a worker."""

    digest: str
    name: str


@dataclass(frozen=True)
class Pack:
    """A file or folder's content: ``(relative path, executable, bytes)`` per file
    (``""`` for a single file), sorted; ``digest`` covers the name and all of it."""

    digest: str
    name: str
    folder: bool
    files: tuple[tuple[str, bool, bytes], ...]

    @property
    def size(self) -> int:
        """Bytes of content."""
        return sum(len(data) for _, _, data in self.files)


def is_shipped(token: str) -> bool:
    """Whether a command-line argument names a file or folder of the bot (to be shipped)."""
    if not os.path.isabs(token) or not os.path.exists(token):
        return False
    real = os.path.realpath(token)
    system = {*SYSTEM_DIRS, sys.prefix, sys.base_prefix, sys.exec_prefix}
    return not any(
        path == root or path.startswith(root.rstrip("/") + "/")
        for root in system
        for path in (token, real)
    )


def pack(path: Path) -> Pack:
    """Read a file or a folder (recursively, symbolic links followed) into a :class:`Pack`."""
    try:
        if path.is_dir():
            files = []
            for sub in sorted(path.rglob("*")):
                if sub.is_file():
                    rel = sub.relative_to(path).as_posix()
                    files.append((rel, _executable(sub), sub.read_bytes()))
            folder = True
        else:
            files = [("", _executable(path), path.read_bytes())]
            folder = False
    except OSError as exc:
        raise PackError(f"cannot read {exc.filename or path}: {exc.strerror}") from None
    return Pack(_digest(path.name, folder, files), path.name, folder, tuple(files))


def _executable(path: Path) -> bool:
    return bool(path.stat().st_mode & stat.S_IXUSR)


def _digest(name: str, folder: bool, files: Iterable[tuple[str, bool, bytes]]) -> str:
    h = hashlib.sha256()
    h.update(f"arena-pack 1\0{name}\0{'dir' if folder else 'file'}\0".encode())
    for rel, executable, data in files:
        h.update(f"{rel}\0{int(executable)}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()


def pack_commands(
    argvs: Mapping[str, tuple[str, ...]],
) -> tuple[dict[str, tuple[str | FileRef, ...]], dict[str, Pack]]:
    """Each command with its bot's files replaced by references, and the packs by digest.

    Raises :class:`PackError` naming the bot when a file cannot be read or the packs
    together exceed :data:`MAX_PACK_BYTES`.
    """
    packs: dict[str, Pack] = {}
    by_path: dict[str, FileRef] = {}
    commands: dict[str, tuple[str | FileRef, ...]] = {}
    for bot, argv in argvs.items():
        out: list[str | FileRef] = []
        for token in argv:
            if not is_shipped(token):
                out.append(token)
                continue
            if token not in by_path:
                try:
                    packed = pack(Path(token))
                except PackError as exc:
                    raise PackError(f"bot {bot!r}: {exc}") from None
                packs[packed.digest] = packed
                by_path[token] = FileRef(packed.digest, packed.name)
                total = sum(p.size for p in packs.values())
                if total > MAX_PACK_BYTES:
                    raise PackError(
                        f"bot {bot!r}: the files the commands name hold {total >> 20} MiB, "
                        f"more than {MAX_PACK_BYTES >> 20} MiB to copy to every worker "
                        f"({token})"
                    )
            out.append(by_path[token])
        commands[bot] = tuple(out)
    return commands, packs


def cache_root() -> Path:
    """The cache folder of this machine (``$ARENA_BOT_CACHE`` or ``<tmp>/arena-bot-files``)."""
    return Path(os.environ.get(CACHE_ENV) or Path(tempfile.gettempdir()) / "arena-bot-files")


_checked: set[tuple[str, str]] = set()
_lock = threading.Lock()


def unpack(packed: Pack, cache: Path) -> Path:
    """The cached copy of ``packed`` under ``cache`` (written if missing or damaged).

    The copy is written in a private folder, then renamed into place in one step, so
    processes sharing the cache never see half a copy. An existing copy is checked against
    its digest once per process.
    """
    final = cache / packed.digest
    target = final / packed.name
    key = (str(cache), packed.digest)
    with _lock:
        if key in _checked and target.exists():
            return target
        if final.exists() and not _intact(final, packed):
            # Damaged (edited, half-deleted): move it aside, then write a fresh copy.
            aside = Path(tempfile.mkdtemp(prefix=f".{packed.digest[:12]}-bad-", dir=cache))
            with contextlib.suppress(OSError):
                final.rename(aside / "old")
            shutil.rmtree(aside, ignore_errors=True)
        if not final.exists():
            _write(packed, cache)
        _checked.add(key)
    return target


def _intact(final: Path, packed: Pack) -> bool:
    try:
        again = pack(final / packed.name)
    except PackError:
        return False
    return again.digest == packed.digest and again.folder == packed.folder


def _write(packed: Pack, cache: Path) -> None:
    cache.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{packed.digest[:12]}-", dir=cache))
    try:
        root = tmp / packed.name
        for rel, executable, data in packed.files:
            path = root / rel if rel else root
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            path.chmod(0o755 if executable else 0o644)
        # Readable by every user (bots may run as another user), like the original files.
        for folder in [tmp, *(p for p in tmp.rglob("*") if p.is_dir())]:
            folder.chmod(0o755)
        try:
            tmp.rename(cache / packed.digest)
        except OSError:
            if not (cache / packed.digest).exists():
                raise
            # Another process put the same copy in place first: keep theirs.
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def localize(argv: Iterable[str | FileRef], where: Callable[[FileRef], Path]) -> tuple[str, ...]:
    """The command line with every reference replaced by ``where(ref)`` (its cached copy)."""
    return tuple(str(where(t)) if isinstance(t, FileRef) else t for t in argv)
