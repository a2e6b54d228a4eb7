"""42-cluster rules worked out by hand: columns, falling chips, lines, the bag."""

from __future__ import annotations

from dataclasses import replace

import pytest

from arena_games.cluster import rules
from arena_games.cluster.hexgrid import DIRECTIONS, entry_cell, hexgrid
from arena_games.cluster.rules import EMPTY, ChooseColor, Drop, Rotate, Settings, State

DEFAULT = Settings.from_mapping({})


def playing(
    settings: Settings = DEFAULT, drawn: tuple[int, int] = (0, 1), **changes: object
) -> State:
    """A state in play (colours chosen), player 0 to move holding ``drawn``."""
    state = rules.choose_colors(rules.new_game(7, settings), {0: 1, 1: 4})
    return replace(state, drawn=drawn, **changes)


def with_chips(state: State, chips: dict[tuple[int, int, int], int]) -> State:
    """``state`` with the given chips placed (coordinates -> colour id)."""
    board = list(state.board)
    for cell, chip in chips.items():
        board[state.grid.index[cell]] = chip
    return replace(state, board=tuple(board))


def chips_of(state: State) -> dict[tuple[int, int, int], int]:
    """The occupied cells of ``state``."""
    return {state.grid.cells[i]: c for i, c in enumerate(state.board) if c != EMPTY}


# --- board and columns ---------------------------------------------------------------


def test_default_settings_match_the_original() -> None:
    assert (
        Settings(
            colors=4, chips_per_color=22, grid_size=6, win_length=4, timeout=1.0, wall_chance=0.0
        )
        == DEFAULT
    )
    assert len(hexgrid(6).cells) == 91  # 3 * 6 * 5 + 1
    assert len(hexgrid(3).cells) == 19


def test_cells_are_sorted_by_q_then_r() -> None:
    assert hexgrid(2).cells == (
        (-1, 0, 1),
        (-1, 1, 0),
        (0, -1, 1),
        (0, 0, 0),
        (0, 1, -1),
        (1, -1, 0),
        (1, 0, -1),
    )


# Derived by hand from "pos 0 is centred on gravity, positive clockwise": turning the
# board (g + 3) mod 6 times maps the gravity-3 column coordinate q to this signed one.
COLUMN_COORD = {0: (0, -1), 1: (2, 1), 2: (1, -1), 3: (0, 1), 4: (2, -1), 5: (1, 1)}


def hand_entry(size: int, gravity: int, pos: int) -> tuple[int, int, int]:
    """The cell of column ``pos`` whose step against gravity leaves the board."""
    axis, sign = COLUMN_COORD[gravity]
    up = tuple(-d for d in DIRECTIONS[gravity])
    n = size - 1
    found = [
        c
        for c in hexgrid(size).cells
        if sign * c[axis] == pos and max(abs(c[k] + up[k]) for k in range(3)) > n
    ]
    assert len(found) == 1
    return found[0]


@pytest.mark.parametrize("gravity", range(6))
def test_entry_cell_of_every_column_for_every_gravity(gravity: int) -> None:
    grid = hexgrid(6)
    for pos in range(-5, 6):
        expected = hand_entry(6, gravity, pos)
        assert entry_cell(6, gravity, pos) == expected
        assert grid.cells[grid.entry(gravity, pos)] == expected


@pytest.mark.parametrize(
    ("gravity", "pos", "cell"),
    [
        (3, 0, (0, -5, 5)),  # top corner
        (3, 5, (5, -5, 0)),  # top-right corner
        (3, -5, (-5, 0, 5)),  # top-left corner
        (3, -2, (-2, -3, 5)),
        (0, 0, (0, 5, -5)),  # gravity up: enter at the bottom corner
        (0, 2, (-2, 5, -3)),  # clockwise is to the left when the board is upside down
        (1, 0, (-5, 5, 0)),  # gravity top-right: enter at the bottom-left corner
        (2, 0, (-5, 0, 5)),
        (4, 0, (5, -5, 0)),
        (5, 0, (5, 0, -5)),
        (5, 5, (0, 5, -5)),
    ],
)
def test_entry_cells_written_out(gravity: int, pos: int, cell: tuple[int, int, int]) -> None:
    assert entry_cell(6, gravity, pos) == cell


