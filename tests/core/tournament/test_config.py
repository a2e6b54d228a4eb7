"""Tournament files: every mistake is one clear message naming file, key and line (exit 2)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from arena.cli.main import main
from arena.errors import ConfigError
from arena.plugins.registry import load_registry
from arena.tournament.config import load_tournament
from support import REPO

GOOD = """\
name: demo
game: stc
format: round-robin
games: 2
seed: 5
concurrency: 1
settings:
  max_turns: 10
bots:
  - name: a
    cmd: python3 bots/stc/random_bot.py
  - name: b
    cmd: python3 bots/stc/greedy.py
output: {out}
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "t.yaml"
    path.write_text(textwrap.dedent(text))
    return path


def error_of(path: Path) -> str:
    with pytest.raises(ConfigError) as info:
        load_tournament(path, load_registry())
    return str(info.value)


def test_a_good_file_loads_with_defaults_and_absolute_bot_paths(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    config = load_tournament(write(tmp_path, GOOD.format(out=tmp_path / "o")), load_registry())
    assert config.game == "stc" and config.players == 2 and config.games == 2
    assert config.settings == {"max_turns": 10}
    assert config.bots[0].argv == ("python3", str(REPO / "bots/stc/random_bot.py"))
    assert config.sandbox == "auto"
    assert (config.time_margin_ms, config.clock_scale) == (0, 1.0)
    text = GOOD.format(out=tmp_path / "o") + "time_margin_ms: 50\nclock_scale: 2\n"
    config = load_tournament(write(tmp_path, text), load_registry())
    assert (config.time_margin_ms, config.clock_scale) == (50, 2.0)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("games: 2", "gmaes: 2", "t.yaml: gmaes (line 4): unknown key (known: name, game,"),
        ("game: stc", "game: stcc", "t.yaml: game (line 2): unknown game 'stcc' (installed:"),
        (
            "games: 2",
            "games: two",
            "t.yaml: games (line 4): must be a positive whole number, not 'two'",
        ),
        (
            "  max_turns: 10",
            "  max_turn: 10",
            "t.yaml: settings.max_turn (line 8): unknown setting for stc (known: max_turns)",
        ),
        (
            "  max_turns: 10",
            "  max_turns: ten",
            "t.yaml: settings.max_turns (line 8): must be int, not 'ten'",
        ),
        (
            "    cmd: python3 bots/stc/greedy.py",
            "    cmd: pyhton3 bots/stc/greedy.py",
            "t.yaml: bots[1].cmd (line 13): command not found: 'pyhton3'",
        ),
        (
            "    cmd: python3 bots/stc/greedy.py",
            "    cmd: python3 bots/stc/gredy.py",
            "t.yaml: bots[1].cmd (line 13): file not found: 'bots/stc/gredy.py'",
        ),
        ("  - name: b", "  - name: a", "t.yaml: bots[1].name (line 12): bot name 'a' used twice"),
        ("format: round-robin", "format: dutch", "t.yaml: format (line 3): unknown format 'dutch'"),
        ("seed: 5", "seed: [5", "t.yaml (line 6): invalid YAML:"),
        (
            "concurrency: 1",
            "concurrency: 1\nplayers: 3",
            "t.yaml: players (line 7): stc is played by 2 players, not 3",
        ),
        # The game's own check (Game.check_settings), before any game.
        (
            "  max_turns: 10",
            "  max_turns: -5",
            "t.yaml: settings.max_turns (line 8): must be between 1 and 10000, not -5",
        ),
        (
            "  max_turns: 10",
            "  max_turns: 1000000000000",
            "t.yaml: settings.max_turns (line 8): must be between 1 and 10000, not 1000000000000",
        ),
        (
            "  max_turns: 10",
            "  max_turns: [10, 0]",
            "t.yaml: settings.max_turns (line 8): must be between 1 and 10000, not 0",
        ),
        # The clock options.
        (
            "concurrency: 1",
            "concurrency: 1\ntime_margin_ms: -5",
            "t.yaml: time_margin_ms (line 7): must be a whole number of milliseconds, 0 or "
            "more, not -5",
        ),
        (
            "concurrency: 1",
            "concurrency: 1\ntime_margin_ms: 1.5",
            "t.yaml: time_margin_ms (line 7): must be a whole number of milliseconds, 0 or "
            "more, not 1.5",
        ),
        (
            "concurrency: 1",
            "concurrency: 1\ntime_margin_ms: 99999999999",
            "t.yaml: time_margin_ms (line 7): must be at most 3600000, not 99999999999",
        ),
        (
            "concurrency: 1",
            "concurrency: 1\nclock_scale: 0",
            "t.yaml: clock_scale (line 7): must be a number greater than 0, not 0",
        ),
        (
            "concurrency: 1",
            "concurrency: 1\nclock_scale: slow",
            "t.yaml: clock_scale (line 7): must be a number greater than 0, not 'slow'",
        ),
        (
            "concurrency: 1",
            "concurrency: 1\nclock_scale: .nan",
            "t.yaml: clock_scale (line 7): must be a number greater than 0, not nan",
        ),
        (
            "concurrency: 1",
            "concurrency: 1\nclock_scale: 5000",
            "t.yaml: clock_scale (line 7): must be at most 1000, not 5000",
        ),
    ],
)
def test_each_mistake_names_file_key_and_line(tmp_path, monkeypatch, old, new, message):
    monkeypatch.chdir(REPO)
    text = GOOD.format(out=tmp_path / "o")
    assert old in text
    assert message in error_of(write(tmp_path, text.replace(old, new)))


