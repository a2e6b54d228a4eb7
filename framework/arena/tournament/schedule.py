"""Scheduling: which bots play which seeds in which seats.

Round ``r`` has one seed shared by every pairing (like an opening book in cutechess), so
bots are compared on the same deals. Within a round each combination of bots plays once
per seat rotation: seats swapped for two players, every rotation for more, and for
one-player games each bot plays the seed alone (the round is then ranked by score).
Round-robin and gauntlet schedules are fixed lists; SPRT and league decide as results
come in (``arena.tournament.formats``, which holds the table of formats), from the same
rounds and keys.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from arena.records import GameSpec

Seed = int | Sequence[int]
"""A tournament's seed, or its explicit list of round seeds (``seeds``)."""
MAX_GAMES = 200_000
"""Most games one schedule may hold (it is built in memory, with a row per game in the store)."""


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
    """The round-robin schedule: every combination of ``players`` bots plays ``games`` games.

    A combination's games go through its seat rotations on one seed before moving to the
    next seed, so ``games: 10`` between two bots is five seeds played with seats swapped.
    With ``players == 1`` every bot plays ``games`` seeds alone; a round's games form one
    group, ranked together by score. With several settings ``variants`` every round is
    played once per variant, on the same seed.
    """
    lineups: list[list[tuple[str, ...]]]
    if players == 1:
        lineups = [[(b,)] for b in bots]
    else:
        lineups = [rotations(c) for c in itertools.combinations(bots, players)]
    return _rounds(lineups, players, games, seed, variants)


def gauntlet(
    bots: list[str], champion: str, players: int, games: int, seed: Seed, variants: int = 1
) -> list[GameSpec]:
    """The gauntlet: like :func:`round_robin`, keeping only the line-ups with ``champion``.

    The champion meets every other bot (every combination of them, for more than two
    players); the others never play each other.
    """
    combos = [c for c in itertools.combinations(bots, players) if champion in c]
    return _rounds([rotations(c) for c in combos], players, games, seed, variants)


def _rounds(
    lineups: list[list[tuple[str, ...]]], players: int, games: int, seed: Seed, variants: int
) -> list[GameSpec]:
    specs: list[GameSpec] = []
    per_seed = len(lineups[0]) if lineups else 1
    rounds = -(-games // per_seed)
    for r in range(rounds):
        seed_r = round_seed(seed, r)
        for v in range(variants):
            tag = f"r{r}v{v}" if variants > 1 else f"r{r}"
            for rot in lineups:
                for k, seats in enumerate(rot):
                    if r * per_seed + k >= games:
                        break
                    group = tag if players == 1 else f"{tag}:" + ",".join(seats)
                    specs.append(GameSpec(len(specs), r, seed_r, seats, group, v, variants))
    return specs


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
