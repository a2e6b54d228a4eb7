"""Scripting with the real CLI: machine formats on stdout alone, closed pipes, --version,
bot commands in any language, match seeds, names and parallel games."""

from __future__ import annotations

import csv
import importlib.metadata
import io
import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

from support import REPO, beyond_the_sandbox_line, stc_cycler

TOURNAMENT = """\
name: scripted
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


def arena(
    tmp_path: Path, *args: str, cwd: Path = REPO, **popen: object
) -> subprocess.CompletedProcess[str]:
    """The real command with its temporary folders under ``tmp_path/tmp``."""
    return subprocess.run(
        [sys.executable, "-m", "arena", *args],
        capture_output=True, text=True, cwd=cwd, env=env_for(tmp_path), timeout=600,
    )  # fmt: skip


def env_for(tmp_path: Path, **extra: str) -> dict[str, str]:
    tmp = tmp_path / "tmp"
    tmp.mkdir(exist_ok=True)
    return {**os.environ, "TMPDIR": str(tmp), **extra}


def leftovers(tmp_path: Path) -> list[str]:
    """Temporary folders arena left behind (the shared, empty bot-home parent aside)."""
    return [
        str(p.relative_to(tmp_path / "tmp"))
        for p in (tmp_path / "tmp").rglob("*")
        if not p.name.startswith("arena-bots")
    ]


def folder(tmp_path: Path) -> Path:
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "cycle.py").write_text(stc_cycler())
    path = tmp_path / "t.yaml"
    path.write_text(TOURNAMENT)
    return path


def test_run_format_json_and_csv_write_only_that_on_stdout(tmp_path):
    path = folder(tmp_path)
    result = arena(tmp_path, "run", str(path), "--format", "json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    board = json.loads(result.stdout)  # the whole of stdout is one JSON document
    assert [r["games"] for r in board["leaderboard"]] == [2, 2]
    assert "2 games played now, 0 resumed, results in out" in result.stderr
    result = arena(tmp_path, "run", str(path), "--format", "csv", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [r["bot"] for r in rows] == ["a", "b"]
    assert [r["timeout"] for r in rows] == ["0", "0"] and not result.stdout.endswith("\n\n")
    assert "resuming: 2 of 2 games" in result.stderr
    assert "0 games played now, 2 resumed" in result.stderr


def test_a_closed_stdout_ends_quietly_and_leaves_no_temporary_folders(tmp_path):
    path = folder(tmp_path)
    cmd = [sys.executable, "-m", "arena"]
    bots = ["python3 bots/cycle.py", "python3 bots/cycle.py"]
    # `arena match ... | head -1`: the reader goes away after the first line.
    match = subprocess.Popen(
        [*cmd, "match", "stc", *bots, "--games", "20", "--max_turns", "2"],
        cwd=tmp_path, env=env_for(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert match.stdout is not None and match.stderr is not None
    assert match.stdout.readline().startswith(b"game 1 seed 1, 2 turns")
    match.stdout.close()
    assert beyond_the_sandbox_line(match.stderr.read().decode()) == ""
    assert match.wait(timeout=120) == 141
    # `arena run ... --format csv | head -0`: closed before anything was written.
    run = subprocess.Popen(
        [*cmd, "run", str(path), "--format", "csv"],
        cwd=tmp_path, env=env_for(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert run.stdout is not None and run.stderr is not None
    run.stdout.close()
    err = run.stderr.read().decode()
    assert run.wait(timeout=120) == 141
    assert beyond_the_sandbox_line(err) == ""
    db = sqlite3.connect(tmp_path / "out" / "arena.sqlite")
    assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (2,)  # stored all the same
    assert leftovers(tmp_path) == []


def test_version():
    result = subprocess.run(
        [sys.executable, "-m", "arena", "--version"], capture_output=True, text=True
    )
    assert result.returncode == 0
    assert result.stdout == f"arena {importlib.metadata.version('bot-arena')}\n"


def test_every_command_word_naming_a_file_or_folder_is_resolved(tmp_path):
    # A script without a known extension, and a folder run as a program (like the
    # class folder of `java -cp bin Main`): both run from the bot's own empty folder.
    (tmp_path / "cycler").write_text(stc_cycler())
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__main__.py").write_text(stc_cycler())
    result = arena(
        tmp_path, "match", "stc", "python3 cycler", "python3 pkg", "--max_turns", "2",
        cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert re.search(r"^game 1 seed 1, 2 turns, 2 turns: cycler #1 \(\d+\); pkg #1", result.stdout)
    from arena.botproc.commands import resolve_command

    argv = resolve_command("python3 -m pkg cycler --fast -c x", tmp_path)
    assert argv == ("python3", "-m", "pkg", str(tmp_path / "cycler"), "--fast", "-c", "x")


def test_match_plays_the_seed_given_first_and_the_next_seeds_after(tmp_path):
    out = tmp_path / "m"
    result = arena(
        tmp_path, "match", "stc", "python3 bots/stc/greedy.py", "python3 bots/stc/greedy.py",
        "--seed", "7", "--games", "3", "--max_turns", "2", "--output", str(out),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert [line.split(",")[0] for line in result.stdout.splitlines()[:3]] == [
        "game 1 seed 7", "game 2 seed 7", "game 3 seed 8",
    ]  # fmt: skip
    replays = [json.loads(p.read_text()) for p in out.glob("games/*/replay.json")]
    assert sorted(r["seed"] for r in replays) == [7, 7, 8]
    assert {r["version"] for r in replays} == {1}


def test_match_names_are_given_or_the_bot_files_stem(tmp_path):
    result = arena(
        tmp_path, "match", "stc", "python3 bots/stc/greedy.py mirror",
        "champ=python3 bots/stc/greedy.py", "--max_turns", "2",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert re.search(r"2 turns: greedy #1 \(\d+\); champ #1 ", result.stdout)
    result = arena(
        tmp_path, "match", "stc", "x=python3 bots/stc/greedy.py", "x=python3 bots/stc/greedy.py"
    )
    assert (result.returncode, result.stderr) == (2, "arena: the bot name 'x' is given twice\n")


def test_match_plays_games_in_parallel_with_a_progress_bar(tmp_path):
    bots = ["python3 bots/stc/greedy.py", "python3 bots/stc/random_bot.py"]
    result = subprocess.run(
        [sys.executable, "-m", "arena", "match", "stc", *bots, "--games", "4", "-j", "2",
         "--max_turns", "2"],
        capture_output=True, text=True, cwd=REPO, env=env_for(tmp_path, ARENA_PROGRESS="1"),
        timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    lines = sorted(line for line in result.stdout.splitlines() if line.startswith("game "))
    assert [line.split(",")[0] for line in lines] == [
        "game 1 seed 1", "game 2 seed 1", "game 3 seed 2", "game 4 seed 2",
    ]  # fmt: skip
    assert "4/4 [" in result.stderr  # the bar reached the end
    *table, pair = result.stdout.splitlines()[-3:]
    summary = {line.split()[0]: line.split()[1] for line in table}
    assert summary == {"greedy": "4", "random_bot": "4"}
    assert pair.startswith("greedy vs random_bot: 4 games ")
    assert leftovers(tmp_path) == []


def test_more_games_at_once_than_cores_warns(tmp_path):
    path = folder(tmp_path)  # stc: both seats think at once, a core each
    cores = len(os.sched_getaffinity(0))
    fits = max(1, cores // 2)
    many = str(fits + 1)
    result = arena(tmp_path, "run", str(path), "-j", many, "--format", "json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    warning = (
        f"arena: warning: concurrency {many} ({2 * (fits + 1)} bots thinking at once) is more "
        f"than the {cores} cores available: bots will share cores; turns they lose waiting "
        "for one are stalls, replayed"
    )
    assert result.stderr.splitlines()[0] == warning
    result = arena(tmp_path, "run", str(path), "-j", str(fits), cwd=tmp_path)
    assert "warning" not in result.stderr
