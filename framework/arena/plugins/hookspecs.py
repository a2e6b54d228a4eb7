"""Every hook arena calls, ``arena_``-prefixed; plugins implement them with :data:`hookimpl`."""

from __future__ import annotations

import pluggy

from arena.game import Game

PROJECT = "arena"

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def arena_register_games() -> list[type[Game[object]]]:  # type: ignore[empty-body]
    """Return the :class:`~arena.game.Game` classes this plugin provides.

    Each class must set ``info`` (a :class:`~arena.game.GameInfo`) with an id no other
    plugin uses. Called once when the plugin manager loads; the built-in games answer it
    exactly as a third-party package does, through the ``arena`` entry-point group.
    """
