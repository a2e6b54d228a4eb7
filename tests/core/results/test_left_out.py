"""Stored games the tournament file no longer defines (a rerun with fewer games) are left
out of every view, and every view says so and how to see them (``--all``); ``arena.run``
returns how many."""

from __future__ import annotations

import sys

import arena
from support import REPO, run_arena

NOTE = (
    "2 stored games are left out: not in the tournament as its file defined it at the last "
    "run (--all shows every stored game)"
)


def test_a_smaller_rerun_says_in_every_view_what_it_left_out(tmp_path):
    out = tmp_path / "out"
    spec = tmp_path / "t.yaml"
    spec.write_text(
        "name: shrink\ngame: stc\ngames: 4\nseed: 5\nsandbox: none\nconcurrency: 1\n"
        "settings: {max_turns: 3}\nbots:\n"
        f"  - {{name: a, cmd: {sys.executable} {REPO}/bots/stc/random_bot.py}}\n"
        f"  - {{name: b, cmd: {sys.executable} {REPO}/bots/stc/greedy.py}}\n"
        f"output: {out}\n"
    )
    assert run_arena("run", str(spec), "--no-progress").returncode == 0
    rerun = run_arena("run", str(spec), "--no-progress", "--games", "2")
    assert rerun.returncode == 0, rerun.stderr
    assert f"arena: {NOTE}" in rerun.stderr.splitlines()
    assert "shrink (stc, 2 games)" in rerun.stdout

    board = run_arena("leaderboard", str(out))
    assert board.stdout.startswith("shrink (stc, 2 games)")
    assert board.stderr == f"arena: {NOTE}\n"
    every = run_arena("leaderboard", str(out), "--all")
    assert every.stdout.startswith("shrink (stc, 4 games)")
    assert every.stderr == ""
    as_json = run_arena("leaderboard", str(out), "--format", "json")
    assert as_json.stdout.lstrip().startswith(("{", "["))  # stdout stays the board

    listed = run_arena("list", str(out))
    assert listed.stdout.rstrip("\n").splitlines()[-2:] == ["2 of 2 games", NOTE]
    listed_all = run_arena("list", str(out), "--all")
    assert listed_all.stdout.rstrip("\n").splitlines()[-1] == "4 of 4 games"

    report = run_arena("report", str(out))
    assert report.returncode == 0 and f"arena: {NOTE}" in report.stderr
    page = (out / "report.html").read_text()
    assert f'<p class="note" id="left-out">{NOTE}</p>' in page
    assert run_arena("report", str(out), "--all").stderr == ""
    assert 'id="left-out"' not in (out / "report.html").read_text()

    result = arena.run(spec, games=2)
    assert (result.played, result.resumed, result.left_out) == (0, 2, 2)
    assert arena.run(spec).left_out == 0
