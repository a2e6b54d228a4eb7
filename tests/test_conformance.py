"""Every registered game: random legal play ends, ranks make sense, the seed replays exactly."""

from __future__ import annotations

import json
import random

import pytest

from arena.plugins import load_registry
from arena.testing import playthrough, replay

REGISTRY = load_registry()
CASES = [
    (gid, players)
    for gid, entry in sorted(REGISTRY.games.items())
    for players in range(entry.game.info.min_players, entry.game.info.max_players + 1)
]


def test_every_builtin_game_is_registered_through_the_entry_point_group():
    assert REGISTRY.broken == {}
    assert {"stc", "splitter", "blocking", "chess5", "cluster"} <= set(REGISTRY.games)
    for gid, entry in REGISTRY.games.items():
        assert entry.game.info.id == gid
        assert entry.package == "bot-arena"
        assert entry.game.__doc__, f"{gid}: undocumented game class"


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_random_games_end_and_replay_identically_from_their_seed(game_id, players):
    game = REGISTRY.create(game_id)
    for seed in (1, 2):
        first = playthrough(game, seed, players, {}, random.Random(seed))
        assert first.outcome is not None
        assert len(first.outcome.ranks) == players == len(first.outcome.scores)
        assert min(first.outcome.ranks) == 0
        assert all(0 <= r < players for r in first.outcome.ranks)
        again = replay(REGISTRY.create(game_id), first)
        assert again.prompts == first.prompts
        assert again.outcome == first.outcome
        # The same seed and answers give the same game; views are JSON for replays.
        state = game.start(seed, players, first.settings)
        json.dumps(game.view(state))


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_a_forfeit_ranks_the_seat_last(game_id, players):
    game = REGISTRY.create(game_id)
    state = game.start(5, players, dict(game.info.settings))
    seat = next(iter(game.to_act(state)))
    state = game.eliminate(state, seat)
    assert seat not in game.to_act(state)
    rng = random.Random(5)
    steps = 0
    while seats := list(game.to_act(state)):
        steps += 1
        assert steps < 20_000
        moves = {}
        for s in seats:
            answer = game.interpret(state, s, game.random_answer(state, s, rng))
            moves[s] = answer.action  # type: ignore[union-attr]
        state = game.apply(state, moves)
    outcome = game.outcome(state)
    others = [r for i, r in enumerate(outcome.ranks) if i != seat]
    assert all(outcome.ranks[seat] >= r for r in others)
