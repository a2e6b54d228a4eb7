"""Pure rules of 5x5 ability chess (Code Clash): setup, piece moves, abilities, game end.

Squares are ``(row, col)``, row 0 at the top. White owns rows 0-1 and moves toward row 4,
black owns rows 3-4 and moves toward row 0. The board is a tuple of 25 cells in reading
order; a cell is ``None`` or a two-letter piece ``colour + type`` (``"WK"``, ``"BP"``), the
notation of the original server's match log. States are frozen: :func:`apply` and
:func:`forfeit` return new ones.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

SIZE = 5
WHITE, BLACK = 0, 1
COLOR_NAMES = ("white", "black")
COLOR_LETTERS = ("W", "B")
MAX_PLIES = 200
FOG_TURNS = 3
ABILITIES = ("fog", "pawnReset", "shield")
OWN_ROWS = ((0, 1), (3, 4))
PAWN_STEP = (1, -1)
PROMOTION_ROW = (4, 0)

Square = tuple[int, int]
Square2 = tuple[Square, Square]
Board = tuple[str | None, ...]

# The seed's setup table: the `from` square of a setup move names the piece type.
TYPE_CODES: dict[Square, str] = {(0, 0): "K", (0, 1): "Q", (0, 2): "R", (0, 3): "B", (0, 4): "P"}
STEP_PIECES: dict[int, tuple[str, ...]] = {1: ("K",), 2: (), 3: ("R",), 4: ("B", "P")}
STEP4_COUNTS = {"B": 2, "P": 3}

# Setup calls in order: (colour, setupStep). White first in every step; rooks, bishops
# and pawns are placed one per call, alternating.
SETUP_ORDER: tuple[tuple[int, int], ...] = (
    ((WHITE, 1), (BLACK, 1), (WHITE, 2), (BLACK, 2))
    + ((WHITE, 3), (BLACK, 3)) * 2
    + ((WHITE, 4), (BLACK, 4)) * 5
)

Dirs = tuple[tuple[int, int], ...]
ROOK_DIRS: Dirs = ((1, 0), (-1, 0), (0, 1), (0, -1))
BISHOP_DIRS: Dirs = ((1, 1), (1, -1), (-1, 1), (-1, -1))
KING_DIRS: Dirs = ROOK_DIRS + BISHOP_DIRS


class RuleError(ValueError):
    """An action the rules forbid in the current position."""


@dataclass(frozen=True)
class Action:
    """One call's answer: a setup placement or a play move, plus an optional ability.

    ``frm`` is the piece-type code during setup (``None`` when left out) and the moving
    piece's square during play.
    """

    to: Square
    frm: Square | None = None
    ability: str | None = None
    target: Square | None = None


@dataclass(frozen=True)
class Effect:
    """An ability one side used against the other, as the victim's state.json lists it.

    ``turns_left`` counts the victim's turns still affected (0: already over, only reported).
    """

    name: str
    turns_left: int
    target: Square | None = None


@dataclass(frozen=True)
class State:
    """A whole game position; ``against[c]`` holds the effects colour c's opponent used on c.

    ``last`` is the previous call's squares, for the viewer only (bots never see it): the
    square placed on in setup, ``(from, to)`` in play; empty before the first call.
    """

    board: Board
    setup_index: int = 0
    ply: int = 0
    blocked: tuple[Square, ...] = ()
    pawn_homes: tuple[tuple[Square, ...], tuple[Square, ...]] = ((), ())
    abilities: tuple[frozenset[str], frozenset[str]] = (frozenset(ABILITIES), frozenset(ABILITIES))
    against: tuple[tuple[Effect, ...], tuple[Effect, ...]] = ((), ())
    rng_state: tuple[object, ...] = ()
    over: bool = False
    winner: int | None = None
    reason: str = ""
    last: tuple[Square, ...] = ()

    @property
    def in_setup(self) -> bool:
        """True while pieces are still being placed."""
        return self.setup_index < len(SETUP_ORDER)

    @property
    def to_move(self) -> int:
        """The colour whose call it is (white on even plies of play)."""
        if self.in_setup:
            return SETUP_ORDER[self.setup_index][0]
        return self.ply % 2

    @property
    def setup_step(self) -> int:
        """The setup step of the current call; 4 once play has started (as the server says)."""
        return SETUP_ORDER[self.setup_index][1] if self.in_setup else 4


def idx(sq: Square) -> int:
    """Index of a square in the flat board."""
    return sq[0] * SIZE + sq[1]


def on_board(sq: Square) -> bool:
    """True for squares of the 5x5 board."""
    return 0 <= sq[0] < SIZE and 0 <= sq[1] < SIZE


def at(board: Board, sq: Square) -> str | None:
    """The piece on a square, or None."""
    return board[idx(sq)]


def empty_board() -> Board:
    """A board with no piece."""
    return (None,) * (SIZE * SIZE)


def board_from_rows(rows: list[str]) -> Board:
    """Build a board from 5 strings of 5 letters: uppercase white, lowercase black, '.' empty.

    Handy for tests: ``["..K..", ...]`` puts a white king on (0, 2).
    """
    cells: list[str | None] = []
    for row in rows:
        for ch in row:
            if ch == ".":
                cells.append(None)
            else:
                cells.append(("W" if ch.isupper() else "B") + ch.upper())
    if len(cells) != SIZE * SIZE:
        raise ValueError("a board needs 5 rows of 5 cells")
    return tuple(cells)


def board_rows(board: Board) -> list[list[str]]:
    """The board in the server's match-log notation: ``"WR"`` pieces, ``"F"`` empty squares."""
    return [[board[r * SIZE + c] or "F" for c in range(SIZE)] for r in range(SIZE)]


