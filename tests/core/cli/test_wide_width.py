"""``arena leaderboard --wide`` fits ``COLUMNS``: every column is still shown, the tables
folded into blocks of columns (the names repeated) and the headings wrapped."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys

import pytest

from support import REPO


def wide(out, columns: int) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "arena", "leaderboard", str(out), "--wide"],
        capture_output=True, text=True, cwd=REPO, timeout=300,
        env={**os.environ, "COLUMNS": str(columns)},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return result.stdout


def headers(text: str) -> set[str]:
    """The words of every header line (the line above a line of dashes)."""
    lines = text.splitlines()
    found: set[str] = set()
    for above, below in itertools.pairwise(lines):
        if below.startswith("-") and set(below) <= {"-", " "}:
            found.update(above.split())
    return found


@pytest.mark.parametrize("columns", [60, 80, 100])
def test_wide_fits_the_width_and_keeps_every_column(tournament, columns):
    unlimited = wide(tournament, 1000)
    text = wide(tournament, columns)
    assert max(len(line) for line in text.splitlines()) <= columns, text
    assert headers(text) == headers(unlimited)
    for bot in ("greedy", "random", "crasher"):  # each block names its rows
        blocks = [b for b in text.split("\n\n") if "---" in b]
        assert all(bot in block for block in blocks), text
    assert max(len(line) for line in unlimited.splitlines()) > 100  # it did need folding
