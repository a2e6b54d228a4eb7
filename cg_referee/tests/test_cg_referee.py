"""Cg Referee: arena's conformance kit, the rules by hand, and a real match."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import arena
from arena import IllegalMove, InvalidAnswer
from arena.testing import check_game

from cg_referee.game import CgRefereeGame

HERE = Path(__file__).resolve().parent.parent


def test_the_game_passes_arenas_conformance_kit():
    # Random games end, replay identically from their seed, forfeits rank last, views are
    # JSON, prompts end in newlines, these settings are refused, fuzzed answers never crash.
    check_game(CgRefereeGame, bad_settings=[{"size": 2}, {"size": 10}, {"size": 3, "win": 4}])


def play(game, state, *answers):
    for text in answers:
        (seat,) = game.to_act(state)
        state = game.apply(state, {seat: game.interpret(state, seat, text).action})
    return state


def test_three_in_a_row_wins_and_the_prompt_is_exact():
    game = CgRefereeGame()
    state = game.start(1, 2, {"size": 3, "win": 3})
    assert game.prompt(state, 0) == "3 3 0\n-1 -1\n...\n...\n...\n"
    state = play(game, state, "0 0")
    assert game.prompt(state, 1) == "3 3 1\n0 0\nX..\n...\n...\n"
    state = play(game, state, "1 1", "0 1")
    assert game.prompt(state, 1) == "0 1\nXX.\n.O.\n...\n"
    state = play(game, state, "2 2", "0 2")
    assert game.to_act(state) == ()
    assert game.outcome(state).ranks == (0, 1)


def test_bad_answers_are_invalid_or_illegal():
    game = CgRefereeGame()
    state = game.start(1, 2, {"size": 3, "win": 3})
    with pytest.raises(InvalidAnswer):
        game.interpret(state, 0, "middle")
    with pytest.raises(IllegalMove):
        game.interpret(state, 0, "3 0")


def test_a_real_match_between_two_random_bots(tmp_path):
    bot = f"{sys.executable} {HERE / 'bots' / 'random_bot.py'}"
    result = arena.play(CgRefereeGame, [bot, bot], seed=3, output=tmp_path)
    assert sorted(result.ranks) in ([0, 0], [0, 1])
    assert result.reason in ("3 in a row", "board full", "forfeit")
    assert result.replay_path is not None and result.replay_path.is_file()
