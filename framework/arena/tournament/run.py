"""Running a tournament: schedule, parallel workers, storage as games end, resume, progress."""

from __future__ import annotations

import os
import sqlite3
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from tqdm import tqdm

from arena.botproc import BOT_HOMES, Sandbox, remove_leftovers
from arena.botproc.botfiles import is_shipped
from arena.botproc.commands import bot_folder
from arena.errors import ArenaError, ConfigError, OutputError
from arena.execute.executor import Executor, LocalExecutor
from arena.execute.jobs import Job, announce_sandbox, choose_sandbox
from arena.execute.pool import Failure
from arena.execute.stopping import Interrupted
from arena.records import BotSpec, Clock, GameRecord, GameSpec
from arena.results import rating
from arena.results.identity import (
    FileWatch,
    Identities,
    bot_fingerprint,
    canonical,
    comparable_pair,
    describe_changes,
)
from arena.results.leaderboard import Leaderboard, leaderboard_from_store
from arena.results.lock import OutputLock, lock_output
from arena.results.store import CurrentGame, Store, clear_output, make_output_folder
from arena.text import shown_line
from arena.tournament.builds import build_bots
from arena.tournament.config import TournamentConfig, where
from arena.tournament.formats import Scheduler, defined_spec, fixed_plan, make_scheduler

MAX_STALL_REPLAYS = 3
"""A game broken off as a ``stall`` (the machine, not a bot, put a turn over its budget)
is played again at most this many times; then it is given up (not stored), the run says
so and ends with :data:`~arena.errors.EXIT_GIVEN_UP`; running it again plays it."""
REPLAY_BACKOFF_S = 10.0
"""Before a stalled game is played again, arena waits at most this long for the machine
to calm down (:func:`machine_busy`)."""
BACKOFF_POLL_S = 0.5
CALM_PRESSURE = 20.0
"""The machine is calm when, over the last 10 s, tasks waited for a CPU less than this
share of the time (``/proc/pressure/cpu``, ``some avg10``)."""


def machine_busy() -> bool:
    """Whether the machine's CPUs are contended now: tasks waited for a CPU more than
    :data:`CALM_PRESSURE` % of the last 10 s (Linux PSI), or, without PSI, more tasks are
    runnable than there are cores (``/proc/loadavg``). False when neither can be read."""
    try:
        first = Path("/proc/pressure/cpu").read_text().split("\n", 1)[0]
        return float(first.split()[1].partition("=")[2]) >= CALM_PRESSURE
    except (OSError, IndexError, ValueError):
        pass
    try:
        running = Path("/proc/loadavg").read_text().split()[3].split("/")[0]
        return int(running) - 1 > len(os.sched_getaffinity(0))  # not counting this process
    except (OSError, IndexError, ValueError):
        return False


def settle(since: float, most: float | None = None) -> float:
    """Wait until the machine is calm (:func:`machine_busy`) or ``most`` seconds
    (default :data:`REPLAY_BACKOFF_S`) after ``since`` (a ``time.monotonic`` instant);
    the seconds waited."""
    most = REPLAY_BACKOFF_S if most is None else most
    start = time.monotonic()
    while machine_busy() and (left := since + most - time.monotonic()) > 0:
        time.sleep(min(BACKOFF_POLL_S, left))
    return time.monotonic() - start


DISK_FULL = ("No space left on device", "Disk quota exceeded", "database or disk is full")
"""How a full disk shows in a failed game's reason (the worker's ``OSError``)."""
RESUME = "; the run stopped, every stored game is whole: make room, then run it again to resume"


@dataclass
class RunSummary:
    """What ``arena run`` did: games played now, already stored, failed; the leaderboard."""

    played: int
    resumed: int
    failed: int
    interrupted: bool
    leaderboard: Leaderboard
    stop_signal: int | None = None
    changed: str | None = None  # why the run stopped early: a bot's file changed
    replayed: int = 0  # games broken off as stalls and played again
    stalled: list[str] = field(default_factory=list)  # why, for each stall
    abandoned: int = 0  # games given up: stalled more than MAX_STALL_REPLAYS times, not stored
    given_up: list[str] = field(default_factory=list)  # "game <key>: why", each given up
    failures: list[str] = field(default_factory=list)  # "game <key>: why", each failed game


