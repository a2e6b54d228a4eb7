"""Smash The Code's text protocol: the 34-line turn input, the ``x [rotation] [message]`` answer."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from arena import InvalidAnswer
from arena_games.stc.rules import HEIGHT, ROTATIONS, WIDTH, Action, Grid, StcState

MESSAGE_CHARS = 40  # the longest message kept
_PAD = "." * HEIGHT
_NUMBER_START = re.compile(r"[+-]?[0-9]")
_DIGITS = re.compile(r"[0-9]+")
_CELLS = set(".012345")


@lru_cache(maxsize=256)
def grid_rows(grid: Grid) -> tuple[str, ...]:
    """The 12 rows of a grid, top to bottom, ``.`` for an empty cell."""
    # Pad each bottom-up column to 12 cells and reverse it, then read across the columns.
    tops = [(col + _PAD)[HEIGHT - 1 :: -1] for col in grid]
    return tuple(map("".join, zip(*tops, strict=False)))


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


@lru_cache(maxsize=512)
def pairs_text(pairs: tuple[tuple[int, int], ...]) -> str:
    """The pair lines of a prompt: ``colorA colorB`` each."""
    return "".join(f"{a} {b}\n" for a, b in pairs)


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


def parse_answer(text: str) -> ParsedAnswer:
    """Read ``x [rotation] [message]``; raise :class:`InvalidAnswer` for anything else.

    ``x`` is 0-5; a rotation 0-3 may follow (left out: 3); any further text, or text
    after ``x`` that does not start like a number, is the message (first 40 characters
    kept). Both blocks must land in columns 0-5.
    """
    parts = text.split(maxsplit=2)
    if not parts or not _DIGITS.fullmatch(parts[0]) or int(parts[0]) >= WIDTH:
        raise InvalidAnswer("expected 'x [rotation] [message]' with x in 0-5", text)
    x = int(parts[0])
    rotation = 3
    if len(parts) > 1 and _NUMBER_START.match(parts[1]):
        if not _DIGITS.fullmatch(parts[1]) or int(parts[1]) >= len(ROTATIONS):
            raise InvalidAnswer("rotation must be 0, 1, 2 or 3", text)
        rotation = int(parts[1])
        message = parts[2] if len(parts) > 2 else ""
    else:
        message = text.split(maxsplit=1)[1] if len(parts) > 1 else ""
    if not 0 <= x + ROTATIONS[rotation][0] < WIDTH:
        raise InvalidAnswer(f"rotation {rotation} puts the second block outside 0-5", text)
    return ParsedAnswer((x, rotation), message.strip()[:MESSAGE_CHARS])
