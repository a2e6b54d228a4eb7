"""Fixed formats: a list of games known in advance (round-robin, gauntlet)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING

from arena.records import GameSpec, StoredGame
from arena.tournament.formats.base import Scheduler
from arena.tournament.schedule import gauntlet, round_robin

if TYPE_CHECKING:
    from arena.tournament.config import TournamentConfig


class FixedScheduler(Scheduler):
    """A fixed list of games (round-robin, gauntlet): those not stored yet, in order."""

    def __init__(self, plan: list[GameSpec], done: set[str]) -> None:
        self.plan = plan
        self.done = done
        self.planned = len(plan)
        self.stored = sum(1 for s in plan if s.key in done)

    def specs(self) -> Iterator[GameSpec]:
        """Every planned game whose key is not stored."""
        return (s for s in self.plan if s.key not in self.done)

    @classmethod
    def create(
        cls, config: TournamentConfig, stored: list[StoredGame], plan: list[GameSpec] | None
    ) -> Scheduler:
        """The plan, less the games stored."""
        return cls(
            plan if plan is not None else cls.full_plan(config) or [], {g.key for g in stored}
        )


class RoundRobinScheduler(FixedScheduler):
    """``round-robin``: every combination of ``players`` bots, through its seat rotations."""

    description = "every combination of bots plays `games` games, seats rotating"
    seeded_rounds = True

    @classmethod
    def lineups(cls, bots: int, players: int) -> int | None:
        """Every combination of ``players`` bots."""
        return math.comb(bots, players)

    @classmethod
    def full_plan(cls, config: TournamentConfig) -> list[GameSpec] | None:
        """:func:`~arena.tournament.schedule.round_robin` of the file's bots."""
        names = [b.name for b in config.bots]
        games = config.games if config.games is not None else 2
        variants = max(1, len(config.variants))
        return round_robin(names, config.players, games, config.schedule_seed, variants)


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
    def full_plan(cls, config: TournamentConfig) -> list[GameSpec] | None:
        """:func:`~arena.tournament.schedule.gauntlet` of the file's bots."""
        assert config.champion is not None
        names = [b.name for b in config.bots]
        games = config.games if config.games is not None else 2
        variants = max(1, len(config.variants))
        seed = config.schedule_seed
        return gauntlet(names, config.champion, config.players, games, seed, variants)
