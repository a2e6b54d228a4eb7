"""Hostile bots against the kernel's keyrings: bots of every game run as the same user
(nobody under bubblewrap as root, arena's user otherwise), whose keyring would outlive the
game. A key planted in one game is not readable in a later one, and trying costs nothing
but the failed system call."""

from __future__ import annotations

import platform
import re
import sys
from pathlib import Path

import pytest

from arena.records import BotSpec
from arena.referee.engine import Referee
from support.hostile import MODES, marker, mode_sandbox, write_bot
from support.toygame import ToyGame

NUMBERS = {"x86_64": (248, 250), "aarch64": (217, 219)}  # add_key, keyctl

KEYS = """
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
ADD_KEY, KEYCTL = {numbers}
USER_KEYRING, SESSION_KEYRING = -4, -3
NAME = {name!r}
if sys.argv[1] == "plant":
    for ring in (USER_KEYRING, SESSION_KEYRING):
        key = libc.syscall(ADD_KEY, b"user", NAME.encode(), b"secret", ctypes.c_size_t(6),
                           ctypes.c_int(ring))
        sys.stderr.write(f"planted {{key}} errno {{ctypes.get_errno()}}\\n")
else:
    for ring in (USER_KEYRING, SESSION_KEYRING):
        key = libc.syscall(KEYCTL, 10, ctypes.c_int(ring), b"user", NAME.encode(), 0)
        if key > 0:
            buf = ctypes.create_string_buffer(64)
            size = libc.syscall(KEYCTL, 11, ctypes.c_int(key), buf, ctypes.c_size_t(64))
            sys.stderr.write(f"FOUND {{buf.raw[:max(size, 0)]!r}}\\n")
            libc.syscall(KEYCTL, 3, ctypes.c_int(key))  # revoke it: leave nothing behind
        else:
            sys.stderr.write(f"not found, errno {{ctypes.get_errno()}}\\n")
for line in sys.stdin:
    print(1, flush=True)
"""

QUIET = """
import sys
for line in sys.stdin:
    print(1, flush=True)
"""


def game(tmp_path: Path, mode: str, role: str, source: Path, folder: str):
    bot = BotSpec(role, (sys.executable, str(source), role))
    quiet = BotSpec("quiet", (sys.executable, str(write_bot(tmp_path, "quiet.py", QUIET))))
    referee = Referee(ToyGame(), [bot, quiet], tmp_path / folder, mode_sandbox(mode))
    record = referee.play(1, {"turns": 2, "simultaneous": True})
    return record, (tmp_path / folder / record.seats[0].stderr).read_text()


@pytest.mark.skipif(platform.machine() not in NUMBERS, reason="system call numbers unknown")
@pytest.mark.parametrize("mode", MODES)
def test_a_key_planted_in_one_game_cannot_be_read_in_a_later_game(tmp_path, mode):
    numbers = NUMBERS[platform.machine()]
    source = write_bot(tmp_path, "keys.py", KEYS.format(numbers=numbers, name=marker()))
    planted, plant_log = game(tmp_path, mode, "plant", source, "first")
    # Trying costs the bot nothing but the failed call: the game goes on.
    assert [s.forfeit for s in planted.seats] == [None, None], plant_log
    assert len(re.findall(r"planted", plant_log)) == 2, plant_log
    read, read_log = game(tmp_path, mode, "read", source, "second")
    assert [s.forfeit for s in read.seats] == [None, None], read_log
    assert "FOUND" not in read_log, read_log
    assert len(re.findall(r"not found", read_log)) == 2, read_log
