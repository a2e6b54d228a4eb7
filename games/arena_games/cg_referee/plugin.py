"""Registers the cg-referee game with arena."""

from __future__ import annotations

from arena import hookimpl
from arena_games.cg_referee.game import CgRefereeGame


@hookimpl
def arena_register_games() -> list[type]:
    """Register cg-referee."""
    return [CgRefereeGame]
