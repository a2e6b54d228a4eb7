"""What a sandboxed bot is shown of the host for its command: the program, the files its
arguments name, its own folder, a Python's installation (asked once, then cached in
:mod:`arena.hostcache`), and where a hidden folder shows anyway. Shared by the backends.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Sequence

from arena import hostcache
from arena.botproc.commands import bot_folder
from arena.botproc.launcher import PRIVATE_DIRS
from arena.botproc.sandboxes.base import SYSTEM_DIRS, Sandbox, inside


def command_view(
    argv: Sequence[str], workdir: str, sandbox: Sandbox | None = None, as_nobody: bool = False
) -> tuple[str, list[str]]:
    """The program to exec and every host path a sandboxed bot needs to see for ``argv``.

    The program is looked up in ``PATH`` on the host (``PATH`` folders such as
    ``~/.pyenv/shims`` are hidden inside). A Python interpreter (a pyenv shim included) is
    asked once for its installation: its prefixes are shown, and a shim is replaced by the
    interpreter it runs. Every other argument that names an existing file or folder is
    shown too, read-only; so is the bot's own folder (that of the program its command
    runs: :func:`~arena.botproc.commands.bot_folder`) unless ``sandbox.files`` is
    ``named``, and the sandbox's ``read_only`` paths. A symbolic link is shown with its
    target. Each path is listed once, never inside another one listed (bubblewrap cannot
    mount a file inside a folder it has already mounted read-only). A folder that holds
    the bot's private ``/tmp`` or ``/dev/shm`` is never shown (:func:`_showable`). Bots that run as
    ``nobody`` (``as_nobody``) are not shown a folder that others may not read and enter:
    they see the named files alone, as before.
    """
    program = argv[0]
    found = program if "/" in program else shutil.which(program)
    shown: list[str] = []
    if found is not None:
        found = os.path.abspath(found)
        python = _python_install(found) if _looks_like_python(found) else None
        if python is not None:
            program, prefixes = python
            shown += prefixes
        else:
            program = found
            shown += [found, os.path.realpath(found)]
    homes = os.path.dirname(os.path.dirname(workdir))  # BOT_HOMES: <homes>/<game>/seatN
    for arg in argv[1:]:
        if arg.startswith("/") and os.path.exists(arg) and not inside(arg, [workdir]):
            shown += _showable([os.path.normpath(arg), os.path.realpath(arg)], homes)
    if sandbox is None or sandbox.files != "named":
        folder = bot_folder(argv)
        if folder is not None and _may_show_folder(folder, workdir, as_nobody):
            shown.append(folder)
    if sandbox is not None:
        named = [p for p in sandbox.read_only if os.path.exists(p)]
        shown += _showable([os.path.normpath(p) for p in named], homes)
        shown += _showable([os.path.realpath(p) for p in named], homes)
    return program, _outermost(shown)


def _showable(paths: Sequence[str], homes: str) -> list[str]:
    """``paths`` but those that hold a bot's private folders (``/tmp``, ``/dev/shm``, the
    bots' directories: ``/``, ``/dev`` and ``/tmp`` too): shown, the host's would cover
    the private ones, and other runs' files in the host's ``/tmp`` would be readable."""
    private = [*PRIVATE_DIRS, homes]
    return [path for path in paths if not any(inside(folder, [path]) for folder in private)]


def _may_show_folder(folder: str, workdir: str, as_nobody: bool) -> bool:
    """Whether a bot may see all of ``folder``: not the root, not a system folder (seen
    anyway), nor one holding the bots' private directories (the temporary folder); for a
    bot running as nobody, only a folder others may read and enter."""
    homes = os.path.dirname(os.path.dirname(workdir))  # BOT_HOMES: <homes>/<game>/seatN
    if folder == "/" or folder in SYSTEM_DIRS or inside(homes, [folder]):
        return False
    if as_nobody:
        try:
            return os.stat(folder).st_mode & 0o005 == 0o005
        except OSError:
            return False
    return True


def _outermost(paths: Sequence[str]) -> list[str]:
    """``paths`` without repeats and without those inside another one, in order."""
    unique = list(dict.fromkeys(paths))
    folders = [p for p in unique if os.path.isdir(p) and not os.path.islink(p)]
    return [p for p in unique if not any(f != p and inside(p, [f]) for f in folders)]


def _looks_like_python(path: str) -> bool:
    return re.fullmatch(r"(python|pypy)[0-9.]*", os.path.basename(path)) is not None


# Asked with -S: no site module, so no .pth file runs and the interpreter answers several
# times faster. The virtual environment site would have made sys.prefix is found the way
# site finds it: a pyvenv.cfg beside the interpreter or one folder up.
_PYTHON_QUERY = """
import json, os, sys
bin_dir = os.path.dirname(os.path.abspath(sys.executable))
venv = os.path.dirname(bin_dir)
if not any(os.path.isfile(os.path.join(d, "pyvenv.cfg")) for d in (bin_dir, venv)):
    venv = None
