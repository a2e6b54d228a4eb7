"""Smash The Code as CodinGame's referee plays it (RULINGS.md, stc): every example a test.

The answer is matched against CodinGame's own pattern; on a forfeit turn the other
player's move is still played and scored; scores are CodinGame's; the parsed message is
stored per turn in the replay and shown by ``arena match --verbose``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import arena
from arena import InvalidAnswer, Move
from arena.botproc import Sandbox
from arena.errors import ConfigError
from arena.game import standing_moves
from arena.records import BotSpec
from arena.referee.engine import Referee
from arena_games.stc.game import StcGame
from arena_games.stc.protocol import ANSWER, parse_answer
from support import run_arena


@pytest.mark.parametrize(
    ("text", "column", "rotation", "message"),
    [
        ("2 4", 2, 3, "4"),  # 4 is no rotation: column 2, rotation 3, message "4"
        ("2 01", 2, 3, "01"),  # "0" then "1" cannot both fit: rotation 3, message "01"
        ("2 1.5", 2, 3, "1.5"),
        ("-0 1", 0, 1, ""),
        ("2", 2, 3, ""),  # a rotation left out means 3
        ("2 hello", 2, 3, "hello"),
        ("2 -1", 2, 3, "-1"),
        ("2 1 hello world", 2, 1, "hello world"),
        ("2 1   inner  spaces", 2, 1, "inner  spaces"),
        ("2\t1\t", 2, 1, ""),  # Java's \s: tabs too
        ("00000002 1", 2, 1, ""),  # up to 8 digits
        ("3 0\r", 3, 0, ""),  # a trailing \r removed
        ("4 2 " + "m" * 50, 4, 2, "m" * 40),  # first 40 characters kept
    ],
)
def test_answers_match_codingames_pattern(
    text: str, column: int, rotation: int, message: str
) -> None:
    state = StcGame().start(0, 2, {})
    assert StcGame().interpret(state, 0, text) == Move((column, rotation), message)


@pytest.mark.parametrize(
    "text",
    [
        " 2 1",  # a leading space does not match
        "",
        "a b",
        "2.0 1",
        "123456789 0",  # 9 digits
        "6 0",  # column outside 0-5
        "-1 0",
        "5 0",  # B in column 6
        "0 2",  # B in column -1
        "٣ 1",  # Java's \d is ASCII only
        "2\u00a01",  # and so is its \s
        "2 1 a\rb",  # Java's . stops at line terminators
        "2 1 a\u2028b",
    ],
)
def test_answers_that_do_not_match_are_invalid_with_the_raw_text(text: str) -> None:
    with pytest.raises(InvalidAnswer) as info:
        parse_answer(text)
    assert info.value.raw == text


def test_the_pattern_is_codingames_spelt_for_python() -> None:
    ascii_s = "[ \\t\\n\\x0b\\f\\r]"
    assert ANSWER.pattern == (
        f"(-?[0-9]{{1,8}})(?:{ascii_s}+([0123]))?{ascii_s}*"
        f"(?:{ascii_s}+([^\\n\\r\\u0085\\u2028\\u2029]+))?"
    )


def test_a_forfeit_turn_still_plays_and_scores_the_other_move() -> None:
    # Seed 63 deals 5 5 twice: two vertical drops in column 0 clear four 5s (40 points).
    game = StcGame()
    state = game.start(63, 2, {})
    state = game.apply(state, {0: (1, 1), 1: (0, 1)})
    state = game.eliminate(state, 0)  # seat 0 answers garbage on turn 2
    actions = standing_moves(game, state, {1: (0, 1)}, forfeited=True)
    assert actions == {1: (0, 1)}
    state = game.apply(state, actions)
    assert state.scores == (0, 40)
    assert game.to_act(state) == ()
    outcome = game.outcome(state)
    assert (outcome.ranks, outcome.scores) == ((1, 0), (0.0, 40.0))


def test_reported_scores_are_codingames() -> None:
    game = StcGame()
    state = game.start(63, 2, {"max_turns": 2})
    state = game.apply(state, {0: (3, 1), 1: (0, 1)})
    state = game.apply(state, {0: (5, 1), 1: (0, 1)})
    assert state.scores == (0, 40)
    outcome = game.outcome(state)  # alive: max(1, points)
    assert (outcome.ranks, outcome.scores, outcome.reason) == ((1, 0), (1.0, 40.0), "2 turns")
    assert game.view(state)["scores"] == [0, 40]  # the raw points stay in the replay


SCRIPTED = """
import sys
answers = {answers!r}
for answer in answers:
    for _ in range(34):
        if not sys.stdin.readline():
            sys.exit(0)
    print(answer, flush=True)
