"""What decides a game, so that a resumed tournament reuses only games that still hold.

A game's *identity* is everything that decides it: the game id and rules version, the
seed (and the tournament seed it derives from), the settings, the clock options
(``time_margin_ms``, ``clock_scale``: only when they differ from the defaults, so games
stored before they existed keep their identity), and per seat the bot's name, its command
as written and a hash of every file its command names (the bot's script, and any other
file or folder argument); for a bot built from source, its build recipe and a hash of
each source. With ``files: folder`` (the default: a bot sees the folder of the program
its command runs), the bot's ``folder`` too: a digest per source-like file of it
(:func:`folder_digests`), so that editing a module next to the bot makes its games stale;
an identity stored before that field existed has none, and is compared without it
(unknown, not stale: :attr:`Identities.legacy`). The store keeps each game's identity;
a stored game is reused only while its identity is the one the tournament file now
gives that place in the schedule. :func:`describe_changes` says, in the file's own
terms, why an identity no longer matches (``seed 1 -> 2``, ``bots[1].cmd changed``).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

MAX_TREE_FILES = 2000
"""Files of a folder argument hashed by content; beyond, by name, size and mtime."""
MAX_TREE_BYTES = 256 * 1024 * 1024
"""Bytes of a folder argument hashed by content; beyond, by name, size and mtime."""
CLOCK_DEFAULTS: dict[str, Any] = {"time_margin_ms": 0, "clock_scale": 1.0}
SOURCE_SUFFIXES = frozenset(
    [
        ".py",
        ".pyi",
        ".json",
        ".txt",
        ".csv",
        ".tsv",
        ".bin",
        ".npy",
        ".npz",
        ".pt",
        ".pth",
        ".onnx",
        ".pkl",
        ".yaml",
        ".yml",
        ".toml",
        ".ini",
        ".cfg",
        ".js",
        ".mjs",
        ".ts",
        ".rb",
        ".pl",
        ".lua",
        ".java",
        ".class",
        ".jar",
        ".c",
        ".h",
        ".cc",
        ".cpp",
        ".hpp",
        ".rs",
        ".go",
        ".cs",
        ".sh",
        ".dat",
        ".db",
        ".sqlite",
        ".model",
        ".weights",
    ]
)
"""Files of a bot's folder hashed whatever their size (others only under 1 MiB)."""
MAX_OTHER_BYTES = 1 << 20
"""A file of a bot's folder without a source-like suffix counts only below this size."""
MAX_FOLDER_BYTES = 64 * 1024 * 1024
"""Bytes of a bot's folder hashed by content; beyond, files by size and mtime."""
MAX_FOLDER_ENTRIES = 5000
"""Entries of a bot's folder looked at, at most (a bot in a big project folder)."""
MAX_LISTED = 200
"""Files of a bot's folder named one by one in an identity; beyond, one digest for all."""
ALL_FILES = "(files)"
"""The one key of a bot's folder digests when it holds more than :data:`MAX_LISTED`."""
"""The clock options of a tournament file and their defaults (part of the identity)."""


def file_digest(path: str, skip: Sequence[str] = ()) -> str:
    """SHA-256 of a file, or of a folder's tree (relative names and contents), in hex.

    Hidden entries, ``__pycache__`` and the ``skip`` folders (the tournament's output,
    which changes as games are stored) are left out of a folder. A folder larger than
    :data:`MAX_TREE_FILES` files or :data:`MAX_TREE_BYTES` bytes has its remaining files
    hashed by size and modification time, not content. A missing path hashes as
    ``missing``.
    """
    if os.path.isfile(path):
        return _hash_file(path, hashlib.sha256()).hexdigest()
    if not os.path.isdir(path):
        return "missing"
    skipped = {os.path.abspath(p) for p in skip}
    digest = hashlib.sha256()
    files = read = 0
    for _, _, found in _visible_files(path, skipped, os.path.abspath):
        for full, stat in found:
            digest.update(os.path.relpath(full, path).encode(errors="replace") + b"\0")
            files += 1
            read += stat.st_size
            if files > MAX_TREE_FILES or read > MAX_TREE_BYTES:
                digest.update(f"{stat.st_size}:{stat.st_mtime_ns}\0".encode())
            else:
                _hash_file(full, digest)
    return digest.hexdigest()


