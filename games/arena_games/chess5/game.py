"""The arena plugin class of 5x5 ability chess: a new bot process per turn, JSON files."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from arena import FileTransport, Game, GameInfo, IllegalMove, Move, Outcome
from arena_games.chess5 import rules, state_json
from arena_games.chess5.export import codeclash_log
from arena_games.chess5.rules import Action, State


class Chess5Game(Game[State]):
    """5x5 ability chess from Code Clash: setup, then play with fog, shield and pawn reset."""

    info = GameInfo(
        id="chess5",
        title="5x5 ability chess (Code Clash)",
        min_players=2,
        max_players=2,
        first_turn_ms=5000,
        turn_ms=5000,
        transport=FileTransport(
            input_name="state.json",
            output_name="move.json",
            max_extra_files=1,
            max_file_bytes=10 * 1024 * 1024,
        ),
        description=(
            "Place king, block, rooks, bishops and pawns on a 5x5 board, then capture the "
            "enemy king; one-time abilities: fog, shield, pawn reset."
        ),
        exports=("codeclash",),
        renderer="viewer.js",
    )

    def start(self, seed: int, players: int, settings: Mapping[str, Any]) -> State:
        """An empty board; seat 0 is white, seat 1 black."""
        if players != 2:
            raise ValueError("chess5 is a two-player game")
        return rules.new_game(seed)

    def to_act(self, state: State) -> Sequence[int]:
        """The one seat whose call it is, none when the game is over."""
        return [] if state.over else [state.to_move]

    def prompt(self, state: State, seat: int) -> str:
        """The text of state.json for the seat."""
        return state_json.state_text(state, seat)

    def interpret(self, state: State, seat: int, text: str) -> Move:
        """Parse move.json and check it against the rules (``from`` read in play and step 4)."""
        read_from = not state.in_setup or state.setup_step == 4
        action = state_json.parse_move(text, read_from)
        try:
            rules.check(state, action)
        except rules.RuleError as exc:
            raise IllegalMove(str(exc), text) from None
        return Move(action)

    def apply(self, state: State, moves: Mapping[int, Any]) -> State:
        """Play the mover's action."""
        action: Action = moves[state.to_move]
        return rules.apply(state, action)

    def eliminate(self, state: State, seat: int) -> State:
        """The seat forfeits: the opponent wins."""
        return rules.forfeit(state, seat)

    def outcome(self, state: State) -> Outcome:
        """Winner first (score 1), loser 0; a draw ranks both first with 0.5."""
        if state.winner is None:
            return Outcome((0, 0), (0.5, 0.5), state.reason)
        ranks = (0, 1) if state.winner == rules.WHITE else (1, 0)
        return Outcome(ranks, tuple(1.0 - r for r in ranks), state.reason)

    def random_answer(self, state: State, seat: int, rng: random.Random) -> str:
        """A uniformly random legal action; in play, abilities come with a random move."""
        action = rng.choice(rules.legal_actions(state, with_abilities=rng.random() < 0.1))
        return state_json.move_text(action)

    def view(self, state: State) -> dict[str, Any]:
        """Board rows in the match-log notation plus phase, abilities and effects.

        ``fog[c]`` lists the squares colour c cannot see while fogged (None when it sees all).
        """
        return {
            "phase": "setup" if state.in_setup else "play",
            "setupStep": state.setup_step,
            "ply": state.ply,
            "toMove": rules.COLOR_NAMES[state.to_move],
            "board": rules.board_rows(state.board),
            "blockedTiles": [list(sq) for sq in state.blocked],
            "abilitiesRemaining": [sorted(a) for a in state.abilities],
            "abilitiesActivated": [
                [[e.name, e.turns_left, e.target] for e in effects] for effects in state.against
            ],
            "fog": [_hidden(state, color) for color in (rules.WHITE, rules.BLACK)],
            "over": state.over,
            "winner": None if state.winner is None else rules.COLOR_NAMES[state.winner],
            "reason": state.reason,
            "highlight": _highlight(state),
        }

    def render(self, state: State) -> str:
        """Text board: uppercase white, lowercase black, '#' a blocked square, '.' empty."""
        lines = ["  " + " ".join(str(c) for c in range(rules.SIZE))]
        for r in range(rules.SIZE):
            cells = []
            for c in range(rules.SIZE):
                piece = rules.at(state.board, (r, c))
                if piece is not None:
                    cells.append(piece[1] if piece[0] == "W" else piece[1].lower())
                else:
                    cells.append("#" if (r, c) in state.blocked else ".")
            lines.append(f"{r} " + " ".join(cells))
        if state.over:
            who = "draw" if state.winner is None else f"{rules.COLOR_NAMES[state.winner]} wins"
            lines.append(f"{who} ({state.reason})")
        elif state.in_setup:
            lines.append(f"setup step {state.setup_step}, {rules.COLOR_NAMES[state.to_move]}")
        else:
            effects = ", ".join(
                f"{e.name} on {rules.COLOR_NAMES[c]} ({e.turns_left})"
                for c in (0, 1)
                for e in state.against[c]
            )
            lines.append(
                f"ply {state.ply + 1}, {rules.COLOR_NAMES[state.to_move]} to move"
                + (f"; {effects}" if effects else "")
            )
        return "\n".join(lines) + "\n"

    def turn_number(self, state: State) -> int:
        """Plies of play made (setup calls not counted)."""
        return state.ply

    def export(self, replay: Mapping[str, Any], fmt: str) -> str:
        """The original server's match log (``codeclash``), rebuilt from the replay."""
        if fmt != "codeclash":
            return super().export(replay, fmt)
        return codeclash_log(self, replay)


def _highlight(state: State) -> list[dict[str, Any]]:
    """The previous call, for the viewer: ``move`` with cells ``[from, to]`` in play,
    ``placed`` with the square placed on in setup (a piece or a blocked square)."""
    if not state.last:
        return []
    # The seat that made the call: the one before the seat to move now (setup's order
    # is not strictly alternating, so it is read from SETUP_ORDER there).
    if len(state.last) == 2:
        seat = (state.ply - 1) % 2
    else:
        seat = rules.SETUP_ORDER[state.setup_index - 1][0]
    kind = "move" if len(state.last) == 2 else "placed"
    return [{"kind": kind, "seat": seat, "cells": [list(sq) for sq in state.last]}]


def _hidden(state: State, color: int) -> list[list[int]] | None:
    """The squares a fogged ``color`` does not see, as its state.json hides them."""
    if state.in_setup or not rules.is_fogged(state, color):
        return None
    seen = rules.visible_squares(state.board, color)
    size = rules.SIZE
    return [[r, c] for r in range(size) for c in range(size) if (r, c) not in seen]
