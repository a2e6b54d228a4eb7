"""A running contest: its accounts, the version store, the league's run, the background
work (building uploads, the final ranking) and the flags the organisers set.

Everything lasting is in files and SQLite under the output folder, so a restart of the
server loses nothing; what lives only here is the work in progress (started again by the
next start: queued versions stay queued).
"""

from __future__ import annotations

import contextlib
import sqlite3
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from arena.contest.accounts import Account, Accounts
from arena.contest.config import ContestConfig
from arena.contest.sessions import Sessions
from arena.web.app import Served
from arena.web.child import RunChild
from arena.web.folder import Folder
from arena.web.guard import Guard

PIPELINE_WAIT_S = 1.0
"""How often the background thread looks for queued versions when nothing wakes it."""
FINAL_DIR = "final"
OPEN_FILES = 4096
"""The open files a contest server asks for: ``MAX_CONNECTIONS`` sockets and room to spare."""
MAX_CONNECTIONS = 1024
"""Open connections at most (uvicorn's ``limit_concurrency``): one more is answered 503."""


class Version(Protocol):
    """A participant's upload as :mod:`arena.contest.submissions` keeps it."""

    owner: str
    number: int
    bot: str
    filename: str
    language: str
    state: str
    reason: str | None
    created: float


class VersionStore(Protocol):
    """What the server uses of :class:`arena.contest.submissions.Submissions`."""

    frozen: bool

    def submit(self, owner: str, filename: str, data: bytes) -> Any:
        """Check and store an upload as a new queued version."""

    def process_pending(self) -> list[Any]:
        """Build, validate and rank every queued version."""

    def versions(self, owner: str | None = None) -> list[Any]:
        """The versions (of one owner)."""

    def version(self, owner: str, number: int) -> Any | None:
        """One version, or None."""

    def source(self, owner: str, number: int) -> bytes:
        """A version's source as uploaded."""

    def build_log(self, owner: str, number: int) -> str:
        """A version's build log."""

    def retire_owner(self, owner: str) -> None:
        """Retire every version of a removed participant."""


@dataclass
class FinalState:
    """The final ranking's progress: ``none``, ``running``, ``done``, ``failed`` or
    ``stopped`` (the server stopped during it; running it again resumes it)."""

    state: str = "none"
    message: str = ""


STOPPED_FINAL = "the server stopped before its end: run it again to finish it"


def final_state(folder: Path) -> FinalState:
    """Where the final ranking in ``folder`` was left, as a server starting finds it: its
    run's status says whether it ended (``done``) or was cut short (``stopped``)."""
    from arena.results.status import read_status

    if not (folder / "arena.sqlite").is_file():
        return FinalState()
    status = read_status(folder) or {}
    if status.get("state") == "done":
        return FinalState("done")
    return FinalState("stopped", STOPPED_FINAL)


