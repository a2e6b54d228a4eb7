"""The Smash The Code plugin as the core drives it: registration, whole games, the end."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from arena import InvalidAnswer, Move, Outcome
from arena.game import jsonable
from arena.plugins.registry import load_registry
from arena_games.stc.game import StcGame
from arena_games.stc.protocol import grid_from_rows as g
from arena_games.stc.rules import EMPTY_GRID, HEIGHT, WIDTH, Grid, StcState


def has_group_of_four(grid: Grid) -> bool:
    """Brute force over every cell (independent of the flood fill under test)."""
    cells = {(x, y): c for x, col in enumerate(grid) for y, c in enumerate(col) if c != "0"}
    seen: set[tuple[int, int]] = set()
    for start in cells:
        if start in seen:
            continue
        group, todo = {start}, [start]
        while todo:
            x, y = todo.pop()
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if cells.get(n) == cells[start] and n not in group:
                    group.add(n)
                    todo.append(n)
        seen |= group
        if len(group) >= 4:
            return True
    return False


def play_random(seed: int, answer_seed: int) -> tuple[list[str], Outcome, StcState]:
    """A whole game of random legal answers; every prompt and the outcome."""
    game = StcGame()
    state = game.start(seed, 2, dict(game.info.settings))
    rng = random.Random(answer_seed)
    prompts = []
    while seats := game.to_act(state):
        assert list(seats) == [0, 1]
        moves = {}
        for seat in seats:
            prompts.append(game.prompt(state, seat))
            moves[seat] = game.interpret(state, seat, game.random_answer(state, seat, rng)).action
        before = state.turn
        state = game.apply(state, moves)
        assert game.turn_number(state) == before + 1
        for grid in state.grids:
            assert all(len(col) <= HEIGHT for col in grid)
            assert not has_group_of_four(grid)
    return prompts, game.outcome(state), state


def test_registered_through_entry_point() -> None:
    assert load_registry().get("stc") is StcGame


def test_info() -> None:
    info = StcGame.info
    assert (info.min_players, info.max_players) == (2, 2)
    assert (info.first_turn_ms, info.turn_ms) == (1000, 100)
    assert info.settings == {"max_turns": 200}
    assert StcGame().clock_ms(StcGame().start(0, 2, {}), 0, True) == 1000
    assert StcGame().clock_ms(StcGame().start(0, 2, {}), 0, False) == 100


def test_settings_are_checked() -> None:
    with pytest.raises(ValueError):
        StcGame().start(0, 2, {"max_turns": 0})
    with pytest.raises(ValueError):
        StcGame().start(0, 3, {"max_turns": 200})


def test_random_games_end_and_replay_identically() -> None:
    for seed in (1, 2):
        prompts, outcome, state = play_random(seed, seed + 100)
        assert outcome.reason.endswith("could not place its pair") or outcome.reason in (
            "200 turns",
            "both players could not place their pair",
        )
        assert outcome.scores == tuple(
            0.0 if state.dead[seat] else float(max(1, state.scores[seat])) for seat in (0, 1)
        )
        assert play_random(seed, seed + 100)[:2] == (prompts, outcome)


def test_random_answer_is_legal_until_no_placement_fits() -> None:
    # Column 0 and 1 hold 11 blocks each, the others are full: only the flat pair on
    # columns 0-1 fits (rotation 0 at 0, rotation 2 at 1).
    full, eleven = "34" * 6, ("34" * 6)[:11]
    game = StcGame()
    state = replace(
        game.start(0, 2, {}), grids=((eleven, eleven, full, full, full, full), EMPTY_GRID)
    )
    answers = {game.random_answer(state, 0, random.Random(i)) for i in range(30)}
    assert answers == {"0 0", "1 2"}
    dead_end = replace(state, grids=((full,) * WIDTH, EMPTY_GRID))
    game.interpret(dead_end, 0, game.random_answer(dead_end, 0, random.Random(0)))


def test_max_turns_end_by_score() -> None:
    game = StcGame()
    state = game.start(0, 2, {"max_turns": 2})
    # Seed 0 pairs (1,4) then (5,3): nothing clears, 0-0 after 2 turns: a draw.
    state = game.apply(state, {0: (0, 1), 1: (0, 1)})
    assert game.to_act(state) == (0, 1)
    state = game.apply(state, {0: (1, 1), 1: (2, 1)})
    assert game.to_act(state) == ()
    assert game.outcome(state) == Outcome((0, 0), (1.0, 1.0), "2 turns", forfeits_ranked=True)


def test_default_200_turns_win_by_score() -> None:
    game = StcGame()
    state = replace(game.start(0, 2, {"max_turns": 200}), turn=199, scores=(40, 1000))
    state = game.apply(state, {0: (0, 1), 1: (3, 1)})
    assert game.outcome(state) == Outcome((1, 0), (40.0, 1000.0), "200 turns", True)


def test_death_outcome() -> None:
    game = StcGame()
    full = "34" * 6
    state = replace(game.start(0, 2, {}), grids=(EMPTY_GRID, (full,) + ("",) * 5), scores=(0, 5000))
    state = game.apply(state, {0: (0, 1), 1: (0, 1)})
    assert game.to_act(state) == ()
    assert game.outcome(state) == Outcome(
        (0, 1), (1.0, 0.0), "player 1 could not place its pair", forfeits_ranked=True
    )
    both = replace(state, dead=(True, True))
    assert game.outcome(both).ranks == (0, 0)
    assert game.outcome(both).reason == "both players could not place their pair"


def test_eliminate() -> None:
    game = StcGame()
    state = replace(game.start(0, 2, {}), scores=(900, 0))
    for seat, ranks, scores in ((0, (1, 0), (0.0, 1.0)), (1, (0, 1), (900.0, 0.0))):
        out = game.eliminate(state, seat)
        assert game.to_act(out) == ()
        assert game.outcome(out) == Outcome(ranks, scores, "forfeit", forfeits_ranked=True)
    # Both seats forfeiting in the same step (the core eliminates one after the other).
    both = game.eliminate(game.eliminate(state, 0), 1)
    assert game.outcome(both) == Outcome((0, 0), (0.0, 0.0), "forfeit", forfeits_ranked=True)


def test_view_and_render() -> None:
    game = StcGame()
    state = StcState(
        pairs=((1, 2),) * 3 + ((3, 4),) * 6,
        max_turns=200,
        turn=1,
        grids=(g(["1.....", "20...."]), EMPTY_GRID),
        scores=(40, 1230),
    )
    state = replace(state, owed=(state.owed[0], state.owed[1] + 1))
    view = game.view(state)
    assert json.loads(json.dumps(view)) == view
    assert view["grids"][0][-2:] == ["1.....", "20...."]
    assert view["grids"][1] == ["......"] * 12
    assert view["scores"] == [40, 1230]
    assert view["nuisance"] == ["0", "1"]
    assert view["next_pairs"] == [[1, 2], [1, 2]] + [[3, 4]] * 6
    text = game.render(state)
    assert "40" in text and "1230" in text
    assert "|1.....|      |......|" in text
    assert "|20....|      |......|" in text
    assert game.turn_number(state) == 1


def test_a_stored_move_is_x_then_rotation_as_the_core_would_store_it() -> None:
    game = StcGame()
    for action in [(0, 0), (5, 3), (2, 1)]:
        assert game.action_view(action) == jsonable(action) == list(action)
        assert json.dumps(game.action_view(action)) == json.dumps(jsonable(action))


def test_an_answer_read_again_is_the_same_move_and_a_bad_one_is_refused_every_time() -> None:
    game = StcGame()
    state = game.start(1, 2, {})
    later = game.apply(state, {0: (0, 1), 1: (5, 1)})
    for seat, moment in [(0, state), (1, state), (0, later)]:
        assert game.interpret(moment, seat, "2 1 hi") == Move((2, 1), "hi")
    for _ in range(2):
        with pytest.raises(InvalidAnswer):
            game.interpret(state, 0, "9 1")
    long = "3 0 " + "x" * 100  # longer than the answers kept once read
    assert game.interpret(state, 0, long) == Move((3, 0), "x" * 40)
