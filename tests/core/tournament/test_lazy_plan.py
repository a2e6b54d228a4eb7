"""Round-robin and gauntlet plans generated as they are played (issue 45, item 4): the same
games, keys, orders, groups and seeds as the lists arena built before, counted, searched
and seed-checked without the list."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest

from arena.errors import ConfigError
from arena.plugins.registry import load_registry
from arena.records import GameSpec
from arena.tournament.config import load_tournament
from arena.tournament.formats import fixed_plan, make_scheduler
from arena.tournament.schedule import (
    MAX_GAMES,
    MAX_PLANNED_GAMES,
    RoundPlan,
    combination_rank,
    rotations,
    round_seed,
)


def listed_round_robin(bots, players, games, seed, variants=1):
    """The round-robin as arena built it before plans were lazy (the reference)."""
    if players == 1:
        lineups = [[(b,)] for b in bots]
    else:
        lineups = [rotations(c) for c in itertools.combinations(bots, players)]
    return listed_rounds(lineups, players, games, seed, variants)


def listed_gauntlet(bots, champion, players, games, seed, variants=1):
    """The gauntlet as arena built it before (the reference)."""
    combos = [c for c in itertools.combinations(bots, players) if champion in c]
    return listed_rounds([rotations(c) for c in combos], players, games, seed, variants)


def listed_rounds(lineups, players, games, seed, variants):
    specs = []
    per_seed = len(lineups[0]) if lineups else 1
    for r in range(-(-games // per_seed)):
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


def cases():
    """Small schedules: 1 to 4 bots (and 5), 1 to 4 players, 1 to 7 games, variants,
    a derived seed and a list of seeds."""
    for n in (1, 2, 3, 4, 5):
        bots = [f"b{i}" for i in range(n)]
        for players in range(1, min(n, 4) + 1):
            for games in range(1, 8):
                for variants in (1, 2, 3):
                    for seed in (7, [11, 12, 13]):
                        yield bots, players, games, seed, variants


def every_seating(bots, most):
    """Every line-up of distinct bots up to ``most`` seats, in every order, with a bot
    that is not in the plan."""
    names = [*bots, "stranger"]
    for size in range(1, most + 2):
        yield from itertools.permutations(names, size)


def check_plan(plan: RoundPlan, listed: list[GameSpec]) -> None:
    assert list(plan) == listed  # keys, orders, rounds, seeds, seats, groups, variants
    assert len(plan) == len(listed)
    for start in range(len(listed) + 2):  # a resumed run starts at its first gap
        assert list(plan.specs_from(start)) == listed[start:], start
    assert plan.round_seeds() == {s.seed for s in listed}
    for spec in listed:
        assert plan.find(spec.key, spec.round, spec.seats) == spec
    if isinstance(plan.seed, int) and plan.games in (1, 2, 5):
        check_no_other_key(plan, {s.key for s in listed})


def check_no_other_key(plan: RoundPlan, keys: set[str]) -> None:
    """Every other key (other rounds, seat orders, bots, variants) is not the plan's."""
    for r in range(-1, plan.rounds + 2):
        for seats in every_seating(plan.bots, plan.players):
            for v in range(plan.variants + 1):
                key = GameSpec(0, r, 0, seats, "", v, max(plan.variants, v + 1)).key
                found = plan.find(key, r, seats)
                assert (found is not None) == (key in keys), (key, found)


def test_a_lazy_round_robin_is_the_list_arena_built_before():
    for bots, players, games, seed, variants in cases():
        plan = RoundPlan(bots, players, games, seed, variants)
        check_plan(plan, listed_round_robin(bots, players, games, seed, variants))


def test_a_lazy_gauntlet_is_the_list_arena_built_before():
    for bots, players, games, seed, variants in cases():
        for champion in bots:
            plan = RoundPlan(bots, players, games, seed, variants, champion)
            check_plan(plan, listed_gauntlet(bots, champion, players, games, seed, variants))


def test_a_known_round_robin_spelt_out():
    plan = RoundPlan(["a", "b", "c"], 2, 3, 5)
    s0, s1 = round_seed(5, 0), round_seed(5, 1)
    assert [(s.order, s.key, s.group, s.seed) for s in plan] == [
        (0, "r0:a,b", "r0:a,b", s0), (1, "r0:b,a", "r0:b,a", s0),
        (2, "r0:a,c", "r0:a,c", s0), (3, "r0:c,a", "r0:c,a", s0),
        (4, "r0:b,c", "r0:b,c", s0), (5, "r0:c,b", "r0:c,b", s0),
        (6, "r1:a,b", "r1:a,b", s1), (7, "r1:a,c", "r1:a,c", s1), (8, "r1:b,c", "r1:b,c", s1),
    ]  # fmt: skip
    assert plan.find("r1:b,c", 1, ("b", "c")) == GameSpec(8, 1, s1, ("b", "c"), "r1:b,c")
    assert plan.find("r1:c,b", 1, ("c", "b")) is None  # the third game of a pair: one seat


