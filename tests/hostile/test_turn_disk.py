"""Per-turn bots (file protocols, chess5) have a total disk cap too: as root, their
directory, which the referee reads between turns, is a tmpfs of ``disk_mb`` in the mount
namespace of the process playing the game, so a bot that writes many files is stopped at
the cap (not at the host's disk) and loses for ``memory`` with the reason. A referee that
cannot mount (another user, or run from a script) measures the directory after each turn
instead."""

from __future__ import annotations

import os
import re
import sqlite3
import sys
from pathlib import Path

import pytest

from arena.records import BotSpec
from arena.referee.engine import Referee
from support import REPO
from support.hostile import MODES, arena, mode_sandbox, tournament, write_bot
from support.toygame import FileToyGame

# Each turn: 40 files of 1 MiB in a folder of its own (each file under the per-file cap),
# saying how far it got, then its move.
HOG = """
import os, sys
os.makedirs("cache", exist_ok=True)
for i in range(40):
    with open(f"cache/f{i}", "wb") as f:
        f.write(b"x" * (1 << 20))
    print(f"wrote {i + 1} MiB", file=sys.stderr, flush=True)
open("move.json", "w").write("1")
"""
CAP_MB = 16


def wrote(log: str) -> int:
    return max((int(n) for n in re.findall(r"wrote (\d+) MiB", log)), default=0)


@pytest.mark.parametrize("mode", MODES)
def test_a_per_turn_bot_writing_many_files_stops_at_its_disk_cap(tmp_path: Path, mode: str):
    chess = f"cmd: python3 {REPO / 'bots' / 'chess5' / 'greedy.py'}"
    config = tournament(
        tmp_path, {"hog": HOG, "greedy": chess}, game="chess5", sandbox=mode, games=2,
        settings="{}", extra=f"disk_mb: {CAP_MB}\n",
    )  # fmt: skip
    for path in (tmp_path, tmp_path / "bots"):
        path.chmod(0o755)
    result = arena("run", str(config), "--no-progress")
    assert result.returncode == 0, result.stderr
    db = sqlite3.connect(tmp_path / "out" / "arena.sqlite")
    try:
        rows = db.execute("SELECT forfeit, detail FROM seats WHERE bot = 'hog'").fetchall()
    finally:
        db.close()
    assert len(rows) == 2
    for forfeit, detail in rows:
        assert forfeit == "memory", detail
        assert f"filled its disk cap ({CAP_MB} MiB)" in detail
        if os.geteuid() == 0:
            assert "No space left on device" in detail  # stopped by the cap
        else:  # measured after the turn (docs/sandbox.md)
            assert f"its directory holds over {CAP_MB} MiB" in detail
    for log in (tmp_path / "out").rglob("stderr-*-hog.txt"):
        assert 0 < wrote(log.read_text()) < (CAP_MB if os.geteuid() == 0 else 41), log


# For the toy game's 1000-byte file cap: 5000 files of 1000 bytes (5 MB) in a folder.
SMALL_HOG = """
import os
os.makedirs("cache", exist_ok=True)
for i in range(5000):
    with open(f"cache/f{i}", "wb") as f:
        f.write(b"x" * 1000)
open("move.json", "w").write("1")
"""
GOOD = 'open("move.json", "w").write("1")\n'


@pytest.mark.parametrize("mode", MODES)
def test_a_referee_run_from_a_script_measures_the_directory_after_each_turn(tmp_path, mode):
    # A referee in a process of the user's (not arena's worker) mounts nothing.
    hog = BotSpec("hog", (sys.executable, str(write_bot(tmp_path, "hog.py", SMALL_HOG))))
    good = BotSpec("good", (sys.executable, str(write_bot(tmp_path, "good.py", GOOD))))
    sandbox = mode_sandbox(mode, disk_mb=4)
    game = FileToyGame()
    settings = {**game.info.settings, "turns": 2, "simultaneous": False}
    record = Referee(game, [hog, good], tmp_path / "game", sandbox).play(3, settings)
    seat = record.seats[0]
    assert seat.forfeit == "memory", seat.detail
    assert seat.detail.startswith("filled its disk cap (4 MiB): its directory holds over 4 MiB")
    assert record.seats[1].forfeit is None
