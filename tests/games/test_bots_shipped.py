"""Shipped bots are single stdlib-only files a user can submit to the original contest."""

from __future__ import annotations

import ast
import sys

import pytest

from support import REPO

BOTS = sorted((REPO / "bots").rglob("*.py"))


def test_every_game_ships_bots():
    assert {p.parent.name for p in BOTS} == {"stc", "splitter", "blocking", "chess5", "cluster"}


@pytest.mark.parametrize("path", BOTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_bot_is_one_stdlib_only_file_that_shadows_no_module(path):
    # A bot named like a standard module (random.py) would be imported by its siblings.
    assert path.stem not in sys.stdlib_module_names
    tree = ast.parse(path.read_text())
    assert ast.get_docstring(tree), "say what the bot does"
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "relative import: a bot must be a single file"
            names = [node.module or ""]
        else:
            continue
        for name in names:
            assert name.split(".")[0] in sys.stdlib_module_names, f"imports {name}"
    assert path.read_text().startswith("#!/usr/bin/env python3\n")
