"""The `blocking` game: a Blokus-like CodinGame puzzle for 2-4 players on a 13x13 board."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from arena import Game, GameInfo, IllegalMove, Move, Outcome
from arena_games.blocking import protocol, rules
from arena_games.blocking.rules import Action, State
from arena_games.blocking.shapes import (
    CODES,
    SIZE,
    base_cells,
    cells_of,
    mask_of,
    oriented,
    placements_through,
)


class BlockingGame(Game[State]):
    """Blocking: place your shapes corner to corner; the most squares covered wins."""

    info = GameInfo(
        id="blocking",
        title="Blocking",
        min_players=2,
        max_players=4,
        first_turn_ms=1000,
        turn_ms=200,
        description="Blokus-like: 13x13 board, shapes A-U touching own colour only at corners.",
        renderer="viewer.js",
    )

    def start(self, seed: int, players: int, settings: Mapping[str, Any]) -> State:
        """The empty board; the seed draws the shapes in play."""
        placements_through()  # build the placement tables now, outside any bot's clock
        return rules.new_game(seed, players)

    def to_act(self, state: State) -> Sequence[int]:
        """The one seat to play, or nothing when nobody can move."""
        return () if state.current is None else (state.current,)

    def prompt(self, state: State, seat: int) -> str:
        """Turn input, preceded by the init input on the seat's first turn."""
        turn = protocol.turn_text(state, seat)
        if not state.owned[seat]:
            return protocol.init_text(state, seat) + turn
        return turn

    def interpret(self, state: State, seat: int, text: str) -> Move:
        """Parse and check ``x y Lfrk``; any orientation code giving a valid placement is fine."""
        answer = protocol.parse_answer(text)
        result = rules.check_move(
            state, seat, answer.x, answer.y, answer.letter, answer.code, answer.square
        )
        if isinstance(result, str):
            raise IllegalMove(result, text)
        return Move(result)

    def apply(self, state: State, moves: Mapping[int, Any]) -> State:
        """Play the one move of the seat to act."""
        for seat, action in moves.items():
            assert isinstance(action, Action)
            state = rules.play(state, seat, action)
        return state

    def eliminate(self, state: State, seat: int) -> State:
        """The seat forfeits: it never moves again and ranks below every other seat."""
        return rules.forfeit(state, seat)

    def outcome(self, state: State) -> Outcome:
        """Squares covered; equal scores share a rank; forfeited seats rank last."""
        if any(state.forfeited):
            reason = "forfeit" if sum(not f for f in state.forfeited) < 2 else "nobody can move"
        else:
            reason = "nobody can move"
        return Outcome(rules.ranks(state), tuple(float(s) for s in rules.scores(state)), reason)

    def random_answer(self, state: State, seat: int, rng: random.Random) -> str:
        """A random valid move, written with a random equivalent code and square."""
        placement = rng.choice(rules.legal_moves(state, seat))
        options = []
        for code in CODES:
            # Square k of this orientation, with square 1 on the listed cell, lands at (x, y);
            # the answer is equivalent when the orientation covers the listed cells.
            (ox, oy), *_ = squares = oriented(placement.letter, code).cells
            board = [(placement.x + cx - ox, placement.y + cy - oy) for cx, cy in squares]
            if mask_of(tuple(board)) == placement.mask:
                options += [
                    f"{x} {y} {placement.letter}{code}{k}" for k, (x, y) in enumerate(board, 1)
                ]
        return rng.choice(options)

    def view(self, state: State) -> dict[str, Any]:
        """Board rows, every piece placed (seat, letter, cells) in play order, the shapes
        in play (cells of their base picture), letters left per seat, scores, seat to act."""
        pieces = [(p.seat, p.action.letter, _cells(p.action)) for p in state.history]
        grid = [["."] * SIZE for _ in range(SIZE)]
        for seat, _, cells in pieces:
            for x, y in cells:
                grid[y][x] = str(seat)
        return {
            "board": ["".join(row) for row in grid],  # protocol.board_rows(state, 0), faster
            "pieces": [[seat, letter, [list(c) for c in cells]] for seat, letter, cells in pieces],
            "shapes": {letter: [list(c) for c in base_cells(letter)] for letter in state.letters},
            "letters": state.letters,
            "remaining": list(state.remaining),
            "scores": list(rules.scores(state)),
            "out": list(state.out),
            "forfeited": list(state.forfeited),
            "current": state.current,
            # What just happened, for the viewer: the shape placed last.
            "highlight": [
                {"kind": "placed", "seat": pieces[-1][0], "cells": [list(c) for c in pieces[-1][2]]}
            ]
            if pieces
            else [],
        }

    def render(self, state: State) -> str:
        """The board, then one line per seat: score and shapes left."""
        lines = protocol.board_rows(state, 0)
        for seat in range(state.players):
            status = (
                " (forfeited)" if state.forfeited[seat] else " (out)" if state.out[seat] else ""
            )
            lines.append(
                f"seat {seat}: {rules.scores(state)[seat]} squares, "
                f"left {state.remaining[seat] or '-'}{status}"
            )
        return "\n".join(lines) + "\n"

    def turn_number(self, state: State) -> int:
        """Moves played so far."""
        return len(state.history)

    def action_view(self, action: Any) -> Any:
        """The move in normal form (``x y Lfrk``) and the cells it covers."""
        assert isinstance(action, Action)
        return {"move": action.text(), "cells": [list(c) for c in _cells(action)]}


@lru_cache(maxsize=4096)
def _cells(action: Action) -> tuple[tuple[int, int], ...]:
    """The board cells an action covers."""
    return cells_of(action.letter, action.code, action.square, action.x, action.y)
