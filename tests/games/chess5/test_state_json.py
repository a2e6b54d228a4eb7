"""chess5 files: state.json exactly as the original server writes it, move.json parsing."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from arena import IllegalMove, InvalidAnswer, Move
from arena_games.chess5 import rules, state_json
from arena_games.chess5.game import Chess5Game
from arena_games.chess5.rules import BLACK, WHITE, Action, board_from_rows
from support import REPO, json_shape

# Real files written by the original Code Clash server (copied from the shared fixtures).
FIXTURES = REPO / "tests" / "fixtures" / "chess5"
STATE_FILES = [
    "server-state-play.json",
    "server-state-play-turn23.json",
    "server-state-setup-blocked.json",
]
KEYS = [
    "phase",
    "playerColor",
    "board",
    "abilitiesRemaining",
    "abilitiesActivated",
    "turnNumber",
    "setupStep",
    "blockedTiles",
]


def grid(data: dict[str, Any]) -> list[str]:
    """A state.json board as text: '#' fog, '.' empty, uppercase white, lowercase black."""
    rows = []
    for row in data["board"]:
        text = ""
        for cell in row:
            if cell is None:
                text += "."
            elif cell["color"] == "fog":
                text += "#"
            else:
                text += cell["type"] if cell["color"] == "white" else cell["type"].lower()
        rows.append(text)
    return rows


@pytest.mark.parametrize("name", STATE_FILES)
def test_fixture_state_round_trips_byte_for_byte(name: str) -> None:
    text = (FIXTURES / name).read_text()
    state = state_json.state_from_json(text)
    assert state_json.state_text(state, WHITE) == text


def test_fixture_reads_as_expected_position() -> None:
    state = state_json.state_from_json((FIXTURES / "server-state-play-turn23.json").read_text())
    assert (state.to_move, state.ply) == (WHITE, 22)
    assert rules.board_rows(state.board)[0] == ["WK", "F", "F", "WR", "F"]


def played_states(games: int = 12) -> list[rules.State]:
    """States of random games, setup and play, some under fog and shield."""
    game = Chess5Game()
    states = []
    for seed in range(games):
        rng = random.Random(seed)
        state = game.start(seed, 2, {})
        while game.to_act(state):
            states.append(state)
            seat = game.to_act(state)[0]
            move = game.interpret(state, seat, game.random_answer(state, seat, rng))
            state = game.apply(state, {seat: move.action})
    return states


def test_every_state_json_has_the_fixture_shape() -> None:
    fixture = json.loads((FIXTURES / "server-state-play.json").read_text())
    assert list(fixture) == KEYS
    piece = json_shape(fixture["board"][0][0])
    assert piece == {"type": "str", "color": "str"}
    fog = {"color": "str", "type": "str"}  # the seed's {"color": "fog", "type": "F"}
    effects = fogged = 0
    for state in played_states():
        data = state_json.state_dict(state, state.to_move)
        assert list(data) == KEYS
        assert json_shape(data["abilitiesRemaining"]) == json_shape(fixture["abilitiesRemaining"])
        for key in ("phase", "playerColor", "turnNumber", "setupStep"):
            assert type(data[key]) is type(fixture[key])
        assert len(data["board"]) == 5 and all(len(row) == 5 for row in data["board"])
        for row in data["board"]:
            for cell in row:
                assert cell is None or json_shape(cell) in (piece, fog)
                fogged += cell == state_json.FOG_CELL
        for effect in data["abilitiesActivated"]:
            effects += 1
            assert list(effect) == ["name", "turnsLeft", "target"]
            assert isinstance(effect["name"], str) and isinstance(effect["turnsLeft"], int)
            assert effect["target"] is None or json_shape(effect["target"]) == ("list", ["int"])
        for tile in data["blockedTiles"]:
            assert json_shape(tile) == ("list", ["int"]) and len(tile) == 2
    assert effects > 0 and fogged > 0


def test_setup_state_json() -> None:
    state = rules.new_game(1)
    for to in [(0, 2), (4, 2), (3, 2)]:
        state = rules.apply(state, Action(to))
    data = state_json.state_dict(state, BLACK)
    assert data["phase"] == "setup"
    assert data["playerColor"] == "black"
    assert (data["setupStep"], data["turnNumber"]) == (2, 1)
    assert data["blockedTiles"] == [[3, 2]]
    assert grid(data) == ["..K..", ".....", ".....", ".....", "..k.."]
    assert data["abilitiesRemaining"] == {"fog": True, "pawnReset": True, "shield": True}


# The setup of server-state-setup-blocked.json. White is the real bot of the match logs
# (see test_chess5_export.py): king on (0, 2), block on (3, 0) in the black king's column,
# rooks, then bishops and pawns in reading order, blind to `blockedTiles`. Black's bot is
# not known: its answers build its side of the position, its block in front of the white
# king, and its first pawn goes on white's block (3, 0), as in the real game.
BLOCKED_SETUP = [
    '{"move": {"from": [0, 3], "to": [0, 2]}}',
    '{"move": {"from": [0, 0], "to": [4, 0]}}',
    '{"move": {"to": [3, 0]}}',
    '{"move": {"to": [1, 2]}}',
    '{"move": {"to": [1, 0]}}',
    '{"move": {"from": [0, 2], "to": [3, 1]}}',
    '{"move": {"to": [1, 3]}}',
    '{"move": {"from": [0, 2], "to": [4, 3]}}',
    '{"move": {"from": [0, 3], "to": [0, 0]}}',
    '{"move": {"from": [0, 4], "to": [3, 0]}}',
    '{"move": {"from": [0, 3], "to": [0, 1]}}',
    '{"move": {"from": [0, 3], "to": [3, 3]}}',
    '{"move": {"from": [0, 4], "to": [0, 3]}}',
    '{"move": {"from": [0, 3], "to": [4, 1]}}',
    '{"move": {"from": [0, 4], "to": [1, 1]}}',
    '{"move": {"from": [0, 4], "to": [4, 2]}}',
    '{"move": {"from": [0, 4], "to": [1, 2]}}',
    '{"move": {"from": [0, 4], "to": [4, 4]}}',
]


def test_setup_on_blocked_squares_gives_the_servers_turn_1_state_json() -> None:
    # server-state-setup-blocked.json: white blocked (3, 0), a black pawn stands there.
    game = Chess5Game()
    state = game.start(1, 2, {})
    prompts = []
    for text in BLOCKED_SETUP:
        seat = state.to_move
        prompts.append(json.loads(game.prompt(state, seat)))
        state = game.apply(state, {seat: game.interpret(state, seat, text).action})
    # During setup blockedTiles lists the blocks, a piece on a block or not.
    assert [p["blockedTiles"] for p in prompts[:3]] == [[], [], []]
    assert all(p["blockedTiles"] == [[3, 0], [1, 2]] for p in prompts[4:])
    assert prompts[9]["setupStep"] == 4 and prompts[9]["playerColor"] == "black"
    assert game.prompt(state, WHITE) == (FIXTURES / "server-state-setup-blocked.json").read_text()
    assert json.loads(game.prompt(state, BLACK))["blockedTiles"] == []


def test_fog_as_the_fogged_player_sees_it() -> None:
    board = board_from_rows(["K....", ".R...", ".....", "..p..", "...k."])
    state = rules.apply(rules.play_position(board), Action((2, 1), (1, 1), "fog"))
    black = state_json.state_dict(state, BLACK)
    assert grid(black) == ["#####", "#####", "#R.##", "##p..", "##.k."]
    assert black["abilitiesActivated"] == [{"name": "fog", "turnsLeft": 3, "target": None}]
    assert black["turnNumber"] == 2
    white = state_json.state_dict(state, WHITE)
    assert grid(white) == ["K....", ".....", ".R...", "..p..", "...k."]
    assert white["abilitiesRemaining"] == {"fog": False, "pawnReset": True, "shield": True}
    assert white["abilitiesActivated"] == []
    text = state_json.state_text(state, BLACK)
    assert '      {\n        "color": "fog",\n        "type": "F"\n      },' in text


def test_shield_is_listed_for_the_opponent_with_its_target() -> None:
    board = board_from_rows(["K....", ".....", "..R..", ".p...", "....k"])
    state = rules.apply(rules.play_position(board), Action((0, 1), (0, 0), "shield", (2, 2)))
    black = state_json.state_dict(state, BLACK)
    assert black["abilitiesActivated"] == [{"name": "shield", "turnsLeft": 1, "target": [2, 2]}]


# ---------------------------------------------------------------- move.json


def test_parse_seed_examples() -> None:
    assert state_json.parse_move('{"move": {"from": [0, 0], "to": [0, 2]}}') == Action(
        (0, 2), (0, 0)
    )
    assert state_json.parse_move('{"move": {"to": [4, 2]}}') == Action((4, 2))
    text = (
        '{"move": {"from": [1, 2], "to": [2, 2]}, "ability": {"name": "shield", "target": [2, 2]}}'
    )
    assert state_json.parse_move(text) == Action((2, 2), (1, 2), "shield", (2, 2))
    text = '{"move": {"from": [1, 2], "to": [2, 2]}, "ability": {"name": null, "target": null}}'
    assert state_json.parse_move(text) == Action((2, 2), (1, 2))
    text = '{"move": {"from": [1, 2], "to": [2, 2]}, "ability": {"name": "fog"}}'
    assert state_json.parse_move(text) == Action((2, 2), (1, 2), "fog")


def test_move_text_round_trips() -> None:
    for action in [
        Action((4, 2)),
        Action((0, 1), (0, 3)),
        Action((2, 2), (1, 2), "shield", (2, 2)),
    ]:
        assert state_json.parse_move(state_json.move_text(action)) == action


BAD_SCHEMA = [
    "[1, 2]",
    '{"to": [1, 2]}',
    '{"move": [1, 2]}',
    '{"move": {"from": [1, 2]}}',
    '{"move": {"to": [1, 2, 3]}}',
    '{"move": {"to": ["1", 2]}}',
    '{"move": {"to": [1.0, 2]}}',
    '{"move": {"to": [true, 2]}}',
    '{"move": {"to": [1, 2]}, "ability": "fog"}',
    '{"move": {"to": [1, 2]}, "ability": {"name": "teleport"}}',
    '{"move": {"to": [1, 2]}, "ability": {"name": "shield", "target": [9]}}',
]


@pytest.mark.parametrize("text", ["", "{", "move: [1, 2]", '{"move": {"to": [1, 2]}'])
def test_interpret_bad_json_is_invalid_with_raw_text(text: str) -> None:
    game = Chess5Game()
    with pytest.raises(InvalidAnswer) as err:
        game.interpret(game.start(1, 2, {}), 0, text)
    assert err.value.raw == text


@pytest.mark.parametrize("text", BAD_SCHEMA)
def test_interpret_bad_schema_is_invalid_with_raw_text(text: str) -> None:
    game = Chess5Game()
    with pytest.raises(InvalidAnswer) as err:
        game.interpret(game.start(1, 2, {}), 0, text)
    assert err.value.raw == text


@pytest.mark.parametrize(
    "text",
    [
        '{"move": {"to": [2, 2]}}',  # not white's rows
        '{"move": {"to": [0, 7]}}',  # off the board
        '{"move": {"to": [0, 2]}, "ability": {"name": "fog", "target": null}}',  # in setup
    ],
)
def test_interpret_illegal_move_keeps_raw_text(text: str) -> None:
    game = Chess5Game()
    with pytest.raises(IllegalMove) as err:
        game.interpret(game.start(1, 2, {}), 0, text)
    assert err.value.raw == text


def test_from_is_read_only_in_step_4_and_in_play() -> None:
    game = Chess5Game()
    start = game.start(1, 2, {})
    for text in [
        '{"move": {"from": [0, 3], "to": [0, 2]}}',  # a bishop's code: the king is placed
        '{"move": {"from": [0, 2], "to": [0, 2]}}',
        '{"move": {"from": "a1", "to": [0, 2]}}',  # never read, so never malformed
        '{"move": {"from": [9, 9, 9], "to": [0, 2]}}',
    ]:
        assert game.interpret(start, WHITE, text) == Move(Action((0, 2)))
    setup = [(0, 2), (4, 2), (3, 2), (1, 2), (0, 0), (4, 0), (0, 4), (4, 4)]
    step4 = start
    for to in setup:
        step4 = game.apply(step4, {step4.to_move: Action(to)})
    assert step4.setup_step == 4
    assert game.interpret(step4, WHITE, '{"move": {"from": [0, 3], "to": [1, 0]}}') == Move(
        Action((1, 0), (0, 3))
    )
    with pytest.raises(InvalidAnswer):
        game.interpret(step4, WHITE, '{"move": {"from": "a1", "to": [1, 0]}}')


def test_turn_number_is_1_in_setup_as_the_server_writes_it() -> None:
    game = Chess5Game()
    text = game.prompt(game.start(1, 2, {}), WHITE)
    assert text == (FIXTURES / "server-state-setup.json").read_text()
    assert json.loads(text)["turnNumber"] == 1


def test_interpret_illegal_play_move_and_ability() -> None:
    game = Chess5Game()
    state = state_json.state_from_json((FIXTURES / "server-state-play.json").read_text())
    legal = '{"move": {"from": [1, 2], "to": [2, 2]}}'
    assert game.interpret(state, WHITE, legal) == Move(Action((2, 2), (1, 2)))
    for text in [
        '{"move": {"from": [1, 2], "to": [3, 2]}}',  # pawn double step
        '{"move": {"from": [3, 1], "to": [2, 1]}}',  # black's pawn
        '{"move": {"to": [2, 2]}}',  # no from in play
        '{"move": {"from": [1, 2], "to": [2, 2]}, "ability": {"name": "shield", "target": [1, 2]}}',
    ]:
        with pytest.raises(IllegalMove) as err:
            game.interpret(state, WHITE, text)
        assert err.value.raw == text


def test_state_from_json_round_trips_setup_and_fog_free_play() -> None:
    for state in played_states():
        color = state.to_move
        if rules.is_fogged(state, color):
            continue
        text = state_json.state_text(state, color)
        rebuilt = state_json.state_from_json(text)
        assert state_json.state_text(rebuilt, color) == text
        assert (rebuilt.setup_index, rebuilt.to_move) == (state.setup_index, color)
