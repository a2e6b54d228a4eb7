"""Whatever a bot does to its own folder, files or processes costs that bot the game (a
forfeit with the reason), never voids it: the game is stored, counted as the bot's loss,
and the next run does not play it again."""

from __future__ import annotations

import sqlite3
import sys

import pytest

from support import REPO
from support.hostile import MODES, arena, tournament, write_bot

# A chess5 bot: plays its first turn as the shipped greedy bot, then {what}.
WRAPPED = """
import os, runpy, sys
shipped, state = sys.argv[1:]  # the shipped bot is named in the command: the sandbox shows it
sys.argv = [shipped, state]
try:
    runpy.run_path(shipped, run_name="__main__")
except SystemExit:
    pass
if os.path.exists("done"):
    raise SystemExit(0)
open("done", "w").write("1")
{what}
"""

BAD_NAMES = """
for i in range(3):
    open(os.fsencode("bad-") + bytes([0xff, 0xfe, 0x30 + i]) + b"\\x1b[2J", "w").write("x")
"""
"""Files whose names are not UTF-8 (and hold an escape sequence): more than allowed."""

CHMOD_000 = "os.chmod('.', 0)"
"""The bot takes every permission from its own folder."""

CHMOD_500 = "os.chmod('.', 0o500)"
"""The bot makes its own folder read-only."""


def chess5_run(tmp_path, mode: str, what: str):
    shipped = str(REPO / "bots" / "chess5" / "greedy.py")
    source = WRAPPED.format(what=what)
    hostile = write_bot(tmp_path / "bots", "hostile.py", source)
    path = tournament(
        tmp_path,
        {
            "hostile": f"cmd: {sys.executable} {hostile} {shipped}",
            "greedy": f"cmd: {sys.executable} {shipped}",
        },
        game="chess5",
        sandbox=mode,
        games=2,
        settings="{}",
    )
    return path, tmp_path / "out"


def hostile_seats(out):
    db = sqlite3.connect(out / "arena.sqlite")
    return db.execute(
        "SELECT s.forfeit, s.detail, s.rank FROM seats s WHERE s.bot = 'hostile'"
    ).fetchall()


def assert_lost_and_stored(tmp_path, mode, what, reason_part):
    path, out = chess5_run(tmp_path, mode, what)
    result = arena("run", str(path), "--no-progress")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr and "failed in the referee" not in result.stderr
    seats = hostile_seats(out)
    assert len(seats) == 2
    for forfeit, detail, rank in seats:
        assert forfeit == "invalid" and rank == 1, (forfeit, detail)
        assert reason_part in detail
    # Nothing is played again: the games are stored for good.
    again = arena("run", str(path), "--no-progress")
    assert again.returncode == 0, again.stderr
    assert "resuming: 2 of 2 games" in again.stderr
    board = arena("leaderboard", str(out))
    assert board.returncode == 0, board.stderr
    return seats


@pytest.mark.parametrize("mode", MODES)
def test_files_with_non_utf8_names_lose_the_game_and_the_game_is_stored(tmp_path, mode):
    seats = assert_lost_and_stored(tmp_path, mode, BAD_NAMES, "extra files")
    for _, detail, _ in seats:
        # The bytes are shown escaped, and no control character comes out.
        assert "bad-\\xff\\xfe0\\x1b[2J" in detail
        assert "\x1b" not in detail


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("what", [CHMOD_000, CHMOD_500], ids=["000", "500"])
def test_a_bot_that_takes_permissions_from_its_folder_loses_the_game(tmp_path, mode, what):
    # The same verdict whether the referee runs as root (which permissions do not stop)
    # or not (which they would have stopped in the referee, voiding the game).
    assert_lost_and_stored(tmp_path, mode, what, "took permissions from its own directory")
