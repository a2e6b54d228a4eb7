"""The pure rules of 42-cluster: hex connect-n with a bag of chips and rotatable gravity.

No I/O, no clocks: a :class:`State` is immutable and :func:`apply_action` returns a new
one. All randomness (walls, chip draws) comes from the ``random.Random(seed)`` whose state
travels inside the game state.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from arena_games.cluster.hexgrid import HexGrid, hexgrid

EMPTY = -1
COLOR_CHOICES = (0, 1, 3, 4, 5)  # the viewer colours the original lists (any int is accepted)

DEFAULT_SETTINGS: dict[str, Any] = {
    "colors": 4,
    "chips_per_color": None,  # None: cells // colors, as the original referee does
    "grid_size": 6,
    "win_length": 4,
    "timeout": 1.0,
    "wall_chance": 0.0,
}


@dataclass(frozen=True)
class Settings:
    """One game's parameters, validated; ``chips_per_color`` already resolved."""

    colors: int
    chips_per_color: int
    grid_size: int
    win_length: int
    timeout: float
    wall_chance: float

    @staticmethod
    def from_mapping(raw: Mapping[str, Any]) -> Settings:
        """Validate tournament settings (defaults filled in) and resolve the chip count."""
        merged = {**DEFAULT_SETTINGS, **raw}
        unknown = set(merged) - set(DEFAULT_SETTINGS)
        if unknown:
            raise ValueError(f"cluster: unknown settings {sorted(unknown)}")
        colors, size, win = (
            int(merged["colors"]),
            int(merged["grid_size"]),
            int(merged["win_length"]),
        )
        if colors < 2 or colors % 2:
            raise ValueError(f"cluster: colors must be even and at least 2, got {colors}")
        if size < 2:
            raise ValueError(f"cluster: grid_size must be at least 2, got {size}")
        if win < 2:
            raise ValueError(f"cluster: win_length must be at least 2, got {win}")
        chips = merged["chips_per_color"]
        chips = len(hexgrid(size).cells) // colors if chips is None else int(chips)
        if chips < 1:
            raise ValueError(f"cluster: chips_per_color must be at least 1, got {chips}")
        timeout, walls = float(merged["timeout"]), float(merged["wall_chance"])
        if timeout <= 0:
            raise ValueError(f"cluster: timeout must be positive, got {timeout}")
        if not 0.0 <= walls < 1.0:
            raise ValueError(f"cluster: wall_chance must be in [0, 1), got {walls}")
        return Settings(colors, chips, size, win, timeout, walls)

    def owned(self, seat: int) -> range:
        """Colour ids of ``seat``: player 0 the first half, player 1 the second half."""
        half = self.colors // 2
        return range(seat * half, (seat + 1) * half)

    def owner(self, chip: int) -> int:
        """The seat that owns colour id ``chip``."""
        return chip // (self.colors // 2)


@dataclass(frozen=True)
class ChooseColor:
    """The answer to ``init``: a viewer colour (cosmetic)."""

    color: int


@dataclass(frozen=True)
class Drop:
    """Drop chip ``chip`` (one of the two drawn) into column ``pos``."""

    pos: int
    chip: int


@dataclass(frozen=True)
class Rotate:
    """Set gravity to ``gravity`` (absolute), discarding both drawn chips."""

    gravity: int


Action = ChooseColor | Drop | Rotate


@dataclass(frozen=True)
class State:
    """A position; treat as immutable.

    ``board[i]`` is the chip on ``grid.cells[i]`` (colour id, -1 empty); ``bags[c]`` the
    chips of colour c still in their owner's bag; ``drawn`` the two chips the seat to move
    holds (second -1 when its bag had only one). ``phase`` is ``"color"`` (both seats answer
    ``init``), ``"play"`` or ``"over"``. ``last_action`` is the previous action line, echoed
    to the seat to move. ``rng_state`` is the state of the game's ``random.Random``.
    ``leftover[s]`` is what seat s's last command left unread after its last number (C's
    ``%d`` stops at the first non-digit: ``drop 0 2x`` leaves ``x``); the original reads it
    as the start of the seat's next command. ``mover`` is the seat that played
    ``last_action`` (None before the first action).
    """

    settings: Settings
    board: tuple[int, ...]
    walls: frozenset[int]
    gravity: int
    bags: tuple[int, ...]
    rng_state: Any
    phase: str = "color"
    turn: int = 0
    drawn: tuple[int, int] = (EMPTY, EMPTY)
    last_action: str = ""
    chosen: tuple[int, int] = (EMPTY, EMPTY)
    turns: int = 0
    winner: int | None = None
    loser: int | None = None
    reason: str = ""
    leftover: tuple[str, str] = ("", "")
    mover: int | None = None

    @property
    def grid(self) -> HexGrid:
        """The board's geometry."""
        return hexgrid(self.settings.grid_size)


