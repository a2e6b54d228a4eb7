"""Splitter's text protocol byte for byte, and every kind of bad answer."""

from __future__ import annotations

import json
import random
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from arena import Ignore, IllegalMove, InvalidAnswer, Move
from arena.botproc import Sandbox
from arena.records import BotSpec
from arena.referee.engine import Referee
from arena_games.splitter.game import SplitterGame
from arena_games.splitter.rules import Placement, SplitterState

GAME = SplitterGame()


def start(layout: int, dice: list[tuple[int, int]] | None = None, seed: int = 0) -> SplitterState:
    """A new game, optionally with its dice replaced (rounds keep their count)."""
    state = GAME.start(seed, 1, {"layout": layout})
    if dice is not None:
        state = replace(state, dice=tuple(dice + list(state.dice[len(dice) :])))
    return state


def play(state: SplitterState, text: str) -> SplitterState:
    """Interpret ``text`` (it must be a Move) and apply it."""
    answer = GAME.interpret(state, 0, text)
    assert isinstance(answer, Move)
    return GAME.apply(state, {0: answer.action})


# ---------------------------------------------------------------- prompts


def test_first_prompt_layout_1_is_size_sheet_and_dice() -> None:
    state = start(1, [(4, 1)])
    assert GAME.prompt(state, 0) == (
        "8 7 22\n"
        "0 0 1 1 1 1 0 0\n"
        "0 1 1 1 1 1 1 0\n"
        "1 1 1 1 1 1 1 1\n"
        "2 1 1 1 1 1 1 2\n"
        "1 1 1 1 1 1 1 1\n"
        "0 1 1 1 1 1 1 0\n"
        "0 0 1 1 1 1 0 0\n"
        "4 1\n"
    )


def test_first_prompt_layout_2() -> None:
    state = start(2, [(6, 6)])
    assert GAME.prompt(state, 0) == (
        "8 7 22\n"
        "1 1 1 0 0 1 3 1\n"
        "1 1 1 1 1 1 1 1\n"
        "0 3 1 1 1 1 1 0\n"
        "0 1 1 0 0 1 1 0\n"
        "0 1 1 1 3 1 1 0\n"
        "1 1 1 1 1 1 1 1\n"
        "1 2 1 0 0 1 2 1\n"
        "6 6\n"
    )


def test_prompt_dice_are_the_seeded_roll_in_order() -> None:
    # .NET's new Random(0).Next(1, 7) twice: 5 then 5; round 2 is 5 4 (see
    # test_splitter_dotnet_random.py for where these come from).
    state = start(1, seed=0)
    assert GAME.prompt(state, 0).endswith("\n5 5\n")
    assert GAME.prompt(play(state, "5 2 1"), 0) == "5 4\n"


def test_later_prompts_are_the_dice_line_only() -> None:
    state = play(start(1, [(4, 1), (1, 2), (5, 3)]), "4 2 1")
    assert GAME.prompt(state, 0) == "1 2\n"
    state = play(state, "1 3 2")
    assert GAME.prompt(state, 0) == "5 3\n"


def test_nothing_is_sent_after_the_last_round() -> None:
    state = start(2, seed=3)
    rng = random.Random(3)
    for _ in range(21):
        state = play(state, GAME.random_answer(state, 0, rng))
    assert GAME.to_act(state) == (0,)
    last = GAME.prompt(state, 0)
    assert len(last.splitlines()) == 1
    state = play(state, GAME.random_answer(state, 0, rng))
    assert GAME.to_act(state) == ()
    assert GAME.prompt(state, 0) == ""


# ---------------------------------------------------------------- answers


@pytest.mark.parametrize(
    "text",
    [
        "4 2 1",
        "4 2,1",
        "4,2,1",  # the Tester replaces commas with spaces (RULINGS.md)
        "4 2 1 extra",  # fields after the third are ignored
        "4 2 1 0",
        "4 2 1 #",
        "4,2,1,",
        "4 2 1 ",
        "4 2 1  x",
        "+4 2 1",  # what .NET's int.TryParse / int.Parse read
        "04 2 01",
        "\t4 2 1",  # blanks around a field's number are part of the field
        "4 \t2 1",
        "4 2\t 1",
        "4\x0b 2 1\x0c",
        "4\x00 2 1",  # .NET ignores NUL characters after a number
        "4 2\t\x00\x00 1",
        "4 +2 +1",
    ],
)
def test_answer_forms_accepted(text: str) -> None:
    answer = GAME.interpret(start(1, [(4, 1)]), 0, text)
    assert answer == Move(Placement(4, 2, 1), "4 at (2,1), 1 at (5,1)")


def test_answer_naming_the_second_die_on_the_right_half() -> None:
    state = play(start(1, [(4, 1)]), "1 5,1")
    assert (state.value(5, 1), state.value(2, 1)) == (1, 4)


