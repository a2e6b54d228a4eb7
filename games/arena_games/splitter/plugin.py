"""Registers Splitter with arena through the ``arena`` entry-point group."""

from __future__ import annotations

from arena import hookimpl
from arena_games.splitter.game import SplitterGame


@hookimpl
def arena_register_games() -> list[type]:
    """Register Splitter."""
    return [SplitterGame]
