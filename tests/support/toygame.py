"""A tiny game for testing the core without any real game's rules.

Each step every seat to act gets ``turn K\\n`` and answers a whole number: garbage is
invalid, a negative number illegal, ``# ...`` ignored, ``ask`` (when queries are on) is
answered with ``answer 42\\n``. The game lasts ``turns`` steps; score = sum of answers.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from arena import (
    FileTransport,
    Game,
    GameInfo,
    Ignore,
    IllegalMove,
    Incomplete,
    InvalidAnswer,
    Move,
    Outcome,
    Reply,
)


@dataclass(frozen=True)
class ToyState:
    turns: int
    step: int
    players: int
    simultaneous: bool
    scores: tuple[int, ...]
    out: tuple[bool, ...]
    turn: int = 0  # whose turn when sequential


class ToyGame(Game[ToyState]):
    info = GameInfo(
        id="toy",
        title="Toy",
        min_players=1,
        max_players=4,
        first_turn_ms=2000,
        turn_ms=300,
        queries=True,
        settings={"turns": 3, "simultaneous": True},
    )

    def start(self, seed: int, players: int, settings: Mapping[str, Any]) -> ToyState:
        return ToyState(
            settings["turns"],
            0,
            players,
            settings["simultaneous"],
            (0,) * players,
            (False,) * players,
        )

    def to_act(self, state: ToyState) -> Sequence[int]:
        alive = [i for i in range(state.players) if not state.out[i]]
        if state.step >= state.turns or not alive or (state.players > 1 and len(alive) < 2):
            return []
        return alive if state.simultaneous else [state.turn]

    def prompt(self, state: ToyState, seat: int) -> str:
        return f"turn {state.step}\n"

    def interpret(self, state: ToyState, seat: int, text: str) -> Any:
        if text.startswith("#"):
            return Ignore()
        if text == "ask" and self.info.queries:
            return Reply("answer 42\n")
        try:
            value = int(text)
        except ValueError:
            raise InvalidAnswer("expected a whole number", text) from None
        if value < 0:
            raise IllegalMove("negative numbers are illegal", text)
        return Move(value)

    def apply(self, state: ToyState, moves: Mapping[int, Any]) -> ToyState:
        scores = list(state.scores)
        for seat, value in moves.items():
            scores[seat] += value
        if state.simultaneous:
            return replace(state, scores=tuple(scores), step=state.step + 1)
        return self._next_turn(replace(state, scores=tuple(scores)))

    def _next_turn(self, state: ToyState) -> ToyState:
        turn, step = state.turn, state.step
        for _ in range(state.players):
            turn = (turn + 1) % state.players
            if turn == 0:
                step += 1
            if not state.out[turn]:
                break
        return replace(state, turn=turn, step=step)

    def eliminate(self, state: ToyState, seat: int) -> ToyState:
        out = list(state.out)
        out[seat] = True
        state = replace(state, out=tuple(out))
        if not state.simultaneous and seat == state.turn:
            state = self._next_turn(state)
        return state

    def outcome(self, state: ToyState) -> Outcome:
        return Outcome.from_scores(state.scores, "done")

    def random_answer(self, state: ToyState, seat: int, rng: random.Random) -> str:
        return str(rng.randint(0, 9))

    def turn_number(self, state: ToyState) -> int:
        return state.step


class FileToyGame(ToyGame):
    """The toy game over the per-turn file transport (prompt in state.json)."""

    info = replace(
        ToyGame.info,
        id="filetoy",
        transport=FileTransport(max_extra_files=1, max_file_bytes=1000),
        first_turn_ms=3000,
        turn_ms=3000,
        queries=False,
    )


class TokenToyGame(ToyGame):
    """The toy game read as words (``framing="tokens"``): ``add N`` moves, ``ask`` queries.

    A move's message names what was added; ``add`` alone is an incomplete command.
    """

    info = replace(ToyGame.info, id="tokentoy", framing="tokens")

    def interpret(self, state: ToyState, seat: int, text: str) -> Any:
        words = text.split(" ")
        if words == ["ask"]:
            return Reply("answer 42\n")
        if words[0] != "add":
            raise InvalidAnswer("expected 'add N' or 'ask'", text)
        if len(words) == 1:
            return Incomplete()
        try:
            value = int(words[1])
        except ValueError:
            raise InvalidAnswer("expected a whole number after add", text) from None
        return Move(value, f"added {value}")


class KeepingToyGame(ToyGame):
    """The toy game whose other moves of a forfeit step still count (as stc's do)."""

    info = replace(ToyGame.info, id="keepingtoy")

    def moves_after_forfeit(self, state: ToyState, moves: Mapping[int, Any]) -> Mapping[int, Any]:
        return moves
