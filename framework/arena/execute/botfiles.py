"""The files a bot's command names, packed to travel and unpacked into a content-addressed cache.

A tournament played on other machines must not need the user's checkout there. Every
file or folder that a bot's command names (the absolute paths
:func:`arena.tournament.config.resolve_command` made), except the system's own (interpreters and
what comes with them: see :data:`SYSTEM_DIRS`), is packed with its executable bits and
named by the SHA-256 of its name and content. A worker unpacks each pack once into
``<cache>/<digest>/<name>`` (:func:`unpack`; atomic, so several processes can share the
cache; a folder only this user can change, and each copy is checked as it is used) and
runs the command with its paths rewritten to those copies (:func:`localize`).

With ``files: folder`` (the default) a bot sees the folder of the program its command
runs (:func:`~arena.botproc.commands.bot_folder`): that folder travels whole, as one pack
(its dot-folders, ``__pycache__`` and the tournament's output left out), and the command's
files inside it are rewritten to their place in its copy, so a module or a data file next
to the bot is next to it on the worker too. The ``read_only`` paths travel the same way
(:func:`pack_paths`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pwd
import shutil
import stat
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.botproc.commands import bot_folder
from arena.errors import ArenaError, ConfigError

SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
"""Paths under these folders (and under Python's own prefixes) are the machine's, not the
bot's: a worker is expected to have them at the same place, like the interpreters."""
MAX_PACK_BYTES = 512 * 1024 * 1024
"""Most bytes the files of one tournament's commands may hold (a folder named by mistake
should not be copied to every worker)."""
CACHE_ENV = "ARENA_BOT_CACHE"
"""Environment variable naming the cache folder (default: ``<tmp>/arena-bot-files-<uid>``)."""


class PackError(ArenaError):
    """A named file or folder that cannot be packed (unreadable, too large)."""


class CacheRefused(PackError, ConfigError):
    """A cache folder that others could change (exit code 2: the environment is wrong)."""


@dataclass(frozen=True)
class FileRef:
    """A packed file or folder in a command line: replaced by its cached copy on a worker
    (``sub``: a path inside a packed folder, such as the bot's script in its folder)."""

    digest: str
    name: str
    sub: str = ""


@dataclass(frozen=True)
class Pack:
    """A file or folder's content: ``(relative path, executable, bytes)`` per file
    (``""`` for a single file), sorted; ``digest`` covers the name and all of it."""

    digest: str
    name: str
    folder: bool
    files: tuple[tuple[str, bool, bytes], ...]
    own: bool = False
    """A bot's own folder: packed by :func:`pack_folder` (its rules, also to check a copy)."""

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


def pack_folder(path: Path, skip: Iterable[str] = (), limit: int | None = None) -> Pack:
    """A bot's own folder as a :class:`Pack`: every file below it (links followed),
    except in dot-folders, ``__pycache__`` and the ``skip`` folders (the output).

    Raises :class:`PackError` past ``limit`` bytes (before reading more).
    """
    skipped = {os.path.realpath(p) for p in skip}
    files: list[tuple[str, bool, bytes]] = []
    size = 0
    try:
        for root, dirs, names in os.walk(path, onerror=_raise):
            dirs[:] = sorted(
                d
                for d in dirs
                if not _left_out(d) and os.path.realpath(os.path.join(root, d)) not in skipped
            )
            for name in sorted(names):
                full = Path(root) / name
                if not full.is_file():
                    continue
                size += full.stat().st_size
                if limit is not None and size > limit:
                    raise PackError(
                        f"its folder {path} holds more than {limit >> 20} MiB to copy to "
                        "every worker (files: folder): set `files: named`, or give the bot "
                        "a folder of its own"
                    )
                rel = full.relative_to(path).as_posix()
                files.append((rel, _executable(full), full.read_bytes()))
    except OSError as exc:
        raise PackError(f"cannot read {exc.filename or path}: {exc.strerror}") from None
    files.sort()
    return Pack(_digest(path.name, True, files), path.name, True, tuple(files), own=True)


def _left_out(folder: str) -> bool:
    """A folder of a bot's own folder that does not travel (nor counts in its identity)."""
    return folder.startswith(".") or folder == "__pycache__"


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
    folders: bool = False,
    skip: Iterable[str] = (),
) -> tuple[dict[str, tuple[str | FileRef, ...]], dict[str, Pack]]:
    """Each command with its bot's files replaced by references, and the packs by digest.

    ``folders`` (``files: folder``): each bot's own folder travels whole
    (:func:`pack_folder`, leaving out ``skip``: the output folder), and the command's
    files inside it point into its copy. Raises :class:`PackError` naming the bot when a
    file cannot be read or the packs together exceed :data:`MAX_PACK_BYTES`.
    """
    packs: dict[str, Pack] = {}
    by_path: dict[str, FileRef] = {}
    commands: dict[str, tuple[str | FileRef, ...]] = {}
    skip = tuple(skip)

    def add(bot: str, packed: Pack, token: str) -> None:
        packs[packed.digest] = packed
        total = sum(p.size for p in packs.values())
        if total > MAX_PACK_BYTES:
            raise PackError(
                f"bot {bot!r}: the files the commands name hold {total >> 20} MiB, "
                f"more than {MAX_PACK_BYTES >> 20} MiB to copy to every worker ({token})"
            )

    for bot, argv in argvs.items():
        own: tuple[str, FileRef] | None = None
        folder = bot_folder(argv) if folders else None
        if folder is not None and is_shipped(folder) and os.path.isdir(folder):
            real = os.path.realpath(folder)
            if real not in by_path:
                left = MAX_PACK_BYTES - sum(p.size for p in packs.values())
                try:
                    packed = pack_folder(Path(real), skip, left)
                except PackError as exc:
                    raise PackError(f"bot {bot!r}: {exc}") from None
                add(bot, packed, real)
                by_path[real] = FileRef(packed.digest, packed.name)
            own = (real, by_path[real])
        out: list[str | FileRef] = []
        for token in argv:
            if not is_shipped(token):
                out.append(token)
                continue
            if own is not None and (sub := _inside_own(token, own[0], skip)) is not None:
                out.append(FileRef(own[1].digest, own[1].name, sub))
                continue
            if token not in by_path:
                try:
                    packed = pack(Path(token))
                except PackError as exc:
                    raise PackError(f"bot {bot!r}: {exc}") from None
                add(bot, packed, token)
                by_path[token] = FileRef(packed.digest, packed.name)
            out.append(by_path[token])
        commands[bot] = tuple(out)
    return commands, packs


