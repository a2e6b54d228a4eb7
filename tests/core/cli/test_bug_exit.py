"""An arena bug (an exception arena did not expect) exits 70 with one line that names it
and the file holding its whole traceback; never a traceback on the terminal."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

# A real `arena games` whose command raises what no arena code expects.
BUGGY = """
import sys
import arena.cli.games as games
from arena.cli.main import main

def broken(args, extra):
    return {}["no such key"]

games.cmd_games = broken
sys.exit(main(["games"]))
"""


def test_an_unexpected_exception_exits_70_with_one_line_and_a_saved_traceback(tmp_path):
    result = subprocess.run(
        [sys.executable, "-c", BUGGY],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "TMPDIR": str(tmp_path)},
    )
    assert result.returncode == 70
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    found = re.fullmatch(
        r"arena: bug: KeyError: 'no such key' \(traceback saved in (\S+); please report it\)",
        lines[0],
    )
    assert found, lines[0]
    saved = Path(found.group(1))
    assert saved.parent == tmp_path
    text = saved.read_text()
    assert "Traceback (most recent call last)" in text and "def broken" not in result.stderr
    assert 'File "<string>", line 7, in broken' in text and "KeyError" in text
