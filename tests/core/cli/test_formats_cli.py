"""Every format end to end through the real ``python -m arena run``: gauntlet, SPRT (a
stronger bot stops early with H1; equal bots reach the maximum), league (Ctrl-C, a bot
added later plays first), each resuming; and the statistics in the leaderboard.

The bots are tiny shell scripts playing Smash The Code for 4 turns, so a game takes a
few milliseconds: ``strong`` cycles through the columns, ``weak`` answers garbage and
forfeits at once, and two ``strong`` copies draw every game.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from support import REPO, STC_STRONG_SH, STC_WEAK_SH, run_arena

STRONG, WEAK = STC_STRONG_SH, STC_WEAK_SH


def write_tournament(tmp_path: Path, head: str, bots: dict[str, str]) -> Path:
    folder = tmp_path / "bots"
    folder.mkdir(exist_ok=True)
    (folder / "strong.sh").write_text(STRONG)
    (folder / "weak.sh").write_text(WEAK)
    lines = [
        head.rstrip(),
        "game: stc",
        "seed: 7",
        "concurrency: 2",
        "sandbox: none",
        "settings:",
        "  max_turns: 4",
        f"output: {tmp_path / 'out'}",
        "bots:",
    ]
    for name, script in bots.items():
        lines += [f"  - name: {name}", f"    cmd: sh {folder / script}"]
    path = tmp_path / "t.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


def keys(out: Path) -> list[str]:
    db = sqlite3.connect(out / "arena.sqlite")
    try:
        return [k for (k,) in db.execute("SELECT key FROM games ORDER BY id")]
    finally:
        db.close()


def board(out: Path) -> dict:
    result = run_arena("leaderboard", str(out), "--format", "json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_gauntlet_plays_the_champion_against_each_bot_and_the_board_has_the_statistics(tmp_path):
    path = write_tournament(
        tmp_path,
        "format: gauntlet\nchampion: champ\ngames: 6",
        {"champ": "strong.sh", "w1": "weak.sh", "w2": "weak.sh"},
    )
    result = run_arena("run", str(path), "--wide")
    assert result.returncode == 0, result.stderr
    played = keys(tmp_path / "out")
    assert len(played) == 12
    assert all("champ" in k.split(":")[1].split(",") for k in played)  # w1 never meets w2
    data = board(tmp_path / "out")
    rows = {r["bot"]: r for r in data["leaderboard"]}
    assert rows["champ"]["wins"] == 12 and rows["champ"]["los"] == 100.0
    assert rows["champ"]["elo"] is None  # a 100% score has no finite Elo
    assert rows["champ"]["bt"] > 0 > rows["w1"]["bt"] and rows["w1"]["bt"] == rows["w2"]["bt"]
    assert rows["champ"]["win%_low"] < 100 == rows["champ"]["win%_high"]
    for key in ("elo", "elo_ci", "los", "bt", "bt_ci", "draw%", "win%_low", "win%_high"):
        assert key in rows["w1"]
    pair = next(p for p in data["pairwise"] if (p["bot"], p["opponent"]) == ("champ", "w1"))
    assert pair["pairs"] == 3 and pair["ptnml"] == [0, 0, 0, 0, 3]
    assert (pair["rate"], pair["rate_high"]) == (1.0, 1.0) and pair["rate_low"] < 0.7
    assert "ptnml" in result.stdout and "100.0 [61-100] (6)" in result.stdout
    assert "±" not in result.stdout.split("Win rate of row")[1]  # no symmetric 100±30% cells


def test_sprt_of_a_stronger_bot_stops_early_with_h1_and_resumes_decided(tmp_path):
    path = write_tournament(
        tmp_path,
        "format: sprt\nsprt: {elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05}\ngames: 2000",
        {"new": "strong.sh", "old": "weak.sh"},
    )
    env = {**os.environ, "ARENA_PROGRESS": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "arena", "run", str(path)],
        cwd=REPO, capture_output=True, text=True, timeout=600, env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    # The progress bar shows the LLR and its bounds, as fastchess prints them.
    assert "LLR 0." in result.stderr and "(-2.94, 2.94) [0, 5]" in result.stderr
    played = len(keys(tmp_path / "out"))
    # 147 pairs cross ln(19); a pair or so may still be running when it stops.
    assert 294 <= played <= 300
    assert "H1 accepted" in result.stdout
    sprt = board(tmp_path / "out")["sprt"]
    assert sprt["verdict"] == "H1" and sprt["result"] == "H1 accepted"
    assert sprt["llr"] >= sprt["upper"] == 2.9444 and sprt["candidate"] == "new"

    again = run_arena("run", str(path))
    assert again.returncode == 0, again.stderr
    assert "0 games played now" in again.stderr and "H1 accepted" in again.stdout
    assert len(keys(tmp_path / "out")) == played


def test_sprt_of_identical_bots_reaches_the_maximum_inconclusive(tmp_path):
    path = write_tournament(
        tmp_path,
        "format: sprt\nsprt: {elo0: 0, elo1: 5}\ngames: 24",
        {"a": "strong.sh", "b": "strong.sh"},
    )
    result = run_arena("run", str(path))
    assert result.returncode == 0, result.stderr
    assert len(keys(tmp_path / "out")) == 24
    assert "12 pairs" in result.stdout and ": inconclusive" in result.stdout
    data = board(tmp_path / "out")
    assert data["sprt"]["verdict"] is None
    assert data["leaderboard"][0]["draw%"] == 100.0
    # A larger maximum on the command line goes on from there.
    more = run_arena("run", str(path), "--games", "30")
    assert more.returncode == 0, more.stderr
    assert "6 games played now, 24 resumed" in more.stderr


def test_league_runs_until_ctrl_c_resumes_and_a_new_bot_plays_first(tmp_path):
    bots = {"s1": "strong.sh", "s2": "strong.sh", "w": "weak.sh"}
    path = write_tournament(tmp_path, "format: league", bots)  # no `games`: until Ctrl-C
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [sys.executable, "-m", "arena", "run", str(path), "-j", "1"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    stored = 0
    while time.monotonic() < deadline and stored < 8:
        time.sleep(0.2)
        try:
            stored = len(keys(out))
        except sqlite3.Error:
            stored = 0
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    before = keys(out)
    assert len(before) >= 8
    rounds = {frozenset(k.split(":")[1].split(",")) for k in before}
    assert len(rounds) == 3  # every pairing met before any repeat

    # A bot added to the file joins at the next start and plays first.
    path.write_text(
        path.read_text() + f"  - name: late\n    cmd: sh {tmp_path / 'bots' / 'weak.sh'}\n"
    )
    total = len(before) + (len(before) % 2) + 6
    result = run_arena("run", str(path), "--games", str(total), "-j", "1")
    assert result.returncode == 0, result.stderr
    new = keys(out)[len(before) :]
    if len(before) % 2:  # the round cut by Ctrl-C is completed first
        assert "late" not in new[0]
        new = new[1:]
    assert len(new) == 6 and all("late" in k for k in new)
    assert {frozenset(k.split(":")[1].split(",")) - {"late"} for k in new} == {
        frozenset({"s1"}),
        frozenset({"s2"}),
        frozenset({"w"}),
    }
    data = board(out)
    assert sum(r["games"] for r in data["leaderboard"]) == 2 * total
    assert "(stc, league," in data["title"]
