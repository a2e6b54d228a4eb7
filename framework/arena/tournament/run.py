"""Running a tournament: the games its format schedules, played by an executor and stored
as they end; resumed, and rated at the end.

The steps, in order: the seeds and the sandbox are checked and the bots built (before
anything is written); the output folder is locked and opened; the stored games that still
hold are kept (:mod:`arena.tournament.resume`); then the scheduler's games are played,
each handled as it ends by :func:`~arena.tournament.play.play_plan` (stored by
:class:`_Games`, failed, or stalled and played again: :mod:`arena.tournament.stalls`), every
step published to the caller's observers (:mod:`arena.events`) and ``OUTPUT/status.json``
(:mod:`arena.results.status`).
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any

from arena.botproc import Sandbox, remove_leftovers
from arena.errors import ConfigError, OutputError
from arena.events import Observers, RunObserver
from arena.execute.executor import Executor, LocalExecutor
from arena.execute.jobs import Job, announce_sandbox, choose_sandbox, worker_registry
from arena.execute.stopping import first_stop
from arena.records import BotSpec, Clock, GameRecord, GameSpec
from arena.results.identity import FileWatch
from arena.results.leaderboard import Leaderboard, leaderboard_from_store
from arena.results.lock import OutputLock, lock_output
from arena.results.status import StatusWriter
from arena.results.store import Store, clear_output, make_output_folder
from arena.text import shown_line
from arena.tournament.books import Book, book_path, write_book
from arena.tournament.builds import build_bots, build_records
from arena.tournament.config import TournamentConfig, where
from arena.tournament.control import wait_while_paused
from arena.tournament.formats import CandidateScheduler, Scheduler, fixed_plan, resume_scheduler
from arena.tournament.play import GamePlan, PlanResult, play_plan
from arena.tournament.resume import BotIdentities, bot_identities, check_stored
from arena.tournament.schedule import Plan

if TYPE_CHECKING:
    from arena.results.verdict import CandidateVerdict

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
    left_out: int = 0  # stored games the file no longer defines: not on the leaderboard
    verdict: CandidateVerdict | None = None  # format candidate: the candidate's verdict
    roster_changed: bool = False  # league: bots were added or retired; run it again to go on
    oversubscribed: int = 0  # games started without a core per thinking bot (concurrency)


def run_tournament(
    config: TournamentConfig,
    log: Callable[[str], None] | None = None,
    fresh: bool = False,
    update: bool = False,
    observers: Sequence[RunObserver] = (),
) -> RunSummary:
    """Play the games ``config.format`` schedules that are not yet stored in
    ``config.output``, then rate the stored games the file now defines.

    A stored game is reused only when its identity (:mod:`arena.results.identity`) is the
    one the file now gives it; when some are not, :class:`ConfigError` says what changed,
    before any game is played, unless ``fresh``: then the folder's stored games are
    deleted (:func:`arena.results.store.clear_output`) and every game is played again; or
    unless ``update``: then only the stale games are deleted and played again.

    Each step of the run is published to ``observers`` (:mod:`arena.events`: the CLI's
    progress bar, periodic table and live report are observers) and to the
    :class:`~arena.results.status.StatusWriter` of ``OUTPUT/status.json``.
    """
    say = log or (lambda msg: print(msg, file=sys.stderr))
    plan = fixed_plan(config)
    _check_round_seeds(config, plan)
    # On a remote Dask cluster each worker decides the sandbox (`auto`) for itself.
    remote = config.executor == "dask" and config.dask is not None
    built, sandbox = _sandbox(config, remote, say)
    if len(built.bots) != len(config.bots):  # on_build_error: skip left some out
        plan = fixed_plan(built)
    config = built
    # A Dask cluster is reached before anything is written (an unreachable one is a
    # configuration mistake); dask is imported only when used (it is slow to import).
    dask = _open_dask(config, say) if config.executor == "dask" else None
    store, lock = _open_output(config, fresh, dask)
    thinking = worker_registry().get(config.game).info.thinking  # cores per game (the ledger)
    executor: Executor = dask or LocalExecutor(config.concurrency, thinking=thinking)
    try:
        _keep_book(config, say)
        bots = bot_identities(config)
        replayed, key = check_stored(config, store, bots, plan, update)
        current = store.count_current()
        if update:
            say(
                f"--update: {current} stored game{'' if current == 1 else 's'} kept, "
                f"{replayed} stale game{'' if replayed == 1 else 's'} to play again"
            )
        _write_meta(store, config, bots.clock_options)
        scheduler = resume_scheduler(config, store, plan)
        _say_what_is_kept(say, store, scheduler, store.count_games() - current)
        if remote:
            say(f"arena: sandbox {config.sandbox}, as each Dask worker's machine allows")
            remove_leftovers()
        else:
            announce_sandbox(config.sandbox, sandbox, say)
        store.batch()  # games that end close together share a commit (closing commits)
        games = _Games(config, store, scheduler, bots, sandbox, say)
        if _at_most_one_left(scheduler) and dask is None:
            executor = LocalExecutor(1, thinking=thinking)
        # The status file is always kept, whoever else watches the run.
        watching = Observers([StatusWriter(config.output, scheduler.leagues), *observers], say)
        result = games.play(executor, watching)
        result.stalls.record(store)
        store.keep_check(key)  # the next run checks only the games stored after this one
        if result.oversubscribed:
            say(_oversubscribed(result.oversubscribed, config.concurrency, thinking))
        return RunSummary(
            played=result.played,
            resumed=scheduler.stored,
            failed=len(result.failures),
            interrupted=result.stop_signal is not None,
            leaderboard=leaderboard_from_store(store),
            stop_signal=result.stop_signal,
            changed=games.changed[0] if games.changed else None,
            replayed=result.stalls.replayed,
            stalled=result.stalls.why,
            abandoned=len(result.stalls.given_up),
            given_up=result.stalls.given_up,
            failures=result.failures,
            left_out=store.left_out(),
            verdict=scheduler.verdict if isinstance(scheduler, CandidateScheduler) else None,
            roster_changed=scheduler.roster_changed,
            oversubscribed=result.oversubscribed,
        )
    finally:
        store.close()
        if lock is not None:
            lock.release()
        executor.close()


class _Games:
    """The games of one run: each scheduled game made a job, and each played one stored
    (:func:`~arena.tournament.play.play_plan` plays them and handles stalls)."""

    def __init__(
        self,
        config: TournamentConfig,
        store: Store,
        scheduler: Scheduler,
        bots: BotIdentities,
        sandbox: Sandbox,
        say: Callable[[str], None],
    ) -> None:
        self.config = config
        self.store = store
        self.scheduler = scheduler
        self.bots = bots
        self.sandbox = sandbox
        self.say = say
        self.variants = config.variants or [config.settings]
        self.argv = {b.name: b.argv for b in config.bots}
        self.clock = Clock(config.clock_scale, config.time_margin_ms, config.clock)
        self.changed: list[str] = []  # why no more games were started (a bot's file changed)
        self.halted: list[bool] = []  # stopped while paused: no next round either

    def job(self, spec: GameSpec) -> Job:
        """The job a worker plays for ``spec``."""
        bots = tuple(BotSpec(name, self.argv[name]) for name in spec.seats)
        game_dir = str(self.store.game_dir(spec.key))
        variant = self.variants[spec.variant]
        config = self.config
        return Job(config.game, spec.seed, variant, bots, game_dir, self.sandbox, clock=self.clock)

    def total(self) -> int | None:
        """The games the run is now expected to hold (an SPRT's follows its LLR)."""
        expected = self.scheduler.expected_total()
        return self.scheduler.planned if expected is None else expected

    def play(self, executor: Executor, observers: Observers) -> PlanResult:
        """Play the scheduled games (and the replays of stalled ones) until done, a bot's
        file changes, or a stop signal."""
        # Lazy: a worker asks for the next game when it is free. No game starts once a
        # bot's file has changed: the games stored so far all ran the files as they were.
        specs = self.specs()
        plan = GamePlan(
            self.config.name,
            self.config.output,
            specs,
            self.job,
            total=self.total,
            status=self.scheduler.status,
            stored=self.scheduler.stored,
            more=self.next_round,
        )
        changed = self.changed
        result = play_plan(
            plan,
            executor,
            self.store_game,
            self.failed,
            observers,
            self.say,
            stop_early=lambda: changed[0] if changed else None,
        )
        if result.stop is not None:
            stored = f"{result.played} games stored; run the same command to resume"
            self.say(f"\ninterrupted ({result.stop}): {stored}")
        return result

    def specs(self) -> Iterator[GameSpec]:
        """The scheduler's games while no bot's file changed and no stop came."""
        return _while_unchanged(
            self.scheduler.specs(),
            self.bots.watch,
            self.config,
            self.changed,
            self.halted,
            self.say,
        )

    def next_round(self) -> Iterator[GameSpec] | None:
        """A format played round by round: the next round's games, unless none is left or
        the run was stopped."""
        if self.changed or self.halted or not self.scheduler.more_rounds():
            return None
        return self.specs()

    def failed(self, spec: GameSpec, reason: str) -> None:
        """A game failed in the referee: said; a full disk stops the run."""
        if any(full in reason for full in DISK_FULL):
            # Every next game would fail the same way: stop, nothing is lost.
            raise OutputError(
                f"{self.config.output}: game {spec.key} could not be written: "
                f"{shown_line(reason)}{RESUME}"
            )
        self.say(f"game {spec.key} failed in the referee: {shown_line(reason)}")

    def store_game(self, spec: GameSpec, record: GameRecord) -> None:
        """Store a played game (whole or not at all)."""
        identity = self.bots.ids.of(spec.seed, spec.variant, spec.seats)
        try:  # a game is stored whole or not at all (its own savepoint)
            self.store.add_game(spec.key, spec.order, spec.round, spec.group, record, identity)
        except (sqlite3.OperationalError, OSError) as exc:
            message = f"cannot store game {spec.key}: {exc}{RESUME}"
            raise OutputError(f"{self.store.path}: {message}") from None
        self.scheduler.record(spec, record.seats, record.settings)


def _sandbox(
    config: TournamentConfig, remote: bool, say: Callable[[str], None]
) -> tuple[TournamentConfig, Sandbox]:
    """The sandbox of the file's games, checked before anything is written; bots from
    source are built (or found built) with it first, the config returned with their
    commands: one that does not build is a mistake in the file, reported before any game."""
    line = config.lines.get("sandbox")
    key = f"{config.path}: sandbox" + (f" (line {line})" if line else "")
    sandbox = (
        # Only the request (`auto` too): each Dask worker resolves it for its machine.
        Sandbox(config.sandbox)
        if remote
        else choose_sandbox(
            config.sandbox,
            config.memory_mb,
            [config.output],
            config.max_processes,
            key,
            config.disk_mb,
        )
    )
    sandbox = replace(sandbox, files=config.files, read_only=config.read_only)
    if any(b.recipe is not None for b in config.bots):
        builder = sandbox
        if remote:  # built here, where the sources are, and shipped like any bot file
            builder = choose_sandbox(
                config.sandbox, None, [config.output], config.max_processes, key
            )
        config = build_bots(config, builder, say)
    return config, sandbox


def _open_output(
    config: TournamentConfig, fresh: bool, dask: Executor | None
) -> tuple[Store, OutputLock | None]:
    """The output folder's store, locked for this run: a second run stops here, before it
    writes anything (and the Dask executor is closed on any failure)."""
    lock: OutputLock | None = None
    try:
        make_output_folder(config.output, config.where("output"))
        lock = lock_output(config.output)
        if fresh:
            clear_output(config.output)
        return Store(config.output), lock
    except BaseException:
        if lock is not None:
            lock.release()
        if dask is not None:
            dask.close()
        raise


def _oversubscribed(games: int, concurrency: int, thinking: int) -> str:
    """The summary's line on the games played without a core per thinking bot."""
    return (
        f"arena: {games} game{'' if games == 1 else 's'} played oversubscribed: concurrency "
        f"{concurrency} ({concurrency * thinking} bots thinking at once) is more than the "
        "machine's cores, so their bots shared cores with this run's other games (see "
        "docs/fair-time.md)"
    )


def _write_meta(store: Store, config: TournamentConfig, clock_options: dict[str, Any]) -> None:
    """What the leaderboard and a later run read of the tournament file, as it is now."""
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
            "book": config.book,
            "bots": [b.name for b in config.bots],
            "owners": {b.name: b.owner for b in config.bots if b.owner is not None},
            "champion": config.champion,
            "sprt": None if config.sprt is None else asdict(config.sprt),
            "rating": config.rating,
            "builds": build_records(config),
            **clock_options,
        }
    )
    store.set_bots({b.name: b.cmd for b in config.bots})