# --- drops ---------------------------------------------------------------------------


def test_drop_falls_to_the_bottom_then_stacks() -> None:
    state = playing()
    state = rules.apply_action(state, Drop(0, 1))
    assert chips_of(state) == {(0, 5, -5): 1}
    state = replace(state, drawn=(2, 3))
    state = rules.apply_action(state, Drop(0, 3))
    assert chips_of(state) == {(0, 5, -5): 1, (0, 4, -4): 3}


def test_drop_stops_on_a_wall() -> None:
    grid = hexgrid(6)
    state = playing(walls=frozenset({grid.index[(0, 0, 0)]}))
    state = rules.apply_action(state, Drop(0, 0))
    assert chips_of(state) == {(0, -1, 1): 0}


def test_drop_under_sideways_gravity() -> None:
    state = playing(gravity=2)  # bottom-right: (1, 0, -1)
    state = rules.apply_action(state, Drop(0, 0))  # enters at (-5, 0, 5), runs along r = 0
    assert chips_of(state) == {(5, 0, -5): 0}


def test_drop_into_a_full_column_is_illegal() -> None:
    state = playing(settings=Settings.from_mapping({"grid_size": 2, "colors": 2}))
    state = with_chips(state, {(0, -1, 1): 1, (0, 0, 0): 1, (0, 1, -1): 1})
    assert rules.why_illegal(state, Drop(0, 0)) == "column 0 is full"
    assert Drop(0, 0) not in rules.legal_actions(state)
    assert rules.why_illegal(state, Drop(1, 0)) is None


def test_drop_of_a_chip_not_drawn_is_illegal() -> None:
    state = playing(drawn=(0, 0))
    assert rules.why_illegal(state, Drop(0, 1)) == "chip 1 was not drawn (chips 0 0)"
    assert rules.why_illegal(state, Drop(0, 2)) is not None  # the opponent's colour
    assert rules.why_illegal(state, Drop(0, -1)) is not None
    assert rules.why_illegal(state, Drop(6, 0)) == "position 6 is not in -5..5"
    assert rules.why_illegal(state, Drop(0, 0)) is None


def test_unplayed_chip_goes_back_to_the_bag() -> None:
    state = playing(drawn=(0, 1), bags=(21, 21, 22, 22))
    after = rules.apply_action(state, Drop(0, 1))
    # chip 0 returned, then player 1 drew two of its own chips
    assert after.bags[:2] == (22, 21)
    assert sum(after.bags[2:]) == 42 and set(after.drawn) <= {2, 3}


# --- rotations -----------------------------------------------------------------------


def test_rotation_needs_two_chips_and_a_gravity_in_0_to_5() -> None:
    state = playing(drawn=(0, EMPTY))
    assert rules.why_illegal(state, Rotate(1)) == "rotating needs two chips, only one was drawn"
    assert rules.why_illegal(state, Rotate(3)) == "rotating needs two chips, only one was drawn"
    assert not any(isinstance(a, Rotate) for a in rules.legal_actions(state))
    state = playing(drawn=(0, 1))
    assert rules.why_illegal(state, Rotate(6)) == "gravity 6 is not in 0..5"
    assert rules.why_illegal(state, Rotate(1)) is None
    assert rules.why_illegal(state, Rotate(3)) is None  # the current gravity: a pass (original)
    rotations = [a for a in rules.legal_actions(state) if isinstance(a, Rotate)]
    assert rotations == [Rotate(g) for g in range(6)]


