"""Export a stored replay as the original Code Clash server's match log.

The log is rebuilt by re-simulating the replay: ``starting_position`` is the board when
play begins, every play move is listed with the abilities it used and the board after it,
and ``game_result`` names the winner (null for a draw) and why the game ended.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from arena import Game, resimulate
from arena_games.chess5 import rules
from arena_games.chess5.rules import State, board_rows

# arena's end reasons in the server's vocabulary ("forfeit" is the server's own word, and
# a king capture is "checkmate": server-match-log-2.json).
REASONS = {
    "forfeit": "forfeit",
    "king captured": "checkmate",
    "no legal move": "no_legal_moves",
    f"{rules.MAX_PLIES} plies": "max_turns",
}


def codeclash_log(game: Game[State], replay: Mapping[str, Any]) -> str:
    """The JSON text of the server's match log for ``replay`` (same layout: indent 2)."""
    state: State = game.start(
        int(replay["seed"]), len(replay["players"]), replay.get("settings", {})
    )
    start: list[list[str]] | None = None
    moves: list[dict[str, Any]] = []
    for step in resimulate(game, replay):
        if not step.actions or step.before.over:
            state = step.after
            continue
        color = step.before.to_move
        action: rules.Action = step.actions[color]
        state = step.after
        if not step.before.in_setup:
            moves.append(_move_entry(len(moves) + 1, color, action, state))
        elif not state.in_setup:
            start = board_rows(state.board)
    if start is None:
        start = board_rows(state.board)
    log = {
        "starting_position": start,
        "moves": moves,
        "game_result": {
            "winner": None if state.winner is None else rules.COLOR_NAMES[state.winner],
            "reason": REASONS.get(state.reason, state.reason),
        },
    }
    return json.dumps(log, indent=2)


def _move_entry(num: int, color: int, action: rules.Action, after: rules.State) -> dict[str, Any]:
    assert action.frm is not None
    used = []
    if action.ability is not None:
        target = list(action.target) if action.ability == "shield" and action.target else None
        used.append({"name": action.ability, "target": target})
    return {
        "move_num": num,
        "color": rules.COLOR_NAMES[color],
        "move": {"from": list(action.frm), "to": list(action.to)},
        "abilitiesUsed": used,
        "stateAfter": board_rows(after.board),
    }
