"""Finding games: a pluggy manager loading the ``arena`` entry-point group.

One bad plugin never takes the others down: a plugin that fails to import, whose hook
raises, or that returns something other than game classes is recorded in
:attr:`Registry.broken`; a game that breaks the contract or reuses an id already taken is
skipped and recorded in :attr:`Registry.skipped`. When two packages claim one game id the
first one loaded keeps it: arena's own games first, then packages by name.
Commands print these once as warnings and go on with every other game.

A command that needs one game (``arena match``) need not import every plugin: the full
scan leaves an index (:func:`plugin_index`: which plugin gave each game, the warnings,
and the files everything it read came from), and :func:`registry_for` loads only the
plugin of the game asked for while nothing the index depends on has changed: the
packages installed in the folders on ``sys.path`` (their metadata folders), any module
file a plugin imported, arena's version, Python's. Anything else is a full scan.
"""

from __future__ import annotations

import functools
import importlib
import os
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import pluggy

from arena.errors import UnknownGame
from arena.game import Game, GameInfo
from arena.plugins import hookspecs

if TYPE_CHECKING:
    import importlib.metadata

ENTRY_POINT_GROUP = "arena"
ARENA_DIST = "bot-arena"
"""arena's own distribution: its games are loaded first."""
GAME_ID = re.compile(r"[a-z0-9][a-z0-9_-]*\Z")
"""What a game id may look like: lower-case letters, digits, ``-`` and ``_``."""


@dataclass(frozen=True)
class GameEntry:
    """One installed game: its class and the distribution (package) it came from."""

    game: type[Game[object]]
    package: str
    plugin: str


@dataclass
class Registry:
    """The installed games by id, plus the plugins and games that could not be used (and why)."""

    games: dict[str, GameEntry] = field(default_factory=dict)
    broken: dict[str, str] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)

    def get(self, game_id: str) -> type[Game[object]]:
        """The game class registered under ``game_id``; :class:`UnknownGame` if none."""
        try:
            return self.games[game_id].game
        except KeyError:
            known = ", ".join(sorted(self.games)) or "none"
            raise UnknownGame(f"unknown game {game_id!r} (installed: {known})") from None

    def create(self, game_id: str) -> Game[object]:
        """A fresh instance of the game registered under ``game_id``."""
        return self.get(game_id)()

    def problems(self) -> list[str]:
        """One line per broken plugin and skipped game, for warnings."""
        lines = [f"plugin {name!r} failed to load: {why}" for name, why in self.broken.items()]
        return lines + self.skipped


def get_plugin_manager(load_entry_points: bool = True) -> pluggy.PluginManager:
    """A plugin manager with arena's hookspecs and every ``arena`` entry point registered.

    A plugin that fails to import or to register is skipped (recorded on
    ``pm.arena_broken``) so one broken third-party package cannot take down the others.
    The modules each plugin's import brought in are recorded on ``pm.arena_modules``.
    """
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    broken: dict[str, str] = {}
    pm.arena_dists = {}  # type: ignore[attr-defined]
    pm.arena_values = {}  # type: ignore[attr-defined]
    pm.arena_modules = set()  # type: ignore[attr-defined]
    if load_entry_points:
        for ep in _entry_points():
            if pm.get_plugin(ep.name) is not None or ep.name in broken:
                continue  # two packages naming a plugin alike: the first one is used
            before = set(sys.modules)
            try:
                module = ep.load()
                pm.register(module, name=ep.name)
                pm.check_pending()  # an unknown arena_* hook in the module
            except Exception as exc:  # a broken plugin must not break arena
                broken[ep.name] = f"{type(exc).__name__}: {exc}"
                if pm.has_plugin(ep.name):
                    pm.unregister(name=ep.name)
                continue
            finally:
                pm.arena_modules.update(set(sys.modules) - before)  # type: ignore[attr-defined]
            dist = ep.dist.name if ep.dist is not None else "?"
            pm.arena_dists[ep.name] = dist  # type: ignore[attr-defined]
            pm.arena_values[ep.name] = ep.value  # type: ignore[attr-defined]
    pm.arena_broken = broken  # type: ignore[attr-defined]
    return pm


def _entry_points() -> list[importlib.metadata.EntryPoint]:
    """The ``arena`` entry points in a stable order: arena's own, then by package name.

    The order decides which game keeps an id two packages claim, so it must not depend
    on how the file system lists installed packages.
    """

    import importlib.metadata  # here: a command served by the index never imports it

    def key(ep: importlib.metadata.EntryPoint) -> tuple[bool, str, str]:
        dist = ep.dist.name if ep.dist is not None else ""
        return (dist != ARENA_DIST, dist.lower(), ep.name)

    return sorted(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP), key=key)


def _dists(pm: pluggy.PluginManager) -> dict[str, str]:
    return getattr(pm, "arena_dists", {})


def contract_problem(game: Any) -> str | None:
    """Why ``game`` cannot be registered (not a Game class, bad ``info``), or None."""
    if not isinstance(game, type) or not issubclass(game, Game):
        return f"{game!r} is not a subclass of arena.Game"
    info = getattr(game, "info", None)
    if not isinstance(info, GameInfo):
        return f"game class {game.__name__} has no `info` (an arena.GameInfo)"
    if not isinstance(info.id, str) or not GAME_ID.match(info.id):
        return f"game id {info.id!r} must be lower-case letters, digits, '-' or '_'"
    if getattr(game, "__abstractmethods__", None):
        missing = ", ".join(sorted(game.__abstractmethods__))
        return f"game {info.id!r} does not implement {missing}"
    if not 1 <= info.min_players <= info.max_players:
        return f"game {info.id!r} has bad player counts {info.min_players}-{info.max_players}"
    if info.first_turn_ms <= 0 or info.turn_ms <= 0:
        return f"game {info.id!r} has a clock that is not positive"
    version = info.version
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        return f"game {info.id!r} has bad version {version!r}"
    return None


