"""Helpers for testing game plugins: random playthroughs and replay checks.

Third-party game authors can run the same conformance checks arena runs on its own
games: ``playthrough`` plays a game with the game's own :meth:`~arena.game.Game.random_answer`,
recording every prompt, and ``replay`` plays the recorded answers again from the seed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from arena.game import Game, Move, Outcome

MAX_STEPS = 20_000


@dataclass
class Playthrough:
    """Every step's prompts and answers of one game, and how it ended."""

    seed: int
    players: int
    settings: dict[str, Any]
    prompts: list[dict[int, str]] = field(default_factory=list)
    answers: list[dict[int, str]] = field(default_factory=list)
    outcome: Outcome | None = None
    turns: int = 0


def playthrough(
    game: Game[Any], seed: int, players: int, settings: Mapping[str, Any], rng: random.Random
) -> Playthrough:
    """Play one game with random legal answers; raise AssertionError if the game misbehaves."""
    merged = {**game.info.settings, **settings}
    state = game.start(seed, players, merged)
    record = Playthrough(seed, players, merged)
    while seats := list(game.to_act(state)):
        assert len(record.prompts) < MAX_STEPS, f"{game.info.id}: no end after {MAX_STEPS} steps"
        assert len(set(seats)) == len(seats) and all(0 <= s < players for s in seats)
        prompts, answers, moves = {}, {}, {}
        for seat in seats:
            prompts[seat] = game.prompt(state, seat)
            answers[seat] = game.random_answer(state, seat, rng)
            answer = game.interpret(state, seat, answers[seat])
            assert isinstance(answer, Move), f"random_answer gave a non-move: {answers[seat]!r}"
            moves[seat] = answer.action
        record.prompts.append(prompts)
        record.answers.append(answers)
        state = game.apply(state, moves)
    record.outcome = game.outcome(state)
    record.turns = game.turn_number(state)
    return record


def replay(game: Game[Any], recorded: Playthrough) -> Playthrough:
    """Play ``recorded``'s answers again from its seed, recording the prompts anew."""
    state = game.start(recorded.seed, recorded.players, recorded.settings)
    again = Playthrough(recorded.seed, recorded.players, recorded.settings)
    for answers in recorded.answers:
        seats = list(game.to_act(state))
        assert sorted(seats) == sorted(answers), "a different seat is to act on replay"
        again.prompts.append({seat: game.prompt(state, seat) for seat in seats})
        again.answers.append(dict(answers))
        moves = {}
        for seat in seats:
            answer = game.interpret(state, seat, answers[seat])
            assert isinstance(answer, Move)
            moves[seat] = answer.action
        state = game.apply(state, moves)
    assert not game.to_act(state), "the replayed game did not end where the original did"
    again.outcome = game.outcome(state)
    again.turns = game.turn_number(state)
    return again
