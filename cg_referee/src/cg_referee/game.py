"""Cg Referee: the rules and the text protocol bots speak.

The example is tic-tac-toe on a ``size`` x ``size`` board where ``win`` in a row wins;
change it into your game. A game is pure rules: no I/O, no clocks, no processes, and every
random choice comes from the seed given to ``start`` (arena runs the bots and keeps time).
See arena's docs/plugins.md for the whole contract.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from arena import (
    Game,
    GameInfo,
    IllegalMove,
    InvalidAnswer,
    Move,
    Outcome,
    check_range,
)

MARKS = "XO"
ANSWER = re.compile(r"\s*(-?[0-9]+)\s+(-?[0-9]+)\s*")


@dataclass(frozen=True)
class State:
    """One position. States are immutable: ``apply`` returns a new one."""

    size: int
    win: int
    board: tuple[str, ...]  # rows top to bottom, "." for an empty cell
    to_move: int = 0  # the seat to play
    last: tuple[int, int] = (-1, -1)  # the last move, sent to the next player
    winner: int | None = None
    forfeited: int | None = None
    moves: int = 0

    @property
    def over(self) -> bool:
        """Won, drawn (board full) or forfeited."""
        full = self.moves == self.size * self.size
        return self.winner is not None or self.forfeited is not None or full


def lines_through(state: State, row: int, col: int) -> int:
    """The longest run of the mark at (row, col) through that cell."""
    mark = state.board[row][col]
    best = 0
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            r, c = row + sign * dr, col + sign * dc
            while 0 <= r < state.size and 0 <= c < state.size and state.board[r][c] == mark:
                run += 1
                r, c = r + sign * dr, c + sign * dc
        best = max(best, run)
    return best


class CgRefereeGame(Game[State]):
    """Cg Referee (the scaffold's tic-tac-toe): ``win`` marks in a row win."""

    info = GameInfo(
        id="cg_referee",
        title="Cg Referee",
        min_players=2,
        max_players=2,
        first_turn_ms=1000,  # the first turn also absorbs the bot's start-up
        turn_ms=200,
        settings={"size": 3, "win": 3},
        description="Tic-tac-toe on a size x size board: win marks in a row win.",
    )

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        """The board is 3 to 9 cells wide; a line to win fits on it."""
        check_range(settings, "size", 3, 9)
        check_range(settings, "win", 3, settings["size"])

    def start(self, seed: int, players: int, settings: Mapping[str, Any]) -> State:
        """An empty board; seat 0 plays X and moves first. (Nothing random here.)"""
        size = settings["size"]
        return State(size, settings["win"], ("." * size,) * size)

    def to_act(self, state: State) -> Sequence[int]:
        """The seat to move, none once the game is over."""
        return () if state.over else (state.to_move,)

    def prompt(self, state: State, seat: int) -> str:
        """First turn: ``size win id``; every turn: the last move, then the board rows."""
        lines = []
        if state.moves < 2:  # each seat's first turn
            lines.append(f"{state.size} {state.win} {seat}")
        lines.append(f"{state.last[0]} {state.last[1]}")
        lines += state.board
        return "\n".join(lines) + "\n"

    def interpret(self, state: State, seat: int, text: str) -> Move:
        """``row col``: garbage is invalid, a taken or outside cell illegal."""
        match = ANSWER.fullmatch(text)
        if match is None:
            raise InvalidAnswer("expected 'row col'", text)
        row, col = int(match[1]), int(match[2])
        if not (0 <= row < state.size and 0 <= col < state.size):
            raise IllegalMove(f"({row}, {col}) is outside the board", text)
        if state.board[row][col] != ".":
            raise IllegalMove(f"({row}, {col}) is taken", text)
        return Move((row, col))

    def apply(self, state: State, moves: Mapping[int, Any]) -> State:
        """Put the mover's mark; check for a line."""
        seat = state.to_move
        row, col = moves[seat]
        board = list(state.board)
        board[row] = board[row][:col] + MARKS[seat] + board[row][col + 1 :]
        after = replace(
            state, board=tuple(board), to_move=1 - seat, last=(row, col), moves=state.moves + 1
        )
        if lines_through(after, row, col) >= state.win:
            after = replace(after, winner=seat)
        return after

    def eliminate(self, state: State, seat: int) -> State:
        """A forfeit ends the game; the other seat wins."""
        return replace(state, forfeited=seat)

    def outcome(self, state: State) -> Outcome:
        """1 point to the winner, half a point each for a draw."""
        if state.forfeited is not None:
            scores = [1.0, 1.0]
            scores[state.forfeited] = 0.0
            return Outcome.from_scores(scores, "forfeit")
        if state.winner is not None:
            scores = [0.0, 0.0]
            scores[state.winner] = 1.0
            return Outcome.from_scores(scores, f"{state.win} in a row")
        return Outcome.from_scores([0.5, 0.5], "board full")

    def random_answer(self, state: State, seat: int, rng: random.Random) -> str:
        """A random empty cell."""
        free = [
            (r, c) for r in range(state.size) for c in range(state.size) if state.board[r][c] == "."
        ]
        row, col = rng.choice(free)
        return f"{row} {col}"

    def view(self, state: State) -> dict[str, Any]:
        """The board, whose turn it is and the winner, as JSON for replays."""
        return {"board": list(state.board), "to_move": state.to_move, "winner": state.winner}

    def render(self, state: State) -> str:
        """The board, for ``arena match --verbose``."""
        return "\n".join(state.board)

    def turn_number(self, state: State) -> int:
        """Marks placed so far."""
        return state.moves
