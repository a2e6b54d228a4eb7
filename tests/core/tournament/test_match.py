"""``arena match --output``: an ordinary output folder (the layout, meta and store of ``arena
run``) that the commands reading output folders read; bots named by the one rule."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from arena.errors import ConfigError
from arena.plugins.registry import load_registry
from arena.results.status import read_status
from arena.tournament.config import load_tournament
from arena.tournament.match import match_bots
from support import REPO

CPP_BOT = REPO / "tests" / "core" / "botbuild" / "bots" / "stc_bot.cpp"
GREEDY = REPO / "bots" / "stc" / "greedy.py"


def arena(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The real command, run in ``cwd`` (its caches there too)."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cwd / "cache"), "TMPDIR": str(cwd)}
    env.pop("ARENA_PROGRESS", None)
    return subprocess.run(
        [sys.executable, "-m", "arena", *args],
        capture_output=True, text=True, cwd=cwd, env=env, timeout=600,
    )  # fmt: skip


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_a_cpp_source_match_keeps_an_output_folder_every_reader_reads(tmp_path):
    shutil.copy(CPP_BOT, tmp_path / "mybot.cpp")
    out = tmp_path / "DIR"
    played = arena(
        tmp_path, "match", "stc", "mybot.cpp", f"python3 {GREEDY}", "--output", "DIR",
        "--games", "2", "--max_turns", "6", "--sandbox", "none",
    )  # fmt: skip
    # Before: exit 70, "'_Source' object has no attribute 'argv'".
    assert played.returncode == 0, played.stderr
    assert "arena: mybot: cpp built in " in played.stderr
    assert "games stored in DIR (arena list, leaderboard, report read it)" in played.stdout
    # The layout of `arena run`: games/<slug>/ per game, no game-0001/.
    folders = sorted(p.name for p in (out / "games").iterdir())
    assert [f.rsplit("-", 1)[0] for f in folders] == ["r0-greedy-mybot", "r0-mybot-greedy"]
    assert not list(out.glob("game-*"))
    for folder in folders:
        assert {p.name for p in (out / "games" / folder).iterdir()} == {
            "replay.json", "stderr-0-" + folder.split("-")[1] + ".txt",
            "stderr-1-" + folder.split("-")[2] + ".txt",
        }  # fmt: skip
    db = sqlite3.connect(out / "arena.sqlite")
    meta = {k: json.loads(v) for k, v in db.execute("SELECT key, value FROM meta")}
    commands = dict(db.execute("SELECT name, cmd FROM bots"))
    dirs = sorted(d for (d,) in db.execute("SELECT dir FROM games"))
    db.close()
    assert commands == {"mybot": "mybot.cpp", "greedy": f"python3 {GREEDY}"}
    assert dirs == [f"games/{f}" for f in folders]
    assert (meta["format"], meta["bots"], meta["seed"], meta["game"]) == (
        "match", ["mybot", "greedy"], 1, "stc",
    )  # fmt: skip
    status = read_status(out)
    assert status is not None
    assert (status["state"], status["games_done"], status["games_total"]) == ("done", 2, 2)

    board = arena(tmp_path, "leaderboard", "DIR", "--format", "json")
    assert board.returncode == 0, board.stderr
    rows = json.loads(board.stdout)["leaderboard"]
    assert sorted((r["bot"], r["games"]) for r in rows) == [("greedy", 2), ("mybot", 2)]
    listed = arena(tmp_path, "list", "DIR")
    assert listed.returncode == 0, listed.stderr
    assert "2 of 2 games" in listed.stdout
    assert "mybot vs greedy" in listed.stdout and "greedy vs mybot" in listed.stdout
    shown = arena(tmp_path, "show", "1", "--from", "DIR")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("Smash The Code (stc), seed 1: mybot (seat 0) vs greedy")
    report = arena(tmp_path, "report", "DIR")
    assert report.returncode == 0, report.stderr
    assert report.stdout == "report: DIR/report.html (2 viewers written)\n"
    assert "mybot" in (out / "report.html").read_text()


def test_match_and_run_write_the_same_meta_keys(tmp_path):
    text = (
        f"name: t\ngame: stc\ngames: 1\nsettings: {{max_turns: 2}}\noutput: {tmp_path / 'run'}\n"
        f"bots:\n  - cmd: python3 {GREEDY}\n  - cmd: python3 {REPO / 'bots/stc/random_bot.py'}\n"
    )
    (tmp_path / "t.yaml").write_text(text)
    assert arena(tmp_path, "run", "t.yaml", "--no-progress").returncode == 0
    match = arena(tmp_path, "match", "stc", f"python3 {GREEDY}", f"python3 {GREEDY}",
                  "--max_turns", "2", "--output", "m")  # fmt: skip
    assert match.returncode == 0, match.stderr

    def keys(folder: str) -> set[str]:
        db = sqlite3.connect(tmp_path / folder / "arena.sqlite")
        try:
            return {k for (k,) in db.execute("SELECT key FROM meta")}
        finally:
            db.close()

    # (but the resume check, a tournament run's own: a match is never resumed)
    assert keys("m") == keys("run") - {"resume_check"}
    # The same file twice: the second is marked with a '.
    listed = arena(tmp_path, "list", "m")
    assert "greedy vs greedy'" in listed.stdout, listed.stdout


def test_names_are_stems_then_file_names_then_marked(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mybot.py").write_text("print(1)\n")
    (tmp_path / "mybot.cpp").write_text("int main() { return 0; }\n")
    (tmp_path / "det_bot.py").write_text("print(1)\n")
    names = [b.name for b in match_bots(["python3 det_bot.py mirror", "python3 mybot.py"])]
    assert names == ["det_bot", "mybot"]
    # Stems collide: the file names; issue 49 item 13: not mybot and mybot'.
    assert [b.name for b in match_bots(["python3 mybot.py", "mybot.cpp"])] == [
        "mybot.py",
        "mybot.cpp",
    ]
    assert [b.name for b in match_bots(["python3 mybot.py"] * 3)] == ["mybot", "mybot'", "mybot''"]
    # A given name stays; a default that would take it is marked.
    given = match_bots(["python3 det_bot.py", "det_bot=python3 mybot.py"])
    assert [b.name for b in given] == ["det_bot'", "det_bot"]
    with pytest.raises(ConfigError, match="the bot name 'x' is given twice"):
        match_bots(["x=python3 mybot.py", "x=python3 det_bot.py"])


def test_api_play_names_bots_as_match_does(tmp_path):
    import arena as arena_api

    bot = tmp_path / "det_bot.py"
    shutil.copy(GREEDY, bot)
    result = arena_api.play(
        "stc", [f"python3 {bot} mirror", f"python3 {bot}"], settings={"max_turns": 2},
        sandbox="none",
    )  # fmt: skip
    # Before: "mirror" (the command's last word) and "det_bot".
    assert result.bots == ["det_bot", "det_bot'"]


def test_a_tournament_names_colliding_stems_by_their_file_names(tmp_path):
    (tmp_path / "mybot.py").write_text("print(1)\n")
    shutil.copy(CPP_BOT, tmp_path / "mybot.cpp")
    path = tmp_path / "t.yaml"
    path.write_text(
        f"game: stc\nbots:\n  - cmd: python3 {tmp_path / 'mybot.py'}\n"
        f"  - source: {tmp_path / 'mybot.cpp'}\n  - name: mybot\n    cmd: python3 {GREEDY}\n"
    )
    config = load_tournament(path, load_registry())
    assert [b.name for b in config.bots] == ["mybot.py", "mybot.cpp", "mybot"]
