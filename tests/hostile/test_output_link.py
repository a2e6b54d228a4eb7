"""Hostile bots against the output folder: a bot whose command names its folder through a
symbolic link, with the tournament's output inside that folder, still sees nothing of the
output under bubblewrap (no database, no stderr of its opponents)."""

from __future__ import annotations

import os
import sys

import pytest

from arena.botproc import bwrap_works
from support.hostile import arena, stc_bot, tournament, write_bot

needs_bwrap = pytest.mark.skipif(not bwrap_works(), reason="bubblewrap does not work here")

# Lists what it can reach of the output through the folder its command names.
PEEK = stc_bot(
    """
import os, sys
folder = sys.argv[1]
seen = []
for root, dirs, files in os.walk(os.path.join(folder, "out")):
    seen += [os.path.join(root, f) for f in files]
sys.stderr.write(f"SEEN {sorted(seen)}\\n")
"""
)


@needs_bwrap
def test_a_bot_named_through_a_symlinked_folder_does_not_see_the_output_inside_it(tmp_path):
    real = tmp_path / "real"
    write_bot(real, "peek.py", PEEK)
    link = tmp_path / "link"
    link.symlink_to(real)
    cmd = f"cmd: {sys.executable} {link / 'peek.py'} {link}"
    path = tournament(tmp_path, {"a": cmd, "b": cmd}, sandbox="bwrap", games=2)
    # The output lives inside the bot's folder, named through the link too.
    text = path.read_text().replace(f"output: {tmp_path / 'out'}", f"output: {link / 'out'}")
    path.write_text(text)
    result = arena("run", str(path), "--no-progress")
    assert result.returncode == 0, result.stderr
    stderr_files = sorted((real / "out" / "games").glob("*/stderr-*"))
    assert len(stderr_files) >= 4  # two games, two seats each
    for stderr in stderr_files:
        lines = [x for x in stderr.read_text().splitlines() if x.startswith("SEEN")]
        assert lines == ["SEEN []"], (stderr, lines)
    assert os.path.exists(real / "out" / "arena.sqlite")