def test_the_cli_prints_one_line_and_exits_2_before_any_game(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(REPO)
    out = tmp_path / "o"
    path = write(tmp_path, GOOD.format(out=out).replace("random_bot.py", "nobot.py"))
    assert main(["run", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [
        f"arena: {path}: bots[0].cmd (line 11): file not found: 'bots/stc/nobot.py' (looked "
        f"for {REPO / 'bots/stc/nobot.py'} then {tmp_path / 'bots/stc/nobot.py'})"
    ]
    assert not out.exists()


def test_unknown_game_and_missing_file_exit_2_through_the_real_command(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "arena", "run", str(tmp_path / "missing.yaml")],
        capture_output=True, text=True, cwd=REPO,
    )  # fmt: skip
    assert result.returncode == 2
    assert "missing.yaml: cannot read" in result.stderr
    result = subprocess.run(
        [sys.executable, "-m", "arena", "match", "nogame", "python3 x.py"],
        capture_output=True, text=True, cwd=REPO,
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.startswith("arena: unknown game 'nogame' (installed: ")


def test_a_list_of_setting_values_plays_every_variant(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    text = GOOD.format(out=tmp_path / "o").replace("  max_turns: 10", "  max_turns: [10, 20]")
    config = load_tournament(write(tmp_path, text), load_registry())
    assert config.variant_keys == ("max_turns",)
    assert config.variants == [{"max_turns": 10}, {"max_turns": 20}]
    bad = GOOD.format(out=tmp_path / "o").replace("  max_turns: 10", "  max_turns: [10, x]")
    assert "settings.max_turns (line 8): must be int, not 'x'" in error_of(write(tmp_path, bad))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["stc", "--max_turns", "-5"], "arena: stc: --max_turns: must be between 1 and 10000, not -5"),
        (["stc", "--max-turns", "1000000000000"], "arena: stc: --max_turns: must be between 1 and 10000, not 1000000000000"),
        (["stc", "--max_turns", "ten"], "arena: stc: --max_turns: must be int, not 'ten'"),
        (["splitter", "--layout", "3"], "arena: splitter: --layout: must be 1 or 2, not 3"),
        (["cluster", "--colors", "5"], "arena: cluster: --colors: must be even (half per player), not 5"),
        (["cluster", "--grid_size", "4", "--win_length", "8"], "arena: cluster: --win_length: must be between 2 and 7, not 8"),
        (["stc", "--time-margin-ms", "-1"], "arena: --time-margin-ms must be a whole number of milliseconds, 0 or more, not -1"),
        (["stc", "--clock-scale", "0"], "arena: --clock-scale must be a number greater than 0, not 0.0"),
        (["stc", "--clock-scale", "inf"], "arena: --clock-scale must be a number greater than 0, not inf"),
    ],
)  # fmt: skip
def test_match_refuses_bad_settings_in_one_line_before_any_game(tmp_path, args, message):
    game, *options = args
    bots = {"splitter": 1}.get(game, 2) * ["python3 bots/stc/random_bot.py"]
    result = subprocess.run(
        [sys.executable, "-m", "arena", "match", game, *bots, *options, "--output", str(tmp_path / "m")],
        capture_output=True, text=True, cwd=REPO,
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr == message + "\n"
    assert not (tmp_path / "m").exists()
