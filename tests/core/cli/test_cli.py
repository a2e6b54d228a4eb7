"""The arena command: listing games, one-off matches, packaging."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile

from arena.cli.main import main
from support import REPO, run_arena


def test_games_lists_every_game_with_players_clocks_and_package(capsys):
    assert main(["games", "--wide"]) == 0
    out = capsys.readouterr().out
    lines = {line.split()[0]: line for line in out.splitlines()[2:]}
    assert set(lines) >= {"stc", "splitter", "blocking", "chess5", "cluster"}
    assert "1000/100" in lines["stc"] and "bot-arena" in lines["stc"]
    assert " 2-4 players " in lines["blocking"] and " 2 players " in lines["stc"]
    assert " 1 player " in lines["splitter"] and " v1 " in lines["stc"]
    assert "1000/200" in lines["blocking"]
    assert "files (state.json)" in lines["chess5"]
    assert "words + queries" in lines["cluster"]  # read word by word, like scanf
    assert " lines " in lines["stc"]


def test_match_plays_one_game_and_logs_answers_timings_and_stderr(tmp_path):
    result = run_arena(
        "match", "stc", "python3 bots/stc/greedy.py", "python3 bots/stc/random_bot.py",
        "--seed", "4", "--verbose", "--max_turns", "6", "--output", str(tmp_path / "m"),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "--- step 1 (turn 1)" in out
    assert "  seat 0 greedy: " in out and " ms > " in out
    assert "    stderr: " in out  # the bots log their reasoning
    assert "game 1 seed 4, 6 turns" in out
    assert len(list((tmp_path / "m" / "games").glob("*/replay.json"))) == 1


def test_match_rejects_unknown_settings_and_wrong_player_counts():
    result = run_arena(
        "match", "stc", "python3 bots/stc/greedy.py", "python3 bots/stc/greedy.py", "--layout", "2"
    )
    assert result.returncode == 2
    assert "unknown option '--layout' for stc (game settings: --max_turns)" in result.stderr
    result = run_arena("match", "stc", "python3 bots/stc/greedy.py")
    assert result.returncode == 2
    assert result.stderr == "arena: stc is played by 2 players; 1 command given\n"


def test_the_shipped_stc_tournament_runs_end_to_end(tmp_path):
    out = tmp_path / "stc"
    result = run_arena(
        "run", "tournaments/stc.yaml", "--games", "2", "--output", str(out), timeout=900
    )
    assert result.returncode == 0, result.stderr
    assert "stc-shipped-bots (stc, 6 games)" in result.stdout
    for bot in ("random", "greedy", "enemy"):
        assert f" {bot} " in result.stdout
    assert (out / "arena.sqlite").is_file()


def test_the_wheel_holds_every_module_of_both_folders_and_the_entry_points(tmp_path):
    # Built from a clean copy: a stale build/ folder would hide files the wheel lacks.
    source = tmp_path / "src"
    junk = ("build", "dist", "*.egg-info", ".git", "__pycache__", ".*_cache", "out")
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(*junk))
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(tmp_path), str(source)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    (wheel,) = tmp_path.glob("bot_arena-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    # Each folder holds its package under the import name: the wheel path is the path
    # below the folder, for every module and every game's README.
    # So are the viewer's pages and scripts and every game's renderer.
    for folder in ("framework", "games"):
        shipped = [
            *(REPO / folder).rglob("*.py"),
            *(REPO / folder).glob("*/*/README.md"),
            *(REPO / folder).glob("*/*/*.js"),
            *(REPO / folder).glob("arena/static/*"),
        ]
        for path in shipped:
            assert path.relative_to(REPO / folder).as_posix() in names
    assert {"arena/cli/main.py", "arena_games/stc/rules.py", "arena_games/stc/README.md"} <= names
    assert {"arena/views/static/viewer.js", "arena/views/templates/report.html"} <= names
    assert {
        f"arena_games/{g}/viewer.js" for g in ("stc", "splitter", "blocking", "chess5", "cluster")
    } <= names
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "[arena]" in text and "stc = arena_games.stc.plugin" in text
    assert "arena = arena.cli.main:main" in text
