"""The run's control file, ``OUTPUT/control.json``: how ``arena serve`` pauses a run.

``{"paused": true}`` holds back every game not yet started (games already running end
and are stored); ``{"paused": false}``, or no file, lets the run go on. The run reads it
before starting each game (:func:`wait_while_paused`); a stop signal (Ctrl-C) ends the
wait at once.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

CONTROL_NAME = "control.json"
POLL_S = 0.25
"""How often a paused run looks at the control file again."""


@dataclass(frozen=True)
class Control:
    """What the control file asks of the run."""

    paused: bool = False


def read_control(output: Path) -> Control:
    """The control file of ``output``; a missing or unreadable one asks nothing."""
    try:
        data = json.loads((output / CONTROL_NAME).read_text("utf-8"))
    except (OSError, ValueError):
        return Control()
    return Control(paused=isinstance(data, dict) and data.get("paused") is True)


def write_control(output: Path, control: Control) -> None:
    """Write the control file atomically (a reader sees the old file or the new one)."""
    tmp = output / f".{CONTROL_NAME}.{os.getpid()}.tmp"
    tmp.write_text(json.dumps({"paused": control.paused}) + "\n", encoding="utf-8")
    os.replace(tmp, output / CONTROL_NAME)


def wait_while_paused(
    output: Path,
    stopped: Callable[[], bool],
    sleep: Callable[[float], None] = time.sleep,
    say: Callable[[str], None] | None = None,
) -> bool:
    """Wait while the control file asks for a pause; ``False`` when ``stopped()`` became
    true during the pause (start no more games), else ``True`` (at once when not paused).
    A pause is said once through ``say`` (a pause left by a server that was killed would
    otherwise hold the run back silently)."""
    told = False
    while read_control(output).paused:
        if stopped():
            return False
        if say is not None and not told:
            say(
                f"arena: paused by {output / CONTROL_NAME} (arena serve's pause): no new game "
                "starts until it is resumed (delete the file to go on)"
            )
            told = True
        sleep(POLL_S)
    return True
