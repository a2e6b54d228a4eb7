"""The HTML viewer of one game: a self-contained page that plays a stored replay.

The page inlines everything (styles, scripts, the replay gzipped in base64, which the
browser's own ``DecompressionStream`` unpacks) and loads nothing from the network. The
board is drawn by the game's renderer (:meth:`arena.game.Game.renderer_script`); a game
without one shows its text :meth:`~arena.game.Game.render` of every step instead.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import html
import importlib.resources
import json
from pathlib import Path
from typing import Any

from arena.game import Game
from arena.plugins.registry import Registry, load_registry
from arena.records import Replay
from arena.viewdiff import diff
from arena.views.replay import load_replay, step_views, text_pictures

VIEWER_NAME = "viewer.html"
"""The viewer's file name next to a stored ``replay.json``."""


def static_text(name: str) -> str:
    """A file of ``arena/static`` (styles, scripts, page templates)."""
    return (importlib.resources.files("arena.views") / "static" / name).read_text("utf-8")


def script_safe(text: str) -> str:
    """Text safe inside a ``<script>`` element (no ``</script>`` or ``<!--`` in it)."""
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


def _renderer(game: Game[Any]) -> str | None:
    try:
        return game.renderer_script()
    except OSError:  # a plugin naming a file it does not ship: show its text instead
        return None


def viewer_stamp(game: Game[Any]) -> str:
    """A short hash of the viewer's code and the game's renderer, written into each viewer
    (``<meta name="arena-viewer">``) so that viewers made by other code can be told apart."""
    text = static_text("viewer.js") + static_text("viewer.html") + (_renderer(game) or "")
    return hashlib.sha1(text.encode()).hexdigest()[:12]


def with_views(game: Game[Any], replay: Replay) -> dict[str, Any]:
    """The replay with its per-step view patches (older replays get them by re-simulation)."""
    out = dict(replay)
    if "start_view" in replay:
        return out
    views = step_views(game, replay)
    out["start_view"] = views[0] if views else {}
    out["steps"] = [
        {**step, "view": diff(views[i], views[i + 1])} for i, step in enumerate(replay["steps"])
    ]
    return out


def viewer_html(game: Game[Any], replay: Replay, subtitle: str = "") -> str:
    """The whole viewer page for one stored game."""
    renderer = _renderer(game)
    data = {
        "game": game.info.id,
        "title": game.info.title,
        "replay": with_views(game, replay),
        "text": None if renderer else text_pictures(game, replay),
    }
    packed = gzip.compress(json.dumps(data, separators=(",", ":")).encode(), mtime=0)
    players = " vs ".join(str(p) for p in replay.get("players", []))
    title = f"{game.info.title}: {players} (seed {replay.get('seed')})"
    page = static_text("viewer.html")
    # The data goes in last: base64 cannot contain a placeholder.
    for token, value in (
        ("{{STAMP}}", viewer_stamp(game)),
        ("{{TITLE}}", html.escape(title)),
        ("{{SUBTITLE}}", html.escape(subtitle)),
        ("{{STYLE}}", static_text("common.css") + static_text("viewer.css")),
        ("{{RENDERER}}", script_safe(renderer or "")),
        ("{{SCRIPT}}", script_safe(static_text("viewer.js"))),
        ("{{DATA}}", base64.b64encode(packed).decode("ascii")),
    ):
        page = page.replace(token, value)
    return page


def write_viewer(
    replay_path: Path, out: Path | None = None, registry: Registry | None = None
) -> Path:
    """Write the viewer of ``replay_path`` (default: ``viewer.html`` next to it)."""
    replay = load_replay(replay_path)
    game = (registry or load_registry()).create(str(replay["game"]))
    target = out or replay_path.with_name(VIEWER_NAME)
    subtitle = f"{replay_path.parent.name} · {len(replay['steps'])} steps"
    target.write_text(viewer_html(game, replay, subtitle), encoding="utf-8")
    return target
