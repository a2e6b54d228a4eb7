"""``sprt``: two bots in seat-swapped pairs until the SPRT decides."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from arena.records import GameSpec, SeatRecord, StoredGame
from arena.results import stats as st
from arena.tournament.formats.base import Scheduler
from arena.tournament.formats.pairs import Pairs
from arena.tournament.schedule import paired_rounds

if TYPE_CHECKING:
    from arena.tournament.config import TournamentConfig


class SprtScheduler(Scheduler):
    """Seat-swapped pairs between ``candidate`` and ``baseline`` until the SPRT decides.

    The check runs before each new game is handed out: once the LLR of the complete
    pairs crosses a bound no new game starts (games already running still finish and
    are stored; the verdict is always that of the stored games).
    """

    description = "two bots in seat-swapped pairs until the SPRT decides, or `games`"
    open_ended = True
    two_players = True
    needs = (("sprt", "`sprt: {elo0: 0, elo1: 5}`"),)
    bot_count = 2

    def __init__(self, config: TournamentConfig, stored: Iterable[StoredGame]) -> None:
        assert config.sprt is not None
        self.test = config.sprt
        self.candidate, self.baseline = (b.name for b in config.bots[:2])
        self.variants = max(1, len(config.variants))
        self.seed = config.schedule_seed
        self.limit = config.games
        self.planned = config.games
        self.pairs = Pairs()
        self._last: st.SprtResult | None = None
        self.done: set[str] = set()
        for g in stored:
            if {s.bot for s in g.seats} == {self.candidate, self.baseline}:
                self.pairs.add(g.round, g.seats, g.settings)
                self.done.add(g.key)
        plan = paired_rounds(self.candidate, self.baseline, self.seed, self.variants)
        self.plan = itertools.islice(plan, self.limit) if self.limit is not None else plan
        self.stored = len(self.done)

    @classmethod
    def full_plan(cls, config: TournamentConfig) -> list[GameSpec] | None:
        """The first ``games`` of the paired rounds, when ``games`` is set."""
        if config.games is None:
            return None
        names = [b.name for b in config.bots]
        rounds = paired_rounds(
            names[0], names[1], config.schedule_seed, max(1, len(config.variants))
        )
        return list(itertools.islice(rounds, config.games))

    @classmethod
    def defines(cls, config: TournamentConfig, seats: tuple[str, ...]) -> bool:
        """Only the two bots under test."""
        return super().defines(config, seats) and set(seats) == {b.name for b in config.bots[:2]}

    def result(self) -> st.SprtResult:
        """The test on the pairs completed so far."""
        counts = self.pairs.pentanomial(self.candidate, self.baseline)
        if self._last is None or self._last.pairs != counts.pairs:  # only pairs move it
            self._last = self.test.result(self.candidate, self.baseline, counts)
        return self._last

    def specs(self) -> Iterator[GameSpec]:
        """The next games of the plan not stored, while the test is undecided."""
        for spec in self.plan:
            if spec.key in self.done:
                continue
            if self.result().verdict is not None:
                return
            yield spec

    def record(self, spec: GameSpec, seats: Sequence[SeatRecord], settings: Any) -> None:
        """Count the game; a completed pair moves the LLR."""
        self.pairs.add(spec.round, seats, settings)

    def status(self) -> str:
        """``LLR 1.23 (-2.94, 2.94) [0, 5]``."""
        return self.result().progress()

    def expected_total(self) -> int | None:
        """Games until the LLR reaches the bound it heads for, at the pace it moved so far:
        ``2 pairs * bound / LLR`` (the LLR grows about linearly with the pairs), at most
        ``games``; the games so far once decided; ``None`` before any pair counts."""
        r = self.result()
        games = 2 * r.pairs
        if r.verdict is not None:
            return games
        if r.pairs == 0 or r.llr == 0:
            return None
        bound = self.test.upper if r.llr > 0 else self.test.lower
        expected = max(games + 2, math.ceil(games * bound / r.llr))
        return min(expected, self.limit) if self.limit is not None else expected
