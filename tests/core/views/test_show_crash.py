"""``arena show`` prints a crashed bot's last stderr lines once: under its step, not again
below its forfeit."""

from __future__ import annotations

import sys

from support import run_arena

CRASH = """\
import sys, time
sys.stdin.readline()
print("thinking", file=sys.stderr, flush=True)
time.sleep(0.05)
raise RuntimeError("boom")
"""


def test_a_crashed_bots_stderr_is_shown_once(tmp_path):
    bot = tmp_path / "crash.py"
    bot.write_text(CRASH)
    out = tmp_path / "out"
    greedy = f"{sys.executable} bots/stc/greedy.py"
    played = run_arena(
        "match", "stc", greedy, f"{sys.executable} {bot}", "--games", "1", "--output", str(out)
    )
    assert played.returncode == 0, played.stderr
    shown = run_arena("show", "1", "--from", str(out), "--step", "1")
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines.count("      stderr: RuntimeError: boom") == 1
    assert sum("RuntimeError: boom" in line for line in lines) == 1, shown.stdout
    forfeit = lines.index("  seat 1 crash FORFEITS: crash: exited with code 1 without answering")
    assert lines[forfeit - 1] == "      stderr: RuntimeError: boom"
    assert lines[forfeit + 1] != "    its stderr ends:"
