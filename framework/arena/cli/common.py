"""What every command shares: the parser class, the installed games, progress bars,
warnings, printing."""

from __future__ import annotations

import argparse
import os
import stat
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from arena.errors import (
    EXIT_FAILED,
    EXIT_GIVEN_UP,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    ConfigError,
)
from arena.text import shown

if TYPE_CHECKING:
    from arena.tournament.run import RunSummary

BOARD_FORMATS = ("table", "markdown", "json", "csv")
"""How ``arena run`` and ``arena leaderboard`` render the leaderboard (``--format``)."""

ALL_HELP = (
    "every stored game, also those the tournament file no longer defines (another "
    "`games`, other bots or settings): by default they are left out, and said so"
)
"""The help of ``--all`` (``leaderboard``, ``list``, ``report``)."""


class ArenaParser(argparse.ArgumentParser):
    """argparse as arena wants it: no abbreviated options (``--max_turn`` is not
    ``--max_turns``), and a bad argument is one line, ``arena: error: ...`` (or
    ``arena run: error: ...``), exit code 2, without a usage block before it (``-h`` shows it)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        """Print the one line and exit with :data:`~arena.errors.EXIT_USAGE`."""
        self.exit(EXIT_USAGE, f"{self.prog}: error: {shown(message)}\n")


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
    from arena.tournament.games import registry_for_game

    found = registry_for_game(game_id)
    return installed_games(found)


def check_output_file(path: Path, option: str) -> None:
    """Refuse, before anything is written, an output file (``option`` names it, e.g.
    ``-o x.html``) that exists and is not a regular file (a device, a FIFO, a folder), or
    whose folder does not exist: :class:`ConfigError`, exit code 2. A command never
    replaces a device nor creates folders for a file it was told to write."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise ConfigError(f"{option}: cannot write: {exc.strerror}") from None
    if mode is not None and not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
        raise ConfigError(f"{option}: {str(path)!r} is {kind}: name a file to write")
    folder = path.parent
    if not folder.is_dir():
        raise ConfigError(f"{option}: the folder {str(folder)!r} does not exist: create it first")


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


def add_rating_option(p: Any) -> None:
    """``--rating NAME``: the rating the leaderboard is sorted by."""
    p.add_argument(
        "--rating",
        metavar="NAME",
        help="sort by this rating: bt (default), elo, trueskill or openskill (override "
        "`rating`; see docs/leaderboard.md)",
    )


def run_exit_code(summary: RunSummary, answer: int = EXIT_OK, given_up_counts: bool = True) -> int:
    """The exit code of a tournament's run (``arena run``, ``arena check``), its reason
    said on stderr where the output does not say it: 128 + the signal that interrupted it
    (:data:`~arena.errors.EXIT_INTERRUPTED` without one), :data:`~arena.errors.EXIT_USAGE`
    when a bot's file changed during it, :data:`~arena.errors.EXIT_FAILED` when games
    failed in the referee, :data:`~arena.errors.EXIT_GIVEN_UP` when games were given up
    after stalling at every replay (only where they count: ``given_up_counts``, e.g. a
    check whose verdict they leave open), else ``answer`` (a check's verdict; a run's 0)."""
    if summary.interrupted:
        return 128 + summary.stop_signal if summary.stop_signal else EXIT_INTERRUPTED
    if summary.changed:
        print(f"arena: {summary.changed}", file=sys.stderr)
        return EXIT_USAGE
    if summary.failed:
        return EXIT_FAILED
    if summary.abandoned and given_up_counts:
        print(
            f"arena: {summary.abandoned} game(s) given up after stalling at every replay, "
            f"not stored (exit code {EXIT_GIVEN_UP}); run the same command again to play them",
            file=sys.stderr,
        )
        return EXIT_GIVEN_UP
    return answer
