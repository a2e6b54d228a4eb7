"""A league resumed from its stored games summed up in SQL (issue 45): the same state as
counted game by game (results, seat-swapped pairs, rounds per pairing, games per bot,
rounds cut short), and the same games next."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from arena.plugins.registry import load_registry
from arena.records import GameRecord, SeatRecord
from arena.results import pairings
from arena.results.store import Store
from arena.tournament.config import load_tournament
from arena.tournament.formats import LeagueScheduler, resume_scheduler
from arena.tournament.resume import bot_identities, check_stored
from arena.tournament.schedule import pair_round

LEAGUE = """\
name: lg
game: stc
format: league
seed: 5
settings:
  max_turns: {turns}
bots:
  - {{name: ann, cmd: python3 x.py}}
  - {{name: bob, cmd: python3 x.py}}
  - {{name: cy, cmd: python3 x.py}}
  - {{name: dee, cmd: python3 x.py}}
output: {out}
"""


def league_store(tmp_path: Path, turns: str, rounds: int, seed: int):
    """A league's config and a store of ``rounds`` random rounds of it: random results
    (wins either way, draws), some games of a round missing (a stop while they ran)."""
    config, bots, store = new_league(tmp_path, turns)
    variants = max(1, len(config.variants))
    rng = random.Random(seed)
    names = [b.name for b in config.bots]
    order = 0
    for r in range(rounds):
        a, b = rng.sample(names, 2)
        for spec in pair_round(a, b, r, config.schedule_seed, variants, order):
            if rng.random() < 0.1:
                continue  # not stored
            ranks = rng.choice([(0, 1), (1, 0), (0, 0)])
            seats = [SeatRecord(bot=n, rank=k) for n, k in zip(spec.seats, ranks, strict=True)]
            settings = config.variants[spec.variant] if config.variants else config.settings
            record = GameRecord("stc", spec.seed, settings, seats, "end", 1, 1, 1.0)
            identity = bots.ids.of(spec.seed, spec.variant, spec.seats)
            store.add_game(spec.key, spec.order, spec.round, spec.group, record, identity)
        order += 2 * variants
    check_stored(config, store, bots, None)
    return config, store


def new_league(tmp_path: Path, turns: str = "4"):
    """The league's config and bots' identities, and its store (empty)."""
    (tmp_path / "x.py").write_text("")
    path = tmp_path / "t.yaml"
    path.write_text(LEAGUE.format(turns=turns, out=tmp_path / "out"))
    config = load_tournament(path, load_registry())
    return config, bot_identities(config), Store(config.output)


def state(league: LeagueScheduler) -> dict:
    pairs = league.pairs
    halves = {pid: done for pid, done in pairs.halves.items() if len(done) == 1}
    return {
        "results": {k: (v.wins, v.draws, v.losses) for k, v in pairs.results.items()},
        "ptnml": {k: v.counts for k, v in pairs.ptnml.items() if v.pairs},
        "halves": halves,
        "rounds": league.rounds,
        "games": league.games,
        "counts": (league.stored, league.issued, league.next_round),
        "unfinished": league.unfinished,
    }


@pytest.mark.parametrize(("turns", "seed"), [("4", 1), ("4", 2), ("[4, 6]", 3), ("[4, 6, 9]", 4)])
def test_a_league_resumed_from_sums_is_the_league_counted_game_by_game(tmp_path, turns, seed):
    config, store = league_store(tmp_path, turns, 60, seed)
    try:
        counted = LeagueScheduler(config, store.games())
        summed = resume_scheduler(config, store, None)
        assert isinstance(summed, LeagueScheduler)
        assert state(summed) == state(counted)
        assert counted.unfinished  # (the case holds rounds cut short)
        # The same games next: the rounds cut short, then the same choices.
        nexts = [list(itertools.islice(s.specs(), 40)) for s in (summed, counted)]
        assert nexts[0] == nexts[1]
    finally:
        store.close()


def test_the_sums_are_worked_out_by_hand(tmp_path):
    config, bots, store = new_league(tmp_path)
    try:
        # Round 0: ann-bob, ann wins seated first, draws seated second (1.5 points: LD+..).
        # Round 1: bob-cy, only bob seated first stored (cy won it).
        games = [("ann", "bob", 0, (0, 1)), ("bob", "ann", 0, (0, 0)), ("bob", "cy", 1, (1, 0))]
        for order, (first, second, r, ranks) in enumerate(games):
            key = f"r{r}:{first},{second}"
            seats = [SeatRecord(bot=first, rank=ranks[0]), SeatRecord(bot=second, rank=ranks[1])]
            record = GameRecord("stc", r, {"max_turns": 4}, seats, "end", 1, 1, 1.0)
            identity = bots.ids.of(r, 0, (first, second))
            store.add_game(key, order, r, key, record, identity)
        assert pairings.pair_sums(store.db, 2) == pairings.PairSums(
            pairings=[
                pairings.Pairing("ann", "bob", wins=1, draws=1, games=2, rounds=1),
                pairings.Pairing("bob", "cy", wins=0, draws=0, games=1, rounds=1),
            ],
            ptnml={("ann", "bob"): [0, 0, 0, 1, 0]},  # 1.5 points over the pair
            halves=[pairings.Half(1, {"max_turns": 4}, "bob", "cy", "bob", 0.0)],
            short=[1],
            last_round=1,
        )
        league = LeagueScheduler.resume(config, store, None)
        assert isinstance(league, LeagueScheduler)
        results = league.pairs.results
        assert (results["ann", "bob"].wins, results["ann", "bob"].draws) == (1, 1)
        assert (results["bob", "cy"].wins, results["bob", "cy"].losses) == (0, 1)
        assert league.pairs.ptnml["ann", "bob"].counts == [0, 0, 0, 1, 0]  # a win and a draw
        assert [s.key for s in league.unfinished] == ["r1:cy,bob"]
        assert league.next_round == 2
    finally:
        store.close()


def test_a_round_of_two_pairings_is_counted_game_by_game(tmp_path):
    """Games no league stores (a round of two pairings): the sums say so, and the league
    is counted from the games themselves."""
    config, bots, store = new_league(tmp_path)
    try:
        for order, (first, second) in enumerate([("ann", "bob"), ("cy", "dee")]):
            key = f"r0:{first},{second}"
            seats = [SeatRecord(bot=first, rank=0), SeatRecord(bot=second, rank=1)]
            record = GameRecord("stc", 0, {"max_turns": 4}, seats, "end", 1, 1, 1.0)
            store.add_game(key, order, 0, key, record, bots.ids.of(0, 0, (first, second)))
        assert not pairings.pair_sums(store.db, 2).regular
        summed = LeagueScheduler.resume(config, store, None)
        assert isinstance(summed, LeagueScheduler)
        assert state(summed) == state(LeagueScheduler(config, store.games()))
    finally:
        store.close()