class _Leader:
    """The progress bar's current leader (completion order, display only): running
    TrueSkill for games of several players, best mean score for one-player games."""

    def __init__(self) -> None:
        self.env = rating.new_env()
        self.ratings: dict[str, Any] = {}
        self.scores: dict[str, list[float]] = {}

    def add(self, record: GameRecord) -> str:
        seats = record.seats
        if len(seats) == 1:
            self.scores.setdefault(seats[0].bot, []).append(seats[0].score)
            return max(self.scores, key=lambda b: sum(self.scores[b]) / len(self.scores[b]))
        rs = [(self.ratings.get(s.bot, self.env.create_rating()),) for s in seats]
        new = self.env.rate(rs, ranks=[s.rank for s in seats])
        for s, (r,) in zip(seats, new, strict=True):
            self.ratings[s.bot] = r
        return max(self.ratings, key=lambda b: self.ratings[b].mu - 3 * self.ratings[b].sigma)


def _check_round_seeds(config: TournamentConfig) -> None:
    """Refuse, before anything is written, a schedule with a seed the game cannot play
    (:meth:`~arena.game.Game.check_seed`); open-ended formats are checked as they go."""
    from arena.plugins.registry import load_registry
    from arena.tournament.config import check_seed

    game_cls = load_registry().get(config.game)
    seeds = {config.seed}
    plan = fixed_plan(config)
    seeds.update(spec.seed for spec in plan or ())
    for seed in sorted(seeds):
        if (why := check_seed(game_cls, seed)) is not None:
            if seed == config.seed:
                raise ConfigError(f"{where(config, 'seed')}: {why}")
            raise ConfigError(f"{where(config, 'seed')}: a round's seed is refused: {why}")


