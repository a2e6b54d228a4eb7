"""Third-party plugins, installed for real (a distribution with an ``arena`` entry point on
the path): duplicate ids, broken plugins and bad settings never take arena down."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from support import REPO, beyond_the_sandbox_line, count_plugin, install_plugin


def arena_with(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run(
        [sys.executable, "-m", "arena", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=600,
    )


def test_a_duplicate_id_is_reported_once_the_first_kept_and_other_commands_work(tmp_path):
    install_plugin(tmp_path, "buggy-dup", "buggy_dup", count_plugin("stc"))
    install_plugin(tmp_path, "count-game", "count_game", count_plugin("count"))
    listed = arena_with(tmp_path, "games", "--wide")
    assert listed.returncode == 0
    warning = (
        "arena: warning: game id 'stc' registered by 'stc' (bot-arena) and "
        "'buggy_dup' (buggy-dup): keeping 'stc'\n"
    )
    assert listed.stderr == warning
    rows = [line.split() for line in listed.stdout.splitlines()[2:]]
    assert [r[-1] for r in rows if r[0] == "stc"] == ["bot-arena"]
    assert [r[-1] for r in rows if r[0] == "count"] == ["count-game"]
    bot = "python3 bots/stc/random_bot.py"
    played = arena_with(tmp_path, "match", "stc", bot, bot, "--max_turns", "3")
    assert played.returncode == 0, played.stderr
    assert beyond_the_sandbox_line(played.stderr) == warning
    assert "game 1 seed 1, " in played.stdout


def test_broken_plugins_are_reported_and_every_other_game_still_plays(tmp_path):
    install_plugin(tmp_path, "broken-import", "broken_import", "import no_such_module_anywhere\n")
    install_plugin(
        tmp_path, "broken-hook", "broken_hook", count_plugin("hooky", register="raise KeyError(1)")
    )
    install_plugin(
        tmp_path, "not-a-game", "not_a_game", count_plugin("nag", register="return [dict, Count]")
    )
    install_plugin(tmp_path, "count-game", "count_game", count_plugin("count"))
    listed = arena_with(tmp_path, "games", "--wide")
    assert listed.returncode == 0
    assert listed.stderr.splitlines() == [
        "arena: warning: plugin 'broken_import' failed to load: ModuleNotFoundError: "
        "No module named 'no_such_module_anywhere'",
        "arena: warning: plugin 'broken_hook' failed to load: arena_register_games raised "
        "KeyError: 1",
        "arena: warning: plugin 'not_a_game' (not-a-game): <class 'dict'> is not a subclass of "
        "arena.Game; skipped",
    ]
    ids = {line.split()[0] for line in listed.stdout.splitlines()[2:]}
    assert {"stc", "count", "nag"} <= ids and "hooky" not in ids
    bot = f'{sys.executable} -c "while True: input(); print(7, flush=True)"'
    played = arena_with(tmp_path, "match", "count", bot, bot)
    assert played.returncode == 0, played.stderr
    assert "game 1 seed 1, 0 turns" in played.stdout and "(14)" in played.stdout


def test_a_plugin_failing_on_its_settings_gets_one_line_and_no_traceback(tmp_path):
    # The plugin checks nothing before the game and raises in start(): the game fails
    # in the referee, reported in one line (exit 1).
    install_plugin(
        tmp_path,
        "strict-game",
        "strict_game",
        count_plugin("strict", start='raise ValueError("turns must be even")'),
    )
    bot = f'{sys.executable} -c "while True: input(); print(1, flush=True)"'
    played = arena_with(tmp_path, "match", "strict", bot, bot)
    assert played.returncode == 1
    assert beyond_the_sandbox_line(played.stderr) == (
        "arena: game 1 failed in the referee: ValueError: turns must be even\n"
    )


def test_a_check_settings_that_crashes_is_still_one_clear_message(tmp_path):
    source = count_plugin("crashy").replace(
        "    def start(", "    def check_settings(self, settings):\n        1 / 0\n    def start("
    )
    install_plugin(tmp_path, "crashy-game", "crashy_game", source)
    bot = "python3 bots/stc/random_bot.py"
    played = arena_with(tmp_path, "match", "crashy", bot, bot)
    assert played.returncode == 2
    assert played.stderr == (
        "arena: crashy: crashy could not check its settings: ZeroDivisionError: division by zero\n"
    )
