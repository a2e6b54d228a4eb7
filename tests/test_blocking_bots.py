"""The shipped Blocking bots, run as processes through the real rules (no clocks).

Every answer must be a legal move under the ruled orientation codes, and the strategist,
which computes the greedy bot's next move itself from the shapes' pictures, must predict
every move of the real greedy bot.
"""

from __future__ import annotations

import re
import select
import subprocess
import sys
from pathlib import Path

import pytest

from arena import Move
from arena_games.blocking.game import BlockingGame

GAME = BlockingGame()
BOTS = Path(__file__).resolve().parent.parent / "bots" / "blocking"
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
