"""Tallies and pairwise statistics of stored games, and every rating of
:mod:`arena.results.ratings` over them.

Incremental ratings (TrueSkill, OpenSkill) rate events in schedule order, so a tournament
that was stopped and resumed ends with exactly the leaderboard of one that never stopped;
fitted ratings (Bradley-Terry, Elo) use the order-free :class:`Counts`.
A rating *event* is one game with several seats, or, for one-player games, every game
of one round (the same seed), whose bots are ranked by score as a free-for-all.

Head to head, every event counts one *encounter* per two bots in it (the better rank
wins). The two games of one seed and settings between the same two bots, seats swapped,
form a *pair* (pentanomial statistics, :mod:`arena.results.stats`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from arena.records import StoredGame, result_of
from arena.records import pair_points as pair_points_of
from arena.results import ratings
from arena.results import stats as st
from arena.results.ratings import Rated

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

    @property
    def unpaired(self) -> int:
        """Encounters outside the seat-swapped pairs (a pair's other game not played, or
        games of 3+ players): counted by :meth:`elo` beside the pairs."""
        return max(0, self.n - 2 * self.ptnml.pairs) if self.ptnml.pairs else 0

    def elo(self) -> st.EloEstimate:
        """Elo difference ±95%, LOS over every encounter: the seat-swapped pairs
        (pentanomial, as fastchess) and the games left unpaired
        (:func:`arena.results.stats.with_unpaired`); over single encounters (trinomial)
        without pairs."""
        return st.with_unpaired(self.wins, self.draws, self.losses, self.ptnml)


@dataclass
class BotStats:
    """Everything the leaderboard shows for one bot: its tallies, and its rating by each
    rating of :mod:`arena.results.ratings` (by name)."""

    name: str
    ratings: dict[str, Rated] = field(default_factory=dict)
    overall: Pairwise = field(default_factory=Pairwise)  # head to head against every opponent
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    rank_sum: float = 0.0
    scores: st.Moments = field(default_factory=st.Moments)
    variant_scores: dict[str, st.Moments] = field(default_factory=dict)
    forfeits: dict[str, int] = field(default_factory=lambda: dict.fromkeys(REASONS, 0))

    def value(self, rating: str) -> float | None:
        """Its rating ``rating``'s sort value (``None``: unrated)."""
        rated = self.ratings.get(rating)
        return None if rated is None else rated.value

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


GamePairs = tuple[tuple[str, str, float], ...]
"""The pairs of one game of 3+ players: ``(a, b, points of a over b)``, each pair once."""

PairResult = tuple[str, str, int, int, int]
"""One ordered pairing's results: ``(a, b, wins, draws, losses)`` of a against b."""


class StoredPairs(MutableMapping[tuple[str, str], Pairwise]):
    """Every ordered pairing's results as the store keeps them: its rows (``results``)
    and the seat-swapped pairs of each pairing ``a < b`` (``ptnml``, from a's side),
    made into :class:`Pairwise` objects only when first looked into. A leaderboard of a
    thousand bots has some 180,000 pairings: its compact table never reads them, and
    its fits read the rows (:meth:`Counts.results`)."""

    def __init__(self, results: list[PairResult], ptnml: dict[tuple[str, str], list[int]]) -> None:
        self.results = results
        self.ptnml = ptnml
        self._made: dict[tuple[str, str], Pairwise] | None = None

    @property
    def made(self) -> bool:
        """Whether the objects were made (from then on they are the counts)."""
        return self._made is not None

    def pairs(self) -> dict[tuple[str, str], Pairwise]:
        """The pairings as objects, made on the first call (in the rows' order, as
        :meth:`Counts.add_pentanomial` adds the pairs to them)."""
        if self._made is None:
            made = {(a, b): Pairwise(w, d, lost) for a, b, w, d, lost in self.results}
            for (a, b), counts in self.ptnml.items():
                ptnml = st.Pentanomial(list(counts))
                made.setdefault((a, b), Pairwise()).ptnml.merge(ptnml)
                made.setdefault((b, a), Pairwise()).ptnml.merge(ptnml.reversed())
            self._made = made
        return self._made

    def where(self, keep: Callable[[str, str], bool]) -> dict[tuple[str, str], Pairwise]:
        """The pairings ``(a, b)`` that ``keep`` keeps, the others' objects not made (a
        page of a thousand bots draws a few hundred of half a million)."""
        made = self._made
        if made is None:
            results = [r for r in self.results if keep(r[0], r[1])]
            ptnml = {k: v for k, v in self.ptnml.items() if keep(*k) or keep(k[1], k[0])}
            made = StoredPairs(results, ptnml).pairs()
        return {k: v for k, v in made.items() if keep(*k)}

    def __getitem__(self, key: tuple[str, str]) -> Pairwise:
        return self.pairs()[key]

    def __setitem__(self, key: tuple[str, str], value: Pairwise) -> None:
        self.pairs()[key] = value

    def __delitem__(self, key: tuple[str, str]) -> None:
        del self.pairs()[key]

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter(self.pairs())

    def __len__(self) -> int:
        return len(self.pairs())


