"""Adding and retiring a league's bots while it runs: the one home of the checks that
``arena bot add|retire`` and ``arena serve``'s page share.

A change is written to the roster file (:mod:`arena.tournament.roster`), which the
running league takes up between rounds. The bot is given as ``arena match`` takes it
(``[NAME=]CMD``, or a source file to build), resolved against the current folder.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from arena.errors import ConfigError
from arena.limits import DEFAULT_FORMAT
from arena.tournament.roster import Roster, read_roster, write_roster


def takes_bots(fmt: str) -> bool:
    """Whether a tournament of format ``fmt`` takes bots while it runs (a league)."""
    from arena.tournament.formats import FORMATS

    scheduler = FORMATS.get(fmt)
    return scheduler is not None and scheduler.takes_bots


@dataclass(frozen=True)
class League:
    """A league's output folder: its bots (the file's and those added) and its roster."""

    output: Path
    names: tuple[str, ...]
    roster: Roster


def open_league(output: Path) -> League:
    """The league in ``output``; :class:`ConfigError` when it is not a league's folder."""
    from arena.results.store import open_existing

    store = open_existing(output)
    try:
        meta = store.meta()
    finally:
        store.close()
    fmt = str(meta.get("format", DEFAULT_FORMAT))
    if not takes_bots(fmt):
        raise ConfigError(f"{output}: a {fmt} tournament, not a league: only a league takes bots")
    roster = read_roster(output)
    names = [*meta.get("bots", []), *(b.get("name") for b in roster.added)]
    return League(output, tuple(dict.fromkeys(str(n) for n in names if n)), roster)


def _entry(text: str, league: League) -> dict[str, str]:
    """The roster entry of ``[NAME=]CMD``: an absolute command, or a source file."""
    from arena.tournament.config import bot_name_problem
    from arena.tournament.match import match_bots

    bot = match_bots([text])[0]
    if (problem := bot_name_problem(bot.name)) is not None:
        raise ConfigError(problem)
    if bot.name in league.names:
        raise ConfigError(
            f"the league already has a bot named {bot.name!r}: name the new one (NAME=CMD)"
        )
    return bot.file_entry()


def _check_retire(league: League, name: str) -> None:
    if name not in league.names:
        raise ConfigError(f"no bot named {name!r} in the league (bots: {', '.join(league.names)})")
    if name in league.roster.retired:
        raise ConfigError(f"{name!r} is already retired")


def add_bot(output: Path, text: str, retire: str | None = None) -> str:
    """Add the bot ``text`` to the league in ``output`` (and retire ``retire``, for a new
    version); its name."""
    league = open_league(output)
    entry = _entry(text, league)
    retired = league.roster.retired
    if retire is not None:
        _check_retire(league, retire)
        retired = (*retired, retire)
    write_roster(
        output, replace(league.roster, added=(*league.roster.added, entry), retired=retired)
    )
    return entry["name"]


def retire_bot(output: Path, name: str) -> None:
    """Retire ``name``: it keeps its games and rating, and gets no new game."""
    league = open_league(output)
    _check_retire(league, name)
    write_roster(output, replace(league.roster, retired=(*league.roster.retired, name)))


def league_running(output: Path) -> bool:
    """Whether a run of the league in ``output`` is running: it takes a roster change up
    after the games now running; else its next start does."""
    from arena.results.status import read_status

    status = read_status(output)
    return status is not None and status.get("state") == "running"