def _visible_files(
    path: str, skipped: set[str], key: Callable[[str], str]
) -> Iterator[tuple[str, int, Iterator[tuple[str, os.stat_result]]]]:
    """``os.walk`` of a bot's folder, in order, less hidden entries, ``__pycache__`` and
    the ``skipped`` folders (compared by ``key``: abspath or realpath): per folder, how
    many entries it holds and its files with their ``stat`` (those gone meanwhile left
    out). Links are not followed into folders."""
    for root, dirs, names in os.walk(path):
        entries = len(dirs) + len(names)
        dirs[:] = sorted(
            d
            for d in dirs
            if not d.startswith(".")
            and d != "__pycache__"
            and key(os.path.join(root, d)) not in skipped
        )
        yield root, entries, _stats(root, sorted(n for n in names if not n.startswith(".")))


def _stats(root: str, names: list[str]) -> Iterator[tuple[str, os.stat_result]]:
    for name in names:
        full = os.path.join(root, name)
        try:
            yield full, os.stat(full)
        except OSError:
            continue


def _hash_file(path: str, digest: Any) -> Any:
    try:
        with open(path, "rb") as f:
            while chunk := f.read(1 << 20):
                digest.update(chunk)
    except OSError as exc:
        digest.update(f"unreadable: {exc.strerror}".encode())
    return digest


def folder_digests(
    folder: str, named: Iterable[str] = (), skip: Sequence[str] = ()
) -> dict[str, str]:
    """A digest (16 hex) per file of a bot's own folder, by path relative to it.

    Source-like files (:data:`SOURCE_SUFFIXES`) and any other file under
    :data:`MAX_OTHER_BYTES`; not the files in ``named`` (the command's, hashed on their
    own), hidden entries, ``__pycache__`` and the ``skip`` folders (the output). Links are
    not followed into folders. Past :data:`MAX_FOLDER_BYTES` files are hashed by size and
    mtime; past :data:`MAX_FOLDER_ENTRIES` entries the walk stops; past
    :data:`MAX_LISTED` files one digest stands for all (:data:`ALL_FILES`).
    """
    skipped = {os.path.realpath(p) for p in skip}
    left_out = {os.path.realpath(p) for p in named}
    out: dict[str, str] = {}
    read = seen = 0
    for _, entries, found in _visible_files(folder, skipped, os.path.realpath):
        seen += entries
        if seen > MAX_FOLDER_ENTRIES:
            out["(more)"] = "not looked at"
            break
        for full, stat in found:
            source = os.path.splitext(full)[1].lower() in SOURCE_SUFFIXES
            if os.path.realpath(full) in left_out or not (source or stat.st_size < MAX_OTHER_BYTES):
                continue
            rel = os.path.relpath(full, folder)
            read += stat.st_size
            if read > MAX_FOLDER_BYTES:
                digest = hashlib.sha256(f"{stat.st_size}:{stat.st_mtime_ns}".encode())
            else:
                digest = _hash_file(full, hashlib.sha256())
            out[rel] = digest.hexdigest()[:16]
    if len(out) > MAX_LISTED:
        return {ALL_FILES: _sha(canonical(out))[:16]}
    return out


def bot_fingerprint(
    name: str,
    cmd: str,
    files: Iterable[tuple[str, str]],
    skip: Sequence[str] = (),
    build: Mapping[str, Any] | None = None,
    folder: str | None = None,
    others: Sequence[str] = (),
) -> dict[str, Any]:
    """A bot's part of a game identity: name, command as written, hash of each named file
    (keyed by the word of the command that names it). A bot built from source adds its
    ``build`` (language, build steps, flags, run command) and its ``files`` are its
    sources: editing one makes its stored games stale, as editing a script does. A bot
    that sees its own ``folder`` adds :func:`folder_digests` of it as ``folder``, less
    ``others``: the files other bots' commands name (in a folder of several bots, each
    bot's script is its own, not a module of the others)."""
    files = list(files)
    fingerprint = {"name": name, "cmd": cmd, "files": {w: file_digest(p, skip) for w, p in files}}
    if build is not None:
        fingerprint["build"] = dict(build)
    if folder is not None:
        fingerprint["folder"] = folder_digests(folder, [*(p for _, p in files), *others], skip)
    return fingerprint


