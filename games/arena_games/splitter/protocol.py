"""Splitter's text protocol: the prompts the bot reads and the answers it writes.

First prompt: ``W H R``, then H rows of W space-separated cell kinds, then the dice
line ``a b``. Every later prompt is the next dice line only; nothing follows the last
round. Answer ``n x y`` or ``n x,y``. A line is read as the original Tester reads it
(Source/Tester/Program.cs of Lucrasoft/Splitter): commas become spaces, the line is cut
at every single space (.NET's ``Split(" ")``), a first field that is not an integer or
is ``-1`` skips the line, and any other first field makes the line an answer whose
second and third fields must be integers.
"""

from __future__ import annotations

import re

from arena import InvalidAnswer
from arena_games.splitter.rules import Placement, SplitterState, current_dice

DOTNET_INT = re.compile(r"[\t\n\x0b\f\r ]*([+-]?[0-9]+)[\t\n\x0b\f\r ]*\x00*")
"""A field .NET's ``int.Parse`` / ``int.TryParse`` reads (``NumberStyles.Integer``):
blanks (U+0009-U+000D, space), an optional sign, ASCII digits, blanks, then any number of
NUL characters (which .NET ignores at the end of a number)."""
INT32 = range(-(2**31), 2**31)
SKIP_CHOICE = -1
"""The Tester's stand-in for "not a number": a first field of ``-1`` is skipped too."""


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


def dotnet_int(field: str) -> int | None:
    """The field as .NET's ``int.TryParse`` reads it (invariant signs), or None."""
    match = DOTNET_INT.fullmatch(field)
    if match is None:
        return None
    value = int(match.group(1))
    return value if value in INT32 else None


def parse_line(text: str) -> Placement | None:
    """The answer on a line, None for a line the Tester skips; InvalidAnswer if it dies on it.

    As the Tester: every comma becomes a space and the line is split at each single
    space (two spaces make an empty field, tabs do not split). If the first field is not
    an integer, or is ``-1``, the line is skipped (`` 4 2 1``, ``# note``, ``-1 0 0``).
    Otherwise the line is an answer ``n x y``: its second and third fields must be
    integers (further fields are ignored), else the Tester crashes (``int.Parse`` or a
    missing field) and arena raises :class:`InvalidAnswer` (``4  2 1``, ``4 x y``, ``4``).
    """
    fields = text.replace(",", " ").split(" ")
    n = dotnet_int(fields[0])
    if n is None or n == SKIP_CHOICE:
        return None
    if len(fields) < 3:
        raise InvalidAnswer(f"answer {n} needs a cell: 'n x y'", text)
    x, y = dotnet_int(fields[1]), dotnet_int(fields[2])
    if x is None or y is None:
        raise InvalidAnswer("x and y must be 32-bit integers, one space apart: 'n x y'", text)
    return Placement(n, x, y)


def format_answer(p: Placement) -> str:
    """The canonical answer text for ``p``: ``n x y``."""
    return f"{p.n} {p.x} {p.y}"