def new_game(seed: int) -> State:
    """The empty board before white places its king; the game RNG is seeded from ``seed``."""
    return State(board=empty_board(), rng_state=random.Random(seed).getstate())


def play_position(board: Board, to_move: int = WHITE, seed: int = 0, **fields: object) -> State:
    """A play-phase state on ``board`` with ``to_move`` to play (for tests and tools).

    ``fields`` overrides other :class:`State` fields (``pawn_homes``, ``abilities``, ...);
    the ply count defaults to the first ply of play with the right side to move.
    """
    base = State(
        board=board,
        setup_index=len(SETUP_ORDER),
        ply=to_move,
        rng_state=random.Random(seed).getstate(),
    )
    return replace(base, **fields)  # type: ignore[arg-type]


def color_of(piece: str) -> int:
    """Colour index of a piece."""
    return WHITE if piece[0] == "W" else BLACK


def pseudo_moves(board: Board, color: int, shielded: Square | None = None) -> list[Square2]:
    """Every ``(from, to)`` move of ``color``; captures on ``shielded`` are left out."""
    moves: list[Square2] = []
    me = COLOR_LETTERS[color]
    for r in range(SIZE):
        for c in range(SIZE):
            piece = board[r * SIZE + c]
            if piece is None or piece[0] != me:
                continue
            kind = piece[1]
            frm = (r, c)
            if kind == "P":
                step = PAWN_STEP[color]
                fwd = (r + step, c)
                if on_board(fwd) and at(board, fwd) is None:
                    moves.append((frm, fwd))
                for dc in (-1, 1):
                    diag = (r + step, c + dc)
                    if on_board(diag) and diag != shielded:
                        victim = at(board, diag)
                        if victim is not None and victim[0] != me:
                            moves.append((frm, diag))
                continue
            if kind == "K":
                dirs, slide = KING_DIRS, False
            elif kind == "Q":
                dirs, slide = KING_DIRS, True
            elif kind == "R":
                dirs, slide = ROOK_DIRS, True
            else:
                dirs, slide = BISHOP_DIRS, True
            for dr, dc in dirs:
                to = (r + dr, c + dc)
                while on_board(to):
                    victim = at(board, to)
                    if victim is None:
                        moves.append((frm, to))
                    else:
                        if victim[0] != me and to != shielded:
                            moves.append((frm, to))
                        break
                    if not slide:
                        break
                    to = (to[0] + dr, to[1] + dc)
    return moves


def shielded_square(state: State, color: int) -> Square | None:
    """The opponent's piece that ``color`` may not capture this turn, if any."""
    for eff in state.against[color]:
        if eff.name == "shield" and eff.turns_left > 0:
            return eff.target
    return None


def is_fogged(state: State, color: int) -> bool:
    """True while ``color`` plays under the opponent's fog."""
    return any(eff.name == "fog" and eff.turns_left > 0 for eff in state.against[color])


def legal_moves(state: State) -> list[Square2]:
    """The play moves of the side to move (empty during setup or when the game is over)."""
    if state.over or state.in_setup:
        return []
    color = state.to_move
    return pseudo_moves(state.board, color, shielded_square(state, color))


def visible_squares(board: Board, color: int) -> set[Square]:
    """What a fogged ``color`` sees: its pieces and every square they could move or capture to."""
    seen = {(r, c) for r in range(SIZE) for c in range(SIZE) if _owned(board, (r, c), color)}
    seen.update(to for _, to in pseudo_moves(board, color))
    return seen


