"""A contest's versions: each upload stored, built in the sandbox, validated by a game
against itself, and only then added to the league's roster with its owner.

Everything lives in the league's output folder, so a restart of the server loses nothing:

* ``contest/contest.sqlite``, table ``versions`` (one row per upload, its state and
  reason) and ``versions_meta`` (the ``frozen`` flag); no other table is touched;
* ``contest/uploads/<owner>/<n>/<file>``: the source as uploaded (the name checked by
  :func:`arena.contest.uploads.check_upload`, never a path from the upload);
* ``contest/builds/<owner>/<n>/``: ``build.log``, the build itself (botbuild's folder for
  the recipe, named by its digest) and ``validation/``, the validation game's files;
* ``roster.json``: each ranked version as ``{name, cmd, owner}``; versions beyond
  ``keep`` per owner retired (the league takes both up between rounds).

A version goes ``queued`` -> ``building`` -> ``validating`` -> ``ranked`` (later
``retired``), or stops at ``build failed`` or ``invalid`` with a one-line ``reason``.
:meth:`Submissions.process_pending` takes every version not yet decided, in upload order,
those a stopped server left ``building`` or ``validating`` included.
"""

from __future__ import annotations

import contextlib
import fcntl
import re
import shlex
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from arena.botbuild.build import BuildFailed, RecipeError, build, first_lines, make_recipe
from arena.contest.uploads import UploadRefused, UploadRules, check_rate, check_upload
from arena.records import BotSpec, Clock, GameRecord, GameSpec
from arena.text import shown_line
from arena.tournament.config import TournamentConfig, load_tournament
from arena.tournament.roster import read_roster, write_roster

CONTEST_DIR = "contest"
DB_NAME = "contest.sqlite"
LEAGUE_FILE = "tournament.yaml"
STATES = ("queued", "building", "build failed", "validating", "invalid", "ranked", "retired")
PENDING = ("queued", "building", "validating")
"""States of a version not yet decided: :meth:`Submissions.process_pending` takes them."""
OWNER = re.compile(r"[a-z0-9_-]{1,64}")
"""An account id (given by the accounts): it names folders, so nothing else is taken."""
REASON_CHARS = 300
"""Longest ``reason`` kept."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS versions (
    owner TEXT NOT NULL,
    number INTEGER NOT NULL,
    filename TEXT NOT NULL,
    language TEXT NOT NULL,
    state TEXT NOT NULL,
    reason TEXT,
    created REAL NOT NULL,
    PRIMARY KEY (owner, number)
);
CREATE INDEX IF NOT EXISTS versions_state ON versions (state, created);
CREATE TABLE IF NOT EXISTS versions_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


@dataclass(frozen=True)
class Version:
    """One upload of a participant and where it stands."""

    owner: str  # account id (a short slug, [a-z0-9_-]+)
    number: int  # 1, 2, ... per owner
    bot: str  # its league name: f"{owner}-v{number}"
    filename: str
    language: str
    state: str  # one of STATES
    reason: str | None  # why build failed / invalid (one line)
    created: float


def bot_name(owner: str, number: int) -> str:
    """A version's name in the league."""
    return f"{owner}-v{number}"


def _check_owner(owner: str) -> None:
    if not isinstance(owner, str) or OWNER.fullmatch(owner) is None:
        raise ValueError(f"not an account id: {owner!r}")


