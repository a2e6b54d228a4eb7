"""The files bots see: state.json written for them, move.json read back.

state.json has exactly the keys, order and layout of the original server's file
(``json.dumps(..., indent=2)``, no trailing newline): phase, playerColor, board,
abilitiesRemaining, abilitiesActivated, turnNumber, setupStep, blockedTiles.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

from arena import InvalidAnswer
from arena_games.chess5 import rules
from arena_games.chess5.rules import Action, Effect, Square, State

FOG_CELL: dict[str, str] = {"color": "fog", "type": "F"}
SETUP_START = {1: 0, 2: 2, 3: 4, 4: 8}  # index in rules.SETUP_ORDER of each step's first call


def piece_cell(piece: str | None) -> dict[str, str] | None:
    """The JSON cell of a piece (``{"type": "K", "color": "white"}``) or None when empty."""
    if piece is None:
        return None
    return {"type": piece[1], "color": rules.COLOR_NAMES[rules.color_of(piece)]}


def state_dict(state: State, color: int) -> dict[str, Any]:
    """The state.json object for ``color``, fog applied when the opponent fogged it."""
    fogged = not state.in_setup and rules.is_fogged(state, color)
    seen = rules.visible_squares(state.board, color) if fogged else set()
    board: list[list[dict[str, str] | None]] = []
    for r in range(rules.SIZE):
        row: list[dict[str, str] | None] = []
        for c in range(rules.SIZE):
            if fogged and (r, c) not in seen:
                row.append(dict(FOG_CELL))
            else:
                row.append(piece_cell(rules.at(state.board, (r, c))))
        board.append(row)
    left = state.abilities[color]
    return {
        "phase": "setup" if state.in_setup else "play",
        "playerColor": rules.COLOR_NAMES[color],
        "board": board,
        "abilitiesRemaining": {name: name in left for name in ("fog", "pawnReset", "shield")},
        "abilitiesActivated": [
            {
                "name": eff.name,
                "turnsLeft": eff.turns_left,
                "target": None if eff.target is None else list(eff.target),
            }
            for eff in state.against[color]
        ],
        "turnNumber": 1 if state.in_setup else state.ply + 1,  # the server's, setup too
        "setupStep": state.setup_step,
        "blockedTiles": [list(sq) for sq in state.blocked],
    }


def state_text(state: State, color: int) -> str:
    """The exact text of state.json for ``color``."""
    return json.dumps(state_dict(state, color), indent=2)


def _square(value: Any, what: str, raw: str) -> Square:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise InvalidAnswer(f"{what} must be [row, col] (two integers)", raw)
    return (value[0], value[1])


def parse_move(raw: str, read_from: bool = True) -> Action:
    """Read move.json; raise InvalidAnswer (keeping the raw text) for bad JSON or schema.

    Squares must be lists of two integers; whether they are on the board and legal is for
    :func:`rules.check`. With ``read_from`` False (setup steps 1-3, where the original
    server never reads it) ``move.from`` is ignored whatever it holds.
    """
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise InvalidAnswer(f"move.json is not valid JSON ({exc})", raw) from None
    if not isinstance(data, dict):
        raise InvalidAnswer("move.json must hold a JSON object", raw)
    move = data.get("move")
    if not isinstance(move, dict):
        raise InvalidAnswer('move.json needs a "move" object', raw)
    if "to" not in move:
        raise InvalidAnswer('"move" needs "to"', raw)
    to = _square(move["to"], '"to"', raw)
    frm = None
    if read_from and move.get("from") is not None:
        frm = _square(move["from"], '"from"', raw)
    ability = data.get("ability")
    name: str | None = None
    target: Square | None = None
    if ability is not None:
        if not isinstance(ability, dict):
            raise InvalidAnswer('"ability" must be an object or null', raw)
        name = ability.get("name")
        if name is not None and name not in rules.ABILITIES:
            raise InvalidAnswer(f'unknown "ability.name": {name!r}', raw)
        if name == "shield" and ability.get("target") is not None:
            target = _square(ability["target"], '"ability.target"', raw)
    return Action(to=to, frm=frm, ability=name, target=target)


def move_text(action: Action) -> str:
    """The move.json text of an action (what a well-behaved bot writes)."""
    move: dict[str, Any] = {"to": list(action.to)}
    if action.frm is not None:
        move = {"from": list(action.frm), "to": list(action.to)}
    data: dict[str, Any] = {"move": move}
    if action.ability is not None:
        target = None if action.target is None else list(action.target)
        data["ability"] = {"name": action.ability, "target": target}
    return json.dumps(data)


def _cell_piece(cell: Any) -> str | None:
    if cell is None or cell.get("color") == "fog":
        return None
    letter = "W" if cell["color"] == "white" else "B"
    return letter + str(cell["type"])


def state_from_json(text: str, seed: int = 0) -> State:
    """Rebuild a game state from a state.json text, as seen by its ``playerColor``.

    For tests and tools: fogged cells become empty squares, and pawn setup squares (which
    state.json does not carry) are taken to be the squares of the player's pawns standing in
    its own two rows. Effects listed in abilitiesActivated act on ``playerColor``.
    """
    data = json.loads(text)
    color = rules.COLOR_NAMES.index(data["playerColor"])
    board = tuple(_cell_piece(cell) for row in data["board"] for cell in row)
    effects = tuple(
        Effect(e["name"], e["turnsLeft"], None if e["target"] is None else tuple(e["target"]))
        for e in data["abilitiesActivated"]
    )
    against = (effects, ()) if color == rules.WHITE else ((), effects)
    left = frozenset(name for name, ok in data["abilitiesRemaining"].items() if ok)
    abilities = (left, frozenset(rules.ABILITIES))
    if color == rules.BLACK:
        abilities = (frozenset(rules.ABILITIES), left)
    pawn = rules.COLOR_LETTERS[color] + "P"
    homes = tuple(
        (r, c) for r in rules.OWN_ROWS[color] for c in range(rules.SIZE) if board[r * 5 + c] == pawn
    )
    pawn_homes = (homes, ()) if color == rules.WHITE else ((), homes)
    base = State(
        board=board,
        blocked=tuple((sq[0], sq[1]) for sq in data["blockedTiles"]),
        pawn_homes=pawn_homes,
        abilities=abilities,
        against=against,
        rng_state=random.Random(seed).getstate(),
    )
    if data["phase"] == "play":
        return _play_state(base, data["turnNumber"], color)
    step = data["setupStep"]
    mine = [p for p in board if p is not None and rules.color_of(p) == color]
    done = {1: 0, 2: 0, 3: sum(1 for p in mine if p[1] == "R")}.get(
        step, sum(1 for p in mine if p[1] in "BP")
    )
    return replace(base, setup_index=SETUP_START[step] + 2 * done + color)


def _play_state(base: State, turn_number: int, color: int) -> State:
    # turnNumber counts plies from 1 (white's first move); keep the parity of playerColor.
    ply = max(turn_number - 1, 0)
    if ply % 2 != color:
        ply += 1
    return replace(base, setup_index=len(rules.SETUP_ORDER), blocked=(), ply=ply)
