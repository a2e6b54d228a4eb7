"""Resume: which stored games still hold under the tournament file as it is now.

A stored game is reused only when its identity (:mod:`arena.results.identity`) is the one
the file now gives it. The bots' identities are built here (their files, sources and, with
``files: folder``, their own folder); a stale game stops the run with what changed and the
ways on (``--update``, keeping the old bot, ``--fresh``), or, with ``--update``, is removed
to be played again.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.botproc import BOT_HOMES
from arena.botproc.commands import bot_folder
from arena.errors import ConfigError
from arena.execute.botfiles import is_shipped
from arena.records import GameSpec
from arena.results.identity import (
    FileWatch,
    Identities,
    bot_fingerprint,
    canonical,
    comparable_pair,
    describe_changes,
    folder_digests,
)
from arena.results.store import CurrentGame, ResumeCheck, Store, StoredPlace
from arena.tournament.config import TournamentConfig
from arena.tournament.formats import defined_spec
from arena.tournament.schedule import Plan


@dataclass
class BotIdentities:
    """What decides the file's games (:class:`Identities`), the files watched during the
    run, the clock options stored with the games, and per bot the files other bots name
    inside its folder (theirs, not its)."""

    ids: Identities
    watch: FileWatch
    clock_options: dict[str, Any]
    ignored: dict[str, set[str]]


def bot_identities(config: TournamentConfig) -> BotIdentities:
    """The identities the tournament file gives its games now."""
    variants = config.variants or [config.settings]
    skip = [str(config.output)]  # output folders inside a bot's folder argument change
    every_file = [path for b in config.bots for _, path in b.files]
    folders = {
        b.name: own_folder(b.argv) if config.files == "folder" else None for b in config.bots
    }
    # Each bot's folder leaves out the files the bots' commands name in it: looked up by
    # folder, and a folder shared by many bots hashed once, so that start-up stays linear
    # in bots (not every file of the folder for every bot).
    under = _files_by_folder(every_file) if any(folders.values()) else {}
    digests: dict[tuple[str, frozenset[str]], dict[str, str]] = {}
    fingerprints = {}
    for b in config.bots:
        build = b.recipe.identity() if b.recipe else None
        fingerprint = bot_fingerprint(b.name, b.cmd, b.files, skip, build)
        folder = folders[b.name]
        if folder is not None:
            inside = _inside(under, folder)
            # Its own files outside the folder: the same for a folder's bots (none, mostly).
            own = frozenset(os.path.realpath(p) for _, p in b.files) - set(inside)
            if (folder, own) not in digests:
                digests[folder, own] = folder_digests(folder, [*own, *inside], skip)
            fingerprint["folder"] = digests[folder, own]
        fingerprints[b.name] = fingerprint
    clock_options: dict[str, Any] = {
        "time_margin_ms": config.time_margin_ms,
        "clock_scale": config.clock_scale,
    }
    if config.clock != "wall":  # (absent for wall: identities stay those of before)
        clock_options["clock"] = config.clock
    ids = Identities(
        config.game, config.version, config.seed, variants, fingerprints, clock_options
    )
    watch = FileWatch({b.name: b.files for b in config.bots})
    return BotIdentities(ids, watch, clock_options, _named_in_folders(folders, every_file))


def _inside(under: Mapping[str, list[str]], folder: str | None) -> list[str]:
    """The files of ``under`` (:func:`_files_by_folder`) inside ``folder``."""
    return list(under.get(os.path.realpath(folder), [])) if folder is not None else []


def _files_by_folder(paths: list[str]) -> dict[str, list[str]]:
    """The real path of each file, under every folder above it (by real path): one
    ``realpath`` per file, a lookup per bot."""
    out: dict[str, list[str]] = {}
    for path in dict.fromkeys(paths):
        real = os.path.realpath(path)
        folder = os.path.dirname(real)
        while True:
            out.setdefault(folder, []).append(real)
            parent = os.path.dirname(folder)
            if parent == folder:
                break
            folder = parent
    return out


def _named_in_folders(
    folders: Mapping[str, str | None], every_file: list[str]
) -> dict[str, set[str]]:
    """Per bot, the files other bots' commands name inside its own folder (relative): in
    a folder of several bots they are those bots' (their own identities follow them)."""
    by_folder: dict[str, list[str]] = {}  # the paths as written, under each folder above them
    relative: dict[str, set[str]] = {}  # per folder, computed once for all its bots
    for path in dict.fromkeys(every_file):
        folder = os.path.dirname(path)
        while folder and folder not in ("/", "."):
            by_folder.setdefault(folder, []).append(path)
            parent = os.path.dirname(folder)
            if parent == folder:
                break
            folder = parent
    out = {}
    for name, own in folders.items():
        if own is not None:
            if own not in relative:
                inside = by_folder.get(own.rstrip("/"), [])
                relative[own] = {os.path.relpath(p, own) for p in inside}
            out[name] = set(relative[own])
    return out