def _keep_book(config: TournamentConfig, say: Callable[[str], None]) -> None:
    """Say which seed book the rounds play; keep the one this run made (the folder is
    locked: no other run makes it at the same time)."""
    if config.book is None or not config.seeds:
        return
    path = book_path(config.output, config.book)
    if config.new_book:
        write_book(config.output, Book(config.book, config.seeds, f"from seed {config.seed}"))
        say(
            f"seed book {config.book}: {len(config.seeds)} seeds made from seed {config.seed}, "
            f"kept in {path}"
        )
    else:
        say(f"seed book {config.book}: {len(config.seeds)} seeds from {path}")


def _say_what_is_kept(
    say: Callable[[str], None], store: Store, scheduler: Scheduler, unused: int
) -> None:
    """The games resumed, and those stored that the file no longer defines."""
    if scheduler.stored:
        planned = scheduler.planned
        of = f" of {planned}" if planned is not None else ""
        say(f"resuming: {scheduler.stored}{of} games already stored in {store.path}")
    if unused:
        say(
            f"{unused} stored games are not in this tournament any more: kept in "
            f"{store.path}, left off the leaderboard"
        )


def _check_round_seeds(config: TournamentConfig, plan: Plan | None) -> None:
    """Refuse, before anything is written, a schedule (``plan``: the fixed one) with a
    seed the game cannot play (:meth:`~arena.game.Game.check_seed`): the seeds of its
    rounds, not of every game. Open-ended formats play the entries of ``seeds`` (checked
    here too) or 31-bit seeds derived from ``seed``, which every game takes."""
    from arena.tournament.config import check_seed

    game_cls = worker_registry().get(config.game)  # this process's, loaded once
    seeds = {config.seed, *(config.seeds or ())}
    if plan is not None:
        seeds.update(plan.round_seeds())
    for seed in sorted(seeds):
        if (why := check_seed(game_cls, seed)) is not None:
            if seed == config.seed:
                raise ConfigError(f"{where(config, 'seed')}: {why}")
            raise ConfigError(f"{where(config, 'seed')}: a round's seed is refused: {why}")


def _while_unchanged(
    specs: Iterator[GameSpec],
    watch: FileWatch,
    config: TournamentConfig,
    changed: list[str],
    halted: list[bool],
    say: Callable[[str], None] | None = None,
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
        if not wait_while_paused(config.output, lambda: first_stop() is not None, say=say):
            halted.append(True)
            return  # stopped while paused (arena serve's control file)
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


def _at_most_one_left(scheduler: Scheduler) -> bool:
    """A fixed plan with at most one game to play needs one worker only."""
    planned = scheduler.planned
    return planned is not None and planned - scheduler.stored <= 1
