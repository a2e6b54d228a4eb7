"""Who takes part in a contest: accounts, one-time links, and the audit trail, in
``OUTPUT/contest/contest.sqlite`` (tables ``accounts``, ``links``, ``audit``; the version
store of :mod:`arena.contest.submissions` keeps its own tables in the same file).

An account is an organiser (named in the contest file) or a participant (invited by an
organiser, or signed up and approved). Passwords are kept only as ``hashlib.scrypt``
hashes; a one-time link (an organiser's first password, an invitation) is a random token
of which only the SHA-256 is stored, so the database never holds anything that signs in.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import sqlite3
import threading
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from arena.errors import ArenaError

DB_DIR = "contest"
DB_NAME = "contest.sqlite"
Role = Literal["organiser", "participant"]
State = Literal["invited", "pending", "active", "removed"]
"""``invited``: a link was made, no password yet; ``pending``: signed up, awaiting an
organiser; ``active``: may sign in; ``removed``: by an organiser (its bots retired)."""
LINK_TTL_S = 7 * 24 * 3600.0
"""How long a one-time link stays good: a week."""
MIN_PASSWORD = 10
MAX_PASSWORD = 1024
MAX_ID = 32
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
"""scrypt's cost: 16 MiB and about 50 ms a hash (OWASP's minimum is N=2**17 with r=8 for
a login server; a club's contest keeps memory small, the login rate limit does the rest)."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    email TEXT,
    role TEXT NOT NULL,
    state TEXT NOT NULL,
    password TEXT,
    created REAL NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS accounts_name ON accounts (name COLLATE NOCASE);
CREATE TABLE IF NOT EXISTS links (
    hash TEXT PRIMARY KEY,
    account TEXT NOT NULL REFERENCES accounts (id),
    expires REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    hash TEXT PRIMARY KEY,
    account TEXT NOT NULL REFERENCES accounts (id),
    csrf TEXT NOT NULL,
    expires REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS audit (
    at REAL NOT NULL,
    actor TEXT,
    action TEXT NOT NULL,
    detail TEXT NOT NULL
);
"""


class AccountError(ArenaError):
    """One line a person may read: why a sign-up, an invitation or a password is refused."""


@dataclass(frozen=True)
class Account:
    """A person of the contest. ``id`` is a short slug (``[a-z0-9_-]+``): the owner of its
    bots' versions and the start of their league names (``ada-v3``)."""

    id: str
    name: str
    email: str | None
    role: Role
    state: State
    created: float

    @property
    def organiser(self) -> bool:
        """Whether the account is an organiser's."""
        return self.role == "organiser"


def digest(token: str) -> str:
    """What is stored of a token: its SHA-256 (a random token needs no slow hash)."""
    return hashlib.sha256(token.encode()).hexdigest()


def hash_password(password: str) -> str:
    """``scrypt$N$r$p$salt$hash`` (hex), with a random salt."""
    salt = secrets.token_bytes(16)
    key = hashlib.scrypt(password.encode(), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=32)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${salt.hex()}${key.hex()}"


def check_password(password: str, stored: str | None) -> bool:
    """Whether ``password`` is the one ``stored`` was made from (in constant time)."""
    if not stored:
        hash_password(password)  # the same time as a real check: no account is revealed
        return False
    kind, n, r, p, salt, key = stored.split("$")
    if kind != "scrypt":
        return False
    got = hashlib.scrypt(
        password.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p), dklen=32
    )
    return hmac.compare_digest(got, bytes.fromhex(key))


def password_problem(password: str) -> str | None:
    """Why a new password is refused, or None."""
    if len(password) < MIN_PASSWORD:
        return f"a password has at least {MIN_PASSWORD} characters"
    if len(password) > MAX_PASSWORD:
        return f"a password has at most {MAX_PASSWORD} characters"
    return None