def _inside_own(token: str, folder: str, skip: Sequence[str]) -> str | None:
    """Where ``token`` lies in a bot's own (real) ``folder`` as packed ("" for the folder
    itself), or None: outside it, or in a part that does not travel."""
    real = os.path.realpath(token)
    if real != folder and not real.startswith(folder.rstrip("/") + "/"):
        return None
    sub = os.path.relpath(real, folder) if real != folder else ""
    parts = sub.split("/")[:-1] if os.path.isfile(real) else sub.split("/")
    if any(part and _left_out(part) for part in parts):
        return None
    if any(real == s or real.startswith(s.rstrip("/") + "/") for s in map(os.path.realpath, skip)):
        return None
    return sub


def pack_paths(
    paths: Iterable[str], skip: Iterable[str] = ()
) -> tuple[tuple[tuple[FileRef, str], ...], dict[str, Pack]]:
    """Files and folders every bot sees (``read_only``) as references with their paths,
    and their packs by digest (a folder without its dot-folders, ``__pycache__``, ``skip``).

    Raises :class:`PackError` naming the path (unreadable, more than
    :data:`MAX_PACK_BYTES`).
    """
    refs: list[tuple[FileRef, str]] = []
    packs: dict[str, Pack] = {}
    for path in paths:
        try:
            left = MAX_PACK_BYTES - sum(p.size for p in packs.values())
            packed = (
                pack_folder(Path(path), skip, left) if os.path.isdir(path) else pack(Path(path))
            )
        except PackError as exc:
            raise PackError(f"read_only {path}: {exc}") from None
        if packed.size > MAX_PACK_BYTES - sum(p.size for p in packs.values()):
            raise PackError(
                f"read_only {path}: more than {MAX_PACK_BYTES >> 20} MiB to copy to every worker"
            )
        packs[packed.digest] = packed
        refs.append((FileRef(packed.digest, packed.name), path))
    return tuple(refs), packs


def cache_root() -> Path:
    """This user's cache folder on this machine: ``$ARENA_BOT_CACHE``, else
    ``<tmp>/arena-bot-files-<uid>``; created (mode 0700) and checked by :func:`safe_cache`."""
    env = os.environ.get(CACHE_ENV)
    default = Path(tempfile.gettempdir()) / f"arena-bot-files-{os.geteuid()}"
    return safe_cache(Path(env) if env else default, CACHE_ENV if env else None)


