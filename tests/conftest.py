"""Shared fixtures: writing throwaway bot programs and building referees for the toy game."""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from arena.records import BotSpec
from support import run_arena


@pytest.fixture
def make_bot(tmp_path: Path) -> Callable[[str, str], BotSpec]:
    """Write a Python bot from source text; return its spec (``python file.py``)."""

    def make(name: str, source: str) -> BotSpec:
        path = tmp_path / "bots" / f"{name}.py"
        path.parent.mkdir(exist_ok=True)
        path.write_text(textwrap.dedent(source))
        return BotSpec(name, (sys.executable, str(path)))

    return make


SHIPPED_MATCHES: dict[str, tuple[str, ...]] = {
    "stc": ("python3 bots/stc/greedy.py", "python3 bots/stc/random_bot.py", "--max_turns", "40"),
    "splitter": ("python3 bots/splitter/greedy.py", "--layout", "2"),
    "blocking": (
        "python3 bots/blocking/greedy.py",
        "python3 bots/blocking/random_bot.py",
        "python3 bots/blocking/greedy.py",
        "python3 bots/blocking/random_bot.py",
    ),
    "chess5": ("python3 bots/chess5/tactician.py", "python3 bots/chess5/greedy.py"),
    "cluster": ("python3 bots/cluster/greedy.py", "python3 bots/cluster/random_bot.py"),
}


@pytest.fixture(scope="session")
def shipped_replays(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """game id -> the replay.json of a real game between shipped bots."""
    root = tmp_path_factory.mktemp("shipped")
    replays = {}
    for game, args in SHIPPED_MATCHES.items():
        out = root / game
        games = "1" if game == "chess5" else "2"  # chess5 starts a process per turn: slow
        result = run_arena(
            "match", game, *args, "--games", games, "--seed", "5", "--output", str(out)
        )
        assert result.returncode == 0, result.stderr
        paths = sorted(out.glob("games/*/replay.json"))
        replays[game] = max(paths, key=lambda p: len(json.loads(p.read_text())["steps"]))
    return replays


@pytest.fixture(scope="session")
def tournament(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small stc round-robin, run with `arena run`: two shipped bots and one that crashes."""
    root = tmp_path_factory.mktemp("tour")
    spec = root / "t.yaml"
    spec.write_text(
        "name: mini\ngame: stc\ngames: 2\nseed: 3\nconcurrency: 1\n"
        "settings: {max_turns: 30}\nbots:\n"
        "  - {name: greedy, cmd: python3 bots/stc/greedy.py}\n"
        "  - {name: random, cmd: python3 bots/stc/random_bot.py}\n"
        "  - {name: crasher, cmd: python3 -c 'import sys; sys.exit(3)'}\n"
        f"output: {root / 'out'}\n"
    )
    result = run_arena("run", str(spec), "--no-progress")
    assert result.returncode == 0, result.stderr
    assert f"report: {root / 'out' / 'report.html'}" in result.stderr
    return root / "out"
