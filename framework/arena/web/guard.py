"""Who may use the app: the token a LAN server asks for, and the checks on requests that
change something (same origin, the page's CSRF token).

On loopback no token is asked, but the ``Host`` header must name this machine (a page
elsewhere cannot reach the app by a DNS name of its own). With ``--host`` for a LAN,
every request needs ``?token=...`` once (then a cookie holds it).
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from urllib.parse import parse_qs, urlsplit

from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

COOKIE = "arena_token"
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1", "[::1]")


def new_token() -> str:
    """A random token for a URL or a form."""
    return secrets.token_urlsafe(24)


@dataclass(frozen=True)
class Guard:
    """The server's secrets: the URL token (``None`` on loopback) and the CSRF token."""

    token: str | None = None
    csrf: str = field(default_factory=new_token)

    def same_origin(self, request: Request) -> bool:
        """Whether a state-changing request comes from one of this app's pages."""
        host = request.headers.get("host", "")
        origin = request.headers.get("origin") or request.headers.get("referer")
        if not origin or urlsplit(origin).netloc != host:
            return False
        given = request.headers.get("x-csrf-token", "")
        return hmac.compare_digest(given.encode(), self.csrf.encode())


class GuardMiddleware:
    """Refuses requests with a foreign ``Host`` (loopback) or without the token (LAN)."""

    def __init__(self, app: ASGIApp, guard: Guard) -> None:
        self.app = app
        self.guard = guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        token = self.guard.token
        if token is None:
            host = urlsplit("//" + headers.get("host", "")).hostname or ""
            if host not in LOOPBACK_NAMES:
                await _refuse(scope, receive, send, "this server answers on loopback only")
                return
            await self.app(scope, receive, send)
            return
        given = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token", [""])[0]
        cookie = SimpleCookie()
        cookie.load(headers.get("cookie", ""))
        held = cookie[COOKIE].value if COOKIE in cookie else ""
        if hmac.compare_digest(given.encode(), token.encode()):
            await self.app(scope, receive, _setting_cookie(send, token))
        elif hmac.compare_digest(held.encode(), token.encode()):
            await self.app(scope, receive, send)
        else:
            await _refuse(scope, receive, send, "open the URL arena serve printed (with ?token=)")


def _setting_cookie(send: Send, token: str) -> Send:
    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            cookie = f"{COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/"
            message["headers"] = [*message.get("headers", []), (b"set-cookie", cookie.encode())]
        await send(message)

    return wrapped


async def _refuse(scope: Scope, receive: Receive, send: Send, why: str) -> None:
    await PlainTextResponse(f"403 forbidden: {why}\n", status_code=403)(scope, receive, send)
