"""Smash The Code's text protocol: the 34-line turn input, the ``x [rotation] [message]`` answer."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from arena import InvalidAnswer
from arena_games.stc.rules import HEIGHT, ROTATIONS, WIDTH, Action, Grid, StcState

MESSAGE_CHARS = 40  # the longest message kept
_CELLS = set(".012345")
_TOP_DOWN = range(HEIGHT - 1, -1, -1)


@lru_cache(maxsize=256)
def grid_rows(grid: Grid) -> tuple[str, ...]:
    """The 12 rows of a grid, top to bottom, ``.`` for an empty cell."""
    # The bottom-up columns, each padded to 12 cells, one after the other: the cells at
    # height y are every 12th character from y on.
    cells = "".join([col.ljust(HEIGHT, ".") for col in grid])
    return tuple([cells[y::HEIGHT] for y in _TOP_DOWN])


def grid_from_rows(rows: Sequence[str]) -> Grid:
    """The grid drawn by ``rows`` (top to bottom, at most 12, the last one the floor).

    The inverse of :func:`grid_rows`; a block floating above an empty cell is refused.
    """
    if len(rows) > HEIGHT or any(len(row) != WIDTH or set(row) - _CELLS for row in rows):
        raise ValueError(f"not a 6-wide grid of at most 12 rows of '.012345': {rows!r}")
    cols = []
    for x in range(WIDTH):
        col = "".join(row[x] for row in reversed(rows)).rstrip(".")
        if "." in col:
            raise ValueError(f"column {x} has a block above an empty cell: {rows!r}")
        cols.append(col)
    return tuple(cols)


@lru_cache(maxsize=256)
def grid_text(grid: Grid) -> str:
    """The 12 rows of a grid as prompt lines, each ending in a newline."""
    return "\n".join(grid_rows(grid)) + "\n"


_PAIR_LINES = {(a, b): f"{a} {b}\n" for a in range(1, 6) for b in range(1, 6)}
"""The prompt line of each pair of colours (1 to 5)."""


def pairs_text(pairs: tuple[tuple[int, int], ...]) -> str:
    """The pair lines of a prompt: ``colorA colorB`` each."""
    return "".join(map(_PAIR_LINES.__getitem__, pairs))


def build_prompt(state: StcState, seat: int) -> str:
    """One turn's input for ``seat``: 8 pairs, own score and grid, opponent's score and grid."""
    other = 1 - seat
    return "".join(
        (
            pairs_text(state.pairs[state.turn : state.turn + 8]),
            f"{state.scores[seat]}\n",
            grid_text(state.grids[seat]),
            f"{state.scores[other]}\n",
            grid_text(state.grids[other]),
        )
    )


@dataclass(frozen=True)
class ParsedAnswer:
    """A parsed answer: where to drop the pair and the message to show in replays."""

    action: Action
    message: str


# CodinGame's own answer pattern, ``(-?\d{1,8})(?:\s+([0123]))?\s*(?:\s+(.+))?``, matched
# with Java's ``Matcher.matches()``: Java's \s and \d are ASCII-only by default and its
# ``.`` stops at any line terminator (\n, \r, U+0085, U+2028, U+2029), so each is spelt
# out. Python's backtracking tries the alternatives in the same order as Java's, so the
# same groups come out (``2 01``: rotation 3, message ``01``).
_S = r"[ \t\n\x0b\f\r]"
_DOT = r"[^\n\r\u0085\u2028\u2029]"
ANSWER = re.compile(rf"(-?[0-9]{{1,8}})(?:{_S}+([0123]))?{_S}*(?:{_S}+({_DOT}+))?")


def parse_answer(text: str) -> ParsedAnswer:
    """Read ``x [rotation] [message]`` as CodinGame's referee does; else :class:`InvalidAnswer`.

    The whole line (one trailing ``\r`` removed) must match :data:`ANSWER`: the column x,
    an optional rotation 0-3 (left out: 3), an optional message (first 40 characters
    kept). ``2 4`` is column 2, rotation 3, message ``4``. Both blocks must land in
    columns 0-5.
    """
    line = text[:-1] if text.endswith("\r") else text
    match = ANSWER.fullmatch(line)
    if match is None:
        raise InvalidAnswer("expected 'x [rotation] [message]'", text)
    x = int(match.group(1))
    rotation = 3 if match.group(2) is None else int(match.group(2))
    if not 0 <= x < WIDTH:
        raise InvalidAnswer(f"column {x} is outside 0-5", text)
    if not 0 <= x + ROTATIONS[rotation][0] < WIDTH:
        raise InvalidAnswer(f"rotation {rotation} puts the second block outside 0-5", text)
    return ParsedAnswer((x, rotation), (match.group(3) or "")[:MESSAGE_CHARS])
