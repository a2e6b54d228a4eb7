"""What each page shows, read from the store in a worker thread: one function per page,
returning its template's context (:mod:`arena.web.app` renders it)."""

from __future__ import annotations

import html
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.errors import ArenaError
from arena.records import split_detail
from arena.results.queries import RESULTS, GameFilter
from arena.results.store import Store, database_error
from arena.views.listing import seat_result
from arena.views.replay import load_replay
from arena.web import queries
from arena.web.buildlog import build_shown

if TYPE_CHECKING:
    from starlette.requests import Request

    from arena.web.app import Served

escape = html.escape


class NotFound(Exception):
    """A page for an id or a name the store does not hold."""


def no_paths(text: str, output: Path) -> str:
    """An error message with the machine's paths left out (the folder shown by name)."""
    for path in (output.absolute(), output):
        text = text.replace(str(path), output.name)
    return text


def _store(served: Served) -> Store | None:
    try:
        return served.folder.store()
    except sqlite3.DatabaseError as exc:
        raise database_error(exc) from None


def _common(served: Served) -> dict[str, Any]:
    return {"folder": served.folder.output.name}


def leaderboard(served: Served, request: Request) -> dict[str, Any]:
    """The leaderboard: every ``--wide`` column, the pairings, the win-rate matrix."""
    store = _store(served)
    context = _common(served) | {"board": None, "games_stored": 0, "newest": []}
    if store is None:
        return context | {"waiting": True}
    version = served.folder.version()
    snapshot = served.snapshots.get(version)
    board = snapshot.board
    context.update(waiting=False, snapshot=snapshot, version=version, games_stored=version.games)
    context["newest"] = queries.games_page(store, GameFilter(), limit=10).rows
    if board is not None:
        drawn = board.best()  # (the pairwise tables of a thousand bots: their best)
        context.update(
            board=board,
            drawn=drawn,
            rows=board.table_rows(),
            pairings=drawn.pairing_rows(),
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
    store = _store(served)
    filters = GameFilter(
        bot=_text(request, "bot"),
        opponent=_text(request, "opponent"),
        result=_text(request, "result", RESULTS),
        forfeit=_text(request, "reason", queries.REASONS),
        seed=_int(request, "seed"),
        round=_int(request, "round"),
    )
    context = _common(served) | {"filters": filters, "bots": [], "page": None}
    context |= {"results": RESULTS, "reasons": queries.REASONS, "title": "games"}
    if store is None:
        return context
    page = queries.games_page(store, filters, _int(request, "before"), _int(request, "after"))
    return context | {"bots": list(store.bot_commands()), "page": page}


def _game_id(request: Request) -> int:
    text = request.path_params["game_id"]
    if not text.isdigit() or not text.isascii() or len(text) > 19:
        raise NotFound(f"no game {text[:40]!r}")
    return int(text)


def _detail(served: Served, request: Request) -> queries.GameDetail:
    store = _store(served)
    game_id = _game_id(request)
    detail = None if store is None else queries.game_detail(store, game_id)
    if detail is None:
        raise NotFound(f"no game number {game_id} in this folder")
    return detail


def _replay_path(served: Served, detail: queries.GameDetail) -> Path | None:
    """The game's replay file, if it lies inside the output folder."""
    root = served.folder.output.resolve()
    path = (root / detail.game.dir / "replay.json").resolve()
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
            "number": number,
            "seat": s,
            "result": seat_result(detail.game.seats, number),
            "summary": split_detail(s.detail)[0],
            "tail": "\n".join(split_detail(s.detail)[1]),
        }
        for number, s in enumerate(detail.game.seats)
    ]
    title = f"game {detail.game.id}"
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
        return viewer_html(game_, replay, f"game {detail.game.id}")
    except ArenaError as exc:
        raise NotFound(no_paths(str(exc), served.folder.output)) from None


def _known_bot(served: Served, name: str) -> Store:
    store = _store(served)
    if store is None or name not in store.bot_commands():
        raise NotFound(f"no bot named {name[:80]!r} in this folder")
    return store


def bot(served: Served, request: Request) -> dict[str, Any]:
    """One bot: rating over time, results against each opponent, times, forfeits, command."""
    name = request.path_params["bot"]
    store = _known_bot(served, name)
    db = store.db
    snapshot = served.snapshots.get(served.folder.version())
    board = snapshot.board
    row = next((r for r in board.table_rows() if r["bot"] == name), None) if board else None
    pairings = board.pairings(name) if board else []
    timing = board.timing.get(name) if board else None
    meta = store.meta()
    history = [
        {"x": p.event, "mu": round(p.mu, 3), "sigma": round(p.sigma, 3)}
        for p in snapshot.history_of(name)
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
        "command": store.bot_commands()[name],
        "build": build_shown(meta, name),
        "newest": queries.games_page(store, GameFilter(bot=name), limit=10).rows,
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
    store = _known_bot(served, a)
    _known_bot(served, b)
    snapshot = served.snapshots.get(served.folder.version())
    board = snapshot.board
    pairing = None
    line = ""
    if board is not None:
        pairing = next((p for p in board.pairings() if p["bot"] == a and p["opponent"] == b), None)
        line = board.pair_line(a, b)
    games = queries.games_page(store, GameFilter(bot=a, opponent=b), _int(request, "before"))
    return _common(served) | {
        "a": a,
        "b": b,
        "pairing": pairing,
        "line": line,
        "page": games,
        "title": f"{a} vs {b}",
    }