class Submissions:
    """The versions of a contest whose league runs in ``output``."""

    def __init__(self, output: Path, rules: UploadRules, keep: int = 3) -> None:
        if keep < 1:
            raise ValueError(f"keep must be at least 1, not {keep}")
        self.output = Path(output).resolve()
        self.rules = rules
        self.keep = keep
        self.root = self.output / CONTEST_DIR
        self.root.mkdir(parents=True, exist_ok=True)
        self.db_path = self.root / DB_NAME
        with self._db() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(_SCHEMA)

    # -- storage --------------------------------------------------------------------------

    @contextlib.contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        """A connection of its own (any thread may call), committed when the block ends."""
        db = sqlite3.connect(self.db_path, timeout=30, isolation_level=None)
        try:
            db.execute("PRAGMA busy_timeout = 30000")
            yield db
        finally:
            db.close()

    @contextlib.contextmanager
    def _locked(self, name: str) -> Iterator[None]:
        """An exclusive lock of this contest (between threads and processes alike)."""
        with open(self.root / f".{name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            yield

    def upload_dir(self, owner: str, number: int) -> Path:
        """Where a version's source is kept."""
        return self.root / "uploads" / owner / str(number)

    def build_dir(self, owner: str, number: int) -> Path:
        """Where a version is built (its log, its program, its validation game)."""
        return self.root / "builds" / owner / str(number)

    def _set_state(self, v: Version, state: str, reason: str | None = None) -> Version:
        with self._db() as db:
            db.execute(
                "UPDATE versions SET state = ?, reason = ? WHERE owner = ? AND number = ?",
                (state, reason, v.owner, v.number),
            )
        return replace(v, state=state, reason=reason)

    def _advance(self, v: Version, state: str, reason: str | None = None) -> Version:
        """Move a version of the pipeline on, unless it was decided meanwhile (its owner
        removed: ``retired``); the version as it now stands."""
        with self._db() as db:
            db.execute(
                "UPDATE versions SET state = ?, reason = ? WHERE owner = ? AND number = ?"
                f" AND state IN ({', '.join('?' * len(PENDING))})",
                (state, reason, v.owner, v.number, *PENDING),
            )
        return self.version(v.owner, v.number) or v

    @property
    def frozen(self) -> bool:
        """Whether submissions are frozen (set by the organiser; kept in the table's meta)."""
        with self._db() as db:
            row = db.execute("SELECT value FROM versions_meta WHERE key = 'frozen'").fetchone()
        return row is not None and row[0] == "1"

    @frozen.setter
    def frozen(self, value: bool) -> None:
        """Freeze (True) or open (False) submissions, for every later server too."""
        with self._db() as db:
            db.execute(
                "INSERT OR REPLACE INTO versions_meta (key, value) VALUES ('frozen', ?)",
                ("1" if value else "0",),
            )

    # -- reading --------------------------------------------------------------------------

    def versions(self, owner: str | None = None) -> list[Version]:
        """Every version (of ``owner``), oldest first."""
        query = "SELECT owner, number, filename, language, state, reason, created FROM versions"
        args: tuple[str, ...] = ()
        if owner is not None:
            query += " WHERE owner = ?"
            args = (owner,)
        with self._db() as db:
            rows = db.execute(query + " ORDER BY created, owner, number", args).fetchall()
        return [_version(row) for row in rows]

    def version(self, owner: str, number: int) -> Version | None:
        """One version, None when there is none."""
        with self._db() as db:
            row = db.execute(
                "SELECT owner, number, filename, language, state, reason, created FROM versions"
                " WHERE owner = ? AND number = ?",
                (owner, number),
            ).fetchone()
        return None if row is None else _version(row)

    def _known(self, owner: str, number: int) -> Version:
        found = self.version(owner, number)
        if found is None:
            raise KeyError(f"no version {number} of {owner!r}")
        return found

    def source(self, owner: str, number: int) -> bytes:
        """The source as uploaded (KeyError: no such version)."""
        v = self._known(owner, number)
        return (self.upload_dir(owner, number) / v.filename).read_bytes()

    def build_log(self, owner: str, number: int) -> str:
        """The build's log, paths of the server left out ("" before the build; KeyError: no
        such version)."""
        self._known(owner, number)
        try:
            return (self.build_dir(owner, number) / "build.log").read_text("utf-8", "replace")
        except FileNotFoundError:
            return ""

    # -- changes --------------------------------------------------------------------------

    def submit(self, owner: str, filename: str, data: bytes) -> Version:
        """Check an upload (:class:`UploadRefused`), store it as the owner's next version,
        ``queued``."""
        _check_owner(owner)
        if self.frozen:
            raise UploadRefused("submissions are frozen")
        language = check_upload(filename, data, self.rules)
        now = time.time()
        with self._db() as db:
            db.execute("BEGIN IMMEDIATE")  # one number per upload, the rate counted once
            try:
                (recent,) = db.execute(
                    "SELECT COUNT(*) FROM versions WHERE owner = ? AND created > ?",
                    (owner, now - 3600),
                ).fetchone()
                check_rate(recent, self.rules)
                (last,) = db.execute(
                    "SELECT MAX(number) FROM versions WHERE owner = ?", (owner,)
                ).fetchone()
                number = (last or 0) + 1
                folder = self.upload_dir(owner, number)
                _remove(folder)  # left by an upload that was never committed
                _remove(self.build_dir(owner, number))
                folder.mkdir(parents=True)
                (folder / filename).write_bytes(data)
                db.execute(
                    "INSERT INTO versions VALUES (?, ?, ?, ?, 'queued', NULL, ?)",
                    (owner, number, filename, language, now),
                )
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        return Version(owner, number, bot_name(owner, number), filename, language, "queued",
                       None, now)  # fmt: skip

    def retire_owner(self, owner: str) -> None:
        """The organiser removed ``owner``: its ranked versions retire from the league, and
        those not yet decided are never played."""
        with self._locked("roster"):
            mine = self.versions(owner)
            ranked = [v.bot for v in mine if v.state == "ranked"]
            roster = read_roster(self.output)
            retired = (*roster.retired, *(b for b in ranked if b not in roster.retired))
            if retired != roster.retired:
                write_roster(self.output, replace(roster, retired=retired))
            for v in mine:
                if v.state == "ranked":
                    self._set_state(v, "retired")
                elif v.state in PENDING:
                    self._set_state(v, "retired", "the participant was removed")

    def process_pending(self) -> list[Version]:
        """Build, validate and rank (or refuse) every version not yet decided, oldest
        first, until none is left; the versions as they ended. Blocks; one caller at a
        time processes (a second waits, then takes what is left)."""
        done: list[Version] = []
        with self._locked("process"):
            config: TournamentConfig | None = None
            while True:
                pending = [v for v in self.versions() if v.state in PENDING]
                pending = [v for v in pending if (v.owner, v.number) not in _keys(done)]
                if not pending:
                    return done
                if config is None:
                    config = self.league()
                done.append(self._process(pending[0], config))

    def league(self) -> TournamentConfig:
        """The league's tournament file (the game, its settings, the sandbox, the limits)."""
        from arena.plugins.registry import load_registry

        return load_tournament(self.output / LEAGUE_FILE, load_registry())

    # -- the pipeline ---------------------------------------------------------------------

    def _process(self, v: Version, config: TournamentConfig) -> Version:
        """One version through the pipeline; it stops where the version was decided
        meanwhile (retired with its owner)."""
        v = self._advance(v, "building")
        if v.state != "building":
            return v
        argv = self._build(v, config)
        if isinstance(argv, str):
            return self._advance(v, "build failed", argv)
        v = self._advance(v, "validating")
        if v.state != "validating":
            return v
        why = self._validate(v, argv, config)
        if why is not None:
            return self._advance(v, "invalid", why)
        return self._join(v, argv, config)

    def _hide_paths(self, text: str, v: Version) -> str:
        """``text`` without the server's paths: a participant sees its own files' names."""
        upload, built = self.upload_dir(v.owner, v.number), self.build_dir(v.owner, v.number)
        text = text.replace(f"{upload}/", "").replace(str(built), "build")
        return text.replace(str(self.output), "OUTPUT")

    def _build(self, v: Version, config: TournamentConfig) -> tuple[str, ...] | str:
        """The command that runs the built version, or why it does not build (one line);
        the build's log written either way."""
        from arena.execute.jobs import choose_sandbox

        folder = self.build_dir(v.owner, v.number)
        _remove(folder)  # a build a stopped server left half-way
        folder.mkdir(parents=True)
        source = self.upload_dir(v.owner, v.number) / v.filename
        sandbox = choose_sandbox(
            config.sandbox, None, [self.output], config.max_processes, f"{LEAGUE_FILE}: sandbox"
        )
        log = folder / "build.log"
        try:
            recipe = make_recipe(str(source), source.parent, language=v.language)
            built = build(
                recipe, sandbox, config.build_timeout_s, config.build_memory_mb, cache=folder
            )
        except RecipeError as refused:
            message = self._hide_paths(refused.message, v)
            log.write_text(message + "\n", "utf-8")
            return _one_line(message)
        except BuildFailed as failed:
            shown = self._hide_paths(f"$ {failed.command}\n{failed.output}", v)
            log.write_text(shown if shown.endswith("\n") else shown + "\n", "utf-8")
            lines = first_lines(self._hide_paths(failed.output, v))
            errors = [line for line in lines if "error" in line.lower()] or lines
            why = self._hide_paths(failed.why, v)
            return _one_line(f"{why}: {errors[0].strip()}" if errors else why)
        if recipe.steps:
            try:
                output = (built.out / "build.log").read_text("utf-8", "replace")
            except OSError:
                output = ""
            steps = "".join(
                f"$ {shlex.join(w.replace('{out}', str(built.out)) for w in step)}\n"
                for step in recipe.steps
            )
            log.write_text(self._hide_paths(steps + output, v) + "built\n", "utf-8")
        else:
            log.write_text(f"{v.language}: nothing to build, the source runs as it is\n")
        return built.argv

    def _validate(self, v: Version, argv: tuple[str, ...], config: TournamentConfig) -> str | None:
        """Why the version's validation game against itself makes it invalid (a forfeit),
        or None: it played the game through."""
        record = self._validation_game(v, argv, config)
        if isinstance(record, str):
            return record
        for seat in record.seats:
            if seat.forfeit is not None:
                detail = f" ({seat.detail})" if seat.detail else ""
                wrote = f"; it wrote {seat.raw[:80]!r}" if seat.raw else ""
                why = f"it forfeits its validation game: {seat.forfeit}{detail}{wrote}"
                return _one_line(self._hide_paths(why, v))
        return None

    def _validation_game(
        self, v: Version, argv: tuple[str, ...], config: TournamentConfig
    ) -> GameRecord | str:
        """One game of the version in every seat, played as the league's games are (its
        game, settings, sandbox, limits and clock); its files in ``validation/``."""
        from arena.events import Observers
        from arena.execute.executor import LocalExecutor
        from arena.execute.jobs import Job, choose_sandbox
        from arena.execute.pool import fork_safe
        from arena.tournament.play import GamePlan, play_plan

        sandbox = choose_sandbox(
            config.sandbox, config.memory_mb, [self.output], config.max_processes,
            f"{LEAGUE_FILE}: sandbox", config.disk_mb,
        )  # fmt: skip
        sandbox = replace(sandbox, files=config.files, read_only=config.read_only)
        seats = tuple(BotSpec(f"{v.bot}-seat{i + 1}", argv) for i in range(config.players))
        spec = GameSpec(0, 0, v.number, tuple(s.name for s in seats), "validation")
        game_dir = self.build_dir(v.owner, v.number) / "validation"
        game_dir.mkdir()
        clock = Clock(config.clock_scale, config.time_margin_ms, config.clock)
        job = Job(config.game, spec.seed, config.settings, seats, str(game_dir), sandbox,
                  clock=clock)  # fmt: skip
        records: list[GameRecord] = []
        failures: list[str] = []
        plan = GamePlan(f"validation of {v.bot}", None, iter([spec]), lambda _: job,
                        total=lambda: 1)  # fmt: skip
        executor = LocalExecutor(1, "fork" if fork_safe() else "spawn")
        result = play_plan(
            plan,
            executor,
            lambda _, record: records.append(record),
            lambda _, why: failures.append(why),
            Observers([], _quiet),
            _quiet,
        )
        if result.stop is not None:
            raise result.stop  # the server is stopping: the version stays to be processed
        if records:
            return records[0]
        if failures:
            return _one_line(f"the validation game could not be played: {failures[0]}")
        return "the validation game was given up: the machine was too busy; upload it again"

    def _join(self, v: Version, argv: tuple[str, ...], config: TournamentConfig) -> Version:
        """Add the version to the league's roster with its owner, and retire the owner's
        versions beyond ``keep``; the version ``ranked`` (or ``retired`` when its owner was
        removed meanwhile)."""
        with self._locked("roster"):
            now = self.version(v.owner, v.number)
            if now is None or now.state not in PENDING:
                return now or v  # retired meanwhile (retire_owner)
            roster = read_roster(self.output)
            added_names = [str(b.get("name")) for b in roster.added]
            if v.bot in {b.name for b in config.bots} and v.bot not in added_names:
                return self._advance(v, "invalid", f"the league already has a bot {v.bot!r}")
            older = [o for o in self.versions(v.owner) if o.state == "ranked"]
            older.sort(key=lambda o: o.number, reverse=True)
            leaving = [o for o in older[self.keep - 1 :] if o.number < v.number]
            added = roster.added
            if v.bot not in added_names:  # a restart after the roster was written: once
                added = (*added, {"name": v.bot, "cmd": shlex.join(argv), "owner": v.owner})
            retired = (*roster.retired, *(o.bot for o in leaving if o.bot not in roster.retired))
            write_roster(self.output, replace(roster, added=added, retired=retired))
            for old in leaving:
                self._set_state(old, "retired")
            return self._set_state(v, "ranked")


def _version(row: tuple[str, int, str, str, str, str | None, float]) -> Version:
    owner, number, filename, language, state, reason, created = row
    return Version(owner, number, bot_name(owner, number), filename, language, state, reason,
                   created)  # fmt: skip


def _keys(versions: list[Version]) -> set[tuple[str, int]]:
    return {(v.owner, v.number) for v in versions}


def _one_line(text: str) -> str:
    """``text`` as one line of at most :data:`REASON_CHARS` characters, control
    characters escaped."""
    line = shown_line(" ".join(text.split()))
    return line if len(line) <= REASON_CHARS else line[: REASON_CHARS - 3] + "..."


def _remove(folder: Path) -> None:
    from arena.botproc.homes import remove_tree

    if folder.exists() or folder.is_symlink():
        remove_tree(folder)


def _quiet(message: str) -> None:
    """The validation game's runner messages: nobody reads them."""
