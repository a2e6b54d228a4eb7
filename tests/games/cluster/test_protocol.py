"""42-cluster protocol byte for byte, and the Game contract around it."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from arena import Ignore, IllegalMove, Incomplete, InvalidAnswer, Move, Reply
from arena_games.cluster import rules
from arena_games.cluster.game import ClusterGame
from arena_games.cluster.protocol import Trailing
from arena_games.cluster.rules import EMPTY, ChooseColor, Drop, Rotate, State

GAME = ClusterGame()
DEFAULTS = dict(ClusterGame.info.settings)


def started(seed: int = 1, **settings: object) -> State:
    """A game past the colour step, player 0 to move."""
    state = GAME.start(seed, 2, {**DEFAULTS, **settings})
    return GAME.apply(state, {0: ChooseColor(5), 1: ChooseColor(0)})


def answer(state: State, seat: int, line: str) -> Move:
    """Interpret a line that must be a move."""
    result = GAME.interpret(state, seat, line)
    assert isinstance(result, Move)
    return result


def test_info() -> None:
    info = ClusterGame.info
    assert (info.id, info.min_players, info.max_players, info.queries) == ("cluster", 2, 2, True)
    assert info.settings == {
        "colors": 4,
        "chips_per_color": None,
        "grid_size": 6,
        "win_length": 4,
        "timeout": 1.0,
        "wall_chance": 0.0,
    }


def test_init_prompt_byte_for_byte() -> None:
    state = GAME.start(1, 2, DEFAULTS)
    assert GAME.to_act(state) == [0, 1]
    assert GAME.prompt(state, 0) == "init 4 22 6 4 1.000000 0\n"  # the timeout as C's %f
    assert GAME.prompt(state, 1) == "init 4 22 6 4 1.000000 1\n"
    other = GAME.start(1, 2, {**DEFAULTS, "grid_size": 3, "timeout": 0.5, "colors": 2})
    assert GAME.prompt(other, 1) == "init 2 9 3 4 0.500000 1\n"
    fixed = GAME.start(1, 2, {**DEFAULTS, "chips_per_color": 5, "win_length": 5})
    assert GAME.prompt(fixed, 0) == "init 4 5 6 5 1.000000 0\n"


@pytest.mark.parametrize(
    "line", ["color 0", "color 1", "color 3", "color 4", "color 5", "color 2", "color -1"]
)
def test_color_answers(line: str) -> None:
    state = GAME.start(1, 2, DEFAULTS)  # any integer, as the original accepts
    assert answer(state, 0, line).action == ChooseColor(int(line.split()[1]))


@pytest.mark.parametrize("line", ["color x", "color .5", "drop 0 1", "rotate 1", "colour 1"])
def test_bad_color_answers_are_invalid(line: str) -> None:
    state = GAME.start(1, 2, DEFAULTS)
    with pytest.raises(InvalidAnswer):
        GAME.interpret(state, 1, line)


def test_turn_prompts_byte_for_byte() -> None:
    state = replace(started(), drawn=(1, 1))
    assert GAME.to_act(state) == [0]
    assert GAME.prompt(state, 0) == "chips 1 1\n"  # no opponent action before the first turn
    state = GAME.apply(state, {0: answer(state, 0, "drop 0 1").action})
    state = replace(state, drawn=(2, 3))
    assert GAME.to_act(state) == [1]
    assert GAME.prompt(state, 1) == "drop 0 1\nchips 2 3\n"
    state = GAME.apply(state, {1: answer(state, 1, "rotate 1").action})
    state = replace(state, drawn=(0, EMPTY))
    assert GAME.prompt(state, 0) == "rotate 1\nchips 0 -1\n"


def test_seed_example_dialogue() -> None:
    """The original's example, seen by player 1 (chips forced to the example's)."""
    state = GAME.start(1, 2, DEFAULTS)
    assert GAME.prompt(state, 1) == "init 4 22 6 4 1.000000 1\n"
    state = GAME.apply(state, {0: ChooseColor(0), 1: answer(state, 1, "color 5").action})
    state = replace(state, drawn=(1, 0))
    state = GAME.apply(state, {0: answer(state, 0, "drop 0 1").action})
    state = replace(state, drawn=(2, 3))
    assert GAME.prompt(state, 1) == "drop 0 1\nchips 2 3\n"
    state = GAME.apply(state, {1: answer(state, 1, "drop 1 2").action})
    state = replace(state, drawn=(1, 1))
    state = GAME.apply(state, {0: answer(state, 0, "drop 0 1").action})
    state = replace(state, drawn=(3, 3))
    assert GAME.prompt(state, 1) == "drop 0 1\nchips 3 3\n"
    move = answer(state, 1, "rotate 1")
    assert move.action == Rotate(1)
    assert GAME.apply(state, {1: move.action}).gravity == 1


def small_position() -> State:
    """Grid 2 (7 cells), a wall in the centre, player 0 dropped chip 0 in column 1."""
    state = started(grid_size=2, colors=2)
    state = replace(state, walls=frozenset({state.grid.index[(0, 0, 0)]}), drawn=(0, 0))
    return GAME.apply(state, {0: Drop(1, 0)})


def test_fetch_cells_byte_for_byte() -> None:
    state = small_position()
    assert GAME.interpret(state, 1, "fetch cells") == Reply(
        "cell_count 7\n"
        "cell -1 0 1 -1\n"
        "cell -1 1 0 -1\n"
        "cell 0 -1 1 -1\n"
        "cell 0 0 0 -1\n"
        "cell 0 1 -1 -1\n"
        "cell 1 -1 0 -1\n"
        "cell 1 0 -1 0\n"
    )


def test_fetch_chips_gravity_walls_byte_for_byte() -> None:
    state = small_position()
    assert GAME.interpret(state, 1, "fetch chips") == Reply("cell_count 1\ncell 1 0 -1 0\n")
    assert GAME.interpret(state, 1, "fetch gravity") == Reply("gravity 3\n")
    assert GAME.interpret(state, 1, "fetch walls") == Reply("wall_count 1\nwall 0 0 0\n")
    empty = started(grid_size=2, colors=2)
    assert GAME.interpret(empty, 0, "fetch walls") == Reply("wall_count 0\n")
    assert GAME.interpret(empty, 0, "fetch chips") == Reply("cell_count 0\n")


def test_fetch_answers_follow_rotation() -> None:
    state = replace(small_position(), drawn=(1, 1))
    walled = GAME.apply(state, {1: Rotate(5)})  # top-left: the wall at (0, 0, 0) holds it
    assert GAME.interpret(walled, 0, "fetch chips") == Reply("cell_count 1\ncell 1 0 -1 0\n")
    state = GAME.apply(state, {1: Rotate(4)})  # bottom-left: (1, 0, -1) slides to (0, 1, -1)
    assert GAME.interpret(state, 0, "fetch gravity") == Reply("gravity 4\n")
    assert GAME.interpret(state, 0, "fetch chips") == Reply("cell_count 1\ncell 0 1 -1 0\n")


@pytest.mark.parametrize(
    "line",
    ["fetch board", "fetch cells now", "dropp 0 1", "drop a", "drop 0x 1", "drop 0 x1", "rotate +"],
)
def test_garbage_is_invalid(line: str) -> None:
    with pytest.raises(InvalidAnswer) as err:
        GAME.interpret(started(), 0, line)
    assert err.value.raw == line


@pytest.mark.parametrize("words", ["fetch", "drop", "drop 0", "drop -3", "rotate"])
def test_a_command_missing_words_asks_for_more(words: str) -> None:
    assert GAME.interpret(started(), 0, words) == Incomplete()


def test_blank_lines_are_skipped() -> None:
    assert GAME.interpret(started(), 0, "") == Ignore()
    assert GAME.interpret(GAME.start(1, 2, DEFAULTS), 0, "  ") == Ignore()


@pytest.mark.parametrize(
    ("drawn", "line", "message"),
    [
        ((0, EMPTY), "rotate 1", "rotating needs two chips"),
        ((0, 1), "rotate 6", "gravity 6 is not in 0..5"),
        ((0, 0), "drop 0 1", "chip 1 was not drawn"),
        ((0, 1), "drop 0 2", "chip 2 was not drawn"),
        ((0, 1), "drop -6 0", "position -6 is not in -5..5"),
    ],
)
def test_illegal_moves(drawn: tuple[int, int], line: str, message: str) -> None:
    state = replace(started(), drawn=drawn)
    with pytest.raises(IllegalMove, match=message) as err:
        GAME.interpret(state, 0, line)
    assert err.value.raw == line


def test_moves_carry_where_the_chip_lands() -> None:
    state = replace(started(), drawn=(0, 1))
    assert answer(state, 0, "drop 0 1") == Move(Drop(0, 1), "lands on 0 5 -5")
    assert answer(state, 0, " rotate  2 ") == Move(Rotate(2), "gravity -> bottom-right")


@pytest.mark.parametrize(
    ("line", "action", "rest"),
    [
        ("drop 0 1x", Drop(0, 1), "x"),
        ("drop 0 1;", Drop(0, 1), ";"),
        ("drop 0 1.0", Drop(0, 1), ".0"),
        ("rotate 2;", Rotate(2), ";"),
        ("drop -1 +0drop", Drop(-1, 0), "drop"),
    ],
)
def test_a_last_number_is_read_as_far_as_its_digits_go(
    line: str, action: Drop | Rotate, rest: str
) -> None:
    # RULINGS (cluster, original): %d reads the digits; the action is played, and what
    # follows them is read as the seat's next command, on its next turn.
    state = replace(started(), drawn=(0, 1))
    move = answer(state, 0, line)
    assert move.action == Trailing(action, rest)
    assert f"{rest!r} left unread" in move.message
    assert GAME.action_view(move.action) == {**GAME.action_view(action), "rest": rest}
    after = GAME.apply(state, {0: move.action})
    assert after.last_action == rules.action_line(action)  # what the opponent is sent
    assert after.turn == 1 and GAME.prompt(after, 1).startswith(rules.action_line(action))
    mine = GAME.apply(
        after, {1: answer(after, 1, GAME.random_answer(after, 1, random.Random(1))).action}
    )
    with pytest.raises(InvalidAnswer) as err:
        GAME.interpret(mine, 0, "fetch")
    if rest == "drop":  # a command name left over starts the next command: "drop fetch"
        assert err.value.raw == "drop fetch"
    else:
        assert err.value.raw == rest


def test_color_with_characters_after_its_number() -> None:
    state = GAME.start(1, 2, DEFAULTS)
    move = answer(state, 1, "color 1.5")
    assert move.action == Trailing(ChooseColor(1), ".5")
    after = GAME.apply(state, {0: ChooseColor(0), 1: move.action})
    assert after.chosen == (0, 1) and after.leftover == ("", ".5")
    assert GAME.interpret(after, 0, "fetch gravity") == Reply("gravity 3\n")  # seat 0 plays on


def test_clock_uses_the_timeout_setting() -> None:
    state = GAME.start(1, 2, {**DEFAULTS, "timeout": 0.25})
    assert GAME.clock_ms(state, 0, first_turn=True) == 2250
    assert GAME.clock_ms(state, 0, first_turn=False) == 250
    assert GAME.clock_ms(started(), 1, first_turn=False) == 1000


def test_eliminate_ends_the_game_with_the_other_seat_first() -> None:
    for state in (GAME.start(1, 2, DEFAULTS), started()):
        over = GAME.eliminate(state, 0)
        assert GAME.to_act(over) == []
        outcome = GAME.outcome(over)
        assert (outcome.ranks, outcome.scores) == ((1, 0), (0.0, 1.0))


def test_both_seats_forfeiting_init_both_lose() -> None:
    over = GAME.eliminate(GAME.eliminate(GAME.start(1, 2, DEFAULTS), 1), 0)
    outcome = GAME.outcome(over)
    assert (outcome.ranks, outcome.scores) == ((0, 0), (0.0, 0.0))
    assert outcome.reason == "both players forfeit"


def play_random(seed: int) -> tuple[list[str], tuple[int, ...], int]:
    """A random game: every prompt, the ranks, the turns."""
    rng = random.Random(seed)
    state = GAME.start(seed, 2, {**DEFAULTS, "wall_chance": 0.2})
    prompts: list[str] = []
    while seats := GAME.to_act(state):
        moves = {}
        for seat in seats:
            prompts.append(GAME.prompt(state, seat))
            moves[seat] = answer(state, seat, GAME.random_answer(state, seat, rng)).action
        state = GAME.apply(state, moves)
    assert GAME.view(state)["winner"] in (0, 1)
    assert GAME.render(state)
    return prompts, GAME.outcome(state).ranks, GAME.turn_number(state)


def test_random_games_end_and_replay_identically() -> None:
    for seed in range(8):
        first = play_random(seed)
        assert sorted(first[1]) == [0, 1] and first[2] > 0
        assert play_random(seed) == first


def test_view_and_render() -> None:
    state = small_position()
    view = GAME.view(state)
    assert view["chips"] == [[1, 0, -1, 0]] and view["walls"] == [[0, 0, 0]]
    assert view["gravity"] == 3 and view["turn"] == 1 and view["last_action"] == "drop 1 0"
    assert GAME.render(state).splitlines()[1:] == [
        "  .",
        ".   .",
        "  #",
        ".   0",
        "  .",
    ]


def test_fetch_is_answered_before_color() -> None:
    state = GAME.start(1, 2, DEFAULTS)
    assert GAME.interpret(state, 0, "fetch gravity") == Reply("gravity 3\n")
    assert GAME.interpret(state, 1, "fetch chips") == Reply("cell_count 0\n")
    assert GAME.interpret(state, 1, "color") == Incomplete()
