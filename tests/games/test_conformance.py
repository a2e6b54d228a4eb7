"""Every installed game passes arena's conformance kit (``arena.testing``), ours and others'.

Third-party games installed next to arena are checked too; only arena's own games must
come from the ``bot-arena`` distribution. A game whose default settings are refused (it
needs a setting, like cg-referee's referee command) is checked with the settings below,
or skipped.
"""

from __future__ import annotations

import sys

import pytest

from arena.plugins.registry import load_registry
from arena.testing import (
    check_bad_settings,
    check_contract,
    check_forfeit_ranks_last,
    check_fuzzed_answers,
    check_replays,
    check_settings_accepted,
    player_counts,
)
from support import REPO

REGISTRY = load_registry()
BUILTIN = {"stc", "splitter", "blocking", "chess5", "cluster", "cg-referee"}
STICKS = REPO / "examples" / "cg-referee" / "sticks_referee.py"
SETTINGS = {
    "cg-referee": {"referee": f"{sys.executable} {STICKS}", "random_answers": "1|2|3"},
}
BAD_SETTINGS = {
    "stc": [{"max_turns": -5}, {"max_turns": 0}, {"max_turns": 1_000_000_000_000}],
    "splitter": [{"layout": 0}, {"layout": 3}],
    "cluster": [
        {"colors": 3},
        {"colors": 0},
        {"grid_size": 1},
        {"grid_size": 10**6},
        {"win_length": 12},
        {"chips_per_color": 0},
        {"timeout": 0.0},
        {"wall_chance": 1.0},
    ],
    "cg-referee": [
        {"referee": ""},
        {"referee": "no-such-program-anywhere --flag"},
        {"referee_timeout_ms": 0},
        {"params": {"seed": 3}},
    ],
}


def settings_for(game_id: str) -> dict:
    """The settings a game is checked with; skip a third-party game that needs some."""
    try:
        return check_settings_accepted(REGISTRY.get(game_id), SETTINGS.get(game_id, {}))
    except AssertionError as exc:
        if game_id in BUILTIN:
            raise
        pytest.skip(f"{game_id} needs settings to be played: {exc}")


CASES = [
    (gid, players)
    for gid, entry in sorted(REGISTRY.games.items())
    for players in player_counts(entry.game)
]


def test_every_builtin_game_is_registered_through_the_entry_point_group():
    assert not REGISTRY.broken
    assert set(REGISTRY.games) >= BUILTIN
    for gid, entry in REGISTRY.games.items():
        assert entry.game.info.id == gid
        if gid in BUILTIN:
            assert entry.package == "bot-arena"
        assert entry.game.__doc__, f"{gid}: undocumented game class"


@pytest.mark.parametrize("game_id", sorted(REGISTRY.games))
def test_every_game_keeps_the_contract_and_refuses_bad_settings(game_id):
    game = REGISTRY.get(game_id)
    check_contract(game)
    settings_for(game_id)
    check_bad_settings(game, BAD_SETTINGS.get(game_id, []))


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_random_games_end_and_replay_identically_from_their_seed(game_id, players):
    settings = settings_for(game_id)
    for seed in (1, 2):
        check_replays(REGISTRY.get(game_id), seed, players, settings)


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_a_forfeit_ranks_the_seat_last(game_id, players):
    check_forfeit_ranks_last(REGISTRY.get(game_id), 5, players, settings_for(game_id))


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_fuzzed_answers_are_refused_cleanly_or_accepted(game_id, players):
    check_fuzzed_answers(REGISTRY.get(game_id), 3, players, settings_for(game_id), examples=150)
