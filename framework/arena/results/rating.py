"""Ratings: TrueSkill and Bradley-Terry over the stored games, tallies, pairwise statistics.

Ratings are always recomputed from the store in schedule order, so a tournament that
was stopped and resumed ends with exactly the leaderboard of one that never stopped.
A rating *event* is one game with several seats, or, for one-player games, every game
of one round (the same seed), whose bots are ranked by score as a free-for-all.

Head to head, every event counts one *encounter* per two bots in it (the better rank
wins). The two games of one seed and settings between the same two bots, seats swapped,
form a *pair* (pentanomial statistics, :mod:`arena.results.stats`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import trueskill

from arena.records import StoredGame, result_of
from arena.records import pair_points as pair_points_of
from arena.results import stats as st

REASONS = ("timeout", "crash", "memory", "invalid", "illegal")


@dataclass(frozen=True)
class Entry:
    """One bot's part in one rating event; ``variant`` labels the game's settings variant."""

    bot: str
    rank: int
    score: float
    forfeit: str | None
    variant: str = ""


@dataclass
class Pairwise:
    """Head-to-head results of ``a`` against ``b`` (from a's side), or of a bot against the
    field; ``ptnml`` counts the seat-swapped pairs among them."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    ptnml: st.Pentanomial = field(default_factory=st.Pentanomial)

    @property
    def n(self) -> int:
        """Encounters counted."""
        return self.wins + self.draws + self.losses

    @property
    def rate(self) -> float:
        """Score rate of a against b: (wins + draws/2) / n."""
        return (self.wins + 0.5 * self.draws) / self.n if self.n else 0.0

    @property
    def draw_rate(self) -> float:
        """Draws over encounters."""
        return self.draws / self.n if self.n else 0.0

    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of :attr:`rate` (asymmetric, inside [0, 1])."""
        return st.wilson(self.wins + 0.5 * self.draws, self.n)

    def elo(self) -> st.EloEstimate:
        """Elo difference ±95%, LOS: over the seat-swapped pairs when there are any
        (pentanomial, as fastchess), else over single encounters (trinomial)."""
        if self.ptnml.pairs:
            return self.ptnml.estimate()
        return st.trinomial(self.wins, self.draws, self.losses)


@dataclass
class BotStats:
    """Everything the leaderboard shows for one bot."""

    name: str
    mu: float
    sigma: float
    bt: float | None = None  # Bradley-Terry rating, Elo scale, mean 0
    bt_error: float | None = None  # its 95% half-width
    overall: Pairwise = field(default_factory=Pairwise)  # head to head against every opponent
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
        """mu - 3 sigma: TrueSkill's conservative rating (the leaderboard's tie-break)."""
        return self.mu - 3 * self.sigma

    @property
    def win_rate(self) -> float:
        """Wins plus half the draws, over games (0 when none)."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0

    @property
    def avg_rank(self) -> float:
        """Mean place, 1 for first."""
        return self.rank_sum / self.games + 1 if self.games else 0.0

    def win_interval(self) -> tuple[float, float]:
        """95% Wilson interval of :attr:`win_rate`."""
        return st.wilson(self.wins + 0.5 * self.draws, self.games)


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
    games = list(games)
    env = new_env()
    ratings = {b: env.create_rating() for b in bots}
    stats = {b: BotStats(b, 0.0, 0.0) for b in bots}
    pairs: dict[tuple[str, str], Pairwise] = {}
    multi: list[st.GamePairs] = []  # each game of 3+ players, pair by pair (BT's errors)
    for event in events(games, variant_keys):
        for e in event:
            if e.bot not in ratings:
                ratings[e.bot] = env.create_rating()
                stats[e.bot] = BotStats(e.bot, 0.0, 0.0)
        if len(event) >= 2:
            new = env.rate([(ratings[e.bot],) for e in event], ranks=[e.rank for e in event])
            for e, (r,) in zip(event, new, strict=True):
                ratings[e.bot] = r
        if len(event) >= 3:
            multi.append(
                [
                    (e.bot, o.bot, pair_points_of(e.rank, o.rank))
                    for k, e in enumerate(event)
                    for o in event[k + 1 :]
                    if e.bot != o.bot
                ]
            )
        ranks = [e.rank for e in event]
        for k, e in enumerate(event):
            bs = stats[e.bot]
            bs.games += 1
            bs.rank_sum += e.rank
            bs.scores.append(e.score)
            bs.variant_scores.setdefault(e.variant, []).append(e.score)
            if e.forfeit in bs.forfeits:
                bs.forfeits[e.forfeit] += 1
            result = result_of(ranks, k)
            bs.wins += result == "win"
            bs.draws += result == "draw"
            bs.losses += result == "loss"
            for o in event:
                if o.bot == e.bot:
                    continue
                pw = pairs.setdefault((e.bot, o.bot), Pairwise())
                points = pair_points_of(e.rank, o.rank)
                pw.wins += points == 1.0
                pw.draws += points == 0.5
                pw.losses += points == 0.0
    for (a, b), ptnml in pentanomials(games).items():
        pairs.setdefault((a, b), Pairwise()).ptnml = ptnml
        pairs.setdefault((b, a), Pairwise()).ptnml = ptnml.reversed()
    for (a, _), pw in pairs.items():
        fld = stats[a].overall
        fld.wins, fld.draws, fld.losses = (
            fld.wins + pw.wins,
            fld.draws + pw.draws,
            fld.losses + pw.losses,
        )
        fld.ptnml.merge(pw.ptnml)
    encounters = [
        st.Encounter(a, b, pw.wins + 0.5 * pw.draws, pw.n) for (a, b), pw in pairs.items() if a < b
    ]
    bt = st.bradley_terry(stats, encounters, multi)
    for b, r in ratings.items():
        stats[b].mu, stats[b].sigma = r.mu, r.sigma
        stats[b].bt, stats[b].bt_error = bt.ratings.get(b), bt.errors.get(b)
    return sorted(stats.values(), key=rank_key), pairs


