"""Re-simulating stored replays: the states a game went through, from its seed and answers.

The referee stores every step's answers (``replay.json``, see ``docs/architecture.md``);
playing them again through the game's own rules gives back every state, which is what
exports to other tools' formats and viewers need.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from arena.game import Game, Move, standing_moves


@dataclass(frozen=True)
class ReplayedStep:
    """One step played again: the state before it, the actions by seat, the state after."""

    before: Any
    actions: dict[int, Any]
    after: Any


def resimulate(game: Game[Any], replay: Mapping[str, Any]) -> Iterator[ReplayedStep]:
    """Yield every step of a stored replay, re-played from its seed exactly as the referee did.

    ``step["moves"][seat]`` is the command that gave the seat's move (a line, the words of
    a token-framed command joined by spaces, or the output file), interpreted again in the
    state before the step. Forfeits are applied first; which other moves of that step
    stand is :func:`~arena.game.standing_moves`' rule, the referee's.
    """
    state = game.start(
        int(replay["seed"]), len(replay["players"]), dict(replay.get("settings", {}))
    )
    for step in replay["steps"]:
        before = state
        for seat in step.get("forfeits", {}):
            state = game.eliminate(state, int(seat))
        actions = {}
        for seat, text in step.get("moves", {}).items():
            answer = game.interpret(before, int(seat), text)
            if not isinstance(answer, Move):
                raise ValueError(f"{game.info.id}: stored move {text!r} is not a move: {answer!r}")
            actions[int(seat)] = answer.action
        actions = standing_moves(game, state, actions, bool(step.get("forfeits")))
        if actions:
            state = game.apply(state, actions)
        yield ReplayedStep(before, actions, state)
