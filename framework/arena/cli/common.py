"""What every command shares: the installed games, progress bars, warnings, printing."""

from __future__ import annotations

import os
import sys
from typing import Any

BOARD_FORMATS = ("table", "markdown", "json", "csv")
"""How ``arena run`` and ``arena leaderboard`` render the leaderboard (``--format``)."""


def installed_games(registry: Any = None) -> Any:
    """The installed games (``registry``, or loaded now); broken plugins and skipped games
    are reported once, on stderr."""
    if registry is None:
        from arena.plugins.registry import load_registry

        registry = load_registry()
    for problem in registry.problems():
        print(f"arena: warning: {problem}", file=sys.stderr)
    return registry


def game_registry(game_id: str) -> Any:
    """The installed games as far as ``game_id`` needs them (warnings printed as by
    :func:`installed_games`): only its plugin imported where the index of the last full
    scan still holds (:func:`arena.plugins.registry.registry_for`), else a full scan,
    whose index is then cached for the next command."""
    import hashlib
    import json

    from arena import hostcache
    from arena.plugins import registry as plugins

    where = json.dumps([os.getuid(), sys.version, sys.path, os.getcwd()])
    key = "plugins-" + hashlib.sha256(where.encode()).hexdigest()
    found = plugins.registry_for(game_id, hostcache.read_entry(key))
    if found is None:
        pm = plugins.get_plugin_manager()
        found = plugins.load_registry(pm)
        hostcache.write_entry(key, plugins.plugin_index(pm, found))
    return installed_games(found)


def progress_bar(total: int) -> Any:
    """A tqdm progress bar of ``total`` games on stderr (tqdm is imported only for it)."""
    from tqdm import tqdm

    return tqdm(total=total, unit="game", file=sys.stderr)


class NoProgressBar:
    """What ``arena match`` writes through when no progress bar is shown."""

    def update(self, n: int = 1) -> None:
        """Nothing to move."""

    def close(self) -> None:
        """Nothing to close."""

    @staticmethod
    def write(text: str, file: Any) -> None:
        """Print a line (tqdm's ``write`` prints above its bar)."""
        print(text, file=file)


def progress_wanted(disabled: bool) -> bool:
    """A progress bar on stderr: when it is a terminal (or ARENA_PROGRESS=1) unless disabled."""
    return (not disabled and sys.stderr.isatty()) or os.environ.get("ARENA_PROGRESS") == "1"


def warn_concurrency(games_at_once: int, option: str, thinking: int = 1) -> None:
    """Warn when more bots think at once than there are cores (``thinking`` seats of each
    game think at the same time): they then share cores, and games where the machine
    keeps a bot waiting past its budget are replayed as stalls."""
    from arena.tournament.config import available_cores

    cores = available_cores()
    if games_at_once * thinking > cores:
        bots = f" ({games_at_once * thinking} bots thinking at once)" if thinking > 1 else ""
        print(
            f"arena: warning: {option} {games_at_once}{bots} is more than the {cores} cores "
            "available: bots will share cores; turns they lose waiting for one are stalls, "
            "replayed",
            file=sys.stderr,
        )


def print_board(text: str) -> None:
    """Print a rendered leaderboard, ending in exactly one newline (CSV ends in one)."""
    print(text, end="" if text.endswith("\n") else "\n")
