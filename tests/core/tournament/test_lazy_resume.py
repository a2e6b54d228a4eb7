"""A round-robin generated as it is played, stopped with Ctrl-C and resumed by the real
``arena run``: every game of the plan stored once, in the plan's places (issue 45)."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.errors import ConfigError
from arena.plugins.registry import load_registry
from arena.records import GameRecord, SeatRecord
from arena.results.store import Store
from arena.tournament.config import load_tournament
from arena.tournament.formats import fixed_plan
from arena.tournament.resume import bot_identities, current_games
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


def test_a_thousand_bots_edited_make_one_line_naming_the_first_ten(tmp_path):
    bots = tmp_path / "bots"
    bots.mkdir()
    lines = []
    for i in range(12):
        (bots / f"p{i:02d}.py").write_text("print('0 1')\n")
        lines.append(f"  - {{name: p{i:02d}, cmd: python3 {bots}/p{i:02d}.py}}")
    path = tmp_path / "t.yaml"
    path.write_text(
        f"name: many\ngame: stc\ngames: 1\nseed: 2\noutput: {tmp_path / 'out'}\nbots:\n"
        + "\n".join(lines)
        + "\n"
    )
    config = load_tournament(path, load_registry())
    plan = fixed_plan(config)
    assert plan is not None and len(plan) == 66
    ids = bot_identities(config).ids
    store = Store(config.output)
    for spec in plan:
        seats = [SeatRecord(bot=b, rank=i) for i, b in enumerate(spec.seats)]
        record = GameRecord("stc", spec.seed, {}, seats, "end", 1, 1, 1.0)
        identity = ids.of(spec.seed, spec.variant, spec.seats)
        store.add_game(spec.key, spec.order, spec.round, spec.group, record, identity)
    for i in range(12):
        (bots / f"p{i:02d}.py").write_text("print('1 1')  # tuned\n")  # every bot edited
    with pytest.raises(ConfigError) as caught:
        current_games(config, store, bot_identities(config).ids, plan)
    store.close()
    first, *ways = str(caught.value).splitlines()
    changed = "; ".join(f"{bots}/p{i:02d}.py changed since the stored games" for i in range(10))
    assert first == (
        f"{path}: 66 of the 66 games stored in {config.output} no longer match this file: "
        f"{changed}; and 2 more changes."
    )
    assert [w.split(" as another bot")[0] for w in ways if "To keep the old" in w] == [
        f"  To keep the old p{i:02d}" for i in range(10)
    ]
