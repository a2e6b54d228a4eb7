"""``arena new-game``: the generated plugin passes its own tests, installs with pip, shows up
in ``arena games``, plays its tournament, and arena's own tests still pass beside it."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from support import REPO, run_arena

FILES = [
    "README.md",
    "bots/random_bot.py",
    "pyproject.toml",
    "src/tictac/__init__.py",
    "src/tictac/game.py",
    "src/tictac/plugin.py",
    "src/tictac/viewer.js",
    "tests/test_tictac.py",
    "tournaments/tictac.yaml",
]


def run(cmd: list[str], cwd: Path, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=timeout)


@pytest.fixture(scope="module")
def plugin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("new") / "tictac"
    result = run_arena("new-game", "tictac", "--dir", str(target))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"wrote {len(FILES)} files in {target}:\n")
    # What to do next, with arena's own Python (no activated environment needed), pytest
    # installed before the tests run, in the order of docs/plugins.md.
    nexts = result.stdout.split("\nnext:\n", 1)[1].splitlines()
    assert [line.split("   #")[0] for line in nexts] == [
        f"  cd {target}",
        f"  {sys.executable} -m pip install -e '.[test]'",
        f"  {sys.executable} -m pytest",
        "  arena games",
        "  arena run tournaments/tictac.yaml",
        "  arena report out/tictac",
    ]
    return target


def test_the_tutorial_lists_every_file_and_follows_the_next_steps():
    doc = (REPO / "docs" / "plugins.md").read_text()
    tutorial = doc.split("## Tutorial", 1)[1].split("\n## ", 1)[0]
    for name in FILES:
        assert f"tictac/{name} " in tutorial, name
    order = [
        "python -m pip install -e '.[test]'",
        "python -m pytest",
        "arena games",
        "arena run tournaments/tictac.yaml",
        "arena report out/tictac",
        "arena view",
    ]
    places = [tutorial.find(step) for step in order]
    assert -1 not in places and places == sorted(places), dict(zip(order, places, strict=True))


def test_new_game_writes_a_complete_package(plugin):
    written = sorted(str(p.relative_to(plugin)) for p in plugin.rglob("*") if p.is_file())
    assert written == FILES
    pyproject = (plugin / "pyproject.toml").read_text()
    assert '[project.entry-points.arena]\ntictac = "tictac.plugin"' in pyproject
    assert 'dependencies = ["bot-arena"]' in pyproject
    assert "class TictacGame(Game[State]):" in (plugin / "src/tictac/game.py").read_text()
    assert "## Rules" in (plugin / "README.md").read_text()
    assert (plugin / "bots/random_bot.py").stat().st_mode & 0o111


def test_the_generated_plugin_passes_its_own_tests_before_installation(plugin):
    result = run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], plugin)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "4 passed" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["Tic-Tac"],
            "arena: 'Tic-Tac' cannot name a game: use lower-case letters, digits and '_'",
        ),
        (["2048"], "arena: '2048' cannot name a game"),
        (["stc"], "arena: game id 'stc' is already installed (see `arena games`)"),
        (["cg_referee"], "arena: game id 'cg_referee' is already installed"),
        (["fine", "--dir", "tests"], "arena: tests: already exists and is not an empty folder"),
    ],
)
def test_new_game_refuses_bad_names_and_folders(args, message):
    result = run_arena("new-game", *args)
    assert result.returncode == 2
    assert result.stderr.startswith(message), result.stderr


@pytest.mark.slow
def test_installed_with_pip_it_is_listed_plays_its_tournament_and_arena_tests_pass(
    plugin, tmp_path
):
    # A fresh environment that sees this one's packages (arena and its dependencies),
    # into which pip installs the generated plugin as a user would: `pip install -e DIR`.
    venv = tmp_path / "venv"
    assert run([sys.executable, "-m", "venv", "--without-pip", str(venv)], tmp_path).returncode == 0
    python = str(venv / "bin" / "python")
    purelib = run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], tmp_path
    )
    ours = sysconfig.get_paths()["purelib"]
    Path(purelib.stdout.strip(), "arena-env.pth").write_text(
        f"import site; site.addsitedir({ours!r})\n"
    )
    pip = [sys.executable, "-m", "pip", "--python", python, "install", "-q", "-e", str(plugin)]
    installed = run(pip, tmp_path)
    assert installed.returncode == 0, installed.stdout + installed.stderr

    listed = run([python, "-m", "arena", "games", "--wide"], plugin)
    assert listed.returncode == 0 and listed.stderr == ""
    row = next(line for line in listed.stdout.splitlines() if line.startswith("tictac "))
    assert row.split()[-1] == "arena-tictac"

    played = run([python, "-m", "arena", "run", "tournaments/tictac.yaml", "--no-progress"], plugin)
    assert played.returncode == 0, played.stderr
    assert "tictac-random (tictac, 10 games)" in played.stdout
    assert (plugin / "out" / "tictac" / "arena.sqlite").is_file()

    # arena's own conformance tests run over every installed game, the new one included.
    ours_tests = run(
        [
            python,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/games/test_conformance.py",
            "-k",
            "tictac or builtin",
        ],
        REPO,
    )
    assert ours_tests.returncode == 0, ours_tests.stdout + ours_tests.stderr
    assert (
        "tictac"
        in run(
            [python, "-m", "pytest", "--collect-only", "-q", "tests/games/test_conformance.py"],
            REPO,
        ).stdout
    )
