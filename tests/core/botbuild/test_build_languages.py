"""Bots from source: each language's preset builds a real bot that plays a whole game of
Smash The Code against a shipped Python bot; builds are cached and part of the identity."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.botbuild.languages import PRESETS
from support import REPO

BOTS = Path(__file__).parent / "bots"
RANDOM_BOT = "bots/stc/random_bot.py"
SOURCES = {
    "c": "stc_bot.c",
    "cpp": "stc_bot.cpp",
    "java": "Player.java",
    "csharp": "stc_bot.cs",
    "rust": "stc_bot.rs",
    "go": "stc_bot.go",
    "typescript": "stc_bot.ts",
}


def toolchain_missing(language: str) -> str | None:
    """Why ``language``'s preset cannot be used here (None when it can)."""
    from arena.botbuild.build import missing_programs

    preset = PRESETS[language]
    missing = missing_programs(preset)
    if not missing:
        return None
    return f"{language} toolchain missing: no {', '.join(missing)} ({preset['install']})"


@pytest.fixture(scope="session")
def build_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One build cache for the whole session: each bot is built once."""
    return tmp_path_factory.mktemp("build-cache")


def arena(cache: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """The real ``arena`` command with ``cache`` as its build cache."""
    env = {**os.environ, "ARENA_BUILD_CACHE": str(cache)}
    return subprocess.run(
        [sys.executable, "-m", "arena", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=timeout,
        env=env,
    )


@pytest.mark.parametrize("language", list(SOURCES))
def test_a_source_bot_plays_a_whole_game(language: str, build_cache: Path) -> None:
    if why := toolchain_missing(language):
        pytest.skip(why)
    source = str((BOTS / SOURCES[language]).relative_to(REPO))
    done = arena(build_cache, "match", "stc", source, RANDOM_BOT, "--no-progress")
    assert done.returncode == 0, done.stderr
    name = Path(source).stem
    assert f"arena: {name}: {language} " in done.stderr
    result = next(line for line in done.stdout.splitlines() if line.startswith("game 1 "))
    # A whole game: it ends by the rules, and the built bot never forfeits.
    assert re.search(rf"{name} #\d \(\d+\)(;|$)", result), result
    # (one player stuck, both stuck on the same turn, or the turn limit: the random bot
    # draws from os.urandom, so any of them may end it)
    ends = r"player \d could not place its pair|both players could not place their pair|\d+ turns"
    assert re.search(rf"turns, ({ends}):", result), result
    again = arena(build_cache, "match", "stc", source, RANDOM_BOT, "--no-progress")
    assert f"arena: {name}: {language} cached build" in again.stderr


def test_a_compile_error_is_one_clear_report(build_cache: Path) -> None:
    if why := toolchain_missing("cpp"):
        pytest.skip(why)
    source = str((BOTS / "broken.cpp").relative_to(REPO))
    done = arena(build_cache, "match", "stc", source, RANDOM_BOT, "--no-progress")
    assert done.returncode == 2
    assert done.stdout == ""  # no game
    assert f"bot 1 {source!r} (broken) does not build: the build failed (exit code 1)" in (
        done.stderr
    )
    assert "broken.cpp:2:" in done.stderr and "error" in done.stderr  # the compiler's line
    assert "Traceback" not in done.stderr
    # The command as it ran, with the real paths: no `{out}` placeholder left in it.
    assert "{out}" not in done.stderr
    assert re.search(rf" -o {re.escape(str(build_cache))}/[0-9a-f]+/bot", done.stderr), done.stderr


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_a_tournament_builds_once_and_a_source_edit_makes_games_stale(
    build_cache: Path, tmp_path: Path
) -> None:
    if why := toolchain_missing("c"):
        pytest.skip(why)
    source = tmp_path / "mine.c"
    shutil.copy(BOTS / "stc_bot.c", source)
    out = tmp_path / "out"
    yaml = write(
        tmp_path / "t.yaml",
        f"game: stc\ngames: 2\noutput: {out}\nbots:\n"
        f"  - source: mine.c\n  - name: random\n    cmd: {REPO / RANDOM_BOT}\n",
    )
    first = arena(build_cache, "run", str(yaml), "--no-progress")
    assert first.returncode == 0, first.stderr
    assert "arena: mine: c built in" in first.stderr
    assert "2 games played now" in first.stderr
    second = arena(build_cache, "run", str(yaml), "--no-progress")
    assert second.returncode == 0, second.stderr
    assert "arena: mine: c found in the build cache" in second.stderr
    assert "0 games played now, 2 resumed" in second.stderr
    source.write_text(source.read_text() + "\n/* edited */\n")
    third = arena(build_cache, "run", str(yaml), "--no-progress")
    assert third.returncode == 2
    assert "mine.c changed since the stored games" in third.stderr
    tuned = yaml.read_text().replace("mine.c\n", "mine.c\n    flags: -O1\n")
    fourth = arena(build_cache, "run", str(write(yaml, tuned)), "--no-progress", "--fresh")
    assert fourth.returncode == 0, fourth.stderr
    assert "arena: mine: c built in" in fourth.stderr  # other flags: another build


def test_a_tournament_stops_before_any_game_on_a_compile_error(
    build_cache: Path, tmp_path: Path
) -> None:
    if why := toolchain_missing("cpp"):
        pytest.skip(why)
    out = tmp_path / "out"
    text = (
        f"game: stc\ngames: 1\noutput: {out}\nbots:\n"
        f"  - name: random\n    cmd: {REPO / RANDOM_BOT}\n"
        f"  - name: other\n    cmd: {REPO / RANDOM_BOT}\n"
        f"  - name: mine\n    source: {BOTS / 'broken.cpp'}\n"
    )
    yaml = write(tmp_path / "t.yaml", text)
    done = arena(build_cache, "run", str(yaml), "--no-progress")
    assert done.returncode == 2
    assert f"{yaml}: bots[2].source (line 10): mine (" in done.stderr
    assert "does not build: the build failed (exit code 1)" in done.stderr
    assert "broken.cpp:2:" in done.stderr
    assert not (out / "arena.sqlite").exists()  # stopped before any game
    skip = write(tmp_path / "s.yaml", text + "on_build_error: skip\n")
    done = arena(build_cache, "run", str(skip), "--no-progress")
    assert done.returncode == 0, done.stderr
    assert "arena: mine is left out (on_build_error: skip)" in done.stderr
    assert "1 games played now" in done.stderr


def test_a_hanging_build_hits_its_time_cap(build_cache: Path, tmp_path: Path) -> None:
    yaml = write(
        tmp_path / "t.yaml",
        f"game: stc\ngames: 1\noutput: {tmp_path / 'out'}\nbuild_timeout_s: 1\nbots:\n"
        f"  - name: random\n    cmd: {REPO / RANDOM_BOT}\n"
        "  - name: slow\n    build: sh -c 'sleep 60'\n    cmd: '{out}/bot'\n",
    )
    started = time.monotonic()
    done = arena(build_cache, "run", str(yaml), "--no-progress")
    assert time.monotonic() - started < 30
    assert done.returncode == 2
    assert f"{yaml}: bots[1].build (line 9): slow does not build" in done.stderr
    assert "the build did not finish within 1 s (build_timeout_s): killed" in done.stderr
