"""Scheduling: which bots play which seeds in which seats.

Round ``r`` has one seed shared by every pairing (like an opening book in cutechess), so
bots are compared on the same deals. Within a round each combination of bots plays once
per seat rotation: seats swapped for two players, every rotation for more, and for
one-player games each bot plays the seed alone (the round is then ranked by score).
Round-robin and gauntlet schedules are fixed (:class:`RoundPlan`, generated as they are
played); SPRT and league decide as results come in (``arena.tournament.formats``, which
holds the table of formats), from the same rounds and keys.
"""

from __future__ import annotations

import itertools
import math
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence

from arena.records import GameSpec

Seed = int | Sequence[int]
"""A tournament's seed, or its explicit list of round seeds (``seeds``)."""
MAX_GAMES = 200_000
"""Most games a schedule built in memory may hold (sprt, league, candidate, ``arena match``)."""
MAX_PLANNED_GAMES = 2_000_000
"""Most games a :class:`RoundPlan` (round-robin, gauntlet) may hold: it is generated as it
is played, but every game is a row in the store and its stored keys are read on resume."""


def round_seed(tournament_seed: int | Sequence[int], round_index: int) -> int:
    """The seed of one round, derived from the tournament seed (31 bits, stable); from a
    list of seeds (``seeds``), its entry for the round, the list read again from its
    start past its end."""
    if not isinstance(tournament_seed, int):
        return int(tournament_seed[round_index % len(tournament_seed)])
    import hashlib  # here, not at the top: loading OpenSSL is slow and `arena match` needs none

    digest = hashlib.sha256(f"arena:{tournament_seed}:{round_index}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def rotations(seats: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every cyclic seat rotation of a line-up (both orders for two bots)."""
    return [seats[i:] + seats[:i] for i in range(len(seats))]


def round_robin(
    bots: list[str], players: int, games: int, seed: Seed, variants: int = 1
) -> list[GameSpec]:
    """The round-robin schedule as a list: every spec of :class:`RoundPlan` (which see)."""
    return list(RoundPlan(bots, players, games, seed, variants))


def gauntlet(
    bots: list[str], champion: str, players: int, games: int, seed: Seed, variants: int = 1
) -> list[GameSpec]:
    """The gauntlet as a list: like :func:`round_robin`, keeping only the line-ups with
    ``champion`` (the others never play each other)."""
    return list(RoundPlan(bots, players, games, seed, variants, champion))


class Plan(ABC):
    """Every game a fixed format schedules, in order: iterated, counted and searched
    without being held in memory when it is a :class:`RoundPlan`."""

    @abstractmethod
    def __iter__(self) -> Iterator[GameSpec]:
        """The specs in the order they are played."""

    @abstractmethod
    def __len__(self) -> int:
        """How many games the plan holds."""

    def specs_from(self, start: int) -> Iterator[GameSpec]:
        """The specs from the one of order ``start`` on (a resumed run skips the games
        stored before its first gap)."""
        return itertools.islice(iter(self), start, None)

    @abstractmethod
    def find(self, key: str, round_index: int, seats: tuple[str, ...]) -> GameSpec | None:
        """The plan's spec of a stored game (its key, round and bots by seat), or ``None``
        when the plan holds no game of that key."""

    @abstractmethod
    def round_seeds(self) -> set[int]:
        """The seeds the plan's rounds play."""


class ListPlan(Plan):
    """A plan given as a list of specs (sprt and candidate with a ``games`` limit)."""

    def __init__(self, specs: list[GameSpec]) -> None:
        self.specs = specs
        self._by_key: dict[str, GameSpec] | None = None

    def __iter__(self) -> Iterator[GameSpec]:
        return iter(self.specs)

    def __len__(self) -> int:
        return len(self.specs)

    def find(self, key: str, round_index: int, seats: tuple[str, ...]) -> GameSpec | None:
        """The spec of ``key`` in the list (looked up by key)."""
        if self._by_key is None:
            self._by_key = {s.key: s for s in self.specs}
        return self._by_key.get(key)

    def round_seeds(self) -> set[int]:
        """The seeds of the list's games."""
        return {s.seed for s in self.specs}


class RoundPlan(Plan):
    """The round-robin (or, with ``champion``, the gauntlet), generated as it is played.

    Every combination of ``players`` bots (with ``champion``: only those holding it, so
    the champion meets every combination of the others) plays ``games`` games. A
    combination's games go through its seat rotations on one seed before moving to the
    next seed, so ``games: 10`` between two bots is five seeds played with seats swapped;
    round ``r`` plays its seed, every variant in turn (``variants``), every combination in
    :func:`itertools.combinations` order. With ``players == 1`` every bot plays ``games``
    seeds alone, and a round's games form one group, ranked together by score.

    The count, a stored game's spec and the round seeds are computed, not looked up: a
    1,000-bot round-robin (499,500 line-ups) costs no memory before it is played.
    """

    def __init__(
        self,
        bots: Sequence[str],
        players: int,
        games: int,
        seed: Seed,
        variants: int = 1,
        champion: str | None = None,
    ) -> None:
        self.bots = tuple(bots)
        self.players = players
        self.games = games
        self.seed = seed
        self.variants = variants
        self.champion = champion
        self._index = {name: i for i, name in enumerate(self.bots)}
        # The bots the combinations are drawn from (all, or the champion's opponents) and
        # how many of them a line-up takes.
        if champion is None:
            self._pool, self._chosen = self.bots, players
        else:
            self._pool = tuple(b for b in self.bots if b != champion)
            self._chosen = players - 1
        self._pool_index = {name: i for i, name in enumerate(self._pool)}
        missing = champion is not None and champion not in self._index
        self.lineups = 0 if missing else math.comb(len(self._pool), self._chosen)
        self.per_seed = players if self.lineups else 1  # the seat rotations of a line-up
        self.rounds = -(-games // self.per_seed)

    def __len__(self) -> int:
        return self.lineups * self.games * self.variants

    def _in_round(self, round_index: int) -> int:
        """The games each line-up plays in a round: every rotation, fewer in the last."""
        return min(self.per_seed, self.games - round_index * self.per_seed)

    def _tag(self, round_index: int, variant: int) -> str:
        return f"r{round_index}v{variant}" if self.variants > 1 else f"r{round_index}"

    def _group(self, tag: str, seats: tuple[str, ...]) -> str:
        return tag if self.players == 1 else f"{tag}:" + ",".join(seats)

    def _combinations(self) -> Iterator[tuple[str, ...]]:
        """Every line-up, in :func:`itertools.combinations` order of the bots."""
        if self.champion is None:
            yield from itertools.combinations(self.bots, self.players)
            return
        # The champion's combinations come in the order of those of the others (the
        # champion inserted where it stands among the bots keeps their order).
        index, champion = self._index, self.champion
        at = index[champion]
        for others in itertools.combinations(self._pool, self._chosen):
            before = sum(1 for b in others if index[b] < at)
            yield (*others[:before], champion, *others[before:])

    def __iter__(self) -> Iterator[GameSpec]:
        return self.specs_from(0)

    def specs_from(self, start: int) -> Iterator[GameSpec]:
        """The specs from order ``start`` on, its place computed (as :meth:`find` does),
        not reached by generating the games before it."""
        if not self.lineups or start >= len(self):
            return
        per_round = self.variants * self.lineups * self.per_seed  # (the last one: fewer)
        first = start // per_round
        # Within the first round: its variant, line-up (rank) and rotation of `start`.
        v0, rest = divmod(start - first * per_round, self.lineups * self._in_round(first))
        rank0, turn0 = divmod(rest, self._in_round(first))
        order = start
        for r in range(first, self.rounds):
            seed_r = round_seed(self.seed, r)
            in_round = self._in_round(r)
            for v in range(v0 if r == first else 0, self.variants):
                tag = self._tag(r, v)
                skip = r == first and v == v0
                combos = itertools.islice(self._combinations(), rank0 if skip else 0, None)
                for combo in combos:
                    for k in range(turn0 if skip else 0, in_round):
                        seats = combo[k:] + combo[:k]
                        group = self._group(tag, seats)
                        yield GameSpec(order, r, seed_r, seats, group, v, self.variants)
                        order += 1
                    skip = False

    def find(self, key: str, round_index: int, seats: tuple[str, ...]) -> GameSpec | None:
        """The spec computed from the round and the seats: the line-up they rotate, its
        rank among the combinations (:func:`combination_rank`) and the rotation give
        its order; ``None`` unless its key is ``key``."""
        if not self.lineups or not 0 <= round_index < self.rounds:
            return None
        if len(seats) != self.players or len(set(seats)) != len(seats):
            return None
        if any(b not in self._index for b in seats):
            return None
        combo = tuple(sorted(seats, key=self._index.__getitem__))
        turn = combo.index(seats[0])  # the rotation that seats this line-up so
        in_round = self._in_round(round_index)
        if combo[turn:] + combo[:turn] != seats or turn >= in_round:
            return None
        if self.champion is not None:
            if self.champion not in combo:
                return None
            combo = tuple(b for b in combo if b != self.champion)
        rank = combination_rank([self._pool_index[b] for b in combo], len(self._pool))
        before = round_index * self.variants * self.lineups * self.per_seed
        seed_r = round_seed(self.seed, round_index)
        for v in range(self.variants):
            order = before + (v * self.lineups + rank) * in_round + turn
            tag = self._tag(round_index, v)
            spec = GameSpec(
                order, round_index, seed_r, seats, self._group(tag, seats), v, self.variants
            )
            if spec.key == key:
                return spec
        return None

    def round_seeds(self) -> set[int]:
        """The seed of each round (one per round, not per game)."""
        if not self.lineups:
            return set()
        return {round_seed(self.seed, r) for r in range(self.rounds)}


def combination_rank(chosen: Sequence[int], n: int) -> int:
    """The position of a combination (its increasing indices among ``n``) in the order
    :func:`itertools.combinations` gives every combination of its size.

    Before it come, for each place ``j``, the combinations that agree on the places
    before ``j`` and hold a smaller index ``x`` at ``j``: ``comb(n - 1 - x, size - 1 - j)``
    each, summed over ``x`` in closed form (the hockey-stick identity).
    """
    size = len(chosen)
    rank = 0
    previous = -1
    for j, c in enumerate(chosen):
        rest = size - j  # the places from j on
        rank += math.comb(n - previous - 1, rest) - math.comb(n - c, rest)
        previous = c
    return rank


def pair_round(
    a: str, b: str, round_index: int, seed: Seed, variants: int = 1, order: int = 0
) -> list[GameSpec]:
    """One round between two bots: the seed played with seats swapped, per settings variant.

    The specs (keys, groups, seeds) are those :func:`round_robin` gives the same round;
    ``order`` numbers the first of them.
    """
    seed_r = round_seed(seed, round_index)
    specs: list[GameSpec] = []
    for v in range(variants):
        tag = f"r{round_index}v{v}" if variants > 1 else f"r{round_index}"
        for seats in ((a, b), (b, a)):
            group = f"{tag}:" + ",".join(seats)
            specs.append(
                GameSpec(order + len(specs), round_index, seed_r, seats, group, v, variants)
            )
    return specs


def paired_rounds(a: str, b: str, seed: Seed, variants: int = 1) -> Iterator[GameSpec]:
    """Round after round of :func:`pair_round` between ``a`` and ``b``, without end."""
    order = 0
    for r in itertools.count():
        specs = pair_round(a, b, r, seed, variants, order)
        order += len(specs)
        yield from specs
