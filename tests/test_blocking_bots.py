"""The shipped Blocking bots, run as processes through the real rules (no clocks).

Every answer must be a legal move under the ruled orientation codes, and the strategist,
which computes the greedy bot's next move itself from the shapes' pictures, must predict
every move of the real greedy bot.
"""

from __future__ import annotations

import importlib.util
import random
import re
import select
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from arena import Move
from arena_games.blocking.game import BlockingGame

GAME = BlockingGame()
BOTS = Path(__file__).resolve().parent.parent / "bots" / "blocking"
HANG_GUARD_S = 60  # only to fail instead of hanging if a bot stops answering
BOARD_ROW = re.compile(r"[.x0123]{13}$")


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


def load_bot(name: str) -> ModuleType:
    """A shipped bot's file imported as a module (its ``main`` is not run)."""
    spec = importlib.util.spec_from_file_location(f"blocking_{name}", BOTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("players", [2, 4])
def test_strategist2_placements_kept_move_by_move_match_a_fresh_search(players: int) -> None:
    """strategist2 keeps every seat's placements up to date from the move just played
    (those still free, plus the ones through the corners the mover opened): after every
    move of a real game they equal the placements generated from scratch on the board."""
    bot = load_bot("strategist2")
    rnd = random.Random(players)
    state = GAME.start(11, players, {})
    lines = GAME.prompt(state, 0).splitlines()
    shapes = {}
    for line in lines[1 : 1 + int(lines[0])]:
        letter, width, height, picture = line.split()
        w = int(width)
        shapes[letter] = [picture[i : i + w] for i in range(0, w * int(height), w)]
    engine = bot.Engine(shapes)
    hands = [lines[int(lines[0]) + 4]] * players + [""] * (4 - players)
    owned = [0, 0, 0, 0]
    found = [engine.by_letter(q, owned, 0, hands[q]) for q in range(4)]
    checked = 0
    seats = GAME.to_act(state)
    while seats:
        seat = seats[0]
        prompt = GAME.prompt(state, seat).splitlines()
        count = next(i for i in range(len(prompt) - 1, -1, -1) if prompt[i].isdigit())
        answer = rnd.choice(prompt[count + 1 :])
        move = GAME.interpret(state, seat, answer)
        assert isinstance(move, Move)
        state = GAME.apply(state, {seat: move.action})
        seats = GAME.to_act(state)
        if not seats:
            break
        rows = [row for row in GAME.prompt(state, seats[0]).splitlines() if BOARD_ROW.match(row)]
        gained = (
            sum(
                1 << (y * 13 + x)
                for y, row in enumerate(rows)
                for x, ch in enumerate(row)
                if ch == str(seat)
            )
            & ~owned[seat]
        )
        owned[seat] |= gained
        hands[seat] = hands[seat].replace(answer.split()[2][0], "")
        occ = owned[0] | owned[1] | owned[2] | owned[3]
        found = [
            engine.update(q, found[q], owned, occ, hands[q], gained if q == seat else 0)
            for q in range(4)
        ]
        for q in range(players):
            assert found[q] == engine.by_letter(q, owned, occ, hands[q]), (checked, q)
        checked += 1
    assert checked >= 20
