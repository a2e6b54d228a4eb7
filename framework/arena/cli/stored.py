"""Stored games: ``arena list``, ``show``, ``view``, ``report`` and ``export``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from arena.cli.common import ALL_HELP, add_rating_option, check_output_file, installed_games
from arena.errors import EXIT_OK, ConfigError

RESULTS = ("win", "loss", "draw", "forfeit")
"""What ``arena list --result`` filters on (:data:`arena.results.queries.RESULTS`)."""
ORDERS = ("schedule", "newest", "oldest", "longest", "shortest")
"""How ``arena list --sort`` orders (:data:`arena.results.queries.ORDERS`)."""


def _count(least: int) -> Any:
    """An argparse type: a whole number of at least ``least``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"{value} is below {least}")
        return value

    return parse


def add_parsers(sub: Any) -> None:
    """The commands that read an output folder."""
    p = sub.add_parser("export", help="write a stored game in another tool's format")
    p.add_argument("game_id", help="game id (see the output's games table) or a replay.json path")
    p.add_argument("--format", required=True, help="e.g. codeclash (chess5)")
    p.add_argument("--from", dest="source", type=Path, default=Path("."), help="output folder")
    p.add_argument("--out", type=Path, help="write to this file instead of stdout")
    p.set_defaults(func=cmd_export)
    p = sub.add_parser("list", help="list the stored games of an output folder")
    p.add_argument("output", type=Path, help="the tournament's output folder")
    p.add_argument("--bot", help="only games of this bot")
    p.add_argument(
        "--result",
        choices=RESULTS,
        help="only games with this result: for --bot, that bot's; without, win or loss: "
        "games someone won, draw: a shared first place, forfeit: any forfeit",
    )
    p.add_argument("--opponent", help="only games against this bot")
    p.add_argument(
        "--forfeit",
        metavar="REASON",
        help="only games with a forfeit for this "
        "reason (timeout, crash, invalid, illegal...): --bot's, with --bot",
    )
    p.add_argument("--seed", type=int, help="only games of this seed")
    p.add_argument("--round", type=_count(1), help="only games of this round (1 is the first)")
    p.add_argument(
        "--sort",
        choices=ORDERS,
        default="schedule",
        help="schedule (default), newest, oldest, longest or shortest (turns) first",
    )
    p.add_argument("--page", type=_count(1), default=1, help="which page (default 1)")
    p.add_argument(
        "--limit", type=_count(0), default=100, help="games per page (default 100; 0: every game)"
    )
    p.add_argument("--wide", action="store_true", help="every column, unwrapped")
    p.add_argument("--all", action="store_true", help=ALL_HELP)
    p.set_defaults(func=cmd_list)
    p = sub.add_parser("show", help="show a stored game in the terminal, turn by turn")
    p.add_argument("game_id", help="game number (see `arena list`) or a replay.json path")
    p.add_argument("--from", dest="source", type=Path, default=Path("."), help="output folder")
    p.add_argument("--step", type=int, help="only this step (0 = the start)")
    p.add_argument("--input", action="store_true", help="also show each bot's input")
    p.set_defaults(func=cmd_show)
    p = sub.add_parser("view", help="write a stored game's HTML viewer")
    p.add_argument("game_id", help="game number (see `arena list`) or a replay.json path")
    p.add_argument("--from", dest="source", type=Path, default=Path("."), help="output folder")
    p.add_argument(
        "-o", "--out", type=Path, help="the HTML file (default: viewer.html by the replay)"
    )
    p.set_defaults(func=cmd_view)
    p = sub.add_parser("report", help="write the HTML report of an output folder")
    p.add_argument("output", type=Path, help="the tournament's output folder")
    p.add_argument("-o", "--out", type=Path, help="the HTML file (default: OUTPUT/report.html)")
    p.add_argument("--all", action="store_true", help=ALL_HELP)
    add_rating_option(p)
    p.set_defaults(func=cmd_report)


