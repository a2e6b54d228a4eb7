"""A league's roster changes, ``OUTPUT/roster.json``: bots added to or retired from a
league while it runs (``arena bot add|retire OUTPUT ...``, or ``arena serve``'s page).

The tournament file stays as the user wrote it; the roster file is laid over it each
time the file is read (:func:`arena.tournament.config.load_tournament`): its added bots
join the file's ``bots`` (checked the same way: names, commands, sources), its retired
bots stay on the leaderboard with the games they played but are given no new game. A
running league looks at the file between rounds (:func:`roster_stamp`): when it
changed, the run takes the new roster up at once (games running end and are stored,
nothing is replayed) and goes on.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.errors import ConfigError

ROSTER_NAME = "roster.json"


@dataclass(frozen=True)
class Roster:
    """Bots added (each a tournament file's ``bots`` entry) and names retired."""

    added: tuple[dict[str, Any], ...] = ()
    retired: tuple[str, ...] = field(default_factory=tuple)

    def to_json(self) -> str:
        """The file's text."""
        return json.dumps({"added": list(self.added), "retired": list(self.retired)}, indent=2)


def read_roster(output: Path) -> Roster:
    """The roster file of ``output`` (none: no change); :class:`ConfigError` naming the
    file when it is not a roster."""
    path = output / ROSTER_NAME
    try:
        text = path.read_text("utf-8")
    except (FileNotFoundError, NotADirectoryError):
        return Roster()  # no roster (or no folder yet: the output's own checks say why)
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read the roster: {exc}") from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ConfigError(f"{path}: not a roster (JSON): {exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: not a roster: must be a mapping {{added, retired}}")
    added, retired = data.get("added", []), data.get("retired", [])
    if not isinstance(added, list) or not all(isinstance(b, dict) for b in added):
        raise ConfigError(
            f"{path}: `added` must be a list of bots ({{name, cmd}} or {{name, source}})"
        )
    if not isinstance(retired, list) or not all(isinstance(n, str) for n in retired):
        raise ConfigError(f"{path}: `retired` must be a list of bot names")
    return Roster(tuple(added), tuple(retired))


def write_roster(output: Path, roster: Roster) -> None:
    """Write the roster file atomically (a reader sees the old roster or the new one)."""
    tmp = output / f".{ROSTER_NAME}.{os.getpid()}.tmp"
    tmp.write_text(roster.to_json() + "\n", encoding="utf-8")
    os.replace(tmp, output / ROSTER_NAME)


def roster_stamp(output: Path) -> tuple[int, int] | None:
    """What changes when the roster file is written again (None: no file)."""
    try:
        st = (output / ROSTER_NAME).stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_ino
