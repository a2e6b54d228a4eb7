"""What docs/sandbox.md says of a bot's bytes that are not UTF-8: the replay stores each
bad byte as U+FFFD, in its answer's message and its stderr, next to the valid text."""

from __future__ import annotations

import json
import sys

from support import REPO
from support.hostile import arena, stc_bot, write_bot

# Valid text around two bytes that are not UTF-8, on stdout (the message) and stderr.
BAD_BYTES = stc_bot(
    per_turn="""
    sys.stderr.buffer.write(b"pre\\xff\\xfepost\\n")
    sys.stderr.flush()
    sys.stdout.buffer.write(f"{turn % 6} 1 ok\\xff\\xfeok\\n".encode("latin-1"))
    sys.stdout.flush()
    turn += 1
    continue
"""
)


def test_bytes_that_are_not_utf8_are_stored_as_replacement_characters(tmp_path):
    bot = write_bot(tmp_path, "bytes.py", BAD_BYTES)
    out = tmp_path / "out"
    result = arena(
        "match", "stc", f"{sys.executable} {bot}", f"{sys.executable} {REPO}/bots/stc/greedy.py",
        "--sandbox", "none", "--max_turns", "2", "--output", str(out),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    replay = json.loads(next(out.glob("games/*/replay.json")).read_text(encoding="utf-8"))
    seat = next(i for i, name in enumerate(replay["players"]) if name == "bytes")
    step = replay["steps"][0]
    assert step["messages"][str(seat)] == "ok\ufffd\ufffdok"
    assert "pre\ufffd\ufffdpost\n" in step["io"][str(seat)]["stderr"]
    doc = (REPO / "docs" / "sandbox.md").read_text()
    assert "are stored as\nU+FFFD" in doc
