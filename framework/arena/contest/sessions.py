"""Who is asking: the sign-in cookie, the CSRF token of every form, the same-origin check
and the login rate limit.

The session cookie holds a random token (only its hash is stored, :mod:`.accounts`); it is
HTTP-only, ``SameSite=Strict`` and ``Secure`` whenever the contest is reached beyond this
machine. Every state-changing request carries a CSRF token (a form field or the
``X-CSRF-Token`` header) and an ``Origin`` (or ``Referer``) naming this server: the session's
own token when signed in, else the ``arena_csrf`` cookie's value (a browser sends no
``SameSite=Strict`` cookie with another site's request, so a forged form has none).
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from urllib.parse import urlsplit

from starlette.requests import Request

from arena.contest.accounts import Account, Accounts

COOKIE = "arena_session"
CSRF_COOKIE = "arena_csrf"
SESSION_TTL_S = 14 * 24 * 3600.0
"""A sign-in lasts two weeks (or until signing out, or the account's removal)."""
LOGIN_WINDOW_S = 15 * 60.0
ACCOUNT_FAILURES = 5
"""Failed sign-ins per account in :data:`LOGIN_WINDOW_S` before it waits."""
CLIENT_FAILURES = 20
"""Failed sign-ins per client address in :data:`LOGIN_WINDOW_S` before it waits."""


class RateLimit:
    """At most ``limit`` failures per key in ``window_s`` (a sliding window, in memory)."""

    def __init__(self, limit: int, window_s: float = LOGIN_WINDOW_S) -> None:
        self.limit = limit
        self.window_s = window_s
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def wait_s(self, key: str, now: float | None = None) -> float:
        """Seconds until ``key`` may try again (0: now)."""
        now = time.monotonic() if now is None else now
        with self._lock:
            times = self._failures.get(key)
            if not times:
                return 0.0
            while times and times[0] <= now - self.window_s:
                times.popleft()
            if len(times) < self.limit:
                return 0.0
            return times[0] + self.window_s - now

    def failed(self, key: str, now: float | None = None) -> None:
        """Count a failure of ``key``."""
        now = time.monotonic() if now is None else now
        with self._lock:
            if len(self._failures) > 100_000:  # a flood of names: forget the oldest half
                for old in list(self._failures)[:50_000]:
                    del self._failures[old]
            self._failures.setdefault(key, deque()).append(now)


@dataclass
class Visitor:
    """The person behind a request: its account (None: signed out), the CSRF token its
    forms carry, its session cookie's token, and whether the CSRF cookie is new."""

    account: Account | None
    csrf: str
    token: str | None = None
    new_csrf: bool = False
    set_cookies: list[str] = field(default_factory=list)

    @property
    def organiser(self) -> bool:
        """Whether the visitor is a signed-in organiser."""
        return self.account is not None and self.account.organiser


def cookies(request: Request) -> dict[str, str]:
    """The request's cookies by name (none when the header is malformed)."""
    jar = SimpleCookie()
    try:
        jar.load(request.headers.get("cookie", ""))
    except Exception:  # a malformed cookie header: as if it held none
        return {}
    return {k: v.value for k, v in jar.items()}


@dataclass
class Sessions:
    """The server's rules for cookies and origins."""

    accounts: Accounts
    secure: bool
    origin: str | None = None  # the public origin (https://contest.example.org), if known
    per_account: RateLimit = field(default_factory=lambda: RateLimit(ACCOUNT_FAILURES))
    per_client: RateLimit = field(default_factory=lambda: RateLimit(CLIENT_FAILURES))

    def cookie(self, name: str, value: str, max_age: int | None = None) -> str:
        """A ``Set-Cookie`` value: HTTP-only, ``SameSite=Strict``, ``Secure`` beyond loopback."""
        parts = [f"{name}={value}", "HttpOnly", "SameSite=Strict", "Path=/"]
        if max_age is not None:
            parts.append(f"Max-Age={max_age}")
        if self.secure:
            parts.append("Secure")
        return "; ".join(parts)

    def visitor(self, request: Request) -> Visitor:
        """Who sent ``request`` (looked up in the store once per request)."""
        jar = cookies(request)
        token = jar.get(COOKIE, "")
        found = self.accounts.session(token) if token else None
        if found is not None:
            return Visitor(found[0], found[1], token)
        csrf = jar.get(CSRF_COOKIE, "")
        if 20 <= len(csrf) <= 64 and csrf.replace("-", "").replace("_", "").isalnum():
            return Visitor(None, csrf)
        visitor = Visitor(None, secrets.token_urlsafe(24), new_csrf=True)
        visitor.set_cookies.append(self.cookie(CSRF_COOKIE, visitor.csrf))
        return visitor

    def sign_in(self, visitor: Visitor, account: Account) -> None:
        """Start a session (a new token: nothing from before the sign-in carries over)."""
        token, csrf = self.accounts.new_session(account.id, SESSION_TTL_S)
        visitor.account, visitor.token, visitor.csrf = account, token, csrf
        visitor.set_cookies.append(self.cookie(COOKIE, token, int(SESSION_TTL_S)))

    def sign_out(self, visitor: Visitor) -> None:
        """End the visitor's session and clear its cookie."""
        if visitor.token:
            self.accounts.end_session(visitor.token)
        visitor.account, visitor.token = None, None
        visitor.set_cookies.append(self.cookie(COOKIE, "", 0))

    def same_origin(self, request: Request) -> bool:
        """Whether the request's ``Origin`` (else ``Referer``) is this server."""
        origin = request.headers.get("origin") or request.headers.get("referer")
        if not origin:
            return False
        given = urlsplit(origin)
        if self.origin is not None:
            public = urlsplit(self.origin)
            return (given.scheme, given.netloc) == (public.scheme, public.netloc)
        return given.netloc == request.headers.get("host", "")

    def allowed(self, request: Request, visitor: Visitor, given: str | None) -> bool:
        """Whether a state-changing request is this visitor's, from this server's page."""
        if not self.same_origin(request) or visitor.new_csrf:
            return False
        given = given or request.headers.get("x-csrf-token", "")
        return hmac.compare_digest(given.encode(), visitor.csrf.encode())

    def login_wait_s(self, client: str, login: str) -> float:
        """Seconds before this client, or this account, may try to sign in again."""
        return max(self.per_client.wait_s(client), self.per_account.wait_s(login.lower()))

    def login_failed(self, client: str, login: str) -> None:
        """Count a failed sign-in against the client and the account."""
        self.per_client.failed(client)
        self.per_account.failed(login.lower())