def pairs_where(
    pairs: Mapping[tuple[str, str], Pairwise], keep: Callable[[str, str], bool]
) -> Mapping[tuple[str, str], Pairwise]:
    """The pairings of ``pairs`` that ``keep`` keeps, without making the objects of the
    others when the store's (:meth:`StoredPairs.where`)."""
    if isinstance(pairs, StoredPairs):
        return pairs.where(keep)
    return {k: v for k, v in pairs.items() if keep(*k)}


@dataclass
class Counts:
    """The order-free counts of a set of games: each bot's tallies, each ordered pairing's
    results (with its seat-swapped pairs), and the games of 3+ players by their pairs and
    points (how many had each): all a fitted rating needs, and what the store keeps.
    ``pairs`` is a dict as games are counted, :class:`StoredPairs` as the store reads it."""

    stats: dict[str, BotStats] = field(default_factory=dict)
    pairs: MutableMapping[tuple[str, str], Pairwise] = field(default_factory=dict)
    multi: dict[GamePairs, int] = field(default_factory=dict)

    def results(self) -> Iterable[PairResult]:
        """Each ordered pairing's ``(a, b, wins, draws, losses)``, in the pairs' order,
        without making objects of pairings read from the store."""
        pairs = self.pairs
        if isinstance(pairs, StoredPairs) and not pairs.made:
            return pairs.results
        return ((a, b, pw.wins, pw.draws, pw.losses) for (a, b), pw in pairs.items())

    def bot(self, name: str) -> BotStats:
        """``name``'s tallies (made empty on first use)."""
        if name not in self.stats:
            self.stats[name] = BotStats(name)
        return self.stats[name]

    def add_event(self, event: Sequence[Entry]) -> None:
        """Count one rating event's results (not its seat-swapped pairs)."""
        ranks = [e.rank for e in event]
        for k, e in enumerate(event):
            bs = self.bot(e.bot)
            bs.games += 1
            bs.rank_sum += e.rank
            bs.scores.add(e.score)
            bs.variant_scores.setdefault(e.variant, st.Moments()).add(e.score)
            if e.forfeit in bs.forfeits:
                bs.forfeits[e.forfeit] += 1
            result = result_of(ranks, k)
            bs.wins += result == "win"
            bs.draws += result == "draw"
            bs.losses += result == "loss"
            for o in event:
                if o.bot == e.bot:
                    continue
                pw = self.pairs.setdefault((e.bot, o.bot), Pairwise())
                points = pair_points_of(e.rank, o.rank)
                pw.wins += points == 1.0
                pw.draws += points == 0.5
                pw.losses += points == 0.0
        if len(event) >= 3:
            key = tuple(
                (e.bot, o.bot, pair_points_of(e.rank, o.rank))
                for k, e in enumerate(event)
                for o in event[k + 1 :]
                if e.bot != o.bot
            )
            self.multi[key] = self.multi.get(key, 0) + 1

    def add_pentanomial(self, a: str, b: str, ptnml: st.Pentanomial) -> None:
        """Count the seat-swapped pairs of ``a`` (``a < b``) against ``b``, both ways."""
        self.pairs.setdefault((a, b), Pairwise()).ptnml.merge(ptnml)
        self.pairs.setdefault((b, a), Pairwise()).ptnml.merge(ptnml.reversed())

    def finish(self) -> None:
        """Sum each bot's pairings into its results against the field."""
        for s in self.stats.values():
            s.overall = Pairwise()
        pairs = self.pairs
        if isinstance(pairs, StoredPairs) and not pairs.made:
            self._finish_stored(pairs)
            return
        for (a, _), pw in pairs.items():
            fld = self.bot(a).overall
            fld.wins += pw.wins
            fld.draws += pw.draws
            fld.losses += pw.losses
            if any(pw.ptnml.counts):  # (most pairings of a large league have no pairs)
                fld.ptnml.merge(pw.ptnml)

    def _finish_stored(self, pairs: StoredPairs) -> None:
        """:meth:`finish` over the rows and pairs as stored (no objects per pairing)."""
        totals: dict[str, list[int]] = {}
        for a, _, w, d, lost in pairs.results:
            t = totals.get(a)
            if t is None:
                t = totals[a] = [0, 0, 0]
            t[0] += w
            t[1] += d
            t[2] += lost
        for a, (w, d, lost) in totals.items():
            fld = self.bot(a).overall
            fld.wins, fld.draws, fld.losses = w, d, lost
        sums: dict[str, list[int]] = {}  # each bot's pairs, summed over its pairings
        for (a, b), counts in pairs.ptnml.items():
            if any(counts):
                first, second = sums.setdefault(a, [0] * 5), sums.setdefault(b, [0] * 5)
                for k, n in enumerate(counts):
                    first[k] += n
                    second[4 - k] += n
        for bot, counts in sums.items():
            self.bot(bot).overall.ptnml = st.Pentanomial(counts)


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