def run_tournament(
    config: TournamentConfig,
    progress: bool = True,
    log: Callable[[str], None] | None = None,
    fresh: bool = False,
    update: bool = False,
    report: bool = False,
) -> RunSummary:
    """Play the games ``config.format`` schedules that are not yet stored in
    ``config.output``, then rate the stored games the file now defines.

    A stored game is reused only when its identity (:mod:`arena.results.identity`) is the one the
    file now gives it; when some are not, :class:`ConfigError` says what changed, before
    any game is played, unless ``fresh``: then the folder's stored games are deleted
    (:func:`arena.results.store.clear_output`) and every game is played again; or unless
    ``update``: then only the stale games are deleted and played again, the others kept.

    While games are played, ``config.rating_interval`` prints the compact leaderboard
    every that many games, and (``report``) ``report.html`` in the output folder is
    rewritten as games end, at most every few seconds, reloading itself in a browser.
    """
    say = log or (lambda msg: print(msg, file=sys.stderr))
    _check_round_seeds(config)
    line = config.lines.get("sandbox")
    where = f"{config.path}: sandbox" + (f" (line {line})" if line else "")
    # On a remote Dask cluster each worker decides the sandbox (`auto`) for itself.
    remote = config.executor == "dask" and config.dask is not None
    sandbox = (
        Sandbox(config.sandbox)
        if remote
        else choose_sandbox(
            config.sandbox,
            config.memory_mb,
            [config.output],
            config.max_processes,
            where,
            config.disk_mb,
        )
    )
    sandbox = replace(sandbox, files=config.files, read_only=config.read_only)
    # Bots from source are built (or found built) before anything else: a bot that does
    # not build is a mistake in the file, reported before any game.
    if any(b.recipe is not None for b in config.bots):
        builder = sandbox
        if remote:  # built here, where the sources are, and shipped like any bot file
            builder = choose_sandbox(
                config.sandbox, None, [config.output], config.max_processes, where
            )
        build_bots(config, builder, say)
    # A Dask cluster is reached before anything is written (an unreachable one is a
    # configuration mistake); dask is imported only when used (it is slow to import).
    dask = _open_dask(config, say) if config.executor == "dask" else None
    lock: OutputLock | None = None
    try:
        # One run per output folder: a second one stops here, before it writes anything.
        make_output_folder(config.output, config.where("output"))
        lock = lock_output(config.output)
        if fresh:
            clear_output(config.output)
        store = Store(config.output)
    except BaseException:
        if lock is not None:
            lock.release()
        if dask is not None:
            dask.close()
        raise
    executor: Executor = dask or LocalExecutor(config.concurrency)
    try:
        variants = config.variants or [config.settings]
        skip = [str(config.output)]  # output folders inside a bot's folder argument change
        watch = FileWatch({b.name: b.files for b in config.bots})
        every_file = [path for b in config.bots for _, path in b.files]
        fingerprints = {
            b.name: bot_fingerprint(
                b.name,
                b.cmd,
                b.files,
                skip,
                b.recipe.identity() if b.recipe else None,
                _own_folder(b.argv) if config.files == "folder" else None,
                every_file,
            )
            for b in config.bots
        }
        clock_options: dict[str, Any] = {
            "time_margin_ms": config.time_margin_ms,
            "clock_scale": config.clock_scale,
        }
        if config.clock != "wall":  # (absent for wall: identities stay those of before)
            clock_options["clock"] = config.clock
        ids = Identities(
            config.game, config.version, config.seed, variants, fingerprints, clock_options
        )
        plan = fixed_plan(config)
        ignored = _named_in_folders(config, every_file)
        current, replayed = _current_games(config, store, ids, plan, update, ignored)
        if update:
            kept = len(current)
            say(
                f"--update: {kept} stored game{'' if kept == 1 else 's'} kept, {replayed} "
                f"stale game{'' if replayed == 1 else 's'} to play again"
            )
        store.set_current(current)
        store.set_meta(
            {
                "name": config.name,
                "game": config.game,
                "version": config.version,
                "format": config.format,
                "players": config.players,
                "settings": config.settings,
                "variant_keys": list(config.variant_keys),
                "seed": config.seed,
                "seeds": list(config.seeds) if config.seeds else None,
                "bots": [b.name for b in config.bots],
                "champion": config.champion,
                "sprt": None if config.sprt is None else asdict(config.sprt),
                **clock_options,
            }
        )
        store.set_bots({b.name: b.cmd for b in config.bots})
        scheduler = make_scheduler(config, store.games(), plan)
        resumed, planned = scheduler.stored, scheduler.planned
        if resumed:
            of = f" of {planned}" if planned is not None else ""
            say(f"resuming: {resumed}{of} games already stored in {store.path}")
        unused = store.count_games() - len(current)
        if unused:
            say(
                f"{unused} stored games are not in this tournament any more: kept in "
                f"{store.path}, left off the leaderboard"
            )
        if remote:
            say(f"arena: sandbox {config.sandbox}, as each Dask worker's machine allows")
            remove_leftovers()
        else:
            announce_sandbox(config.sandbox, sandbox, say)
        argv = {b.name: b.argv for b in config.bots}
        clock = Clock(config.clock_scale, config.time_margin_ms, config.clock)

        def job(spec: GameSpec) -> Job:
            bots = tuple(BotSpec(name, argv[name]) for name in spec.seats)
            return Job(
                config.game,
                spec.seed,
                variants[spec.variant],
                bots,
                str(store.game_dir(spec.key)),
                sandbox,
                clock=clock,
            )

        played = failed = 0
        stalls: dict[str, int] = {}
        why: list[str] = []
        retry: deque[tuple[GameSpec, float]] = deque()  # a stalled game, when it stalled
        abandoned = 0
        given_up: list[str] = []
        failures: list[str] = []
        leader = _Leader()
        live = _LiveReport(config.output, say) if report else None
        bar = tqdm(
            total=planned,
            initial=resumed,
            desc=config.name,
            unit="game",
            disable=not progress,
            file=sys.stderr,
            dynamic_ncols=True,
        )

        def finished(spec: GameSpec, result: dict[str, Any] | Failure) -> None:
            nonlocal played, failed, abandoned
            if not isinstance(result, Failure) and result.get("reason") == "stall":
                # Not the bots' doing: not stored, played again (a bounded number of times).
                count = stalls[spec.key] = stalls.get(spec.key, 0) + 1
                why.append(f"{spec.key}: {result.get('stall', '')}")
                if count <= MAX_STALL_REPLAYS:
                    retry.append((spec, time.monotonic()))
                    return
                abandoned += 1
                given_up.append(f"game {spec.key}: {result.get('stall', '')}")
                say(
                    f"game {spec.key} given up: it stalled {count} times (the machine kept a"
                    f" bot waiting: {result.get('stall', '')}); not stored: run the same"
                    " command again to play it, on a quieter machine, with fewer games at"
                    " once, or with `clock: cpu`"
                )
                bar.update(1)
                return
            if isinstance(result, Failure):
                if any(full in result.reason for full in DISK_FULL):
                    # Every next game would fail the same way: stop, nothing is lost.
                    raise OutputError(
                        f"{config.output}: game {spec.key} could not be written: "
                        f"{shown_line(result.reason)}{RESUME}"
                    )
                failed += 1
                failures.append(f"game {spec.key}: {result.reason}")
                say(f"game {spec.key} failed in the referee: {shown_line(result.reason)}")
            else:
                record = GameRecord.from_dict(result)
                identity = ids.of(spec.seed, spec.variant, spec.seats)
                try:  # one transaction: a game is stored whole or not at all
                    store.add_game(spec.key, spec.order, spec.round, spec.group, record, identity)
                except (sqlite3.OperationalError, OSError) as exc:
                    message = f"cannot store game {spec.key}: {exc}{RESUME}"
                    raise OutputError(f"{store.path}: {message}") from None
                scheduler.record(spec, record.seats, record.settings)
                played += 1
                best = leader.add(record)
                status = scheduler.status() or (f"leader: {best}" if best else "")
                if status:
                    bar.set_postfix_str(status, refresh=False)
                if config.rating_interval and played % config.rating_interval == 0:
                    board = leaderboard_from_store(store).compact(title=False)
                    head = f"--- {config.name}: {resumed + played} games stored"
                    bar.write(f"{head}\n{board}\n", file=sys.stderr)
                if live is not None:
                    live.games_ended()
            eta = scheduler.expected_total()
            if eta is not None:
                bar.total = max(eta, bar.n + 1)
            bar.update(1)

        stop_signal: int | None = None
        changed: list[str] = []
        # Lazy: a worker asks for the next game when it is free. No game starts once a
        # bot's file has changed: the games stored so far all ran the files as they were.
        todo = _with_retries(
            _while_unchanged(scheduler.specs(), watch, config, changed), retry, say
        )
        if _at_most_one_left(scheduler):
            executor = LocalExecutor(1) if dask is None else executor
        try:
            while True:
                executor.run(todo, job, finished)
                if not retry or changed:
                    break
                todo = _with_retries(iter(()), retry, say)  # stalls of the last games
        except Interrupted as stop:
            stop_signal = stop.signum
            say(f"\ninterrupted ({stop}): {played} games stored; run the same command to resume")
        finally:
            bar.close()
        replayed = sum(stalls.values()) - abandoned
        if stalls:
            before = store.meta().get("stall_replays") or {}
            store.set_meta(
                {
                    "stall_replays": {
                        "replayed": int(before.get("replayed", 0)) + replayed,
                        "abandoned": int(before.get("abandoned", 0)) + abandoned,
                        "given_up": abandoned,  # by the latest run: still unplayed
                        "why": why[-1],
                    }
                }
            )
            say(
                f"arena: {replayed} game(s) replayed after a stall (a turn over its budget "
                f"only because the machine kept a bot waiting; last: {why[-1]})"
            )
        elif (store.meta().get("stall_replays") or {}).get("given_up"):
            # The games an earlier run gave up were played now.
            meta = dict(store.meta()["stall_replays"], given_up=0)
            store.set_meta({"stall_replays": meta})
        if abandoned:
            say(
                f"arena: {abandoned} game(s) given up, not stored: each stalled "
                f"{MAX_STALL_REPLAYS + 1} times (a turn over its budget only because the "
                "machine kept a bot waiting), so the leaderboard lacks them; run the same "
                "command again to play them (on a quieter machine, with fewer games at once, "
                "or with `clock: cpu`)"
            )
        board = leaderboard_from_store(store)
        return RunSummary(
            played,
            resumed,
            failed,
            stop_signal is not None,
            board,
            stop_signal,
            changed[0] if changed else None,
            replayed,
            why,
            abandoned,
            failures,
            given_up,
        )
    finally:
        store.close()
        if lock is not None:
            lock.release()
        executor.close()