def safe_cache(path: Path, named_by: str | None = None) -> Path:
    """``path`` as a cache folder only this user can change, created if missing.

    Refuses (:class:`PackError`, one line) a symbolic link, something that is not a
    folder, a folder of another user or one others may write, and a folder inside one
    where another user could replace it (writable by others without the sticky bit):
    whoever could change the cached files would choose the code bots run.
    """
    where = f"{path} (${named_by})" if named_by else str(path)

    def refuse(why: str) -> CacheRefused:
        return CacheRefused(f"bot file cache {where}: {why}: refusing it")

    path = Path(os.path.abspath(path))
    parent = Path(os.path.realpath(path.parent))
    try:
        parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            os.mkdir(parent / path.name, 0o700)
        st = os.lstat(parent / path.name)
    except OSError as exc:
        raise refuse(exc.strerror or str(exc)) from None
    if stat.S_ISLNK(st.st_mode):
        raise refuse("it is a symbolic link")
    if not stat.S_ISDIR(st.st_mode):
        raise refuse("it is not a folder")
    if st.st_uid != os.geteuid():
        raise refuse(f"it belongs to {_owner(st.st_uid)}, not to this user")
    if st.st_mode & 0o022:
        raise refuse("other users may write in it")
    for folder in [parent, *parent.parents]:
        fst = folder.stat()
        open_to_others = fst.st_mode & 0o022 and not fst.st_mode & stat.S_ISVTX
        if fst.st_uid not in (0, os.geteuid()) or open_to_others:
            raise refuse(f"{folder} lets another user replace it")
    if stat.S_IMODE(st.st_mode) != 0o700:
        os.chmod(parent / path.name, 0o700)
    return parent / path.name


def _owner(uid: int) -> str:
    try:
        return f"{pwd.getpwuid(uid).pw_name} (uid {uid})"
    except KeyError:
        return f"uid {uid}"


_verified: dict[tuple[str, str], tuple[object, ...]] = {}
"""Copies hashed whole by this process: their files' status (inode, size, times) then."""
_lock = threading.Lock()


def unpack(packed: Pack, cache: Path) -> Path:
    """The cached copy of ``packed`` under ``cache`` (written if missing or damaged).

    The copy is written in a private folder, then renamed into place in one step, so
    processes sharing the cache never see half a copy. An existing copy is checked at
    every call, as it is about to be used: hashed again whole unless the status of its
    files (inode, size, modification and change times, which no edit leaves as they
    were) is the one it had when last hashed.
    """
    final = cache / packed.digest
    target = final / packed.name
    key = (str(cache), packed.digest)
    with _lock:
        seen = _status(final)
        if seen is not None and _verified.get(key) == seen:
            return target
        if os.path.lexists(final) and not _intact(final, packed):
            # Damaged (edited, half-deleted): move it aside, then write a fresh copy.
            aside = Path(tempfile.mkdtemp(prefix=f".{packed.digest[:12]}-bad-", dir=cache))
            with contextlib.suppress(OSError):
                final.rename(aside / "old")
            shutil.rmtree(aside, ignore_errors=True)
        if not final.exists():
            _write(packed, cache)
        seen = _status(final)
        if seen is None or not _intact(final, packed):
            raise PackError(f"cannot keep an intact copy of {packed.name} in {cache}")
        _verified[key] = seen
    return target


def _status(final: Path) -> tuple[object, ...] | None:
    """What identifies the copy's current files (None: missing, or holds a link)."""
    out: list[object] = []
    try:
        for root, dirs, files in os.walk(final, onerror=_raise):
            dirs.sort()
            for name in ["", *sorted(files), *dirs]:
                st = os.lstat(os.path.join(root, name))
                if stat.S_ISLNK(st.st_mode):
                    return None
                ident = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_mode)
                out.append((root, name, *ident))
    except OSError:
        return None
    return tuple(out) if out else None


def _raise(exc: OSError) -> None:
    raise exc


def _intact(final: Path, packed: Pack) -> bool:
    if _status(final) is None:
        return False  # a link: the copies arena writes hold none
    try:
        again = pack_folder(final / packed.name) if packed.own else pack(final / packed.name)
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
    return tuple(_local(t, where) if isinstance(t, FileRef) else t for t in argv)


def _local(ref: FileRef, where: Callable[[FileRef], Path]) -> str:
    path = where(ref)
    return str(path / ref.sub) if ref.sub else str(path)
