"""``arena check``: a real candidate against a real pool, the verdict's exit codes and files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from arena.errors import EXIT_OK, EXIT_USAGE, EXIT_VERDICT_FAILED
from support import REPO

STC = REPO / "bots" / "stc"


def check(
    tmp_path: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arena", "check", "stc", *args, "--no-progress", "--sandbox", "none"],
        capture_output=True, text=True, cwd=tmp_path, timeout=1800,
        env={**os.environ, **(env or {})},
    )  # fmt: skip


def bot(name: str) -> str:
    return f"python3 {STC / name}.py"


def test_bot0_is_better_than_the_stc_pool_and_says_so_everywhere(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    pool = [bot("greedy"), bot("random_bot"), bot("enemy")]
    args = [bot("bot0"), "--against", *pool, "--elo1", "150", "--games", "200"]
    done = check(tmp_path, *args, "--json", "v.json", env={"GITHUB_STEP_SUMMARY": str(summary)})
    assert done.returncode == EXIT_OK, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "verdict: bot0 is better: passed"
    assert (
        lines[1] == "rule: better: normalized Elo [0, 150]; worse: [-150, 0]; alpha 0.05, beta 0.05"
    )
    assert [line.split()[0] for line in lines[2:]] == [
        "against",
        "greedy",
        "random_bot",
        "enemy",
        "pooled",
    ]
    verdict = json.loads((tmp_path / "v.json").read_text())
    assert verdict["verdict"] == "better" and verdict["passed"] is True
    assert verdict["pool"] == ["greedy", "random_bot", "enemy"]
    pooled = verdict["pooled"]
    assert (
        pooled["better"]["decision"] == "H1"
        and pooled["better"]["llr"] >= pooled["better"]["upper"]
    )
    assert pooled["pairs"] == sum(o["pairs"] for o in verdict["opponents"].values())
    # every pool bot met the candidate on the same seeds: the pairs differ by at most one
    assert (
        max(o["pairs"] for o in verdict["opponents"].values())
        - min(o["pairs"] for o in verdict["opponents"].values())
        <= 1
    )
    text = summary.read_text()
    assert text.startswith("earlier step\n### arena check: `bot0` is better (passed)\n")
    assert "| against | pairs | pentanomial |" in text and "| pooled |" in text
    # The games are kept: the same check again resumes them and plays nothing new.
    again = check(tmp_path, *args)
    assert again.returncode == EXIT_OK, again.stderr
    assert again.stdout.splitlines()[:2] == lines[:2]
    assert "0 games played now" in again.stderr
    board = subprocess.run(
        [sys.executable, "-m", "arena", "leaderboard", str(tmp_path / "out" / "check-stc")],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert board.returncode == 0 and "bot0" in board.stdout


def test_a_random_candidate_is_worse_and_fails_the_gate(tmp_path: Path) -> None:
    pool = [bot("bot0"), bot("greedy"), bot("enemy")]
    done = check(tmp_path, bot("random_bot"), "--against", *pool, "--elo1", "150", "--games", "200")
    assert done.returncode == EXIT_VERDICT_FAILED, done.stderr
    assert done.stdout.splitlines()[0] == "verdict: random_bot is worse: failed"


def test_bad_arguments_are_one_line_and_exit_2_before_any_game(tmp_path: Path) -> None:
    for args, message in (
        ([bot("bot0"), "--against", bot("greedy"), "--games", "1"], "--games: must be at least 2"),
        ([bot("bot0"), "--against", bot("greedy"), "--elo0", "5", "--elo1", "5"], "verdict.elo1"),
        ([bot("bot0"), "--against", "python3 missing.py"], "file not found"),
    ):
        done = check(tmp_path, *args)
        assert done.returncode == EXIT_USAGE, (args, done.stderr)
        errors = [line for line in done.stderr.splitlines() if line.startswith("arena:")]
        assert len(errors) == 1 and message in errors[0], done.stderr
        assert not (tmp_path / "out" / "check-stc" / "arena.sqlite").exists()


def test_the_ci_example_runs_as_written(tmp_path: Path) -> None:
    """docs/ci.md's check as a script: arena on the PATH, run from any folder."""
    summary = tmp_path / "summary.md"
    path = f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}"
    done = subprocess.run(
        ["sh", str(REPO / "examples" / "ci" / "check.sh")],
        capture_output=True, text=True, cwd=tmp_path, timeout=1800,
        env={**os.environ, "PATH": path, "GAMES": "200", "ELO1": "150",
             "GITHUB_STEP_SUMMARY": str(summary)},
    )  # fmt: skip
    assert done.returncode == EXIT_OK, done.stderr
    assert done.stdout.startswith("verdict: candidate is better: passed\n")
    assert json.loads((tmp_path / "verdict.json").read_text())["verdict"] == "better"
    assert "### arena check: `candidate` is better (passed)" in summary.read_text()
