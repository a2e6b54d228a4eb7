"""Replays record each step's view as a patch: the patches rebuild every view exactly."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from arena.game import Game, Move
from arena.plugins.registry import load_registry
from arena.viewdiff import ViewRecorder, diff, normalize, patch

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
    _replayed(_random_views(load_registry().create(game_id), 5, 120))


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


# -- the recorder's patches are diff's, exactly ------------------------------------


def _exact(views: list[Any]) -> int:
    """Record ``views``; each patch must be ``diff(previous, normalize(view))`` op for op,
    type for type (repr tells 1, 1.0 and True apart, and a tuple from a list) and byte for
    byte in JSON. Returns the number of patches compared."""
    recorder = ViewRecorder(views[0])
    previous = normalize(views[0])
    for view in views[1:]:
        got = recorder.record(view)
        want = diff(previous, normalize(view))
        assert repr(got) == repr(want)
        assert json.dumps(got) == json.dumps(want)
        previous = normalize(view)
    return len(views) - 1


def _random_views(game: Game[Any], seed: int, cap: int) -> list[Any]:
    """The views of one random game (as bench/replay_views.py plays them), at most ``cap``."""
    rng = random.Random(seed)
    players = 2 if game.info.min_players <= 2 <= game.info.max_players else game.info.min_players
    state = game.start(seed, players, dict(game.info.settings))
    views = [game.view(state)]
    while (seats := list(game.to_act(state))) and len(views) < cap:
        moves = {}
        for seat in seats:
            answer = game.interpret(state, seat, game.random_answer(state, seat, rng))
            if isinstance(answer, Move):
                moves[seat] = answer.action
        if not moves:
            break
        state = game.apply(state, moves)
        views.append(game.view(state))
    return views


@pytest.mark.parametrize("game_id", GAMES)
def test_every_games_patches_are_diffs_exactly(game_id):
    game = load_registry().create(game_id)
    compared = sum(_exact(_random_views(game, seed, 150)) for seed in range(1, 13))
    assert compared > 50


def _mutated(rng: random.Random, value: Any, depth: int = 0) -> Any:
    """``value`` with a few random changes, the kinds JSON tells apart and Python does not
    (1, 1.0, True; a tuple for a list), lists growing and shrinking, keys added and removed."""
    if rng.random() < 0.15 or depth > 3:
        return _scalar(rng) if rng.random() < 0.6 else _container(rng, depth)
    if isinstance(value, dict):
        out = {
            k: (_mutated(rng, v, depth + 1) if rng.random() < 0.3 else v) for k, v in value.items()
        }
        if out and rng.random() < 0.2:
            del out[rng.choice(list(out))]
        if rng.random() < 0.2:
            out[rng.choice(["a", "b", "z", 7, "7"])] = _scalar(rng)
        return out
    if isinstance(value, (list, tuple)):
        items = [(_mutated(rng, v, depth + 1) if rng.random() < 0.3 else v) for v in value]
        if items and rng.random() < 0.2:
            del items[rng.randrange(len(items)) :]
        if rng.random() < 0.2:
            items += [_scalar(rng) for _ in range(rng.randrange(1, 3))]
        return tuple(items) if rng.random() < 0.2 else items
    return _scalar(rng)


def _scalar(rng: random.Random) -> Any:
    return rng.choice([0, 1, 1.0, True, False, 0.0, -0.0, 2, 2.5, None, "1", "a", "", "true"])


def _container(rng: random.Random, depth: int) -> Any:
    if rng.random() < 0.5:
        return [_scalar(rng) if rng.random() < 0.7 else _container(rng, depth + 1)
                for _ in range(rng.randrange(5))]  # fmt: skip
    return {rng.choice("pqrs"): _scalar(rng) for _ in range(rng.randrange(4))}


def test_random_views_with_the_values_json_tells_apart_are_patched_as_diff_does():
    rng = random.Random(11)
    compared = 0
    for _ in range(300):
        views = [{"turn": 0, "rows": ["..", ".."], "pairs": [(1, 2), (3, 4)], "marks": []}]
        for _ in range(12):
            views.append(_mutated(rng, views[-1]))  # now and then not a dict
        compared += _exact(views)
    assert compared == 300 * 12


@pytest.mark.parametrize(
    "views",
    [
        # bool / int / float swaps inside lists and dicts, alone and among changes
        [{"l": [1, 2, 3]}, {"l": [True, 2, 3]}, {"l": [1.0, 2, 3]}, {"l": [1.0, 5, 3]}],
        [{"l": [[1, 2], [3]]}, {"l": [[True, 2], [3]]}, {"l": [[True, 2], [4]]}],
        [{"d": {"a": 1, "b": 0}}, {"d": {"a": 1.0, "b": 0}}, {"d": {"a": 1.0, "b": False}}],
        [{"l": [0.0, 1]}, {"l": [-0.0, 1]}, {"l": [-0.0, 2]}],  # == yet not the same text
        [{"l": [1, 2, 3, 4]}, {"l": [1, 2, 3, 4, True]}, {"l": [True, 2, 3, 4, 5, 6]}],
        # tuples for lists, int keys for str keys
        [{"t": (1, 2)}, {"t": [1, 2]}, {"t": (1, 3)}, {"t": ((1, 2), (3, 4))}],
        [{1: "a", "b": 2}, {"1": "a", "b": 2}, {1: "b", "b": 2}, {1: "x", "1": "y"}],
        [{1: "x", "1": "y"}, {"1": "y"}, {"1": "x", 1: "y"}, {"1": "y"}, {"1": 1.0}],
        # a key written twice in JSON and read once: texts differ, values do not
        [{"a": {1: "x", "1": "y"}}, {"a": {"1": "y"}}, {"a": {1: "z"}}, {"b": 1}],
        # lists that shrink, grow, mostly change; nested dicts; a key removed and added
        [{"q": [1, 2, 3, 4]}, {"q": [2, 3, 4, 5]}, {"q": [2, 3]}, {"q": [2, 3, 4, 5, 6]}],
        [{"n": {"a": {"b": [1, {"c": 2}]}}}, {"n": {"a": {"b": [1, {"c": 3, "d": 4}]}}}],
        [{"a": 1, "b": 2}, {"b": 2}, {"b": 2, "a": 1}, {"a": 1, "b": 2}],
        # a view that stops being a dict, and comes back
        [{"a": 1}, [1, 2], {"a": 1}, "text", None, {"a": [1]}, {"a": [1, 2]}],
    ],
)
def test_tricky_views_are_patched_as_diff_does(views):
    _exact(views)
