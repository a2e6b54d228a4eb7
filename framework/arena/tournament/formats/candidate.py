"""``candidate``: a candidate against a pool of bots until its verdict is clear."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from arena.records import GameSpec, SeatRecord, StoredGame
from arena.tournament.formats.base import Scheduler
from arena.tournament.formats.pairs import Pairs
from arena.tournament.schedule import pair_round, round_seed

if TYPE_CHECKING:
    from arena.results.verdict import VerdictRule
    from arena.tournament.config import TournamentConfig


class CandidateScheduler(Scheduler):
    """``candidate``: the candidate against every pool bot until its verdict is clear.

    Round ``k`` plays one seat-swapped pair against each pool bot in turn, all on the
    same seed (the ``k``-th round seed), so every pool bot meets the candidate on the
    same positions. Before each new game the pooled tests of
    :class:`~arena.results.verdict.CandidateVerdict` are looked at: once the answer is
    clear no new game starts (games already running finish and are stored).
    """

    description = (
        "the candidate (first bot, or `candidate`) against every other bot on shared seeds, "
        "until its verdict is clear (better, not worse, worse), or `games`"
    )
    open_ended = True
    two_players = True
    own_keys = ("candidate", "verdict")

    DEFAULT_GAMES = 10_000
    """The game limit when the file sets none (a verdict may never come: ``inconclusive``)."""

    def __init__(self, config: TournamentConfig, stored: Iterable[StoredGame]) -> None:
        from arena.results.verdict import CandidateVerdict

        self.candidate, self.pool = candidate_and_pool(config)
        self.verdict = CandidateVerdict(verdict_rule(config), self.candidate, self.pool)
        self.plan = self.full_plan(config) or []
        self.planned = len(self.plan)
        self.limit = self.planned
        self.pairs = Pairs()
        self.done: set[str] = set()
        keys = {spec.key for spec in self.plan}
        for g in stored:
            if g.key in keys:
                self._count(g.round, g.seats, g.settings)
                self.done.add(g.key)
        self.stored = len(self.done)

    @classmethod
    def full_plan(cls, config: TournamentConfig) -> list[GameSpec] | None:
        """Rounds of one pair against each pool bot on a shared seed, up to ``games``."""
        candidate, pool = candidate_and_pool(config)
        limit = config.games if config.games is not None else cls.DEFAULT_GAMES
        variants = max(1, len(config.variants))
        specs: list[GameSpec] = []
        for k in itertools.count():
            shared = [round_seed(config.schedule_seed, k)]  # one seed for the whole round
            for i, opponent in enumerate(pool):
                r = k * len(pool) + i
                for spec in pair_round(candidate, opponent, r, shared, variants, len(specs)):
                    if len(specs) == limit:
                        return specs
                    specs.append(spec)
        return specs  # pragma: no cover (the loop returns)

    @classmethod
    def defines(cls, config: TournamentConfig, seats: tuple[str, ...]) -> bool:
        """The candidate against a pool bot."""
        candidate, pool = candidate_and_pool(config)
        return len(seats) == 2 and candidate in seats and any(b in pool for b in seats)

    def _count(self, round_index: int, seats: Sequence[SeatRecord], settings: Any) -> None:
        """Count a game of the candidate against a pool bot; a completed pair moves the
        tests (the candidate's points seated first, then second)."""
        if self.candidate not in (s.bot for s in seats):
            return
        pair = self.pairs.add(round_index, seats, settings)
        if pair is None:
            return
        a, b, a_first, a_second = pair
        if a == self.candidate and b in self.pool:
            self.verdict.add_pair(b, a_first, a_second)
        elif b == self.candidate and a in self.pool:  # b seated first where a was second
            self.verdict.add_pair(a, 1 - a_second, 1 - a_first)

    def specs(self) -> Iterator[GameSpec]:
        """The next games of the plan not stored, while the verdict is not clear."""
        for spec in self.plan:
            if spec.key in self.done:
                continue
            if self.verdict.done:
                return
            yield spec

    def record(self, spec: GameSpec, seats: Sequence[SeatRecord], settings: Any) -> None:
        """Count the game; a completed pair moves the tests."""
        self._count(spec.round, seats, settings)

    def status(self) -> str:
        """``better LLR +1.23, not worse LLR +0.40 (-2.94, 2.94)``."""
        pooled = self.verdict.pooled
        test = pooled.better.test
        return (
            f"better LLR {pooled.better.llr:+.2f}, not worse LLR {pooled.not_worse.llr:+.2f} "
            f"({test.lower:.2f}, {test.upper:.2f})"
        )

    def expected_total(self) -> int | None:
        """The games so far once decided, else ``None`` (the plan's limit)."""
        return 2 * self.verdict.pairs if self.verdict.done else None


def candidate_and_pool(config: TournamentConfig) -> tuple[str, tuple[str, ...]]:
    """The candidate (``candidate:``, else the first bot) and the pool (the others)."""
    names = [b.name for b in config.bots]
    candidate = config.candidate or names[0]
    return candidate, tuple(n for n in names if n != candidate)


def verdict_rule(config: TournamentConfig) -> VerdictRule:
    """The verdict's bounds: the file's ``verdict`` mapping, else the defaults."""
    from arena.results.verdict import VerdictRule

    test = config.verdict
    if test is None:
        return VerdictRule()
    return VerdictRule(test.elo0, test.elo1, test.alpha, test.beta, test.model)