@pytest.mark.parametrize(
    "text",
    [
        "",  # the rulings' examples: an empty line, a comment, a word first, a leading space
        "# note",
        "Placing 4",
        " 4 2 1",
        "-1 0 0",  # the Tester's "not a number": a debug line, not a move
        "-1 x y",
        "-1",
        "-01 2 1",
        "\t-1 9 9",
        "#",
        "#4 2 1",
        "   ",
        "hello",
        "4\t2\t1",  # tabs do not split: the first field is "4\t2\t1"
        "p 4 2,1",  # the old form: the current Tester skips it
        "4.0 2 1",
        "x 4 2 1",
        "4x 2 1",
        "- 4 2 1",
        "99999999999 2 1",  # not a 32-bit integer: int.TryParse fails
        "\u0664 2 1",  # an Arabic-Indic 4: .NET reads ASCII digits only
        "\x00 4 2 1",
    ],
)
def test_lines_that_are_not_answers_are_skipped(text: str) -> None:
    assert GAME.interpret(start(1, [(4, 1)]), 0, text) == Ignore()


@pytest.mark.parametrize(
    "text",
    [
        "4",  # the Tester reads items[1] and items[2]: a missing field crashes it
        "4 2",
        "4 2,",  # "4 2 " splits into "4", "2", ""
        "4  2 1",  # two spaces make an empty x
        "4 2, 1",  # an empty field between ',' and ' '
        "4 2  1",
        "4 x y",
        "4 two 1",
        "4 2;1",
        "4 2 1.0",
        "4 2 99999999999",  # int.Parse overflows
        "4 2\t1",  # the second field "2\t1" is not a number, the third is missing
        "-2 2",  # any first integer but -1 makes the line an answer
    ],
)
def test_an_answer_whose_cell_does_not_parse_is_invalid(text: str) -> None:
    with pytest.raises(InvalidAnswer) as info:
        GAME.interpret(start(1, [(4, 1)]), 0, text)
    assert info.value.raw == text
    assert info.value.reason == "invalid"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("3 2 1", "die 3 was not rolled (dice 4 1)"),
        ("7 2 1", "die 7 was not rolled (dice 4 1)"),
        ("4 0 0", "(0,0) is not fillable"),
        ("4 6 6", "(6,6) is not fillable"),
        ("4 8 1", "(8,1) is off the 8x7 sheet"),
        ("4 -1 1", "(-1,1) is off the 8x7 sheet"),
        ("4 2 7", "(2,7) is off the 8x7 sheet"),
        ("-2 2 1", "die -2 was not rolled (dice 4 1)"),
        ("0 2 1", "die 0 was not rolled (dice 4 1)"),
    ],
)
def test_illegal_answers_say_why_and_keep_the_raw_text(text: str, message: str) -> None:
    with pytest.raises(IllegalMove) as info:
        GAME.interpret(start(1, [(4, 1)]), 0, text)
    assert info.value.raw == text
    assert info.value.message == message
    assert info.value.reason == "illegal"


def test_taken_cells_are_illegal() -> None:
    state = play(start(1, [(4, 1), (6, 2)]), "4 2 1")
    for text, message in [("6 2 1", "(2,1) already holds 4"), ("2 5,1", "(5,1) already holds 1")]:
        with pytest.raises(IllegalMove) as info:
            GAME.interpret(state, 0, text)
        assert (info.value.message, info.value.raw) == (message, text)


CHATTY_BOT = """
import sys
w, h, rounds = map(int, sys.stdin.readline().split())
sheet = [sys.stdin.readline().split() for _ in range(h)]
free = [(x, y) for y in range(h) for x in range(w // 2) if sheet[y][x] != "0"]
for _ in range(rounds):
    a, b = sys.stdin.readline().split()
    x, y = free.pop(0)
    print("", flush=True)                      # skipped by the Tester
    print("-1 0 0", flush=True)                # skipped: -1 is the Tester's "no number"
    print(f"Placing {a}", flush=True)          # skipped: the first field is a word
    print(f" {a} {x} {y}", flush=True)         # skipped: the first field is empty
    print(f"{a},{x},{y} extra", flush=True)    # the answer: extra fields ignored
"""


def test_a_bot_writing_lines_the_tester_skips_plays_the_whole_game(tmp_path: Path) -> None:
    path = tmp_path / "chatty.py"
    path.write_text(CHATTY_BOT)
    bot = BotSpec("chatty", (sys.executable, str(path)))
    record = Referee(GAME, [bot], tmp_path / "game", Sandbox("none")).play(3, {"layout": 1})
    assert record.seats[0].forfeit is None, record.seats[0].detail
    replay = json.loads((tmp_path / "game" / "replay.json").read_text())
    assert len(replay["steps"]) == 22
    for step in replay["steps"]:
        blank, debug, placing, spaced, answer = step["io"]["0"]["lines"]
        assert (blank, debug, placing[:8], spaced[0]) == ("", "-1 0 0", "Placing ", " ")
        assert step["moves"]["0"] == answer and answer.endswith(" extra")


def test_a_bot_whose_answer_does_not_parse_forfeits_as_invalid(tmp_path: Path) -> None:
    path = tmp_path / "double_space.py"
    path.write_text("import sys\nfor _ in range(9):\n    sys.stdin.readline()\nprint('4  2 1')\n")
    bot = BotSpec("double", (sys.executable, str(path)))
    record = Referee(GAME, [bot], tmp_path / "game", Sandbox("none")).play(3, {"layout": 1})
    assert record.seats[0].forfeit == "invalid"
    assert record.seats[0].score == 0.0
    assert record.seats[0].raw == "4  2 1"
