"""``arena run`` (a tournament file, resumed) and ``arena leaderboard``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.cli.common import (
    ALL_HELP,
    BOARD_FORMATS,
    add_rating_option,
    installed_games,
    print_board,
    progress_wanted,
    run_exit_code,
    warn_concurrency,
)
from arena.errors import EXIT_OK, ArenaError, ConfigError
from arena.tournament.keys import add_options, option_overrides

if TYPE_CHECKING:
    from arena.views.leaderboard import ShownLeaderboard


def add_parsers(sub: Any) -> None:
    """The ``run`` and ``leaderboard`` commands."""
    p = sub.add_parser("run", help="run (or resume) a tournament file")
    p.add_argument("file", type=Path, help="tournament YAML file")
    add_options(p)  # --games, --seed, --output...: one per key that has one
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument(
        "--format",
        choices=BOARD_FORMATS,
        default="table",
        help="leaderboard format; stdout holds only the leaderboard, the rest goes to stderr",
    )
    _board_options(p)
    p.add_argument(
        "--update",
        action="store_true",
        help="after editing a bot: keep the stored games that still hold, replay only "
        "those the edit made stale",
    )
    p.add_argument(
        "--fresh",
        action="store_true",
        help="start over: delete the output folder's arena.sqlite and games/ first",
    )
    p.set_defaults(func=cmd_run)
    p = sub.add_parser("leaderboard", help="print the leaderboard of an output folder")
    p.add_argument("output", type=Path, help="the tournament's output folder")
    p.add_argument("--format", choices=BOARD_FORMATS, default="table")
    p.add_argument("--all", action="store_true", help=ALL_HELP)
    _board_options(p)
    p.set_defaults(func=cmd_leaderboard)


def _board_options(p: Any) -> None:
    """``--wide``, ``--columns`` and ``--rating``: what the text table shows."""
    add_rating_option(p)
    p.add_argument(
        "--wide",
        action="store_true",
        help="the text table with every column, the pairings and the win-rate matrix",
    )
    p.add_argument(
        "--columns",
        metavar="A,B,...",
        help="the text table with these columns, e.g. rank,bot,elo,los,mu-3sigma "
        "(every key: docs/leaderboard.md)",
    )


def render_board(board: ShownLeaderboard, args: argparse.Namespace) -> str:
    """The leaderboard as ``--format``, ``--wide``, ``--columns`` and ``--rating`` ask."""
    if args.rating is not None:
        board = board.sorted_by(args.rating)
    columns = [c.strip() for c in args.columns.split(",") if c.strip()] if args.columns else None
    return board.render(args.format, wide=args.wide, columns=columns)


def cmd_run(args: argparse.Namespace, extra: list[str]) -> int:
    """Run or resume a tournament file and print its leaderboard (only it, on stdout)."""
    from arena.results.store import left_out_note, make_output_folder
    from arena.tournament.config import load_tournament, new_output_note
    from arena.tournament.run import run_tournament
    from arena.views.leaderboard import ShownLeaderboard
    from arena.views.progress import run_observers

    if args.update and args.fresh:
        raise ConfigError(
            "--update keeps the games that still hold, --fresh deletes them all: give one of them"
        )
    registry = installed_games()
    config = load_tournament(args.file, registry, option_overrides(args))
    note = new_output_note(config)
    if note:
        print(f"arena: {note}", file=sys.stderr)
    make_output_folder(config.output, config.where("output"))
    if config.executor == "local" or config.dask is None:  # else the bots run elsewhere
        thinking = registry.get(config.game).info.thinking
        warn_concurrency(config.concurrency, "concurrency", thinking)
    say = _to_stderr
    fresh = args.fresh
    while True:
        shown = run_observers(
            config.output, progress_wanted(args.no_progress), config.rating_interval, True, say
        )
        summary = run_tournament(config, fresh=fresh, update=args.update, observers=shown)
        if not summary.roster_changed or summary.interrupted:
            break
        # `arena bot add|retire` changed the league: read the file and roster again, go on.
        config = load_tournament(args.file, registry, option_overrides(args))
        say(f"arena: the league's bots are now {', '.join(_roster_line(config))}")
        fresh = False
    print_board(render_board(ShownLeaderboard.of(summary.leaderboard), args))
    done = f"{summary.played} games played now, {summary.resumed} resumed"
    print(f"{done}, results in {config.output}", file=sys.stderr)
    if note := left_out_note(summary.left_out):
        print(f"arena: {note}", file=sys.stderr)
    _write_report(config.output)
    return run_exit_code(summary)


def _roster_line(config: Any) -> list[str]:
    """The league's bots, the retired ones marked."""
    return [b.name + (" (retired)" if b.name in config.retired else "") for b in config.bots]


def _to_stderr(message: str) -> None:
    print(message, file=sys.stderr)


def _write_report(output: Path) -> None:
    """Write ``OUTPUT/report.html`` after a run; a failure is reported, never fatal."""
    from arena.views.report import write_report

    try:
        result = write_report(output, log=lambda msg: print(msg, file=sys.stderr))
    except (ArenaError, OSError) as exc:
        print(f"arena: could not write the report: {exc}", file=sys.stderr)
        return
    print(f"report: {result.path}", file=sys.stderr)  # stdout holds only the leaderboard


def cmd_leaderboard(args: argparse.Namespace, extra: list[str]) -> int:
    """Print the leaderboard of an output folder again, from its database."""
    from arena.results.store import left_out_note, open_existing
    from arena.views.leaderboard import shown_leaderboard

    store = open_existing(args.output)
    try:
        board = shown_leaderboard(store, every_game=args.all)
        left_out = 0 if args.all else store.left_out()
    finally:
        store.close()
    print_board(render_board(board, args))
    if note := left_out_note(left_out):  # stderr: stdout stays the board (JSON, CSV...)
        print(f"arena: {note}", file=sys.stderr)
    return EXIT_OK