def _same(old: dict[str, Any], now: dict[str, Any], ignored: Mapping[str, set[str]]) -> bool:
    """Whether a stored identity is the one now given, but for the folder files other
    bots' commands name and the folders an identity stored before them lacks."""
    a, b = comparable_pair(old, now, ignored)
    return canonical(a) == canonical(b)


def own_folder(argv: tuple[str, ...]) -> str | None:
    """The folder a bot sees of its own (``files: folder``) as part of its identity: that
    of the program its command runs, unless the machine's (a system folder, ``/``, the
    temporary folder holding the bots' directories), as the sandbox shows it."""
    folder = bot_folder(argv)
    if folder is None or folder == "/" or not is_shipped(folder) or not os.path.isdir(folder):
        return None
    homes = os.path.realpath(BOT_HOMES)
    real = os.path.realpath(folder)
    if homes == real or homes.startswith(real.rstrip("/") + "/"):
        return None
    return folder


UNPLACING = frozenset(
    {
        "path", "name", "output", "lines", "given_by", "concurrency", "executor", "dask",
        "sandbox", "memory_mb", "max_processes", "disk_mb", "build_timeout_s",
        "build_memory_mb", "on_build_error", "new_book", "rating_interval", "rating",
    }
)  # fmt: skip
"""The tournament file's fields that neither decide a game nor place it in the schedule:
left out of :func:`resume_key` (any other field, a new one too, counts)."""


def resume_key(config: TournamentConfig, bots: BotIdentities) -> str:
    """A digest of everything that decides which stored games the file defines, where
    its schedule places them and whether they are stale: the bots' identities (their
    files' hashes included) and every field of the file but :data:`UNPLACING`. Two runs
    under the same key would find the same current games."""
    ids = bots.ids
    fields = {f.name: getattr(config, f.name) for f in dataclasses.fields(config)}
    parts = {
        "identities": [ids.game, ids.version, ids.tournament_seed, ids.variants, ids.clock],
        "bots": ids.bots,
        "ignored": {name: sorted(files) for name, files in sorted(bots.ignored.items())},
        "config": repr({k: v for k, v in fields.items() if k not in UNPLACING}),
    }
    return hashlib.sha256(canonical(parts).encode()).hexdigest()[:32]


def check_stored(
    config: TournamentConfig,
    store: Store,
    bots: BotIdentities,
    plan: Plan | None,
    update: bool = False,
) -> tuple[int, str]:
    """Record the stored games the file now defines (:func:`current_games`); return how
    many stale games ``update`` removed and the :func:`resume_key`. When the last run's
    check was made under the same key (the file and the bots' files unchanged), only the
    games stored since it are checked: resuming costs the same after a thousand games
    and a million."""
    key = resume_key(config, bots)
    through = store.last_game_id()
    after = store.checked_through(key)
    places = store.stored_places(after)
    current, removed = current_games(config, store, bots.ids, plan, update, bots.ignored, places)
    check = ResumeCheck(key, through)
    if after:
        store.update_current(after, current, check)
    else:
        store.set_current(current, check)
    return removed, key