def cmd_export(args: argparse.Namespace, extra: list[str]) -> int:
    """Write one stored game in another tool's format."""
    from arena.views.replay import find_replay, load_replay

    if args.out:
        check_output_file(args.out, f"--out {args.out}")
    path = find_replay(args.game_id, args.source)
    replay = load_replay(path)
    game = installed_games().create(replay["game"])
    if args.format not in game.info.exports:
        known = ", ".join(game.info.exports) or "none"
        raise ConfigError(f"{game.info.id} cannot export {args.format!r} (formats: {known})")
    try:
        text = game.export(replay, args.format)
    except Exception as exc:  # a damaged replay: its steps do not replay under the rules
        why = f"{type(exc).__name__}: {exc}"
        raise ConfigError(f"{path}: cannot export this replay as {args.format}: {why}") from None
    if args.out:
        try:
            args.out.write_text(text)
        except OSError as exc:
            raise ConfigError(f"--out {args.out}: cannot write: {exc.strerror}") from None
    else:
        print(text)
    return EXIT_OK


def cmd_list(args: argparse.Namespace, extra: list[str]) -> int:
    """Print a page of the stored games of an output folder, filtered and sorted."""
    from arena.results.queries import GameFilter
    from arena.views.listing import Listing, list_games
    from arena.views.tables import terminal_width

    flt = GameFilter(args.bot, args.opponent, args.result, args.forfeit, args.seed, args.round)
    listing = Listing(flt, args.sort, args.page, args.limit, every_game=args.all)
    width = None if args.wide else terminal_width()
    print(list_games(args.output, listing, width))
    return EXIT_OK


def cmd_show(args: argparse.Namespace, extra: list[str]) -> int:
    """Print one stored game turn by turn."""
    from arena.views.listing import show_game
    from arena.views.replay import find_replay, load_replay

    replay = load_replay(find_replay(args.game_id, args.source))
    game = installed_games().create(str(replay["game"]))
    for line in show_game(game, replay, args.step, args.input):
        print(line)
    return EXIT_OK


def cmd_view(args: argparse.Namespace, extra: list[str]) -> int:
    """Write one stored game's self-contained HTML viewer and say where."""
    from arena.views.replay import find_replay
    from arena.views.viewer import write_viewer

    if args.out is not None:
        check_output_file(args.out, f"-o {args.out}")
    replay = find_replay(args.game_id, args.source)
    try:
        path = write_viewer(replay, args.out)
    except OSError as exc:
        raise _cannot_write(exc, args.out) from None
    print(f"viewer: {path}")
    return EXIT_OK


def cmd_report(args: argparse.Namespace, extra: list[str]) -> int:
    """Write an output folder's HTML report (and its games' viewers) and say where."""
    from arena.results.store import left_out_note
    from arena.views.report import REPORT_NAME, write_report

    if args.out is not None:
        check_output_file(args.out, f"-o {args.out}")
    elif args.output.is_dir():
        check_output_file(args.output / REPORT_NAME, str(args.output / REPORT_NAME))
    try:
        result = write_report(
            args.output,
            args.out,
            log=lambda m: print(m, file=sys.stderr),
            rating=args.rating,
            every_game=args.all,
        )
    except OSError as exc:
        raise _cannot_write(exc, args.out) from None
    made = f"{result.viewers} viewers written" if result.viewers else "every viewer up to date"
    print(f"report: {result.path} ({made})")
    if note := left_out_note(result.left_out):
        print(f"arena: {note}", file=sys.stderr)
    return EXIT_OK


def _cannot_write(exc: OSError, out: Path | None) -> ConfigError:
    """One line for an HTML file that could not be written (``-o`` names it, if given)."""
    where = f"-o {out}" if out is not None else str(exc.filename or "the HTML file")
    return ConfigError(f"{where}: cannot write: {exc.strerror or exc}")
