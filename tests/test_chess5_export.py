"""chess5 `codeclash` export: the original server's match log, rebuilt from a replay."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from arena_games.chess5 import rules
from arena_games.chess5.game import Chess5Game
from conftest import json_shape

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "chess5"
LOG = json.loads((FIXTURES / "server-match-log.json").read_text())

# Setup answers that build the fixture's starting position, in setup order (white first):
# kings, blocks on the two squares each side left empty, rooks, then bishops and pawns.
FIXTURE_SETUP = [
    '{"move": {"from": [0, 0], "to": [1, 2]}}',
    '{"move": {"from": [0, 0], "to": [4, 1]}}',
    '{"move": {"to": [3, 3]}}',
    '{"move": {"to": [1, 3]}}',
    '{"move": {"from": [0, 2], "to": [0, 0]}}',
    '{"move": {"from": [0, 2], "to": [4, 0]}}',
    '{"move": {"from": [0, 2], "to": [1, 0]}}',
    '{"move": {"from": [0, 2], "to": [4, 2]}}',
    '{"move": {"from": [0, 3], "to": [0, 3]}}',
    '{"move": {"from": [0, 3], "to": [3, 0]}}',
    '{"move": {"from": [0, 3], "to": [1, 1]}}',
    '{"move": {"from": [0, 3], "to": [3, 2]}}',
    '{"move": {"from": [0, 4], "to": [0, 1]}}',
    '{"move": {"from": [0, 4], "to": [3, 1]}}',
    '{"move": {"from": [0, 4], "to": [0, 2]}}',
    '{"move": {"from": [0, 4], "to": [3, 4]}}',
    '{"move": {"from": [0, 4], "to": [1, 4]}}',
    '{"move": {"from": [0, 4], "to": [4, 3]}}',
]


def replay_of(answers: list[str], seed: int, forfeit: int | None = None) -> dict[str, Any]:
    """A replay in arena's format: one answer per step (setup order, then alternating)."""
    steps: list[dict[str, Any]] = []
    for i, text in enumerate(answers):
        seat = rules.SETUP_ORDER[i][0] if i < len(rules.SETUP_ORDER) else (i - 18) % 2
        steps.append({"to_act": [seat], "moves": {str(seat): text}, "forfeits": {}})
    if forfeit is not None:
        reason = {"reason": "timeout", "detail": "no move.json in 5 s"}
        steps.append({"to_act": [forfeit], "moves": {}, "forfeits": {str(forfeit): reason}})
    return {"game": "chess5", "seed": seed, "settings": {}, "players": ["a", "b"], "steps": steps}


def fixture_replay() -> dict[str, Any]:
    """The fixture's game: setup, its 30 moves, then white forfeits (times out)."""
    answers = list(FIXTURE_SETUP)
    for entry in LOG["moves"]:
        answer: dict[str, Any] = {"move": entry["move"]}
        if entry["abilitiesUsed"]:
            answer["ability"] = entry["abilitiesUsed"][0]
        answers.append(json.dumps(answer))
    return replay_of(answers, 7, forfeit=0)


def test_fixture_game_exports_to_the_servers_log_byte_for_byte() -> None:
    text = Chess5Game().export(fixture_replay(), "codeclash")
    assert text == (FIXTURES / "server-match-log.json").read_text()


def test_codeclash_is_declared() -> None:
    assert Chess5Game.info.exports == ("codeclash",)


def random_replay(seed: int) -> tuple[dict[str, Any], rules.State]:
    """Play a random game and store it as the core would; returns the replay and last state."""
    game = Chess5Game()
    rng = random.Random(seed)
    state = game.start(seed, 2, {})
    steps = []
    while game.to_act(state):
        seat = game.to_act(state)[0]
        text = game.random_answer(state, seat, rng)
        move = game.interpret(state, seat, text)
        state = game.apply(state, {seat: move.action})
        steps.append({"to_act": [seat], "moves": {str(seat): text}, "forfeits": {}})
    outcome = game.outcome(state)
    replay = {
        "game": "chess5",
        "seed": seed,
        "settings": {},
        "players": ["a", "b"],
        "steps": steps,
        "outcome": {"ranks": list(outcome.ranks), "scores": list(outcome.scores)},
    }
    return replay, state


def test_simulated_game_export_has_the_fixture_shape_and_replays_the_game() -> None:
    for seed in range(4):
        replay, final = random_replay(seed)
        log = json.loads(Chess5Game().export(replay, "codeclash"))
        assert list(log) == list(LOG)
        assert json_shape(log["starting_position"]) == json_shape(LOG["starting_position"])
        assert len(log["moves"]) == final.ply
        for num, entry in enumerate(log["moves"], start=1):
            assert list(entry) == list(LOG["moves"][0])
            assert entry["move_num"] == num
            assert entry["color"] == ("white" if num % 2 else "black")
            assert json_shape(entry["move"]) == json_shape(LOG["moves"][0]["move"])
            assert json_shape(entry["stateAfter"]) == json_shape(LOG["starting_position"])
            for used in entry["abilitiesUsed"]:
                assert list(used) == ["name", "target"]
        assert log["moves"][-1]["stateAfter"] == rules.board_rows(final.board)
        assert log["game_result"] == {
            "winner": rules.COLOR_NAMES[final.winner] if final.winner is not None else None,
            "reason": {"king captured": "king_captured", "no legal move": "no_legal_moves"}[
                final.reason
            ],
        }


def test_two_hundred_ply_draw_in_the_log() -> None:
    # From the fixture's start, kings and a bishop shuffle until the ply limit.
    there, back = {"from": [1, 2], "to": [1, 3]}, {"from": [1, 3], "to": [1, 2]}
    out, home = {"from": [3, 2], "to": [2, 1]}, {"from": [2, 1], "to": [3, 2]}
    answers = list(FIXTURE_SETUP)
    answers.append(json.dumps({"move": there, "ability": {"name": "fog"}}))
    answers.append(json.dumps({"move": out}))
    for k in range(1, rules.MAX_PLIES // 2):
        answers.append(json.dumps({"move": back if k % 2 else there}))
        answers.append(json.dumps({"move": home if k % 2 else out}))
    replay = replay_of(answers, 3)
    log = json.loads(Chess5Game().export(replay, "codeclash"))
    assert log["starting_position"] == LOG["starting_position"]
    assert len(log["moves"]) == 200
    assert log["moves"][0]["abilitiesUsed"] == [{"name": "fog", "target": None}]
    assert log["moves"][1]["abilitiesUsed"] == []
    assert log["moves"][-1]["stateAfter"] == log["starting_position"]
    assert log["game_result"] == {"winner": None, "reason": "max_turns"}
