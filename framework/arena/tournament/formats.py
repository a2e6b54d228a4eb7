"""Tournament formats: which game to play next, given the results so far.

A :class:`Scheduler` hands the executor a lazy stream of :class:`~arena.records.GameSpec`
(:meth:`Scheduler.specs`) and hears about every game that ends (:meth:`Scheduler.record`),
so a format can decide as results come in while the executor (worker pool, signals,
storage) stays the same for all of them. Each scheduler is rebuilt from the stored games
at start, so every format resumes: stored keys are never played again.

Every format is one line of :data:`FORMATS`: its scheduler class, which carries the
format's rules as class attributes (the keys it needs, the players and bots it takes, an
in-words description) that the tournament file's checks read. Adding a format is one
scheduler class, one line of the table, its tests and its docs.

- ``round-robin`` and ``gauntlet``: a fixed list (:mod:`arena.tournament.schedule`).
- ``sprt``: rounds of two games (seats swapped) between the two bots until the
  log-likelihood ratio of the pairs crosses a bound, or ``games`` are played.
- ``league``: one round (a seat-swapped pair) at a time, between the two bots where a
  game tells most: first every pairing not played yet (so a bot added to the file plays
  first), then the pairings whose Bradley-Terry ratings overlap most relative to the
  pairs they have played; until ``games`` in all, or Ctrl-C.
- ``swiss``: ``games`` rounds; each pairs bots of equal score without rematches
  (a maximum-weight matching), one seat-swapped pair per pairing, a bye for an odd bot.
"""

from __future__ import annotations

import bisect
import itertools
import math
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from arena.limits import DEFAULT_FORMAT
from arena.records import GameSpec, SeatRecord, StoredGame
from arena.results import stats as st
from arena.tournament.roster import roster_stamp
from arena.tournament.schedule import gauntlet, pair_round, paired_rounds, round_robin, round_seed

if TYPE_CHECKING:  # the loader reads this table: rating (trueskill) and the store load later
    from arena.results.store import StoredPlace
    from arena.results.verdict import VerdictRule
    from arena.tournament.config import TournamentConfig


class Scheduler(ABC):
    """Decides which games to play; told of every game that ends.

    The class attributes are the format's rules, checked before any game
    (:func:`arena.tournament.config.load_tournament`).
    """

    #: what the format does, in words (docs, ``unknown format`` messages)
    description: ClassVar[str] = ""
    #: ``games`` counts all the games and may be left out (play until the format decides,
    #: or Ctrl-C); else ``games`` is per line-up, 2 by default
    open_ended: ClassVar[bool] = False
    #: two-player games between pairs of bots
    two_players: ClassVar[bool] = False
    #: the keys this format needs, each with the example its message shows; every other
    #: format refuses them
    needs: ClassVar[tuple[tuple[str, str], ...]] = ()
    #: the fewest players per game it takes
    min_players: ClassVar[int] = 1
    #: the exact number of bots it compares (None: any, at least a game's worth)
    bot_count: ClassVar[int | None] = None
    #: optional keys only this format reads (every other format refuses them)
    own_keys: ClassVar[tuple[str, ...]] = ()
    #: ``seeds`` gives one round per seed, instead of ``games``
    seeded_rounds: ClassVar[bool] = False
    #: ``games`` when the file leaves it out (fixed formats; None: the format decides)
    default_games: ClassVar[int | None] = 2

    @classmethod
    def lineups(cls, bots: int, players: int) -> int | None:
        """How many line-ups a fixed format plays (None: open-ended, ``games`` in all)."""
        return None

    #: bots may be added and retired while it runs (``arena bot``, roster.json)
    takes_bots: ClassVar[bool] = False
    #: the run stopped handing out games because the league's roster changed
    roster_changed: bool = False
    #: games in the whole plan, stored ones included (``None``: open-ended)
    planned: int | None = None
    #: games of the plan already stored when the run started
    stored: int = 0

    @abstractmethod
    def specs(self) -> Iterator[GameSpec]:
        """The games to play now, produced lazily: each is decided when the executor asks
        for it, after every result recorded so far."""

    def record(self, spec: GameSpec, seats: Sequence[SeatRecord], settings: Any) -> None:
        """A scheduled game ended with these seats (ranks) under these settings (fixed
        plans ignore it)."""
        return None

    def status(self) -> str | None:
        """A short state for the progress bar (``None``: nothing of its own)."""
        return None

    def more_rounds(self) -> bool:
        """Whether :meth:`specs` has more once every game it handed out has ended: a format
        that plays round by round ends its stream at a round's end, and the run asks
        again when the round's games are all in."""
        return False

    @classmethod
    @abstractmethod
    def create(
        cls, config: TournamentConfig, stored: list[StoredGame], plan: list[GameSpec] | None
    ) -> Scheduler:
        """The scheduler of ``config``, aware of the games already ``stored`` (``plan``:
        :meth:`full_plan`, when already built)."""

    @classmethod
    def full_plan(cls, config: TournamentConfig) -> list[GameSpec] | None:
        """Every game the file can ever schedule when that is a fixed list, else ``None``."""
        return None

    @classmethod
    def defines(cls, config: TournamentConfig, seats: tuple[str, ...]) -> bool:
        """Whether an open-ended format still plays this line-up (for stored games)."""
        names = [b.name for b in config.bots]
        return len(seats) == 2 and all(b in names for b in seats)

    def expected_total(self) -> int | None:
        """The games the whole run is now expected to hold, stored ones included, for the
        progress bar's ETA (``None``: :attr:`planned`, as it stands)."""
        return None


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