def new_game(seed: int, settings: Settings) -> State:
    """The initial state: walls placed by the seed (never on the rim), full bags."""
    rng = random.Random(seed)
    grid = hexgrid(settings.grid_size)
    walls = frozenset(
        i
        for i in range(len(grid.cells))
        if i not in grid.rim and settings.wall_chance > 0 and rng.random() < settings.wall_chance
    )
    return State(
        settings=settings,
        board=(EMPTY,) * len(grid.cells),
        walls=walls,
        gravity=3,
        bags=(settings.chips_per_color,) * settings.colors,
        rng_state=rng.getstate(),
    )


def draw(bags: list[int], colors: range, rng: random.Random) -> int:
    """Take one chip from the colours ``colors`` of ``bags``, weighted by count; -1 if empty."""
    total = sum(bags[c] for c in colors)
    if total == 0:
        return EMPTY
    index = rng.randrange(total)
    for c in colors:
        if index < bags[c]:
            bags[c] -= 1
            return c
        index -= bags[c]
    raise AssertionError("unreachable: index below total")


def drop_target(state: State, pos: int) -> int:
    """The cell index a chip dropped at ``pos`` comes to rest in, or -1 if the column is full."""
    grid = state.grid
    i = grid.entry(state.gravity, pos)
    if state.board[i] != EMPTY:
        return EMPTY
    step = grid.neighbor[state.gravity]
    while True:
        j = step[i]
        if j < 0 or j in state.walls or state.board[j] != EMPTY:
            return i
        i = j


def settle(grid: HexGrid, board: list[int], walls: frozenset[int], gravity: int) -> None:
    """Let every chip fall along ``gravity`` at once (in place).

    Chips are moved furthest-along-gravity first, so each lands on the edge, a wall or a
    chip that has already settled: the result is that of all chips falling together.
    """
    step = grid.neighbor[gravity]
    for i in grid.fall_order[gravity]:
        chip = board[i]
        if chip == EMPTY:
            continue
        j = i
        while (k := step[j]) >= 0 and k not in walls and board[k] == EMPTY:
            j = k
        if j != i:
            board[j], board[i] = chip, EMPTY


def longest_lines(state: State) -> tuple[int, ...]:
    """Each seat's longest straight line of one colour (any of the 3 axes, over its colours)."""
    grid, board = state.grid, state.board
    best = [0] * state.settings.colors
    for d in range(3):
        forward, back = grid.neighbor[d], grid.neighbor[d + 3]
        for i, chip in enumerate(board):
            if chip == EMPTY or (back[i] >= 0 and board[back[i]] == chip):
                continue  # not the start of a run
            length, j = 1, forward[i]
            while j >= 0 and board[j] == chip:
                length, j = length + 1, forward[j]
            best[chip] = max(best[chip], length)
    return tuple(max(best[c] for c in state.settings.owned(seat)) for seat in (0, 1))


def winning_line(state: State) -> tuple[int, ...]:
    """The cell indices of the line that won the game, empty when no line won it.

    A game is won by a line when the winner's longest straight run of one colour reached
    ``win_length`` and beat the loser's; that run is the winning line. When a rotation
    made several runs of that length at once, the cells of all of them are returned
    (each once, in the board's order).
    """
    if state.winner is None or state.phase != "over":
        return ()
    lines = longest_lines(state)
    length = lines[state.winner]
    if length < state.settings.win_length or length <= lines[1 - state.winner]:
        return ()  # won otherwise (a forfeit, an empty bag, no legal action)
    grid, board = state.grid, state.board
    owned = state.settings.owned(state.winner)
    cells: set[int] = set()
    for d in range(3):
        forward, back = grid.neighbor[d], grid.neighbor[d + 3]
        for i, chip in enumerate(board):
            if chip not in owned or (back[i] >= 0 and board[back[i]] == chip):
                continue  # not the winner's, or not the start of a run
            run, j = [i], forward[i]
            while j >= 0 and board[j] == chip:
                run.append(j)
                j = forward[j]
            if len(run) == length:
                cells.update(run)
    return tuple(sorted(cells))


