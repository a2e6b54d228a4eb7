"""``arena bot add|retire OUTPUT ...``: change a league's bots while it runs.

The change goes into the output folder's roster file (:mod:`arena.tournament.roster`):
a running ``arena run`` of the league takes it up between rounds, without a restart; a
stopped one at its next start. A new version of a bot is added as a new bot (its old
version stays, with its games and rating): ``arena bot add out/league v2=mybot.py``,
then ``arena bot retire out/league v1`` when the old one should play no more.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from arena.errors import EXIT_OK


def add_parsers(sub: Any) -> None:
    """The ``bot`` command and its ``add`` and ``retire``."""
    p = sub.add_parser("bot", help="add a bot to a league, or retire one, while it runs")
    bot_sub = p.add_subparsers(dest="bot_command", required=True)
    add = bot_sub.add_parser("add", help="add a bot ([NAME=]CMD, or a source file)")
    add.add_argument("output", type=Path, help="the league's output folder")
    add.add_argument("bot", help="[NAME=]CMD, or a source file to build")
    add.add_argument(
        "--retire", metavar="NAME", help="retire this bot at the same time (a new version)"
    )
    add.set_defaults(func=cmd_bot_add)
    retire = bot_sub.add_parser("retire", help="give a bot no new game (it stays ranked)")
    retire.add_argument("output", type=Path, help="the league's output folder")
    retire.add_argument("name", help="the bot's name")
    retire.set_defaults(func=cmd_bot_retire)


def cmd_bot_add(args: argparse.Namespace, extra: list[str]) -> int:
    """Add a bot to the league's roster (and retire another, for a new version)."""
    from arena.tournament.steering import add_bot

    name = add_bot(args.output, args.bot, args.retire)
    also = f"; {args.retire} is retired" if args.retire else ""
    print(f"{name} joins the league in {args.output}{also}")
    _say_when(args.output)
    return EXIT_OK


def cmd_bot_retire(args: argparse.Namespace, extra: list[str]) -> int:
    """Retire a bot: it keeps its games and rating, and gets no new game."""
    from arena.tournament.steering import retire_bot

    retire_bot(args.output, args.name)
    print(f"{args.name} is retired from the league in {args.output}")
    _say_when(args.output)
    return EXIT_OK


def _say_when(output: Path) -> None:
    """Whether a running league takes the change up now, or the next start does."""
    from arena.tournament.steering import league_running

    if league_running(output):
        print("the running league takes it up after the games now running", file=sys.stderr)
    else:
        print("the league takes it up at its next `arena run`", file=sys.stderr)
