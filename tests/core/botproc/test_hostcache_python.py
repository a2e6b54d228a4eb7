"""What a sandbox shows a Python bot of its interpreter is asked once, then cached until
the interpreter's files change; a script that runs another Python is asked every time."""

from __future__ import annotations

import os
import sys

import pytest

from arena import hostcache
from arena.botproc.sandboxes import view
from arena.botproc.sandboxes.view import ask_python as _ask_python


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("ARENA_NO_HOST_CACHE", raising=False)
    return tmp_path / "cache" / "arena"


class Asked:
    """``_ask_python``, counting its calls."""

    def __init__(self) -> None:
        self.paths: list[str] = []

    def __call__(self, path: str):
        self.paths.append(path)
        return _ask_python(path)


def test_an_interpreters_answer_is_asked_once_then_cached(cache_home, tmp_path):
    python = tmp_path / "bin" / "python3"
    python.parent.mkdir()
    python.symlink_to(os.path.realpath(sys.executable))
    asked = Asked()
    first = view.python_install(str(python), asked)
    assert first is not None and asked.paths == [str(python)]
    assert view.python_install(str(python), asked) == first
    assert asked.paths == [str(python)]  # the second answer came from the cache
    # A virtual environment made there since: its prefix changes, so it is asked again.
    (tmp_path / "pyvenv.cfg").write_text(f"home = {os.path.dirname(sys.executable)}\n")
    again = view.python_install(str(python), asked)
    assert len(asked.paths) == 2
    assert again is not None and str(tmp_path) in again[1]


def test_a_script_running_another_python_is_never_cached(cache_home, tmp_path):
    shim = tmp_path / "python3"
    shim.write_text(f'#!/bin/sh\nexec {os.path.realpath(sys.executable)} "$@"\n')
    shim.chmod(0o755)
    asked = Asked()
    for _ in range(2):
        assert view.python_install(str(shim), asked) is not None
    assert len(asked.paths) == 2


def test_a_foreign_cache_entry_is_not_trusted(cache_home, tmp_path):
    python = tmp_path / "python3"
    python.symlink_to(os.path.realpath(sys.executable))
    key = view.python_key(str(python))
    hostcache.write_entry(key, {"python": "not a pair of paths"})
    asked = Asked()
    assert view.python_install(str(python), asked) is not None
    assert len(asked.paths) == 1