def load_registry(pm: pluggy.PluginManager | None = None) -> Registry:
    """Collect every game the plugins register; broken plugins and bad games are set aside.

    Plugins are asked in the order they were loaded (arena's own first, then packages by
    name); the first game to claim an id keeps it.
    """
    pm = pm or get_plugin_manager()
    registry = Registry(broken=dict(getattr(pm, "arena_broken", {})))
    # Call each implementation on its own so every game is tied to the plugin giving it.
    for impl in pm.hook.arena_register_games.get_hookimpls():
        name = impl.plugin_name
        try:
            games: list[Any] = list(cast(Iterable[Any], impl.function()))
        except Exception as exc:  # a plugin's own bug must not break arena
            registry.broken[name] = f"arena_register_games raised {type(exc).__name__}: {exc}"
            continue
        package = _dists(pm).get(name, name)
        for game in games:
            problem = contract_problem(game)
            if problem is not None:
                registry.skipped.append(f"plugin {name!r} ({package}): {problem}; skipped")
                continue
            gid = game.info.id
            if gid in registry.games:
                first = registry.games[gid]
                registry.skipped.append(
                    f"game id {gid!r} registered by {first.plugin!r} ({first.package}) "
                    f"and {name!r} ({package}): keeping {first.plugin!r}"
                )
                continue
            registry.games[gid] = GameEntry(game, package, name)
    return registry


# -- the index: one game without every plugin ----------------------------------------


def _file_id(path: str) -> list[Any]:
    try:
        st = os.stat(path)
    except OSError:
        return [path]
    return [path, st.st_mtime_ns, st.st_size, st.st_ino]


_INSTALLED = (".dist-info", ".egg-info", ".egg-link", ".egg", ".pth")
"""What installers leave in a ``sys.path`` folder: the installed packages' metadata."""


def _folder_state(path: str) -> list[Any]:
    """The installed packages' metadata in a ``sys.path`` entry (names, times, inodes:
    pip makes each anew), not the folder's own time, which any file made there moves."""
    try:
        entries = os.scandir(path)
    except NotADirectoryError:
        return _file_id(path)
    except OSError:
        return [path]
    with entries:
        found = [
            [e.name, e.stat(follow_symlinks=False).st_mtime_ns, e.inode()]
            for e in entries
            if e.name.endswith(_INSTALLED)
        ]
    return [path, sorted(found)]


def _state(files: Iterable[str]) -> str:
    """What the plugins found depend on, hashed: the packages installed in the folders of
    ``sys.path``, the module ``files`` the plugins imported, arena's own registry and
    version, and Python."""
    import hashlib
    import json

    from arena.version import __version__

    paths = [_folder_state(p or os.getcwd()) for p in sys.path]
    state = [__version__, sys.version, paths, _file_id(__file__), [_file_id(f) for f in files]]
    return hashlib.sha256(json.dumps(state).encode()).hexdigest()


def plugin_index(pm: pluggy.PluginManager, registry: Registry) -> dict[str, Any]:
    """What :func:`registry_for` needs to find a game's plugin again without this scan
    (JSON values): each game's plugin, the scan's warnings and what they depend on."""
    modules = (sys.modules.get(name) for name in sorted(getattr(pm, "arena_modules", ())))
    files = sorted({f for m in modules if isinstance(f := getattr(m, "__file__", None), str)})
    values: dict[str, str] = getattr(pm, "arena_values", {})
    return {
        "state": _state(files),
        "files": files,
        "games": {
            gid: [entry.plugin, values.get(entry.plugin, ""), entry.package]
            for gid, entry in registry.games.items()
        },
        "broken": dict(registry.broken),
        "skipped": list(registry.skipped),
    }


def registry_for(game_id: str, index: Any) -> Registry | None:
    """A registry holding ``game_id`` as a full scan would, its warnings those of the
    scan that made ``index`` (:func:`plugin_index`), having imported only the plugin that
    gives the game; None when the index does not hold any more (then scan)."""
    try:
        plugin, value, package = index["games"][game_id]
        if index["state"] != _state(index["files"]):
            return None
        broken = {str(k): str(v) for k, v in index["broken"].items()}
        skipped = [str(line) for line in index["skipped"]]
    except (KeyError, TypeError, ValueError):
        return None
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    try:
        pm.register(_load(str(value)), name=str(plugin))
        pm.check_pending()
    except Exception:  # it loaded at the scan: whatever changed, the scan will say
        return None
    pm.arena_dists = {plugin: package}  # type: ignore[attr-defined]
    found = load_registry(pm)
    if found.broken or game_id not in found.games:
        return None
    return Registry({game_id: found.games[game_id]}, broken, skipped)


def _load(value: str) -> Any:
    """What an entry point's ``module:attr`` value names, as ``EntryPoint.load`` does."""
    module, _, attrs = value.partition(":")
    found = importlib.import_module(module.strip())
    return functools.reduce(getattr, filter(None, attrs.strip().split(".")), found)
