"""Each tournament key declared once (arena/tournament/keys.py): the loader, `arena run`'s
options, `arena.run`'s keywords and the docs read the same table; overrides are checked
again with the file; names, concurrency, the file itself and arguments refused in one line."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

import arena
from arena import limits
from arena.cli.main import _parser, main
from arena.errors import ConfigError
from arena.plugins.registry import load_registry
from arena.tournament.config import load_tournament
from arena.tournament.formats import FORMATS
from arena.tournament.keys import KEYS, Override
from support import REPO

FILE = """\
game: stc
games: 2
seed: 5
settings:
  max_turns: 2
bots:
  - name: a
    cmd: python3 {repo}/bots/stc/random_bot.py
  - name: b
    cmd: python3 {repo}/bots/stc/greedy.py
output: {out}
"""


def tournament(tmp_path: Path, old: str = "", new: str = "") -> Path:
    path = tmp_path / "t.yaml"
    path.write_text(FILE.format(repo=REPO, out=tmp_path / "out").replace(old, new))
    return path


def refused(capsys, *argv: str) -> str:
    """The one line ``arena ARGV`` prints on stderr, refusing with exit code 2."""
    assert main(list(argv)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err.removesuffix("\n")


def run_arena(tmp_path: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arena", *args],
        capture_output=True, text=True, cwd=tmp_path, timeout=timeout,
    )  # fmt: skip


def _run_options() -> dict[str, object]:
    sub = next(a for a in _parser()._actions if a.dest == "command")
    return {
        option: action for action in sub.choices["run"]._actions for option in action.option_strings
    }


def test_every_key_with_an_option_is_an_arena_run_option_made_from_the_table():
    options = _run_options()
    with_options = [k for k in KEYS.values() if k.option]
    assert {k.name for k in with_options} >= {"games", "concurrency", "seed", "output", "dask"}
    for key in with_options:
        for spelling in key.option:
            action = options[spelling]
            assert action.dest == key.name
            assert tuple(action.choices or ()) == key.choices
    assert options["--executor"].choices == ("local", "dask") == limits.EXECUTORS


def test_the_sandbox_kinds_of_the_keys_are_the_backends_the_sandbox_has():
    from arena.botproc.sandboxes.registry import KINDS

    assert KINDS == limits.SANDBOXES == ("auto", "bwrap", "none")
    assert KEYS["sandbox"].choices == limits.SANDBOXES


def test_every_key_is_documented_with_its_default_and_its_choices():
    doc = (REPO / "docs" / "tournaments.md").read_text()
    rows = {line.split("|")[1].strip(): line for line in doc.splitlines() if line.startswith("| `")}
    for key in KEYS.values():
        row = rows.get(f"`{key.name}`")
        assert row is not None, f"tournament key {key.name} is not in docs/tournaments.md"
        for choice in key.choices:
            assert f"`{choice}`" in row, f"{key.name}: choice {choice} is not documented"
        if isinstance(key.default, int | float) and key.name != "seed":
            assert f"default {key.default:g}" in row, f"{key.name}: default not documented"
    for name in FORMATS:
        assert f"`{name}`" in rows["`format`"], f"format {name} is not documented"


def test_a_checked_config_cannot_be_changed_in_place(tmp_path):
    config = load_tournament(tournament(tmp_path), load_registry())
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.games = 4  # type: ignore[misc]


def test_overrides_are_checked_again_with_the_file_naming_their_option(tmp_path):
    registry = load_registry()
    path = tournament(tmp_path)
    config = load_tournament(path, registry, [Override("games", 6, "--games")])
    assert (config.games, config.given_by["games"]) == (6, "--games")
    cases = [
        (Override("games", 0, "--games"), "--games: must be a positive whole number, not 0"),
        (Override("concurrency", 5000, "-j"), "-j: must be at most 1024, not 5000"),
        (Override("seed", "x", "seed"), "seed: must be a whole number, not 'x'"),
        (Override("rating_interval", -1, "--rating-interval"),
         "--rating-interval: must be a whole number of games, 0 or more, not -1"),
        (Override("games", 3_000_000, "--games"),
         "--games: 3000000 games per combination make 3000000 games in all; "
         "arena plays at most 2000000 in one round-robin tournament"),
    ]  # fmt: skip
    for override, message in cases:
        with pytest.raises(ConfigError) as caught:
            load_tournament(path, registry, [override])
        assert str(caught.value) == message


def test_arena_run_options_are_refused_in_one_line_naming_the_option(tmp_path, capsys):
    path = str(tournament(tmp_path))
    assert refused(capsys, "run", path, "--games", "0") == (
        "arena: --games: must be a positive whole number, not 0"
    )
    assert refused(capsys, "run", path, "--seed", "x") == (
        "arena: --seed: must be a whole number, not 'x'"
    )
    assert refused(capsys, "run", path, "-j", "1000000000") == (
        "arena: --concurrency: must be at most 1024, not 1000000000"
    )
    assert not (tmp_path / "out").exists()


def test_arena_run_in_python_applies_the_game_limit_and_the_seed_check(tmp_path):
    path = tournament(tmp_path)
    with pytest.raises(ConfigError, match=r"^games: 3000000 games per combination make 3000000"):
        arena.run(path, games=3_000_000)
    # stc's seeds are Java longs: the file's check, applied to the keyword too.
    with pytest.raises(ConfigError, match=r"^seed: .*not a Java long"):
        arena.run(path, seed=2**63)
    with pytest.raises(ConfigError, match=r"^games: must be a positive whole number, not 0$"):
        arena.run(path, games=0)
    with pytest.raises(ConfigError, match=r"^players: not a key arena.run overrides"):
        arena.run(path, players=3)
    assert not (tmp_path / "out").exists()


def test_a_huge_concurrency_is_refused_before_any_game(tmp_path, capsys):
    path = tournament(tmp_path, "seed: 5", "seed: 5\nconcurrency: 1000000000")
    assert refused(capsys, "run", str(path)) == (
        f"arena: {path}: concurrency (line 4): must be at most 1024, not 1000000000"
    )
    assert not (tmp_path / "out").exists()
    bot = f"python3 {REPO}/bots/stc/random_bot.py"
    assert refused(capsys, "match", "stc", bot, bot, "-j", "1000000000") == (
        "arena: --jobs: must be at most 1024, not 1000000000"
    )


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("5", 'must be text, not 5 (quote it: "5")'),
        ('""', "a bot name must not be empty"),
        ('"a\\nb"', "a bot name must be printable text, not 'a\\nb'"),
        ('"\\e[31mred"', "a bot name must be printable text, not '\\x1b[31mred'"),
        ('"../../etc/x"', "a bot name must not contain '/': '../../etc/x'"),
        ("x" * 65, "a bot name has at most 64 characters, not 65"),
        ('" a"', "a bot name must not start or end with a space: ' a'"),
        ("b", "bots[1].name (line 9): bot name 'b' used twice"),  # the second b
    ],
)
def test_bad_bot_names_are_one_line_naming_file_key_and_line(tmp_path, capsys, name, message):
    path = tournament(tmp_path, "  - name: a", f"  - name: {name}")
    if not message.startswith("bots["):
        message = f"bots[0].name (line 7): {message}"
    assert refused(capsys, "run", str(path)) == f"arena: {path}: {message}"
    assert not (tmp_path / "out").exists()


def test_a_name_made_from_a_bots_file_is_checked_too(tmp_path, capsys):
    bot = tmp_path / ("b" * 70 + ".py")
    bot.write_text("")
    path = tournament(tmp_path, "  - name: a\n", "  - ")
    path.write_text(path.read_text().replace(f"{REPO}/bots/stc/random_bot.py", str(bot)))
    assert refused(capsys, "run", str(path)) == (
        f"arena: {path}: bots[0] (line 7): a bot name has at most 64 characters, not 70 "
        "(made from its command: give it a `name`)"
    )


def test_a_fifo_as_the_tournament_file_is_refused_at_once(tmp_path):
    fifo = tmp_path / "t.yaml"
    os.mkfifo(fifo)
    result = run_arena(tmp_path, "run", str(fifo), timeout=30)  # no writer: a read would hang
    assert (result.returncode, result.stderr) == (
        2,
        f"arena: {fifo}: a FIFO (named pipe), not a tournament file\n",
    )
    result = run_arena(tmp_path, "run", "/dev/null")
    assert result.stderr == "arena: /dev/null: a device, not a tournament file\n"


def test_an_output_under_proc_says_why_it_cannot_be_made(tmp_path, capsys):
    path = str(tournament(tmp_path))
    assert refused(capsys, "run", path, "--output", "/proc/arena-out") == (
        "arena: --output: cannot create the folder '/proc/arena-out': /proc does not take new "
        "folders (a special file system, not one for files)"
    )


def test_argument_errors_are_one_line_and_options_are_never_abbreviated(tmp_path):
    path = str(tournament(tmp_path))
    missing = run_arena(tmp_path, "run")
    assert (missing.returncode, missing.stderr) == (
        2,
        "arena run: error: the following arguments are required: file\n",
    )
    short = run_arena(tmp_path, "run", path, "--concurr", "2")  # was --concurrency 2
    assert (short.returncode, short.stderr) == (
        2,
        "arena: error: unrecognized arguments: --concurr 2\n",
    )
    bots = [f"python3 {REPO}/bots/stc/random_bot.py"] * 2
    setting = run_arena(tmp_path, "match", "stc", *bots, "--max_turn", "5")  # was --max_turns
    assert setting.returncode == 2
    assert setting.stderr.startswith("arena: unknown option '--max_turn' for stc")
    assert setting.stderr.count("\n") == 1
