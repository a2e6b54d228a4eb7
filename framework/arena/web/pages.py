"""What each page shows, read from the store in a worker thread: one function per page,
returning its template's context (:mod:`arena.web.app` renders it)."""

from __future__ import annotations

import html
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.errors import ArenaError
from arena.results.store import database_error
from arena.views.replay import load_replay
from arena.web import queries
from arena.web.queries import Filters

if TYPE_CHECKING:
    from starlette.requests import Request

    from arena.web.app import Served

escape = html.escape
STDERR_ENDS = "; its stderr ends:"
"""How a forfeit's stored detail introduces the end of the bot's stderr (botproc.lines)."""


def split_detail(detail: str) -> tuple[str, list[str]]:
    """A forfeit's stored detail as its one-line summary and the bot's last stderr lines
    (the web layer reads the store's text; it does not import botproc)."""
    first, _, rest = detail.partition("\n")
    if not rest:
        return first, []
    return first.removesuffix(STDERR_ENDS), [line.removeprefix("  ") for line in rest.split("\n")]


class NotFound(Exception):
    """A page for an id or a name the store does not hold."""


def no_paths(text: str, output: Path) -> str:
    """An error message with the machine's paths left out (the folder shown by name)."""
    for path in (output.absolute(), output):
        text = text.replace(str(path), output.name)
    return text


def _db(served: Served) -> sqlite3.Connection | None:
    try:
        return served.folder.db()
    except sqlite3.DatabaseError as exc:
        raise database_error(exc) from None


def _common(served: Served) -> dict[str, Any]:
    return {"folder": served.folder.output.name}


def leaderboard(served: Served, request: Request) -> dict[str, Any]:
    """The leaderboard: every ``--wide`` column, the pairings, the win-rate matrix."""
    db = _db(served)
    context = _common(served) | {"board": None, "games_stored": 0, "newest": []}
    if db is None:
        return context | {"waiting": True}
    version = served.folder.version()
    snapshot = served.snapshots.get(version)
    board = snapshot.board
    context.update(waiting=False, snapshot=snapshot, version=version, games_stored=version.games)
    context["newest"] = queries.games_page(db, Filters(), limit=10).rows
    if board is not None:
        context.update(
            board=board,
            rows=board.table_rows(),
            pairings=board.pairing_rows(),
            matrix=board.matrix(),
            names=[s.name for s in board.stats],
            clock=board.clock.describe() if board.clock else "",
            sprt=board.sprt_text(),
        )
    return context


def _int(request: Request, key: str) -> int | None:
    text = request.query_params.get(key, "").strip()
    if not text:
        return None
    try:
        value = int(text)
    except ValueError:
        raise NotFound(f"{key}: not a number") from None
    return max(min(value, queries.MAX_ID), -queries.MAX_ID)


def _text(request: Request, key: str, allowed: tuple[str, ...] | None = None) -> str | None:
    value = request.query_params.get(key, "").strip() or None
    if value is not None and allowed is not None and value not in allowed:
        raise NotFound(f"{key}: {value!r} is not one of {', '.join(allowed)}")
    return value


def games(served: Served, request: Request) -> dict[str, Any]:
    """The games list, filtered and paged (newest first)."""
    db = _db(served)
    filters = Filters(
        bot=_text(request, "bot"),
        opponent=_text(request, "opponent"),
        result=_text(request, "result", queries.RESULTS),
        reason=_text(request, "reason", queries.REASONS),
        seed=_int(request, "seed"),
        round=_int(request, "round"),
    )
    context = _common(served) | {"filters": filters, "bots": [], "page": None}
    context |= {"results": queries.RESULTS, "reasons": queries.REASONS, "title": "games"}
    if db is None:
        return context
    page = queries.games_page(db, filters, _int(request, "before"), _int(request, "after"))
    return context | {"bots": queries.bot_names(db), "page": page}


def _game_id(request: Request) -> int:
    text = request.path_params["game_id"]
    if not text.isdigit() or not text.isascii() or len(text) > 19:
        raise NotFound(f"no game {text[:40]!r}")
    return int(text)


def _detail(served: Served, request: Request) -> queries.GameDetail:
    db = _db(served)
    game_id = _game_id(request)
    detail = None if db is None else queries.game_detail(db, game_id)
    if detail is None:
        raise NotFound(f"no game number {game_id} in this folder")
    return detail


def _replay_path(served: Served, detail: queries.GameDetail) -> Path | None:
    """The game's replay file, if it lies inside the output folder."""
    root = served.folder.output.resolve()
    path = (root / detail.dir / "replay.json").resolve()
    return path if path.is_relative_to(root) and path.is_file() else None


