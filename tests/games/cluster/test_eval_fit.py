"""``bench/cluster_eval_fit.py``: minimax2's evaluation terms, fitted to stored games' outcomes."""

from __future__ import annotations

import importlib.util
import math
import random
import subprocess
import sys
from types import ModuleType

from arena_games.cluster import rules
from arena_games.cluster.game import ClusterGame
from support import REPO

GAME = ClusterGame()


def load(path: str, name: str) -> ModuleType:
    """A file of the repository as a module (its ``main`` is not run)."""
    spec = importlib.util.spec_from_file_location(name, REPO / path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


FIT = load("bench/cluster_eval_fit.py", "cluster_eval_fit")
BOT = load("bots/cluster/minimax2.py", "cluster_bot_minimax2")


def test_the_fit_finds_the_weights_that_made_the_outcomes():
    """Outcomes drawn from a known logistic model come back as its weights."""
    rng = random.Random(3)
    truth = [0.8, -1.5, 0.3]
    rows = []
    for game in range(20000):
        x = [rng.gauss(0, 1), rng.gauss(0, 1), rng.choice([-1.0, 1.0])]
        p = 1 / (1 + math.exp(-sum(a * b for a, b in zip(truth, x, strict=True))))
        rows.append((x, int(rng.random() < p), game))
    fitted = FIT.fit(rows)
    assert all(abs(a - b) < 0.08 for a, b in zip(fitted, truth, strict=True)), fitted
    assert FIT.log_loss(fitted, rows) < FIT.log_loss([0.0, 0.0, 0.0], rows)
    assert FIT.cross_validated(rows) < FIT.log_loss([0.0, 0.0, 0.0], rows) - 0.05


def test_the_terms_weighted_as_the_bot_weighs_them_are_its_own_evaluation():
    """On positions of random games, the terms times the bot's weights give the value the
    bot's search puts on a leaf for the player to move (up to the bot's integer division
    of its scarcity term): the fit measures what minimax2 actually counts, and the chips
    it counts from the bags are those the bot counts from the board and the rotations."""
    rng = random.Random(5)
    geo = BOT.Geometry(6, 4)
    weights = FIT.current_weights(BOT)
    seen = 0
    for seed in range(6):
        state = GAME.start(seed, 2, GAME.info.settings)
        state = GAME.apply(state, {0: rules.ChooseColor(0), 1: rules.ChooseColor(1)})
        chips = state.settings.chips_per_color
        rotations = [0, 0]
        while state.phase == "play":
            me = state.turn
            board = [-1] * len(geo.cells)
            for i, cube in enumerate(state.grid.cells):
                board[geo.index[tuple(cube)]] = state.board[i]
            searcher = BOT.Searcher(geo, set(), me, 4, chips)
            searcher.load(board, state.gravity)
            value = sum(
                w * t
                for w, t in zip(weights, FIT.terms(searcher, state, me, board, 0), strict=True)
            )
            # As the bot's root sets them up, then its leaf value for the player to move.
            placed = [sum(1 for v in board if v >= 0 and v // 2 == p) for p in (0, 1)]
            filled = sum(placed) / len(board)
            searcher.chip_value = BOT.CHIP_VALUE + int(BOT.LATE_CHIP * filled * filled)
            left = [2 * chips - placed[p] - 2 * rotations[p] for p in (0, 1)]
            leaf = (
                searcher.score + searcher.chip_score(left[me]) - searcher.chip_score(left[1 - me])
            )
            assert abs(value - leaf) < 2, (seed, state.turns, value, leaf)
            seen += 1
            action = rng.choice(rules.legal_actions(state))
            rotations[me] += isinstance(action, rules.Rotate)
            state = rules.apply_action(state, action)
    assert seen > 100


def test_the_fit_reads_stored_games_and_prints_each_weight(shipped_replays, tmp_path):
    """End to end on two real stored games: rows from their replays, the fitted and the
    bot's weights side by side (too few games to cross-validate); a folder without cluster
    games exits with 2."""
    output = shipped_replays["cluster"].parent.parent
    done = run_fit(str(output))
    assert done.returncode == 0, done.stderr
    assert " quiet positions from 2 decided games" in done.stdout
    for name in FIT.NAMES:
        assert f"\n{name:<16}" in done.stdout
    assert "too few games to fit halves and cross-validate (2; 10 at least)" in done.stdout
    empty = run_fit(str(tmp_path))
    assert empty.returncode == 2
    assert empty.stderr == "no decided cluster game with replays in those folders\n"


def run_fit(*args: str) -> subprocess.CompletedProcess[str]:
    """``python bench/cluster_eval_fit.py ARGS`` from the repository's root."""
    return subprocess.run(
        [sys.executable, "bench/cluster_eval_fit.py", *args],
        capture_output=True, text=True, cwd=REPO, timeout=600,
    )  # fmt: skip
