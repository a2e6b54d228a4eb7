"""arena: bot tournaments for many games (the referee core).

Game plugins import only these public names (see docs/plugins.md); ``arena.testing``
holds the conformance kit for their tests.

Each name is imported on first use (PEP 562), so ``import arena`` costs almost nothing:
``arena --version`` and a worker process load only what they use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.api import PlayResult, TournamentResult, play, run
    from arena.errors import (
        ArenaError,
        ConfigError,
        ExternalProcessError,
        GamesFailed,
        IllegalMove,
        InvalidAnswer,
        InvalidSetting,
    )
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
    from arena.plugins.hookspecs import hookimpl
    from arena.referee.external import ExternalProcess, command_problem
    from arena.views.replay import ReplayedStep, resimulate

_WHERE = {
    "arena.api": ("PlayResult", "TournamentResult", "play", "run"),
    "arena.errors": (
        "ArenaError",
        "ConfigError",
        "ExternalProcessError",
        "GamesFailed",
        "IllegalMove",
        "InvalidAnswer",
        "InvalidSetting",
    ),
    "arena.referee.external": ("ExternalProcess", "command_problem"),
    "arena.game": (
        "Answer",
        "FileTransport",
        "Game",
        "GameInfo",
        "Ignore",
        "Incomplete",
        "Move",
        "Outcome",
        "Reply",
        "check_range",
    ),
    "arena.plugins.hookspecs": ("hookimpl",),
    "arena.views.replay": ("ReplayedStep", "resimulate"),
}
_MODULE_OF = {name: module for module, names in _WHERE.items() for name in names}

__all__ = [
    "Answer",
    "ArenaError",
    "ConfigError",
    "ExternalProcess",
    "ExternalProcessError",
    "FileTransport",
    "Game",
    "GameInfo",
    "GamesFailed",
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
from arena.version import __version__ as __version__  # noqa: E402


def __getattr__(name: str) -> Any:
    """Import a public name's module the first time the name is used."""
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'arena' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    """The public names, loaded or not (for ``dir(arena)`` and completion)."""
    return sorted({*globals(), *__all__})
