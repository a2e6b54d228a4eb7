"""The text protocol of 42-cluster: prompts, in-turn ``fetch`` answers, parsing bot commands.

Bots are read as whitespace-separated words (``GameInfo.framing = "tokens"``), as the
original referee reads them with ``scanf``: a command may span lines, several may share one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from arena import InvalidAnswer
from arena_games.cluster.rules import (
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


@dataclass(frozen=True)
class Trailing:
    """A command whose last number has characters right after it (``drop 0 2x``).

    C's ``%d`` reads ``2`` and stops: the original plays ``command`` and leaves ``rest`` in
    the stream, read as the start of the bot's next command (on its next turn).
    """

    command: ChooseColor | Drop | Rotate
    rest: str


def init_line(settings: Settings, seat: int) -> str:
    """``init <colors> <chips_per_color> <grid_size> <win_length> <timeout> <id>``.

    The timeout is written as C's ``%f`` writes it (``1.000000``), as the original does.
    """
    s = settings
    timeout = f"{float(s.timeout):f}"
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


INTEGER = re.compile(r"[+-]?[0-9]+")
"""What C's ``%d`` reads: an optional sign and decimal digits (it stops at anything else)."""
LONG_MIN, LONG_MAX = -(1 << 63), (1 << 63) - 1


def c_int(digits: str) -> int:
    """The ``int`` glibc's ``%d`` stores for ``digits`` (a sign and decimal digits): read
    as a 64-bit ``long``, saturating at its range, then its low 32 bits as a signed
    ``int``. ``4294967296`` is 0, ``2147483648`` is -2147483648, ``99999999999999999999``
    is -1 (the ruling "Numbers beyond 32 bits", checked against the original)."""
    value = min(max(int(digits), LONG_MIN), LONG_MAX) & 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


ARGUMENTS = {"color": 1, "fetch": 1, "drop": 2, "rotate": 1}
"""How many words follow each command."""
COMMANDS = {"color": ("color", "fetch"), "play": ("fetch", "drop", "rotate")}
"""The commands a bot may send in each phase (``fetch`` is answered before ``color`` too)."""


Command = ChooseColor | Drop | Rotate | Fetch


def parse_command(raw: str, phase: str, leftover: str = "") -> Command | Trailing | None:
    """Read one command from its words so far, as the original's ``scanf`` does.

    Returns None while words are missing (``drop 3`` before its chip); raises
    :class:`InvalidAnswer` as soon as a word cannot be right (an unknown command, a
    number that is not an integer, an unknown ``fetch`` target) or when words follow a
    whole command. ``color`` takes any integer, as the original does. The last number may
    have characters right after it (``drop 0 2x``), which ``%d`` leaves unread: the command
    comes back as :class:`Trailing`. ``leftover``, what the seat's previous command left
    unread, is read first, as the start of this command.
    """
    if leftover:
        if leftover not in COMMANDS["color" if phase == "color" else "play"]:
            raise InvalidAnswer(
                "the characters after the last number of the previous command are "
                "read as this command, and are none",
                leftover,
            )
        raw = f"{leftover} {raw}"
    words = raw.split()
    if not words:
        raise InvalidAnswer("empty command", raw)
    command, args = words[0], words[1:]
    allowed = COMMANDS["color" if phase == "color" else "play"]
    if command not in allowed:
        if phase == "color":
            raise InvalidAnswer("expected 'color N' (or 'fetch <what>') after init", raw)
        raise InvalidAnswer(
            "expected 'drop <pos> <chip>', 'rotate <gravity>' or 'fetch <what>'", raw
        )
    last = ARGUMENTS[command] - 1
    if command == "fetch":
        if args and args[0] not in FETCH_KINDS:
            raise InvalidAnswer(f"fetch needs one of {', '.join(FETCH_KINDS)}", raw)
    # Every number but the last must be whole (the next %d would fail on what follows it);
    # the last only has to start with one.
    elif any(
        not (INTEGER.match(word) if i == last else INTEGER.fullmatch(word))
        for i, word in enumerate(args)
    ):
        raise InvalidAnswer("arguments must be integers", raw)
    if len(args) <= last:
        return None
    if len(args) > last + 1:
        raise InvalidAnswer(f"'{command}' takes {last + 1} argument(s)", raw)
    if command == "fetch":
        return Fetch(args[0])
    final = INTEGER.match(args[last])
    assert final is not None  # checked above
    rest = args[last][final.end() :]
    numbers = [c_int(word) for word in args[:last]] + [c_int(final.group())]
    parsed: ChooseColor | Drop | Rotate
    if command == "color":
        parsed = ChooseColor(numbers[0])
    elif command == "drop":
        parsed = Drop(numbers[0], numbers[1])
    else:
        parsed = Rotate(numbers[0])
    return Trailing(parsed, rest) if rest else parsed
