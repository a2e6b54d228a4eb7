"""Bot commands: split, their files and folders made absolute, a bot's default name.

A bot runs in its own empty directory, so every word of its command that names a file is
resolved here, once, before any game; the sandbox then shows exactly those files.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
from collections.abc import Sequence
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
    error message when the program (or the script an interpreter runs) is missing or
    cannot be run, naming the places looked in; another word naming a file that does not
    exist (a log the bot will write) is left as written.
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
            if (problem := start_problem(os.path.abspath(found))) is not None:
                return problem
            out.append(os.path.abspath(found))
            continue
        if token.startswith("-") or argv[i - 1] in ("-m", "-c"):
            out.append(token)
            continue
        found = _existing(token, base)
        if found is not None:
            out.append(os.path.abspath(found))
        elif pathlike and _is_script(argv, i):
            return not_found(token, base)
        else:
            out.append(token)  # e.g. a log the bot will write: left as written
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


def _is_script(argv: Sequence[str], i: int) -> bool:
    """Whether ``argv[i]`` is the script an interpreter (``argv[0]``) runs: its first
    argument that is not an option. That one must exist; later words naming files that
    do not exist (yet) are the bot's business."""
    if not INTERPRETER.fullmatch(os.path.basename(argv[0])):
        return False
    return all(word.startswith("-") for word in argv[1:i])


ELF_MAGIC = b"\x7fELF"


def start_problem(program: str) -> str | None:
    """Why the kernel would refuse to run the file ``program``, or None: not found, a
    folder, not executable, a ``#!`` line whose interpreter is missing (or ends in a
    carriage return: Windows line endings), neither a script nor a binary, or a binary
    for another machine. A program on the PATH (no ``/``) is looked up there first."""
    path = program if "/" in program else shutil.which(program)
    if path is None:
        return f"command not found: {program!r}"
    if not os.path.exists(path):
        return f"file not found: {program!r}"
    if os.path.isdir(path):
        return f"is a folder, not a program: {program!r}"
    if not os.access(path, os.X_OK):
        return f"not executable: {program!r} (chmod +x it, or name its interpreter first)"
    try:
        with open(path, "rb") as f:
            head = f.read(512)
    except OSError as exc:
        return f"cannot read {program!r}: {exc.strerror}"
    if head.startswith(b"#!"):
        line = head[2:].split(b"\n", 1)[0]
        if line.endswith(b"\r"):  # the kernel runs "/bin/sh\r", which does not exist
            shown = line.strip().decode("utf-8", "replace")
            return (
                f"bad interpreter: {shown}^M: the file has Windows line endings: "
                f"save {program!r} with Unix line endings (e.g. dos2unix)"
            )
        words = line.split()
        if not words:
            return f"{program!r}: its #! line names no interpreter"
        interpreter = shown = words[0].decode("utf-8", "replace")
        if not os.path.isfile(interpreter):
            return f"bad interpreter: {shown}: not found (the #! line of {program!r})"
        if not os.access(interpreter, os.X_OK):
            return f"bad interpreter: {shown}: not executable (the #! line of {program!r})"
        return None
    if not head.startswith(ELF_MAGIC):
        return f"exec format error: {program!r} is neither a binary nor a script starting with #!"
    machine = int.from_bytes(head[18:20], "little" if head[5:6] == b"\x01" else "big")
    if len(head) >= 20 and (mine := _elf_machine()) is not None and machine != mine:
        return f"exec format error: {program!r} is a binary for another kind of machine"
    return None


def _elf_machine() -> int | None:
    """The ELF machine number of this process's own interpreter (None: unknown)."""
    try:
        with open("/proc/self/exe", "rb") as f:
            head = f.read(20)
    except OSError:
        return None
    if not head.startswith(ELF_MAGIC) or len(head) < 20:
        return None
    return int.from_bytes(head[18:20], "little" if head[5] == 1 else "big")


def _existing(token: str, base: Path) -> Path | None:
    """``token`` as a path that exists, relative to the current folder, else to ``base``."""
    for path in (Path(token), base / token):
        try:
            if path.exists():
                return path
        except OSError:  # e.g. a name too long to be a path
            return None
    return None


INTERPRETER = re.compile(
    r"(python|pypy|node|nodejs|deno|bun|ruby|perl|php|java|lua|luajit|Rscript|julia|dotnet"
    r"|mono|elixir|escript|ocaml|racket|guile|sbcl|swipl|tclsh|awk|gawk|sh|bash|dash|zsh|ksh)"
    r"[0-9.]*(\.exe)?"
)
"""Programs that run a script: a command starting with one runs the script it names."""


def bot_folder(argv: Sequence[str]) -> str | None:
    """The folder of the program a bot command runs (None: none is a file of its own).

    That is the folder of the script an interpreter runs (``bots/x`` for ``python3
    bots/x/bot.py``, the first file argument that is not an option's or ``-m``'s), else
    of the program itself when it is a file (``bin`` for ``./bin/bot``). ``argv`` is as
    :func:`resolve_command` returns it: file words absolute.
    """
    program = argv[0]
    if not INTERPRETER.fullmatch(os.path.basename(program)):
        return os.path.dirname(program) if os.path.isabs(program) else None
    for i, arg in enumerate(argv[1:], start=1):
        if argv[i - 1] in ("-m", "-c"):
            return None  # a module or inline code: no script of its own
        if os.path.isabs(arg) and os.path.isfile(arg):
            return os.path.dirname(os.path.realpath(arg))
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


def bot_file(argv: tuple[str, ...]) -> str:
    """The file a bot's default name comes from: the first file its command names after
    the program (``python3 det_bot.py mirror``: ``det_bot.py``), else the program itself
    when it is a file, else the command's last word."""
    files = [a for a in argv[1:] if os.path.isabs(a) and os.path.isfile(a)]
    if files:
        return files[0]
    if os.path.isabs(argv[0]):
        return argv[0]
    return argv[-1]


def default_name(argv: tuple[str, ...]) -> str:
    """A bot's display name when none is given and no other bot's collides with it: the
    stem of its :func:`bot_file` (``python3 det_bot.py mirror`` is ``det_bot``)."""
    return Path(bot_file(argv)).stem


def default_names(given: Sequence[str | None], files: Sequence[str]) -> list[str]:
    """The names of bots in seat order: each given name as it is; else the stem of the
    bot's file (``files[i]``, see :func:`bot_file`, or a source file); where two bots'
    stems collide, their file names (``mybot.py`` and ``mybot.cpp``); where that still
    collides (the same file twice), ``'`` added until the name is free (``mybot``,
    ``mybot'``). Given names that collide are left for the caller to refuse."""
    stems = [Path(f).stem for f in files]
    out: list[str] = []
    for i, name in enumerate(given):
        if name:
            out.append(name)
            continue
        rivals = {
            Path(files[j]).name for j in range(len(files)) if not given[j] and stems[j] == stems[i]
        }
        name = stems[i] if len(rivals) == 1 else Path(files[i]).name
        while name in out or name in given:
            name += "'"
        out.append(name)
    return out
