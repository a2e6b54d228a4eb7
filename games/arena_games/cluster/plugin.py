"""Entry point of the 42-cluster plugin (group ``arena``)."""

from __future__ import annotations

from arena import hookimpl
from arena_games.cluster.game import ClusterGame


@hookimpl
def arena_register_games() -> list[type]:
    """Register 42-cluster."""
    return [ClusterGame]
