"""``arena bot add|retire OUTPUT ...``: change a league's bots while it runs.

The change goes into the output folder's roster file (:mod:`arena.tournament.roster`):
a running ``arena run`` of the league takes it up between rounds, without a restart; a
stopped one at its next start. A new version of a bot is added as a new bot (its old
version stays, with its games and rating): ``arena bot add out/league v2=mybot.py``,
then ``arena bot retire out/league v1`` when the old one should play no more.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import Any

from arena.errors import EXIT_OK, ConfigError


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


def _league(output: Path) -> tuple[list[str], Any]:
    """The bots of the league in ``output`` (as its last run named them) and its roster;
    :class:`ConfigError` when it is not a league's output folder."""
    from arena.results.store import open_existing
    from arena.tournament.roster import read_roster

    store = open_existing(output)
    try:
        meta = store.meta()
    finally:
        store.close()
    if meta.get("format") != "league":
        fmt = meta.get("format", "round-robin")
        raise ConfigError(f"{output}: a {fmt} tournament, not a league: only a league takes bots")
    roster = read_roster(output)
    names = [*meta.get("bots", []), *(b.get("name") for b in roster.added)]
    return [str(n) for n in names if n], roster


def _entry(text: str, taken: list[str]) -> dict[str, str]:
    """The roster entry of ``[NAME=]CMD``: an absolute command, or a source file."""
    from arena.tournament.config import bot_name_problem
    from arena.tournament.match import match_bots

    bot = match_bots([text])[0]
    if (problem := bot_name_problem(bot.name)) is not None:
        raise ConfigError(problem)
    if bot.name in taken:
        raise ConfigError(
            f"the league already has a bot named {bot.name!r}: name the new one (NAME=CMD)"
        )
    if bot.recipe is not None:
        return {"name": bot.name, "source": str(Path(bot.recipe.sources[0][1]).resolve())}
    return {"name": bot.name, "cmd": shlex.join(bot.argv)}


def cmd_bot_add(args: argparse.Namespace, extra: list[str]) -> int:
    """Add a bot to the league's roster (and retire another, for a new version)."""
    from dataclasses import replace

    from arena.tournament.roster import write_roster

    names, roster = _league(args.output)
    entry = _entry(args.bot, names)
    retired = roster.retired
    if args.retire is not None:
        _check_retire(args.retire, names, roster.retired)
        retired = (*retired, args.retire)
    write_roster(args.output, replace(roster, added=(*roster.added, entry), retired=retired))
    print(f"{entry['name']} joins the league in {args.output}" + _also(args.retire))
    _say_when(args.output)
    return EXIT_OK


def _also(retired: str | None) -> str:
    return f"; {retired} is retired" if retired else ""


def _check_retire(name: str, names: list[str], retired: tuple[str, ...]) -> None:
    if name not in names:
        raise ConfigError(f"no bot named {name!r} in the league (bots: {', '.join(names)})")
    if name in retired:
        raise ConfigError(f"{name!r} is already retired")


def cmd_bot_retire(args: argparse.Namespace, extra: list[str]) -> int:
    """Retire a bot: it keeps its games and rating, and gets no new game."""
    from dataclasses import replace

    from arena.tournament.roster import write_roster

    names, roster = _league(args.output)
    _check_retire(args.name, names, roster.retired)
    write_roster(args.output, replace(roster, retired=(*roster.retired, args.name)))
    print(f"{args.name} is retired from the league in {args.output}")
    _say_when(args.output)
    return EXIT_OK


def _say_when(output: Path) -> None:
    """Whether a running league takes the change up now, or the next start does."""
    from arena.results.status import read_status

    status = read_status(output)
    if status is not None and status.get("state") == "running":
        print("the running league takes it up after the games now running", file=sys.stderr)
    else:
        print("the league takes it up at its next `arena run`", file=sys.stderr)
