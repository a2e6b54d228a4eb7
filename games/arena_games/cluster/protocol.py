"""The text protocol of 42-cluster: prompts, in-turn ``fetch`` answers, parsing bot lines."""

from __future__ import annotations

from dataclasses import dataclass

from arena import InvalidAnswer
from arena_games.cluster.rules import (
    COLOR_CHOICES,
    EMPTY,
    ChooseColor,
    Drop,
    Rotate,
    Settings,
    State,
)

FETCH_KINDS = ("cells", "gravity", "walls", "chips")


@dataclass(frozen=True)
class Fetch:
    """An in-turn query: ``fetch cells|gravity|walls|chips``."""

    kind: str


def init_line(settings: Settings, seat: int) -> str:
    """``init <colors> <chips_per_color> <grid_size> <win_length> <timeout> <id>``."""
    s = settings
    timeout = repr(float(s.timeout))  # "1.0", "0.5": as the original's example shows
    return f"init {s.colors} {s.chips_per_color} {s.grid_size} {s.win_length} {timeout} {seat}\n"


def turn_prompt(state: State) -> str:
    """The opponent's last action (absent before player 0's first turn), then ``chips a b``."""
    a, b = state.drawn
    echo = f"{state.last_action}\n" if state.last_action else ""
    return f"{echo}chips {a} {b}\n"


def fetch_reply(state: State, kind: str) -> str:
    """The answer to ``fetch <kind>``; cells are listed sorted by q, then r."""
    cells = state.grid.cells
    if kind == "gravity":
        return f"gravity {state.gravity}\n"
    if kind == "walls":
        walls = sorted(state.walls)
        return f"wall_count {len(walls)}\n" + "".join(
            "wall {} {} {}\n".format(*cells[i]) for i in walls
        )
    # "cells": every cell; "chips": only the occupied ones
    listed = [i for i, chip in enumerate(state.board) if kind == "cells" or chip != EMPTY]
    return f"cell_count {len(listed)}\n" + "".join(
        "cell {} {} {} {}\n".format(*cells[i], state.board[i]) for i in listed
    )


def _ints(words: list[str], count: int, raw: str) -> list[int]:
    """Exactly ``count`` integer arguments, or :class:`InvalidAnswer`."""
    if len(words) != count:
        raise InvalidAnswer(f"expected {count} integer argument(s)", raw)
    try:
        return [int(w) for w in words]
    except ValueError:
        raise InvalidAnswer("arguments must be integers", raw) from None


def parse_color(raw: str) -> ChooseColor:
    """Parse the answer to ``init``: ``color N`` with N one of 0, 1, 3, 4, 5."""
    words = raw.split()
    if not words or words[0] != "color":
        raise InvalidAnswer("expected 'color N' after init", raw)
    (color,) = _ints(words[1:], 1, raw)
    if color not in COLOR_CHOICES:
        raise InvalidAnswer(f"color must be one of {', '.join(map(str, COLOR_CHOICES))}", raw)
    return ChooseColor(color)


def parse_turn(raw: str) -> Drop | Rotate | Fetch:
    """Parse one line of a turn: ``fetch <kind>``, ``drop <pos> <chip>`` or ``rotate <g>``."""
    words = raw.split()
    if not words:
        raise InvalidAnswer("empty line", raw)
    command, args = words[0], words[1:]
    if command == "fetch":
        if len(args) != 1 or args[0] not in FETCH_KINDS:
            raise InvalidAnswer(f"fetch needs one of {', '.join(FETCH_KINDS)}", raw)
        return Fetch(args[0])
    if command == "drop":
        pos, chip = _ints(args, 2, raw)
        return Drop(pos, chip)
    if command == "rotate":
        (gravity,) = _ints(args, 1, raw)
        return Rotate(gravity)
    raise InvalidAnswer("expected 'drop <pos> <chip>', 'rotate <gravity>' or 'fetch <what>'", raw)
