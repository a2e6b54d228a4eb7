"""Smash The Code rules: placing pairs, clearing groups, chains, scores and skulls.

Pure rules, no I/O. A grid is a tuple of 6 column strings, each read from the bottom up
(``"13"`` is a ``1`` on the floor with a ``3`` on it), so a falling block is an append
and gravity after a clear is dropping characters from a string. Cells are ``"0"`` for a
skull and ``"1"``-``"5"`` for colours; a column holds at most 12 cells.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from arena_games.stc.javarandom import JavaRandom

WIDTH = 6
HEIGHT = 12
SKULL = "0"
NUISANCE_DIVISOR = 70  # a turn's points / 70 = nuisance points for the opponent
SKULLS_PER_LINE = 6  # one line of skulls per 6 whole nuisance points
PREVIEW = 8  # pairs shown in advance, the one to play first
COLOUR_BONUS = (0, 0, 2, 4, 8, 16)  # indexed by the number of colours cleared in a step
EMPTY_GRID: tuple[str, ...] = ("",) * WIDTH

# Rotation -> (column offset of B from A, whether the pair is vertical, A drops first).
# 0: B right of A; 1: B on top of A; 2: B left of A; 3: A on top of B.
ROTATIONS: tuple[tuple[int, bool, bool], ...] = (
    (1, False, True),
    (0, True, True),
    (-1, False, True),
    (0, True, False),
)

Grid = tuple[str, ...]
Action = tuple[int, int]  # (x, rotation): x is the column of the pair's first block A
Cell = tuple[int, int]  # (x, y): column, height from the floor (0 is the bottom cell)


@dataclass(frozen=True, slots=True)
class ChainStep:
    """One step of a chain, for the viewer: the grid as it stood when the step's groups
    cleared (before the blocks above fell) and every cell cleared, skulls included."""

    grid: Grid
    cleared: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class TurnTrace:
    """What one seat's pair did in a turn, for the viewer (never read by the rules):
    the cells blocks A and B landed on, then each chain step in order."""

    placed: tuple[Cell, ...] = ()
    chain: tuple[ChainStep, ...] = ()


NO_TRACE = TurnTrace()
"""The trace of a seat that placed nothing (immutable: one for every such turn)."""


@dataclass(frozen=True, slots=True)
class StcState:
    """One moment of a game, between two turns.

    ``owed[s]`` is the nuisance seat ``s``'s grid still has coming (what the opponent's
    points made it owe), an exact fraction always below 6 once the turn's lines fell.
    ``dead[s]`` says seat ``s`` could not place its pair; ``forfeited[s]`` that the core
    removed it (timeout, crash, invalid answer). ``pairs`` is the whole queue of the game,
    shared by both seats. ``last_trace[s]`` records what seat ``s``'s last pair did (where
    it landed, what each chain step cleared), for the viewer only.
    """

    pairs: tuple[tuple[int, int], ...]
    max_turns: int
    turn: int = 0
    grids: tuple[Grid, Grid] = (EMPTY_GRID, EMPTY_GRID)
    scores: tuple[int, int] = (0, 0)
    owed: tuple[Fraction, Fraction] = (Fraction(0), Fraction(0))
    dead: tuple[bool, bool] = (False, False)
    forfeited: tuple[bool, bool] = (False, False)
    last_points: tuple[int, int] = (0, 0)
    last_steps: tuple[int, int] = (0, 0)
    last_trace: tuple[TurnTrace, TurnTrace] = (NO_TRACE, NO_TRACE)

    @property
    def over(self) -> bool:
        """True once someone died or forfeited, or every turn was played."""
        return (
            self.turn >= self.max_turns
            or self.dead[0]
            or self.dead[1]
            or self.forfeited[0]
            or self.forfeited[1]
        )

    def next_pairs(self) -> tuple[tuple[int, int], ...]:
        """The 8 pairs the players see, the one to play this turn first."""
        return self.pairs[self.turn : self.turn + PREVIEW]


def make_pairs(seed: int, count: int) -> tuple[tuple[int, int], ...]:
    """The game's pair queue: ``java.util.Random(seed)``, ``nextInt(5) + 1`` per block."""
    rng = JavaRandom(seed)
    return tuple((rng.next_int(5) + 1, rng.next_int(5) + 1) for _ in range(count))


def new_game(seed: int, max_turns: int) -> StcState:
    """The initial state: empty grids and enough pairs for ``max_turns`` turns of preview."""
    return StcState(pairs=make_pairs(seed, max_turns + PREVIEW - 1), max_turns=max_turns)


def placement(grid: Grid, x: int, rotation: int) -> tuple[int, int] | None:
    """The columns of blocks A and B if the pair fits, else None (the player then dies).

    A vertical pair needs two free cells in its column; a horizontal pair one in each.
    """
    dx, vertical, _ = ROTATIONS[rotation]
    xb = x + dx
    if vertical:
        return (x, x) if len(grid[x]) <= HEIGHT - 2 else None
    if len(grid[x]) < HEIGHT and len(grid[xb]) < HEIGHT:
        return (x, xb)
    return None