def _owned(board: Board, sq: Square, color: int) -> bool:
    piece = at(board, sq)
    return piece is not None and piece[0] == COLOR_LETTERS[color]


def setup_targets(state: State) -> list[Square]:
    """The squares the current setup call may choose, in reading order.

    A piece goes on any free square of its side's rows, blocked or not: the real server
    reports blocks in ``blockedTiles`` but refuses no placement on one (RULINGS, chess5,
    blocked squares; ``server-state-setup-blocked.json``). A step-2 block is offered the
    free, not yet blocked squares of the opponent's rows (the server accepted blocks
    anywhere on the board: see :func:`check`).
    """
    color, step = SETUP_ORDER[state.setup_index]
    if step != 2:
        rows = OWN_ROWS[color]
        return [(r, c) for r in rows for c in range(SIZE) if at(state.board, (r, c)) is None]
    return [
        (r, c)
        for r in OWN_ROWS[1 - color]
        for c in range(SIZE)
        if at(state.board, (r, c)) is None and (r, c) not in state.blocked
    ]


def step4_left(state: State, color: int) -> dict[str, int]:
    """How many bishops and pawns ``color`` still has to place in step 4."""
    mine = [p for p in state.board if p is not None and color_of(p) == color]
    return {kind: n - sum(1 for p in mine if p[1] == kind) for kind, n in STEP4_COUNTS.items()}


def setup_piece(state: State, frm: Square | None) -> str | None:
    """The piece type a setup call places (None for a step-2 block); raises RuleError.

    ``from`` is read only in step 4, as on the original server: steps 1 and 3 place the
    king and a rook whatever ``from`` says (a step-1 ``from: [0, 3]`` places the king).
    """
    color, step = SETUP_ORDER[state.setup_index]
    if step == 2:
        return None
    if step != 4:
        return STEP_PIECES[step][0]
    if frm is None:
        raise RuleError("setup step 4 needs `from`: [0, 3] for a bishop or [0, 4] for a pawn")
    kind = TYPE_CODES.get(frm)
    if kind not in STEP_PIECES[step]:
        raise RuleError(f"piece type {list(frm)} cannot be placed in setup step {step}")
    if step == 4 and step4_left(state, color)[kind] <= 0:
        raise RuleError(f"no {'bishop' if kind == 'B' else 'pawn'} left to place")
    return kind


def check(state: State, action: Action) -> None:
    """Raise RuleError unless the side to move may play ``action`` now."""
    if state.over:
        raise RuleError("the game is over")
    if not on_board(action.to):
        raise RuleError(f"square {list(action.to)} is off the board")
    if state.in_setup:
        if action.ability is not None:
            raise RuleError("abilities cannot be used during setup")
        if setup_piece(state, action.frm) is None:
            return  # a step-2 block: the server accepted any square of the board
        if action.to not in setup_targets(state):
            raise RuleError(f"{list(action.to)} is not a free square of your rows")
        return
    color = state.to_move
    if action.frm is None:
        raise RuleError("a play move needs `from`")
    if not on_board(action.frm):
        raise RuleError(f"square {list(action.frm)} is off the board")
    if (action.frm, action.to) not in legal_moves(state):
        raise RuleError(f"{list(action.frm)} -> {list(action.to)} is not a legal move")
    if action.ability is None:
        return
    if action.ability not in state.abilities[color]:
        raise RuleError(f"ability {action.ability} was already used")
    if action.ability == "shield":
        if action.target is None or not on_board(action.target):
            raise RuleError("shield needs the square of one of your pieces as target")
        board = _move_piece(state.board, action.frm, action.to)
        if not _owned(board, action.target, color):
            raise RuleError(f"shield target {list(action.target)} holds none of your pieces")


def _move_piece(board: Board, frm: Square, to: Square) -> Board:
    cells = list(board)
    piece = cells[idx(frm)]
    assert piece is not None
    if piece[1] == "P" and to[0] == PROMOTION_ROW[color_of(piece)]:
        piece = piece[0] + "Q"
    cells[idx(to)] = piece
    cells[idx(frm)] = None
    return tuple(cells)


def apply(state: State, action: Action) -> State:
    """The state after the side to move plays ``action`` (checked first)."""
    check(state, action)
    if state.in_setup:
        return _apply_setup(state, action)
    return _apply_play(state, action)


