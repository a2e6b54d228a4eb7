"""A bot sees its own folder (read-only), as bots are really written: a module next to it
is imported and a data file next to it is read, under bubblewrap and without; the output
folder inside that folder stays hidden; a tournament narrows it (``files: named``) or adds
paths (``read_only``). Commands naming a venv's python twice, or a log not written yet, run.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from arena.botproc import bwrap_works
from support import REPO
from support.hostile import MODES, arena, stc_bot, tournament, write_bot

GREEDY = f"python3 {REPO / 'bots' / 'stc' / 'greedy.py'}"
# Imports a module next to it and reads a file next to it (relative to itself: its working
# directory is its own private, writable folder in every sandbox), then says what it sees
# of the folder `out` beside it.
FOLDER_BOT = stc_bot(
    prelude="""
    import os, sys
    from pathlib import Path
    from piece import MOVE
    here = Path(__file__).resolve().parent
    print("book:", (here / "book.txt").read_text().strip(), file=sys.stderr)
    print("out:", sorted(os.listdir(here / "out")) if (here / "out").is_dir() else None,
          file=sys.stderr, flush=True)
    """
)


def folder_bot(tmp_path: Path) -> Path:
    """bots/deep/bot.py with piece.py and book.txt beside it; all readable by nobody."""
    folder = tmp_path / "bots" / "deep"
    bot = write_bot(folder, "bot.py", FOLDER_BOT)
    (folder / "piece.py").write_text("MOVE = '0 1'\n")
    (folder / "book.txt").write_text("opening e4\n")
    for path in (tmp_path, tmp_path / "bots", folder):
        path.chmod(0o755)
    return bot


def only_game(out: Path) -> Path:
    (game,) = (out / "games").iterdir()
    return game


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_imports_and_reads_files_next_to_it(tmp_path: Path, mode: str) -> None:
    bot = folder_bot(tmp_path)
    out = bot.parent / "out"  # the output folder inside the bot's own folder
    result = arena(
        "match", "stc", f"python3 {bot}", GREEDY, "--sandbox", mode, "--output", str(out),
        "--max-turns", "3",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "forfeit" not in result.stdout.splitlines()[0], result.stdout
    log = (only_game(out) / "stderr-0-bot.txt").read_text()
    assert "book: opening e4\n" in log
    if mode == "bwrap":
        assert "out: []\n" in log  # hidden: the replays and logs there are not visible


@pytest.mark.skipif(not bwrap_works(), reason="bubblewrap does not work here")
def test_files_named_shows_only_the_files_the_command_names(tmp_path: Path) -> None:
    bot = folder_bot(tmp_path)
    result = arena(
        "match", "stc", f"python3 {bot}", GREEDY, "--sandbox", "bwrap", "--files", "named",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "bot #2 (0) crash: exited with code 1 " in result.stdout
    assert "    ModuleNotFoundError: No module named 'piece'" in result.stdout.splitlines()


@pytest.mark.skipif(not bwrap_works(), reason="bubblewrap does not work here")
def test_read_only_adds_a_folder_every_bot_sees(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "weights.txt").write_text("0.5\n")
    data.chmod(0o755)
    tmp_path.chmod(0o755)
    reader = stc_bot(
        prelude=f"""
        import sys
        print("weights:", open({str(data / "weights.txt")!r}).read().strip(), file=sys.stderr)
        """
    )
    config = tournament(
        tmp_path, {"reader": reader, "greedy": f"cmd: {GREEDY}"}, sandbox="bwrap",
        games=1, extra="read_only:\n  - data\n",
    )  # fmt: skip
    (tmp_path / "bots").chmod(0o755)
    result = arena("run", str(config), "--no-progress")
    assert result.returncode == 0, result.stderr
    logs = [p.read_text() for p in (tmp_path / "out").rglob("stderr-*-reader.txt")]
    assert logs and all("weights: 0.5\n" in log for log in logs)


def test_read_only_and_files_are_checked_with_their_line(tmp_path: Path) -> None:
    config = tournament(tmp_path, {"a": stc_bot(), "b": stc_bot()}, extra="read_only: [nope]\n")
    result = arena("run", str(config))
    assert result.returncode == 2
    assert result.stderr.strip() == f"arena: {config}: read_only[0] (line 7): not found: 'nope'"
    config = tournament(tmp_path, {"a": stc_bot(), "b": stc_bot()}, extra="files: some\n")
    result = arena("run", str(config))
    assert result.returncode == 2
    assert result.stderr.strip() == (
        f"arena: {config}: files (line 7): must be one of folder, named, not 'some'"
    )


@pytest.mark.parametrize("mode", MODES)
def test_a_venvs_python_named_twice_starts(tmp_path: Path, mode: str) -> None:
    # The program is the venv's python3 (a symlink), and the bot is given it as an argument.
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    bot = write_bot(tmp_path / "bot", "bot.py", stc_bot())
    for path in (tmp_path, bot.parent):
        path.chmod(0o755)
    python = venv / "bin" / "python3"
    result = arena(
        "match", "stc", f"{python} {bot} {python}", GREEDY, "--sandbox", mode, "--max-turns", "3"
    )
    assert result.returncode == 0, result.stderr
    assert "forfeit" not in result.stdout.splitlines()[0], result.stdout


@pytest.mark.parametrize("mode", MODES)
def test_a_command_may_name_a_log_that_does_not_exist_yet(tmp_path: Path, mode: str) -> None:
    logger = stc_bot(
        prelude="""
        import sys
        log = open(sys.argv[1], "w")
        """,
        per_turn="log.write('turn\\n'); log.flush()",
    )
    bot = write_bot(tmp_path / "bot", "bot.py", logger)
    for path in (tmp_path, bot.parent):
        path.chmod(0o755)
    result = arena(
        "match", "stc", f"python3 {bot} logs.txt", GREEDY, "--sandbox", mode, "--max-turns", "3"
    )
    assert result.returncode == 0, result.stderr
    assert "forfeit" not in result.stdout.splitlines()[0], result.stdout
    # A path word naming a file that is not there is left as written, for the bot to use.
    missing = arena("match", "stc", f"python3 {bot} no/such/dir.log", GREEDY, "--max-turns", "1")
    assert "file not found" not in missing.stderr
