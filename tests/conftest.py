"""Shared fixtures: writing throwaway bot programs and building referees for the toy game."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from arena.records import BotSpec

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def make_bot(tmp_path: Path) -> Callable[[str, str], BotSpec]:
    """Write a Python bot from source text; return its spec (``python file.py``)."""

    def make(name: str, source: str) -> BotSpec:
        path = tmp_path / "bots" / f"{name}.py"
        path.parent.mkdir(exist_ok=True)
        path.write_text(textwrap.dedent(source))
        return BotSpec(name, (sys.executable, str(path)))

    return make


ANSWER_LOOP = """
import sys, time
SLEEP = {sleep!r}
n = 0
for line in sys.stdin:
    if n and SLEEP:
        time.sleep(SLEEP)
    n += 1
    print({answer!r}, flush=True)
"""


def loop_bot(answer: str = "1", sleep: float = 0.0) -> str:
    """Source of a bot answering ``answer`` to every line, sleeping after the first turn."""
    return ANSWER_LOOP.format(answer=answer, sleep=sleep)


def run_arena(*args: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    """Run the real ``arena`` command (``python -m arena``) from the repository root."""
    return subprocess.run(
        [sys.executable, "-m", "arena", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=timeout,
    )


def json_shape(value: Any) -> Any:
    """Keys and value types, recursively; lists become the set of their items' shapes."""
    if isinstance(value, dict):
        return {key: json_shape(item) for key, item in value.items()}
    if isinstance(value, list):
        shapes: list[Any] = []
        for item in value:
            if json_shape(item) not in shapes:
                shapes.append(json_shape(item))
        return ("list", sorted(shapes, key=repr))
    return type(value).__name__


# One real game of each shipped game, played by shipped bots through `arena match` (the
# longest of two, so a game cut short by a slow start on a loaded machine is not the one
# used). Shared by the replay, CLI and browser tests of the viewer.
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
        paths = sorted(out.glob("*/replay.json"))
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


def beyond_the_sandbox_line(stderr: str) -> str:
    """``arena run``/``match`` standard error without the line saying which sandbox is in
    use (nor ``auto``'s warning that bots are not isolated), for tests about the rest."""
    return "".join(
        line
        for line in stderr.splitlines(keepends=True)
        if not line.startswith("arena: sandbox ") and "bots are not isolated" not in line
    )


MEASURED_KEYS = ("p50_ms", "p99_ms", "max_ms")
"""Leaderboard keys measured on the clock: they differ from one run to the next."""


def unmeasured(board: dict[str, Any]) -> dict[str, Any]:
    """A JSON leaderboard without its measured response times, to compare two runs."""
    rows = [
        {k: v for k, v in row.items() if k not in MEASURED_KEYS} for row in board["leaderboard"]
    ]
    return {**board, "leaderboard": rows}