def _apply_setup(state: State, action: Action) -> State:
    color = state.to_move
    kind = setup_piece(state, action.frm)
    if kind is None:
        nxt = replace(
            state,
            blocked=(*state.blocked, action.to),
            setup_index=state.setup_index + 1,
            last=(action.to,),
        )
    else:
        cells = list(state.board)
        cells[idx(action.to)] = COLOR_LETTERS[color] + kind
        homes = state.pawn_homes
        if kind == "P":
            mine = (*homes[color], action.to)
            homes = (mine, homes[1]) if color == WHITE else (homes[0], mine)
        nxt = replace(
            state,
            board=tuple(cells),
            pawn_homes=homes,
            setup_index=state.setup_index + 1,
            last=(action.to,),
        )
    if not nxt.in_setup:
        nxt = replace(nxt, blocked=())
        nxt = _end_if_stuck(nxt)
    return nxt


def _apply_play(state: State, action: Action) -> State:
    color = state.to_move
    other = 1 - color
    assert action.frm is not None
    captured = at(state.board, action.to)
    board = _move_piece(state.board, action.frm, action.to)
    rng_state = state.rng_state
    abilities = list(state.abilities)
    # The mover's own turn under the opponent's effects is done: age them.
    against = [state.against[0], state.against[1]]
    against[color] = tuple(
        Effect(e.name, e.turns_left - 1, e.target) for e in against[color] if e.turns_left > 1
    )
    if action.ability is not None:
        abilities[color] = abilities[color] - {action.ability}
        if action.ability == "shield":
            effect = Effect("shield", 1, action.target)
        elif action.ability == "fog":
            effect = Effect("fog", FOG_TURNS)
        else:
            board, rng_state = pawn_reset(board, state.pawn_homes[color], color, rng_state)
            effect = Effect("pawnReset", 0)
        against[other] = (*against[other], effect)
    nxt = replace(
        state,
        board=board,
        ply=state.ply + 1,
        abilities=(abilities[0], abilities[1]),
        against=(against[0], against[1]),
        rng_state=rng_state,
        last=(action.frm, action.to),
    )
    if captured is not None and captured[1] == "K":
        return replace(nxt, over=True, winner=color, reason="king captured")
    if nxt.ply >= MAX_PLIES:
        return replace(nxt, over=True, winner=None, reason=f"{MAX_PLIES} plies")
    return _end_if_stuck(nxt)


def _end_if_stuck(state: State) -> State:
    """End the game when the side to move has no legal move: it loses."""
    if legal_moves(state):
        return state
    return replace(state, over=True, winner=1 - state.to_move, reason="no legal move")


def pawn_reset(
    board: Board, homes: tuple[Square, ...], color: int, rng_state: tuple[object, ...]
) -> tuple[Board, tuple[object, ...]]:
    """Send ``color``'s pawns back to their setup squares, as the original server does.

    The pawns (in reading order) are shuffled with the game RNG; each in turn goes to a
    square chosen with the RNG among its side's setup squares that are free at that moment
    (one a pawn left before is free again), and stays put when none is. A pawn already on
    a setup square may so move to another free one (``server-match-log-3.json``, move 6).
    Returns the new board and the advanced RNG state.
    """
    pawn = COLOR_LETTERS[color] + "P"
    pawns = [(r, c) for r in range(SIZE) for c in range(SIZE) if board[r * SIZE + c] == pawn]
    if not pawns:
        return board, rng_state
    rng = random.Random()
    rng.setstate(rng_state)
    rng.shuffle(pawns)
    cells = list(board)
    for frm in pawns:
        free = [sq for sq in homes if cells[idx(sq)] is None]
        if not free:
            continue
        to = rng.choice(free)
        cells[idx(frm)] = None
        cells[idx(to)] = pawn
    return tuple(cells), rng.getstate()


def forfeit(state: State, color: int) -> State:
    """The state after ``color`` forfeits (timeout, crash, bad answer): the opponent wins."""
    return replace(state, over=True, winner=1 - color, reason="forfeit", last=())


def legal_actions(state: State, with_abilities: bool = False) -> list[Action]:
    """Every legal action of the side to move, in a fixed order.

    Setup: every placement (step 4 with each piece type left). Play: every move, and with
    ``with_abilities`` also each move combined with fog, pawn reset and a shield on the
    moved piece.
    """
    if state.over:
        return []
    if state.in_setup:
        targets = setup_targets(state)
        step = state.setup_step
        if step != 4:
            return [Action(to) for to in targets]
        left = step4_left(state, state.to_move)
        codes = [code for code, kind in TYPE_CODES.items() if left.get(kind, 0) > 0]
        return [Action(to, code) for code in codes for to in targets]
    actions: list[Action] = []
    left_abilities = sorted(state.abilities[state.to_move])
    for frm, to in legal_moves(state):
        actions.append(Action(to, frm))
        if with_abilities:
            for name in left_abilities:
                actions.append(Action(to, frm, name, to if name == "shield" else None))
    return actions