def game(served: Served, request: Request) -> dict[str, Any]:
    """One game: its seats, forfeits, each seat's stderr turn by turn, its viewer."""
    detail = _detail(served, request)
    turns: list[dict[str, Any]] = []
    problem = ""
    path = _replay_path(served, detail)
    if path is None:
        problem = "no replay file for this game"
    else:
        try:
            replay = load_replay(path)
        except ArenaError as exc:
            problem = no_paths(str(exc), served.folder.output)
        else:
            turns = _stderr_by_turn(replay)
    seats = [
        {
            "seat": s,
            "summary": split_detail(s.detail)[0],
            "tail": "\n".join(split_detail(s.detail)[1]),
        }
        for s in detail.seats
    ]
    title = f"game {detail.row.id}"
    return _common(served) | {
        "detail": detail,
        "seats": seats,
        "turns": turns,
        "problem": problem,
        "title": title,
    }


def _stderr_by_turn(replay: Any) -> list[dict[str, Any]]:
    """Each step in which a seat wrote to stderr or had a message: step, turn, by seat."""
    out = []
    players = list(replay.get("players", []))
    for index, step in enumerate(replay.get("steps", []), start=1):
        by_seat = {}
        for key, io in step.get("io", {}).items():
            text = str(io.get("stderr", ""))
            message = str(step.get("messages", {}).get(key, "") or "")
            if text or message:
                seat = int(key)
                name = players[seat] if 0 <= seat < len(players) else "?"
                by_seat[seat] = {"bot": name, "stderr": text, "message": message}
        if by_seat:
            out.append({"step": index, "turn": step.get("turn", index), "seats": by_seat})
    return out


def viewer(served: Served, request: Request) -> str:
    """The game's viewer page (the same HTML ``arena view`` writes)."""
    from arena.plugins.registry import load_registry
    from arena.views.viewer import viewer_html

    detail = _detail(served, request)
    path = _replay_path(served, detail)
    if path is None:
        raise NotFound("no replay file for this game")
    try:
        replay = load_replay(path)
        game_ = load_registry().create(str(replay["game"]))
        return viewer_html(game_, replay, f"game {detail.row.id}")
    except ArenaError as exc:
        raise NotFound(no_paths(str(exc), served.folder.output)) from None


def _known_bot(served: Served, name: str) -> sqlite3.Connection:
    db = _db(served)
    if db is None or queries.bot_command(db, name) is None:
        raise NotFound(f"no bot named {name[:80]!r} in this folder")
    return db


def bot(served: Served, request: Request) -> dict[str, Any]:
    """One bot: rating over time, results against each opponent, times, forfeits, command."""
    name = request.path_params["bot"]
    db = _known_bot(served, name)
    snapshot = served.snapshots.get(served.folder.version())
    board = snapshot.board
    row = next((r for r in board.table_rows() if r["bot"] == name), None) if board else None
    pairings = [p for p in (board.pairings() if board else []) if p["bot"] == name]
    timing = board.timing.get(name) if board else None
    store = served.folder.store()
    meta = store.meta() if store is not None else {}
    history = [
        {"x": p.event, "mu": round(p.mu, 3), "sigma": round(p.sigma, 3)}
        for p in snapshot.history.get(name, [])
    ]
    times = queries.recent_times(db, name)
    return _common(served) | {
        "name": name,
        "title": name,
        "row": row,
        "pairings": pairings,
        "timing": timing,
        "budget_ms": _budget_ms(meta),
        "history": history,
        "times": [round(t, 3) for t in times],
        "forfeits": [
            {"f": f, "summary": split_detail(f.detail)[0]} for f in queries.bot_forfeits(db, name)
        ],
        "command": queries.bot_command(db, name),
        "newest": queries.games_page(db, Filters(bot=name), limit=10).rows,
    }


def _budget_ms(meta: dict[str, Any]) -> float | None:
    """A turn's budget in ms (the game's, times the clock scale), if the game is installed."""
    from arena.plugins.registry import load_registry

    try:
        info = load_registry().create(str(meta.get("game"))).info
    except (ArenaError, KeyError):
        return None
    turn_ms = getattr(info, "turn_ms", None)
    if not isinstance(turn_ms, (int, float)):
        return None
    return float(turn_ms) * float(meta.get("clock_scale", 1.0))


def head_to_head(served: Served, request: Request) -> dict[str, Any]:
    """Two bots: their pairing, and the games between them."""
    a = _text(request, "a") or ""
    b = _text(request, "b") or ""
    db = _known_bot(served, a)
    _known_bot(served, b)
    snapshot = served.snapshots.get(served.folder.version())
    board = snapshot.board
    pairing = None
    line = ""
    if board is not None:
        pairing = next((p for p in board.pairings() if p["bot"] == a and p["opponent"] == b), None)
        line = board.pair_line(a, b)
    games = queries.games_page(db, Filters(bot=a, opponent=b), _int(request, "before"))
    return _common(served) | {
        "a": a,
        "b": b,
        "pairing": pairing,
        "line": line,
        "page": games,
        "title": f"{a} vs {b}",
    }
