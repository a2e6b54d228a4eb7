"""The Smash The Code game plugin: CodinGame's Puyo-like duel on two 6x12 grids."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

from arena import Game, GameInfo, InvalidSetting, Move, Outcome, check_range
from arena_games.stc import rules
from arena_games.stc.protocol import build_prompt, grid_rows, parse_answer
from arena_games.stc.rules import StcState

MAX_TURNS_LIMIT = 10_000
"""Longest game a tournament may ask for (the original plays 200 turns)."""
SEEDS = range(-(2**63), 2**63)
"""The seeds CodinGame's referee accepts: a Java ``long`` (``java.util.Random``'s 48-bit
state would silently play 2^63 as seed 0)."""


class StcGame(Game[StcState]):
    """Smash The Code: both players drop the same pairs at once; chains send skulls."""

    info = GameInfo(
        id="stc",
        title="Smash The Code",
        min_players=2,
        max_players=2,
        first_turn_ms=1000,
        turn_ms=100,
        settings={"max_turns": 200},
        description="CodinGame's Smash The Code: group 4+ blocks, chain them, bury the opponent.",
        renderer="viewer.js",
        thinking=2,  # both players answer every turn at once
    )

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        """``max_turns`` between 1 and 10000."""
        check_range(settings, "max_turns", 1, MAX_TURNS_LIMIT)

    def check_seed(self, seed: int) -> None:
        """Only a Java ``long``, as CodinGame's referee requires (2^63 is refused there)."""
        if seed not in SEEDS:
            raise InvalidSetting(
                "seed",
                f"{seed} is not a Java long ({SEEDS.start} to {SEEDS.stop - 1}), "
                "which CodinGame's referee requires",
            )

    def start(self, seed: int, players: int, settings: Mapping[str, Any]) -> StcState:
        """Empty grids; the pair queue is ``java.util.Random(seed)``, as on CodinGame.

        A seed outside a Java ``long`` is refused (ValueError), as CodinGame refuses it.
        """
        if seed not in SEEDS:
            raise ValueError(
                f"stc: seed {seed} is not a Java long "
                f"({SEEDS.start} to {SEEDS.stop - 1}), which CodinGame's referee requires"
            )
        if players != 2:
            raise ValueError(f"stc is a two-player game, not {players}")
        max_turns = settings.get("max_turns", 200)
        if not isinstance(max_turns, int) or isinstance(max_turns, bool) or max_turns < 1:
            raise ValueError(f"stc: max_turns must be a positive integer, not {max_turns!r}")
        return rules.new_game(seed, max_turns)

    def to_act(self, state: StcState) -> Sequence[int]:
        """Both seats while the game runs (simultaneous moves), none once it is over."""
        return () if state.over else (0, 1)

    def prompt(self, state: StcState, seat: int) -> str:
        """The 25 input lines of this turn for ``seat``."""
        return build_prompt(state, seat)

    def interpret(self, state: StcState, seat: int, text: str) -> Move:
        """Parse ``x [rotation] [message]``; a pair that does not fit is played (and loses)."""
        return _kept_move_of(text) if len(text) <= KEPT_ANSWER_CHARS else _move_of(text)

    def action_view(self, action: Any) -> Any:
        """``[x, rotation]`` (what the default would give, for less)."""
        x, rotation = action
        return [x, rotation]

    def apply(self, state: StcState, moves: Mapping[int, Any]) -> StcState:
        """Both pairs fall and resolve; then the skull lines owed fall for the next turn."""
        return rules.apply_turn(state, moves)

    def eliminate(self, state: StcState, seat: int) -> StcState:
        """``seat`` forfeited: the game ends after this turn (a draw if both forfeit).

        When both seats forfeit the same turn no move is left to :meth:`apply`, yet the
        turn counts as played, as CodinGame's referee counts it: it is counted here.
        """
        forfeited = (state.forfeited[0] or seat == 0, state.forfeited[1] or seat == 1)
        turn = state.turn + 1 if all(forfeited) and not all(state.forfeited) else state.turn
        # Nothing of this seat's is placed this turn: the viewer marks none of its cells.
        trace = tuple(rules.NO_TRACE if s == seat else t for s, t in enumerate(state.last_trace))
        return replace(state, forfeited=forfeited, turn=turn, last_trace=(trace[0], trace[1]))

    def moves_after_forfeit(self, state: StcState, moves: Mapping[int, Any]) -> Mapping[int, Any]:
        """The other seat's answer of a forfeit turn is still played and scored (CodinGame)."""
        return dict(moves)

    def outcome(self, state: StcState) -> Outcome:
        """The survivor wins; after the last turn the higher score wins; equal draws.

        Scores are CodinGame's (0 for a seat out, ``max(1, points)`` else; the points are
        in :meth:`view`). Seats out in the same turn draw, forfeits included.
        """
        return Outcome(
            rules.ranks(state),
            tuple(float(s) for s in rules.reported_scores(state)),
            rules.end_reason(state),
            forfeits_ranked=True,
        )

    def random_answer(self, state: StcState, seat: int, rng: random.Random) -> str:
        """A random placement that fits (any answer when none does: the seat dies anyway)."""
        actions = rules.legal_actions(state.grids[seat])
        x, rotation = rng.choice(actions) if actions else (0, 3)
        return f"{x} {rotation}"

    def view(self, state: StcState) -> dict[str, Any]:
        """Grids (rows top to bottom), scores, nuisance owed by each seat, the next pairs."""
        return {
            "turn": state.turn,
            "grids": [list(grid_rows(grid)) for grid in state.grids],
            "scores": list(state.scores),
            "nuisance": [str(owed) for owed in state.owed],
            "next_pairs": [list(pair) for pair in state.next_pairs()],
            "last_points": list(state.last_points),
            "last_chain": list(state.last_steps),
            "dead": list(state.dead),
            "highlight": highlight(state),
        }

    def render(self, state: StcState) -> str:
        """Both grids side by side under their scores and pending nuisance."""
        pairs = " ".join(f"{a}{b}" for a, b in state.next_pairs())
        lines = [
            f"turn {state.turn}/{state.max_turns}  next: {pairs}",
            "  ".join(f"p{s} {state.scores[s]:<9d}" for s in (0, 1)),
            "  ".join(f"due {float(state.owed[s]):<7.2f}" for s in (0, 1)),
        ]
        left, right = (grid_rows(grid) for grid in state.grids)
        lines += [f"|{a}|{' ' * 6}|{b}|" for a, b in zip(left, right, strict=True)]
        lines.append(f"+------+{' ' * 6}+------+")
        return "\n".join(lines)

    def turn_number(self, state: StcState) -> int:
        """Turns played so far."""
        return state.turn