class FileWatch:
    """The files the bots' commands name, as they were when a run began: which one has
    changed since, so that a run stops before it mixes two versions of a bot.

    A file is hashed again only when its size or modification time moved (a ``stat`` per
    file and game otherwise). Folder arguments are hashed when the run begins only: a
    tree walk per game would cost more than the games of small bots.
    """

    def __init__(self, files: Mapping[str, Iterable[tuple[str, str]]]) -> None:
        """``files``: per bot name, the (word, path) pairs its command names. Made before
        the run's identities are computed: a file that changes in between is seen."""
        self._files: list[tuple[str, str, str, str]] = []  # bot, word, path, digest
        self._stats: dict[str, tuple[int, int]] = {}
        for name, pairs in files.items():
            for word, path in pairs:
                if os.path.isfile(path):
                    self._stats[path] = _size_and_time(path)  # before the content is read
                    self._files.append((name, word, path, file_digest(path)))

    def changed(self) -> tuple[str, str] | None:
        """(bot name, word of its command) of the first file that changed, or None."""
        for name, word, path, digest in self._files:
            stat = _size_and_time(path)
            if stat == self._stats[path]:
                continue
            if file_digest(path) != digest:
                return name, word
            self._stats[path] = stat  # touched, same content
        return None


def _size_and_time(path: str) -> tuple[int, int]:
    try:
        stat = os.stat(path)
    except OSError:
        return -1, -1
    return stat.st_size, stat.st_mtime_ns


def game_identity(
    game: str,
    version: int,
    tournament_seed: int,
    seed: int,
    settings: Mapping[str, Any],
    bots: Sequence[Mapping[str, Any]],
    clock: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The identity of one game: ``bots`` are the seats' :func:`bot_fingerprint`;
    ``clock`` the tournament's clock options (see :data:`CLOCK_DEFAULTS`)."""
    identity = {
        "game": game,
        "version": version,
        "tournament_seed": tournament_seed,
        "seed": seed,
        "settings": dict(settings),
        "bots": [dict(b) for b in bots],
    }
    for key, default in CLOCK_DEFAULTS.items():
        value = (clock or {}).get(key, default)
        if value != default:
            identity[key] = value
    return identity


def canonical(value: Any) -> str:
    """A JSON value as canonical text (sorted keys, no spaces): what the store keeps."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _head(identity: Mapping[str, Any]) -> str:
    keys = ("game", "version", "tournament_seed", "settings", *CLOCK_DEFAULTS)
    return _sha(canonical({k: identity[k] for k in keys if k in identity}))


def _combine(head: str, seed: int, bots: Iterable[str]) -> str:
    return _sha(f"{head}|{seed}|{','.join(bots)}")


def identity_hash(identity: Mapping[str, Any]) -> str:
    """A short stable hash of an identity (what resume and the leaderboard compare)."""
    bots = (_sha(canonical(b)) for b in identity["bots"])
    return _combine(_head(identity), int(identity["seed"]), bots)


class Identities:
    """The identities of one tournament's games, hashing the shared parts only once
    (a schedule can hold a million games).

    ``variants`` are the settings of each variant; ``bots`` each bot's
    :func:`bot_fingerprint` by name; ``clock`` the clock options.
    """

    def __init__(
        self,
        game: str,
        version: int,
        tournament_seed: int,
        variants: Sequence[Mapping[str, Any]],
        bots: Mapping[str, Mapping[str, Any]],
        clock: Mapping[str, Any] | None = None,
    ) -> None:
        self.game, self.version, self.tournament_seed = game, version, tournament_seed
        self.clock = dict(clock or {})
        self.variants = [dict(v) for v in variants]
        self.bots = {name: dict(fp) for name, fp in bots.items()}
        self._heads = [_head(self.of(0, v, ())) for v in range(len(self.variants))]
        self._bot_hashes = {name: _sha(canonical(fp)) for name, fp in self.bots.items()}
        self.legacy: Identities | None = None
        """The same identities without the bots' ``folder`` digests (as stored before
        they existed): a stored game whose identity is that one is not stale."""
        if any("folder" in fp for fp in self.bots.values()):
            older = {n: {k: v for k, v in fp.items() if k != "folder"} for n, fp in bots.items()}
            self.legacy = Identities(game, version, tournament_seed, variants, older, clock)

    def of(self, seed: int, variant: int, seats: Sequence[str]) -> dict[str, Any]:
        """The full identity of the game on ``seed`` in settings ``variant`` with ``seats``."""
        return game_identity(
            self.game,
            self.version,
            self.tournament_seed,
            seed,
            self.variants[variant],
            [self.bots[name] for name in seats],
            self.clock,
        )

    def hash(self, seed: int, variant: int, seats: Sequence[str]) -> str:
        """:func:`identity_hash` of :meth:`of`, from the cached parts."""
        return _combine(self._heads[variant], seed, (self._bot_hashes[n] for n in seats))


def describe_changes(
    stored: Mapping[str, Any], now: Mapping[str, Any], bot_index: Mapping[str, int]
) -> list[str]:
    """Why a stored game's identity differs from the one the file now gives it, in the
    tournament file's terms: ``seed 1 -> 2``, ``settings.max_turns 12 -> 20``,
    ``bots[1].cmd changed (was '...')``, ``bots/stc/enemy.py changed since the stored
    games``. ``bot_index`` maps bot names to their place in the file's ``bots`` list."""
    out: list[str] = []
    if stored.get("game") != now["game"]:
        out.append(f"game {stored.get('game')} -> {now['game']}")
    elif stored.get("version") != now["version"]:
        out.append(f"{now['game']} rules version {stored.get('version')} -> {now['version']}")
    if stored.get("tournament_seed") != now["tournament_seed"]:
        out.append(f"seed {stored.get('tournament_seed')} -> {now['tournament_seed']}")
    elif stored.get("seed") != now["seed"]:
        out.append(f"game seed {stored.get('seed')} -> {now['seed']}")
    old_settings, new_settings = stored.get("settings", {}), now["settings"]
    for key in sorted(set(old_settings) | set(new_settings)):
        old, new = (
            json.dumps(s[key]) if key in s else "(unset)" for s in (old_settings, new_settings)
        )
        if old != new:
            out.append(f"settings.{key} {old} -> {new}")
    for key, default in CLOCK_DEFAULTS.items():
        old, new = stored.get(key, default), now.get(key, default)
        if old != new:
            out.append(f"{key} {old:g} -> {new:g}")
    for old_bot, new_bot in zip(stored.get("bots", []), now["bots"], strict=False):
        where = f"bots[{bot_index.get(new_bot['name'], '?')}]"
        if old_bot.get("cmd") != new_bot["cmd"]:
            out.append(f"{where}.cmd changed (was {old_bot.get('cmd')!r})")
            continue
        old_build, new_build = old_bot.get("build") or {}, new_bot.get("build") or {}
        for key in sorted(set(old_build) | set(new_build)):
            if old_build.get(key) != new_build.get(key):
                was = json.dumps(old_build[key]) if key in old_build else "(none)"
                out.append(f"{where} build {key} changed (was {was})")
        old_files, new_files = old_bot.get("files", {}), new_bot["files"]
        for word in sorted(set(old_files) | set(new_files)):
            if old_files.get(word) != new_files.get(word):
                out.append(f"{word} changed since the stored games")
        if "folder" in old_bot and "folder" in new_bot:  # (absent: stored before, unknown)
            out += _folder_changes(new_bot["name"], old_bot["folder"], new_bot["folder"])
    return out or ["the game's identity changed"]