def legal_actions(grid: Grid) -> list[Action]:
    """Every (x, rotation) whose pair fits in ``grid`` (same-colour duplicates included)."""
    actions = []
    for rotation, (dx, _, _) in enumerate(ROTATIONS):
        for x in range(WIDTH):
            if 0 <= x + dx < WIDTH and placement(grid, x, rotation) is not None:
                actions.append((x, rotation))
    return actions


def group_bonus(size: int) -> int:
    """GB of one cleared group: 0 for 4 blocks, size - 4 up to 10 blocks, 8 from 11."""
    return 8 if size >= 11 else size - 4


def step_points(groups: Sequence[tuple[str, int]], chain_power: int) -> int:
    """``10 * B * clamp(CP + CB + GB, 1, 999)`` for one step's groups (colour, size)."""
    blocks = sum(size for _, size in groups)
    colours = len({colour for colour, _ in groups})
    bonus = chain_power + COLOUR_BONUS[colours] + sum(group_bonus(size) for _, size in groups)
    return 10 * blocks * min(max(bonus, 1), 999)


def _flood(cols: list[str], x: int, y: int, seen: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """The cells of the same colour connected to (x, y), marking them seen."""
    colour = cols[x][y]
    group = [(x, y)]
    seen.add((x, y))
    for cx, cy in group:  # the cells appended below are visited in turn
        # The four neighbours, unrolled: above, below, left, right.
        col = cols[cx]
        if cy + 1 < len(col) and col[cy + 1] == colour and (cx, cy + 1) not in seen:
            seen.add((cx, cy + 1))
            group.append((cx, cy + 1))
        if cy and col[cy - 1] == colour and (cx, cy - 1) not in seen:
            seen.add((cx, cy - 1))
            group.append((cx, cy - 1))
        if cx:
            side = cols[cx - 1]
            if cy < len(side) and side[cy] == colour and (cx - 1, cy) not in seen:
                seen.add((cx - 1, cy))
                group.append((cx - 1, cy))
        if cx < WIDTH - 1:
            side = cols[cx + 1]
            if cy < len(side) and side[cy] == colour and (cx + 1, cy) not in seen:
                seen.add((cx + 1, cy))
                group.append((cx + 1, cy))
    return group


def resolve(
    cols: list[str], changed: Sequence[tuple[int, int]], trace: list[ChainStep] | None = None
) -> tuple[int, int]:
    """Clear groups and chains in place; return (points, steps).

    Only groups through ``changed`` cells (the blocks just placed, then the blocks that
    fell) can be new, so the flood fill starts from those alone. In a step every group
    of 4+ clears at once with the skulls next to it, then the columns fall. ``trace``,
    when given, receives one :class:`ChainStep` per step (the result is the same).
    """
    points = 0
    steps = 0
    chain_power = 0
    while True:
        seen: set[tuple[int, int]] = set()
        groups: list[list[tuple[int, int]]] = []
        for x, y in changed:
            if (x, y) in seen or y >= len(cols[x]) or cols[x][y] == SKULL:
                continue
            group = _flood(cols, x, y, seen)
            if len(group) >= 4:
                groups.append(group)
        if not groups:
            return points, steps
        points += step_points([(cols[g[0][0]][g[0][1]], len(g)) for g in groups], chain_power)
        steps += 1
        chain_power = 8 if chain_power == 0 else 2 * chain_power
        gone: set[tuple[int, int]] = set()
        for group in groups:
            gone.update(group)
            for cx, cy in group:
                for nx, ny in ((cx - 1, cy), (cx + 1, cy), (cx, cy - 1), (cx, cy + 1)):
                    if 0 <= nx < WIDTH and 0 <= ny < len(cols[nx]) and cols[nx][ny] == SKULL:
                        gone.add((nx, ny))
        if trace is not None:
            trace.append(ChainStep(tuple(cols), tuple(sorted(gone))))
        lowest: dict[int, int] = {}
        for x, y in gone:
            if y < lowest.get(x, HEIGHT):
                lowest[x] = y
        changed = []
        for x, low in lowest.items():
            col = cols[x]
            above = enumerate(col[low:], low)
            kept = col[:low] + "".join(c for y, c in above if (x, y) not in gone)
            cols[x] = kept
            changed.extend((x, y) for y in range(low, len(kept)))


def play_pair(
    grid: Grid, pair: tuple[int, int], action: Action, trace: list[ChainStep] | None = None
) -> tuple[Grid, int, int] | None:
    """Drop ``pair`` with ``action`` and resolve; (grid, points, steps), None if it does not fit.

    ``trace``, when given, receives the chain's steps (see :func:`resolve`)."""
    x, rotation = action
    cols_ab = placement(grid, x, rotation)
    if cols_ab is None:
        return None
    xa, xb = cols_ab
    a, b = str(pair[0]), str(pair[1])
    cols = list(grid)
    if xa == xb:
        first_a = ROTATIONS[rotation][2]
        y = len(cols[xa])
        cols[xa] += a + b if first_a else b + a
        changed = [(xa, y), (xa, y + 1)]
    else:
        changed = [(xa, len(cols[xa])), (xb, len(cols[xb]))]
        cols[xa] += a
        cols[xb] += b
    points, steps = resolve(cols, changed, trace)
    return tuple(cols), points, steps


def placed_cells(grid: Grid, action: Action) -> tuple[Cell, ...]:
    """The cells blocks A and B (in that order) of a pair played with ``action`` land on
    in ``grid``, before any group clears; empty if the pair does not fit."""
    x, rotation = action
    cols_ab = placement(grid, x, rotation)
    if cols_ab is None:
        return ()
    xa, xb = cols_ab
    if xa == xb:
        y = len(grid[xa])
        return ((xa, y), (xa, y + 1)) if ROTATIONS[rotation][2] else ((xa, y + 1), (xa, y))
    return ((xa, len(grid[xa])), (xb, len(grid[xb])))


def drop_skulls(grid: Grid, lines: int) -> Grid:
    """Drop ``lines`` lines of 6 skulls, one per column; a skull with no room is discarded."""
    return tuple(col + SKULL * min(lines, HEIGHT - len(col)) for col in grid)


def nuisance(points: int) -> Fraction:
    """The nuisance a turn's points make the opponent owe: points / 70, exactly."""
    return Fraction(points, NUISANCE_DIVISOR)


def settle(owed: Fraction, grid: Grid) -> tuple[Fraction, Grid]:
    """At the start of a turn, one line of skulls falls per whole 6 owed; the rest stays owed."""
    if owed < SKULLS_PER_LINE:
        return owed, grid
    lines = int(owed // SKULLS_PER_LINE)
    return owed - lines * SKULLS_PER_LINE, drop_skulls(grid, lines)


def apply_turn(state: StcState, actions: Mapping[int, Action]) -> StcState:
    """Play one simultaneous turn, then drop the skull lines owed for the next turn.

    A seat without an action forfeited this turn (the core removed it): the other seat's
    pair is still played and scored, as on CodinGame, and the game ends after the turn.
    """
    grids = list(state.grids)
    scores = list(state.scores)
    owed = list(state.owed)
    dead = [False, False]
    points = [0, 0]
    steps = [0, 0]
    traces = [NO_TRACE, NO_TRACE]
    pair = state.pairs[state.turn]
    for seat in (0, 1):
        if seat not in actions:
            continue
        chain: list[ChainStep] = []
        placed = placed_cells(grids[seat], actions[seat])
        played = play_pair(grids[seat], pair, actions[seat], chain)
        if played is None:
            dead[seat] = True
            continue
        traces[seat] = TurnTrace(placed, tuple(chain))
        grids[seat], points[seat], steps[seat] = played
        if points[seat]:
            scores[seat] += points[seat]
            owed[1 - seat] += nuisance(points[seat])
    turn = state.turn + 1
    over = dead[0] or dead[1] or state.forfeited[0] or state.forfeited[1]
    if not over and turn < state.max_turns:
        # The start of the next turn, before input is sent: whole lines of 6 fall.
        for seat in (0, 1):
            if owed[seat]:
                owed[seat], grids[seat] = settle(owed[seat], grids[seat])
    return StcState(
        state.pairs,
        state.max_turns,
        turn,
        (grids[0], grids[1]),
        (scores[0], scores[1]),
        (owed[0], owed[1]),
        (dead[0], dead[1]),
        state.forfeited,
        (points[0], points[1]),
        (steps[0], steps[1]),
        (traces[0], traces[1]),
    )


def end_reason(state: StcState) -> str:
    """Why a finished game ended, for :class:`~arena.Outcome`."""
    if state.forfeited[0] or state.forfeited[1]:
        for seat in (0, 1):
            if state.dead[seat]:
                return f"forfeit; player {seat} could not place its pair"
        return "forfeit"
    if state.dead[0] and state.dead[1]:
        return "both players could not place their pair"
    for seat in (0, 1):
        if state.dead[seat]:
            return f"player {seat} could not place its pair"
    return f"{state.max_turns} turns"


def is_out(state: StcState, seat: int) -> bool:
    """True for a seat that forfeited or could not place its pair."""
    return state.forfeited[seat] or state.dead[seat]


def reported_scores(state: StcState) -> tuple[int, int]:
    """CodinGame's scores (``Referee.getScore``): 0 for a seat that died, timed out or
    answered invalid; ``max(1, points)`` for a seat still alive."""
    a, b = (0 if is_out(state, seat) else max(1, state.scores[seat]) for seat in (0, 1))
    return (a, b)


def ranks(state: StcState) -> tuple[int, int]:
    """Places of a finished game: the survivor wins, else the higher score; ties draw.

    A seat that forfeited or died ranks below one that did neither; two seats out in
    the same turn (both dead, both forfeiting, or one forfeiting while the other's own
    move of that turn kills it) draw.
    """
    out = (is_out(state, 0), is_out(state, 1))
    if out[0] != out[1]:
        return (1, 0) if out[0] else (0, 1)
    scores = reported_scores(state)
    if out[0] or scores[0] == scores[1]:
        return (0, 0)
    return (0, 1) if scores[0] > scores[1] else (1, 0)
