"""A local Dask cluster leaves nothing behind: its workers' ``dask-scratch-space`` goes in
the cluster's own temporary folder, removed with it, not in the shared one where it
stayed."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from support import REPO

pytest.importorskip("distributed")


def test_a_run_on_a_local_cluster_leaves_no_dask_scratch_space(tmp_path):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    spec = tmp_path / "t.yaml"
    spec.write_text(
        "name: scratch\ngame: stc\ngames: 2\nseed: 5\nsandbox: none\nconcurrency: 2\n"
        "executor: dask\nsettings: {max_turns: 3}\nbots:\n"
        f"  - {{name: a, cmd: {sys.executable} {REPO}/bots/stc/random_bot.py}}\n"
        f"  - {{name: b, cmd: {sys.executable} {REPO}/bots/stc/greedy.py}}\n"
        f"output: {tmp_path / 'out'}\n"
    )
    result = subprocess.run(
        [sys.executable, "-m", "arena", "run", str(spec), "--no-progress"],
        capture_output=True, text=True, cwd=REPO, timeout=300,
        env={**os.environ, "TMPDIR": str(tmp)},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "2 games played now" in result.stderr
    left = [str(p.relative_to(tmp)) for p in tmp.rglob("*") if "dask" in p.name]
    assert left == []
