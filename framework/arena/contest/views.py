"""What each contest page shows, read in a worker thread: one function per page returning
its template's context (:mod:`arena.contest.app` renders it), and the organisers' actions.

What a visitor may see is decided here with :mod:`arena.contest.privacy`; a version or a
game that is not theirs to see raises :class:`NotFound`, as a missing one does.
"""

from __future__ import annotations

import io
import json
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.contest.accounts import Account, AccountError
from arena.contest.privacy import filter_replay, shown_seats, summary
from arena.errors import ArenaError
from arena.results.queries import GameFilter
from arena.results.store import Store
from arena.views.replay import load_replay
from arena.web import queries
from arena.web.folder import Folder
from arena.web.pages import no_paths as _no_paths
from arena.web.snapshot import Snapshots

if TYPE_CHECKING:
    from arena.contest.forms import Form
    from arena.contest.server import Contest
    from arena.contest.sessions import Visitor

MAX_SOURCE_SHOWN = 200_000
"""The most characters of a source or a build log a page shows."""


class NotFound(Exception):
    """Nothing to show: missing, or not the visitor's to see (the same 404 page)."""


def no_paths(text: str, output: Path) -> str:
    """A message with the machine's paths left out."""
    return _no_paths(text, output)


def number(text: str) -> int:
    """A positive id from a URL (else :class:`NotFound`)."""
    if not text.isascii() or not text.isdigit() or len(text) > 12:
        raise NotFound
    return int(text)


def _db(folder: Folder) -> Store | None:
    """The league's store, None while there is none (or it is being made: the run's first
    moments), so pages show "no games yet" rather than an error."""
    try:
        return folder.store()
    except (sqlite3.DatabaseError, ArenaError, OSError):
        return None


def _board(folder: Folder, snapshots: Snapshots, contest: Contest) -> dict[str, Any]:
    """The ratings table of a league's folder, each row with its owner's name."""
    db = _db(folder)
    if db is None:
        return {"rows": [], "games_stored": 0, "newest": [], "computing": False}
    version = folder.version()
    snapshot = snapshots.get(version)
    owners, names = contest.owners(), contest.names()
    rows = []
    if snapshot.board is not None:
        for row in snapshot.board.table_rows():
            owner = owners.get(row["bot"])
            rows.append({"owner": names.get(owner, "") if owner else "boss", **row})
    newest = queries.games_page(db, GameFilter(), limit=10).rows
    computing = snapshot.board is None and snapshot.computing
    return {"rows": rows, "games_stored": version.games, "newest": newest, "computing": computing}


def leaderboard(contest: Contest) -> dict[str, Any]:
    """The public leaderboard: rating with its interval, games, the newest games."""
    context = _board(contest.league.folder, contest.league.snapshots, contest)
    return context | {"published": contest.flag("published")}


def final_board(contest: Contest) -> dict[str, Any]:
    """The final ranking's leaderboard (its own output folder)."""
    folder = Folder(contest.final_output)
    if not (contest.final_output / "arena.sqlite").is_file():
        return {"rows": [], "games_stored": 0, "newest": [], "computing": False, "final": "none"}
    context = _board(folder, Snapshots(folder), contest)
    return context | {"final": contest.final.state}


def _detail(contest: Contest, game_id: int) -> queries.GameDetail:
    db = _db(contest.league.folder)
    try:
        detail = None if db is None else queries.game_detail(db, game_id)
    except sqlite3.DatabaseError:  # the store still being made
        detail = None
    if detail is None:
        raise NotFound
    return detail


def _replay(contest: Contest, detail: queries.GameDetail) -> dict[str, Any] | None:
    """The game's replay, if its file lies inside the output folder."""
    root = contest.config.output.resolve()
    path = (root / detail.game.dir / "replay.json").resolve()
    if not path.is_relative_to(root) or not path.is_file():
        return None
    return dict(load_replay(path))


def _shown(contest: Contest, players: list[str], visitor: Visitor) -> set[int]:
    owners = contest.owners()
    viewer = visitor.account.id if visitor.account else None
    return shown_seats(players, owners.get, viewer, visitor.organiser)


def game(contest: Contest, game_id: int, visitor: Visitor) -> dict[str, Any]:
    """A game: its seats (each seat's stderr for whom may see it), its viewer."""
    detail = _detail(contest, game_id)
    shown = _shown(contest, [s.bot for s in detail.game.seats], visitor)
    seats = [
        s if i in shown else replace(s, stderr="", detail=summary(s.detail))
        for i, s in enumerate(detail.game.seats)
    ]
    turns: list[dict[str, Any]] = []
    problem = ""
    try:
        replay = _replay(contest, detail)
    except ArenaError as exc:
        replay, problem = None, no_paths(str(exc), contest.config.output)
    if replay is None:
        problem = problem or "no replay file for this game"
    else:
        turns = _stderr_by_turn(filter_replay(replay, shown), shown)
    owners, names = contest.owners(), contest.names()
    rows = [
        {
            "seat": s,
            "index": i,
            "owner": names.get(owners.get(s.bot, ""), "boss"),
            "summary": summary(s.detail),
            "stderr": s.stderr,
            "shown": i in shown,
        }
        for i, s in enumerate(seats)
    ]
    return {
        "detail": detail,
        "seats": rows,
        "turns": turns,
        "problem": problem,
        "title": f"game {detail.game.id}",
    }


