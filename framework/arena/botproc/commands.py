"""Bot commands: split, their files and folders made absolute, a bot's default name.

A bot runs in its own empty directory, so every word of its command that names a file is
resolved here, once, before any game; the sandbox then shows exactly those files.
"""

from __future__ import annotations

import os
import shlex
import shutil
from pathlib import Path

PATH_SUFFIXES = (".py", ".sh", ".js")
"""A command's first word with one of these endings is a file, not a program on the PATH."""


def resolve_command(cmd: str, base: Path) -> tuple[str, ...] | str:
    """Split a bot command and make every word naming a file or folder absolute.

    Bots run in their own empty directory, so a relative path (``bots/stc/greedy.py``,
    ``bot.rb``, the ``bin`` of ``java -cp bin Main``) is resolved against the current
    directory, else against ``base`` (the YAML file's folder): :func:`resolve_path`. The
    first word is a program on the PATH unless it holds a ``/`` or ends in .py/.sh/.js;
    options (``-x``) and the module after ``-m`` are left alone. Returns the argv, or an
    error message when the program or a file is missing (naming the places looked in).
    """
    try:
        argv = shlex.split(cmd)
    except ValueError as exc:
        return f"cannot split the command: {exc}"
    if not argv:
        return "empty command"
    out = []
    for i, token in enumerate(argv):
        pathlike = "/" in token or token.endswith(PATH_SUFFIXES)
        if i == 0:
            if not pathlike:
                if shutil.which(token) is None:
                    return f"command not found: {token!r}"
                out.append(token)
                continue
            found = _existing(token, base)
            if found is None:
                return not_found(token, base)
            if found.is_dir():
                return f"is a folder, not a program: {token!r}"
            if not os.access(found, os.X_OK):
                return f"not executable: {token!r}"
            out.append(os.path.abspath(found))
            continue
        if token.startswith("-") or argv[i - 1] in ("-m", "-c"):
            out.append(token)
            continue
        found = _existing(token, base)
        if found is not None:
            out.append(os.path.abspath(found))
        elif pathlike:
            return not_found(token, base)
        else:
            out.append(token)
    return tuple(out)


def resolve_path(token: str, base: Path) -> Path:
    """A relative path of a tournament file, the one rule for all of them (bot files,
    ``output``): the path from the current folder when it exists there, else from ``base``
    (the file's folder) when it exists there, else as written (from the current folder).
    An absolute path is itself."""
    return _existing(token, base) or Path(token)


def looked_in(token: str, base: Path) -> list[str]:
    """The absolute paths :func:`resolve_path` tries for ``token``, in order."""
    places = [os.path.abspath(token), os.path.abspath(base / token)]
    return list(dict.fromkeys(places))


def not_found(token: str, base: Path) -> str:
    """The error for a missing file, naming where it was looked for."""
    return f"file not found: {token!r} (looked for {' then '.join(looked_in(token, base))})"


def _existing(token: str, base: Path) -> Path | None:
    """``token`` as a path that exists, relative to the current folder, else to ``base``."""
    for path in (Path(token), base / token):
        try:
            if path.exists():
                return path
        except OSError:  # e.g. a name too long to be a path
            return None
    return None


def named_files(cmd: str, argv: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """The words of ``cmd`` (as written) that :func:`resolve_command` found on disk, with
    their absolute paths: the bot's script and any other file or folder argument."""
    words = shlex.split(cmd)
    out = []
    for i, (word, resolved) in enumerate(zip(words, argv, strict=True)):
        if i == 0 and resolved == word and not os.path.isabs(word):
            continue  # a program found on the PATH (python3, java...)
        if os.path.isabs(resolved) and os.path.exists(resolved):
            out.append((word, resolved))
    return tuple(out)


def default_name(argv: tuple[str, ...]) -> str:
    """A bot's display name when none is given: the stem of the first file its command
    names after the program (``python3 det_bot.py mirror`` is ``det_bot``), else of the
    program itself when it is a file, else the command's last word."""
    files = [a for a in argv[1:] if os.path.isabs(a) and os.path.isfile(a)]
    if files:
        return Path(files[0]).stem
    if os.path.isabs(argv[0]):
        return Path(argv[0]).stem
    return Path(argv[-1]).stem
