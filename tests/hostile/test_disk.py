"""Hostile bots against the host's disk: what a bot writes (its directory, /tmp, /dev/shm)
is capped by ``disk_mb`` in all, however fast it reserves space, and a bot that dies on
the cap loses for ``memory`` with the reason (its files are tmpfs, memory)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from arena.botproc.sandboxes.none import private_dirs_supported
from arena.records import BotSpec
from arena.referee.engine import Referee
from support.hostile import MODES, mode_sandbox, write_bot
from support.toygame import ToyGame

# Reserves 32 MiB blocks (posix_fallocate: real space, at once) in each writable place,
# 256 MiB at most per place; {careful}: go on after a refusal, else die of it.
FILL = """
import os, sys
sys.stdin.readline()
total = 0
for where in (".", "/tmp", "/dev/shm"):
    for i in range(8):
        try:
            fd = os.open(f"{{where}}/fill{{i}}", os.O_CREAT | os.O_WRONLY, 0o600)
            os.posix_fallocate(fd, 0, 32 << 20)
        except OSError:
            if {careful}:
                break
            raise
        total += 32
        sys.stderr.write(f"reserved {{total}} MiB\\n")
        sys.stderr.flush()
print(1, flush=True)
for line in sys.stdin:
    print(1, flush=True)
"""

QUIET = """
import sys
for line in sys.stdin:
    print(1, flush=True)
"""

CAP_MB = 64


def play(tmp_path: Path, mode: str, careful: bool):
    source = write_bot(tmp_path, "fill.py", FILL.format(careful=careful))
    hog = BotSpec("hog", (sys.executable, str(source)))
    quiet = BotSpec("quiet", (sys.executable, str(write_bot(tmp_path, "quiet.py", QUIET))))
    sandbox = mode_sandbox(mode, disk_mb=CAP_MB)
    record = Referee(ToyGame(), [hog, quiet], tmp_path / "game", sandbox).play(
        1, {"turns": 2, "simultaneous": True}
    )
    log = (tmp_path / "game" / record.seats[0].stderr).read_text()
    reserved = [int(n) for n in re.findall(r"reserved (\d+) MiB", log)]
    return record, log, max(reserved, default=0)


def capped(mode: str) -> bool:
    return mode == "bwrap" or private_dirs_supported() is not None


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_that_fills_its_disk_cap_loses_for_memory_with_the_reason(tmp_path, mode):
    if not capped(mode):
        pytest.skip("no mount namespace here: files are not capped (see docs/sandbox.md)")
    record, log, reserved = play(tmp_path, mode, careful=False)
    # Its directory and /tmp share one cap: the first refusal comes within it.
    assert reserved <= CAP_MB, log
    seat = record.seats[0]
    assert seat.forfeit == "memory", (seat.detail, log)
    assert f"filled its disk cap ({CAP_MB} MiB)" in seat.detail
    assert "No space left on device" in seat.detail
    assert record.seats[1].rank == 0


@pytest.mark.parametrize("mode", MODES)
def test_everything_a_bot_writes_stays_within_its_caps_and_the_game_goes_on(tmp_path, mode):
    if not capped(mode):
        pytest.skip("no mount namespace here: files are not capped (see docs/sandbox.md)")
    record, log, reserved = play(tmp_path, mode, careful=True)
    # Its directory with /tmp, then /dev/shm: one cap each, not a host's disk.
    assert reserved <= 2 * CAP_MB, log
    assert [s.forfeit for s in record.seats] == [None, None], log
