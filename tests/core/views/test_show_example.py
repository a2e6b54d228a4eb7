"""The README's `arena show` example works on the quick start's output (a real run of
tournaments/stc.yaml): every game stored there has the step the example shows."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from support import REPO

EXAMPLE_GAME, EXAMPLE_STEP = 1, 10  # `arena show 1 --from out/stc --step 10`


def arena(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TMPDIR": str(root / "tmp")}
    return subprocess.run(
        [sys.executable, "-m", "arena", *args],
        capture_output=True, text=True, cwd=root, env=env, timeout=600,
    )  # fmt: skip


def test_show_example_works_on_the_quick_starts_output(tmp_path):
    root = tmp_path / "project"
    shutil.copytree(REPO / "bots" / "stc", root / "bots" / "stc")
    (root / "tournaments").mkdir()
    shutil.copy(REPO / "tournaments" / "stc.yaml", root / "tournaments")
    (root / "tmp").mkdir()
    ran = arena(root, "run", "tournaments/stc.yaml", "--no-progress")
    assert ran.returncode == 0, ran.stderr
    shown = arena(root, "show", str(EXAMPLE_GAME), "--from", "out/stc", "--step", str(EXAMPLE_STEP))
    assert shown.returncode == 0, shown.stderr
    assert f"--- step {EXAMPLE_STEP} (turn {EXAMPLE_STEP})" in shown.stdout
    # Every game of the quick start is that long (the shortest ends near turn 15).
    listed = arena(root, "list", "out/stc", "--format", "json")
    if listed.returncode == 0:
        import json

        games = json.loads(listed.stdout)
        rows = games if isinstance(games, list) else games.get("games", [])
        assert all(int(g["turns"]) >= EXAMPLE_STEP for g in rows)
