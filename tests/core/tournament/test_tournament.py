"""Tournaments end to end through the real CLI: storage, resume, leaderboards."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.cli.main import main
from support import REPO, run_arena, stc_cycler, unmeasured

TOURNAMENT = """\
name: resume-demo
game: stc
games: 4
seed: 11
concurrency: 2
settings:
  max_turns: 12
bots:
  - name: greedy
    cmd: python3 {repo}/bots/stc/greedy.py
  - name: cycle6
    cmd: python3 {bots}/cycle6.py
  - name: cycle3
    cmd: python3 {bots}/cycle3.py
output: {out}
"""


@pytest.fixture
def tournament(tmp_path: Path) -> Path:
    bots = tmp_path / "bots"
    bots.mkdir()
    (bots / "cycle6.py").write_text(stc_cycler(6, "cycling"))
    (bots / "cycle3.py").write_text(stc_cycler(3, "cycling"))
    path = tmp_path / "t.yaml"
    path.write_text(TOURNAMENT.format(repo=REPO, bots=bots, out=tmp_path / "out"))
    return path


def board(out: Path) -> dict:
    result = run_arena("leaderboard", str(out), "--format", "json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_run_stores_every_game_and_prints_the_leaderboard(tournament, tmp_path):
    result = run_arena("run", str(tournament), "--wide")
    assert result.returncode == 0, result.stderr
    out = tmp_path / "out"
    db = sqlite3.connect(out / "arena.sqlite")
    assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (12,)
    rows = db.execute("SELECT key, seed, players, reason, turns, dir FROM games").fetchall()
    assert len({r[0] for r in rows}) == 12
    for key, _seed, players, _reason, turns, folder in rows:
        assert players == 2 and 1 <= turns <= 12
        replay = json.loads((out / folder / "replay.json").read_text())
        assert replay["game"] == "stc" and len(replay["steps"]) >= 1
        assert ",".join(replay["players"]) == key.split(":")[1]
        assert len(list((out / folder).glob("stderr-*.txt"))) == 2
    seats = db.execute("SELECT COUNT(*), COUNT(DISTINCT bot) FROM seats").fetchone()
    assert seats == (24, 3)
    assert "Win rate of row against column" in result.stdout
    for header in ("mu-3σ", "W/D/L", "win %", "timeout/crash/memory/invalid/illegal"):
        assert header in result.stdout
    data = board(out)
    assert sorted(r["bot"] for r in data["leaderboard"]) == ["cycle3", "cycle6", "greedy"]
    assert sum(r["games"] for r in data["leaderboard"]) == 24
    for fmt, marker in (("markdown", "| bot "), ("csv", "rank,bot,mu,sigma")):
        text = run_arena("leaderboard", str(out), "--format", fmt).stdout
        assert marker in text


def test_a_stopped_tournament_resumes_to_the_same_leaderboard(tournament, tmp_path):
    reference = tmp_path / "reference"
    assert run_arena("run", str(tournament), "--output", str(reference)).returncode == 0
    expected = board(reference)

    # Lose three games as if the run had stopped before storing them.
    partial = tmp_path / "partial"
    shutil.copytree(reference, partial)
    db = sqlite3.connect(partial / "arena.sqlite")
    with db:
        lost = [r[0] for r in db.execute("SELECT id FROM games ORDER BY id DESC LIMIT 3")]
        db.execute(f"DELETE FROM seats WHERE game_id IN ({','.join('?' * 3)})", lost)
        db.execute(f"DELETE FROM games WHERE id IN ({','.join('?' * 3)})", lost)
    db.close()
    result = run_arena("run", str(tournament), "--output", str(partial))
    assert result.returncode == 0, result.stderr
    assert "resuming: 9 of 12 games already stored" in result.stderr
    assert "3 games played now, 9 resumed" in result.stderr
    assert unmeasured(board(partial))["leaderboard"] == unmeasured(expected)["leaderboard"]
    assert board(partial)["pairwise"] == expected["pairwise"]


def test_ctrl_c_keeps_finished_games_and_a_rerun_completes_them_once(tournament, tmp_path):
    out = tmp_path / "interrupted"
    proc = subprocess.Popen(
        [sys.executable, "-m", "arena", "run", str(tournament), "--output", str(out), "-j", "1"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    stored = 0
    while time.monotonic() < deadline and stored < 2:
        time.sleep(0.2)
        if (out / "arena.sqlite").exists():
            try:
                stored = (
                    sqlite3.connect(out / "arena.sqlite")
                    .execute("SELECT COUNT(*) FROM games")
                    .fetchone()[0]
                )
            except sqlite3.Error:
                stored = 0
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    kept = sqlite3.connect(out / "arena.sqlite").execute("SELECT COUNT(*) FROM games").fetchone()[0]
    assert 2 <= kept < 12
    result = run_arena("run", str(tournament), "--output", str(out))
    assert result.returncode == 0, result.stderr
    assert f"{12 - kept} games played now, {kept} resumed" in result.stderr
    db = sqlite3.connect(out / "arena.sqlite")
    assert db.execute("SELECT COUNT(*), COUNT(DISTINCT key) FROM games").fetchone() == (12, 12)
    # No bot process outlived the tournament.
    leftovers = [
        p for p in os.listdir("/proc")
        if p.isdigit() and str(tmp_path).encode() in _cmdline(p)
    ]  # fmt: skip
    assert leftovers == []


def _cmdline(pid: str) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def test_command_line_overrides_games_seed_and_output(tournament, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(REPO)
    out = tmp_path / "small"
    code = main(
        ["run", str(tournament), "--games", "2", "--seed", "3", "--output", str(out), "-j", "1"]
    )
    assert code == 0
    db = sqlite3.connect(out / "arena.sqlite")
    assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (6,)
    meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
    assert json.loads(meta["seed"]) == 3
