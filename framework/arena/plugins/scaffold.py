"""``arena new-game``: a complete game plugin package written from the shipped templates.

The templates (``arena/plugins/templates/newgame/``, package data) hold ``{{name}}``-style
placeholders; a ``__name__`` path component becomes the game's name and the ``.tmpl``
suffix is dropped, so the templates are never mistaken for arena's own modules.
"""

from __future__ import annotations

import re
import shlex
import sys
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from arena.errors import ConfigError

TEMPLATE = "newgame"
NAME = re.compile(r"[a-z][a-z0-9_]*\Z")
"""A new game's name: its id and its Python package, so an identifier in lower case."""


def placeholders(name: str) -> dict[str, str]:
    """The values the templates' placeholders take for a game called ``name``."""
    words = [w for w in name.split("_") if w]
    return {
        "{{name}}": name,
        "{{Class}}": "".join(w.capitalize() for w in words) + "Game",
        "{{title}}": " ".join(w.capitalize() for w in words),
        "{{dist}}": name.replace("_", "-"),
    }


def next_steps(name: str, target: Path, python: str = sys.executable) -> list[str]:
    """What to do after ``arena new-game``, in the order of docs/plugins.md's tutorial:
    install with the Python arena runs on (``python -m pip``: a pip of another
    environment cannot find ``bot-arena``), with the test extra (pytest, hypothesis),
    run the plugin's tests, see it listed, play its tournament, look at its games."""
    py = shlex.quote(python)
    return [
        f"cd {shlex.quote(str(target))}",
        f"{py} -m pip install -e '.[test]'   # the game, pytest and hypothesis",
        f"{py} -m pytest",
        "arena games",
        f"arena run tournaments/{name}.yaml",
        f"arena report out/{name}   # then open out/{name}/report.html and a game's viewer",
    ]


def _files(root: Traversable, prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], str]]:
    out: list[tuple[tuple[str, ...], str]] = []
    for entry in sorted(root.iterdir(), key=lambda e: e.name):
        if entry.is_dir():
            out += _files(entry, (*prefix, entry.name))
        elif entry.name.endswith(".tmpl"):
            out.append(((*prefix, entry.name.removesuffix(".tmpl")), entry.read_text()))
    return out


def write_plugin(name: str, target: Path) -> list[Path]:
    """Write the plugin package for game ``name`` into ``target``; return the files written.

    Raises :class:`~arena.errors.ConfigError` for a name that cannot be a game id and
    Python package, or a ``target`` that exists and is not an empty folder.
    """
    if not NAME.match(name):
        raise ConfigError(
            f"{name!r} cannot name a game: use lower-case letters, digits and '_', "
            "starting with a letter (it is the game id and the Python package)"
        )
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise ConfigError(f"{target}: already exists and is not an empty folder")
    values = placeholders(name)
    written = []
    for parts, text in _files(resources.files("arena.plugins") / "templates" / TEMPLATE):
        for key, value in values.items():
            text = text.replace(key, value)
        path = target.joinpath(*(part.replace("__name__", name) for part in parts))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        if path.suffix == ".py" and text.startswith("#!"):
            path.chmod(0o755)
        written.append(path)
    return written
