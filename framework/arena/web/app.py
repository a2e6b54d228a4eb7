"""The ASGI app of ``arena serve``: its routes, each a page of templates over the store.

Pages are Jinja2 templates with autoescape on: whatever a bot or a file put in the store
(names, messages, stderr, settings) reaches the page as text. Ids in URLs are parsed as
numbers or looked up by name in the store, never joined into a path.
"""

from __future__ import annotations

import contextlib
import functools
import json
import urllib.parse
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from arena.errors import ArenaError
from arena.tournament.control import Control, write_control
from arena.tournament.steering import add_bot, league_running, retire_bot
from arena.views.templating import environment
from arena.web import pages, queries
from arena.web.child import RunChild
from arena.web.folder import Folder
from arena.web.guard import Guard, GuardMiddleware
from arena.web.live import Watcher
from arena.web.snapshot import Snapshots

STATIC = Path(__file__).with_name("static")
TEMPLATES = Path(__file__).with_name("templates")
ACTIONS = ("pause", "resume", "stop", "start")


@dataclass
class Served:
    """What one server serves: the folder, its run (when it started one), its secrets."""

    folder: Folder
    guard: Guard
    child: RunChild | None = None

    def __post_init__(self) -> None:
        self.snapshots = Snapshots(self.folder)
        self.watcher = Watcher(self.folder, self.child_state)

    def child_state(self) -> str | None:
        """The state of the run this server started (``None``: it started none)."""
        if self.child is None:
            return None
        if self.child.alive():
            return "running"
        return "done" if self.child.exit_code() == 0 else "stopped"


def templates() -> jinja2.Environment:
    """The page templates (the web app's, then the ones the report shares), escaped by
    default, linking bots, games and pairs to their pages."""
    env = environment(
        TEMPLATES,
        bot_href=lambda name: "/bots/" + urllib.parse.quote(name, safe=""),
        game_href=lambda game: f"/games/{game.id}",
        h2h_href=lambda a, b: "/h2h?" + urllib.parse.urlencode({"a": a, "b": b}),
    )
    env.globals.update(games_url=queries.games_url)
    return env


def make_app(served: Served) -> Starlette:
    """The app serving ``served``."""
    env = templates()

    def render(request: Request, page_name: str, status: int = 200, **context: Any) -> Response:
        fragment = request.headers.get("x-arena-fragment") == "1"
        context.update(
            csrf=served.guard.csrf,
            steer=served.child is not None,
            league=served.folder.is_league(),
            run=served.watcher.news.run,
            title=context.get("title", "arena"),
        )
        template = env.get_template(f"_{page_name}.html" if fragment else f"{page_name}.html")
        return HTMLResponse(template.render(**context), status_code=status)

    def page(view: Callable[..., dict[str, Any]], name: str) -> Callable[..., Any]:
        async def endpoint(request: Request) -> Response:
            try:
                context = await _in_thread(view, served, request)
            except pages.NotFound as missing:
                return render(request, "error", 404, message=str(missing), title="not found")
            except (ArenaError, OSError, ValueError) as exc:
                text = pages.no_paths(str(exc), served.folder.output)
                return render(request, "error", 500, message=text, title="error")
            return render(request, name, **context)

        return endpoint

    async def events(request: Request) -> Response:
        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        return StreamingResponse(
            served.watcher.stream(), media_type="text/event-stream", headers=headers
        )

    async def status(request: Request) -> Response:
        return JSONResponse(served.watcher.state())

    async def control(request: Request) -> Response:
        action = request.path_params["action"]
        if not served.guard.same_origin(request):
            return JSONResponse({"error": "refused: not from this app's page"}, status_code=403)
        if action not in ACTIONS:
            return JSONResponse({"error": f"no action {action!r}"}, status_code=404)
        output = served.folder.output
        done = True
        if action in ("pause", "resume"):
            write_control(output, Control(paused=action == "pause"))
        elif served.child is None:
            return JSONResponse(
                {"error": "this server did not start the run: stop it where it runs"},
                status_code=409,
            )
        elif action == "stop":
            done = served.child.stop()
        else:
            write_control(output, Control(paused=False))
            done = await run_in_threadpool(served.child.start)  # a stopped run ends first
        await served.watcher.poll_once()
        return JSONResponse({"ok": done, "action": action})

    async def league(request: Request) -> Response:
        """Add a bot to the league, or retire one (``arena bot add|retire`` from the page)."""
        action = request.path_params["action"]
        if not served.guard.same_origin(request):
            return JSONResponse({"error": "refused: not from this app's page"}, status_code=403)
        if action not in ("add", "retire"):
            return JSONResponse({"error": f"no action {action!r}"}, status_code=404)
        try:
            form = await request.json()
        except ValueError:
            return JSONResponse({"error": "expected a JSON body"}, status_code=400)
        text = form.get("bot") if isinstance(form, dict) else None
        if not isinstance(text, str) or not text.strip() or len(text) > 4096:
            return JSONResponse({"error": "give a bot: [NAME=]CMD or a source file"}, 400)
        output = served.folder.output
        try:
            if action == "add":
                name = await run_in_threadpool(add_bot, output, text.strip())
            else:
                await run_in_threadpool(retire_bot, output, text.strip())
                name = text.strip()
        except ArenaError as exc:
            return JSONResponse({"error": pages.no_paths(str(exc), output)}, status_code=400)
        await served.watcher.poll_once()
        now = await run_in_threadpool(league_running, output)  # (else: at its next start)
        return JSONResponse({"ok": True, "action": action, "bot": name, "now": now})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        served.watcher.start()
        try:
            yield
        finally:
            await served.watcher.stop()

    routes = [
        Route("/", page(pages.leaderboard, "leaderboard")),
        Route("/games", page(pages.games, "games")),
        Route("/games/{game_id}", page(pages.game, "game")),
        Route("/games/{game_id}/viewer", functools.partial(_viewer, served)),
        Route("/bots/{bot}", page(pages.bot, "bot")),
        Route("/h2h", page(pages.head_to_head, "h2h")),
        Route("/events", events),
        Route("/api/status", status),
        Route("/control/{action}", control, methods=["POST"]),
        Route("/league/{action}", league, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(GuardMiddleware, guard=served.guard)
    return app


async def _in_thread(view: Callable[..., dict[str, Any]], served: Served, request: Request) -> Any:
    return await run_in_threadpool(view, served, request)


async def _viewer(served: Served, request: Request) -> Response:
    try:
        text = await run_in_threadpool(pages.viewer, served, request)
    except pages.NotFound as missing:
        return HTMLResponse(f"<p>{pages.escape(str(missing))}</p>", status_code=404)
    return HTMLResponse(text)


def dumps(value: Any) -> str:
    """JSON for a page's script."""
    return json.dumps(value, separators=(",", ":"))
