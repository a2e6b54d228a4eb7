"""Splitter rules: the two sheets, the dice, mirrored placement and scoring.

Pure rules: no I/O, no clocks; the dice of every round are drawn when the game starts,
as the original Tester draws them (.NET's ``new Random(seed).Next(1, 7)``, two a round),
and kept in the state, so every player of the same seed sees the same dice whatever it
answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from arena_games.splitter.dotnet_random import DotNetRandom, to_int32

NONE, EMPTY, STAR, HEART = 0, 1, 2, 3
"""Cell kinds of a sheet, as the protocol sends them (0 not fillable, 1 empty, 2 star, 3 heart)."""

HEART_BONUS = 5
"""Points for all heart cells holding the same value."""

Grid = tuple[tuple[int, ...], ...]

LAYOUTS: dict[int, Grid] = {
    1: (
        (0, 0, 1, 1, 1, 1, 0, 0),
        (0, 1, 1, 1, 1, 1, 1, 0),
        (1, 1, 1, 1, 1, 1, 1, 1),
        (2, 1, 1, 1, 1, 1, 1, 2),
        (1, 1, 1, 1, 1, 1, 1, 1),
        (0, 1, 1, 1, 1, 1, 1, 0),
        (0, 0, 1, 1, 1, 1, 0, 0),
    ),
    2: (
        (1, 1, 1, 0, 0, 1, 3, 1),
        (1, 1, 1, 1, 1, 1, 1, 1),
        (0, 3, 1, 1, 1, 1, 1, 0),
        (0, 1, 1, 0, 0, 1, 1, 0),
        (0, 1, 1, 1, 3, 1, 1, 0),
        (1, 1, 1, 1, 1, 1, 1, 1),
        (1, 2, 1, 0, 0, 1, 2, 1),
    ),
}
"""The original sheets, rows top to bottom: layout 1 has two stars, layout 2 stars and hearts."""


@dataclass(frozen=True)
class Placement:
    """One round's answer: die value ``n`` at (x, y) and the other die at (W-1-x, y)."""

    n: int
    x: int
    y: int


@dataclass(frozen=True)
class Group:
    """An orthogonally connected set of equal values and the points it scores."""

    value: int
    cells: tuple[tuple[int, int], ...]
    star: bool
    points: int


@dataclass(frozen=True)
class Score:
    """A sheet's score: every group, the heart bonus and the total."""

    groups: tuple[Group, ...]
    hearts: int
    total: int


@dataclass(frozen=True)
class SplitterState:
    """A game in progress: the sheet, the values written (0 = empty), all dice, rounds played.

    ``values`` is row-major (index ``y * width + x``). ``dice[i]`` is round i's roll.
    ``forfeited`` ends the game with a score of 0.
    """

    layout: int
    cells: Grid
    values: tuple[int, ...]
    dice: tuple[tuple[int, int], ...]
    round: int = 0
    forfeited: bool = False

    @property
    def width(self) -> int:
        """Columns of the sheet."""
        return len(self.cells[0])

    @property
    def height(self) -> int:
        """Rows of the sheet."""
        return len(self.cells)

    @property
    def rounds(self) -> int:
        """Rounds of a full game: one per mirrored pair of fillable cells."""
        return len(self.dice)

    def value(self, x: int, y: int) -> int:
        """The value written at (x, y), 0 if empty."""
        return self.values[y * self.width + x]


def fillable_count(cells: Grid) -> int:
    """Number of cells a value can be written in."""
    return sum(1 for row in cells for kind in row if kind != NONE)


def custom_hash(text: str) -> int:
    """The Tester's ``CustomHash``: the Int32 seed its ``--seed text`` gives its first game.

    The Tester seeds game i (from 0) with ``new Random(CustomHash(text) + i)``, where
    ``CustomHash`` is ``hash = hash * 31 + c`` over the UTF-16 code units of ``text``
    in C#'s wrapping 32-bit arithmetic; ``--seed 1`` gives 49, ``--seed 42`` 1662.
    """
    data = text.encode("utf-16-le")
    h = 0
    for i in range(0, len(data), 2):
        h = to_int32(h * 31 + int.from_bytes(data[i : i + 2], "little"))
    return h


def roll_dice(seed: int, rounds: int) -> tuple[tuple[int, int], ...]:
    """The Tester's dice of a game seeded ``seed``: ``(Next(1, 7), Next(1, 7))`` a round.

    The Tester rolls round 0 when the game is created and each later round after an
    answer, all from one ``new Random(seed)`` and nothing else, so the rolls do not
    depend on the answers. ``seed`` is wrapped to 32 bits (C#'s unchecked ``int``).
    """
    rng = DotNetRandom(to_int32(seed))
    # A tuple's items are evaluated left to right: the first die is drawn first.
    return tuple((rng.next(1, 7), rng.next(1, 7)) for _ in range(rounds))


def new_game(seed: int, layout: int) -> SplitterState:
    """A fresh game on sheet ``layout`` (1 or 2) with the Tester's dice for ``seed``."""
    if layout not in LAYOUTS:
        raise ValueError(f"splitter: layout must be one of {sorted(LAYOUTS)}, not {layout!r}")
    cells = LAYOUTS[layout]
    rounds = fillable_count(cells) // 2
    dice = roll_dice(seed, rounds)
    values = (0,) * (len(cells) * len(cells[0]))
    return SplitterState(layout=layout, cells=cells, values=values, dice=dice)


