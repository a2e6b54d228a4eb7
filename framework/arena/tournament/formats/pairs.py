"""Seat-swapped pairs of two-player games, counted as they complete."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.records import SeatRecord
from arena.results import stats as st
from arena.results.pairings import PairGames


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

    def add_seating(self, first: str, second: str, games: int, wins: int, draws: int) -> None:
        """Count ``games`` of ``first`` seated first against ``second`` at once, of which
        ``first`` won ``wins`` and drew ``draws`` (as :meth:`add` counts them one by one)."""
        a, b = sorted((first, second))
        pw = self.results.setdefault((a, b), self.rating.Pairwise())
        losses = games - wins - draws
        pw.draws += draws
        pw.wins += wins if a == first else losses
        pw.losses += losses if a == first else wins

    def add_pair(self, pair: PairGames) -> None:
        """Count the seat-swapped pair a store summed up (its results counted by
        :meth:`add_seating`): complete, in the pentanomial; else as a half."""
        if pair.games == 2:
            ptnml = self.ptnml.setdefault((pair.low, pair.high), st.Pentanomial())
            ptnml.counts[round(2 * pair.low_points)] += 1
            return
        seats = (pair.first, pair.high if pair.first == pair.low else pair.low)
        pid = self.rating.pair_id(pair.round, pair.settings, seats)
        self.halves.setdefault(pid, {})[seats] = pair.low_points

    def pentanomial(self, first: str, second: str) -> st.Pentanomial:
        """The pairs from ``first``'s side."""
        a, b = sorted((first, second))
        counts = self.ptnml.get((a, b), st.Pentanomial())
        return counts if first == a else counts.reversed()