def count(
    bots: Sequence[str], games: Sequence[StoredGame], variant_keys: Sequence[str] = ()
) -> tuple[Counts, list[list[Entry]]]:
    """The counts of ``games`` (every bot of ``bots`` included), and their rating events
    in schedule order."""
    counts = Counts()
    for b in bots:
        counts.bot(b)
    evs = events(games, variant_keys)
    for event in evs:
        counts.add_event(event)
    for (a, b), ptnml in pentanomials(games).items():
        counts.add_pentanomial(a, b, ptnml)
    counts.finish()
    return counts, evs


Fitted = dict[str, dict[str, Rated]]
"""Every fitted rating's figures (by its name), of every bot that played (by name)."""


def fit(counts: Counts) -> Fitted:
    """Every fitted rating (Bradley-Terry, Elo) fitted on ``counts``."""
    bots = list(counts.stats)
    return {
        r.name: r.fit(counts, bots)
        for r in ratings.everyone()
        if isinstance(r, ratings.FittedRating)
    }


def rate(
    counts: Counts,
    states: Mapping[str, Mapping[str, Any]],
    sort_by: str = ratings.DEFAULT,
    fitted: Fitted | None = None,
) -> list[BotStats]:
    """Every bot of ``counts`` rated by every rating (incremental ones read from
    ``states``, by name; fitted ones from ``fitted``, else fitted on ``counts``), sorted
    by ``sort_by``."""
    bots = list(counts.stats)
    fitted = fit(counts) if fitted is None else fitted
    for r in ratings.everyone(sort_by):
        if isinstance(r, ratings.IncrementalRating):
            state = states.get(r.name, {})
            rated = {b: r.rated(state, b) for b in bots}
        elif r.name in fitted:
            rated = fitted[r.name]
        elif isinstance(r, ratings.FittedRating):  # fitted only when chosen, never kept
            rated = r.fit(counts, bots)
        else:
            rated = {}
        for b in bots:
            counts.stats[b].ratings[r.name] = rated.get(b) or r.unrated()
    return sorted(counts.stats.values(), key=lambda s: rank_key(s, sort_by))


def compute(
    bots: Sequence[str],
    games: Iterable[StoredGame],
    variant_keys: Sequence[str] = (),
    sort_by: str = ratings.DEFAULT,
) -> tuple[list[BotStats], Mapping[tuple[str, str], Pairwise]]:
    """Ratings, tallies and the pairwise matrix for ``bots`` from stored ``games``, from
    scratch; ``variant_keys`` names the settings the tournament varies (scores are then
    also kept per variant); rows sorted by the rating ``sort_by``."""
    games = list(games)
    counts, evs = count(bots, games, variant_keys)
    states = {
        r.name: ratings.rate_events(r, evs, None)
        for r in ratings.everyone()
        if isinstance(r, ratings.IncrementalRating)
    }
    return rate(counts, states, sort_by), counts.pairs


def rank_key(s: BotStats, sort_by: str = ratings.DEFAULT) -> tuple[Any, ...]:
    """The leaderboard's order: the rating ``sort_by`` (best first), then Bradley-Terry,
    then TrueSkill's ``mu - 3 sigma``, then name; bots without games last, whatever their
    prior."""

    def low(name: str) -> float:
        value = s.value(name)
        return math.inf if value is None or math.isnan(value) else -value

    return (s.games == 0, low(sort_by), *(low(n) for n in ratings.TIE_BREAKS), s.name)


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