class _LiveReport:
    """``report.html`` rewritten as games end: at most every :data:`LIVE_MIN_S` seconds,
    and never more often than four times the last write took (it reads every replay)."""

    def __init__(self, output: Path, say: Callable[[str], None]) -> None:
        self.output = output
        self.say = say
        self.next = 0.0
        self.broken = False

    def games_ended(self) -> None:
        """A game was stored: rewrite the report if it is time."""
        now = time.monotonic()
        if self.broken or now < self.next:
            return
        from arena.views.report import write_report

        try:
            write_report(self.output, live=True)
        except (ArenaError, OSError) as exc:
            self.broken = True  # said once; the report is written again after the run
            self.say(f"arena: could not refresh the report during the run: {exc}")
            return
        took = time.monotonic() - now
        self.next = time.monotonic() + max(LIVE_MIN_S, 4 * took)


LIVE_MIN_S = 3.0
"""Seconds at least between two rewrites of the live report."""


def _while_unchanged(
    specs: Iterator[GameSpec], watch: FileWatch, config: TournamentConfig, changed: list[str]
) -> Iterator[GameSpec]:
    """The scheduled games, until a file a bot's command names has changed since the run
    began; then why, in ``changed``, and no more games (those already running go on: they
    started from the file as it was)."""
    for spec in specs:
        found = watch.changed()
        if found is not None:
            name, word = found
            index = next(i for i, b in enumerate(config.bots) if b.name == name)
            changed.append(
                f"{where(config, f'bots[{index}].cmd')}: {word} ({name}) changed during the "
                "run, so no more games were started; the games stored were all played with "
                "the file as it was when the run began. Run again with --update to replay only "
                "the games of the edited bot (the others are kept), or put the file back to "
                "resume"
            )
            return
        yield spec


