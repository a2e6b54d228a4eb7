"""Blocking protocol byte for byte: init input, turn input, moves by others, answers."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from arena import InvalidAnswer, Move
from arena_games.blocking.game import BlockingGame
from arena_games.blocking.protocol import parse_answer
from arena_games.blocking.rules import State, bit

GAME = BlockingGame()


def play(state: State, answer: str) -> State:
    seat = GAME.to_act(state)[0]
    move = GAME.interpret(state, seat, answer)
    assert isinstance(move, Move)
    return GAME.apply(state, {seat: move.action})


EMPTY = "." * 13 + "\n"

# Seed 0 with 3 players draws E I K L M P Q R T besides A-D. Seat 0 opened with the
# monomino written in orientation 13; seat 1 (corner 12 12) may open with A-D only.
SEAT1_FIRST_PROMPT = (
    "13\n"
    "A 1 1 #\n"
    "B 2 1 ##\n"
    "C 3 1 ###\n"
    "D 2 2 #.##\n"
    "E 4 1 ####\n"
    "I 3 2 .####.\n"
    "K 2 4 #.#.#.##\n"
    "L 2 4 .###.#.#\n"
    "M 2 4 .#.####.\n"
    "P 3 3 #..#..###\n"
    "Q 3 3 ###.#..#.\n"
    "R 3 3 #..##..##\n"
    "T 3 3 ##..#..##\n"
    "3\n"
    "1\n"
    "13\n"
    "ABCDEIKLMPQRT\n"
    "0............\n" + EMPTY * 11 + "............x\n"
    "1\n"
    "0 0 0 A131\n"
    "8\n"
    "12 12 A001\n"
    "11 12 B001\n"
    "12 11 B011\n"
    "10 12 C001\n"
    "12 10 C011\n"
    "11 11 D001\n"
    "12 12 D021\n"
    "11 12 D031\n"
)


def test_init_and_first_turn_byte_for_byte() -> None:
    state = play(GAME.start(0, 3, {}), "0 0 A131")
    assert GAME.prompt(state, 1) == SEAT1_FIRST_PROMPT


def test_first_prompt_of_seat_0_starts_with_init_and_no_moves() -> None:
    prompt = GAME.prompt(GAME.start(0, 3, {}), 0)
    lines = prompt.splitlines()
    assert lines[:2] == ["13", "A 1 1 #"]
    assert lines[14:18] == ["3", "0", "13", "ABCDEIKLMPQRT"]
    assert lines[18] == "x............"  # only the start corner before the first move
    assert lines[31] == "0"  # no moves by others yet
    assert lines[32] == "8"  # A-D only in a 3-player opening


def test_later_turn_has_no_init_and_marks_well_connected_cells() -> None:
    # Seat 0 holds (0, 0), seat 1 holds (2, 1); seat 0 has B and D left (see the rules test).
    # `x`: free cells touching seat 0 at a corner and not along a side: only (1, 1).
    state = replace(
        GAME.start(0, 2, {}),
        letters="ABCD",
        owned=(bit(0, 0), bit(2, 1)),
        remaining=("BD", "BD"),
    )
    assert GAME.prompt(state, 0) == (
        "0............\n.x1..........\n" + EMPTY * 11 + "0\n3\n1 1 B011\n1 1 D001\n0 2 D031\n"
    )


def test_x_marks_the_corner_cells_not_every_cell_a_move_covers() -> None:
    # Seat 0 holds (0, 0) and (4, 0) with the domino left; (1, 1), (3, 1) and (5, 1) touch
    # it at a corner. Seat 1 covers (3, 1): no longer free, so not `x`. The domino on
    # (1, 1)-(2, 1) is a valid move, but (2, 1) touches no square of seat 0 at a corner.
    state = replace(
        GAME.start(0, 2, {}),
        letters="ABCD",
        owned=(bit(0, 0) | bit(4, 0), bit(3, 1)),
        remaining=("B", "B"),
    )
    rows = GAME.prompt(state, 0).splitlines()[:2]
    assert rows == ["0...0........", ".x.1.x......."]


def test_moves_by_others_since_own_last_turn_in_play_order() -> None:
    state = GAME.start(0, 4, {})
    state = play(state, "0 0 A001")
    state = play(state, "12 12 A001")
    state = play(state, "0 12 A001")
    state = play(state, "12 0 A001")
    first_of_seat_0 = GAME.prompt(state, 0).splitlines()
    assert first_of_seat_0[13:17] == ["3", "1 12 12 A001", "2 0 12 A001", "3 12 0 A001"]
    state = play(state, "1 1 C011")
    state = play(state, "11 11 C021")  # C02 = C00's picture turned: square 1 on the right
    lines = GAME.prompt(state, 2).splitlines()
    # Seat 2 last played before seat 3's opening: three moves since, echoed as answered.
    assert lines[13:17] == ["3", "3 12 0 A001", "0 1 1 C011", "1 11 11 C021"]


def test_every_seat_first_prompt_has_init_once() -> None:
    state = GAME.start(3, 2, {})
    assert GAME.prompt(state, 0).startswith("18\nA 1 1 #\n")
    state = play(state, "0 0 A001")
    assert GAME.prompt(state, 1).startswith("18\n")
    state = play(state, "12 12 A001")
    assert not GAME.prompt(state, 0).startswith("18\n")
    assert GAME.prompt(state, 0).splitlines()[13:15] == ["1", "1 12 12 A001"]


@pytest.mark.parametrize(
    "text",
    ["", "hello", "0 0", "0 0 A00", "0 0 A0011", "a 0 A001", "-1 0 A001", "13 0 A001",
     "0 13 A001", "0 0 V001", "0 0 a001", "0 0 A201", "0 0 A041", "0 0 A002", "0 0 Q006",
     "0 0 A000", "0 0 A001 extra",
     # Digits str.isdigit() accepts but int() refuses: found by arena.testing's fuzzing.
     "² 0 J135", "0 ³ A001"],
)  # fmt: skip
def test_malformed_answers_are_invalid(text: str) -> None:
    with pytest.raises(InvalidAnswer):
        GAME.interpret(GAME.start(0, 2, {}), 0, text)


def test_answer_parsing() -> None:
    answer = parse_answer("  12 3 U135 ")
    assert (answer.x, answer.y, answer.letter, answer.code, answer.square) == (12, 3, "U", "13", 5)


def test_random_answers_replay_identically() -> None:
    def run(seed: int) -> tuple[list[str], tuple[int, ...]]:
        rng = random.Random(seed)
        state = GAME.start(seed, 4, {})
        prompts = []
        while seats := GAME.to_act(state):
            prompts.append(GAME.prompt(state, seats[0]))
            move = GAME.interpret(state, seats[0], GAME.random_answer(state, seats[0], rng))
            assert isinstance(move, Move)
            state = GAME.apply(state, {seats[0]: move.action})
        assert all(state.out)
        return prompts, GAME.outcome(state).ranks

    assert run(11) == run(11)
    assert len(run(11)[0]) >= 16  # every seat moved more than its opening


def test_view_and_render() -> None:
    state = play(GAME.start(0, 2, {}), "0 0 B001")
    view = GAME.view(state)
    assert view["board"][0] == "00..........."
    assert view["scores"] == [2, 0]
    assert view["current"] == 1
    assert GAME.render(state).splitlines()[13].startswith("seat 0: 2 squares")
    assert GAME.turn_number(state) == 1
