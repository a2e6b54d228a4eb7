"""Helpers the tests share: paths, bots written on the fly, running the real CLI."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]


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


def stc_cycler(width: int = 6, message: str = "") -> str:
    """The source of a tiny stc bot: it reads each turn's 34 lines and drops its pair in
    columns 0, 1, ... ``width - 1`` in turn (rotation 1), with ``message`` after the move."""
    said = f" {message}" if message else ""
    return (
        "import sys\n"
        "turn = 0\n"
        "while True:\n"
        "    lines = [sys.stdin.readline() for _ in range(34)]\n"
        "    if not lines[0]:\n"
        "        break\n"
        f'    print(f"{{turn % {width}}} 1{said}", flush=True)\n'
        "    turn += 1\n"
    )


STC_STRONG_SH = """\
t=0
while true; do
  i=0
  while [ $i -lt 34 ]; do read -r line || exit 0; i=$((i+1)); done
  echo "$((t % 6)) 1"
  t=$((t+1))
done
"""
"""A shell stc bot that plays on (columns 0..5 in turn): it beats :data:`STC_WEAK_SH`."""
STC_WEAK_SH = "read -r line\necho garbage\n"
"""A shell stc bot that answers garbage on its first turn: it forfeits every game."""


def games_stored(out: Path) -> int:
    """How many games the output folder ``out`` holds (0 while it has no database yet)."""
    try:
        db = sqlite3.connect(out / "arena.sqlite")
        try:
            return int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        finally:
            db.close()
    except sqlite3.Error:
        return 0


def install_plugin(site: Path, dist: str, module: str, source: str) -> None:
    """Install a game plugin in the folder ``site`` as pip leaves one behind: the module
    (``source``, dedented) and a dist-info naming it in arena's entry points."""
    (site / f"{module}.py").write_text(textwrap.dedent(source))
    info = site / f"{dist.replace('-', '_')}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[arena]\n{module} = {module}\n")