class _Pairs:
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

    def pentanomial(self, first: str, second: str) -> st.Pentanomial:
        """The pairs from ``first``'s side."""
        a, b = sorted((first, second))
        counts = self.ptnml.get((a, b), st.Pentanomial())
        return counts if first == a else counts.reversed()


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
        self.pairs = _Pairs()
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
    def create(
        cls, config: TournamentConfig, stored: list[StoredGame], plan: list[GameSpec] | None
    ) -> Scheduler:
        """Pairs until the test decides (the stored pairs counted)."""
        return cls(config, stored)

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


class LeagueScheduler(Scheduler):
    """psyleague-style: the next round goes where it tells most (see the module doc)."""

    description = "one pair of games at a time where it tells most, until `games` or Ctrl-C"
    open_ended = True
    two_players = True
    takes_bots = True
    _met: dict[str, set[str]] | None = None  # per bot, the bots it has met (made on first use)
    _met_pairs = 0  # pairings of the file's bots met

    def __init__(self, config: TournamentConfig, stored: Iterable[StoredGame]) -> None:
        # Retired bots (roster.json) keep their games and get no new one.
        self.bots = [b.name for b in config.bots if b.name not in config.retired]
        self.output = config.output
        self.roster = roster_stamp(config.output)
        self.variants = max(1, len(config.variants))
        self.seed = config.schedule_seed
        self.limit = config.games
        self.planned = config.games
        self.pairs = _Pairs()
        self.rounds: dict[frozenset[str], int] = {}  # rounds handed out per pairing
        self.games: dict[str, int] = dict.fromkeys(self.bots, 0)  # games handed out per bot
        seen: dict[int, set[str]] = {}  # round -> stored keys
        lineup: dict[int, tuple[str, str]] = {}
        count = 0
        for g in stored:
            bots = tuple(s.bot for s in g.seats)
            if len(bots) != 2:
                continue
            count += 1
            self.pairs.add(g.round, g.seats, g.settings)
            if g.round not in seen:
                seen[g.round] = set()
                lineup[g.round] = (bots[0], bots[1])
                pairing = frozenset(bots)
                self.rounds[pairing] = self.rounds.get(pairing, 0) + 1
            seen[g.round].add(g.key)
            for b in bots:
                self.games[b] = self.games.get(b, 0) + 1
        self.stored = count
        self.issued = count
        self.next_round = max(seen, default=-1) + 1
        # Rounds cut short (a stop while its other games ran) are finished first.
        self.unfinished = [
            spec
            for r in sorted(seen)
            if all(b in self.bots for b in lineup[r])
            for spec in pair_round(*lineup[r], r, self.seed, self.variants)
            if spec.key not in seen[r]
        ]

    def _room(self) -> bool:
        return self.limit is None or self.issued < self.limit

    def _hand_out(self, spec: GameSpec) -> GameSpec:
        self.issued += 1
        for b in spec.seats:
            self.games[b] = self.games.get(b, 0) + 1
        return spec

    def specs(self) -> Iterator[GameSpec]:
        """Unfinished rounds, then one chosen round after another, until ``games``."""
        for spec in self.unfinished:
            if not self._room():
                return
            yield self._hand_out(spec)
        while self._room() and len(self.bots) >= 2:
            if roster_stamp(self.output) != self.roster:
                self.roster_changed = True  # bots added or retired: the run takes them up
                return
            a, b = self.choose()
            r = self.next_round
            self.next_round += 1
            pairing = frozenset((a, b))
            self.rounds[pairing] = self.rounds.get(pairing, 0) + 1
            self._meet(a, b)
            for spec in pair_round(a, b, r, self.seed, self.variants, order=self.issued):
                if not self._room():
                    return
                yield self._hand_out(spec)

    def choose(self) -> tuple[str, str]:
        """The pairing of the next round."""
        fresh = self._fresh_pairing()
        if fresh is not None:
            return fresh
        candidates = list(itertools.combinations(self.bots, 2))
        active = set(self.bots)
        model = st.bradley_terry(
            self.bots,
            (
                st.Encounter(a, b, pw.wins + 0.5 * pw.draws, pw.n)
                for (a, b), pw in self.pairs.results.items()
                if a in active and b in active
            ),
        )
        return st.information_order(
            candidates, model, lambda a, b: self.rounds.get(frozenset((a, b)), 0)
        )[0]

    def _fresh_pairing(self) -> tuple[str, str] | None:
        """Coverage first: of the pairings not played yet, the one whose bots have the
        fewest games together (a new bot meets every other bot), the first in the file's
        order among equals; ``None`` once every pairing has played.

        The same choice as the minimum over every pairing, found without listing them
        (a choice costs about the bots, not their pairs): the fewest games together,
        from each bot's first unmet partner in the order of games; then, in the file's
        order, the first pairing of that many games.
        """
        n = len(self.bots)
        met = self._met_so_far()
        if self._met_pairs == n * (n - 1) // 2:
            return None
        bots, games = self.bots, [self.games[b] for b in self.bots]
        order = sorted(range(n), key=lambda i: (games[i], i))
        best: int | None = None
        for at, i in enumerate(order):
            if best is not None and 2 * games[i] > best:
                break  # every pairing left has at least this many games together
            for k in range(at + 1, n):  # (pairings with a bot before i were looked at)
                if bots[order[k]] not in met[bots[i]]:
                    total = games[i] + games[order[k]]
                    best = total if best is None else min(best, total)
                    break
        assert best is not None
        by_games: dict[int, list[int]] = {}
        for i in range(n):
            by_games.setdefault(games[i], []).append(i)
        for i in range(n):
            partners = by_games.get(best - games[i], [])
            for k in range(bisect.bisect_right(partners, i), len(partners)):
                if bots[partners[k]] not in met[bots[i]]:
                    return bots[i], bots[partners[k]]
        raise AssertionError("a pairing of the fewest games exists")  # (found above)

    def _met_so_far(self) -> dict[str, set[str]]:
        """Per bot of the file, the bots it has played a round with (made once from the
        rounds, then kept by :meth:`_meet`)."""
        if self._met is None:
            self._met = {b: set() for b in self.bots}
            self._met_pairs = 0
            for pairing, count in self.rounds.items():
                if count and len(pairing) == 2:
                    self._meet(*pairing)
        return self._met

    def _meet(self, a: str, b: str) -> None:
        """``a`` and ``b`` play a round (from now on, not a fresh pairing)."""
        if self._met is not None and a in self._met and b in self._met and b not in self._met[a]:
            self._met[a].add(b)
            self._met[b].add(a)
            self._met_pairs += 1

    def record(self, spec: GameSpec, seats: Sequence[SeatRecord], settings: Any) -> None:
        """Count the result (ratings for the next choices)."""
        self.pairs.add(spec.round, seats, settings)

    @classmethod
    def create(
        cls, config: TournamentConfig, stored: list[StoredGame], plan: list[GameSpec] | None
    ) -> Scheduler:
        """Rounds chosen one at a time (the stored games counted)."""
        return cls(config, stored)


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
        self.pairs = _Pairs()
        self.done: set[str] = set()
        keys = {spec.key for spec in self.plan}
        for g in stored:
            if g.key in keys:
                self._count(g.round, g.seats, g.settings)
                self.done.add(g.key)
        self.stored = len(self.done)

    @classmethod
    def create(
        cls, config: TournamentConfig, stored: list[StoredGame], plan: list[GameSpec] | None
    ) -> Scheduler:
        """Pairs until the verdict is clear (the stored pairs counted)."""
        return cls(config, stored)

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

    @classmethod
    def create(
        cls, config: TournamentConfig, stored: list[StoredGame], plan: list[GameSpec] | None
    ) -> Scheduler:
        """Rounds paired one at a time (the stored rounds rebuilt)."""
        return cls(config, stored)


