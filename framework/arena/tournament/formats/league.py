"""``league``: one seat-swapped pair at a time, where a game tells most."""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from arena.records import GameSpec, SeatRecord, StoredGame
from arena.results import pairings
from arena.results import stats as st
from arena.tournament.formats.base import Scheduler
from arena.tournament.formats.pairs import Pairs
from arena.tournament.roster import roster_stamp
from arena.tournament.schedule import Plan, pair_round

if TYPE_CHECKING:
    from arena.results.store import Store
    from arena.tournament.config import TournamentConfig


class LeagueScheduler(Scheduler):
    """psyleague-style: the next round goes where it tells most (see
    :mod:`arena.tournament.formats`)."""

    description = "one pair of games at a time where it tells most, until `games` or Ctrl-C"
    open_ended = True
    two_players = True
    takes_bots = True
    _met: dict[str, set[str]] | None = None  # per bot, the bots it has met (made on first use)
    _met_pairs = 0  # pairings of the file's bots met

    def __init__(self, config: TournamentConfig, stored: Iterable[StoredGame]) -> None:
        self._start(config)
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
        self._resumed(count, seen, lineup, max(seen, default=-1) + 1)

    def _start(self, config: TournamentConfig) -> None:
        """The league of ``config`` before any stored game is counted."""
        # Retired bots (roster.json) keep their games and get no new one.
        self.bots = [b.name for b in config.bots if b.name not in config.retired]
        self.output = config.output
        self.roster = roster_stamp(config.output)
        self.variants = max(1, len(config.variants))
        self.seed = config.schedule_seed
        self.limit = config.games
        self.planned = config.games
        self.pairs = Pairs()
        self.rounds: dict[frozenset[str], int] = {}  # rounds handed out per pairing
        self.games: dict[str, int] = dict.fromkeys(self.bots, 0)  # games handed out per bot

    def _resumed(
        self,
        count: int,
        seen: dict[int, set[str]],
        lineup: dict[int, tuple[str, str]],
        next_round: int,
    ) -> None:
        """The stored games counted: ``count`` of them, the stored keys of the rounds
        ``seen`` (at least those cut short) with their bots as their first games seat
        them (``lineup``), and the first round not stored."""
        self.stored = count
        self.issued = count
        self.next_round = next_round
        # Rounds cut short (a stop while its other games ran) are finished first.
        self.unfinished = [
            spec
            for r in sorted(seen)
            if all(b in self.bots for b in lineup[r])
            for spec in pair_round(*lineup[r], r, self.seed, self.variants)
            if spec.key not in seen[r]
        ]

    @classmethod
    def resume(
        cls,
        config: TournamentConfig,
        store: Store,
        plan: Plan | None,
    ) -> Scheduler:
        """The league from the stored games summed up in SQL (:mod:`arena.results.pairings`):
        the same state as from the games themselves, without reading them (but games no
        league stores, :attr:`~arena.results.pairings.PairSums.regular`: from them)."""
        league = cls.__new__(cls)
        league._start(config)
        if not league._count_summary(store):
            return cls.create(config, store.games(), plan)
        return league

    def _count_summary(self, store: Store) -> bool:
        """Count the stored games from their sums; ``False`` when they do not fit a
        league's (:attr:`~arena.results.pairings.PairSums.regular`)."""
        sums = pairings.pair_sums(store.db, 2 * self.variants)
        if not sums.regular:
            return False
        count = 0
        for p in sums.pairings:
            count += p.games
            for bot in (p.low, p.high):
                self.games[bot] = self.games.get(bot, 0) + p.games
            self.rounds[frozenset((p.low, p.high))] = p.rounds
        self.pairs.add_sums(sums)
        seen: dict[int, set[str]] = {}
        lineup: dict[int, tuple[str, str]] = {}
        for r, stored in pairings.round_games(store.db, sums.short).items():
            seen[r] = {key for key, _, _ in stored}
            lineup[r] = (stored[0][1], stored[0][2])  # seated as its first game
        self._resumed(count, seen, lineup, sums.last_round + 1)
        return True

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
