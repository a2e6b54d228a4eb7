"""The 42-cluster game plugin: hex connect-n with rotatable gravity and in-turn queries."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from arena import (
    Answer,
    Game,
    GameInfo,
    Ignore,
    IllegalMove,
    Incomplete,
    InvalidSetting,
    Move,
    Outcome,
    Reply,
    check_range,
)
from arena_games.cluster import protocol, rules
from arena_games.cluster.rules import EMPTY, ChooseColor, Drop, Rotate, State

STARTUP_MS = 2000  # added to the first prompt's clock (init): interpreter start-up
GRAVITY_NAMES = ("top", "top-right", "bottom-right", "bottom", "bottom-left", "top-left")


class ClusterGame(Game[State]):
    """42-cluster: two players drop coloured chips into a hexagon, or turn its gravity.

    Step 1 prompts both seats at once with ``init`` (they answer ``color N``); then
    player 0 and player 1 alternate, each turn prompted with the opponent's last action
    and ``chips a b``, answering ``fetch`` queries at once until ``drop`` or ``rotate``.
    """

    info: ClassVar[GameInfo] = GameInfo(
        id="cluster",
        title="42-cluster",
        min_players=2,
        max_players=2,
        first_turn_ms=1000 + STARTUP_MS,
        turn_ms=1000,
        queries=True,
        framing="tokens",
        settings=dict(rules.DEFAULT_SETTINGS),
        description="Hex connect-four with a bag of chips and rotatable gravity (42 cluster).",
        renderer="viewer.js",
        version=3,  # 2: a number with characters after it is read as %d reads it; 3: and
        # a number beyond 32 bits as glibc stores it (its low 32 bits)
    )

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        """Every setting within what the rules allow and a game can finish in.

        ``colors`` even, 2-16; ``grid_size`` 2-20; ``win_length`` from 2 to the longest
        line of the hexagon (``2 * grid_size - 1``); ``chips_per_color`` None or 1-10000;
        ``timeout`` 0.001-60 s; ``wall_chance`` at least 0 and below 1.
        """
        check_range(settings, "colors", 2, 16)
        if settings["colors"] % 2:
            raise InvalidSetting(
                "colors", f"must be even (half per player), not {settings['colors']}"
            )
        check_range(settings, "grid_size", 2, 20)
        check_range(settings, "win_length", 2, 2 * settings["grid_size"] - 1)
        check_range(settings, "chips_per_color", 1, 10_000)
        check_range(settings, "timeout", 0.001, 60)
        check_range(settings, "wall_chance", 0.0, 1.0)
        if settings["wall_chance"] >= 1.0:
            raise InvalidSetting("wall_chance", "must be below 1 (some cells must stay free)")

    def start(self, seed: int, players: int, settings: Mapping[str, Any]) -> State:
        """A fresh game; walls and chip draws follow ``seed``."""
        if players != 2:
            raise ValueError(f"cluster is a two-player game, got {players} players")
        return rules.new_game(seed, rules.Settings.from_mapping(settings))

    def to_act(self, state: State) -> Sequence[int]:
        """Both seats for ``init``/``color``, then the seat to move; none when over."""
        if state.phase == "color":
            return [0, 1]
        return [state.turn] if state.phase == "play" else []

    def prompt(self, state: State, seat: int) -> str:
        """The ``init`` line, or the opponent's last action plus ``chips a b``."""
        if state.phase == "color":
            return protocol.init_line(state.settings, seat)
        return protocol.turn_prompt(state)

    def interpret(self, state: State, seat: int, text: str) -> Answer:
        """``color N`` at init; then ``drop`` or ``rotate``; ``fetch`` answered at once.

        ``text`` holds the words of one command (token framing: the core feeds them one
        by one, :class:`Incomplete` asks for the next); blank text is skipped, as
        ``scanf`` skips blanks. As ``%d`` does, the last number may have characters right
        after it (``drop 0 2x``): the command is played and those characters are read as
        the start of the seat's next command (on its next turn, where ``x`` is invalid).
        """
        if not text.strip():
            return Ignore()
        leftover = state.leftover[seat] if state.phase == "play" else ""
        parsed = protocol.parse_command(text, state.phase, leftover)
        if parsed is None:
            return Incomplete()
        if isinstance(parsed, protocol.Fetch):
            return Reply(protocol.fetch_reply(state, parsed.kind))
        command, rest = _unread(parsed)
        unread = f"{rest!r} left unread, read as its next command" if rest else ""
        if isinstance(command, ChooseColor):
            return Move(parsed, unread)
        problem = rules.why_illegal(state, command)
        if problem is not None:
            raise IllegalMove(problem, f"{leftover} {text}" if leftover else text)
        if isinstance(command, Rotate):
            if command.gravity == state.gravity:
                note = f"gravity stays {GRAVITY_NAMES[command.gravity]} (a pass)"
            else:
                note = f"gravity -> {GRAVITY_NAMES[command.gravity]}"
        else:
            note = "lands on {} {} {}".format(
                *state.grid.cells[rules.drop_target(state, command.pos)]
            )
        return Move(parsed, f"{note}; {unread}" if unread else note)

    def apply(self, state: State, moves: Mapping[int, Any]) -> State:
        """Record the colours (step 1) or play the action of the seat to move.

        What a command left unread after its last number is kept for the seat's next turn.
        """
        split = {seat: _unread(move) for seat, move in moves.items()}
        leftover = list(state.leftover)
        for seat, (_, rest) in split.items():
            leftover[seat] = rest
        if state.phase == "color":
            colors = {s: c.color for s, (c, _) in split.items() if isinstance(c, ChooseColor)}
            after = rules.choose_colors(state, colors)
        else:
            action = split[state.turn][0]
            assert isinstance(action, Drop | Rotate)
            after = rules.apply_action(state, action)
        return replace(after, leftover=(leftover[0], leftover[1]))

    def eliminate(self, state: State, seat: int) -> State:
        """The seat loses and the game is over."""
        return rules.forfeit(state, seat)

    def outcome(self, state: State) -> Outcome:
        """Winner first (score 1), loser second (score 0); both 0 if both forfeited."""
        scores = [0.0, 0.0]
        if state.winner is not None:
            scores[state.winner] = 1.0
        return Outcome.from_scores(scores, state.reason)

    def epilogue(self, state: State, seat: int) -> str:
        """The final action, sent to the seat that did not play it (the loser of a line, or
        a seat left without chips), as the original writes every action to the other bot
        before it checks for a winner."""
        if state.phase != "over" or not state.last_action or state.mover in (None, seat):
            return ""
        return f"{state.last_action}\n"

    def action_view(self, action: Any) -> Any:
        """``{"Drop": {...}}`` and the like; a command with characters left after its last
        number adds ``"rest"``."""
        command, rest = _unread(action)
        view = super().action_view(command)
        return {**view, "rest": rest} if rest else view

    def random_answer(self, state: State, seat: int, rng: random.Random) -> str:
        """``color N`` at init; later a uniformly random legal action."""
        if state.phase == "color":
            return f"color {rng.choice(rules.COLOR_CHOICES)}"
        return rules.action_line(rng.choice(rules.legal_actions(state)))

    def clock_ms(self, state: State, seat: int, first_turn: bool) -> int:
        """The ``timeout`` setting for every turn; the first prompt adds start-up time."""
        ms = round(state.settings.timeout * 1000)
        return ms + STARTUP_MS if first_turn else ms

    def turn_number(self, state: State) -> int:
        """Actions (drops and rotations) played so far."""
        return state.turns

    def view(self, state: State) -> dict[str, Any]:
        """Gravity, walls, occupied cells as ``[q, r, s, chip]``, bags, and whose turn."""
        cells = state.grid.cells
        return {
            "grid_size": state.settings.grid_size,
            "phase": state.phase,
            "gravity": state.gravity,
            "turn": state.turn,
            "drawn": list(state.drawn),
            "last_action": state.last_action,
            "colors": list(state.chosen),
            "bags": list(state.bags),
            "walls": [list(cells[i]) for i in sorted(state.walls)],
            "chips": [[*cells[i], chip] for i, chip in enumerate(state.board) if chip != EMPTY],
            "longest": list(rules.longest_lines(state)),
            "winner": state.winner,
            "reason": state.reason,
            # What decided the game, for the viewer: the cells of the winning line.
            "highlight": (
                [{"kind": "line", "seat": state.winner, "cells": [list(cells[i]) for i in line]}]
                if (line := rules.winning_line(state))
                else []
            ),
        }

    def render(self, state: State) -> str:
        """The hexagon with columns drawn vertically: ``.`` empty, ``#`` wall, digits chips."""
        grid = state.grid
        n = grid.size - 1
        rows = [[" "] * (4 * n + 1) for _ in range(4 * n + 1)]
        for i, (q, r, _s) in enumerate(grid.cells):
            chip = state.board[i]
            mark = "#" if i in state.walls else "." if chip == EMPTY else str(chip)
            rows[2 * r + q + 2 * n][2 * (q + n)] = mark
        a, b = state.drawn
        head = f"gravity {state.gravity} ({GRAVITY_NAMES[state.gravity]}), turn {state.turns}"
        if state.phase == "play":
            head += f", player {state.turn} holds chips {a} {b}"
        elif state.phase == "over":
            head += f", player {state.winner} wins: {state.reason}"
        body = ["".join(row).rstrip() for row in rows]
        return "\n".join([head, *body]) + "\n"


def _unread(move: Any) -> tuple[Any, str]:
    """A move's command and what it left unread after its last number ("" for none)."""
    if isinstance(move, protocol.Trailing):
        return move.command, move.rest
    return move, ""
