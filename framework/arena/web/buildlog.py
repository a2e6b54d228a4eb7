"""A bot's build as its page shows it: the language, the source (or custom build command)
as written, and the build's log, bounded, with the machine's paths left out.

``arena run`` records each bot built from source in the store's meta (``builds``: its
language, source and the folder of its build, see
:func:`arena.tournament.builds.build_records`); the log is that folder's ``build.log``.
In the text shown, the build's folder reads ``OUTPUT`` and the user's home ``~``.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from typing import Any

LOG_NAME = "build.log"
MAX_LOG_BYTES = 32 * 1024
"""The start of a build log a page shows (compilers say what matters first)."""
BUILD_FOLDER = "OUTPUT"
"""What the build's folder reads as in a shown log."""


@dataclass(frozen=True)
class BuildShown:
    """A bot's build on its page: ``log`` is the start of its text, ``cut`` the bytes left
    out after it; ``note`` says why there is no log."""

    language: str
    source: str
    log: str = ""
    cut: int = 0
    note: str = ""


def _replace_path(text: str, path: str, shown: str) -> str:
    """``text`` with every mention of the folder ``path`` (not a longer name) as ``shown``."""
    if len(path) < 2:
        return text
    return re.sub(re.escape(path.rstrip("/")) + r"(?![\w.-])", shown, text)


def without_paths(text: str, folder: str = "") -> str:
    """``text`` with the build's ``folder`` (as given and resolved) read as ``OUTPUT`` and
    the home folder as ``~``."""
    for path in dict.fromkeys([folder, os.path.realpath(folder)] if folder else []):
        text = _replace_path(text, path, BUILD_FOLDER)
    home = os.path.expanduser("~")
    for path in dict.fromkeys([home, os.path.realpath(home)]):
        text = _replace_path(text, path, "~")
    return text


def _read_log(folder: str) -> tuple[str, int] | None:
    """The start of ``folder/build.log`` and the bytes after it; ``None`` when it is not a
    regular file that can be read (never followed through a link)."""
    try:
        fd = os.open(os.path.join(folder, LOG_NAME), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as log:
        info = os.fstat(log.fileno())
        if not stat.S_ISREG(info.st_mode):
            return None
        data = log.read(MAX_LOG_BYTES)
    return data.decode("utf-8", errors="replace"), max(0, info.st_size - len(data))


def build_shown(meta: dict[str, Any], bot: str) -> BuildShown | None:
    """How ``bot`` was built, from the store's ``meta``; ``None`` for a bot run by a
    command (or a store written before builds were recorded)."""
    builds = meta.get("builds")
    one = builds.get(bot) if isinstance(builds, dict) else None
    if not isinstance(one, dict):
        return None
    folder = str(one.get("folder") or "")
    shown = BuildShown(str(one.get("language", "")), without_paths(str(one.get("source", ""))))
    if not folder or not os.path.isabs(folder):
        return BuildShown(
            shown.language, shown.source, note="nothing to build: it runs from its source"
        )
    found = _read_log(folder)
    if found is None:
        note = "its build log is gone (the build cache was cleared since)"
        return BuildShown(shown.language, shown.source, note=note)
    text, cut = found
    if not text:
        return BuildShown(shown.language, shown.source, note="the build wrote nothing")
    return BuildShown(shown.language, shown.source, without_paths(text, folder), cut)
