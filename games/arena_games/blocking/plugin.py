"""Entry point of the `blocking` plugin."""

from __future__ import annotations

from arena import hookimpl
from arena_games.blocking.game import BlockingGame


@hookimpl
def arena_register_games() -> list[type]:
    """Register Blocking."""
    return [BlockingGame]
