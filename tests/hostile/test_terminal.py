"""A bot's message, answer and stderr never reach the user's terminal as control sequences:
``arena match --verbose`` and ``arena show`` print them escaped (``\\x1b`` as text), while
the replay file keeps what the bot wrote."""

from __future__ import annotations

import json
import sys

import pytest

from arena.text import safe_text, shown, shown_line
from support.hostile import MODES, arena, stc_bot, write_bot

CLEAR = "\x1b[2J"  # clear the screen
TITLE = "\x1b]0;pwned\x07"  # set the window title
CLIPBOARD = "\x1b]52;c;cm0gLXJmIH4=\x07"  # OSC 52: write the clipboard
SEQUENCES = CLEAR + TITLE + CLIPBOARD

# An answer whose message carries every sequence; the same on stderr.
INJECTOR = stc_bot(
    per_turn=f"""
    sys.stderr.write({SEQUENCES!r} + "\\n")
    sys.stderr.flush()
    print(f"{{turn % 6}} 1 {SEQUENCES}", flush=True)
    turn += 1
    continue
"""
)


def no_control(text: str) -> None:
    for ch in ("\x1b", "\x07"):
        assert ch not in text


@pytest.mark.parametrize("mode", MODES)
def test_match_verbose_and_show_print_control_characters_escaped(tmp_path, mode):
    bot = write_bot(tmp_path, "injector.py", INJECTOR)
    out = tmp_path / "out"
    result = arena(
        "match",
        "stc",
        f"{sys.executable} {bot}",
        f"{sys.executable} {bot}",
        "--verbose",
        "--sandbox",
        mode,
        "--max_turns",
        "2",
        "--output",
        str(out),
    )
    assert result.returncode == 0, result.stderr
    no_control(result.stdout)
    no_control(result.stderr)
    assert "message: \\x1b[2J\\x1b]0;pwned\\x07" in result.stdout
    assert "stderr: \\x1b[2J" in result.stdout
    # The replay keeps the bytes the bot wrote.
    replay_path = next(out.glob("games/*/replay.json"))
    replay = json.loads(replay_path.read_text())
    step = replay["steps"][0]
    assert step["messages"]["0"] == SEQUENCES[:40]  # messages keep 40 characters
    assert SEQUENCES in step["io"]["0"]["stderr"]
    shown = arena("show", str(replay_path))
    assert shown.returncode == 0, shown.stderr
    no_control(shown.stdout)
    assert "message: \\x1b[2J" in shown.stdout
    assert "stderr: \\x1b[2J\\x1b]0;pwned\\x07" in shown.stdout


def test_shown_text_keeps_tab_and_newline_and_escapes_the_rest():
    assert shown("a\tb\nc\x1b[2J\x07\x9b\u202e") == "a\tb\nc\\x1b[2J\\x07\\x9b\\u202e"
    assert shown_line("a\nb") == "a\\nb"
    name = b"bad-\xff".decode("utf-8", "surrogateescape")  # as os.listdir gives it
    assert safe_text(name) == "bad-\\xff"
    safe_text(name).encode("utf-8")  # storable