print(json.dumps([sys.executable, venv or sys.prefix, sys.base_prefix,
                  venv or sys.exec_prefix, sys.base_exec_prefix]))
"""


@functools.lru_cache(maxsize=32)
def _python_install(path: str) -> tuple[str, list[str]] | None:
    """(interpreter to exec, installation folders to show) for a Python, or None (its
    answer cached across runs: :func:`python_install`)."""
    return python_install(path, ask_python)


def ask_python(path: str) -> tuple[str, list[str]] | None:
    """The interpreter at ``path`` asked for its installation (None: no usable answer)."""
    try:
        out = subprocess.run(
            [path, "-S", "-c", _PYTHON_QUERY], capture_output=True, text=True, timeout=30, cwd="/"
        ).stdout
        executable, *prefixes = json.loads(out.strip().splitlines()[-1])
    except (OSError, subprocess.SubprocessError, ValueError, IndexError):
        return None
    if not executable or not os.path.isabs(executable):
        return None
    folders = [os.path.realpath(p) for p in prefixes if p]
    folders += [os.path.realpath(executable), executable, path]
    if os.path.realpath(path) != os.path.realpath(executable):
        path = executable  # a shim (pyenv): run the interpreter it runs
        folders.pop()
    outermost = [f for f in folders if not any(inside(f, [o]) for o in folders if o != f)]
    return path, list(dict.fromkeys(outermost))


def hidden_views(hidden: str, shown: Sequence[str]) -> list[str]:
    """Every path at which ``hidden`` shows inside a sandbox that shows ``shown``.

    Paths are compared resolved: a folder shown through a symbolic link (bound at the
    link's path) shows ``hidden`` under that path when ``hidden``'s real path lies inside
    the folder's real path.
    """
    real = os.path.realpath(hidden)
    views: list[str] = []
    for path in shown:
        for base in dict.fromkeys([path, os.path.realpath(path)]):
            for target in dict.fromkeys([hidden, real]):
                if inside(target, [base]):
                    views.append(path.rstrip("/") + target[len(base.rstrip("/")) :])
    return list(dict.fromkeys(views))


# -- a Python interpreter's installation, cached -----------------------------------------

PythonInstall = tuple[str, list[str]]


def python_key(path: str) -> str:
    """What a Python interpreter's answer about itself (its prefixes) depends on: its
    file, the files it links to, a ``pyvenv.cfg`` beside it or one folder up, and the
    variables that move its prefixes ("" where the boot id is unknown)."""
    boot = hostcache.boot_id()
    if boot is None:
        return ""
    here = os.path.dirname(os.path.abspath(path))
    parts = [
        "python",
        boot,
        os.getuid(),
        path,
        os.path.realpath(path),
        hostcache.file_id(path),
        hostcache.file_id(os.path.join(here, "pyvenv.cfg")),
        hostcache.file_id(os.path.join(os.path.dirname(here), "pyvenv.cfg")),
        [os.environ.get(name) for name in ("PYTHONHOME", "PYTHONEXECUTABLE")],
    ]
    return "python-" + hashlib.sha256(json.dumps(parts).encode()).hexdigest()


def python_install(path: str, ask: Callable[[str], PythonInstall | None]) -> PythonInstall | None:
    """``ask(path)``, the interpreter's own answer, or the one cached for it. Only the
    answer of an interpreter that is itself (not a script that runs another one, as a
    pyenv shim does, which may choose another Python next time) is cached."""
    key = python_key(path) if hostcache.enabled() else ""
    if key:
        cached = (hostcache.read_entry(key) or {}).get("python")
        try:
            executable, folders = cached  # type: ignore[misc]
        except (TypeError, ValueError):
            pass
        else:
            if (
                isinstance(executable, str)
                and isinstance(folders, list)
                and all(isinstance(f, str) for f in folders)
            ):
                return executable, list(folders)
    found = ask(path)
    if key and found is not None and os.path.realpath(found[0]) == os.path.realpath(path):
        hostcache.write_entry(key, {"python": [found[0], found[1]]})
    return found
