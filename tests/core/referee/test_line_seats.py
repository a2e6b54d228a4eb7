"""Line seats on their own (no engine): a bot that crashes before answering its first turn
is told one way, whether it ended before its input could be written or after reading it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from arena.botproc import BotHome, Sandbox
from arena.records import BotSpec, Clock, ReplayStep
from arena.referee.clocks import turn_clock
from arena.referee.line_seats import LineSeats
from arena.referee.seats import Table
from support.toygame import ToyGame

CRASHER = """
import sys
{read}
print("loading the opening book", file=sys.stderr, flush=True)
raise ValueError("bad weights in book.txt")
"""
EXPECTED = [
    "exited with code 1 without answering; its stderr ends:",
    "  loading the opening book",
    "  Traceback (most recent call last):",
]


def seats_of(tmp_path: Path, script: str) -> LineSeats:
    bot = tmp_path / "bot.py"
    bot.write_text(script)
    game = ToyGame()
    home = BotHome.create(game.info.id, 1, Sandbox("none"))
    table = Table(
        game=game,
        bots=[BotSpec("crasher", (sys.executable, str(bot)))],
        sandbox=Sandbox("none"),
        clock=turn_clock(Clock()),
        home=home,
        cores=[None],
        stderr_paths=[tmp_path / "stderr-0.txt"],
    )
    return LineSeats(table)


def first_turn(seats: LineSeats) -> ReplayStep:
    game = seats.game
    state = game.start(7, 1, game.info.settings)
    step: ReplayStep = {"to_act": [0], "moves": {}, "messages": {}, "forfeits": {}, "io": {}}
    moves, forfeits = seats.play_step(state, [0], {0: 2000}, step)
    assert moves == {}
    forfeit = seats.forfeited(0, forfeits[0])
    assert forfeit.reason == "crash"
    lines = forfeit.detail.splitlines()
    assert lines[:3] == EXPECTED
    assert lines[-1] == "  ValueError: bad weights in book.txt"
    return step


@pytest.mark.parametrize("read", ["", "sys.stdin.readline()"], ids=["before", "after"])
def test_a_bot_that_crashes_before_answering_its_first_turn_is_told_one_way(
    tmp_path: Path, read: str
) -> None:
    seats = seats_of(tmp_path, CRASHER.format(read=read))
    try:
        seats.start()
        if not read:
            # Ended before its input is written: the write finds its stdin closed.
            assert seats.bots[0].proc is not None
            seats.bots[0].proc.wait()
        first_turn(seats)
    finally:
        seats.close()
