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


def run_arena(
    *args: str, timeout: float = 900, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the real ``arena`` command (``python -m arena``) from the repository root
    (``env``: variables set on top of this process's, e.g. ``COLUMNS``)."""
    import os

    return subprocess.run(
        [sys.executable, "-m", "arena", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=timeout,
        env=None if env is None else {**os.environ, **env},
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


def _machine_line(line: str) -> bool:
    """A line about the machine, not the run: which sandbox is in use, ``auto``'s warning
    that bots are not isolated, the core ledger's waits for other arena runs' games."""
    return (
        line.startswith(("arena: sandbox ", "arena: waiting for "))
        or "bots are not isolated" in line
    )


def beyond_the_sandbox_line(stderr: str) -> str:
    """``arena run``/``match`` standard error without the lines about the machine (the
    sandbox in use, waits for cores other runs hold), for tests about the rest."""
    return "".join(line for line in stderr.splitlines(keepends=True) if not _machine_line(line))


def run_lines(stderr: str) -> list[str]:
    """The lines of ``stderr`` about the run, without those about the machine."""
    return [line for line in stderr.splitlines() if not _machine_line(line)]


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


COUNT_PLUGIN = '''
import random
from arena import Game, GameInfo, InvalidAnswer, Move, Outcome, hookimpl
{prelude}

class Count(Game):
    """Say a digit; the sum scores."""
    info = GameInfo(id="{id}", title="Count", min_players=2, max_players=2,
                    first_turn_ms=2000, turn_ms=500, settings={{"turns": 2}})
    def start(self, seed, players, settings):
        {start}
        return (settings["turns"], (0, 0))
    def to_act(self, state):
        return (0, 1) if state[0] else ()
    def prompt(self, state, seat):
        return "go\\n"
    def interpret(self, state, seat, text):
        if not text.isascii() or not text.isdigit():
            raise InvalidAnswer("a digit", text)
        return Move(int(text))
    def apply(self, state, moves):
        return (state[0] - 1, (state[1][0] + moves[0], state[1][1] + moves[1]))
    def eliminate(self, state, seat):
        return (0, state[1])
    def outcome(self, state):
        return Outcome.from_scores(state[1])
    def random_answer(self, state, seat, rng):
        return str(rng.randint(0, 9))

@hookimpl
def arena_register_games():
    {register}
'''


def count_plugin(
    game_id: str, start: str = "pass", register: str = "return [Count]", prelude: str = ""
) -> str:
    """Source of a plugin module giving the toy game Count (two seats each say a digit;
    the sums score) under ``game_id``: ``start`` runs first in its ``start``, ``register``
    is its hook's body, ``prelude`` module code run as it is imported."""
    return COUNT_PLUGIN.format(id=game_id, start=start, register=register, prelude=prelude)
