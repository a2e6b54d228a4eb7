"""Pure rules of Blocking: placing pieces, whose turn it is, drop-outs, forfeits, scores.

The board is one bitmask per seat (bit ``y * 13 + x``). A new piece must lie on free
cells, never touch a piece of its own colour along a side, and touch one at a corner; a
seat's first piece covers its corner instead. States are immutable: every function that
changes the game returns a new :class:`State`.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, replace

from arena_games.blocking.shapes import (
    ALWAYS,
    OPTIONAL,
    SIZE,
    Placement,
    cells_of,
    covered,
    mask_of,
    oriented,
    placements_through,
    unique_codes,
)

CORNERS = ((0, 0), (SIZE - 1, SIZE - 1), (0, SIZE - 1), (SIZE - 1, 0))
OPTIONAL_COUNT = {2: 14, 3: 9, 4: 6}
FIRST_SHAPES_3P = ALWAYS  # players 0 and 1 of a 3-player game open with one of these

FULL = (1 << (SIZE * SIZE)) - 1
COL_FIRST = sum(1 << (y * SIZE) for y in range(SIZE))
NOT_FIRST = FULL & ~COL_FIRST


def bit(x: int, y: int) -> int:
    """The bitmask of cell (x, y)."""
    return 1 << (y * SIZE + x)


def side_neighbours(mask: int) -> int:
    """Cells sharing a side with a cell of ``mask`` (may include ``mask`` itself)."""
    return (
        ((mask << 1) & NOT_FIRST)
        | ((mask & NOT_FIRST) >> 1)
        | ((mask << SIZE) & FULL)
        | (mask >> SIZE)
    )


def corner_neighbours(mask: int) -> int:
    """Cells sharing only a corner with some cell of ``mask`` (may include ``mask`` cells)."""
    right = (mask << 1) & NOT_FIRST
    left = (mask & NOT_FIRST) >> 1
    both = right | left
    return ((both << SIZE) & FULL) | (both >> SIZE)


@dataclass(frozen=True)
class Action:
    """A seat's answer as played: square ``square`` of ``letter``/``code`` at (x, y)."""

    x: int
    y: int
    letter: str
    code: str
    square: int
    placement: Placement

    def text(self) -> str:
        """The answer written back in normal form: ``x y Lfrk``."""
        return f"{self.x} {self.y} {self.letter}{self.code}{self.square}"


@dataclass(frozen=True)
class Played:
    """One move of the game's history, for the `moves made by others` input."""

    seat: int
    action: Action


@dataclass(frozen=True)
class State:
    """A Blocking position.

    ``owned[s]`` is seat s's bitmask; ``remaining[s]`` the letters it may still play;
    ``out[s]`` marks a seat that had no valid move on its turn; ``forfeited[s]`` one the
    core eliminated; ``current`` the seat to act (None when the game is over);
    ``seen[s]`` the length of ``history`` right after seat s last played.
    """

    players: int
    letters: str
    owned: tuple[int, ...]
    remaining: tuple[str, ...]
    out: tuple[bool, ...]
    forfeited: tuple[bool, ...]
    current: int | None
    history: tuple[Played, ...]
    seen: tuple[int, ...]

    @property
    def occupied(self) -> int:
        """Every covered cell."""
        total = 0
        for mask in self.owned:
            total |= mask
        return total


def draw_letters(seed: int, players: int) -> str:
    """The shapes in play: A-D plus 14/9/6 of E-U drawn by ``random.Random(seed)``."""
    rng = random.Random(seed)
    chosen = rng.sample(OPTIONAL, OPTIONAL_COUNT[players])
    return ALWAYS + "".join(sorted(chosen))


def new_game(seed: int, players: int) -> State:
    """The empty board for ``players`` seats (2-4); seat 0 moves first."""
    if players not in OPTIONAL_COUNT:
        raise ValueError(f"blocking needs 2-4 players, not {players}")
    letters = draw_letters(seed, players)
    return State(
        players=players,
        letters=letters,
        owned=(0,) * players,
        remaining=(letters,) * players,
        out=(False,) * players,
        forfeited=(False,) * players,
        current=0,
        history=(),
        seen=(0,) * players,
    )


def allowed_letters(state: State, seat: int) -> str:
    """Letters the seat may play now (its first move of a 3-player game is limited to A-D)."""
    letters = state.remaining[seat]
    if state.players == 3 and seat in (0, 1) and not state.owned[seat]:
        letters = "".join(ch for ch in letters if ch in FIRST_SHAPES_3P)
    return letters


def forbidden(state: State, seat: int) -> int:
    """Cells a new piece of ``seat`` may not cover: occupied or side-adjacent to its own."""
    return state.occupied | side_neighbours(state.owned[seat])


def anchors(state: State, seat: int) -> int:
    """Cells a new piece of ``seat`` must cover one of: its corner first, then diagonal cells."""
    own = state.owned[seat]
    if not own:
        return bit(*CORNERS[seat]) & ~state.occupied
    return corner_neighbours(own) & ~forbidden(state, seat)


def _candidates(state: State, seat: int) -> tuple[int, str, int]:
    return anchors(state, seat), allowed_letters(state, seat), forbidden(state, seat)


