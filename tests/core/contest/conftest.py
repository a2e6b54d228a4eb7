"""Contest tests' folders: a league's output folder as the contest server leaves it."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from support import stc_cycler

MakeLeague = Callable[..., Path]


@pytest.fixture
def contest_league(tmp_path: Path) -> MakeLeague:
    """Make an output folder holding a contest league's ``tournament.yaml`` (stc, two
    Python bosses, ``max_turns`` turns a game, ``extra`` keys), as the contest server
    writes it."""

    def make(sandbox: str = "none", max_turns: int = 4, extra: str = "") -> Path:
        output = tmp_path / "league"
        bosses = tmp_path / "bosses"
        bosses.mkdir(parents=True)
        (bosses / "boss.py").write_text(stc_cycler())
        (bosses / "wall.py").write_text(stc_cycler(3))
        output.mkdir()
        (output / "tournament.yaml").write_text(
            textwrap.dedent(f"""\
            game: stc
            format: contest
            sandbox: {sandbox}
            concurrency: 1
            settings:
              max_turns: {max_turns}
            bots:
              - {{name: boss, cmd: python3 {bosses / "boss.py"}}}
              - {{name: wall, cmd: python3 {bosses / "wall.py"}}}
            output: {output}
            """)
            + extra
        )
        return output

    return make
