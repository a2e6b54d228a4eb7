"""Registers Smash The Code with arena."""

from __future__ import annotations

from arena import hookimpl
from arena_games.stc.game import StcGame


@hookimpl
def arena_register_games() -> list[type]:
    """Register Smash The Code."""
    return [StcGame]