def test_rotating_to_the_current_gravity_is_a_pass_that_costs_both_chips() -> None:
    state = playing(drawn=(0, 1), bags=(21, 21, 22, 22))
    state = replace(state, board=rules.apply_action(replace(state, drawn=(0, 0)), Drop(0, 0)).board)
    after = rules.apply_action(state, Rotate(3))
    assert after.gravity == 3 and after.board == state.board  # nothing falls
    assert after.bags[:2] == (21, 21)  # both chips discarded
    assert after.last_action == "rotate 3" and after.turn == 1 and after.turns == 1


def test_rotation_discards_both_chips() -> None:
    state = playing(drawn=(0, 1), bags=(21, 21, 22, 22))
    after = rules.apply_action(state, Rotate(0))
    assert after.bags[:2] == (21, 21)
    assert after.gravity == 0


def test_the_seed_example_and_a_chain_falling_at_once() -> None:
    """The original's example: drop 0 1, drop 1 2, drop 0 1, then rotate 1 (top-right)."""
    state = playing(drawn=(1, 1))
    state = rules.apply_action(state, Drop(0, 1))
    state = rules.apply_action(replace(state, drawn=(2, 3)), Drop(1, 2))
    state = rules.apply_action(replace(state, drawn=(1, 1)), Drop(0, 1))
    assert chips_of(state) == {(0, 5, -5): 1, (1, 4, -5): 2, (0, 4, -4): 1}
    state = rules.apply_action(replace(state, drawn=(3, 3)), Rotate(1))
    # Along s = -5 the chip at (1, 4, -5) runs to the corner and (0, 5, -5) follows it.
    assert chips_of(state) == {(5, 0, -5): 2, (4, 1, -5): 1, (5, -1, -4): 1}


def test_rotation_stops_chips_on_walls() -> None:
    grid = hexgrid(6)
    state = playing(walls=frozenset({grid.index[(2, 0, -2)]}))
    state = with_chips(state, {(-5, 0, 5): 0, (-3, 0, 3): 1, (0, 0, 0): 0, (4, 0, -4): 1})
    state = rules.apply_action(state, Rotate(2))  # along r = 0 towards q = 5
    assert chips_of(state) == {(-1, 0, 1): 0, (0, 0, 0): 1, (1, 0, -1): 0, (5, 0, -5): 1}


# --- lines and the end ----------------------------------------------------------------

# Player 1's chips (colour 2), each alone on its r-line: under gravity 2 they slide to
# (5, 0, -5), (4, 1, -5), (3, 2, -5), (2, 3, -5): four in a row along the edge.
P1_SLIDE = {(5, 0, -5): 2, (0, 1, -1): 2, (-2, 2, 0): 2, (-4, 3, 1): 2}
# Player 0's chips (colour 0) on r = -1 .. -4 slide to q = 5: four in a row too.
P0_SLIDE = {(1, -1, 0): 0, (0, -2, 2): 0, (-1, -3, 4): 0, (-1, -4, 5): 0}


def test_a_rotation_can_win_for_the_player_who_did_not_move() -> None:
    state = with_chips(playing(), {**P1_SLIDE, (-5, 0, 5): 0})
    assert rules.longest_lines(state) == (1, 1)
    after = rules.apply_action(state, Rotate(2))
    assert after.phase == "over" and after.winner == 1 and after.reason == "line of 4"


def test_equal_longest_lines_play_on() -> None:
    state = with_chips(playing(), {**P1_SLIDE, **P0_SLIDE})
    after = rules.apply_action(state, Rotate(2))
    assert rules.longest_lines(after) == (4, 4)
    assert after.phase == "play" and after.turn == 1 and after.last_action == "rotate 2"


def test_the_longer_line_wins_when_both_reach_the_length() -> None:
    state = with_chips(playing(), {**P1_SLIDE, **P0_SLIDE, (0, -5, 5): 0})
    after = rules.apply_action(state, Rotate(2))
    assert rules.longest_lines(after) == (5, 4)
    assert after.winner == 0 and after.reason == "line of 5"


