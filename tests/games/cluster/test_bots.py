"""The shipped 42-cluster bots, run as processes against the real referee rules."""

from __future__ import annotations

import ast
import importlib.util
import random
import select
import subprocess
import sys
from dataclasses import replace
from typing import Any

import pytest

from arena import Move, Reply
from arena_games.cluster import rules
from arena_games.cluster.game import ClusterGame
from arena_games.cluster.hexgrid import hexgrid
from arena_games.cluster.rules import ChooseColor, Drop, Rotate, State
from support import REPO

GAME = ClusterGame()
BOTS = REPO / "bots" / "cluster"
SETTINGS = {**ClusterGame.info.settings, "timeout": 0.2}
HANG_GUARD_S = 60  # only to fail instead of hanging if a bot stops answering


class Bot:
    """A bot process spoken to through the referee's own prompt/interpret."""

    def __init__(self, name: str, seat: int) -> None:
        self.seat = seat
        self.proc = subprocess.Popen(
            [sys.executable, str(BOTS / f"{name}.py")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def readline(self) -> str:
        """The bot's next line (without newline)."""
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], HANG_GUARD_S)
        assert ready, "bot stopped answering"
        line = self.proc.stdout.readline()
        assert line, "bot closed its output"
        return line.rstrip("\n")

    def turn(self, state: State) -> str:
        """Send the prompt, answer its fetches, return the line that made its move."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(GAME.prompt(state, self.seat))
        self.proc.stdin.flush()
        while True:
            line = self.readline()
            result = GAME.interpret(state, self.seat, line)
            if isinstance(result, Move):
                return line
            if isinstance(result, Reply):
                self.proc.stdin.write(result.text)
                self.proc.stdin.flush()

    def close(self) -> None:
        """End the process."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=HANG_GUARD_S)


def play(names: tuple[str, str], seed: int) -> State:
    """A whole game between two bots."""
    state = GAME.start(seed, 2, SETTINGS)
    bots = [Bot(names[0], 0), Bot(names[1], 1)]
    try:
        moves = {b.seat: GAME.interpret(state, b.seat, b.turn(state)) for b in bots}
        state = GAME.apply(state, {s: m.action for s, m in moves.items() if isinstance(m, Move)})
        while seats := GAME.to_act(state):
            (seat,) = seats
            move = GAME.interpret(state, seat, bots[seat].turn(state))
            assert isinstance(move, Move)
            state = GAME.apply(state, {seat: move.action})
    finally:
        for bot in bots:
            bot.close()
    return state


def position(chips: dict[tuple[int, int, int], int]) -> State:
    """Player 0 to move holding chips 0 and 1, the given chips on the board."""
    state = GAME.apply(GAME.start(1, 2, SETTINGS), {0: ChooseColor(0), 1: ChooseColor(1)})
    board = list(state.board)
    for cell, chip in chips.items():
        board[state.grid.index[cell]] = chip
    return replace(state, board=tuple(board), drawn=(0, 1), last_action="drop -2 2")


def first_move(name: str, state: State) -> str:
    """The bot's answer after ``init`` and one turn prompt for ``state``."""
    bot = Bot(name, 0)
    try:
        start = GAME.start(1, 2, SETTINGS)
        color = GAME.interpret(start, 0, bot.turn(start))
        assert isinstance(color, Move) and isinstance(color.action, ChooseColor)
        return bot.turn(state)
    finally:
        bot.close()


EDGE = [(0, 5, -5), (1, 4, -5), (2, 3, -5)]  # bottoms of columns 0, 1, 2: a line along s = -5
ELSEWHERE = [(-1, 5, -4), (-2, 5, -3)]


@pytest.mark.parametrize("name", ["greedy", "minimax", "minimax2"])
def test_bot_completes_its_line(name: str) -> None:
    state = position({**dict.fromkeys(EDGE, 0), **dict.fromkeys(ELSEWHERE, 2)})
    assert first_move(name, state) == "drop 3 0"


def opponent_wins_next(state: State) -> bool:
    """Whether player 1 has a drop of either of its colours that wins at once."""
    for chip in (2, 3):
        turn = replace(state, drawn=(chip, chip))
        for action in rules.legal_actions(turn):
            if isinstance(action, Drop) and rules.apply_action(turn, action).winner == 1:
                return True
    return False


@pytest.mark.parametrize("name", ["greedy", "minimax", "minimax2"])
def test_bot_blocks_the_opponents_line(name: str) -> None:
    state = position({**dict.fromkeys(EDGE, 2), ELSEWHERE[0]: 0, ELSEWHERE[1]: 1})
    assert opponent_wins_next(replace(state, turn=1))
    line = first_move(name, state)
    move = GAME.interpret(state, 0, line)
    assert isinstance(move, Move)
    after = rules.apply_action(state, move.action)
    assert after.phase == "play" and not opponent_wins_next(after)
    if name == "greedy":
        assert line.startswith("drop 3 ")


