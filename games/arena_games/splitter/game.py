"""The Splitter game plugin: one player, two dice a round, mirrored placement."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from arena import Answer, Game, GameInfo, Ignore, IllegalMove, InvalidSetting, Move, Outcome
from arena_games.splitter import protocol
from arena_games.splitter.rules import (
    HEART,
    LAYOUTS,
    NONE,
    STAR,
    Placement,
    SplitterState,
    current_dice,
    forfeit,
    is_over,
    legal_placements,
    new_game,
    other_die,
    place,
    placement_error,
    score,
    score_sheet,
)


class SplitterGame(Game[SplitterState]):
    """Splitter: fill a mirrored 44-cell sheet with dice; groups of exactly v v's score v."""

    info: ClassVar[GameInfo] = GameInfo(
        id="splitter",
        title="Splitter",
        min_players=1,
        max_players=1,
        # The original tester has no clock; a generous second per round keeps runs short.
        first_turn_ms=2000,
        turn_ms=1000,
        settings={"layout": 1},
        description=(
            "One-player dice placement: each round write both dice in mirrored cells; "
            "a group of exactly v equal v's scores v (doubled on a star), equal hearts add 5."
        ),
        renderer="viewer.js",
        # 2: the Tester's own dice for a seed (.NET System.Random), its line reading.
        version=2,
    )

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        """``layout`` names one of the original sheets (1 or 2)."""
        if settings["layout"] not in LAYOUTS:
            known = " or ".join(str(k) for k in sorted(LAYOUTS))
            raise InvalidSetting("layout", f"must be {known}, not {settings['layout']!r}")

    def start(self, seed: int, players: int, settings: Mapping[str, Any]) -> SplitterState:
        """A fresh sheet (``settings['layout']``: 1 or 2) and the Tester's dice for ``seed``.

        ``seed`` is the Tester's .NET ``Random`` seed, wrapped to 32 bits.
        """
        if players != 1:
            raise ValueError(f"splitter is a one-player game, not {players} players")
        return new_game(seed, int(settings.get("layout", 1)))

    def to_act(self, state: SplitterState) -> Sequence[int]:
        """Seat 0 until the game is over."""
        return () if is_over(state) else (0,)

    def prompt(self, state: SplitterState, seat: int) -> str:
        """The sheet header in round 0, then this round's dice line."""
        return protocol.prompt(state)

    def interpret(self, state: SplitterState, seat: int, text: str) -> Answer:
        """A placement (``n x y`` / ``n x,y``), or Ignore for a line the Tester skips.

        A line whose first field is an integer other than -1 is an answer: InvalidAnswer
        if its cell does not parse, IllegalMove if the rules refuse it.
        """
        p = protocol.parse_line(text)
        if p is None:
            return Ignore()
        error = placement_error(state, p)
        if error is not None:
            raise IllegalMove(error, text)
        dice = current_dice(state)
        assert dice is not None  # placement_error refuses moves once the game is over
        mirror = state.width - 1 - p.x
        message = f"{p.n} at ({p.x},{p.y}), {other_die(dice, p.n)} at ({mirror},{p.y})"
        return Move(p, message)

    def apply(self, state: SplitterState, moves: Mapping[int, Any]) -> SplitterState:
        """Write this round's dice as placed by seat 0 (no move: the state is unchanged)."""
        action = moves.get(0)
        if action is None:
            return state
        if not isinstance(action, Placement):
            raise TypeError(f"splitter: expected a Placement, got {action!r}")
        return place(state, action)

    def eliminate(self, state: SplitterState, seat: int) -> SplitterState:
        """A forfeit ends the game with a score of 0 (the core records why)."""
        return forfeit(state)

    def outcome(self, state: SplitterState) -> Outcome:
        """The single seat ranks 0; its score is the sheet's score (0 after a forfeit)."""
        if state.forfeited:
            reason = f"forfeit in round {state.round + 1}"
        elif state.round >= state.rounds:
            reason = f"{state.rounds} rounds played"
        else:
            reason = "no mirrored pair of free cells left"
        return Outcome((0,), (float(score(state)),), reason)

    def random_answer(self, state: SplitterState, seat: int, rng: random.Random) -> str:
        """A uniformly random legal placement, as ``n x y``."""
        return protocol.format_answer(rng.choice(legal_placements(state)))

    def turn_number(self, state: SplitterState) -> int:
        """Rounds played."""
        return state.round

    def view(self, state: SplitterState) -> dict[str, Any]:
        """Sheet kinds, written values, this round's dice and the score broken down."""
        sheet = score_sheet(state.cells, state.values)
        dice = current_dice(state)
        w = state.width
        return {
            "layout": state.layout,
            "round": state.round,
            "rounds": state.rounds,
            "cells": [list(row) for row in state.cells],
            "values": [list(state.values[y * w : (y + 1) * w]) for y in range(state.height)],
            "dice": list(dice) if dice is not None else None,
            "groups": [
                {
                    "value": g.value,
                    "cells": [list(c) for c in g.cells],
                    "star": g.star,
                    "points": g.points,
                }
                for g in sheet.groups
            ],
            "hearts": sheet.hearts,
            "score": score(state),
            "forfeited": state.forfeited,
        }

    def render(self, state: SplitterState) -> str:
        """The sheet as text: digits written, ``.`` empty, ``*`` star, ``h`` heart, `` `` none."""
        return render_sheet(state)


def render_sheet(state: SplitterState) -> str:
    """Text picture of the sheet with the split line, the round, dice and score."""
    w = state.width
    marks = {NONE: " ", STAR: "*", HEART: "h"}
    half = w // 2
    top = "   " + " ".join(str(x) for x in range(half)) + " | "
    top += " ".join(str(x) for x in range(half, w))
    lines = [top]
    for y in range(state.height):
        cells = []
        for x in range(w):
            v = state.value(x, y)
            cells.append(str(v) if v else marks.get(state.cells[y][x], "."))
        lines.append(f"{y}  " + " ".join(cells[:half]) + " | " + " ".join(cells[half:]))
    sheet = score_sheet(state.cells, state.values)
    dice = current_dice(state)
    status = f"round {state.round}/{state.rounds}"
    status += f"  dice {dice[0]} {dice[1]}" if dice else "  over"
    # Scoring parts, e.g. "3 + 6* + hearts 5" (a star group shows its doubled points).
    parts = [f"{g.points}{'*' if g.star else ''}" for g in sheet.groups if g.points]
    parts += [f"hearts {sheet.hearts}"] if sheet.hearts else []
    status += f"  score {score(state)}" + (f" = {' + '.join(parts)}" if parts else "")
    if state.forfeited:
        status += "  FORFEIT (score 0)"
    return "\n".join([status, *lines]) + "\n"
