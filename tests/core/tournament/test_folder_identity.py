"""A bot sees its own folder (``files: folder``), so the files next to it decide its games
too: editing a module beside the bot makes its stored games stale, naming the file; games
stored before folders counted (no ``folder`` in their identity) stay valid."""

from __future__ import annotations

import sqlite3
import textwrap
from pathlib import Path

from support.hostile import arena, stc_bot, write_bot

# Plays the column its sibling module names.
BOT = stc_bot(prelude="from piece import COLUMN\n", per_turn="turn = COLUMN")


def write(tmp_path: Path, files: str = "folder") -> tuple[Path, Path]:
    """The tournament file and the bot's sibling module."""
    folder = tmp_path / "bots" / "deep"
    bot = write_bot(folder, "bot.py", BOT)
    piece = folder / "piece.py"
    if not piece.exists():
        piece.write_text("COLUMN = 1\n")
    (folder / "out").mkdir(exist_ok=True)  # the output inside the bot's folder: never counted
    (folder / "__pycache__").mkdir(exist_ok=True)
    (folder / "__pycache__" / "piece.cpython-311.pyc").write_bytes(b"changes every run")
    greedy = write_bot(tmp_path / "bots" / "other", "greedy.py", stc_bot())
    config = tmp_path / "t.yaml"
    config.write_text(
        textwrap.dedent(
            f"""\
            name: folder-identity
            game: stc
            games: 2
            seed: 5
            sandbox: none
            concurrency: 1
            files: {files}
            settings: {{max_turns: 3}}
            output: {folder / "out"}
            bots:
              - {{name: deep, cmd: python3 {bot}}}
              - {{name: greedy, cmd: python3 {greedy}}}
            """
        )
    )
    return config, piece


def played(out: Path) -> int:
    db = sqlite3.connect(out / "arena.sqlite")
    try:
        return int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    finally:
        db.close()


def test_editing_a_module_next_to_the_bot_makes_its_games_stale_naming_the_file(tmp_path):
    config, piece = write(tmp_path)
    first = arena("run", str(config), "--no-progress")
    assert first.returncode == 0, first.stderr
    again = arena("run", str(config), "--no-progress")  # nothing changed: all resumed
    assert again.returncode == 0, again.stderr
    assert "resuming: 2 of 2 games already stored" in again.stderr
    (piece.parent / "__pycache__" / "piece.cpython-311.pyc").write_bytes(b"recompiled")
    (piece.parent / "notes.txt").with_name(".hidden").write_text("not counted\n")
    assert arena("run", str(config), "--no-progress").returncode == 0  # neither counts
    piece.write_text("COLUMN = 2\n")
    stale = arena("run", str(config), "--no-progress")
    assert stale.returncode == 2, stale.stderr
    assert "2 of the 2 games stored" in stale.stderr
    assert "piece.py in deep's folder changed since the stored games" in stale.stderr
    updated = arena("run", str(config), "--no-progress", "--update")
    assert updated.returncode == 0, updated.stderr
    assert "--update: 0 stored games kept, 2 stale games to play again" in updated.stderr


def test_games_stored_without_a_folder_digest_stay_valid(tmp_path):
    # `files: named` stores identities without the folder (as every game stored before
    # folders counted); the same games under `files: folder` are unknown, not stale.
    config, piece = write(tmp_path, files="named")
    out = piece.parent / "out"
    first = arena("run", str(config), "--no-progress")
    assert first.returncode == 0, first.stderr
    assert played(out) == 2
    config, _ = write(tmp_path, files="folder")
    again = arena("run", str(config), "--no-progress")
    assert again.returncode == 0, again.stderr
    assert "resuming: 2 of 2 games already stored" in again.stderr
    assert played(out) == 2
    board = arena("leaderboard", str(out), "--wide")
    assert board.returncode == 0 and "deep" in board.stdout, board.stderr
