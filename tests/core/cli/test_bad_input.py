"""Bad input through the real CLI: one line naming the file, key and line (or the
argument), exit code 2, and nothing played or created."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from support import REPO

GOOD = """\
name: bad
game: stc
games: 2
seed: 5
settings:
  max_turns: 2
bots:
  - name: a
    cmd: python3 bots/stc/random_bot.py
  - name: b
    cmd: python3 bots/stc/greedy.py
output: {out}
"""


def arena(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The real command, with its temporary folders kept under ``tmp_path/tmp``."""
    tmp = tmp_path / "tmp"
    tmp.mkdir(exist_ok=True)
    env = {**os.environ, "TMPDIR": str(tmp)}
    return subprocess.run(
        [sys.executable, "-m", "arena", *args],
        capture_output=True, text=True, cwd=REPO, env=env, timeout=300,
    )  # fmt: skip


def refused(tmp_path: Path, *args: str) -> str:
    """Run, expect exit 2, one line on stderr, nothing on stdout; return the line."""
    result = arena(tmp_path, *args)
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1, result.stderr
    # Nothing played: no bot ever got a folder, no match folder was made.
    assert [p.name for p in (tmp_path / "tmp").rglob("*")] in ([], ["arena-bots"])
    return result.stderr.rstrip("\n")


def tournament(tmp_path: Path, old: str = "", new: str = "", raw: bytes | None = None) -> Path:
    path = tmp_path / "t.yaml"
    text = GOOD.format(out=tmp_path / "out")
    assert old in text
    path.write_bytes(raw if raw is not None else text.replace(old, new).encode())
    return path


def test_a_file_that_is_not_utf8(tmp_path):
    path = tournament(tmp_path, raw=GOOD.format(out=tmp_path / "out").encode() + b"# caf\xe9\n")
    assert (
        refused(tmp_path, "run", str(path))
        == f"arena: {path} (line 13): not UTF-8 text (byte 0xe9)"
    )
    assert not (tmp_path / "out").exists()


def test_an_output_that_is_a_file(tmp_path):
    (tmp_path / "out").write_text("my notes")
    path = tournament(tmp_path)
    out = tmp_path / "out"
    assert (
        refused(tmp_path, "run", str(path))
        == f"arena: {path}: output (line 12): '{out}' is a file, not a folder"
    )
    assert (
        refused(tmp_path, "run", str(path), "--output", str(out))
        == f"arena: --output: '{out}' is a file, not a folder"
    )
    assert out.read_text() == "my notes"


def test_an_output_that_cannot_be_created(tmp_path):
    (tmp_path / "file").write_text("")
    out = tmp_path / "file" / "out"
    path = tournament(tmp_path, f"output: {tmp_path / 'out'}", f"output: {out}")
    assert (
        refused(tmp_path, "run", str(path))
        == f"arena: {path}: output (line 12): cannot create the folder '{out}': Not a directory"
    )


def test_a_bot_command_that_is_a_folder(tmp_path):
    path = tournament(tmp_path, "cmd: python3 bots/stc/greedy.py", "cmd: bots/stc")
    assert (
        refused(tmp_path, "run", str(path))
        == f"arena: {path}: bots[1].cmd (line 11): is a folder, not a program: 'bots/stc'"
    )
    assert (
        refused(tmp_path, "match", "stc", "bots/stc", "bots/stc")
        == "arena: bot 1 'bots/stc': is a folder, not a program: 'bots/stc'"
    )
    assert not (tmp_path / "out").exists()


def test_a_huge_number_of_games(tmp_path):
    path = tournament(tmp_path, "games: 2", "games: 100000000000")
    assert refused(tmp_path, "run", str(path)) == (
        f"arena: {path}: games (line 3): 100000000000 games per combination make "
        "100000000000 games in all; arena plays at most 2000000 in one round-robin tournament"
    )
    assert refused(tmp_path, "run", str(tournament(tmp_path)), "--games", "2000001") == (
        "arena: --games: 2000001 games per combination make 2000001 games in all; "
        "arena plays at most 2000000 in one round-robin tournament"
    )
    assert refused(
        tmp_path, "match", "splitter", "python3 bots/splitter/planner.py", "--games", "100000000000"
    ) == ("arena: --games 100000000000: arena plays at most 200000 games at once")
    assert not (tmp_path / "out").exists()


def test_a_huge_memory_cap(tmp_path):
    path = tournament(tmp_path, "seed: 5", "seed: 5\nmemory_mb: 99999999999999999999")
    assert (
        refused(tmp_path, "run", str(path))
        == f"arena: {path}: memory_mb (line 5): must be at most 1048576, not 99999999999999999999"
    )
    assert not (tmp_path / "out").exists()