def test_a_drop_completing_four_wins_and_lines_need_one_colour() -> None:
    state = with_chips(playing(), {(0, 5, -5): 0, (1, 4, -5): 0, (2, 3, -5): 1})
    assert rules.apply_action(state, Drop(3, 0)).phase == "play"  # 0 0 1 0: no line
    state = with_chips(playing(), {(0, 5, -5): 0, (1, 4, -5): 0, (2, 3, -5): 0})
    won = rules.apply_action(state, Drop(3, 0))
    assert won.phase == "over" and won.winner == 0 and won.turns == 1


def test_a_player_with_an_empty_bag_loses() -> None:
    settings = Settings.from_mapping({"colors": 2, "chips_per_color": 1})
    state = rules.choose_colors(rules.new_game(3, settings), {0: 0, 1: 1})
    assert state.drawn == (0, EMPTY)  # one chip left: the second is -1
    state = rules.apply_action(state, Drop(0, 0))
    assert (state.turn, state.drawn) == (1, (1, EMPTY))
    state = rules.apply_action(state, Drop(1, 1))
    assert state.phase == "over" and state.winner == 1
    assert state.reason == "player 0 is out of chips"


def test_a_player_without_a_legal_action_loses() -> None:
    """Grid 2 with a wall in the centre: five chips fill every column's entry cell."""
    settings = Settings.from_mapping({"grid_size": 2, "colors": 2, "chips_per_color": 3})
    state = playing(settings, drawn=(1, 1), turn=1, bags=(1, 0))
    state = replace(state, walls=frozenset({state.grid.index[(0, 0, 0)]}))
    state = with_chips(state, {(-1, 1, 0): 0, (-1, 0, 1): 1, (0, -1, 1): 0, (1, 0, -1): 1})
    after = rules.apply_action(state, Drop(1, 1))
    assert chips_of(after)[(1, -1, 0)] == 1
    assert after.drawn == (0, EMPTY)  # one chip: no rotation, and every column is full
    assert after.phase == "over" and after.winner == 1
    assert after.reason == "player 0 has no legal action"


def test_draws_come_from_the_own_colours_and_follow_the_seed() -> None:
    settings = Settings.from_mapping({"colors": 6})
    first = rules.choose_colors(rules.new_game(11, settings), {0: 0, 1: 0})
    again = rules.choose_colors(rules.new_game(11, settings), {0: 3, 1: 5})
    assert first.drawn == again.drawn and set(first.drawn) <= {0, 1, 2}
    after = rules.apply_action(first, Drop(0, first.drawn[0]))
    assert set(after.drawn) <= {3, 4, 5}
    assert sum(after.bags[3:]) == 3 * settings.chips_per_color - 2


def test_walls_follow_the_seed_and_avoid_the_rim() -> None:
    settings = Settings.from_mapping({"wall_chance": 0.5})
    state = rules.new_game(5, settings)
    grid = state.grid
    assert state.walls and not state.walls & grid.rim
    assert rules.new_game(5, settings).walls == state.walls
    assert not rules.new_game(5, DEFAULT).walls


def test_choose_colors_starts_player_zero() -> None:
    state = rules.new_game(1, DEFAULT)
    assert state.phase == "color"
    state = rules.choose_colors(state, {0: ChooseColor(5).color, 1: 0})
    assert (state.phase, state.turn, state.chosen, state.last_action) == ("play", 0, (5, 0), "")


@pytest.mark.parametrize(
    ("key", "value"),
    [("colors", 3), ("colors", 0), ("grid_size", 1), ("win_length", 1), ("wall_chance", 1.0)],
)
def test_bad_settings_are_refused(key: str, value: object) -> None:
    with pytest.raises(ValueError, match=key):
        Settings.from_mapping({key: value})
