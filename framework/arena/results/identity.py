"""What decides a game, so that a resumed tournament reuses only games that still hold.

A game's *identity* is everything that decides it: the game id and rules version, the
seed (and the tournament seed it derives from), the settings, the clock options
(``time_margin_ms``, ``clock_scale``: only when they differ from the defaults, so games
stored before they existed keep their identity), and per seat the bot's name, its command
as written and a hash of every file its command names (the bot's script, and any other
file or folder argument); for a bot built from source, its build recipe and a hash of
each source. The store keeps each game's identity;
a stored game is reused only while its identity is the one the tournament file now
gives that place in the schedule. :func:`describe_changes` says, in the file's own
terms, why an identity no longer matches (``seed 1 -> 2``, ``bots[1].cmd changed``).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

MAX_TREE_FILES = 2000
"""Files of a folder argument hashed by content; beyond, by name, size and mtime."""
MAX_TREE_BYTES = 256 * 1024 * 1024
"""Bytes of a folder argument hashed by content; beyond, by name, size and mtime."""
CLOCK_DEFAULTS: dict[str, Any] = {"time_margin_ms": 0, "clock_scale": 1.0}
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
    for root, dirs, names in os.walk(path):
        dirs[:] = sorted(
            d
            for d in dirs
            if not d.startswith(".")
            and d != "__pycache__"
            and os.path.abspath(os.path.join(root, d)) not in skipped
        )
        for name in sorted(n for n in names if not n.startswith(".")):
            full = os.path.join(root, name)
            try:
                stat = os.stat(full)
            except OSError:
                continue
            digest.update(os.path.relpath(full, path).encode(errors="replace") + b"\0")
            files += 1
            read += stat.st_size
            if files > MAX_TREE_FILES or read > MAX_TREE_BYTES:
                digest.update(f"{stat.st_size}:{stat.st_mtime_ns}\0".encode())
            else:
                _hash_file(full, digest)
    return digest.hexdigest()


def _hash_file(path: str, digest: Any) -> Any:
    try:
        with open(path, "rb") as f:
            while chunk := f.read(1 << 20):
                digest.update(chunk)
    except OSError as exc:
        digest.update(f"unreadable: {exc.strerror}".encode())
    return digest


def bot_fingerprint(
    name: str,
    cmd: str,
    files: Iterable[tuple[str, str]],
    skip: Sequence[str] = (),
    build: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A bot's part of a game identity: name, command as written, hash of each named file
    (keyed by the word of the command that names it). A bot built from source adds its
    ``build`` (language, build steps, flags, run command) and its ``files`` are its
    sources: editing one makes its stored games stale, as editing a script does."""
    fingerprint = {"name": name, "cmd": cmd, "files": {w: file_digest(p, skip) for w, p in files}}
    if build is not None:
        fingerprint["build"] = dict(build)
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
    return out or ["the game's identity changed"]