def test_a_yaml_alias_bomb(tmp_path):
    lines = ["lol0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"lol{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]" for i in range(1, 10)]
    bomb = "\n".join(lines) + "\n"
    path = tournament(tmp_path, raw=(GOOD.format(out=tmp_path / "out") + bomb).encode())
    message = refused(tmp_path, "run", str(path))
    assert message.startswith(f"arena: {path}: lol")
    assert message.endswith("more than 100000 values (YAML aliases expanding?)")
    assert not (tmp_path / "out").exists()


def test_yaml_nested_5000_deep(tmp_path):
    raw = GOOD.format(out=tmp_path / "out") + "deep: " + "[" * 5000 + "]" * 5000 + "\n"
    path = tournament(tmp_path, raw=raw.encode())
    assert (
        refused(tmp_path, "run", str(path))
        == f"arena: {path} (line 13): nested more than 32 levels deep"
    )
    # Block style too, and a value that refers to itself.
    # 1000 levels: deep enough, and under the 1 MiB a tournament file may hold.
    raw = GOOD.format(out=tmp_path / "out") + "".join(f"{' ' * i}k{i}:\n" for i in range(1000))
    path = tournament(tmp_path, raw=raw.encode())
    assert (
        refused(tmp_path, "run", str(path))
        == f"arena: {path} (line 45): nested more than 32 levels deep"
    )
    raw = GOOD.format(out=tmp_path / "out") + "loop: &a [*a]\n"
    path = tournament(tmp_path, raw=raw.encode())
    assert refused(tmp_path, "run", str(path)).endswith("nested more than 32 levels deep")


def test_leaderboard_of_something_that_is_not_a_database(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("hello")
    assert (
        refused(tmp_path, "leaderboard", str(notes))
        == f"arena: {notes}: a file, not an arena output folder"
    )
    folder = tmp_path / "fake"
    folder.mkdir()
    (folder / "arena.sqlite").write_text("not sqlite at all, just text" * 10)
    assert (
        refused(tmp_path, "leaderboard", str(folder))
        == f"arena: {folder}/arena.sqlite: not an arena database (file is not a database)"
    )
    assert (
        refused(tmp_path, "leaderboard", str(folder / "arena.sqlite"))
        == f"arena: {folder}/arena.sqlite: not an arena database (file is not a database)"
    )
    assert (folder / "arena.sqlite").read_text().startswith("not sqlite")
    other = tmp_path / "other"
    other.mkdir()
    import sqlite3

    sqlite3.connect(other / "arena.sqlite").execute("CREATE TABLE t (x)").connection.commit()
    assert (
        refused(tmp_path, "leaderboard", str(other))
        == f"arena: {other}/arena.sqlite: not an arena database (no games table)"
    )


def test_export_of_something_that_is_not_a_replay(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("hello\n")
    assert (
        refused(tmp_path, "export", str(notes), "--format", "codeclash")
        == f"arena: {notes} (line 1): not a replay file (invalid JSON: Expecting value)"
    )
    other = tmp_path / "other.json"
    other.write_text('{"name": "not a replay"}')
    assert (
        refused(tmp_path, "export", str(other), "--format", "codeclash")
        == f"arena: {other}: not a replay file (no game, seed, players and steps)"
    )
    binary = tmp_path / "replay.bin"
    binary.write_bytes(b"\x89PNG\r\n")
    assert (
        refused(tmp_path, "export", str(binary), "--format", "codeclash")
        == f"arena: {binary} (line 1): not a replay file (not UTF-8 text: byte 0x89)"
    )


def test_match_output_that_is_a_file(tmp_path):
    out = tmp_path / "out.txt"
    out.write_text("keep me")
    assert (
        refused(
            tmp_path,
            "match",
            "stc",
            "python3 bots/stc/greedy.py",
            "python3 bots/stc/greedy.py",
            "--output",
            str(out),
        )
        == f"arena: --output: '{out}' is a file, not a folder"
    )
    assert out.read_text() == "keep me"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            "[1",
            "arena: --max_turns (line 1): invalid YAML: expected ',' or ']', but got '<stream end>'",
        )
    ],
)
def test_match_setting_that_is_not_yaml(tmp_path, value, message):
    assert (
        refused(
            tmp_path,
            "match",
            "stc",
            "python3 bots/stc/greedy.py",
            "python3 bots/stc/greedy.py",
            "--max_turns",
            value,
        )
        == message
    )