sys.stdin.read()
"""


def scripted(tmp_path: Path, name: str, answers: list[str]) -> BotSpec:
    path = tmp_path / f"{name}.py"
    path.write_text(SCRIPTED.format(answers=answers))
    return BotSpec(name, (sys.executable, str(path)))


def referee_game(tmp_path: Path, seed: int, a: list[str], b: list[str]):
    bots = [scripted(tmp_path, "a", a), scripted(tmp_path, "b", b)]
    game_dir = tmp_path / "game"
    record = Referee(StcGame(), bots, game_dir, Sandbox("none")).play(seed, {"max_turns": 200})
    return record, json.loads((game_dir / "replay.json").read_text())


def test_referee_scores_the_survivors_move_of_the_forfeit_turn(tmp_path: Path) -> None:
    record, replay = referee_game(tmp_path, 63, ["1 1", "oops"], ["0 1", "0 1 boom"])
    assert [s.forfeit for s in record.seats] == ["invalid", None]
    assert [s.rank for s in record.seats] == [1, 0]
    assert [s.score for s in record.seats] == [0.0, 40.0]
    assert replay["final"]["scores"] == [0, 40]
    assert replay["steps"][1]["messages"] == {"1": "boom"}


def test_both_out_in_one_turn_is_a_draw(tmp_path: Path) -> None:
    # Seed 0: six vertical pairs fill column 0 without a clear; the seventh does not fit.
    # On that turn seat 0 answers garbage: both players are out, CodinGame calls it a draw.
    a = ["1 1", "2 1", "3 1", "4 1", "5 1", "1 1", "garbage"]
    record, replay = referee_game(tmp_path, 0, a, ["0 1"] * 7)
    assert [s.forfeit for s in record.seats] == ["invalid", None]
    assert [s.rank for s in record.seats] == [0, 0]
    assert [s.score for s in record.seats] == [0.0, 0.0]
    assert record.reason == "forfeit; player 1 could not place its pair"
    assert replay["final"]["dead"] == [False, True]


def test_messages_are_stored_per_turn_and_shown_by_verbose(tmp_path: Path) -> None:
    for name, answers in (("talker", ["0 1 hello there", "2 4", "3 01"]), ("quiet", ["5"] * 3)):
        (tmp_path / f"{name}.py").write_text(SCRIPTED.format(answers=answers))
    out = tmp_path / "out"
    result = run_arena(
        "match", "stc", f"python3 {tmp_path / 'talker.py'}", f"python3 {tmp_path / 'quiet.py'}",
        "--seed", "0", "--games", "1", "--verbose", "--output", str(out),
        "--max_turns", "3",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "    message: hello there\n" in result.stdout
    assert "    message: 4\n" in result.stdout
    assert "    message: 01\n" in result.stdout
    replay = json.loads(next(out.rglob("replay.json")).read_text())
    assert [step["messages"] for step in replay["steps"]] == [
        {"0": "hello there"},
        {"0": "4"},
        {"0": "01"},
    ]


def test_a_turn_both_players_forfeit_counts_as_played(tmp_path: Path) -> None:
    # Three turns played, then both answer garbage on the fourth: CodinGame's Java referee
    # reports 4 turns (the forfeit turn counts), and both out in one turn is a draw.
    good = ["0 1", "1 1", "2 1"]
    record, replay = referee_game(tmp_path, 0, [*good, "oops"], [*good, "nope"])
    assert [s.forfeit for s in record.seats] == ["invalid", "invalid"]
    assert [s.rank for s in record.seats] == [0, 0]
    assert record.turns == 4
    assert replay["steps"][-1]["turn"] == 4
    assert replay["final"]["turn"] == 4


def test_one_seat_forfeiting_counts_its_turn_too() -> None:
    game = StcGame()
    state = game.eliminate(game.start(0, 2, {}), 1)
    state = game.apply(state, standing_moves(game, state, {0: (0, 1)}, forfeited=True))
    assert game.turn_number(state) == 1
    both = game.eliminate(game.eliminate(game.start(0, 2, {}), 0), 1)
    assert game.turn_number(both) == 1
    assert game.to_act(both) == ()


@pytest.mark.parametrize("seed", [2**63, 2**64, -(2**63) - 1])
def test_a_seed_outside_javas_long_is_refused(seed: int) -> None:
    # CodinGame's referee reads the seed as a Java long: 2^63 is refused there, while
    # java.util.Random's 48-bit state would play it as seed 0.
    with pytest.raises(
        ValueError,
        match=r"seed -?\d+ is not a Java long \(-9223372036854775808 to 9223372036854775807\)",
    ):
        StcGame().start(seed, 2, {"max_turns": 200})


@pytest.mark.parametrize("seed", [2**63 - 1, -(2**63), -1, 0])
def test_every_java_long_is_a_seed(seed: int) -> None:
    state = StcGame().start(seed, 2, {"max_turns": 200})
    assert len(state.pairs) == 207


def test_arena_match_refuses_a_seed_outside_javas_long(tmp_path: Path) -> None:
    (tmp_path / "bot.py").write_text(SCRIPTED.format(answers=["0 1"] * 3))
    bot = f"python3 {tmp_path / 'bot.py'}"
    result = run_arena(
        "match", "stc", bot, bot, "--seed", str(2**63), "--games", "1", "--sandbox", "none",
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "arena: --seed 9223372036854775808 is not a Java long "
        "(-9223372036854775808 to 9223372036854775807), which CodinGame's referee requires"
    ]
    assert "turns" not in result.stdout  # no game was played (as seed 0 or any other)


def test_arena_match_refuses_a_later_game_seed_past_javas_long(tmp_path: Path) -> None:
    # --games 2 plays --seed and --seed + 1: the second is refused before the first is played.
    bot = f"python3 {tmp_path / 'bot.py'}"
    (tmp_path / "bot.py").write_text(SCRIPTED.format(answers=["0 1"] * 3))
    result = run_arena(
        "match", "stc", bot, bot, "--seed", str(2**63 - 1), "--games", "4", "--sandbox", "none",
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.startswith(
        "arena: --seed 9223372036854775807 --games 4: seed 9223372036854775808 is not a Java long"
    )
    assert "turns" not in result.stdout


def test_a_tournament_seed_outside_javas_long_is_refused_with_its_line(tmp_path: Path) -> None:
    (tmp_path / "bot.py").write_text(SCRIPTED.format(answers=["0 1"] * 3))
    config = tmp_path / "t.yaml"
    config.write_text(
        "game: stc\nbots:\n  - {name: a, cmd: python3 bot.py}\n"
        f"  - {{name: b, cmd: python3 bot.py}}\nseed: {2**63}\nsandbox: none\n"
    )
    result = run_arena("run", str(config))
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"arena: {config}: seed (line 5): 9223372036854775808 is not a Java long "
        "(-9223372036854775808 to 9223372036854775807), which CodinGame's referee requires"
    ]
    assert not (tmp_path / "out").exists()


def test_arena_play_refuses_a_seed_outside_javas_long(tmp_path: Path) -> None:
    (tmp_path / "bot.py").write_text(SCRIPTED.format(answers=["0 1"] * 3))
    bot = f"python3 {tmp_path / 'bot.py'}"
    with pytest.raises(ConfigError, match=r"^seed -9223372036854775809 is not a Java long"):
        arena.play("stc", [bot, bot], seed=-(2**63) - 1, sandbox="none")