def _with_retries(
    specs: Iterator[GameSpec],
    retry: deque[tuple[GameSpec, float]],
    say: Callable[[str], None] | None = None,
) -> Iterator[GameSpec]:
    """The games of ``specs``, each game waiting in ``retry`` (a stall to play again, with
    when it stalled) first, once the machine is calm or :data:`REPLAY_BACKOFF_S` passed
    (:func:`settle`); meanwhile the other games go on."""
    told = False

    def ready() -> Iterator[GameSpec]:
        while retry:
            spec, since = retry[0]
            if machine_busy() and time.monotonic() < since + REPLAY_BACKOFF_S:
                return
            retry.popleft()
            yield spec

    for spec in specs:
        yield from ready()
        yield spec
    while retry:
        spec, since = retry.popleft()
        waited = settle(since)
        if waited >= 1.0 and say is not None and not told:
            told = True
            say(f"arena: waited {waited:.0f} s for the machine to calm down before a replay")
        yield spec


def _open_dask(config: TournamentConfig, say: Callable[[str], None]) -> Executor:
    """The Dask executor for ``config``, connected (dask is imported only here: it is slow)."""
    try:
        from arena.execute.dask_executor import DaskExecutor, DaskOptions
    except ModuleNotFoundError as exc:
        if exc.name not in ("dask", "distributed"):
            raise
        raise ConfigError(
            f"{config.where('executor')}: executor dask needs the `distributed` package"
            " (pip install 'bot-arena[dask]')"
        ) from None
    options = DaskOptions(
        config.dask,
        config.concurrency,
        {b.name: b.argv for b in config.bots},
        config.sandbox,
        config.memory_mb,
        config.max_processes,
        config.where("bots"),
        config.where("dask"),
        config.disk_mb,
        config.files,
        config.read_only,
        str(config.output),
    )
    return DaskExecutor.open(options, say)


def _named_in_folders(config: TournamentConfig, every_file: list[str]) -> dict[str, set[str]]:
    """Per bot, the files other bots' commands name inside its own folder (relative): in
    a folder of several bots they are those bots' (their own identities follow them)."""
    out: dict[str, set[str]] = {}
    for b in config.bots:
        folder = _own_folder(b.argv) if config.files == "folder" else None
        if folder is not None:
            out[b.name] = {
                os.path.relpath(p, folder) for p in every_file if p.startswith(folder + "/")
            }
    return out


def _same(old: dict[str, Any], now: dict[str, Any], ignored: Mapping[str, set[str]]) -> bool:
    """Whether a stored identity is the one now given, but for the folder files other
    bots' commands name and the folders an identity stored before them lacks."""
    a, b = comparable_pair(old, now, ignored)
    return canonical(a) == canonical(b)


def _own_folder(argv: tuple[str, ...]) -> str | None:
    """The folder a bot sees of its own (``files: folder``) as part of its identity: that
    of the program its command runs, unless the machine's (a system folder, ``/``, the
    temporary folder holding the bots' directories), as the sandbox shows it."""
    folder = bot_folder(argv)
    if folder is None or folder == "/" or not is_shipped(folder) or not os.path.isdir(folder):
        return None
    homes = os.path.realpath(BOT_HOMES)
    real = os.path.realpath(folder)
    if homes == real or homes.startswith(real.rstrip("/") + "/"):
        return None
    return folder


