"""Registers Cg Referee with arena (named in pyproject.toml's `arena` entry-point group)."""

from __future__ import annotations

from arena import hookimpl

from cg_referee.game import CgRefereeGame


@hookimpl
def arena_register_games() -> list[type]:
    """The games this package provides."""
    return [CgRefereeGame]
