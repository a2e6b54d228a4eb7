"""The Splitter plugin as the core sees it: metadata, the seed's example game, outcomes."""

from __future__ import annotations

import importlib.metadata
import json
import random
from dataclasses import replace

import pytest

from arena import Move, Outcome
from arena_games.splitter.game import SplitterGame
from arena_games.splitter.rules import SplitterState
from support import REPO

GAME = SplitterGame()

# The seed's example loop (layout 1): `# a b` is what the bot reads, the next line its answer.
SEED_EXAMPLE = """
# 4 1
4 2 1
# 1 2
1 3 2
# 5 3
5 3 1
# 6 2
6 1 5
# 2 5
2 0 2
# 4 3
4 2 4
# 4 1
4 3 6
# 5 4
5 2 6
# 4 2
4 2 3
# 1 5
1 0 3
# 5 1
5 0 4
# 4 5
4 1 1
# 4 1
4 3 4
# 4 3
4 2 0
# 1 6
1 2 5
# 5 3
5 3 3
# 1 3
1 3 0
# 1 3
1 1 3
# 6 2
6 2 2
# 2 2
2 1 4
# 2 1
2 1 2
# 5 4
5 3 5
"""

# The sheet that loop fills in, worked by hand (split between columns 3 and 4):
SEED_EXAMPLE_SHEET = """
. . 4 1 3 3 . .
. 4 4 5 3 1 5 .
2 2 6 1 2 2 1 5
1 1 4 5 3 2 3 5
5 2 4 4 1 3 2 1
. 6 1 5 4 6 2 .
. . 5 4 1 4 . .
"""
# Scoring by hand:
#   lone 1s: (3,0) (5,1) (3,2) (6,2) (4,4) (7,4) (2,5) (4,6)            8 x 1 = 8
#   the 1s at (0,3)-(1,3) are a pair (on the star, but two 1s score nothing)
#   2s: (0,2)-(1,2) a pair = 2; (6,4)-(6,5) a pair = 2; (4,2)-(5,2)-(5,3) three = 0
#   3s: (4,0)-(5,0)-(4,1) three = 3; other 3s are alone
#   4s, 5s, 6s: no group of exactly 4, 5, 6 (e.g. (2,0)-(1,1)-(2,1) three 4s)
#   total 8 + 4 + 3 = 15
SEED_EXAMPLE_SCORE = 15


def seed_example() -> tuple[list[tuple[int, int]], list[str]]:
    """The example's dice and answers, in order."""
    lines = SEED_EXAMPLE.strip().splitlines()
    dice = [(int(a), int(b)) for a, b in (line[2:].split() for line in lines[0::2])]
    return dice, lines[1::2]


def test_seed_example_is_in_the_seed_file() -> None:
    # The project's source documents live beside the repository (../shared/seeds).
    seed = REPO.parent / "shared" / "seeds" / "001_4ce00a87f21edaf5.txt"
    if not seed.exists():
        pytest.skip("the seed files are not beside this checkout")
    assert SEED_EXAMPLE.strip() in seed.read_text()


def test_seed_example_game_plays_through_and_scores_15() -> None:
    dice, answers = seed_example()
    assert len(dice) == len(answers) == 22
    state = replace(GAME.start(0, 1, {"layout": 1}), dice=tuple(dice))
    for i, (roll, text) in enumerate(zip(dice, answers, strict=True)):
        assert GAME.to_act(state) == (0,)
        assert GAME.prompt(state, 0).endswith(f"{roll[0]} {roll[1]}\n")
        assert GAME.turn_number(state) == i
        answer = GAME.interpret(state, 0, text)
        assert isinstance(answer, Move)
        state = GAME.apply(state, {0: answer.action})
    assert GAME.to_act(state) == ()
    expected = [
        [int(c) if c.isdigit() else 0 for c in line.split()]
        for line in SEED_EXAMPLE_SHEET.strip().splitlines()
    ]
    assert GAME.view(state)["values"] == expected
    assert GAME.outcome(state) == Outcome((0,), (15.0,), "22 rounds played")
    assert GAME.turn_number(state) == 22


def test_info_is_one_player_with_one_second_turns() -> None:
    info = SplitterGame.info
    assert (info.id, info.min_players, info.max_players) == ("splitter", 1, 1)
    assert (info.first_turn_ms, info.turn_ms) == (2000, 1000)
    assert info.version == 2  # 2: the Tester's dice and line reading
    assert dict(info.settings) == {"layout": 1}
    assert info.transport is None


