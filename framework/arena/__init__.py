"""arena: bot tournaments for many games (the referee core).

Game plugins import only these public names.
"""

from __future__ import annotations

from arena.errors import ArenaError, IllegalMove, InvalidAnswer
from arena.game import (
    Answer,
    FileTransport,
    Game,
    GameInfo,
    Ignore,
    Incomplete,
    Move,
    Outcome,
    Reply,
)
from arena.hookspecs import hookimpl
from arena.replay import ReplayedStep, resimulate

__all__ = [
    "Answer",
    "ArenaError",
    "FileTransport",
    "Game",
    "GameInfo",
    "Ignore",
    "IllegalMove",
    "Incomplete",
    "InvalidAnswer",
    "Move",
    "Outcome",
    "ReplayedStep",
    "Reply",
    "hookimpl",
    "resimulate",
]
__version__ = "0.1.0"
