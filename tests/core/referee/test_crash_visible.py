"""A bot that crashes shows why: the end of its stderr is in its forfeit, everywhere a user
looks (``arena match`` with and without ``--verbose``, ``arena show``, the report), and a
program that cannot start at all says why (Windows line endings, not found...)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from arena.botproc import Sandbox, bwrap_works
from arena.botproc.commands import start_problem
from arena.records import BotSpec
from arena.referee.engine import Referee
from arena_games.stc.game import StcGame
from support import REPO, run_arena

CRASHER = """
import sys
print("loading the opening book", file=sys.stderr)
def load():
    raise ValueError("bad weights in book.txt")
load()
"""
GREEDY = f"python3 {REPO / 'bots' / 'stc' / 'greedy.py'}"
SANDBOXES = ["none", *(["bwrap"] if bwrap_works() else [])]
TRACEBACK_END = [
    'raise ValueError("bad weights in book.txt")',
    "ValueError: bad weights in book.txt",
]


@pytest.fixture
def crasher(tmp_path: Path) -> Path:
    path = tmp_path / "crasher" / "crasher.py"
    path.parent.mkdir()
    path.write_text(CRASHER)
    path.parent.chmod(0o755)
    tmp_path.chmod(0o755)
    return path


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_the_forfeit_keeps_the_end_of_a_crashed_bots_stderr(
    tmp_path: Path, crasher: Path, sandbox: str
) -> None:
    bots = [BotSpec("crasher", (sys.executable, str(crasher))), BotSpec("g", tuple(GREEDY.split()))]
    record = Referee(StcGame(), bots, tmp_path / "game", Sandbox(sandbox)).play(1, {})
    seat = record.seats[0]
    assert seat.forfeit == "crash"
    lines = seat.detail.splitlines()
    assert lines[0] == "exited with code 1 without answering; its stderr ends:"
    assert lines[1] == "  loading the opening book"
    assert lines[2] == "  Traceback (most recent call last):"
    assert [line.strip() for line in lines[-2:]] == TRACEBACK_END


def test_arena_match_prints_the_traceback_without_output_folder(crasher: Path) -> None:
    result = run_arena("match", "stc", f"python3 {crasher}", GREEDY, "--sandbox", "none")
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    head = next(i for i, line in enumerate(out) if line.startswith("game 1 "))
    ends = out.index("  crasher's stderr ends:")
    game = " ".join(line.strip() for line in out[head:ends])  # folded to the terminal or not
    assert "crasher #2 (0) crash: exited with code 1 without answering; greedy #1" in game
    assert out[ends + 1] == "    loading the opening book"
    assert [line.strip() for line in out[ends + 6 : ends + 8]] == TRACEBACK_END
    assert out[ends + 8].startswith("bot ")  # the summary table follows


def test_verbose_show_and_report_show_the_traceback(tmp_path: Path, crasher: Path) -> None:
    out = tmp_path / "out"
    result = run_arena(
        "match", "stc", f"python3 {crasher}", GREEDY, "--sandbox", "none", "--verbose",
        "--output", str(out),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    for text in (result.stdout, run_arena("show", str(next((out / "games").iterdir()))).stdout):
        lines = text.splitlines()
        at = lines.index("  seat 0 crasher FORFEITS: crash: exited with code 1 without answering")
        assert lines[at + 1] == "    its stderr ends:"
        assert lines[at + 2] == "      loading the opening book"
        assert [line.strip() for line in lines[at + 7 : at + 9]] == TRACEBACK_END

    config = tmp_path / "t.yaml"
    config.write_text(
        f"game: stc\ngames: 2\nsandbox: none\noutput: {tmp_path / 'run'}\nbots:\n"
        f"  - {{name: crasher, cmd: python3 {crasher}}}\n  - {{name: greedy, cmd: {GREEDY}}}\n"
    )
    assert run_arena("run", str(config), "--no-progress").returncode == 0
    assert run_arena("report", str(tmp_path / "run")).returncode == 0
    report = (tmp_path / "run" / "report.html").read_text()
    assert "exited with code 1 without answering<pre>loading the opening book\n" in report
    assert "ValueError: bad weights in book.txt</pre>" in report


def test_a_script_saved_with_windows_line_endings_is_refused_saying_so(tmp_path: Path) -> None:
    script = tmp_path / "bot.sh"
    script.write_bytes(b"#!/bin/sh\r\necho 0 1\r\n")
    script.chmod(0o755)
    result = run_arena("match", "stc", str(script), GREEDY, "--sandbox", "none")
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"arena: bot 1 {str(script)!r}: bad interpreter: /bin/sh^M: the file has Windows "
        f"line endings: save {str(script)!r} with Unix line endings (e.g. dos2unix)"
    ]


def test_start_problems_are_named(tmp_path: Path) -> None:
    missing = tmp_path / "missing.sh"
    missing.write_text("#!/no/such/interpreter\n")
    text = tmp_path / "notes.bin"
    text.write_text("not a program\n")
    plain = tmp_path / "plain.sh"
    plain.write_text("#!/bin/sh\n")
    for path in (missing, text):
        path.chmod(0o755)
    assert start_problem(str(missing)) == (
        f"bad interpreter: /no/such/interpreter: not found (the #! line of {str(missing)!r})"
    )
    assert start_problem(str(text)) == (
        f"exec format error: {str(text)!r} is neither a binary nor a script starting with #!"
    )
    assert start_problem(str(plain)).startswith(f"not executable: {str(plain)!r}")
    assert start_problem(str(tmp_path / "nope")) == f"file not found: {str(tmp_path / 'nope')!r}"
    assert start_problem(sys.executable) is None


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_a_bot_whose_program_broke_after_it_was_checked_forfeits_saying_why(
    tmp_path: Path, sandbox: str
) -> None:
    # The command was checked when the tournament was read; then the file was saved with
    # Windows line endings. The game is not lost to the referee: the seat forfeits.
    script = tmp_path / "bot.sh"
    script.write_bytes(b"#!/bin/sh\r\necho 0 1\r\n")
    script.chmod(0o755)
    tmp_path.chmod(0o755)
    bots = [BotSpec("sh", (str(script),)), BotSpec("g", tuple(GREEDY.split()))]
    record = Referee(StcGame(), bots, tmp_path / "game", Sandbox(sandbox)).play(1, {})
    seat = record.seats[0]
    assert seat.forfeit == "crash"
    summary = seat.detail.splitlines()[0]
    assert summary.startswith("exited with code 127 ")
    assert "bad interpreter: /bin/sh^M: the file has Windows line endings" in summary
    assert os.path.exists(tmp_path / "game" / "stderr-0-sh.txt")
