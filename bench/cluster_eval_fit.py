"""Fit minimax2's evaluation (42-cluster) to the outcomes of stored games.

Every position of every decided game in the given tournament outputs is played again
from its replay; each becomes one row, seen from the player to move: minimax2's
evaluation terms (its windows of 4 cells of one colour holding 1, 2 or 3 chips, its own
and the opponent's; the chips each side still owns) and whether that player went on to
win. A logistic regression on those rows says how much each term is worth, in the
units of the bot's own scale (an own window of 3 chips = 60), next to the bot's current
weights, then fitted on each half of the games alone (how steady each weight is);
five-fold cross-validation over whole games says how well each set of weights predicts
the outcomes (log loss, lower is better; 0.693 knows nothing). Positions where
the player to move can complete a line, or faces two such threats, are left out: the
search settles those.

    python3 bench/cluster_eval_fit.py OUTPUT [OUTPUT ...] [--bot bots/cluster/minimax2.py]

Standard library only (Newton's method on the 11 weights). The seat is a term of the fit
(the first player wins more often), not of the evaluation.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from arena.plugins.registry import load_registry
from arena.views.replay import resimulate

NAMES = ("own 1", "own 2", "own 3", "opp 1", "opp 2", "opp 3", "chips", "chips x fill^2",
         "1/(chips+1)", "seat", "opp threat")  # fmt: skip
"""The terms, from the player to move's side: window counts by chips in them (own, the
opponent's), the chips owned minus the opponent's (also times the share of the board
filled, squared), 1/(own chips + 1) minus the opponent's, first seat (+1) or second (-1),
the opponent's cells that complete a line next drop (0 or 1 here)."""
FOLDS = 5


