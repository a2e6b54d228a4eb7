"""Shared fixtures: writing throwaway bot programs and building referees for the toy game."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from arena.referee import BotSpec

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
