"""Registers 5x5 ability chess with arena."""

from __future__ import annotations

from arena import hookimpl
from arena_games.chess5.game import Chess5Game


@hookimpl
def arena_register_games() -> list[type]:
    """Register 5x5 ability chess (Code Clash)."""
    return [Chess5Game]
