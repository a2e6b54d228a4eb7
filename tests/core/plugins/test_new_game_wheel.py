"""A wheel built from ``arena new-game``'s package holds the game's viewer (package data)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from arena.plugins.scaffold import write_plugin


def test_a_wheel_of_a_new_game_contains_its_renderer(tmp_path):
    target = tmp_path / "tictac"
    write_plugin("tictac", target)
    assert (target / "src" / "tictac" / "viewer.js").is_file()
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path / "dist"),
         str(target)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = (tmp_path / "dist").glob("arena_tictac-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "tictac/viewer.js" in names
    assert {"tictac/game.py", "tictac/plugin.py"} <= set(names)


def test_the_new_games_viewer_draws_its_board_from_the_package(tmp_path):
    sys.path.insert(0, str(_plugin(tmp_path) / "src"))
    try:
        from tictac.game import TictacGame  # type: ignore[import-not-found]

        script = TictacGame().renderer_script()
        assert script is not None and "function render(view, host, ctx)" in script
        game = TictacGame()
        state = game.start(1, 2, game.info.settings)
        state = game.apply(state, {0: (1, 2)})
        assert game.view(state)["highlight"] == [{"kind": "move", "cells": [[1, 2]]}]
    finally:
        sys.path.remove(str(tmp_path / "tictac" / "src"))
        for name in [m for m in sys.modules if m == "tictac" or m.startswith("tictac.")]:
            del sys.modules[name]


def _plugin(tmp_path: Path) -> Path:
    target = tmp_path / "tictac"
    write_plugin("tictac", target)
    return target
