"""Contest tests' folders: a league's output folder as the contest server leaves it."""

from __future__ import annotations

import textwrap
from pathlib import Path

from support import REPO, stc_cycler

CPP_BOT = (REPO / "tests/core/botbuild/bots/stc_bot.cpp").read_bytes()
BROKEN_CPP = (REPO / "tests/core/botbuild/bots/broken.cpp").read_bytes()
PYTHON_BOT = stc_cycler().encode()
GARBAGE_BOT = b"import sys\nsys.stdin.readline()\nprint('hello there', flush=True)\n"
"""Answers garbage on its first turn: it forfeits its validation game (invalid)."""


def contest_league(root: Path, sandbox: str = "none", max_turns: int = 4) -> Path:
    """An output folder holding the league's ``tournament.yaml`` (two bosses), as the
    contest server writes it; the folder."""
    output = root / "league"
    bosses = root / "bosses"
    bosses.mkdir(parents=True)
    (bosses / "boss.py").write_text(stc_cycler())
    (bosses / "wall.py").write_text(stc_cycler(3))
    output.mkdir()
    (output / "tournament.yaml").write_text(
        textwrap.dedent(f"""\
        game: stc
        format: league
        sandbox: {sandbox}
        concurrency: 1
        settings:
          max_turns: {max_turns}
        bots:
          - {{name: boss, cmd: python3 {bosses / "boss.py"}}}
          - {{name: wall, cmd: python3 {bosses / "wall.py"}}}
        output: {output}
        """)
    )
    return output
