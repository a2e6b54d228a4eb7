"""Paths in a tournament file: bot files and ``output`` follow one rule (the current
folder, then the file's folder), so a tournament resumes from any folder, and a missing
file's error says where it was looked for."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.errors import ConfigError
from arena.plugins.registry import load_registry
from arena.tournament.config import load_tournament

CYCLER = """\
import sys
while True:
    lines = [sys.stdin.readline() for _ in range(34)]
    if not lines[0]:
        break
    print("0 1", flush=True)
"""

TOURNAMENT = """\
name: paths
game: stc
games: 2
concurrency: 1
settings:
  max_turns: 2
bots:
  - name: a
    cmd: python3 bots/cycle.py
  - name: b
    cmd: python3 bots/cycle.py
output: out
"""


def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "bots").mkdir(parents=True)
    (root / "bots" / "cycle.py").write_text(CYCLER)
    (root / "t.yaml").write_text(TOURNAMENT)
    (tmp_path / "tmp").mkdir()
    return root


def arena_run(tmp_path: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TMPDIR": str(tmp_path / "tmp")}
    return subprocess.run(
        [sys.executable, "-m", "arena", "run", *args, "--no-progress"],
        capture_output=True, text=True, cwd=cwd, env=env, timeout=600,
    )  # fmt: skip


def test_the_same_file_run_from_another_folder_resumes_its_output(tmp_path):
    root = project(tmp_path)
    first = arena_run(tmp_path, root, "t.yaml")
    assert first.returncode == 0, first.stderr
    assert (root / "out" / "arena.sqlite").exists()
    again = arena_run(tmp_path, tmp_path, "project/t.yaml")
    assert again.returncode == 0, again.stderr
    assert "resuming: 2 of 2 games already stored" in again.stderr
    assert "0 games played now, 2 resumed" in again.stderr
    assert not (tmp_path / "out").exists()  # no second output folder


def test_output_found_in_the_current_folder_comes_first_like_bot_files(tmp_path, monkeypatch):
    root = project(tmp_path)
    (tmp_path / "out").mkdir()
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "cycle.py").write_text(CYCLER)
    monkeypatch.chdir(tmp_path)
    config = load_tournament(Path("project/t.yaml"), load_registry())
    assert config.output == Path("out")
    assert config.bots[0].argv[-1] == str(tmp_path / "bots" / "cycle.py")
    (tmp_path / "out").rmdir()
    (root / "out").mkdir()
    config = load_tournament(Path("project/t.yaml"), load_registry())
    assert config.output == Path("project/out")


def test_a_new_output_folder_away_from_the_file_is_announced(tmp_path):
    project(tmp_path)
    result = arena_run(tmp_path, tmp_path, "project/t.yaml")
    assert result.returncode == 0, result.stderr
    note = "arena: new output folder out, made in the current folder (none yet here or in project/)"
    assert f"{note}\n" in result.stderr
    assert (tmp_path / "out" / "arena.sqlite").exists()


def test_a_missing_bot_file_names_every_place_looked_in(tmp_path, monkeypatch):
    root = project(tmp_path)
    (root / "bots" / "cycle.py").unlink()
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as info:
        load_tournament(Path("project/t.yaml"), load_registry())
    assert str(info.value) == (
        "project/t.yaml: bots[0].cmd (line 9): file not found: 'bots/cycle.py' (looked for "
        f"{tmp_path / 'bots' / 'cycle.py'} then {root / 'bots' / 'cycle.py'})"
    )
