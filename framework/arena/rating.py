"""Ratings: TrueSkill over the stored games, plus per-bot tallies and pairwise win rates.

Ratings are always recomputed from the store in schedule order, so a tournament that
was stopped and resumed ends with exactly the leaderboard of one that never stopped.
A rating *event* is one game with several seats, or, for one-player games, every game
of one round (the same seed), whose bots are ranked by score as a free-for-all.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import trueskill

from arena.store import StoredGame

REASONS = ("timeout", "crash", "invalid", "illegal")


@dataclass(frozen=True)
class Entry:
    """One bot's part in one rating event; ``variant`` labels the game's settings variant."""

    bot: str
    rank: int
    score: float
    forfeit: str | None
    variant: str = ""


@dataclass
class BotStats:
    """Everything the leaderboard shows for one bot."""

    name: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    rank_sum: float = 0.0
    scores: list[float] = field(default_factory=list)
    variant_scores: dict[str, list[float]] = field(default_factory=dict)
    forfeits: dict[str, int] = field(default_factory=lambda: dict.fromkeys(REASONS, 0))

    @property
    def conservative(self) -> float:
        """mu - 3 sigma: the rating the leaderboard sorts by."""
        return self.mu - 3 * self.sigma

    @property
    def win_rate(self) -> float:
        """Wins plus half the draws, over games (0 when none)."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0

    @property
    def avg_rank(self) -> float:
        """Mean place, 1 for first."""
        return self.rank_sum / self.games + 1 if self.games else 0.0


@dataclass
class Pairwise:
    """Head-to-head results of ``a`` against ``b`` (from a's side)."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def n(self) -> int:
        """Encounters counted."""
        return self.wins + self.draws + self.losses

    @property
    def rate(self) -> float:
        """Score rate of a against b: (wins + draws/2) / n."""
        return (self.wins + 0.5 * self.draws) / self.n if self.n else 0.0

    @property
    def margin(self) -> float:
        """95% half-width of :attr:`rate`, Agresti-Coull style (two wins and two losses
        added), so that 4 wins out of 4 reads 100±30%, not a certain 100±0%."""
        n = self.n + 4
        p = (self.wins + 0.5 * self.draws + 2) / n
        return 1.96 * math.sqrt(p * (1 - p) / n)


def variant_label(settings: Mapping[str, Any], keys: Sequence[str]) -> str:
    """``layout=2``: the values of the settings a tournament varies (empty when none)."""
    return ", ".join(f"{k}={settings.get(k)}" for k in keys)


def events(games: Iterable[StoredGame], variant_keys: Sequence[str] = ()) -> list[list[Entry]]:
    """Group stored games into rating events, in schedule order."""
    out: list[list[Entry]] = []
    solo: dict[str, list[Entry]] = {}
    for g in games:
        label = variant_label(g.settings, variant_keys)
        if len(g.seats) == 1:
            s = g.seats[0]
            if g.group not in solo:
                solo[g.group] = []
                out.append(solo[g.group])
            solo[g.group].append(Entry(s.bot, 0, s.score, s.forfeit, label))
        else:
            out.append([Entry(s.bot, s.rank, s.score, s.forfeit, label) for s in g.seats])
    for group in solo.values():
        # One-player games of a round: rank by score, forfeits last.
        keyed = [(e.forfeit is None, e.score) for e in group]
        group[:] = [
            Entry(e.bot, sum(1 for o in keyed if o > keyed[i]), e.score, e.forfeit, e.variant)
            for i, e in enumerate(group)
        ]
    return out


def new_env() -> trueskill.TrueSkill:
    """The TrueSkill environment arena uses (package defaults: mu 25, sigma 25/3)."""
    return trueskill.TrueSkill(backend=None)


def compute(
    bots: Sequence[str], games: Iterable[StoredGame], variant_keys: Sequence[str] = ()
) -> tuple[list[BotStats], dict[tuple[str, str], Pairwise]]:
    """Ratings, tallies and the pairwise matrix for ``bots`` from stored ``games``.

    ``variant_keys`` names the settings the tournament varies; scores are then also kept
    per variant.
    """
    env = new_env()
    ratings = {b: env.create_rating() for b in bots}
    stats = {b: BotStats(b, 0.0, 0.0) for b in bots}
    pairs: dict[tuple[str, str], Pairwise] = {}
    for event in events(games, variant_keys):
        for e in event:
            if e.bot not in ratings:
                ratings[e.bot] = env.create_rating()
                stats[e.bot] = BotStats(e.bot, 0.0, 0.0)
        if len(event) >= 2:
            new = env.rate([(ratings[e.bot],) for e in event], ranks=[e.rank for e in event])
            for e, (r,) in zip(event, new, strict=True):
                ratings[e.bot] = r
        best = min(e.rank for e in event)
        shared = sum(1 for e in event if e.rank == best) > 1
        for e in event:
            st = stats[e.bot]
            st.games += 1
            st.rank_sum += e.rank
            st.scores.append(e.score)
            st.variant_scores.setdefault(e.variant, []).append(e.score)
            if e.forfeit in st.forfeits:
                st.forfeits[e.forfeit] += 1
            if len(event) >= 2:
                if e.rank == best and not shared:
                    st.wins += 1
                elif e.rank == best:
                    st.draws += 1
                else:
                    st.losses += 1
            for o in event:
                if o.bot == e.bot:
                    continue
                pw = pairs.setdefault((e.bot, o.bot), Pairwise())
                if e.rank < o.rank:
                    pw.wins += 1
                elif e.rank == o.rank:
                    pw.draws += 1
                else:
                    pw.losses += 1
    for b, r in ratings.items():
        stats[b].mu, stats[b].sigma = r.mu, r.sigma
    ordered = sorted(stats.values(), key=lambda s: (-s.conservative, s.name))
    return ordered, pairs


def mean_interval(values: Sequence[float]) -> tuple[float, float]:
    """Mean and 95% half-width (normal approximation; 0 for fewer than two values)."""
    if not values:
        return 0.0, 0.0
    mean = sum(values) / len(values)
    if len(values) < 2:
        return mean, 0.0
    var = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return mean, 1.96 * math.sqrt(var / len(values))
