"""arena: bot tournaments for many games (the referee core).

Game plugins import only these public names (see docs/plugins.md); ``arena.testing``
holds the conformance kit for their tests.
"""

from __future__ import annotations

from arena.api import PlayResult, TournamentResult, play, run
from arena.errors import (
    ArenaError,
    ConfigError,
    ExternalProcessError,
    IllegalMove,
    InvalidAnswer,
    InvalidSetting,
)
from arena.external import ExternalProcess, command_problem
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
    check_range,
)
from arena.hookspecs import hookimpl
from arena.replay import ReplayedStep, resimulate

__all__ = [
    "Answer",
    "ArenaError",
    "ConfigError",
    "ExternalProcess",
    "ExternalProcessError",
    "FileTransport",
    "Game",
    "GameInfo",
    "Ignore",
    "IllegalMove",
    "Incomplete",
    "InvalidAnswer",
    "InvalidSetting",
    "Move",
    "Outcome",
    "PlayResult",
    "ReplayedStep",
    "Reply",
    "TournamentResult",
    "check_range",
    "command_problem",
    "hookimpl",
    "play",
    "resimulate",
    "run",
]
__version__ = "0.1.0"
