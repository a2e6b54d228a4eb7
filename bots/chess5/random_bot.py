#!/usr/bin/env python3
"""5x5 ability chess (Code Clash): plays a uniformly random legal move or placement.

Run as ``random_bot.py <dir>/state.json``; writes ``move.json`` next to state.json and exits 0.
Single file, stdlib only; logs to stderr. Never uses abilities.
"""

from __future__ import annotations

import json
import os
import random
import sys

SIZE = 5
FOG = "FOG"
OWN_ROWS = {"white": (0, 1), "black": (3, 4)}
PAWN_STEP = {"white": 1, "black": -1}
TYPE_CODES = {"B": [0, 3], "P": [0, 4]}
STEP4_COUNTS = {"B": 2, "P": 3}
KING_DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
PIECE_DIRS = {"K": KING_DIRS, "Q": KING_DIRS, "R": KING_DIRS[:4], "B": KING_DIRS[4:]}


def log(*parts: object) -> None:
    """Reasoning goes to stderr."""
    print(*parts, file=sys.stderr, flush=True)


def read_board(state: dict) -> list[list[str | None]]:
    """Cells as None, FOG or colour letter + type ("WK", "BP")."""
    rows = []
    for row in state["board"]:
        cells: list[str | None] = []
        for cell in row:
            if cell is None:
                cells.append(None)
            elif cell.get("color") == "fog":
                cells.append(FOG)
            else:
                cells.append(("W" if cell["color"] == "white" else "B") + cell["type"])
        rows.append(cells)
    return rows


def play_moves(state: dict, board: list[list[str | None]]) -> list[tuple[list[int], list[int]]]:
    """Legal (from, to) moves; fogged squares are never reachable, shielded ones not capturable."""
    color = state["playerColor"]
    me = "W" if color == "white" else "B"
    shielded = [e["target"] for e in state["abilitiesActivated"] if e["name"] == "shield"]
    moves = []
    for r in range(SIZE):
        for c in range(SIZE):
            piece = board[r][c]
            if piece is None or piece == FOG or piece[0] != me:
                continue
            if piece[1] == "P":
                nr = r + PAWN_STEP[color]
                if 0 <= nr < SIZE and board[nr][c] is None:
                    moves.append(([r, c], [nr, c]))
                for nc in (c - 1, c + 1):
                    if 0 <= nr < SIZE and 0 <= nc < SIZE:
                        victim = board[nr][nc]
                        if (
                            victim not in (None, FOG)
                            and victim[0] != me
                            and [nr, nc] not in shielded
                        ):
                            moves.append(([r, c], [nr, nc]))
                continue
            for dr, dc in PIECE_DIRS[piece[1]]:
                nr, nc = r + dr, c + dc
                while 0 <= nr < SIZE and 0 <= nc < SIZE:
                    victim = board[nr][nc]
                    if victim is None:
                        moves.append(([r, c], [nr, nc]))
                    else:
                        if victim != FOG and victim[0] != me and [nr, nc] not in shielded:
                            moves.append(([r, c], [nr, nc]))
                        break
                    if piece[1] == "K":
                        break
                    nr, nc = nr + dr, nc + dc
    return moves


def setup_moves(state: dict, board: list[list[str | None]]) -> list[tuple[list[int], list[int]]]:
    """Legal setup (from, to) pairs; `from` is the piece-type code in step 4, else [0, 0]."""
    color = state["playerColor"]
    step = state["setupStep"]
    other = "black" if color == "white" else "white"
    rows = OWN_ROWS[other] if step == 2 else OWN_ROWS[color]
    blocked = [list(sq) for sq in state["blockedTiles"]]
    free = [
        [r, c] for r in rows for c in range(SIZE) if board[r][c] is None and [r, c] not in blocked
    ]
    if step != 4:
        code = [0, 2] if step == 3 else [0, 0]
        return [(code, sq) for sq in free]
    me = "W" if color == "white" else "B"
    mine = [p for row in board for p in row if p and p[0] == me]
    left = [k for k, n in STEP4_COUNTS.items() if sum(1 for p in mine if p[1] == k) < n]
    return [(TYPE_CODES[k], sq) for k in left for sq in free]


def write_move(state_path: str, frm: list[int] | None, to: list[int]) -> None:
    """Write move.json next to state.json (the bot's working directory)."""
    move = {"to": to} if frm is None else {"from": frm, "to": to}
    path = os.path.join(os.path.dirname(os.path.abspath(state_path)), "move.json")
    with open(path, "w", encoding="utf-8") as out:
        json.dump({"move": move, "ability": {"name": None, "target": None}}, out)


def main() -> int:
    """Read state.json, write a random legal move."""
    with open(sys.argv[1], encoding="utf-8") as src:
        state = json.load(src)
    board = read_board(state)
    if state["phase"] == "setup":
        options = setup_moves(state, board)
    else:
        options = play_moves(state, board)
    if not options:
        log("no legal move")
        return 2
    frm, to = random.choice(options)
    if state["phase"] == "setup" and state["setupStep"] == 2:
        frm = None
    log(f"{state['playerColor']} turn {state['turnNumber']}: {frm} -> {to} of {len(options)}")
    write_move(sys.argv[1], frm, to)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as exc:  # internal error: exit code 3 as the protocol says
        log(f"internal error: {exc!r}")
        sys.exit(3)