def comparable_pair(
    old: Mapping[str, Any], now: Mapping[str, Any], ignored: Mapping[str, Iterable[str]]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two identities of a game as compared: each seat's ``folder`` digests kept only for
    the files both hold that are not ``ignored`` (by bot name: files other bots' commands
    now name, theirs), and dropped where one has none (stored before folders counted:
    unknown). A file only one side holds is not a change of the bot: a bot's script
    leaves or joins the digests as bots join or leave the tournament."""
    pair = (dict(old), dict(now))
    seats = list(zip(old.get("bots", []), now.get("bots", []), strict=False))
    for side in pair:
        side["bots"] = [dict(b) for b in side.get("bots", [])]
    for i, (a, b) in enumerate(seats):
        if "folder" in a and "folder" in b:
            skip = set(ignored.get(str(b.get("name", "")), ()))
            keys = (set(a["folder"]) & set(b["folder"])) - skip
            for side, bot in zip(pair, (a, b), strict=True):
                side["bots"][i]["folder"] = {k: bot["folder"][k] for k in sorted(keys)}
        else:
            for side in pair:
                side["bots"][i].pop("folder", None)
    return pair


def _folder_changes(bot: str, old: Mapping[str, str], new: Mapping[str, str]) -> list[str]:
    """Which files of a bot's folder changed, were added or removed (at most 5 named)."""
    if ALL_FILES in old or ALL_FILES in new:
        return [f"a file in {bot}'s folder changed since the stored games"] if old != new else []
    out = []
    for rel in sorted(set(old) | set(new)):
        if old.get(rel) == new.get(rel):
            continue
        how = "changed" if rel in old and rel in new else "added" if rel in new else "removed"
        out.append(f"{rel} in {bot}'s folder {how} since the stored games")
    return out[:5] + ([f"and {len(out) - 5} more files in {bot}'s folder"] if len(out) > 5 else [])
