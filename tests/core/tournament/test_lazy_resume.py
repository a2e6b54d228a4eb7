"""A round-robin generated as it is played, stopped with Ctrl-C and resumed by the real
``arena run``: every game of the plan stored once, in the plan's places (issue 45)."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from arena.tournament.schedule import RoundPlan
from support import REPO, STC_STRONG_SH, STC_WEAK_SH, games_stored, run_arena

TOURNAMENT = """\
name: lazy
game: stc
games: 3
seed: 4
concurrency: 1
settings:
  max_turns: 4
bots:
  - {{name: a, cmd: sh {bots}/strong.sh}}
  - {{name: b, cmd: sh {bots}/weak.sh}}
  - {{name: c, cmd: sh {bots}/strong.sh}}
  - {{name: d, cmd: sh {bots}/weak.sh}}
output: {out}
"""
PLANNED = 18  # 6 pairings, 3 games each: a seat-swapped pair, then one seat


def stored_rows(out: Path) -> list[tuple[int, str, int, int, str]]:
    db = sqlite3.connect(out / "arena.sqlite")
    try:
        return db.execute(
            "SELECT g.id, g.key, c.ord, c.round, c.grp FROM games g"
            " JOIN current_games c ON c.key = g.key ORDER BY g.id"
        ).fetchall()
    finally:
        db.close()


def test_a_round_robin_stopped_midway_resumes_exactly_to_its_end(tmp_path):
    bots = tmp_path / "bots"
    bots.mkdir()
    (bots / "strong.sh").write_text(STC_STRONG_SH)
    (bots / "weak.sh").write_text(STC_WEAK_SH)
    path = tmp_path / "t.yaml"
    out = tmp_path / "out"
    path.write_text(TOURNAMENT.format(bots=bots, out=out))
    proc = subprocess.Popen(
        [sys.executable, "-m", "arena", "run", str(path)],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 300
    while games_stored(out) < 3 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)  # as a user's Ctrl-C
    _, err = proc.communicate(timeout=120)
    before = stored_rows(out)
    kept = len(before)
    assert proc.returncode == 130, err
    assert 3 <= kept < PLANNED, err

    result = run_arena("run", str(path))
    assert result.returncode == 0, result.stderr
    assert f"resuming: {kept} of {PLANNED} games already stored" in result.stderr
    assert f"{PLANNED - kept} games played now, {kept} resumed" in result.stderr
    after = stored_rows(out)
    assert after[:kept] == before  # the games of the first run kept, none played again
    plan = RoundPlan(["a", "b", "c", "d"], 2, 3, 4)
    expected = sorted((s.key, s.order, s.round, s.group) for s in plan)
    assert sorted(row[1:] for row in after) == expected  # every game once, in its place
    # The second run played what the first had not, in the plan's order.
    stored_first = {row[1] for row in before}
    assert [row[1] for row in after[kept:]] == [s.key for s in plan if s.key not in stored_first]
