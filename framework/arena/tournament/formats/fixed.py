"""Fixed formats: every game known in advance (round-robin, gauntlet), generated as played."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING

from arena.records import GameSpec, StoredGame
from arena.tournament.formats.base import Scheduler
from arena.tournament.schedule import MAX_PLANNED_GAMES, Plan, RoundPlan

if TYPE_CHECKING:
    from arena.results.store import Store
    from arena.tournament.config import TournamentConfig


class FixedScheduler(Scheduler):
    """A fixed plan (round-robin, gauntlet): its games not stored yet, in order."""

    max_games = MAX_PLANNED_GAMES

    def __init__(self, plan: Plan, done: set[str] | frozenset[str], start: int = 0) -> None:
        """``done``: the plan's stored keys from order ``start`` on (every game before it
        is stored)."""
        self.plan = plan
        self.done = done  # the plan's stored keys: what is stored, not what is planned
        self.start = start
        self.planned = len(plan)
        self.stored = start + len(done)

    def specs(self) -> Iterator[GameSpec]:
        """Every planned game whose key is not stored, generated as the executor asks."""
        done = self.done
        return (s for s in self.plan.specs_from(self.start) if s.key not in done)

    @classmethod
    def create(
        cls, config: TournamentConfig, stored: list[StoredGame], plan: Plan | None
    ) -> Scheduler:
        """The plan, less the games stored."""
        made = cls._plan(config, plan)
        seated = ((g.key, g.round, tuple(s.bot for s in g.seats)) for g in stored)
        return cls(made, {k for k, r, seats in seated if made.find(k, r, seats) is not None})

    @classmethod
    def resume(
        cls,
        config: TournamentConfig,
        store: Store,
        plan: Plan | None,
    ) -> Scheduler:
        """The plan, less the current games: where the first not stored is and the keys
        stored after it are all it needs (:meth:`~arena.results.store.Store.done_games`:
        each is the plan's, placed by it), so neither the stored games nor their keys
        before the first gap are read."""
        found = store.done_games()
        return cls(cls._plan(config, plan), found.later, found.start)

    @classmethod
    def _plan(cls, config: TournamentConfig, plan: Plan | None) -> Plan:
        made = plan if plan is not None else cls.make_plan(config)
        assert made is not None  # a fixed format always has a plan
        return made

    @classmethod
    def full_plan(cls, config: TournamentConfig) -> list[GameSpec] | None:
        """Every spec of :meth:`make_plan`, as a list."""
        plan = cls.make_plan(config)
        return list(plan) if plan is not None else None


class RoundRobinScheduler(FixedScheduler):
    """``round-robin``: every combination of ``players`` bots, through its seat rotations."""

    description = "every combination of bots plays `games` games, seats rotating"
    seeded_rounds = True

    @classmethod
    def lineups(cls, bots: int, players: int) -> int | None:
        """Every combination of ``players`` bots."""
        return math.comb(bots, players)

    @classmethod
    def make_plan(cls, config: TournamentConfig) -> Plan | None:
        """The :class:`~arena.tournament.schedule.RoundPlan` of the file's bots."""
        names = [b.name for b in config.bots]
        games = config.games if config.games is not None else 2
        variants = max(1, len(config.variants))
        return RoundPlan(names, config.players, games, config.schedule_seed, variants)


class GauntletScheduler(FixedScheduler):
    """``gauntlet``: the champion against every combination of the others."""

    description = "the `champion` plays every other bot; the others never meet"
    needs = (("champion", "`champion: NAME` (one of the bots)"),)
    min_players = 2
    seeded_rounds = True

    @classmethod
    def lineups(cls, bots: int, players: int) -> int | None:
        """The champion with every combination of the others."""
        return math.comb(bots - 1, players - 1)

    @classmethod
    def make_plan(cls, config: TournamentConfig) -> Plan | None:
        """The :class:`~arena.tournament.schedule.RoundPlan` of the champion's line-ups."""
        assert config.champion is not None
        names = [b.name for b in config.bots]
        games = config.games if config.games is not None else 2
        variants = max(1, len(config.variants))
        seed = config.schedule_seed
        return RoundPlan(names, config.players, games, seed, variants, config.champion)
