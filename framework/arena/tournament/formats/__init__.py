"""Tournament formats: which game to play next, given the results so far.

A :class:`Scheduler` hands the executor a lazy stream of :class:`~arena.records.GameSpec`
(:meth:`Scheduler.specs`) and hears about every game that ends (:meth:`Scheduler.record`),
so a format can decide as results come in while the executor (worker pool, signals,
storage) stays the same for all of them. Each scheduler is rebuilt from the stored games
at start, so every format resumes: stored keys are never played again.

Every format is one line of :data:`FORMATS`: its scheduler class, which carries the
format's rules as class attributes (the keys it needs, the players and bots it takes, an
in-words description) that the tournament file's checks read. Adding a format is one
scheduler class, one line of the table, its tests and its docs.

- ``round-robin`` and ``gauntlet``: a fixed plan, generated as it is played
  (:class:`arena.tournament.schedule.RoundPlan`).
- ``sprt``: rounds of two games (seats swapped) between the two bots until the
  log-likelihood ratio of the pairs crosses a bound, or ``games`` are played.
- ``league``: one round (a seat-swapped pair) at a time, between the two bots where a
  game tells most: first every pairing not played yet (so a bot added to the file plays
  first), then the pairings whose Bradley-Terry ratings overlap most relative to the
  pairs they have played; until ``games`` in all, or Ctrl-C.
- ``contest``: a league for a contest (:mod:`arena.tournament.formats.contest`): one
  round at a time where the ranking is least certain, bots of one owner never meeting,
  optional leagues with bosses.
- ``swiss``: ``games`` rounds; each pairs bots of equal score without rematches
  (a maximum-weight matching), one seat-swapped pair per pairing, a bye for an odd bot.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.limits import DEFAULT_FORMAT
from arena.records import GameSpec
from arena.tournament.formats.base import Scheduler
from arena.tournament.formats.candidate import CandidateScheduler, candidate_and_pool, verdict_rule
from arena.tournament.formats.contest import ContestScheduler
from arena.tournament.formats.fixed import FixedScheduler, GauntletScheduler, RoundRobinScheduler
from arena.tournament.formats.league import LeagueScheduler
from arena.tournament.formats.sprt import SprtScheduler
from arena.tournament.formats.swiss import SwissScheduler, swiss_rounds
from arena.tournament.schedule import Plan, round_seed

if TYPE_CHECKING:  # the loader reads this table: rating (trueskill) and the store load later
    from arena.records import StoredGame
    from arena.results.store import Store, StoredPlace
    from arena.tournament.config import TournamentConfig

__all__ = [
    "DEFAULT_FORMAT",
    "FORMATS",
    "CandidateScheduler",
    "ContestScheduler",
    "FixedScheduler",
    "GauntletScheduler",
    "LeagueScheduler",
    "RoundRobinScheduler",
    "Scheduler",
    "SprtScheduler",
    "SwissScheduler",
    "candidate_and_pool",
    "defined_spec",
    "fixed_plan",
    "make_scheduler",
    "resume_scheduler",
    "schedule_size",
    "swiss_rounds",
    "verdict_rule",
]


FORMATS: dict[str, type[Scheduler]] = {
    DEFAULT_FORMAT: RoundRobinScheduler,
    "gauntlet": GauntletScheduler,
    "sprt": SprtScheduler,
    "league": LeagueScheduler,
    "candidate": CandidateScheduler,
    "swiss": SwissScheduler,
    "contest": ContestScheduler,
}
"""Every tournament format by name: its scheduler, which carries its rules. The first is
the default (``format`` left out, :data:`arena.limits.DEFAULT_FORMAT`)."""


def schedule_size(fmt: str, bots: int, players: int, games: int | None, variants: int = 1) -> int:
    """How many games a format plays at most, computed without building its schedule:
    per line-up for fixed formats, ``games`` in all for open-ended ones (0 when ``games``
    is None: no limit)."""
    if games is None:
        return 0
    lineups = FORMATS[fmt].lineups(bots, players)
    if lineups is None:
        return games
    if players == 1:
        lineups = bots
    return lineups * games * variants


def fixed_plan(config: TournamentConfig) -> Plan | None:
    """Every game the file can ever schedule, when that is fixed: round-robin and gauntlet
    (generated as they are played), sprt and candidate with a ``games`` limit (lists);
    ``None`` for league and unlimited sprt."""
    return FORMATS[config.format].make_plan(config)


def defined_spec(config: TournamentConfig, stored: StoredPlace) -> GameSpec | None:
    """The spec an open-ended format (league, unlimited sprt) gives a stored game's key now,
    or ``None`` when the file no longer defines it (another line-up, other variants)."""
    seats = stored.seats
    if not FORMATS[config.format].defines(config, seats):
        return None
    variants = max(1, len(config.variants))
    seed = round_seed(config.schedule_seed, stored.round)
    for v in range(variants):
        spec = GameSpec(stored.ord, stored.round, seed, seats, stored.group, v, variants)
        if spec.key == stored.key:
            return spec
    return None


def resume_scheduler(config: TournamentConfig, store: Store, plan: Plan | None) -> Scheduler:
    """The scheduler of a run resuming the stored games the file defines (a fixed plan
    reads only where its first game not stored is and the keys stored after it, a league
    the sums of its games, other formats the stored games)."""
    return FORMATS[config.format].resume(config, store, plan)


def make_scheduler(
    config: TournamentConfig, stored: list[StoredGame], plan: Plan | None = None
) -> Scheduler:
    """The scheduler of ``config.format``, aware of the games already ``stored``
    (``plan``: :func:`fixed_plan`, when already made)."""
    return FORMATS[config.format].create(config, stored, plan)