def test_combination_rank_is_the_place_in_itertools_order():
    for n in range(0, 9):
        for size in range(0, n + 1):
            for place, chosen in enumerate(itertools.combinations(range(n), size)):
                assert combination_rank(chosen, n) == place


def test_a_thousand_bot_round_robin_is_counted_and_searched_without_its_list():
    bots = [f"bot{i:04d}" for i in range(1000)]
    plan = RoundPlan(bots, 2, 1, 3)
    assert len(plan) == 499_500 == math.comb(1000, 2)
    assert plan.round_seeds() == {round_seed(3, 0)}
    last = plan.find("r0:bot0998,bot0999", 0, ("bot0998", "bot0999"))
    assert last == GameSpec(499_499, 0, round_seed(3, 0), ("bot0998", "bot0999"),
                            "r0:bot0998,bot0999")  # fmt: skip
    first = next(iter(plan))
    assert first.key == "r0:bot0000,bot0001" and first.order == 0
    twice = RoundPlan(bots, 2, 2, 3)
    assert len(twice) == 999_000
    swapped = twice.find("r0:bot0999,bot0998", 0, ("bot0999", "bot0998"))
    assert swapped is not None and swapped.order == 998_999
    # A resumed run starts at its first game not stored, its place computed.
    assert [s.key for s in twice.specs_from(998_998)] == [
        "r0:bot0998,bot0999", "r0:bot0999,bot0998",
    ]  # fmt: skip
    assert next(twice.specs_from(3)) == GameSpec(3, 0, round_seed(3, 0),
                                                 ("bot0002", "bot0000"), "r0:bot0002,bot0000")  # fmt: skip
    assert list(twice.specs_from(999_000)) == []


GOOD = """\
name: big
game: stc
format: {format}
games: {games}
seed: 1
{extra}output: {out}
bots:
{bots}
"""


def write(tmp_path: Path, bots: int, games: int, fmt: str = "round-robin", extra: str = ""):
    lines = "\n".join(f"  - {{name: b{i}, cmd: python3 x.py}}" for i in range(bots))
    path = tmp_path / "t.yaml"
    path.write_text(
        GOOD.format(format=fmt, games=games, extra=extra, out=tmp_path / "out", bots=lines)
    )
    return path


def test_a_thousand_bot_round_robin_loads_and_its_scheduler_starts_lazily(tmp_path):
    (tmp_path / "x.py").write_text("")
    config = load_tournament(write(tmp_path, 1000, 2), load_registry())
    plan = fixed_plan(config)
    assert isinstance(plan, RoundPlan) and len(plan) == 999_000 > MAX_GAMES
    scheduler = make_scheduler(config, [], plan)
    assert (scheduler.planned, scheduler.stored) == (999_000, 0)
    first = next(scheduler.specs())
    assert (first.key, first.order) == ("r0:b0,b1", 0)


def test_what_is_still_refused_names_the_cap_of_its_format(tmp_path):
    (tmp_path / "x.py").write_text("")
    registry = load_registry()
    path = write(tmp_path, 2, MAX_PLANNED_GAMES + 1)
    with pytest.raises(ConfigError) as caught:
        load_tournament(path, registry)
    assert str(caught.value) == (
        f"{path}: games (line 4): 2000001 games per combination make 2000001 games in all; "
        "arena plays at most 2000000 in one round-robin tournament"
    )
    assert load_tournament(write(tmp_path, 3, 1_000_000, "gauntlet", "champion: b0\n"), registry)
    path = write(tmp_path, 3, 1_000_001, "gauntlet", "champion: b0\n")  # two line-ups
    with pytest.raises(ConfigError) as caught:
        load_tournament(path, registry)
    assert str(caught.value) == (
        f"{path}: games (line 4): 1000001 games per combination make 2000002 games in all; "
        "arena plays at most 2000000 in one gauntlet tournament"
    )
    path = write(tmp_path, 2, MAX_GAMES + 1, "sprt", "sprt: {elo0: 0, elo1: 5}\n")
    with pytest.raises(ConfigError) as caught:  # a list in memory: the old cap
        load_tournament(path, registry)
    assert str(caught.value) == (
        f"{path}: games (line 4): arena plays at most 200000 games in one tournament, not 200001"
    )
