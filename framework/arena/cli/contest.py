"""``arena contest final|export OUTPUT``: a contest's final ranking and its results, for
organisers who work without the web page.

``arena contest final OUTPUT [--games-per-pair N]`` plays (or resumes) the final: every
pair of the final versions, seat-swapped on shared seeds, in ``OUTPUT/final``
(:mod:`arena.contest.final`), then prints its leaderboard. ``arena contest export OUTPUT
--csv FILE | --json FILE | --replays FILE`` writes the leaderboard (the final's, else the
league's) or a zip of every game's replay (:mod:`arena.contest.export`); ``-`` is
standard output.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from arena.errors import EXIT_OK

DEFAULT_GAMES_PER_PAIR = 20
"""Games each pair of final versions plays by default (10 seeds, both seats)."""


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None


def add_parsers(sub: Any) -> None:
    """The ``contest`` command and its ``final`` and ``export``."""
    p = sub.add_parser("contest", help="a contest's final ranking and its results' export")
    contest_sub = p.add_subparsers(dest="contest_command", required=True)
    final = contest_sub.add_parser(
        "final", help="play (or resume) the final: every pair of the final versions"
    )
    final.add_argument("output", type=Path, help="the contest's output folder")
    final.add_argument(
        "--games-per-pair",
        type=_whole,
        default=DEFAULT_GAMES_PER_PAIR,
        metavar="N",
        help=f"games of each pair, seats swapped on shared seeds (default "
        f"{DEFAULT_GAMES_PER_PAIR}; even)",
    )
    final.add_argument(
        "--seed", type=_whole, metavar="N", help="the final's seed (default: the league's)"
    )
    final.add_argument("--bosses", action="store_true", help="the bosses play the final too")
    final.set_defaults(func=cmd_final)
    export = contest_sub.add_parser("export", help="the leaderboard as CSV or JSON, or the replays")
    export.add_argument("output", type=Path, help="the contest's output folder")
    what = export.add_mutually_exclusive_group(required=True)
    what.add_argument("--csv", type=Path, metavar="FILE", help="the leaderboard as CSV (-: stdout)")
    what.add_argument(
        "--json", type=Path, metavar="FILE", help="the leaderboard as JSON (-: stdout)"
    )
    what.add_argument("--replays", type=Path, metavar="FILE", help="a zip of every game's replay")
    export.set_defaults(func=cmd_export)


def cmd_final(args: argparse.Namespace, extra: list[str]) -> int:
    """Play the final, then print its leaderboard."""
    from arena.cli.common import run_exit_code
    from arena.contest.export import export_csv
    from arena.contest.final import FINAL_FOLDER, play_final

    summary = play_final(
        args.output,
        args.games_per_pair,
        args.seed,
        bosses=args.bosses,
        log=lambda line: print(line, file=sys.stderr),
    )
    print(export_csv(args.output, final=True), end="")  # even a final cut short
    done = f"{summary.played} games played now, {summary.resumed} resumed"
    print(f"{done}, the final is in {args.output / FINAL_FOLDER}", file=sys.stderr)
    return run_exit_code(summary)


def cmd_export(args: argparse.Namespace, extra: list[str]) -> int:
    """Write the leaderboard or the replays' zip."""
    from arena.cli.common import check_output_file
    from arena.contest import export
    from arena.results.store import open_existing

    if args.replays is not None:
        if str(args.replays) == "-":
            export.export_replays(args.output, sys.stdout.buffer)
            return EXIT_OK
        check_output_file(args.replays, "--replays")
        open_existing(args.output).close()  # not an output folder: said before the file is made
        with args.replays.open("wb") as dest:
            export.export_replays(args.output, dest)
        return EXIT_OK
    option, path = ("--csv", args.csv) if args.csv is not None else ("--json", args.json)
    if option == "--csv":
        text = export.export_csv(args.output)
    else:
        text = json.dumps(export.export_json(args.output), indent=2) + "\n"
    if str(path) == "-":
        sys.stdout.write(text)
    else:
        check_output_file(path, option)
        path.write_text(text, encoding="utf-8")
    return EXIT_OK
