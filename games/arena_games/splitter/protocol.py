"""Splitter's text protocol: the prompts the bot reads and the answers it writes.

First prompt: ``W H R``, then H rows of W space-separated cell kinds, then the dice
line ``a b``. Every later prompt is the next dice line only; nothing follows the last
round. Answer ``n x y`` or ``n x,y``; lines that are not an answer are skipped, as the
original Tester skips them.
"""

from __future__ import annotations

import re

from arena_games.splitter.rules import Placement, SplitterState, current_dice

FIELD_SEPARATOR = re.compile("[ ,]")
"""The Tester splits a line on every space and every comma (empty fields kept)."""
DOTNET_INT = re.compile(r"[\t\n\x0b\f\r ]*[+-]?[0-9]+[\t\n\x0b\f\r ]*")
"""A field .NET's ``int.TryParse`` reads: optional blanks, an optional sign, ASCII digits."""
INT32 = range(-(2**31), 2**31)


def header(state: SplitterState) -> str:
    """The first lines of a game: ``W H R`` and the sheet, row by row."""
    rows = "".join(" ".join(str(k) for k in row) + "\n" for row in state.cells)
    return f"{state.width} {state.height} {state.rounds}\n{rows}"


def prompt(state: SplitterState) -> str:
    """What the bot reads before answering this round (the header too in round 0)."""
    dice = current_dice(state)
    if dice is None:
        return ""
    line = f"{dice[0]} {dice[1]}\n"
    return header(state) + line if state.round == 0 else line


def _integer(field: str) -> int | None:
    """The field as .NET's ``int.TryParse`` reads it, or None."""
    if not DOTNET_INT.fullmatch(field):
        return None
    value = int(field.strip(" \t\n\x0b\f\r"))
    return value if value in INT32 else None


def parse_line(text: str) -> Placement | None:
    """The answer on a line, or None for a line the original Tester skips.

    A line is an answer when its first three fields, split on every space and comma, are
    integers ``n x y``; further fields are ignored (``4 2 1 extra``, ``4,2,1``). An empty
    line, ``# note``, ``Placing 4`` and `` 4 2 1`` (a leading space: an empty first
    field) are not answers.
    """
    fields = FIELD_SEPARATOR.split(text)[:3]
    numbers = [_integer(field) for field in fields]
    if len(numbers) < 3 or None in numbers:
        return None
    n, x, y = (v for v in numbers if v is not None)
    return Placement(n, x, y)


def format_answer(p: Placement) -> str:
    """The canonical answer text for ``p``: ``n x y``."""
    return f"{p.n} {p.x} {p.y}"