def free(state: SplitterState, x: int, y: int) -> bool:
    """True if (x, y) is on the sheet, fillable and still empty."""
    return (
        0 <= x < state.width
        and 0 <= y < state.height
        and state.cells[y][x] != NONE
        and state.value(x, y) == 0
    )


def free_pairs(state: SplitterState) -> list[tuple[int, int]]:
    """The left-half cells (x, y) whose pair (x, y) / (W-1-x, y) can still take a roll."""
    w = state.width
    return [
        (x, y)
        for y in range(state.height)
        for x in range(w // 2)
        if free(state, x, y) and free(state, w - 1 - x, y)
    ]


def is_over(state: SplitterState) -> bool:
    """The game ends after its rounds, on a forfeit, or when no mirrored pair is free."""
    return state.forfeited or state.round >= state.rounds or not free_pairs(state)


def current_dice(state: SplitterState) -> tuple[int, int] | None:
    """This round's roll, or None when the game is over."""
    return None if is_over(state) else state.dice[state.round]


def placement_error(state: SplitterState, p: Placement) -> str | None:
    """Why ``p`` is illegal now (a sentence), or None if it may be played."""
    dice = current_dice(state)
    if dice is None:
        return "the game is over"
    if p.n not in dice:
        return f"die {p.n} was not rolled (dice {dice[0]} {dice[1]})"
    w, h = state.width, state.height
    mx = w - 1 - p.x
    if not (0 <= p.x < w and 0 <= p.y < h):
        return f"({p.x},{p.y}) is off the {w}x{h} sheet"
    if mx == p.x:
        return f"({p.x},{p.y}) is on the split line and has no mirror cell"
    for x in (p.x, mx):
        if state.cells[p.y][x] == NONE:
            return f"({x},{p.y}) is not fillable"
        if state.value(x, p.y) != 0:
            return f"({x},{p.y}) already holds {state.value(x, p.y)}"
    return None


def other_die(dice: tuple[int, int], n: int) -> int:
    """The die that goes to the mirror cell when ``n`` (one of ``dice``) is placed."""
    return dice[1] if dice[0] == n else dice[0]


def place(state: SplitterState, p: Placement) -> SplitterState:
    """Play round ``state.round``: write ``p.n`` at (x, y) and the other die at its mirror.

    Raises ValueError for an illegal placement (see :func:`placement_error`).
    """
    error = placement_error(state, p)
    if error is not None:
        raise ValueError(error)
    dice = state.dice[state.round]
    values = list(state.values)
    values[p.y * state.width + p.x] = p.n
    values[p.y * state.width + state.width - 1 - p.x] = other_die(dice, p.n)
    return replace(state, values=tuple(values), round=state.round + 1)


def legal_placements(state: SplitterState) -> list[Placement]:
    """Every distinct legal answer now (each free pair, each die on the left half)."""
    dice = current_dice(state)
    if dice is None:
        return []
    values = sorted(set(dice))
    # Writing from the right half gives the same sheets: (n, W-1-x) is (other, x).
    return [Placement(n, x, y) for x, y in free_pairs(state) for n in values]


def groups(cells: Grid, values: Sequence[int]) -> list[Group]:
    """Every group of orthogonally connected equal values, scored.

    A group of value v scores v if it has exactly v cells, twice that if one of its
    cells is a star, else nothing.
    """
    h, w = len(cells), len(cells[0])
    seen = [False] * (w * h)
    found: list[Group] = []
    for start in range(w * h):
        v = values[start]
        if v == 0 or seen[start]:
            continue
        seen[start] = True
        stack = [start]
        members: list[tuple[int, int]] = []
        while stack:
            i = stack.pop()
            x, y = i % w, i // w
            members.append((x, y))
            for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                j = ny * w + nx
                if 0 <= nx < w and 0 <= ny < h and not seen[j] and values[j] == v:
                    seen[j] = True
                    stack.append(j)
        star = any(cells[y][x] == STAR for x, y in members)
        points = (v * (2 if star else 1)) if len(members) == v else 0
        found.append(Group(v, tuple(sorted(members, key=lambda c: (c[1], c[0]))), star, points))
    return found


def heart_bonus(cells: Grid, values: Sequence[int]) -> int:
    """5 if the sheet has hearts and all of them hold the same value, else 0."""
    w = len(cells[0])
    hearts = [
        values[y * w + x] for y, row in enumerate(cells) for x, k in enumerate(row) if k == HEART
    ]
    if hearts and hearts[0] != 0 and all(v == hearts[0] for v in hearts):
        return HEART_BONUS
    return 0


def score_sheet(cells: Grid, values: Sequence[int]) -> Score:
    """The score of a sheet as written so far (the final score once it is full)."""
    found = groups(cells, values)
    hearts = heart_bonus(cells, values)
    return Score(tuple(found), hearts, sum(g.points for g in found) + hearts)


def score(state: SplitterState) -> int:
    """The player's score: the sheet's score, or 0 after a forfeit."""
    return 0 if state.forfeited else score_sheet(state.cells, state.values).total


def forfeit(state: SplitterState) -> SplitterState:
    """The state after the player forfeited: the game is over and scores 0."""
    return replace(state, forfeited=True)
