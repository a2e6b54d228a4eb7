"""``contest``: a contest's league, where bots (a participant's versions) come and go.

Like ``league`` it plays one round (a seat-swapped pair, :func:`pair_round`) at a time and
takes bots while it runs (``roster.json``), but its matchmaking is a contest's:

- every bot has a TrueSkill belief (mu, sigma), updated game by game as results come in;
- the next round goes where the ranking is least certain: the *focus* is, of the bots with
  the fewest games under way, the one with the largest sigma (then the fewest games, then
  the file's order), so a new version plays more until its rating settles;
- its opponent is, of the bots it may meet, the one with the best TrueSkill match quality
  (the chance of a draw: close in rating, both well known) divided by one plus the rounds
  the two have played already (then the file's order);
- two bots of one ``owner`` never meet; retired bots get no game;
- with ``leagues`` (the bosses, weakest first) every other bot starts in the lowest
  league, meets only bots of its league, and is promoted to the next one once it has
  played :data:`MIN_LEAGUE_GAMES` games in its league and its conservative rating
  (mu - 3 sigma) is above its league's boss's. Boss ``i`` stays in league ``i``; past the
  last boss is the top league, which has none.

The ratings and leagues are rebuilt from the stored games in the order they were played,
so a resumed contest goes on exactly where it stopped.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from arena.records import GameSpec, SeatRecord, StoredGame
from arena.tournament.formats.base import Scheduler
from arena.tournament.roster import roster_stamp
from arena.tournament.schedule import pair_round

if TYPE_CHECKING:
    from arena.tournament.config import TournamentConfig

MIN_LEAGUE_GAMES = 10
"""Games a bot plays in a league before it may be promoted out of it."""
TOP_LEAGUE = "top"
"""The name of the league past the last boss (the others are named after their boss)."""


class ContestScheduler(Scheduler):
    """``contest``: rounds where the ranking is least certain (see the module doc)."""

    description = (
        "one pair of games at a time where the ranking is least certain, bots of one owner "
        "never meeting, optional `leagues` with bosses; until `games` or Ctrl-C"
    )
    open_ended = True
    two_players = True
    takes_bots = True
    own_keys = ("leagues",)

    def __init__(self, config: TournamentConfig, stored: Iterable[StoredGame]) -> None:
        from arena.results.ratings.trueskill import TrueSkill

        self.env = TrueSkill().env()
        names = [b.name for b in config.bots]
        self.order = {name: i for i, name in enumerate(names)}
        self.owner = {b.name: b.owner for b in config.bots}
        self.active = [n for n in names if n not in config.retired]
        self.bosses = config.leagues
        self.output = config.output
        self.roster = roster_stamp(config.output)
        self.seed = config.schedule_seed
        self.variants = max(1, len(config.variants))
        self.limit = config.games
        self.planned = config.games
        prior = (float(self.env.mu), float(self.env.sigma))
        self.rating: dict[str, tuple[float, float]] = dict.fromkeys(names, prior)
        self.games = dict.fromkeys(names, 0)  # games ended, per bot
        self.league = {n: self.bosses.index(n) if n in self.bosses else 0 for n in names}
        self.league_games = dict.fromkeys(names, 0)  # games ended in its current league
        self.rounds: dict[frozenset[str], int] = {}  # rounds handed out per pairing
        self.running: dict[str, int] = dict.fromkeys(names, 0)  # games under way, per bot
        self.pending: set[str] = set()  # keys handed out, not ended
        seen: dict[int, set[str]] = {}  # round -> stored keys
        lineup: dict[int, tuple[str, str]] = {}
        for g in sorted(stored, key=lambda g: g.id):  # the order they were played
            bots = tuple(s.bot for s in g.seats)
            if len(bots) != 2 or bots[0] == bots[1] or not all(b in self.order for b in bots):
                continue
            self._count(g.seats)
            if g.round not in seen:
                seen[g.round] = set()
                lineup[g.round] = (bots[0], bots[1])
                pairing = frozenset(bots)
                self.rounds[pairing] = self.rounds.get(pairing, 0) + 1
            seen[g.round].add(g.key)
        self.stored = sum(len(keys) for keys in seen.values())
        self.issued = self.stored
        self.next_round = max(seen, default=-1) + 1
        # Rounds cut short (a stop while its other games ran) are finished first.
        self.unfinished = [
            spec
            for r in sorted(seen)
            if all(b in self.active for b in lineup[r])
            for spec in pair_round(*lineup[r], r, self.seed, self.variants)
            if spec.key not in seen[r]
        ]

    # -- ratings and leagues -------------------------------------------------------------

    def _count(self, seats: Sequence[SeatRecord]) -> None:
        """One game's result: both ratings move, then each bot may be promoted."""
        from arena.results.ratings.trueskill import rate_pair

        a, b = seats[0].bot, seats[1].bot
        self.rating[a], self.rating[b] = rate_pair(
            self.env, self.rating[a], self.rating[b], seats[0].rank, seats[1].rank
        )
        for bot in (a, b):
            self.games[bot] += 1
            self.league_games[bot] += 1
        for bot in (a, b):
            self._promote(bot)

    def conservative(self, bot: str) -> float:
        """``mu - 3 sigma``: the rating a bot is almost surely above."""
        mu, sigma = self.rating[bot]
        return mu - 3 * sigma

    def _promote(self, bot: str) -> None:
        """Up one league when ``bot`` has played enough in its league and is rated above
        its boss (a boss never moves)."""
        league = self.league[bot]
        if bot in self.bosses or league >= len(self.bosses):
            return
        if self.league_games[bot] < MIN_LEAGUE_GAMES:
            return
        if self.conservative(bot) > self.conservative(self.bosses[league]):
            self.league[bot] = league + 1
            self.league_games[bot] = 0

    def league_name(self, bot: str) -> str:
        """The name of ``bot``'s league: its boss's, or :data:`TOP_LEAGUE`."""
        league = self.league[bot]
        return self.bosses[league] if league < len(self.bosses) else TOP_LEAGUE

    def leagues(self) -> dict[str, str] | None:
        """Every bot's league by name (None without ``leagues``)."""
        if not self.bosses:
            return None
        return {bot: self.league_name(bot) for bot in self.order}

    # -- matchmaking ---------------------------------------------------------------------

    def quality(self, a: str, b: str) -> float:
        """TrueSkill's match quality of ``a`` against ``b``: the chance of a draw, highest
        when both are close in rating and well known."""
        (mu_a, sigma_a), (mu_b, sigma_b) = self.rating[a], self.rating[b]
        two_beta2 = 2 * self.env.beta**2
        c2 = two_beta2 + sigma_a**2 + sigma_b**2
        return math.sqrt(two_beta2 / c2) * math.exp(-((mu_a - mu_b) ** 2) / (2 * c2))

    def may_meet(self, a: str, b: str) -> bool:
        """Two different bots of one league, not of one owner."""
        if a == b or self.league[a] != self.league[b]:
            return False
        owner = self.owner[a]
        return owner is None or owner != self.owner[b]

    def opponent(self, focus: str) -> str | None:
        """The best opponent for ``focus`` (see the module doc), None when none may meet it."""
        best: str | None = None
        best_score = -1.0
        for other in self.active:  # the file's order: the first of equal scores stays
            if not self.may_meet(focus, other):
                continue
            score = self.quality(focus, other) / (1 + self.rounds.get(frozenset((focus, other)), 0))
            if score > best_score:
                best, best_score = other, score
        return best

    def choose(self) -> tuple[str, str] | None:
        """The next round's pairing (the focus first), None when no two bots may meet."""

        def priority(bot: str) -> tuple[int, float, int, int]:
            return (self.running[bot], -self.rating[bot][1], self.games[bot], self.order[bot])

        focus = min(self.active, key=priority, default=None)
        if focus is not None and (other := self.opponent(focus)) is not None:
            return focus, other
        for bot in sorted(self.active, key=priority)[1:]:  # rare: the focus meets nobody
            if (other := self.opponent(bot)) is not None:
                return bot, other
        return None

    # -- the stream of games -------------------------------------------------------------

    def _room(self) -> bool:
        return self.limit is None or self.issued < self.limit

    def _hand_out(self, spec: GameSpec) -> GameSpec:
        self.issued += 1
        self.pending.add(spec.key)
        for bot in spec.seats:
            self.running[bot] += 1
        return spec

    def specs(self) -> Iterator[GameSpec]:
        """Unfinished rounds, then one chosen round after another, until ``games``, a
        roster change, or no two bots that may meet."""
        for spec in self.unfinished:
            if not self._room():
                return
            yield self._hand_out(spec)
        while self._room():
            if roster_stamp(self.output) != self.roster:
                self.roster_changed = True  # bots added or retired: the run takes them up
                return
            pairing = self.choose()
            if pairing is None:
                return
            r = self.next_round
            self.next_round += 1
            key = frozenset(pairing)
            self.rounds[key] = self.rounds.get(key, 0) + 1
            for spec in pair_round(*pairing, r, self.seed, self.variants, order=self.issued):
                if not self._room():
                    return
                yield self._hand_out(spec)

    def record(self, spec: GameSpec, seats: Sequence[SeatRecord], settings: Any) -> None:
        """Count the result (ratings and leagues for the next choices)."""
        if spec.key in self.pending:
            self.pending.discard(spec.key)
            for bot in spec.seats:
                self.running[bot] -= 1
        if len(seats) == 2 and seats[0].bot != seats[1].bot:
            self._count(seats)

    def status(self) -> str | None:
        """``leagues: wood 3, bronze 1, top 0`` (the active bots in each), None without."""
        if not self.bosses:
            return None
        counts = dict.fromkeys([*self.bosses, TOP_LEAGUE], 0)
        for bot in self.active:
            counts[self.league_name(bot)] += 1
        return "leagues: " + ", ".join(f"{name} {n}" for name, n in counts.items())