def slug(name: str) -> str:
    """An account id made from a name or e-mail address: ``Ada Lovelace`` -> ``ada-lovelace``,
    ``carol@example.org`` -> ``carol``."""
    text = name.split("@", 1)[0] if "@" in name else name
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    text = re.sub(r"[^a-z0-9_]+", "-", text).strip("-_")
    return text[:MAX_ID].rstrip("-_") or "p"


class Accounts:
    """The contest's accounts in ``OUTPUT/contest/contest.sqlite`` (safe across threads:
    one connection, a lock around each use)."""

    def __init__(self, output: Path) -> None:
        folder = output / DB_DIR
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / DB_NAME
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA busy_timeout=10000")
            self._db.executescript(SCHEMA)

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()

    # -- reading

    def _rows(self, sql: str, args: tuple[object, ...] = ()) -> list[Account]:
        with self._lock:
            rows = self._db.execute(
                f"SELECT id, name, email, role, state, created FROM accounts {sql}", args
            ).fetchall()
        return [Account(*row) for row in rows]

    def get(self, account_id: str) -> Account | None:
        """The account with this id, or None."""
        found = self._rows("WHERE id = ?", (account_id,))
        return found[0] if found else None

    def find(self, login: str) -> Account | None:
        """The account a sign-in names: by its id, name or e-mail address (any case)."""
        login = login.strip()
        found = self._rows(
            "WHERE id = ? OR name = ? COLLATE NOCASE OR email = ? COLLATE NOCASE",
            (login.lower(), login, login),
        )
        return found[0] if found else None

    def all(self, role: Role | None = None) -> list[Account]:
        """Every account (of ``role``), oldest first."""
        if role is None:
            return self._rows("ORDER BY created, id")
        return self._rows("WHERE role = ? ORDER BY created, id", (role,))

    # -- creating

    def _free_id(self, name: str) -> str:
        base = slug(name)
        candidate, n = base, 1
        while self.get(candidate) is not None:
            n += 1
            candidate = f"{base[: MAX_ID - 4]}-{n}"
        return candidate

    def create(self, name: str, role: Role, state: State, password: str | None = None) -> Account:
        """A new account; :class:`AccountError` when the name (any case) is taken."""
        name = " ".join(name.split())
        if not name or len(name) > 64 or not name.isprintable():
            raise AccountError("a name is printable text of 1 to 64 characters")
        if self.find(name) is not None:
            raise AccountError(f"the name {name!r} is taken")
        email = name if "@" in name else None
        account = Account(self._free_id(name), name, email, role, state, time.time())
        hashed = hash_password(password) if password is not None else None
        with self._lock:
            self._db.execute(
                "INSERT INTO accounts VALUES (?, ?, ?, ?, ?, ?, ?)",
                (account.id, name, email, role, state, hashed, account.created),
            )
        return account

    def ensure(self, name: str, role: Role) -> Account:
        """The account of a person named in the contest file, created (``invited``) when new;
        an existing participant named as an organiser becomes one."""
        found = self.find(name)
        if found is None:
            return self.create(name, role, "invited")
        if role == "organiser" and found.role != "organiser":
            self._set(found.id, "role", "organiser")
            found = self.get(found.id) or found
        return found

    def sign_up(self, name: str, password: str) -> Account:
        """Open sign-up: a participant awaiting an organiser's approval."""
        if (why := password_problem(password)) is not None:
            raise AccountError(why)
        return self.create(name, "participant", "pending", password)

    def _set(self, account_id: str, column: str, value: object) -> None:
        assert column in ("role", "state", "password")
        with self._lock:
            self._db.execute(f"UPDATE accounts SET {column} = ? WHERE id = ?", (value, account_id))

    def set_state(self, account_id: str, state: State) -> None:
        """Approve (``active``) or remove (``removed``) an account; its sessions end on removal."""
        self._set(account_id, "state", state)
        if state != "active":
            with self._lock:
                self._db.execute("DELETE FROM sessions WHERE account = ?", (account_id,))

    def has_password(self, account_id: str) -> bool:
        """Whether the account has chosen its password."""
        with self._lock:
            row = self._db.execute(
                "SELECT password FROM accounts WHERE id = ?", (account_id,)
            ).fetchone()
        return bool(row and row[0])

    # -- one-time links

    def new_link(self, account_id: str, now: float | None = None) -> str:
        """A one-time token that sets the account's password (its earlier links end)."""
        token = secrets.token_urlsafe(32)
        expires = (now or time.time()) + LINK_TTL_S
        with self._lock:
            self._db.execute("DELETE FROM links WHERE account = ?", (account_id,))
            self._db.execute(
                "INSERT INTO links VALUES (?, ?, ?)", (digest(token), account_id, expires)
            )
        return token

    def link_account(self, token: str) -> Account | None:
        """The account a link is for, while the link is good (else None)."""
        with self._lock:
            row = self._db.execute(
                "SELECT account FROM links WHERE hash = ? AND expires > ?",
                (digest(token), time.time()),
            ).fetchone()
        account = self.get(row[0]) if row else None
        return account if account is not None and account.state != "removed" else None

    def use_link(self, token: str, password: str) -> Account:
        """Set the password through a link (used up by it); the account becomes active."""
        if (why := password_problem(password)) is not None:
            raise AccountError(why)
        account = self.link_account(token)
        if account is None:
            raise AccountError("this link is used up or too old: ask an organiser for a new one")
        with self._lock:
            self._db.execute("DELETE FROM links WHERE account = ?", (account.id,))
        self._set(account.id, "password", hash_password(password))
        if account.state == "invited":
            self._set(account.id, "state", "active")
        return self.get(account.id) or account

    def authenticate(self, login: str, password: str) -> Account | None:
        """The active account whose password this is, else None (in about the same time
        whether or not the account exists)."""
        account = self.find(login)
        with self._lock:
            row = (
                self._db.execute(
                    "SELECT password FROM accounts WHERE id = ?", (account.id,)
                ).fetchone()
                if account
                else None
            )
        stored = row[0] if row else None
        if not check_password(password, stored) or account is None:
            return None
        return account if account.state == "active" else None

    # -- sessions

    def new_session(self, account_id: str, ttl_s: float) -> tuple[str, str]:
        """A session's cookie token and its CSRF token (only the cookie's hash is stored)."""
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
        with self._lock:
            self._db.execute("DELETE FROM sessions WHERE expires < ?", (time.time(),))
            self._db.execute(
                "INSERT INTO sessions VALUES (?, ?, ?, ?)",
                (digest(token), account_id, csrf, time.time() + ttl_s),
            )
        return token, csrf

    def session(self, token: str) -> tuple[Account, str] | None:
        """The active account a session cookie signs in, with the session's CSRF token."""
        if not token or len(token) > 128:
            return None
        with self._lock:
            row = self._db.execute(
                "SELECT account, csrf FROM sessions WHERE hash = ? AND expires > ?",
                (digest(token), time.time()),
            ).fetchone()
        account = self.get(row[0]) if row else None
        if account is None or account.state != "active":
            return None
        return account, row[1]

    def end_session(self, token: str) -> None:
        """Sign a session out."""
        with self._lock:
            self._db.execute("DELETE FROM sessions WHERE hash = ?", (digest(token),))

    # -- audit

    def note(self, actor: str | None, action: str, detail: str = "") -> None:
        """One line of the audit trail (who did what, when)."""
        with self._lock:
            self._db.execute(
                "INSERT INTO audit VALUES (?, ?, ?, ?)", (time.time(), actor, action, detail)
            )

    def audit(self, limit: int = 50) -> list[tuple[float, str | None, str, str]]:
        """The newest lines of the audit trail, newest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT at, actor, action, detail FROM audit ORDER BY at DESC LIMIT ?", (limit,)
            ).fetchall()
        return [tuple(r) for r in rows]
