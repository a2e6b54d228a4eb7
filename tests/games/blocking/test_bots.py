"""The shipped Blocking bots, run as processes through the real rules (no clocks).

Every answer must be a legal move under the ruled orientation codes, and the strategist,
which computes the greedy bot's next move itself from the shapes' pictures, must predict
every move of the real greedy bot.
"""

from __future__ import annotations

import importlib.util
import io
import re
import select
import subprocess
import sys
from pathlib import Path

import pytest

from arena import Move
from arena_games.blocking import protocol, rules
from arena_games.blocking.game import BlockingGame
from support import REPO

GAME = BlockingGame()
BOTS = REPO / "bots" / "blocking"
HANG_GUARD_S = 60  # only to fail instead of hanging if a bot stops answering


def play(names: list[str], seed: int, tmp_path: Path) -> tuple[list[int], list[str]]:
    """Play one game; return the scores and each bot's stderr."""
    logs = [tmp_path / f"{seat}-{name}.log" for seat, name in enumerate(names)]
    procs = [
        subprocess.Popen(
            [sys.executable, str(BOTS / f"{name}.py")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log.open("w"),
            text=True,
        )
        for name, log in zip(names, logs, strict=True)
    ]
    state = GAME.start(seed, len(names), {})
    try:
        while seats := GAME.to_act(state):
            seat = seats[0]
            proc = procs[seat]
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(GAME.prompt(state, seat))
            proc.stdin.flush()
            ready, _, _ = select.select([proc.stdout], [], [], HANG_GUARD_S)
            assert ready, f"{names[seat]} stopped answering"
            answer = proc.stdout.readline().rstrip("\n")
            move = GAME.interpret(state, seat, answer)  # raises if illegal or malformed
            assert isinstance(move, Move)
            state = GAME.apply(state, {seat: move.action})
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()
    return list(GAME.outcome(state).scores), [log.read_text() for log in logs]


@pytest.mark.parametrize(
    ("names", "seed"),
    [
        (["random_bot", "greedy"], 1),
        (["greedy", "random_bot", "greedy"], 2),
        (["random_bot", "greedy", "random_bot", "greedy"], 3),
    ],
)
def test_simple_bots_play_whole_games_legally(names: list[str], seed: int, tmp_path) -> None:
    scores, _ = play(names, seed, tmp_path)
    assert all(score > 0 for score in scores)


def test_strategist_plays_legally_and_predicts_every_greedy_move(tmp_path) -> None:
    scores, logs = play(["strategist", "greedy"], 4, tmp_path)
    assert all(score > 0 for score in scores)
    models = re.findall(r"1:(\w+)\((\d+)/(\d+),", logs[0])
    assert models, logs[0]
    kind, hits, seen = models[-1]
    assert (kind, hits) == ("greedy", seen) and int(seen) > 5


def test_strategist2_plays_a_whole_duel_legally_and_logs_to_stderr(tmp_path) -> None:
    """strategist2 against the strategist: every answer legal, reasons on stderr each turn."""
    scores, logs = play(["strategist2", "strategist"], 5, tmp_path)
    assert all(score > 0 for score in scores)
    assert logs[0].count(" ms") >= 5, logs[0]


# Seed 57, 20 moves of a real duel: player 1 (bottom right) can grow only from the cell
# (4, 5); player 0 can cover it with its domino (3 5 B001) or play a pentomino elsewhere.
BOXED_IN = [
    "0 0 E001", "12 12 M131", "3 2 D031", "10 8 L131", "5 3 T101", "9 9 K001", "6 8 R031",
    "8 2 Q001", "3 11 P031", "5 1 C001", "8 11 N021", "12 4 I011", "5 7 L121", "9 0 H101",
    "1 8 S001", "12 7 B011", "0 7 M021", "8 5 A001", "2 12 H121", "6 5 S001",
]  # fmt: skip


@pytest.mark.parametrize("full", [0, 1000])
def test_strategist2_duel_search_blocks_the_opponents_only_corner(
    full: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """In a duel the search sees that covering the opponent's last corner cell with a
    domino beats any pentomino: the opponent is out with 8 shapes in hand. Both the light
    evaluation (DUEL_FULL 0) and the expected-score one (DUEL_FULL 1000) find it."""
    state = GAME.start(57, 2, {})
    for text in BOXED_IN:
        seat = GAME.to_act(state)[0]
        state = GAME.apply(state, {seat: GAME.interpret(state, seat, text).action})
    assert GAME.to_act(state) == (0,)
    assert (
        rules.has_move(state, 1)
        and max(p.mask.bit_count() for p in rules.legal_moves(state, 0)) == 5
    )
    spec = importlib.util.spec_from_file_location("strategist2", BOTS / "strategist2.py")
    assert spec is not None and spec.loader is not None
    bot = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "strategist2", bot)
    spec.loader.exec_module(bot)
    monkeypatch.setattr(bot, "BUDGET", 1.0)  # no clock here: the search's own limits decide
    monkeypatch.setattr(bot, "DUEL_FULL", full)
    # The bot as it would be after its own moves: the init, then its hand and board known.
    monkeypatch.setattr(sys, "stdin", io.StringIO(protocol.init_text(state, 0)))
    player = bot.Strategist()
    player.left = [*state.remaining, "", ""]
    player.board = [*state.owned, 0, 0]
    player.turns = 1
    monkeypatch.setattr(sys, "stdin", io.StringIO(protocol.turn_text(state, 0)))
    answer = player.turn()
    state = GAME.apply(state, {0: GAME.interpret(state, 0, answer).action})
    assert not rules.has_move(state, 1), answer
    assert "duel:" in capsys.readouterr().err
