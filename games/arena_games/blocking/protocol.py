"""The text bots read and write: init input, turn input, and the `x y Lfrk` answer."""

from __future__ import annotations

from dataclasses import dataclass

from arena import InvalidAnswer
from arena_games.blocking.rules import State, anchors, legal_moves, others_moves
from arena_games.blocking.shapes import BASE, CODES, LETTERS, SIZE, Placement, oriented


@dataclass(frozen=True)
class Answer:
    """A parsed answer: put square ``square`` of ``letter`` in orientation ``code`` at (x, y)."""

    x: int
    y: int
    letter: str
    code: str
    square: int


def init_text(state: State, seat: int) -> str:
    """The initial input: shapes in play, player count, own id, board size, letters."""
    lines = [str(len(state.letters))]
    for letter in state.letters:
        rows = BASE[letter]
        lines.append(f"{letter} {len(rows[0])} {len(rows)} {''.join(rows)}")
    lines += [str(state.players), str(seat), str(SIZE), state.letters]
    return "".join(line + "\n" for line in lines)


def board_rows(state: State, reachable: int) -> list[str]:
    """The 13 board rows: owner digit, `x` for a free cell in ``reachable``, else `.`."""
    rows = []
    for y in range(SIZE):
        row = []
        for x in range(SIZE):
            cell = 1 << (y * SIZE + x)
            owner = next((str(s) for s, mask in enumerate(state.owned) if mask & cell), None)
            row.append(owner or ("x" if reachable & cell else "."))
        rows.append("".join(row))
    return rows


def turn_text(state: State, seat: int, moves: list[Placement] | None = None) -> str:
    """One turn's input for ``seat``: board, others' moves since its last turn, valid moves.

    `x` marks the free cells "well connected" for the seat: touching one of its squares at
    a corner and none along a side, or its start corner before its first move.
    """
    if moves is None:
        moves = legal_moves(state, seat)
    lines = board_rows(state, anchors(state, seat))
    played = others_moves(state, seat)
    lines.append(str(len(played)))
    lines += [f"{p.seat} {p.action.text()}" for p in played]
    lines.append(str(len(moves)))
    lines += [p.text() for p in moves]
    return "".join(line + "\n" for line in lines)


def parse_answer(text: str) -> Answer:
    """Parse ``x y Lfrk``; raise :class:`InvalidAnswer` (with the raw text) if malformed."""
    parts = text.split()
    if len(parts) != 3:
        raise InvalidAnswer("expected 'x y Lfrk' (e.g. '0 0 A001')", text)
    sx, sy, shape = parts
    # isdecimal, not isdigit: "²" is a digit int() refuses; "٣" is 3, as Java reads it.
    if not (sx.isdecimal() and sy.isdecimal()):
        raise InvalidAnswer("x and y must be whole numbers", text)
    x, y = int(sx), int(sy)
    if not (0 <= x < SIZE and 0 <= y < SIZE):
        raise InvalidAnswer(f"x and y must be within 0..{SIZE - 1}", text)
    if len(shape) != 4 or shape[0] not in LETTERS or shape[1:3] not in CODES:
        raise InvalidAnswer("the shape must be a letter A-U, f in 0-1, r in 0-3, square k", text)
    letter, code = shape[0], shape[1:3]
    size = len(oriented(letter, code).cells)
    if not ("1" <= shape[3] <= str(size)):
        raise InvalidAnswer(f"shape {letter} has squares 1..{size}", text)
    return Answer(x, y, letter, code, int(shape[3]))
