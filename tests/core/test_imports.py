"""Commands start fast: each imports only what it uses (``python -X importtime`` lists every
module a real run imports, its worker processes included)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from support import REPO

HEAVY = {
    "yaml",  # tournament files and --key value settings only
    "tabulate",  # tables
    "trueskill",  # ratings
    "sqlite3",  # the store of `arena run`, `--output`
    "tqdm",  # the progress bar, when one is shown
    "dask",
    "distributed",  # executor: dask
    "hypothesis",
    "playwright",  # tests only
    "importlib.metadata",  # entry-point scanning: finding games
    "pluggy",
    "arena.tournament.run",
    "arena.results.store",
    "arena.results.rating",
    "arena.results.leaderboard",
}

BOT = """
import sys
while True:
    lines = [sys.stdin.readline() for _ in range(34)]
    if not lines[-1]:
        break
    print("0 1", flush=True)
"""


def imported(tmp_path: Path, *args: str) -> set[str]:
    """Every module a real ``python -m arena ARGS`` imports, in any of its processes (its
    cache, of the host's probes and the plugins' index, in ``tmp_path``)."""
    env = {**os.environ, "TMPDIR": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop("ARENA_PROGRESS", None)
    env.pop("ARENA_NO_HOST_CACHE", None)
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "arena", *args],
        capture_output=True, text=True, cwd=REPO, env=env, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    return {
        line.rsplit("|", 1)[1].strip()
        for line in result.stderr.splitlines()
        if line.startswith("import time:") and "cumulative" not in line
    }


def test_version_imports_nothing_heavy_and_no_game(tmp_path):
    modules = imported(tmp_path, "--version")
    assert modules & HEAVY == set()
    assert not any(m.startswith(("arena_games", "arena.botproc")) for m in modules)


def test_games_imports_the_plugins_only(tmp_path):
    modules = imported(tmp_path, "games")
    assert {"pluggy", "arena_games.stc.game"} <= modules
    # Its table is laid out by arena itself (tabulate only for other formats).
    assert modules & HEAVY == {"pluggy", "importlib.metadata"}


@pytest.mark.parametrize("sandbox", ["none", "auto"])
def test_match_imports_no_tournament_machinery_in_any_process(tmp_path, sandbox):
    bot = tmp_path / "bot.py"
    bot.write_text(BOT)
    cmd = f"python3 {bot}"
    args = ["match", "stc", cmd, cmd, "--games", "2", "--sandbox", sandbox]
    first = imported(tmp_path, *args)
    # The first command scans every plugin (entry points); it leaves an index behind.
    assert first & HEAVY == {
        "pluggy", "importlib.metadata", "trueskill", "arena.results.rating",
        "arena.results.leaderboard",
    }  # fmt: skip
    modules = imported(tmp_path, *args)
    assert {"arena.referee.engine", "arena.execute.pool", "arena_games.stc.game"} <= modules
    # Finding the game (its plugin alone, through the index) and, for two bots, the
    # Elo/LOS/pentanomial line a tournament prints (its ratings) need these; nothing else
    # does: no store without --output, no tournament run (a game setting given as an
    # option would import yaml), no other game, no tabulate for the summary table.
    assert modules & HEAVY == {
        "pluggy", "trueskill", "arena.results.rating", "arena.results.leaderboard",
    }  # fmt: skip
    assert not any(m.startswith("arena_games.") and ".stc" not in m for m in modules)