def current_games(
    config: TournamentConfig,
    store: Store,
    ids: Identities,
    plan: Plan | None,
    update: bool = False,
    ignored: Mapping[str, set[str]] | None = None,
    places: list[StoredPlace] | None = None,
) -> tuple[list[CurrentGame], int]:
    """The stored games (or those of ``places``) the file now defines, with the identity
    it gives them, placed as its schedule places them, and how many stale games
    ``update`` removed (to be played again); without ``update``, :class:`ConfigError`
    naming what changed when a stored game the file defines was played with another
    identity. A fixed ``plan`` gives each stored game its spec directly
    (:meth:`~arena.tournament.schedule.Plan.find`): the plan is never held in memory."""
    current: list[CurrentGame] = []
    stale: list[tuple[GameSpec, dict[str, Any]]] = []
    stale_keys: list[str] = []
    for stored in store.stored_places() if places is None else places:
        if plan is not None:
            spec = plan.find(stored.key, stored.round, stored.seats)
        else:
            spec = defined_spec(config, stored)
        if spec is None:
            continue  # a removed bot's game, or beyond a smaller `games`: kept, not shown
        digest = ids.hash(spec.seed, spec.variant, spec.seats)
        if (
            digest != stored.identity_hash
            and ids.legacy is not None
            and ids.legacy.hash(spec.seed, spec.variant, spec.seats) == stored.identity_hash
        ):
            digest = stored.identity_hash  # stored before folders counted: unknown, kept
        if digest != stored.identity_hash:
            old = store.stored_identity(stored.key)
            now = ids.of(spec.seed, spec.variant, spec.seats)
            if _same(old, now, ignored or {}):
                # Only another bot's file in a shared folder differs (its own games say
                # so), or the bots' list changed which of them are bots: kept as stored.
                current.append(
                    CurrentGame(
                        stored.key, spec.order, spec.round, spec.group, stored.identity_hash
                    )
                )
                continue
            stale_keys.append(stored.key)
            if not update:
                stale.append((spec, old))
            continue
        current.append(CurrentGame(stored.key, spec.order, spec.round, spec.group, digest))
    if stale:
        raise _stale_error(config, ids, stale, store.count_games(), ignored or {})
    if stale_keys:
        store.remove_games(stale_keys)
    return current, len(stale_keys)


SHOWN_CHANGES = 10
"""The most changes (and edited bots) a stale-games message spells out: a thousand bots'
edits are one line, not a thousand."""


def _first(items: list[str], what: str) -> str:
    """``items`` joined, the first :data:`SHOWN_CHANGES` of them and how many more."""
    shown = "; ".join(items[:SHOWN_CHANGES])
    more = len(items) - SHOWN_CHANGES
    return f"{shown}; and {more} more {what}" if more > 0 else shown


def _stale_error(
    config: TournamentConfig,
    ids: Identities,
    stale: list[tuple[GameSpec, dict[str, Any]]],
    stored: int,
    ignored: Mapping[str, set[str]],
) -> ConfigError:
    """Why stored games no longer match the tournament file, and the ways on: --update,
    keeping the old version of an edited bot as another bot, --fresh."""
    index = {b.name: i for i, b in enumerate(config.bots)}
    changes: dict[str, None] = {}
    edited: dict[str, None] = {}  # bots whose files changed
    for spec, identity in stale:
        now = ids.of(spec.seed, spec.variant, spec.seats)
        identity, now = comparable_pair(identity, now, ignored)
        for change in describe_changes(identity, now, index):
            changes[change] = None
        for old_bot, new_bot in zip(identity.get("bots", []), now["bots"], strict=False):
            same_cmd = old_bot.get("cmd") == new_bot["cmd"]
            if same_cmd and old_bot.get("files") != new_bot["files"]:
                edited[new_bot["name"]] = None  # its file was edited
    out = config.output
    text = (
        f"{config.path}: {len(stale)} of the {stored} games stored in {out} no longer match "
        f"this file: {_first(list(changes), 'changes')}.\n"
        f"  Run with --update to play only those {len(stale)} games again and keep the others."
    )
    bots = {b.name: b for b in config.bots}
    for name in list(edited)[:SHOWN_CHANGES]:
        bot = bots.get(name)
        script = next((w for w, _ in bot.files), None) if bot is not None else None
        if bot is None or script is None:
            continue
        old = Path(script)
        copy = str(old.with_name(f"{old.stem}_v1{old.suffix}"))
        text += (
            f"\n  To keep the old {name} as another bot: save its old version as {copy} "
            f"(from git or a backup), add `- {{name: {name}_v1, cmd: "
            f"{bot.cmd.replace(script, copy)}}}` to `bots`, then run with --update."
        )
    text += (
        f"\n  Or run with --fresh to start over in {out} (deletes its stored games), or "
        "choose another --output."
    )
    return ConfigError(text)