KEPT_ANSWER_CHARS = 64
"""Answers up to this long are kept once read (a bot's answers repeat: ``2 1``, ``0 3``)."""


def _move_of(text: str) -> Move:
    """The move an answer stands for, in any state (:class:`InvalidAnswer` if none)."""
    answer = parse_answer(text)
    return Move(answer.action, answer.message)


_kept_move_of = lru_cache(maxsize=1024)(_move_of)


def highlight(state: StcState) -> list[dict[str, Any]]:
    """What the last turn did, per seat, in the view's coordinates (``[x, row]``, row 0
    at the top): a ``placed`` mark (the cells blocks A and B landed on in the previous
    view's grid, and their ``colors``), then one ``cleared`` mark per chain step
    (``chain`` from 1) with its ``cells``, skulls included, in the grid as it stood
    when they cleared: the previous grid with the pair, less the earlier steps' cells,
    columns fallen."""

    def cells(trace_cells: Sequence[tuple[int, int]]) -> list[list[int]]:
        return [[x, rules.HEIGHT - 1 - y] for x, y in trace_cells]

    marks: list[dict[str, Any]] = []
    pair = list(state.pairs[state.turn - 1]) if state.turn else []
    for seat, trace in enumerate(state.last_trace):
        if trace.placed:
            marks.append(
                {"kind": "placed", "seat": seat, "cells": cells(trace.placed), "colors": pair}
            )
        for k, step in enumerate(trace.chain, start=1):
            marks.append(
                {"kind": "cleared", "seat": seat, "chain": k, "cells": cells(step.cleared)}
            )
    return marks