@dataclass
class Contest:
    """One served contest."""

    config: ContestConfig
    accounts: Accounts
    sessions: Sessions
    versions: VersionStore | None = None
    child: RunChild | None = None
    hosts: frozenset[str] | None = None  # the Host names answered (None: any)
    final: FinalState = field(default_factory=FinalState)

    def __post_init__(self) -> None:
        self.league = Served(Folder(self.config.output), Guard(None), self.child)
        self._wake = threading.Event()
        self._closing = threading.Event()
        self._thread: threading.Thread | None = None
        self._flags_lock = threading.Lock()
        with self._flags_db() as db:
            db.execute("CREATE TABLE IF NOT EXISTS flags (key TEXT PRIMARY KEY, value TEXT)")
        self.final = final_state(self.config.output / FINAL_DIR)

    # -- flags the organisers set (kept in contest.sqlite)

    @contextlib.contextmanager
    def _flags_db(self) -> Any:
        with self._flags_lock:
            db = sqlite3.connect(self.accounts.path, isolation_level=None, timeout=10)
            try:
                yield db
            finally:
                db.close()

    def flag(self, key: str) -> bool:
        """Whether an organiser's switch (``frozen``, ``published``) is on."""
        if key == "frozen" and self.versions is not None:
            return bool(self.versions.frozen)  # the version store's own flag
        with self._flags_db() as db:
            row = db.execute("SELECT value FROM flags WHERE key = ?", (key,)).fetchone()
        return bool(row and row[0] == "1")

    def set_flag(self, key: str, on: bool) -> None:
        """Turn an organiser's switch on or off (kept across restarts)."""
        if key == "frozen" and self.versions is not None:
            self.versions.frozen = on
            return
        with self._flags_db() as db:
            db.execute("INSERT OR REPLACE INTO flags VALUES (?, ?)", (key, "1" if on else "0"))

    # -- who owns what

    def owners(self) -> dict[str, str]:
        """Each participant's league bot (``ada-v2``) and its owner's account id."""
        if self.versions is None:
            return {}
        return {v.bot: v.owner for v in self.versions.versions()}

    def names(self) -> dict[str, str]:
        """Each account id and the name shown for it."""
        return {a.id: a.name for a in self.accounts.all()}

    # -- background work

    def start(self) -> None:
        """Start the league's run and the thread building queued uploads."""
        enough_open_files()
        if self.child is not None:
            self.child.start()
        self._thread = threading.Thread(target=self._pipeline, name="contest-builds", daemon=True)
        self._thread.start()

    def wake(self) -> None:
        """A version was uploaded: build it now."""
        self._wake.set()

    def close(self) -> None:
        """Stop the background work and the league's run (running games end and are stored)."""
        self._closing.set()
        self._wake.set()
        if self.child is not None:
            self.child.stop()  # the league winds down while a build in progress ends
        if self._thread is not None:
            self._thread.join(timeout=60)
        if self.child is not None:
            self.child.close()
        self.accounts.close()

    def _pipeline(self) -> None:
        """Build, validate and rank queued versions; (re)start the league when one joins
        (a league of too few bots ends at once: it starts again with more)."""
        while not self._closing.is_set():
            self._wake.wait(PIPELINE_WAIT_S)
            self._wake.clear()
            if self.versions is None or self._closing.is_set():
                continue
            try:
                done = self.versions.process_pending()
            except Exception as exc:  # one line on the server's stderr; the next upload retries
                print(f"arena: contest: building uploads failed: {exc}", file=sys.stderr)
                continue
            joined = any(v.state == "ranked" for v in done) and not self._closing.is_set()
            if joined and self.child is not None and self.final.state != "running":
                self.child.start()

    def run_final(self) -> bool:
        """Start the final ranking in a thread (the league stops first); False when running."""
        if self.final.state == "running":
            return False
        self.final = FinalState("running")
        threading.Thread(target=self._final, name="contest-final", daemon=True).start()
        return True

    def _final(self) -> None:
        from arena.contest.final import run_final  # type: ignore[import-not-found,unused-ignore]

        try:
            if self.child is not None:
                self.child.close()
            run_final(self.config.output, self.config.final_games)
        except Exception as exc:
            self.final = FinalState("failed", str(exc).splitlines()[0] if str(exc) else "")
            return
        self.final = FinalState("done")

    @property
    def final_output(self) -> Path:
        """The final ranking's output folder."""
        return self.config.output / FINAL_DIR

    def welcome(self, base_url: str) -> list[str]:
        """The accounts of the contest file made, and a one-time link printed for each one
        without a password yet (organisers set theirs first; invited people get theirs)."""
        lines = []
        for person in self.config.organisers:
            lines += self._welcome(self.accounts.ensure(person, "organiser"), base_url)
        for person in self.config.invite:
            lines += self._welcome(self.accounts.ensure(person, "participant"), base_url)
        return lines

    def _welcome(self, account: Account, base_url: str) -> list[str]:
        if self.accounts.has_password(account.id) or account.state == "removed":
            return []
        token = self.accounts.new_link(account.id)
        return [f"arena contest: {account.role} {account.name}: {base_url}welcome/{token}"]


def enough_open_files() -> int:
    """Raise this process's soft limit of open files to :data:`OPEN_FILES` (or the hard
    limit, if lower): the server's 1024 connections at most, and the builds and games of
    uploads besides, must fit (a common soft limit is 1024). The limit now in force."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = OPEN_FILES if hard == resource.RLIM_INFINITY else min(OPEN_FILES, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            return wanted
    return soft


def version_store(config: ContestConfig) -> VersionStore | None:
    """The contest's version store (:mod:`arena.contest.submissions`), if installed."""
    import importlib
    import importlib.util

    if importlib.util.find_spec("arena.contest.submissions") is None:
        return None
    uploads = importlib.import_module("arena.contest.uploads")
    submissions = importlib.import_module("arena.contest.submissions")
    rules = uploads.UploadRules(
        languages=config.languages,
        max_bytes=config.max_upload_bytes,
        per_hour=config.uploads_per_hour,
    )
    store: VersionStore = submissions.Submissions(config.output, rules, keep=config.keep_versions)
    return store


def open_contest(config: ContestConfig, loopback: bool) -> Contest:
    """The contest of a checked contest file whose output folder and league file exist.

    Its cookies are ``Secure`` unless it is reached on this machine only (loopback, no
    ``public_url`` or an ``http`` one); on loopback it answers only to this machine's names
    and the public address's."""
    from urllib.parse import urlsplit

    from arena.web.guard import LOOPBACK_NAMES

    public = urlsplit(config.public_url) if config.public_url else None
    secure = not loopback or (public is not None and public.scheme == "https")
    hosts = None
    if loopback:
        names = set(LOOPBACK_NAMES)
        if public is not None:
            names |= {public.netloc.lower(), (public.hostname or "").lower()}
        hosts = frozenset(names)
    accounts = Accounts(config.output)
    sessions = Sessions(
        accounts, secure, config.public_url.rstrip("/") if config.public_url else None
    )
    child = RunChild(config.tournament_path, config.output)
    return Contest(config, accounts, sessions, version_store(config), child, hosts)
