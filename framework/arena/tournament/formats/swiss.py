"""``swiss``: rounds pairing bots of equal points, without rematches."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from arena.records import GameSpec, SeatRecord, StoredGame
from arena.tournament.formats.base import Scheduler
from arena.tournament.schedule import pair_round

if TYPE_CHECKING:
    from arena.tournament.config import TournamentConfig


class SwissScheduler(Scheduler):
    """``swiss``: ``games`` rounds (default ``ceil(log2(bots)) + 1``), one at a time.

    Before each round the bots are ranked by points (1 per game won, 1/2 per draw, a bye
    as many as the round's games; equal points in the file's order). With an odd number
    of bots the lowest-ranked bot without a bye yet (else with the fewest) sits the round
    out. The others are paired by a maximum-weight perfect matching (networkx) whose
    costs put, in this order: no rematch, then the least squared difference of points
    (score groups), then neighbours in the ranking. Each pairing plays one seat-swapped
    pair on the round's seed (:func:`~arena.tournament.schedule.pair_round`: seats are
    balanced by construction), the higher-ranked bot seated first. A round's games run
    concurrently; the next round is paired once they have all ended.
    """

    description = (
        "`games` rounds (default: ceil(log2(bots)) + 1) of seat-swapped pairs between bots "
        "of equal points, no rematches, a bye for an odd bot out"
    )
    two_players = True
    default_games = None

    BYE_POINTS = 1.0
    """A bye's points per game of the round it sits out (FIDE's full-point bye: a won
    round, 2 points with one settings variant)."""

    def __init__(self, config: TournamentConfig, stored: Iterable[StoredGame]) -> None:
        from arena.results import rating

        self.rating = rating
        self.bots = [b.name for b in config.bots]
        self.rounds = config.games if config.games is not None else swiss_rounds(len(self.bots))
        self.seed = config.schedule_seed
        self.variants = max(1, len(config.variants))
        self.per_round = (len(self.bots) // 2) * 2 * self.variants
        self.planned = self.rounds * self.per_round
        self.points: dict[str, float] = dict.fromkeys(self.bots, 0.0)
        self.met: dict[frozenset[str], int] = {}
        self.byes: dict[str, int] = dict.fromkeys(self.bots, 0)
        #: per round played or started: its pairings and its bye
        self.history: list[tuple[list[tuple[str, str]], str | None]] = []
        self.done: set[str] = set()
        self.unfinished = self._rebuild(stored)
        self.stored = len(self.done)

    def _rebuild(self, stored: Iterable[StoredGame]) -> list[GameSpec]:
        """The rounds of the stored games, in order (their pairings read back, the bye the
        bot of an odd field missing from its round); the games missing from them."""
        by_round: dict[int, list[StoredGame]] = {}
        for g in stored:
            bots = tuple(s.bot for s in g.seats)
            if len(bots) == 2 and all(b in self.points for b in bots) and bots[0] != bots[1]:
                by_round.setdefault(g.round, []).append(g)
        missing: list[GameSpec] = []
        for r in sorted(by_round):
            if r >= self.rounds:
                break
            ranked = self.standings()
            pairings = {frozenset(s.bot for s in g.seats) for g in by_round[r]}
            pairs = [(a, b) for a, b in itertools.combinations(ranked, 2) if {a, b} in pairings]
            playing = {b for pair in pairs for b in pair}
            absent = [b for b in ranked if b not in playing]
            bye = self._bye(absent) if len(self.bots) % 2 and absent else None
            specs = self._start(r, pairs, bye)
            for g in by_round[r]:
                self.done.add(g.key)
                self.record_points(g.seats)
            missing.extend(s for s in specs if s.key not in self.done)
        return missing

    def standings(self) -> list[str]:
        """The bots by points, the file's order among equals."""
        order = {b: i for i, b in enumerate(self.bots)}
        return sorted(self.bots, key=lambda b: (-self.points[b], order[b]))

    def _bye(self, ranked: list[str]) -> str:
        """The lowest-ranked of ``ranked`` with the fewest byes (none yet, usually)."""
        fewest = min(self.byes[b] for b in ranked)
        return next(b for b in reversed(ranked) if self.byes[b] == fewest)

    def pairings(self, ranked: list[str]) -> list[tuple[str, str]]:
        """The round's pairings of ``ranked`` (an even number of bots, best first)."""
        import networkx as nx

        n = len(ranked)
        half = {b: round(2 * self.points[b]) for b in ranked}
        spread = max(half.values(), default=0) - min(half.values(), default=0)
        # Each level outweighs every sum of the levels below it over the n/2 pairings.
        score_cost = n**3  # > n/2 * (n-1)**2, the most the ranking part can add up to
        rematch_cost = score_cost * (spread**2 + 1) * n
        costs = {
            (i, j): rematch_cost * self.met.get(frozenset((ranked[i], ranked[j])), 0)
            + score_cost * (half[ranked[i]] - half[ranked[j]]) ** 2
            + (i - j) ** 2
            for i, j in itertools.combinations(range(n), 2)
        }
        top = max(costs.values(), default=0) + 1
        graph = nx.Graph()
        graph.add_weighted_edges_from((i, j, top - c) for (i, j), c in costs.items())
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        pairs = sorted(tuple(sorted(edge)) for edge in matching)
        return [(ranked[i], ranked[j]) for i, j in pairs]

    def _start(self, r: int, pairs: list[tuple[str, str]], bye: str | None) -> list[GameSpec]:
        """Round ``r`` begins: its pairings met, the bye's points given; its games."""
        self.history.append((pairs, bye))
        if bye is not None:
            self.byes[bye] += 1
            self.points[bye] += self.BYE_POINTS * 2 * self.variants
        specs: list[GameSpec] = []
        for a, b in pairs:
            pairing = frozenset((a, b))
            self.met[pairing] = self.met.get(pairing, 0) + 1
            specs.extend(
                pair_round(a, b, r, self.seed, self.variants, r * self.per_round + len(specs))
            )
        return specs

    def record_points(self, seats: Sequence[SeatRecord]) -> None:
        """Count one game's points."""
        bots = [s.bot for s in seats]
        if len(bots) == 2 and bots[0] != bots[1] and all(b in self.points for b in bots):
            for b in bots:
                self.points[b] += self.rating.pair_points(seats, b)

    def specs(self) -> Iterator[GameSpec]:
        """The stored rounds' missing games, else the next round's games (paired from
        every result so far); the stream ends at the round's end."""
        if self.unfinished:
            todo, self.unfinished = self.unfinished, []
            yield from todo
            return
        r = len(self.history)
        if r >= self.rounds or len(self.bots) < 2:
            return
        ranked = self.standings()
        bye = self._bye(ranked) if len(ranked) % 2 else None
        pairs = self.pairings([b for b in ranked if b != bye])
        yield from self._start(r, pairs, bye)

    def more_rounds(self) -> bool:
        """Rounds left to pair."""
        return bool(self.unfinished) or len(self.history) < self.rounds

    def record(self, spec: GameSpec, seats: Sequence[SeatRecord], settings: Any) -> None:
        """Count the game's points (for the next round's pairings)."""
        self.record_points(seats)

    def status(self) -> str:
        """``round 2 of 4``."""
        return f"round {max(1, len(self.history))} of {self.rounds}"

    @classmethod
    def lineups(cls, bots: int, players: int) -> int | None:
        """The games of one round, per settings variant (``games`` counts rounds)."""
        return (bots // 2) * 2


def swiss_rounds(bots: int) -> int:
    """The Swiss rounds by default: ``ceil(log2(bots)) + 1`` (enough to single out a
    winner, and one more)."""
    return math.ceil(math.log2(max(bots, 2))) + 1
