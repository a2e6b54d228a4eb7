"""The league's choice of a fresh pairing, now made without listing every pairing, is the
one it was: of the pairings not played yet, the fewest games together, the first in the
file's order among equals; checked against that rule written out over every pairing, at
every round of leagues that start from uneven stored games."""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from types import SimpleNamespace

import pytest

from arena.tournament.formats import LeagueScheduler


def league(bots: int, output: Path) -> LeagueScheduler:
    config = SimpleNamespace(
        bots=[SimpleNamespace(name=f"b{i}") for i in range(bots)],
        variants=[], schedule_seed=1, games=None, retired=frozenset(), output=output,
    )  # fmt: skip
    return LeagueScheduler(config, [])  # type: ignore[arg-type]


def by_the_rule(s: LeagueScheduler) -> tuple[str, str] | None:
    """The rule over every pairing, as the league wrote it before."""
    fresh = [c for c in itertools.combinations(s.bots, 2) if not s.rounds.get(frozenset(c))]
    return min(fresh, key=lambda c: s.games[c[0]] + s.games[c[1]]) if fresh else None


@pytest.mark.parametrize("seed", range(6))
def test_every_fresh_pairing_is_the_one_the_rule_gives(seed, tmp_path):
    rng = random.Random(seed)
    s = league(rng.randint(2, 11), tmp_path)
    for a, b in itertools.combinations(s.bots, 2):  # stored games: some pairings met
        if rng.random() < 0.3:
            s.rounds[frozenset((a, b))] = rng.randint(1, 3)
    s.rounds[frozenset(("gone", s.bots[0]))] = 2  # a removed bot's round: not a pairing now
    for bot in s.bots:
        s.games[bot] = 2 * rng.randint(0, 5)
    games = s.specs()
    while (expected := by_the_rule(s)) is not None:
        assert s._fresh_pairing() == expected
        first, second = next(games), next(games)  # the round of that pairing
        assert {first.seats, second.seats} == {expected, expected[::-1]}
    assert s._fresh_pairing() is None
    assert all(s.rounds.get(frozenset(c)) for c in itertools.combinations(s.bots, 2))
