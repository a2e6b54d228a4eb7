"""Hostile per-turn bots: whatever they leave where a protocol file belongs, the referee never
follows it, never blocks on it, writes nothing outside the bot's directory, and the bot loses
with a clear reason while the game (and the tournament's database) survive."""

from __future__ import annotations

import os
import signal
import sqlite3
import sys
from pathlib import Path

import pytest

from arena.records import BotSpec
from arena.referee.engine import Referee
from support import REPO
from support.hostile import MODES, arena, mode_sandbox, tournament, write_bot
from support.toygame import FileToyGame

GOOD = """
import sys
open("move.json", "w").write("1")
"""

# Plays its first turn normally, then leaves {what} in place of {name} for the next turn.
PLANT = """
import os, sys
open("move.json", "w").write("1")
if os.path.exists("planted"):
    raise SystemExit(0)
open("planted", "w").write("1")
target = {name!r}
if os.path.lexists(target):
    os.remove(target)
{what}
"""

PLANTS = {
    "symlink": "os.symlink({victim!r}, target)",
    "directory": "os.mkdir(target)",
    "fifo": "os.mkfifo(target)",
}


def play(tmp_path: Path, bots: list[BotSpec], mode: str, turns: int = 3):
    game = FileToyGame()
    settings = {**game.info.settings, "turns": turns, "simultaneous": False}
    referee = Referee(game, bots, tmp_path / "game", mode_sandbox(mode))
    # A referee that blocks on a FIFO would hang the suite: fail instead, loudly.
    previous = signal.signal(signal.SIGALRM, _hung)
    signal.alarm(60)
    try:
        return referee.play(3, settings)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _hung(signum, frame):
    raise TimeoutError("the referee hung on a file the bot left")


def bot(tmp_path: Path, name: str, source: str) -> BotSpec:
    return BotSpec(name, (sys.executable, str(write_bot(tmp_path / "bots", f"{name}.py", source))))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", sorted(PLANTS))
@pytest.mark.parametrize("name", ["state.json", "move.json"])
def test_anything_but_a_regular_file_in_place_of_a_protocol_file_loses_and_is_never_followed(
    tmp_path, mode, kind, name
):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious host file\n")
    what = PLANTS[kind].format(victim=str(victim))
    planter = bot(tmp_path, "planter", PLANT.format(name=name, what=what))
    good = bot(tmp_path, "good", GOOD)
    record = play(tmp_path, [planter, good], mode)
    seat = record.seats[0]
    assert seat.forfeit == "invalid"
    kind_text = {"symlink": "a symbolic link", "directory": "a directory", "fifo": "a FIFO"}[kind]
    if name == "state.json":  # found before the second turn: the process never starts
        assert seat.detail == f"state.json in its directory is {kind_text}, not a regular file"
    else:  # found when the second turn's output is read
        assert seat.detail == f"move.json is {kind_text}, not a regular file"
    assert record.seats[1].forfeit is None and record.seats[1].rank == 0
    # Nothing was written through the link, nothing read from it.
    assert victim.read_text() == "precious host file\n"
    assert "precious" not in (tmp_path / "game" / "replay.json").read_text()


TAKEOVER = """
import os, runpy, sys
shipped, state = sys.argv[1:]  # the shipped bot is named in the command: the sandbox shows it
sys.argv = [shipped, state]
try:
    runpy.run_path(shipped, run_name="__main__")
except SystemExit:
    pass
# Point the next turn's input at the tournament's database.
os.remove(state)
os.symlink({db!r}, state)
"""


@pytest.mark.parametrize("mode", MODES)
def test_a_chess5_bot_cannot_write_the_tournament_database_through_state_json(tmp_path, mode):
    out = tmp_path / "out"
    shipped = str(REPO / "bots" / "chess5" / "greedy.py")
    source = TAKEOVER.format(db=str(out / "arena.sqlite"))
    takeover = write_bot(tmp_path / "bots", "takeover.py", source)
    path = tournament(
        tmp_path,
        {"takeover": f"cmd: python3 {takeover} {shipped}", "greedy": f"cmd: python3 {shipped}"},
        game="chess5",
        sandbox=mode,
        games=2,
        settings="{}",
    )
    result = arena("run", str(path), "--no-progress")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    db = sqlite3.connect(out / "arena.sqlite")
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    forfeits = db.execute("SELECT forfeit, detail FROM seats WHERE bot = 'takeover'").fetchall()
    assert len(forfeits) == 2
    for forfeit, detail in forfeits:
        assert (forfeit, detail) == (
            "invalid",
            "state.json in its directory is a symbolic link, not a regular file",
        )
    board = arena("leaderboard", str(out), "--format", "json")
    assert board.returncode == 0, board.stderr
    assert os.path.getsize(out / "arena.sqlite") > 0
