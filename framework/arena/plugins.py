"""Finding games: a pluggy manager loading the ``arena`` entry-point group."""

from __future__ import annotations

import importlib.metadata
from dataclasses import dataclass, field
from typing import cast

import pluggy

from arena import hookspecs
from arena.errors import PluginError, UnknownGame
from arena.game import Game

ENTRY_POINT_GROUP = "arena"


@dataclass(frozen=True)
class GameEntry:
    """One installed game: its class and the distribution (package) it came from."""

    game: type[Game[object]]
    package: str
    plugin: str


@dataclass
class Registry:
    """The installed games by id, plus the plugins that failed to load (with why)."""

    games: dict[str, GameEntry] = field(default_factory=dict)
    broken: dict[str, str] = field(default_factory=dict)

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


def get_plugin_manager(load_entry_points: bool = True) -> pluggy.PluginManager:
    """A plugin manager with arena's hookspecs and every ``arena`` entry point registered.

    A plugin that fails to import is skipped (recorded on ``pm.arena_broken``) so one
    broken third-party package cannot take down the others.
    """
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    broken: dict[str, str] = {}
    pm.arena_dists = {}  # type: ignore[attr-defined]
    if load_entry_points:
        for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
            if pm.get_plugin(ep.name) is not None:
                continue
            try:
                module = ep.load()
            except Exception as exc:  # a broken plugin must not break arena
                broken[ep.name] = f"{type(exc).__name__}: {exc}"
                continue
            pm.register(module, name=ep.name)
            dist = ep.dist.name if ep.dist is not None else "?"
            pm.arena_dists[ep.name] = dist  # type: ignore[attr-defined]
    pm.arena_broken = broken  # type: ignore[attr-defined]
    pm.check_pending()
    return pm


def _dists(pm: pluggy.PluginManager) -> dict[str, str]:
    return getattr(pm, "arena_dists", {})


def load_registry(pm: pluggy.PluginManager | None = None) -> Registry:
    """Collect every game the plugins register, checking ids are unique and valid."""
    pm = pm or get_plugin_manager()
    registry = Registry(broken=dict(getattr(pm, "arena_broken", {})))
    # Call each implementation on its own so every game is tied to the plugin giving it.
    for impl in pm.hook.arena_register_games.get_hookimpls():
        name = impl.plugin_name
        games = cast(list[type[Game[object]]], impl.function())
        for game in games:
            info = getattr(game, "info", None)
            if info is None:
                raise PluginError(f"plugin {name!r}: game class {game!r} has no `info`")
            if not 1 <= info.min_players <= info.max_players:
                raise PluginError(f"plugin {name!r}: game {info.id!r} has bad player counts")
            version = info.version
            if isinstance(version, bool) or not isinstance(version, int) or version < 1:
                raise PluginError(f"plugin {name!r}: game {info.id!r} has bad version {version!r}")
            if info.id in registry.games:
                other = registry.games[info.id].plugin
                raise PluginError(f"game id {info.id!r} registered by {other!r} and {name!r}")
            package = _dists(pm).get(name, name)
            registry.games[info.id] = GameEntry(game, package, name)
    return registry
