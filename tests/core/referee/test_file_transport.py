"""The per-turn file transport: state file in, move file and exit code out, limits enforced."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.botproc import Sandbox, bwrap_works
from arena.referee.engine import Referee
from support.toygame import FileToyGame

SANDBOXES = [Sandbox("none")] + ([Sandbox("bwrap")] if bwrap_works() else [])

GOOD = """
import os, sys
state = open(sys.argv[1]).read()
assert os.path.dirname(os.path.abspath(sys.argv[1])) == os.getcwd()
open("move.json", "w").write("{answer}")
"""


def play(bots, tmp_path: Path, sandbox: Sandbox | None = None, turns: int = 2):
    game = FileToyGame()
    settings = {**game.info.settings, "turns": turns, "simultaneous": False}
    return Referee(game, bots, tmp_path / "game", sandbox or Sandbox("none")).play(3, settings)


@pytest.mark.parametrize("sandbox", SANDBOXES, ids=lambda s: s.kind)
def test_each_turn_starts_the_bot_with_the_state_file_and_reads_move_json(
    make_bot, tmp_path, sandbox
):
    memory = make_bot(
        "memory",
        """
        import os, sys
        seen = open(sys.argv[1]).read()
        # The directory lives for the whole game: count turns in one extra file.
        n = int(open("count.txt").read()) if os.path.exists("count.txt") else 0
        open("count.txt", "w").write(str(n + 1))
        open("move.json", "w").write(str(n + 1))
        """,
    )
    record = play([memory, memory], tmp_path, sandbox, turns=3)
    assert [s.forfeit for s in record.seats] == [None, None]
    assert [s.score for s in record.seats] == [6, 6]  # 1 + 2 + 3: the directory was kept
    replay = json.loads((tmp_path / "game" / "replay.json").read_text())
    assert replay["steps"][0]["io"]["0"]["input"] == "turn 0\n"
    assert replay["steps"][0]["moves"] == {"0": "1"}


EXIT_CASES = [
    ("raise SystemExit(1)", "invalid", "exited with code 1 (invalid json)"),
    ("raise SystemExit(2)", "illegal", "exited with code 2 (illegal move)"),
    ("raise SystemExit(3)", "crash", "exited with code 3 (internal error)"),
    ("raise SystemExit(7)", "crash", "exited with code 7"),
    (
        "import json; json.loads('{')",
        "invalid",
        "exited with code 1 (invalid json); its stderr ends:\n"
        "  json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
    ),
    ("pass", "invalid", "exited 0 without writing move.json"),
    ("open('move.json', 'w').write('x')", "invalid", "expected a whole number"),
    ("import time; time.sleep(10)", "timeout", "still running after 3000 ms"),
    (
        "open('a', 'w').write('1'); open('b', 'w').write('2'); open('move.json', 'w').write('1')",
        "invalid",
        "2 extra files in the bot directory (at most 1): a, b",
    ),
    (
        "open('big', 'w').write('1' * 999); open('move.json', 'w').write('1' * 2000)",
        "invalid",
        "move.json is 1001 bytes (at most 1000)",
    ),
]


@pytest.mark.parametrize(("body", "reason", "detail"), EXIT_CASES)
def test_exit_codes_missing_files_timeouts_and_file_limits_lose_with_their_reason(
    make_bot, tmp_path, body, reason, detail
):
    good = make_bot("good", GOOD.format(answer="1"))
    bad = make_bot("bad", body)
    record = play([good, bad], tmp_path)
    assert record.seats[1].forfeit == reason
    # A crash's detail ends with its stderr's last lines (here a traceback's last line).
    got, want = record.seats[1].detail.splitlines(), detail.splitlines()
    assert [got[0], *got[len(got) - len(want) + 1 :]] == want
    assert record.seats[0].forfeit is None
    assert [s.rank for s in record.seats] == [0, 1]
