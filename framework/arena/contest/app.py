"""The contest's web app: public leaderboard and games, sign-in, each participant's page,
the organisers' page (see docs/contest.md).

Pages are Jinja2 templates with autoescape on and StrictUndefined: names, messages, build
logs, sources and stderr reach the page as text. Every id in a URL is parsed and looked up
(a game by number, a version by its owner and number), never joined into a path; what a
visitor may not see answers as a missing thing does (the same 404 page). Every POST needs
the page's CSRF token and this server's origin (:mod:`arena.contest.sessions`).
"""

from __future__ import annotations

import contextlib
import importlib.util
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import jinja2
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from arena.contest import views
from arena.contest.accounts import AccountError
from arena.contest.forms import BodyTooLarge, Form, read_form
from arena.contest.server import Contest
from arena.contest.sessions import Visitor
from arena.errors import ArenaError
from arena.web.app import STATIC as WEB_STATIC

TEMPLATES = Path(__file__).with_name("templates")
STATIC = Path(__file__).with_name("static")
MAX_STREAMS = 256
"""Open event streams at most: one more is answered 503 (the league goes on)."""
Handler = Callable[[Request, Visitor], Awaitable[Response]]


def templates() -> jinja2.Environment:
    """The page templates, escaped by default; a missing variable is an error."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )


def has_final() -> bool:
    """Whether the final ranking and exports are installed (:mod:`arena.contest.final`)."""
    return (
        importlib.util.find_spec("arena.contest.final") is not None
        and importlib.util.find_spec("arena.contest.export") is not None
    )


def make_app(contest: Contest, max_streams: int = MAX_STREAMS) -> Starlette:
    """The app serving ``contest``."""
    env = templates()
    sessions = contest.sessions
    config = contest.config

    def render(
        request: Request, visitor: Visitor, page_name: str, status: int = 200, **context: Any
    ) -> Response:
        fragment = request.headers.get("x-arena-fragment") == "1"
        fragment = fragment and page_name == "leaderboard"
        context.setdefault("title", config.name)
        context |= {"contest": config.name, "visitor": visitor, "csrf": visitor.csrf}
        context |= {"sign_up": config.sign_up, "final_ready": has_final()}
        page = env.get_template(f"_{page_name}.html" if fragment else f"{page_name}.html")
        response = HTMLResponse(page.render(**context), status_code=status)
        for cookie in visitor.set_cookies:
            response.headers.append("set-cookie", cookie)
        response.headers["cache-control"] = "no-store"
        return response

    def missing(request: Request, visitor: Visitor, what: str = "") -> Response:
        message = what or "nothing here (it does not exist, or it is not yours to see)"
        return render(request, visitor, "error", 404, message=message, title="not found")

    def redirect(visitor: Visitor, to: str) -> Response:
        response = RedirectResponse(to, status_code=303)
        for cookie in visitor.set_cookies:
            response.headers.append("set-cookie", cookie)
        return response

    def get(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
        """A page: the visitor looked up, a store's trouble one line without paths."""

        async def endpoint(request: Request) -> Response:
            visitor = await run_in_threadpool(sessions.visitor, request)
            try:
                return await handler(request, visitor)
            except views.NotFound:
                return missing(request, visitor)
            except (ArenaError, OSError, ValueError) as exc:
                text = views.no_paths(str(exc), config.output)
                return render(request, visitor, "error", 500, message=text, title="error")

        return endpoint

    def post(
        handler: Callable[[Request, Visitor, Form], Awaitable[Response]],
        file_limit: int = 0,
        who: str = "anyone",
    ) -> Callable[[Request], Awaitable[Response]]:
        """A state-changing request: its form read (bounded), then refused unless it comes
        from this server's page with the visitor's CSRF token; ``who`` may send it
        (``anyone``, ``participant``: signed in, ``organiser``), others see the 404 page."""

        async def endpoint(request: Request) -> Response:
            visitor = await run_in_threadpool(sessions.visitor, request)
            try:
                form = await read_form(request, file_limit)
            except BodyTooLarge:
                limit = f"{config.max_upload_kb} KiB" if file_limit else "this form's size"
                return render(request, visitor, "error", 413, message=f"too large: at most {limit}")
            if not sessions.allowed(request, visitor, form.get("csrf")):
                message = "refused: not sent from a page of this contest (reload it and try again)"
                return render(request, visitor, "error", 403, message=message, title="refused")
            if who != "anyone" and visitor.account is None:
                return missing(request, visitor)
            if who == "organiser" and not visitor.organiser:
                return missing(request, visitor)
            try:
                return await handler(request, visitor, form)
            except views.NotFound:
                return missing(request, visitor)

        return endpoint

    # -- public pages

    async def leaderboard(request: Request, visitor: Visitor) -> Response:
        context = await run_in_threadpool(views.leaderboard, contest)
        return render(request, visitor, "leaderboard", **context)

    async def final(request: Request, visitor: Visitor) -> Response:
        if not (contest.flag("published") or visitor.organiser):
            raise views.NotFound
        context = await run_in_threadpool(views.final_board, contest)
        return render(request, visitor, "final", **context, title="final ranking")

    async def game(request: Request, visitor: Visitor) -> Response:
        game_id = views.number(request.path_params["game_id"])
        context = await run_in_threadpool(views.game, contest, game_id, visitor)
        return render(request, visitor, "game", **context)

    async def viewer(request: Request, visitor: Visitor) -> Response:
        game_id = views.number(request.path_params["game_id"])
        text = await run_in_threadpool(views.viewer, contest, game_id, visitor)
        response = HTMLResponse(text)
        response.headers["cache-control"] = "no-store"
        return response

    async def events(request: Request) -> Response:
        watcher = contest.league.watcher
        if watcher.streams >= max_streams:
            return Response("503: too many open event streams\n", status_code=503)
        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        return StreamingResponse(watcher.stream(), media_type="text/event-stream", headers=headers)

    # -- signing in and out

    async def login_page(request: Request, visitor: Visitor) -> Response:
        return render(request, visitor, "login", message="", login="", title="sign in")

    async def login(request: Request, visitor: Visitor, form: Form) -> Response:
        name, password = form.get("login")[:200], form.get("password")[:1024]
        client = request.client.host if request.client else "?"
        wait = sessions.login_wait_s(client, name)
        if wait > 0:
            message = f"too many failed sign-ins: try again in {int(wait // 60) + 1} minutes"
            return render(request, visitor, "login", 429, message=message, login=name)
        account = await run_in_threadpool(contest.accounts.authenticate, name, password)
        if account is None:
            sessions.login_failed(client, name)
            message = "wrong name or password (or the account awaits an organiser's approval)"
            return render(request, visitor, "login", 403, message=message, login=name)
        await run_in_threadpool(sessions.sign_in, visitor, account)
        contest.accounts.note(account.id, "signed in")
        return redirect(visitor, "/organise" if account.organiser else "/me")

    async def logout(request: Request, visitor: Visitor, form: Form) -> Response:
        await run_in_threadpool(sessions.sign_out, visitor)
        return redirect(visitor, "/")

    async def signup_page(request: Request, visitor: Visitor) -> Response:
        if config.sign_up != "approve":
            raise views.NotFound
        return render(request, visitor, "signup", message="", name="", title="sign up")

    async def signup(request: Request, visitor: Visitor, form: Form) -> Response:
        if config.sign_up != "approve":
            raise views.NotFound
        name = form.get("name")[:200]
        try:
            account = await run_in_threadpool(contest.accounts.sign_up, name, form.get("password"))
        except AccountError as exc:
            return render(request, visitor, "signup", 400, message=str(exc), name=name)
        contest.accounts.note(account.id, "signed up", account.name)
        message = "Thank you: an organiser approves your account, then you can sign in."
        return render(request, visitor, "done", message=message, title="signed up")

    async def welcome_page(request: Request, visitor: Visitor) -> Response:
        token = request.path_params["token"]
        account = await run_in_threadpool(contest.accounts.link_account, token)
        if account is None:
            return missing(request, visitor, "this link is used up or too old")
        return render(request, visitor, "welcome", account=account, message="", title="welcome")

    async def welcome(request: Request, visitor: Visitor, form: Form) -> Response:
        token = request.path_params["token"]
        if form.get("password") != form.get("again"):
            account = await run_in_threadpool(contest.accounts.link_account, token)
            if account is None:
                return missing(request, visitor, "this link is used up or too old")
            message = "the two passwords differ"
            return render(request, visitor, "welcome", 400, account=account, message=message)
        try:
            account = await run_in_threadpool(
                contest.accounts.use_link, token, form.get("password")
            )
        except AccountError as exc:
            found = await run_in_threadpool(contest.accounts.link_account, token)
            if found is None:
                return missing(request, visitor, str(exc))
            return render(request, visitor, "welcome", 400, account=found, message=str(exc))
        contest.accounts.note(account.id, "set a password")
        await run_in_threadpool(sessions.sign_in, visitor, account)
        return redirect(visitor, "/organise" if account.organiser else "/me")

    # -- a participant's own page

    async def me(request: Request, visitor: Visitor) -> Response:
        if visitor.account is None:
            return redirect(visitor, "/login")
        context = await run_in_threadpool(views.mine, contest, visitor.account.id)
        return render(request, visitor, "me", **context, message="", title="my bots")

    async def upload(request: Request, visitor: Visitor, form: Form) -> Response:
        assert visitor.account is not None
        owner = visitor.account.id
        if "file" in form.files and form.files["file"][0]:
            filename, data = form.files["file"]
        else:
            filename, data = form.get("filename").strip(), form.get("source").encode()
        if len(data) > config.max_upload_bytes:
            message = f"too large: at most {config.max_upload_kb} KiB"
            return render(request, visitor, "error", 413, message=message)
        try:
            await run_in_threadpool(views.submit, contest, owner, filename, data)
        except ArenaError as exc:
            context = await run_in_threadpool(views.mine, contest, owner)
            text = views.no_paths(str(exc), config.output)
            return render(request, visitor, "me", 400, **context, message=text)
        contest.wake()
        return redirect(visitor, "/me")

    async def version(request: Request, visitor: Visitor) -> Response:
        if visitor.account is None:
            raise views.NotFound
        owner = request.path_params.get("owner", visitor.account.id)
        if owner != visitor.account.id and not visitor.organiser:
            raise views.NotFound
        number = views.number(request.path_params["number"])
        context = await run_in_threadpool(views.version, contest, owner, number)
        return render(request, visitor, "version", **context)

    # -- the organisers' page

    async def organise(request: Request, visitor: Visitor) -> Response:
        if not visitor.organiser:
            raise views.NotFound
        context = await run_in_threadpool(views.organiser, contest)
        return render(request, visitor, "organise", **context, link="", message="")

    async def act(request: Request, visitor: Visitor, form: Form) -> Response:
        assert visitor.account is not None
        action = request.path_params["action"]
        base = config.public_url or str(request.base_url)
        try:
            link = await run_in_threadpool(
                views.organiser_action, contest, visitor.account, action, form, base
            )
        except AccountError as exc:
            context = await run_in_threadpool(views.organiser, contest)
            return render(request, visitor, "organise", 400, **context, link="", message=str(exc))
        if link:
            context = await run_in_threadpool(views.organiser, contest)
            return render(request, visitor, "organise", **context, link=link, message="")
        return redirect(visitor, "/organise")

    async def export(request: Request, visitor: Visitor) -> Response:
        if not visitor.organiser or not has_final():
            raise views.NotFound
        kind = request.path_params["kind"]
        if kind not in ("csv", "json", "zip"):
            raise views.NotFound
        body, media = await run_in_threadpool(views.export, contest, kind)
        name = {"csv": "leaderboard.csv", "json": "leaderboard.json", "zip": "replays.zip"}[kind]
        headers = {"content-disposition": f'attachment; filename="{name}"'}
        return Response(body, media_type=media, headers=headers)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        contest.league.watcher.start()
        try:
            yield
        finally:
            await contest.league.watcher.stop()

    routes = [
        Route("/", get(leaderboard)),
        Route("/final", get(final)),
        Route("/games/{game_id}", get(game)),
        Route("/games/{game_id}/viewer", get(viewer)),
        Route("/events", events),
        Route("/login", get(login_page)),
        Route("/login", post(login), methods=["POST"]),
        Route("/logout", post(logout), methods=["POST"]),
        Route("/signup", get(signup_page)),
        Route("/signup", post(signup), methods=["POST"]),
        Route("/welcome/{token}", get(welcome_page)),
        Route("/welcome/{token}", post(welcome), methods=["POST"]),
        Route("/me", get(me)),
        Route("/me/upload", post(upload, config.max_upload_bytes, "participant"), methods=["POST"]),
        Route("/me/versions/{number}", get(version)),
        Route("/organise", get(organise)),
        Route("/organise/versions/{owner}/{number}", get(version)),
        Route("/organise/export.{kind}", get(export)),
        Route("/organise/{action}", post(act, who="organiser"), methods=["POST"]),
        Mount("/static", StaticFiles(directory=WEB_STATIC), name="static"),
        Mount("/contest-static", StaticFiles(directory=STATIC), name="contest-static"),
    ]

    async def no_route(request: Request, exc: Exception) -> Response:
        visitor = await run_in_threadpool(sessions.visitor, request)
        return missing(request, visitor)

    handlers = {404: no_route, 405: no_route}
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers=handlers)
    app.add_middleware(HostMiddleware, hosts=contest.hosts)
    return app


class HostMiddleware:
    """Refuses a request whose ``Host`` is not one this contest answers to (a page on
    another site cannot reach a loopback contest through a DNS name of its own)."""

    def __init__(self, app: Any, hosts: frozenset[str] | None) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and self.hosts is not None:
            headers = dict(scope["headers"])
            host = headers.get(b"host", b"").decode("latin-1").lower()
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            if host not in self.hosts and name not in self.hosts:
                response = Response("403: unknown host\n", status_code=403)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)