@pytest.mark.parametrize(
    "names", [("random_bot", "random_bot"), ("greedy", "random_bot"), ("minimax2", "greedy")]
)
def test_whole_games_through_pipes(names: tuple[str, str]) -> None:
    state = play(names, 2)
    assert state.phase == "over" and "forfeits" not in state.reason


@pytest.mark.parametrize("name", ["random_bot", "greedy", "minimax", "minimax2"])
def test_bots_are_single_stdlib_files(name: str) -> None:
    path = BOTS / f"{name}.py"
    assert path.read_text().startswith("#!/usr/bin/env python3\n")
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            modules = [node.module or ""]
        else:
            continue
        for module in modules:
            assert module.split(".")[0] in sys.stdlib_module_names, module


def load_bot(name: str) -> Any:
    """Import a bot file as a module (its ``main`` does not run)."""
    spec = importlib.util.spec_from_file_location(f"cluster_bot_{name}", BOTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bot_geometry_agrees_with_the_referee() -> None:
    """Columns, landing cells and settling as the bots compute them, on random boards."""
    greedy, minimax = load_bot("greedy"), load_bot("minimax")
    grid = hexgrid(6)
    rng = random.Random(4)
    geo, greedy_geo = minimax.Geometry(6, 4), greedy.Geometry(6, 4)
    assert geo.cells == list(grid.cells) == greedy_geo.cells
    for _ in range(20):
        walls = {i for i in range(len(grid.cells)) if i not in grid.rim and rng.random() < 0.15}
        board = [
            -1 if i in walls else rng.choice([-1, -1, 0, 1, 2, 3]) for i in range(len(grid.cells))
        ]
        searcher = minimax.Searcher(geo, walls, 0, 4, 22)
        searcher.load(list(board))
        for gravity in range(6):
            settled = list(board)
            rules.settle(grid, settled, frozenset(walls), gravity)
            assert searcher.settle(gravity) == settled
            assert greedy_geo.settle(board, walls, gravity) == settled
            state = replace(
                position({}), board=tuple(settled), walls=frozenset(walls), gravity=gravity
            )
            for pos in range(-5, 6):
                assert geo.landing(settled, walls, gravity, pos) == rules.drop_target(state, pos)


def test_minimax2_keeps_landing_cells_as_the_referee_computes_them() -> None:
    """minimax2 updates each column's landing cell after a drop instead of walking the
    column again: on random boards, under every gravity, before and after each drop."""
    minimax2 = load_bot("minimax2")
    grid = hexgrid(6)
    rng = random.Random(7)
    geo = minimax2.Geometry(6, 4)
    for _ in range(10):
        walls = {i for i in range(len(grid.cells)) if i not in grid.rim and rng.random() < 0.15}
        board = [
            -1 if i in walls else rng.choice([-1, -1, -1, 0, 1, 2, 3])
            for i in range(len(grid.cells))
        ]
        searcher = minimax2.Searcher(geo, walls, 0, 4, 22)
        for gravity in range(6):
            settled = list(board)
            rules.settle(grid, settled, frozenset(walls), gravity)
            searcher.load(list(settled), gravity)
            searcher.counts = [settled.count(c) for c in range(4)]
            searcher.left = [40, 40]
            state = replace(position({}), walls=frozenset(walls), gravity=gravity)
            for _ in range(8):  # drops one after another, as the search makes them
                state = replace(state, board=tuple(searcher.board))
                drops = searcher.actions(gravity, [0], False, set())
                cells = {a[1]: a[3] for a in drops}
                for pos in range(-5, 6):
                    assert cells.get(pos, -1) == rules.drop_target(state, pos)
                if not drops:
                    break
                _, pos, chip, cell = rng.choice(drops)
                searcher.put(cell, chip)
                searcher.land[pos + 5] = searcher.up[gravity][cell]


def test_minimax2_rotations_agree_with_the_referee() -> None:
    """minimax2 settles the chips and rebuilds its windows in one pass at every rotation of
    its search: on random boards (walls included), for every gravity, the board, the hash, the
    window codes, the score and the winner are those of the referee's rotation."""
    minimax2 = load_bot("minimax2")
    grid = hexgrid(6)
    rng = random.Random(11)
    geo = minimax2.Geometry(6, 4)
    winners = set()
    for _ in range(30):
        walls = {i for i in range(len(grid.cells)) if i not in grid.rim and rng.random() < 0.1}
        board = [
            -1 if i in walls else rng.choice([-1, -1, -1, 0, 1, 2, 3])
            for i in range(len(grid.cells))
        ]
        state = replace(position({}), walls=frozenset(walls), gravity=3, turn=0, drawn=(0, 1))
        settled = list(board)
        rules.settle(grid, settled, frozenset(walls), 3)
        state = replace(state, board=tuple(settled))
        searcher = minimax2.Searcher(geo, walls, 0, 4, 22)
        fresh = minimax2.Searcher(geo, walls, 0, 4, 22)
        for gravity in range(6):
            searcher.load(list(settled), 3)
            searcher.rotate_to(gravity)
            after = rules.apply_action(state, rules.Rotate(gravity))
            assert searcher.board == list(after.board)
            assert searcher.gravity == gravity
            fresh.load(list(after.board), gravity)
            assert (searcher.hash, searcher.code, searcher.score, searcher.hot) == (
                fresh.hash,
                fresh.code,
                fresh.score,
                fresh.hot,
            )
            winner = -1 if after.winner is None else after.winner
            assert searcher.rotation_winner(searcher.board) == winner
            winners.add(winner)
    assert winners == {-1, 0, 1}  # the boards cover wins of either player and no win


@pytest.mark.parametrize("depth", [2, 3, 4, 5, 6])
def test_minimax2_stops_an_open_three_at_every_depth(depth: int) -> None:
    """Player 1 has two chips of colour 2 side by side on the bottom row (columns 2 and 3)
    with empty cells on both sides: a third one next to them would leave two ends to
    complete and only one can be blocked by a drop. At every fixed depth (its late move
    reductions start at depth 3) minimax2 must take one of the two cells next to the pair
    (columns 1 and 4), or leave them only with a rotation in hand that answers either three
    (the referee's rules check that no drop of player 1 then completes a line). At depth 6
    it finds one: it drops in column 0, and if player 1 then makes three in columns 2-4,
    rotating to gravity 1 slides the row against the board's edge, the three at columns
    3-5 with no open end."""
    minimax2 = load_bot("minimax2")
    minimax2.MAX_DEPTH = depth
    minimax2.log = lambda msg: None
    geo = minimax2.Geometry(6, 4)
    bottom = {q: (q, 5 - q, -5) if q >= 0 else (q, 5, -5 - q) for q in range(-5, 6)}
    chips = {bottom[q]: chip for q, chip in ((2, 2), (3, 2), (-2, 0), (-3, 1), (-4, 3))}
    board = [-1] * len(geo.cells)
    for cell, chip in chips.items():
        board[geo.index[cell]] = chip
    searcher = minimax2.Searcher(geo, set(), 0, 4, 22)
    searcher.rotations = [0, 0]
    act = searcher.root(board, 3, [0, 1], True, 60.0, 60.0)
    assert act[0] == "d"
    assert geo.cells[act[3]] == bottom[act[1]]
    if act[1] in (1, 4):
        return
    after = rules.apply_action(position(chips), Drop(act[1], act[2]))
    for end in (1, 4):  # player 1 makes its three, then player 0 answers by rotating
        three = rules.apply_action(replace(after, drawn=(2, 3)), Drop(end, 2))
        rotated = [rules.apply_action(replace(three, drawn=(0, 1)), Rotate(g)) for g in range(6)]
        assert any(r.winner != 1 and not opponent_wins_next(r) for r in rotated)


def test_minimax2_sees_its_own_winning_rotation_on_the_last_ply() -> None:
    """Most games end with a rotation, so minimax2 tries its own on the last ply too.

    Under gravity 3 player 0's chips stand as two pairs of columns at q = -2 and -1 (cells
    (-2,4), (-2,5), (-1,4), (-1,5)) and one at (3,2); no drop of its chips makes a line.
    Rotating to gravity 4 (bottom-left: q falls, r rises) sends (-2,4) to (-3,5) and (3,2)
    down its s = -5 line to (0,5): r = 5 then holds four 0s at q = -3..0. A search of one
    ply with player 0 to move must find that win."""
    minimax2 = load_bot("minimax2")
    chips = {(-2, 4, -2): 0, (-2, 5, -3): 0, (-1, 4, -3): 0, (-1, 5, -4): 0, (3, 2, -5): 0}
    state = position({**chips, (5, 0, -5): 3})
    assert rules.apply_action(state, Rotate(4)).winner == 0  # the referee agrees
    for action in rules.legal_actions(state):
        if isinstance(action, Drop):
            assert rules.apply_action(state, action).winner is None
    geo = minimax2.Geometry(6, 4)
    searcher = minimax2.Searcher(geo, set(), 0, 4, 22)
    searcher.load(list(state.board), 3)
    searcher.counts = [state.board.count(c) for c in range(4)]
    searcher.left = [39, 43]
    searcher.deadline = float("inf")
    value = searcher.negamax(3, 1, -minimax2.WIN - 100, minimax2.WIN + 100, 0)
    assert value >= minimax2.WIN
