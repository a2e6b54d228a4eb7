"""Splitter tournaments through the CLI: shared seeds, per-layout scores, resume."""

from __future__ import annotations

import json

from support import run_arena


def test_the_splitter_tournament_ranks_bots_per_seed_and_reports_each_layout(tmp_path):
    out = tmp_path / "sp"
    result = run_arena(
        "run", "tournaments/splitter.yaml", "--games", "2", "--output", str(out), "--wide"
    )
    assert result.returncode == 0, result.stderr
    assert "score layout=1" in result.stdout and "score layout=2" in result.stdout
    board = json.loads(run_arena("leaderboard", str(out), "--format", "json").stdout)
    rows = {r["bot"]: r for r in board["leaderboard"]}
    # 2 seeds x 2 layouts: each bot is in 4 free-for-alls of 3 bots.
    assert {r["games"] for r in rows.values()} == {4}
    assert sum(r["wins"] + r["draws"] for r in rows.values()) >= 4
    for r in rows.values():
        scores = (r["score layout=1"], r["score layout=2"])
        assert abs(r["score"] - sum(scores) / 2) < 1e-6
    again = run_arena("run", "tournaments/splitter.yaml", "--games", "2", "--output", str(out))
    assert "0 games played now, 12 resumed" in again.stderr
    same = json.loads(run_arena("leaderboard", str(out), "--format", "json").stdout)
    assert same == board


def test_match_prints_the_testers_summary_for_one_player(tmp_path):
    result = run_arena(
        "match",
        "splitter",
        "python3 bots/splitter/greedy.py",
        "--games",
        "30",
        "--layout",
        "2",
        "--seed",
        "1",
    )
    assert result.returncode == 0, result.stderr
    header, _, row = result.stdout.strip().splitlines()[-3:]
    assert "mean score [95%]" in header and "min" in header and "max" in header
    assert row.split()[:2] == ["greedy", "30"]
