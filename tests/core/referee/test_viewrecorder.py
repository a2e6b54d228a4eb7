"""Replays record each step's view as a patch: the patches rebuild every view exactly."""

from __future__ import annotations

import random

import pytest

from arena.game import Move
from arena.plugins.registry import load_registry
from arena.referee.viewdiff import ViewRecorder, normalize, patch

GAMES = [g for g in sorted(load_registry().games) if g != "cg-referee"]


def _replayed(views: list[object]) -> None:
    recorder = ViewRecorder(views[0])
    shown = normalize(views[0])
    assert recorder.view == shown
    for view in views[1:]:
        shown = patch(shown, recorder.record(view))
        # repr tells 1 from 1.0 and True, as JSON does
        assert repr(shown) == repr(normalize(view)) or shown == normalize(view)
        assert repr(recorder.view) == repr(normalize(view))


@pytest.mark.parametrize("game_id", GAMES)
def test_every_games_views_are_rebuilt_from_the_patches(game_id):
    game = load_registry().create(game_id)
    rng = random.Random(5)
    state = game.start(5, game.info.min_players, dict(game.info.settings))
    views = [game.view(state)]
    while (seats := list(game.to_act(state))) and len(views) < 120:
        actions = {}
        for seat in seats:
            answer = game.interpret(state, seat, game.random_answer(state, seat, rng))
            if isinstance(answer, Move):
                actions[seat] = answer.action
        if not actions:
            break
        state = game.apply(state, actions)
        views.append(game.view(state))
    _replayed(views)


def test_values_that_only_json_tells_apart_are_patched():
    views = [
        {"a": 1, "b": [1, 2], "c": {"x": (1, 2)}, 3: "int key"},
        {"a": 1.0, "b": [1, 2, 3], "c": {"x": [1, 2]}, 3: "int key"},
        {"a": True, "b": [2], "d": None, "3": "str key"},
        [1, 2],
        {"back": "to a dict"},
        {"back": "to a dict", "nan": float("nan")},
    ]
    _replayed(views)