def load_bot(path: Path) -> ModuleType:
    """The bot file as a module (its ``main`` is not run)."""
    spec = importlib.util.spec_from_file_location("cluster_bot", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def current_weights(bot: ModuleType) -> list[float]:
    """The bot's own evaluation as weights of :data:`NAMES`."""
    own = bot.WEIGHTS
    opp = [w * bot.DEFENCE for w in getattr(bot, "OPP_WEIGHTS", own)]
    return [own[1], own[2], own[3], -opp[1], -opp[2], -opp[3],
            bot.CHIP_VALUE, bot.LATE_CHIP, -bot.SCARCITY, 0.0, 0.0]  # fmt: skip


def rows_of(outputs: list[Path], bot: ModuleType) -> list[tuple[list[float], int, int]]:
    """(terms, won, game number) for every quiet position of every decided game."""
    game_cls = load_registry().get("cluster")
    rows: list[tuple[list[float], int, int]] = []
    number = 0
    for output in outputs:
        for path in sorted(output.rglob("replay.json")):  # arena run and arena match alike
            replay = json.loads(path.read_text())
            settings = replay.get("settings", {})
            size, colors = int(settings.get("grid_size", 6)), int(settings.get("colors", 4))
            ranks = replay["outcome"]["ranks"]
            if ranks[0] == ranks[1] or int(settings.get("win_length", 4)) != 4:
                continue
            number += 1
            winner = ranks.index(0)
            geo = bot.Geometry(size, 4)
            searchers: dict[int, Any] = {}
            for step in resimulate(game_cls(), replay):
                state = step.before
                if state.phase != "play":
                    continue
                me = state.turn
                board = [-1] * len(geo.cells)
                for i, cube in enumerate(state.grid.cells):
                    board[geo.index[tuple(cube)]] = state.board[i]
                walls = {geo.index[tuple(state.grid.cells[i])] for i in state.walls}
                chips = state.settings.chips_per_color
                if me not in searchers:  # one per seat and game: its tables are costly
                    searchers[me] = bot.Searcher(geo, walls, me, colors, chips)
                s = searchers[me]
                s.load(board, state.gravity)
                threat = len(s.threats(state.gravity, 1 - me))
                if threat > 1 or s.threats(state.gravity, me):
                    continue  # not quiet: the search decides these
                rows.append((terms(s, state, me, board, threat), int(winner == me), number))
    return rows


def terms(s: Any, state: Any, me: int, board: list[int], threat: int) -> list[float]:
    """The row of :data:`NAMES` for the player to move ``me``: ``s`` is the bot's
    ``Searcher`` loaded with ``board``, ``state`` the referee's state."""
    half = s.half
    counts = [[0] * 4 for _ in range(2)]  # [own, opponent's][chips in the window]
    for code in s.code:
        # A window's code holds one digit per colour, in base win + 1 (4 chips at most):
        # a window of one colour has a single digit that is not 0.
        for colour, power in enumerate(s.pw):
            k, rest = divmod(code, power)
            if rest == 0 and 0 < k < 4:
                counts[0 if colour // half == me else 1][k] += 1
                break
    bags = state.bags
    left = [sum(bags[c] for c in range(p * half, (p + 1) * half)) for p in (0, 1)]
    left[me] += sum(1 for c in state.drawn if c != -1)  # the chips in hand
    mine, theirs = left[me], left[1 - me]
    filled = sum(1 for v in board if v >= 0) / (len(board) - len(s.walls))
    return [*counts[0][1:], *counts[1][1:], mine - theirs, (mine - theirs) * filled * filled,
            1 / (mine + 1) - 1 / (theirs + 1), 1.0 if me == 0 else -1.0, threat]  # fmt: skip


def log_loss(w: list[float], rows: list[tuple[list[float], int, int]]) -> float:
    """Mean negative log-likelihood of the outcomes under weights ``w``."""
    total = 0.0
    for x, y, _ in rows:
        z = sum(a * b for a, b in zip(w, x, strict=True))
        total += (math.log1p(math.exp(z)) if z < 30 else z) - y * z
    return total / len(rows)


def fit(rows: list[tuple[list[float], int, int]], iterations: int = 20) -> list[float]:
    """Logistic regression by Newton's method, on terms scaled to a unit spread (a tiny
    ridge keeps it well posed)."""
    n = len(rows[0][0])
    spread = [math.sqrt(sum(x[i] ** 2 for x, _, _ in rows) / len(rows)) or 1.0 for i in range(n)]
    data = [([v / d for v, d in zip(x, spread, strict=True)], y) for x, y, _ in rows]
    w = [0.0] * n
    for _ in range(iterations):
        grad = [0.0] * n
        hess = [[0.0] * n for _ in range(n)]
        for x, y in data:
            z = sum(a * b for a, b in zip(w, x, strict=True))
            p = 1 / (1 + math.exp(-z)) if z > -30 else 0.0
            g, h = p - y, p * (1 - p)
            for i in range(n):
                grad[i] += g * x[i]
                hx = h * x[i]
                row = hess[i]
                for j in range(i + 1):
                    row[j] += hx * x[j]
        for i in range(n):
            hess[i][i] += 1e-6 * len(data)
            for j in range(i):
                hess[j][i] = hess[i][j]
        step = solve(hess, grad)
        w = [a - b for a, b in zip(w, step, strict=True)]
        if max(abs(v) for v in step) < 1e-6:
            break
    return [a / d for a, d in zip(w, spread, strict=True)]


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting (``a`` is small)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            for c in range(col, n + 1):
                m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def scaled(
    rows: list[tuple[list[float], int, int]], w: list[float]
) -> list[tuple[list[float], int, int]]:
    """Rows reduced to two terms: the evaluation ``w`` (seat left out) and the seat."""
    seat = NAMES.index("seat")
    out = []
    for x, y, g in rows:
        value = sum(a * b for i, (a, b) in enumerate(zip(w, x, strict=True)) if i != seat)
        out.append(([value, x[seat]], y, g))
    return out


def in_units(w: list[float]) -> list[float]:
    """Weights in the bot's units (our open three = 60); as fitted if no position had one."""
    three = w[NAMES.index("own 3")]
    return [v * 60 / three for v in w] if abs(three) > 1e-12 else w


def cross_validated(rows: list[tuple[list[float], int, int]]) -> float:
    """Log loss on each fold's games of a fit to the other folds' games, averaged."""
    total, tested = 0.0, 0
    for k in range(FOLDS):
        train = [r for r in rows if r[2] % FOLDS != k]
        test = [r for r in rows if r[2] % FOLDS == k]
        if test and train:
            total += log_loss(fit(train), test) * len(test)
            tested += len(test)
    return total / tested


def main() -> int:
    """Fit the weights and print them beside the bot's, with each set's log loss."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outputs", nargs="+", type=Path, help="tournament output folders")
    parser.add_argument("--bot", type=Path, default=Path("bots/cluster/minimax2.py"))
    args = parser.parse_args()
    bot = load_bot(args.bot)
    rows = rows_of(args.outputs, bot)
    if not rows:
        print("no decided cluster game with replays in those folders", file=sys.stderr)
        return 2
    games = len({g for _, _, g in rows})
    print(f"{len(rows)} quiet positions from {games} decided games")
    w = fit(rows)
    ours = current_weights(bot)
    print(f"{'term':<16}{'fitted':>10}{'the bot':>10}")
    for name, a, b in zip(NAMES, in_units(w), ours, strict=True):
        print(f"{name:<16}{a:10.1f}{b:10.1f}")
    if games < 2 * FOLDS:
        print(f"too few games to fit halves and cross-validate ({games}; {2 * FOLDS} at least)")
        return 0
    halves = [in_units(fit([r for r in rows if r[2] % 2 == k])) for k in (0, 1)]
    print("fitted on each half of the games (odd, even), the same units:")
    for i, name in enumerate(NAMES):
        print(f"  {name:<14}" + "".join(f"{h[i]:10.1f}" for h in halves))
    print("log loss, cross-validated over games (the weights' scale and the seat refitted):")
    print(f"  the bot's weights  {cross_validated(scaled(rows, ours)):.4f}")
    print(f"  fitted weights     {cross_validated(rows):.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
