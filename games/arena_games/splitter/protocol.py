"""Splitter's text protocol: the prompts the bot reads and the answers it writes.

First prompt: ``W H R``, then H rows of W space-separated cell kinds, then the dice
line ``a b``. Every later prompt is the next dice line only; nothing follows the last
round. Answer ``n x y`` or ``n x,y`` (the seed's ``p n x,y`` form is accepted too);
lines starting with ``#`` are comments.
"""

from __future__ import annotations

import re

from arena import InvalidAnswer
from arena_games.splitter.rules import Placement, SplitterState, current_dice

ANSWER = re.compile(r"(?:[pP]\s*)?([+-]?\d+)\s+([+-]?\d+)(?:\s*,\s*|\s+)([+-]?\d+)")
"""``n x y``, ``n x,y`` or ``p n x,y``, any spacing; surrounding blanks are stripped first."""


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


def is_comment(text: str) -> bool:
    """True for a line the referee skips (it starts with ``#``)."""
    return text.lstrip().startswith("#")


def parse_answer(text: str) -> Placement:
    """Read ``n x y`` / ``n x,y`` / ``p n x,y``; :class:`InvalidAnswer` (with the text) if not."""
    match = ANSWER.fullmatch(text.strip())
    if match is None:
        raise InvalidAnswer("expected 'n x y' or 'n x,y' (die value, then a cell)", text)
    n, x, y = (int(g) for g in match.groups())
    return Placement(n, x, y)


def format_answer(p: Placement) -> str:
    """The canonical answer text for ``p``: ``n x y``."""
    return f"{p.n} {p.x} {p.y}"