def _stderr_by_turn(replay: dict[str, Any], shown: set[int]) -> list[dict[str, Any]]:
    """Each step in which a shown seat wrote to stderr: step, turn, its text by seat."""
    out = []
    players = list(replay.get("players", []))
    for index, step in enumerate(replay.get("steps", []), start=1):
        by_seat = {}
        for key, seat_io in step.get("io", {}).items():
            text = str(seat_io.get("stderr", ""))
            seat = int(key)
            if text and seat in shown and 0 <= seat < len(players):
                by_seat[seat] = {"bot": players[seat], "stderr": text}
        if by_seat:
            out.append({"step": index, "turn": step.get("turn", index), "seats": by_seat})
    return out


def viewer(contest: Contest, game_id: int, visitor: Visitor) -> str:
    """The game's viewer page, from the replay filtered for this visitor."""
    from arena.plugins.registry import load_registry
    from arena.views.viewer import viewer_html

    detail = _detail(contest, game_id)
    replay = _replay(contest, detail)
    if replay is None:
        raise NotFound
    shown = _shown(contest, list(replay.get("players", [])), visitor)
    game_ = load_registry().create(str(replay["game"]))
    return viewer_html(game_, filter_replay(replay, shown), f"game {detail.game.id}")  # type: ignore[arg-type]


def _versions(contest: Contest, owner: str | None) -> list[Any]:
    return [] if contest.versions is None else contest.versions.versions(owner)


def mine(contest: Contest, owner: str) -> dict[str, Any]:
    """A participant's page: its versions (newest first) and its latest games."""
    versions = sorted(_versions(contest, owner), key=lambda v: -v.number)
    db = _db(contest.league.folder)
    games = []
    if db is not None:
        for v in versions:
            games += queries.games_page(db, GameFilter(bot=v.bot), limit=10).rows
    games.sort(key=lambda g: -g.id)
    config = contest.config
    return {
        "versions": versions,
        "games": games[:20],
        "languages": config.languages,
        "max_kb": config.max_upload_kb,
        "frozen": contest.flag("frozen"),
        "uploads": contest.versions is not None,
    }


def submit(contest: Contest, owner: str, filename: str, data: bytes) -> None:
    """A new version (checked by the version store: its refusal is one line)."""
    if contest.versions is None:
        raise ArenaError("uploads are not open on this server")
    contest.versions.submit(owner, filename, data)
    contest.accounts.note(owner, "uploaded", filename[:100])


def version(contest: Contest, owner: str, num: int) -> dict[str, Any]:
    """One version: its state, build log, source and games."""
    found = None if contest.versions is None else contest.versions.version(owner, num)
    if found is None:
        raise NotFound
    assert contest.versions is not None
    source = contest.versions.source(owner, num).decode("utf-8", "replace")
    log = contest.versions.build_log(owner, num)
    db = _db(contest.league.folder)
    games = [] if db is None else queries.games_page(db, GameFilter(bot=found.bot), limit=20).rows
    owner_name = contest.names().get(owner, owner)
    return {
        "version": found,
        "owner": owner_name,
        "source": source[:MAX_SOURCE_SHOWN],
        "log": no_paths(log, contest.config.output)[:MAX_SOURCE_SHOWN],
        "games": games,
        "title": f"{found.bot}",
    }


def organiser(contest: Contest) -> dict[str, Any]:
    """The organisers' page: people, their versions, the contest's switches."""
    accounts = contest.accounts.all()
    versions: dict[str, list[Any]] = {}
    for v in _versions(contest, None):
        versions.setdefault(v.owner, []).append(v)
    return {
        "accounts": accounts,
        "versions": versions,
        "frozen": contest.flag("frozen"),
        "published": contest.flag("published"),
        "final": contest.final,
        "audit": contest.accounts.audit(30),
        "title": "organise",
    }


def organiser_action(
    contest: Contest, actor: Account, action: str, form: Form, base_url: str
) -> str:
    """Do an organiser's ``action``; the one-time link made (an invitation), else ''."""
    accounts = contest.accounts
    if action == "invite":
        account = accounts.create(form.get("name"), "participant", "invited")
        accounts.note(actor.id, "invited", account.name)
        return f"{base_url.rstrip('/')}/welcome/{accounts.new_link(account.id)}"
    if action in ("approve", "remove", "relink"):
        target = accounts.get(form.get("account"))
        if target is None or target.id == actor.id:
            raise AccountError("no such account")
        if action == "relink":
            accounts.note(actor.id, "new link for", target.name)
            return f"{base_url.rstrip('/')}/welcome/{accounts.new_link(target.id)}"
        accounts.set_state(target.id, "active" if action == "approve" else "removed")
        if action == "remove" and contest.versions is not None:
            contest.versions.retire_owner(target.id)
        accounts.note(actor.id, f"{action}d", target.name)
        return ""
    if action in ("freeze", "unfreeze", "publish", "unpublish"):
        key = "frozen" if action.endswith("freeze") else "published"
        contest.set_flag(key, not action.startswith("un"))
        accounts.note(actor.id, action)
        return ""
    if action == "final":
        if contest.run_final():
            accounts.note(actor.id, "started the final ranking")
        return ""
    raise NotFound


def export(contest: Contest, kind: str) -> tuple[bytes, str]:
    """The final ranking's (else the league's) results: CSV, JSON, or every replay zipped
    (the league's and the final's); :mod:`arena.contest.export` picks them in the contest's
    folder."""
    from arena.contest import export as exports  # type: ignore[attr-defined,unused-ignore]

    folder = contest.config.output
    if kind == "csv":
        return exports.export_csv(folder).encode(), "text/csv; charset=utf-8"
    if kind == "json":
        return json.dumps(exports.export_json(folder), indent=2).encode(), "application/json"
    buffer = io.BytesIO()
    exports.export_replays(folder, buffer)
    return buffer.getvalue(), "application/zip"
