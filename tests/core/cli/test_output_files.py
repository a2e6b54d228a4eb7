"""Files a command was told to write (``report -o``, ``view -o``, ``export --out``): a path
that exists and is not a regular file, or whose folder does not exist, is one line and
exit 2, and nothing is written (a device stays a device, no folder is created)."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

from support import run_arena


@pytest.fixture
def out(tournament: Path, tmp_path: Path) -> Path:
    """A copy of the session's stored tournament (the commands write viewers into it)."""
    copy = tmp_path / "out"
    shutil.copytree(tournament, copy)
    return copy


def _commands(out: Path, target: Path) -> list[tuple[str, ...]]:
    replay = str(next(out.glob("games/*/replay.json")))
    return [
        ("report", str(out), "-o", str(target)),
        ("view", replay, "-o", str(target)),
        ("export", "1", "--from", str(out), "--format", "codeclash", "--out", str(target)),
    ]


def _refused(args: tuple[str, ...]) -> str:
    result = run_arena(*args)
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1, result.stderr
    return result.stderr.rstrip("\n")


def test_a_fifo_or_folder_as_the_output_file_is_refused_and_left_alone(out, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for args in _commands(out, fifo):
        option = args[-2]
        assert _refused(args) == (
            f"arena: {option} {fifo}: {str(fifo)!r} is not a regular file: name a file to write"
        )
        assert stat.S_ISFIFO(fifo.stat().st_mode)
    folder = tmp_path / "folder"
    folder.mkdir()
    line = _refused(("report", str(out), "-o", str(folder)))
    assert line == f"arena: -o {folder}: {str(folder)!r} is a folder: name a file to write"


def test_a_device_as_the_output_file_is_refused_and_stays_a_device(out):
    full = Path("/dev/full")
    if not full.exists() or not stat.S_ISCHR(full.stat().st_mode):
        pytest.skip("no /dev/full here")
    line = _refused(("report", str(out), "-o", str(full)))
    assert line == "arena: -o /dev/full: '/dev/full' is not a regular file: name a file to write"
    assert stat.S_ISCHR(full.stat().st_mode)


def test_an_output_file_in_a_missing_folder_creates_no_folder(out, tmp_path):
    target = tmp_path / "missing" / "dir" / "x.html"
    for args in _commands(out, target):
        option = args[-2]
        assert _refused(args) == (
            f"arena: {option} {target}: the folder {str(target.parent)!r} does not exist: "
            "create it first"
        )
    assert not (tmp_path / "missing").exists()


def test_a_report_file_that_is_a_folder_in_the_output_folder_is_refused(out):
    (out / "report.html").unlink()
    (out / "report.html").mkdir()
    line = _refused(("report", str(out)))
    where = out / "report.html"
    assert line == f"arena: {where}: {str(where)!r} is a folder: name a file to write"
