"""An output folder holds one database file once arena is done with it: no
``arena.sqlite-wal`` nor ``-shm`` left by a run, a match, or the commands that read."""

from __future__ import annotations

import sqlite3
import sys

from support import REPO, run_arena


def _db_files(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("arena.sqlite"))


def test_no_wal_or_shm_after_a_run_and_the_commands_that_read_it(tmp_path):
    out = tmp_path / "out"
    spec = tmp_path / "t.yaml"
    spec.write_text(
        "name: files\ngame: stc\ngames: 2\nseed: 5\nsandbox: none\nconcurrency: 1\n"
        "settings: {max_turns: 3}\nbots:\n"
        f"  - {{name: a, cmd: {sys.executable} {REPO}/bots/stc/random_bot.py}}\n"
        f"  - {{name: b, cmd: {sys.executable} {REPO}/bots/stc/greedy.py}}\n"
        f"output: {out}\n"
    )
    assert run_arena("run", str(spec), "--no-progress").returncode == 0
    assert _db_files(out) == ["arena.sqlite"]
    for args in (("leaderboard", str(out)), ("list", str(out)), ("report", str(out))):
        assert run_arena(*args).returncode == 0
        assert _db_files(out) == ["arena.sqlite"], args
    # Still a whole database with both games, which the next run resumes.
    db = sqlite3.connect(out / "arena.sqlite")
    assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 2
    db.close()
    again = run_arena("run", str(spec), "--no-progress")
    assert "0 games played now, 2 resumed" in again.stderr
    assert _db_files(out) == ["arena.sqlite"]


def test_no_wal_or_shm_after_a_match_with_an_output_folder(tmp_path):
    out = tmp_path / "m"
    bots = (f"{sys.executable} bots/stc/random_bot.py", f"{sys.executable} bots/stc/greedy.py")
    result = run_arena(
        "match", "stc", *bots, "--games", "2", "--max_turns", "3", "--output", str(out)
    )
    assert result.returncode == 0, result.stderr
    assert _db_files(out) == ["arena.sqlite"]