def legal_actions(state: State) -> list[Drop | Rotate]:
    """Every legal action of the seat to move (empty when the game is not in play)."""
    if state.phase != "play":
        return []
    chips = sorted({c for c in state.drawn if c != EMPTY})
    actions: list[Drop | Rotate] = [
        Drop(pos, chip)
        for pos in state.grid.positions
        if state.board[state.grid.entry(state.gravity, pos)] == EMPTY
        for chip in chips
    ]
    if EMPTY not in state.drawn:
        actions += [Rotate(g) for g in range(6)]  # the current gravity too: a pass
    return actions


def why_illegal(state: State, action: Drop | Rotate) -> str | None:
    """Why ``action`` breaks the rules for the seat to move, or None if it is legal."""
    size = state.settings.grid_size
    if isinstance(action, Rotate):
        if not 0 <= action.gravity < 6:
            return f"gravity {action.gravity} is not in 0..5"
        if EMPTY in state.drawn:
            return "rotating needs two chips, only one was drawn"
        return None  # rotating to the current gravity is a pass that costs both chips
    if not -(size - 1) <= action.pos <= size - 1:
        return f"position {action.pos} is not in {-(size - 1)}..{size - 1}"
    if action.chip == EMPTY or action.chip not in state.drawn:
        a, b = state.drawn
        return f"chip {action.chip} was not drawn (chips {a} {b})"
    if drop_target(state, action.pos) == EMPTY:
        return f"column {action.pos} is full"
    return None


def action_line(action: Drop | Rotate) -> str:
    """The protocol line of an action, as echoed to the opponent."""
    if isinstance(action, Rotate):
        return f"rotate {action.gravity}"
    return f"drop {action.pos} {action.chip}"


def choose_colors(state: State, colors: Mapping[int, int]) -> State:
    """Record both seats' ``color`` answers and start play: seat 0 draws its chips."""
    chosen = (colors.get(0, EMPTY), colors.get(1, EMPTY))
    return _begin_turn(replace(state, phase="play", chosen=chosen), 0, "")


def apply_action(state: State, action: Drop | Rotate) -> State:
    """Play a legal action of the seat to move; then decide the game or start the next turn."""
    settings, seat = state.settings, state.turn
    board, bags = list(state.board), list(state.bags)
    gravity = state.gravity
    a, b = state.drawn
    if isinstance(action, Drop):
        board[drop_target(state, action.pos)] = action.chip
        if b != EMPTY:  # the unplayed chip goes back to the bag
            bags[b if action.chip == a else a] += 1
    else:  # both chips are discarded
        gravity = action.gravity
        settle(state.grid, board, state.walls, gravity)
    after = replace(
        state,
        board=tuple(board),
        bags=tuple(bags),
        gravity=gravity,
        turns=state.turns + 1,
        drawn=(EMPTY, EMPTY),
        last_action=action_line(action),
        mover=seat,
    )
    lines = longest_lines(after)
    for player in (0, 1):
        if lines[player] >= settings.win_length and lines[player] > lines[1 - player]:
            return _finish(after, player, f"line of {lines[player]}")
    return _begin_turn(after, 1 - seat, after.last_action)


def _begin_turn(state: State, seat: int, last_action: str) -> State:
    """Seat draws two chips; it loses at once with an empty bag or no legal action."""
    rng = random.Random()
    rng.setstate(state.rng_state)
    bags = list(state.bags)
    owned = state.settings.owned(seat)
    a = draw(bags, owned, rng)
    b = draw(bags, owned, rng) if a != EMPTY else EMPTY
    nxt = replace(
        state,
        turn=seat,
        bags=tuple(bags),
        drawn=(a, b),
        last_action=last_action,
        rng_state=rng.getstate(),
    )
    if a == EMPTY:
        return _finish(nxt, 1 - seat, f"player {seat} is out of chips")
    if not legal_actions(nxt):
        return _finish(nxt, 1 - seat, f"player {seat} has no legal action")
    return nxt


def _finish(state: State, winner: int, reason: str) -> State:
    """The game over with ``winner`` first."""
    return replace(state, phase="over", winner=winner, loser=1 - winner, reason=reason)


def forfeit(state: State, seat: int) -> State:
    """Seat forfeited (timeout, crash, bad answer): it loses, the game is over.

    Both seats forfeiting the same step (the simultaneous ``init``) both lose: no winner.
    """
    if state.phase == "over" and state.loser is not None and state.loser != seat:
        return replace(state, winner=None, loser=None, reason="both players forfeit")
    return replace(
        state, phase="over", winner=1 - seat, loser=seat, reason=f"player {seat} forfeits"
    )
