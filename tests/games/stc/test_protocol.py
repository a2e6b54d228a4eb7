"""Smash The Code protocol: the turn input byte for byte and the answer line."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from arena import InvalidAnswer, Move
from arena_games.stc.game import StcGame
from arena_games.stc.protocol import grid_from_rows, grid_rows, parse_answer
from arena_games.stc.rules import StcState

EMPTY_ROW = "......\n"


def test_prompt_after_one_turn_of_seed_0() -> None:
    # Seed 0's queue starts (1,4) (5,3) (1,4) (2,2) (5,5) (3,3) (4,3) (1,5) (5,1) (see
    # test_stc_javarandom). Seat 0 drops 1/4 vertically in column 0 (1 below, 4 on top),
    # seat 1 drops it flat at columns 4 and 5. Turn 2 shows pairs 2-9, the scores and
    # both grids, own first.
    game = StcGame()
    state = game.start(0, 2, {"max_turns": 200})
    state = game.apply(state, {0: (0, 1), 1: (4, 0)})
    pairs = "5 3\n1 4\n2 2\n5 5\n3 3\n4 3\n1 5\n5 1\n"
    grid0 = EMPTY_ROW * 10 + "4.....\n1.....\n"
    grid1 = EMPTY_ROW * 11 + "....14\n"
    assert game.prompt(state, 0) == pairs + "0\n" + grid0 + "0\n" + grid1
    assert game.prompt(state, 1) == pairs + "0\n" + grid1 + "0\n" + grid0


def test_prompt_with_scores_and_skulls() -> None:
    state = StcState(
        pairs=((1, 2), (3, 4), (5, 1), (2, 3), (4, 5), (1, 1), (2, 2), (3, 3), (4, 4)),
        max_turns=200,
        grids=(("2", "", "", "", "", "0"), ("13", "0", "0", "0", "0", "0")),
        scores=(40, 1230),
    )
    expected = (
        "1 2\n3 4\n5 1\n2 3\n4 5\n1 1\n2 2\n3 3\n"
        "40\n" + EMPTY_ROW * 11 + "2....0\n"
        "1230\n" + EMPTY_ROW * 10 + "3.....\n" + "100000\n"
    )
    assert StcGame().prompt(state, 0) == expected
    assert len(expected.splitlines()) == 8 + 1 + 12 + 1 + 12


def test_prompt_shows_pairs_from_the_current_turn() -> None:
    game = StcGame()
    state = replace(game.start(0, 2, {}), turn=1)
    assert game.prompt(state, 0).startswith("5 3\n1 4\n")


def test_grid_rows_round_trip() -> None:
    rows = ["." * 6] * 9 + ["5.....", "40..2.", "331021"]
    grid = grid_from_rows(rows)
    assert grid == ("345", "30", "1", "0", "22", "1")
    assert grid_rows(grid) == tuple(rows)
    with pytest.raises(ValueError):
        grid_from_rows(["1.....", "......"])  # a block above an empty cell
    with pytest.raises(ValueError):
        grid_from_rows(["16...."])


def test_grid_rows_read_every_cell_from_the_top_full_columns_and_empty_ones_too() -> None:
    rng = random.Random(4)
    for _ in range(300):
        grid = tuple(
            "".join(rng.choice("012345") for _ in range(rng.randrange(13))) for _ in range(6)
        )
        expected = tuple(
            "".join(col[y] if y < len(col) else "." for col in grid) for y in range(11, -1, -1)
        )
        assert grid_rows(grid) == expected
        assert grid_from_rows(expected) == grid


@pytest.mark.parametrize(
    ("text", "action", "message"),
    [
        ("2 1", (2, 1), ""),
        ("2 1 hello world", (2, 1), "hello world"),
        ("2 1   spaced  out  ", (2, 1), "spaced  out  "),
        ("2", (2, 3), ""),  # rotation left out means 3
        ("2 hello", (2, 3), "hello"),  # text after x that is not a number: the message
        ("0 0", (0, 0), ""),
        ("4 0", (4, 0), ""),
        ("5 2", (5, 2), ""),
        ("1 2", (1, 2), ""),
        ("5 1", (5, 1), ""),
        ("0 3", (0, 3), ""),
        ("3 0\r", (3, 0), ""),
    ],
)
def test_answer_parses(text: str, action: tuple[int, int], message: str) -> None:
    assert StcGame().interpret(StcGame().start(0, 2, {}), 0, text) == Move(action, message)


def test_message_cut_at_40_characters() -> None:
    long = "abcdefghij" * 5
    assert parse_answer(f"3 0 {long}").message == long[:40]
    assert len(parse_answer(f"3 0 {long}").message) == 40


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "a b",
        "6 0",  # x outside 0-5
        "-1 0",
        "5 0",  # B would be in column 6
        "0 2",  # B would be in column -1
        "2.0 1",
        "x2 1",
        "٣ 1",  # a non-ASCII digit
    ],
)
def test_answer_invalid_keeps_raw_text(text: str) -> None:
    with pytest.raises(InvalidAnswer) as info:
        parse_answer(text)
    assert info.value.raw == text
