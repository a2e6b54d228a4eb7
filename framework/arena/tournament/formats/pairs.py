"""Seat-swapped pairs of two-player games, counted as they complete."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from arena.records import SeatRecord
from arena.results import stats as st

if TYPE_CHECKING:
    from arena.results.pairings import PairSums


class Pairs:
    """Seat-swapped pairs of two-player games as they complete (pentanomial counts)."""

    def __init__(self) -> None:
        from arena.results import rating  # trueskill: only once games are scheduled

        self.rating = rating
        self.halves: dict[tuple[Any, ...], dict[tuple[str, ...], float]] = {}
        self.ptnml: dict[tuple[str, str], st.Pentanomial] = {}
        self.results: dict[tuple[str, str], Any] = {}  # rating.Pairwise

    def add(
        self, round_index: int, seats: Sequence[SeatRecord], settings: Any
    ) -> tuple[str, str, float, float] | None:
        """Count a game; once it completes its pair, ``(a, b, p, q)``: ``a``'s points
        (``a`` < ``b``) in the pair's game seated ``a, b`` and in the one seated ``b, a``."""
        bots = tuple(s.bot for s in seats)
        if len(bots) != 2 or bots[0] == bots[1]:
            return None
        a, b = sorted(bots)
        rating = self.rating
        pw = self.results.setdefault((a, b), rating.Pairwise())
        points = rating.pair_points(seats, a)
        if points == 1:
            pw.wins += 1
        elif points == 0:
            pw.losses += 1
        else:
            pw.draws += 1
        done = self.halves.setdefault(rating.pair_id(round_index, settings, bots), {})
        done[bots] = points
        if len(done) != 2:
            return None
        self.ptnml.setdefault((a, b), st.Pentanomial()).add(done[a, b], done[b, a])
        return a, b, done[a, b], done[b, a]

    def add_sums(self, sums: PairSums) -> None:
        """Count the games a store summed up by pair (:func:`~arena.results.pairings.pair_sums`)
        as :meth:`add` counts them one by one (a complete pair's halves are not kept)."""
        for p in sums.pairings:
            pw = self.results.setdefault((p.low, p.high), self.rating.Pairwise())
            pw.wins += p.wins
            pw.draws += p.draws
            pw.losses += p.losses
        for pairing, counts in sums.ptnml.items():
            ptnml = self.ptnml.setdefault(pairing, st.Pentanomial())
            ptnml.merge(st.Pentanomial(list(counts)))
        for half in sums.halves:
            seats = (half.first, half.high if half.first == half.low else half.low)
            pid = self.rating.pair_id(half.round, half.settings, seats)
            self.halves.setdefault(pid, {})[seats] = half.points

    def pentanomial(self, first: str, second: str) -> st.Pentanomial:
        """The pairs from ``first``'s side."""
        a, b = sorted((first, second))
        counts = self.ptnml.get((a, b), st.Pentanomial())
        return counts if first == a else counts.reversed()