def legal_moves(state: State, seat: int) -> list[Placement]:
    """Every valid move of ``seat``, one per distinct set of covered cells, in listing order.

    Each is in its listed form (square 1 of the smallest orientation code), sorted by
    letter, code, y, x.
    """
    found = {placement.mask: placement for placement in _placements(state, seat)}
    return sorted(found.values(), key=lambda p: (p.letter, p.code, p.y, p.x))


def has_move(state: State, seat: int) -> bool:
    """Whether ``seat`` has at least one valid move (stops at the first found)."""
    return next(_placements(state, seat), None) is not None


def _placements(state: State, seat: int) -> Iterator[Placement]:
    """Every valid placement for ``seat`` (a cell set may come more than once)."""
    spots, letters, blocked = _candidates(state, seat)
    table = placements_through()
    while spots:
        low = spots & -spots
        spots ^= low
        by_letter = table[low.bit_length() - 1]
        for letter in letters:
            for placement in by_letter.get(letter, ()):
                if not placement.mask & blocked:
                    yield placement


def listed_form(letter: str, cells: tuple[tuple[int, int], ...], mask: int) -> Placement:
    """The listed form of ``letter`` covering ``cells``: smallest code, square 1's position."""
    min_x = min(x for x, _ in cells)
    min_y = min(y for _, y in cells)
    picture = frozenset((x - min_x, y - min_y) for x, y in cells)
    code = next(c for c in unique_codes(letter) if covered(letter, c) == picture)
    x1, y1 = oriented(letter, code).cells[0]
    return Placement(letter, code, min_x + x1, min_y + y1, mask)


def check_move(
    state: State, seat: int, x: int, y: int, letter: str, code: str, square: int
) -> Action | str:
    """The :class:`Action` for square ``square`` of ``letter``/``code`` at (x, y), or why not.

    Returns a string naming the broken rule when the move is not valid for ``seat`` now.
    ``letter`` must be A-U, ``code`` a valid `fr` and ``square`` within the shape.
    """
    if letter not in state.letters:
        return f"shape {letter} is not in play (in play: {state.letters})"
    if letter not in state.remaining[seat]:
        return f"shape {letter} was already played"
    if letter not in allowed_letters(state, seat):
        return f"the first shape of players 0 and 1 in a 3-player game must be one of {ALWAYS}"
    cells = cells_of(letter, code, square, x, y)
    mask = mask_of(cells)
    if mask is None:
        return "the shape goes off the board"
    if mask & state.occupied:
        return "the shape covers an occupied cell"
    own = state.owned[seat]
    if own:
        if mask & side_neighbours(own):
            return "the shape touches a piece of its own colour along a side"
        if not mask & corner_neighbours(own):
            return "the shape touches no piece of its own colour at a corner"
    elif not mask & bit(*CORNERS[seat]):
        cx, cy = CORNERS[seat]
        return f"the first shape must cover the corner {cx} {cy}"
    return Action(x, y, letter, code, square, listed_form(letter, cells, mask))


def _advance(state: State, after: int) -> State:
    """Pass the turn to the next seat after ``after`` that can move; drop out those that can't."""
    if sum(not f for f in state.forfeited) < 2:
        return replace(state, current=None)  # every rank is already decided
    out = list(state.out)
    for step in range(1, state.players + 1):
        seat = (after + step) % state.players
        if out[seat] or state.forfeited[seat]:
            continue
        if has_move(replace(state, out=tuple(out)), seat):
            return replace(state, out=tuple(out), current=seat)
        out[seat] = True
    return replace(state, out=tuple(out), current=None)


def play(state: State, seat: int, action: Action) -> State:
    """The state after ``seat`` (the seat to act) played ``action`` (already checked)."""
    if state.current != seat:
        raise ValueError(f"seat {seat} is not to act (seat {state.current} is)")
    owned = list(state.owned)
    owned[seat] |= action.placement.mask
    remaining = list(state.remaining)
    remaining[seat] = remaining[seat].replace(action.letter, "")
    history = (*state.history, Played(seat, action))
    seen = list(state.seen)
    seen[seat] = len(history)
    moved = replace(
        state,
        owned=tuple(owned),
        remaining=tuple(remaining),
        history=history,
        seen=tuple(seen),
    )
    return _advance(moved, seat)


def forfeit(state: State, seat: int) -> State:
    """The state after ``seat`` forfeited: it never plays again and ranks last."""
    forfeited = list(state.forfeited)
    forfeited[seat] = True
    state = replace(state, forfeited=tuple(forfeited))
    if state.current is None:
        return state
    if state.current == seat:
        return _advance(state, seat)
    if sum(not f for f in state.forfeited) < 2:
        return replace(state, current=None)  # the one seat left has won
    return state


def scores(state: State) -> tuple[int, ...]:
    """Squares covered by each seat."""
    return tuple(mask.bit_count() for mask in state.owned)


def ranks(state: State) -> tuple[int, ...]:
    """Places (0 first): seats that did not forfeit by score, equal scores sharing a place;
    forfeited seats after all of them, tied among themselves."""
    points = scores(state)
    standing = [s for s in range(state.players) if not state.forfeited[s]]
    result = []
    for seat in range(state.players):
        if state.forfeited[seat]:
            result.append(len(standing))
        else:
            result.append(sum(1 for other in standing if points[other] > points[seat]))
    return tuple(result)


def others_moves(state: State, seat: int) -> tuple[Played, ...]:
    """Moves made by the other seats since ``seat`` last played, in play order."""
    return state.history[state.seen[seat] :]