def test_plugin_is_registered_through_the_arena_entry_point() -> None:
    (ep,) = [e for e in importlib.metadata.entry_points(group="arena") if e.name == "splitter"]
    assert ep.load().arena_register_games() == [SplitterGame]


def test_start_refuses_other_player_counts_and_layouts() -> None:
    with pytest.raises(ValueError, match="one-player"):
        GAME.start(1, 2, {"layout": 1})
    with pytest.raises(ValueError, match="layout"):
        GAME.start(1, 1, {"layout": 0})


def finish(state: SplitterState, rng: random.Random) -> tuple[SplitterState, list[str]]:
    """Play random legal answers to the end; return the state and every prompt sent."""
    prompts = []
    while GAME.to_act(state):
        prompts.append(GAME.prompt(state, 0))
        answer = GAME.interpret(state, 0, GAME.random_answer(state, 0, rng))
        assert isinstance(answer, Move)
        state = GAME.apply(state, {0: answer.action})
    return state, prompts


@pytest.mark.parametrize("layout", [1, 2])
def test_random_games_end_after_22_rounds_and_replay_identically(layout: int) -> None:
    for seed in range(20):
        first, prompts = finish(GAME.start(seed, 1, {"layout": layout}), random.Random(seed))
        again, prompts_again = finish(GAME.start(seed, 1, {"layout": layout}), random.Random(seed))
        assert len(prompts) == 22
        assert prompts == prompts_again
        assert GAME.outcome(first) == GAME.outcome(again)
        assert all(v for v, k in zip(first.values, sum(first.cells, ()), strict=True) if k)


def test_forfeit_ends_the_game_with_score_zero() -> None:
    state = GAME.start(4, 1, {"layout": 1})
    rng = random.Random(4)
    for _ in range(3):
        state = GAME.apply(
            state, {0: GAME.interpret(state, 0, GAME.random_answer(state, 0, rng)).action}
        )  # type: ignore[union-attr]
    state = GAME.eliminate(state, 0)
    assert GAME.to_act(state) == ()
    assert GAME.outcome(state) == Outcome((0,), (0.0,), "forfeit in round 4")
    assert GAME.turn_number(state) == 3
    assert GAME.apply(state, {}) is state


def test_view_is_json_and_breaks_the_score_down() -> None:
    state = GAME.start(0, 1, {"layout": 2})
    state = replace(state, dice=((1, 1), *state.dice[1:]))
    state = GAME.apply(state, {0: GAME.interpret(state, 0, "1 1 6").action})  # type: ignore[union-attr]
    view = json.loads(json.dumps(GAME.view(state)))
    # Two lone 1s, on the stars (1,6) and (6,6): 2 + 2.
    assert view["score"] == 4
    assert sorted((g["cells"], g["points"], g["star"]) for g in view["groups"]) == [
        ([[1, 6]], 2, True),
        ([[6, 6]], 2, True),
    ]
    assert view["hearts"] == 0
    assert (view["round"], view["rounds"], view["layout"]) == (1, 22, 2)
    assert view["dice"] == list(state.dice[1])


def test_render_draws_the_sheet_with_the_split() -> None:
    state = GAME.start(0, 1, {"layout": 2})
    state = replace(state, dice=((1, 2), (2, 3), *state.dice[2:]))
    state = GAME.apply(state, {0: GAME.interpret(state, 0, "1 1 6").action})  # type: ignore[union-attr]
    assert GAME.render(state) == (
        "round 1/22  dice 2 3  score 2 = 2*\n"
        "   0 1 2 3 | 4 5 6 7\n"
        "0  . . .   |   . h .\n"
        "1  . . . . | . . . .\n"
        "2    h . . | . . .  \n"
        "3    . .   |   . .  \n"
        "4    . . . | h . .  \n"
        "5  . . . . | . . . .\n"
        "6  . 1 .   |   . 2 .\n"
    )


def test_render_marks_empty_stars_and_forfeits() -> None:
    state = GAME.eliminate(replace(GAME.start(0, 1, {"layout": 1}), dice=((4, 1),) * 22), 0)
    assert GAME.render(state) == (
        "round 0/22  over  score 0  FORFEIT (score 0)\n"
        "   0 1 2 3 | 4 5 6 7\n"
        "0      . . | . .    \n"
        "1    . . . | . . .  \n"
        "2  . . . . | . . . .\n"
        "3  * . . . | . . . *\n"
        "4  . . . . | . . . .\n"
        "5    . . . | . . .  \n"
        "6      . . | . .    \n"
    )