def swiss_rounds(bots: int) -> int:
    """The Swiss rounds by default: ``ceil(log2(bots)) + 1`` (enough to single out a
    winner, and one more)."""
    return math.ceil(math.log2(max(bots, 2))) + 1


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


FORMATS: dict[str, type[Scheduler]] = {
    DEFAULT_FORMAT: RoundRobinScheduler,
    "gauntlet": GauntletScheduler,
    "sprt": SprtScheduler,
    "league": LeagueScheduler,
    "candidate": CandidateScheduler,
    "swiss": SwissScheduler,
}
"""Every tournament format by name: its scheduler, which carries its rules. The first is
the default (``format`` left out, :data:`arena.limits.DEFAULT_FORMAT`)."""


def schedule_size(fmt: str, bots: int, players: int, games: int | None, variants: int = 1) -> int:
    """How many games a format plays at most, computed without building its schedule:
    per line-up for fixed formats, ``games`` in all for open-ended ones (0 when ``games``
    is None: no limit)."""
    if games is None:
        return 0
    lineups = FORMATS[fmt].lineups(bots, players)
    if lineups is None:
        return games
    if players == 1:
        lineups = bots
    return lineups * games * variants


def fixed_plan(config: TournamentConfig) -> list[GameSpec] | None:
    """Every game the file can ever schedule, when that is a fixed list: round-robin,
    gauntlet, and sprt with a ``games`` limit; ``None`` for league and unlimited sprt."""
    return FORMATS[config.format].full_plan(config)


def defined_spec(config: TournamentConfig, stored: StoredPlace) -> GameSpec | None:
    """The spec an open-ended format (league, unlimited sprt) gives a stored game's key now,
    or ``None`` when the file no longer defines it (another line-up, other variants)."""
    seats = stored.seats
    if not FORMATS[config.format].defines(config, seats):
        return None
    variants = max(1, len(config.variants))
    seed = round_seed(config.schedule_seed, stored.round)
    for v in range(variants):
        spec = GameSpec(stored.ord, stored.round, seed, seats, stored.group, v, variants)
        if spec.key == stored.key:
            return spec
    return None


def make_scheduler(
    config: TournamentConfig, stored: list[StoredGame], plan: list[GameSpec] | None = None
) -> Scheduler:
    """The scheduler of ``config.format``, aware of the games already ``stored``
    (``plan``: :func:`fixed_plan`, when already built)."""
    return FORMATS[config.format].create(config, stored, plan)
