"""The documented Python example, run for real as a script and from standard input."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import arena
from support import REPO

EXAMPLE = REPO / "examples" / "from_python.py"


def project(tmp_path: Path) -> Path:
    """A copy of what the example uses (the STC bots and tournament), no stored games."""
    root = tmp_path / "project"
    shutil.copytree(REPO / "bots" / "stc", root / "bots" / "stc")
    (root / "tournaments").mkdir()
    shutil.copy(REPO / "tournaments" / "stc.yaml", root / "tournaments")
    (root / "tmp").mkdir()
    return root


def run_example(root: Path, *, stdin: bool) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TMPDIR": str(root / "tmp")}
    if stdin:
        argv, text = [sys.executable, "-"], EXAMPLE.read_text()
    else:
        shutil.copy(EXAMPLE, root / "example.py")
        argv, text = [sys.executable, "example.py"], None
    return subprocess.run(
        argv, input=text, capture_output=True, text=True, cwd=root, env=env, timeout=600
    )


@pytest.mark.parametrize("stdin", [False, True], ids=["script", "stdin"])
def test_the_python_example_plays_every_game_and_says_nothing_on_stderr(tmp_path, stdin):
    # No `if __name__ == "__main__":` guard in the example: the workers must not run it.
    result = run_example(project(tmp_path), stdin=stdin)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert "## stc-shipped-bots (stc, 12 games)" in result.stdout
    assert re.search(r"\| 1 +\| \w+ ", result.stdout)


def test_the_docs_show_the_example_verbatim():
    doc = (REPO / "docs" / "python.md").read_text()
    assert f"```python\n{EXAMPLE.read_text()}```" in doc


REFUSING_REFEREE = "import sys\nsys.exit(3)\n"


def test_run_raises_games_failed_when_the_referee_fails_and_stays_quiet(tmp_path, capfd):
    # The game's helper process (an original referee) exits at once: every game fails in
    # the referee, which is no bot's fault, so run raises instead of returning quietly.
    (tmp_path / "ref.py").write_text(REFUSING_REFEREE)
    bot = REPO / "examples" / "cg-referee" / "smart_bot.py"
    (tmp_path / "t.yaml").write_text(
        "game: cg-referee\ngames: 2\nconcurrency: 1\n"
        f"settings:\n  referee: python3 {tmp_path / 'ref.py'}\n"
        f"bots:\n  - name: a\n    cmd: python3 {bot}\n  - name: b\n    cmd: python3 {bot}\n"
        f"output: {tmp_path / 'out'}\n"
    )
    with pytest.raises(arena.GamesFailed) as info:
        arena.run(tmp_path / "t.yaml")
    assert isinstance(info.value, arena.ArenaError)
    assert info.value.result.failed == 2 and info.value.result.played == 0
    assert len(info.value.failures) == 2
    assert all("ExternalProcessError" in f for f in info.value.failures)
    assert str(info.value).startswith("2 games failed in the referee: game ")
    assert capfd.readouterr().err == ""
    said: list[str] = []
    with pytest.raises(arena.GamesFailed):
        arena.run(tmp_path / "t.yaml", log=said.append)
    assert sum("failed in the referee" in line for line in said) == 2