def _current_games(
    config: TournamentConfig,
    store: Store,
    ids: Identities,
    plan: list[GameSpec] | None,
    update: bool = False,
    ignored: Mapping[str, set[str]] | None = None,
) -> tuple[list[CurrentGame], int]:
    """The stored games the file now defines, with the identity it gives them, placed as
    its schedule places them, and how many stale games ``update`` removed (to be played
    again); without ``update``, :class:`ConfigError` naming what changed when a stored
    game the file defines was played with another identity."""
    by_key = {s.key: s for s in plan} if plan is not None else None
    current: list[CurrentGame] = []
    stale: list[tuple[GameSpec, dict[str, Any]]] = []
    stale_keys: list[str] = []
    for stored in store.stored_places():
        spec = by_key.get(stored.key) if by_key is not None else defined_spec(config, stored)
        if spec is None:
            continue  # a removed bot's game, or beyond a smaller `games`: kept, not shown
        digest = ids.hash(spec.seed, spec.variant, spec.seats)
        if (
            digest != stored.identity_hash
            and ids.legacy is not None
            and ids.legacy.hash(spec.seed, spec.variant, spec.seats) == stored.identity_hash
        ):
            digest = stored.identity_hash  # stored before folders counted: unknown, kept
        if digest != stored.identity_hash:
            old = store.stored_identity(stored.key)
            now = ids.of(spec.seed, spec.variant, spec.seats)
            if _same(old, now, ignored or {}):
                # Only another bot's file in a shared folder differs (its own games say
                # so), or the bots' list changed which of them are bots: kept as stored.
                current.append(
                    CurrentGame(
                        stored.key, spec.order, spec.round, spec.group, stored.identity_hash
                    )
                )
                continue
            stale_keys.append(stored.key)
            if not update:
                stale.append((spec, old))
            continue
        current.append(CurrentGame(stored.key, spec.order, spec.round, spec.group, digest))
    if stale:
        raise _stale_error(config, ids, stale, store.count_games(), ignored or {})
    if stale_keys:
        store.remove_games(stale_keys)
    return current, len(stale_keys)


def _stale_error(
    config: TournamentConfig,
    ids: Identities,
    stale: list[tuple[GameSpec, dict[str, Any]]],
    stored: int,
    ignored: Mapping[str, set[str]],
) -> ConfigError:
    """Why stored games no longer match the tournament file, and the ways on: --update,
    keeping the old version of an edited bot as another bot, --fresh."""
    index = {b.name: i for i, b in enumerate(config.bots)}
    changes: dict[str, None] = {}
    edited: dict[str, None] = {}  # bots whose files changed
    for spec, identity in stale:
        now = ids.of(spec.seed, spec.variant, spec.seats)
        identity, now = comparable_pair(identity, now, ignored)
        for change in describe_changes(identity, now, index):
            changes[change] = None
        for old_bot, new_bot in zip(identity.get("bots", []), now["bots"], strict=False):
            same_cmd = old_bot.get("cmd") == new_bot["cmd"]
            if same_cmd and old_bot.get("files") != new_bot["files"]:
                edited[new_bot["name"]] = None  # its file was edited
    out = config.output
    text = (
        f"{config.path}: {len(stale)} of the {stored} games stored in {out} no longer match "
        f"this file: {'; '.join(changes)}.\n"
        f"  Run with --update to play only those {len(stale)} games again and keep the others."
    )
    bots = {b.name: b for b in config.bots}
    for name in edited:
        bot = bots.get(name)
        script = next((w for w, _ in bot.files), None) if bot is not None else None
        if bot is None or script is None:
            continue
        old = Path(script)
        copy = str(old.with_name(f"{old.stem}_v1{old.suffix}"))
        text += (
            f"\n  To keep the old {name} as another bot: save its old version as {copy} "
            f"(from git or a backup), add `- {{name: {name}_v1, cmd: "
            f"{bot.cmd.replace(script, copy)}}}` to `bots`, then run with --update."
        )
    text += (
        f"\n  Or run with --fresh to start over in {out} (deletes its stored games), or "
        "choose another --output."
    )
    return ConfigError(text)


def _at_most_one_left(scheduler: Scheduler) -> bool:
    """A fixed plan with at most one game to play needs one worker only."""
    planned = scheduler.planned
    return planned is not None and planned - scheduler.stored <= 1