def rank_key(s: BotStats) -> tuple[bool, float, float, str]:
    """The leaderboard's order: Bradley-Terry rating (best first), then TrueSkill's
    ``mu - 3 sigma``, then name; bots without games last, whatever their prior."""
    bt = s.bt if s.bt is not None else -math.inf
    return (s.games == 0, -bt, -s.conservative, s.name)


def pair_points(seats: Sequence[Any], bot: str) -> float:
    """Points of ``bot`` in a two-player game: 1 for the better rank, 1/2 for equal, 0."""
    mine = next(s.rank for s in seats if s.bot == bot)
    other = next(s.rank for s in seats if s.bot != bot)
    return pair_points_of(mine, other)


def pair_id(round_index: int, settings: Mapping[str, Any], bots: Iterable[str]) -> tuple[Any, ...]:
    """What the two games of a seat-swapped pair share: round (seed), settings, the bots."""
    return (round_index, json.dumps(settings, sort_keys=True), tuple(sorted(bots)))


def pentanomials(games: Iterable[StoredGame]) -> dict[tuple[str, str], st.Pentanomial]:
    """Pentanomial counts per pairing ``(a, b)`` with ``a < b``, from a's side: the two
    games on one round's seed and settings with seats swapped count as one pair; a game
    whose other half is missing does not count."""
    halves: dict[tuple[Any, ...], dict[tuple[str, ...], float]] = {}
    for g in games:
        bots = tuple(s.bot for s in g.seats)
        if len(bots) != 2 or bots[0] == bots[1]:
            continue
        pid = pair_id(g.round, g.settings, bots)
        halves.setdefault(pid, {})[bots] = pair_points(g.seats, min(bots))
    out: dict[tuple[str, str], st.Pentanomial] = {}
    for pid, done in halves.items():
        a, b = pid[2]
        if len(done) == 2:
            out.setdefault((a, b), st.Pentanomial()).add(done[a, b], done[b, a])
    return out
