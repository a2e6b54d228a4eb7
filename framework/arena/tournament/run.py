"""Running a tournament: schedule, parallel workers, storage as games end, resume, progress."""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from tqdm import tqdm

from arena.botproc import Sandbox, remove_leftovers
from arena.errors import ConfigError, OutputError
from arena.execute.jobs import Job, announce_sandbox, choose_sandbox, play_games
from arena.execute.pool import Failure, Interrupted
from arena.records import BotSpec, Clock, GameRecord, GameSpec
from arena.results import rating
from arena.results.identity import FileWatch, Identities, bot_fingerprint, describe_changes
from arena.results.leaderboard import Leaderboard, leaderboard_from_store
from arena.results.lock import OutputLock, lock_output
from arena.results.store import CurrentGame, Store, clear_output, make_output_folder
from arena.text import shown_line
from arena.tournament.config import TournamentConfig, where
from arena.tournament.formats import Scheduler, defined_spec, fixed_plan, make_scheduler

if TYPE_CHECKING:
    from arena.execute.dask_executor import DaskExecutor


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


def run_tournament(
    config: TournamentConfig,
    progress: bool = True,
    log: Callable[[str], None] | None = None,
    fresh: bool = False,
) -> RunSummary:
    """Play the games ``config.format`` schedules that are not yet stored in
    ``config.output``, then rate the stored games the file now defines.

    A stored game is reused only when its identity (:mod:`arena.results.identity`) is the one the
    file now gives it; when some are not, :class:`ConfigError` says what changed, before
    any game is played, unless ``fresh``: then the folder's stored games are deleted
    (:func:`arena.results.store.clear_output`) and every game is played again.
    """
    say = log or (lambda msg: print(msg, file=sys.stderr))
    line = config.lines.get("sandbox")
    where = f"{config.path}: sandbox" + (f" (line {line})" if line else "")
    # On a remote Dask cluster each worker decides the sandbox (`auto`) for itself.
    remote = config.executor == "dask" and config.dask is not None
    sandbox = (
        Sandbox(config.sandbox)
        if remote
        else choose_sandbox(
            config.sandbox, config.memory_mb, [config.output], config.max_processes, where
        )
    )
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
    try:
        variants = config.variants or [config.settings]
        skip = [str(config.output)]  # output folders inside a bot's folder argument change
        watch = FileWatch({b.name: b.files for b in config.bots})
        fingerprints = {b.name: bot_fingerprint(b.name, b.cmd, b.files, skip) for b in config.bots}
        clock_options = {
            "time_margin_ms": config.time_margin_ms,
            "clock_scale": config.clock_scale,
        }
        ids = Identities(
            config.game, config.version, config.seed, variants, fingerprints, clock_options
        )
        plan = fixed_plan(config)
        current = _current_games(config, store, ids, plan)
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
        clock = Clock(config.clock_scale, config.time_margin_ms)

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
        leader = _Leader()
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
            nonlocal played, failed
            if isinstance(result, Failure):
                if any(why in result.reason for why in DISK_FULL):
                    # Every next game would fail the same way: stop, nothing is lost.
                    raise OutputError(
                        f"{config.output}: game {spec.key} could not be written: "
                        f"{shown_line(result.reason)}{RESUME}"
                    )
                failed += 1
                say(f"game {spec.key} failed in the referee: {shown_line(result.reason)}")
            else:
                record = GameRecord.from_dict(result)
                identity = ids.of(spec.seed, spec.variant, spec.seats)
                try:  # one transaction: a game is stored whole or not at all
                    store.add_game(spec.key, spec.order, spec.round, spec.group, record, identity)
                except (sqlite3.OperationalError, OSError) as exc:
                    why = f"cannot store game {spec.key}: {exc}{RESUME}"
                    raise OutputError(f"{store.path}: {why}") from None
                scheduler.record(spec, record.seats, record.settings)
                played += 1
                best = leader.add(record)
                status = scheduler.status() or (f"leader: {best}" if best else "")
                if status:
                    bar.set_postfix_str(status, refresh=False)
            bar.update(1)

        stop_signal: int | None = None
        changed: list[str] = []
        # Lazy: a worker asks for the next game when it is free. No game starts once a
        # bot's file has changed: the games stored so far all ran the files as they were.
        todo = _while_unchanged(scheduler.specs(), watch, config, changed)
        workers = 1 if _at_most_one_left(scheduler) else config.concurrency
        try:
            if dask is not None:
                dask.run(todo, job, finished)
            else:
                play_games(todo, job, workers, finished)
        except Interrupted as stop:
            stop_signal = stop.signum
            say(f"\ninterrupted ({stop}): {played} games stored; run the same command to resume")
        finally:
            bar.close()
        board = leaderboard_from_store(store)
        return RunSummary(
            played,
            resumed,
            failed,
            stop_signal is not None,
            board,
            stop_signal,
            changed[0] if changed else None,
        )
    finally:
        store.close()
        if lock is not None:
            lock.release()
        if dask is not None:
            dask.close()


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
                "the file as it was when the run began. Put it back to resume, or run with "
                "--fresh to start over with the new file"
            )
            return
        yield spec


def _open_dask(config: TournamentConfig, say: Callable[[str], None]) -> DaskExecutor:
    try:
        from arena.execute.dask_executor import DaskExecutor
    except ModuleNotFoundError as exc:
        if exc.name not in ("dask", "distributed"):
            raise
        raise ConfigError(
            f"{config.where('executor')}: executor dask needs the `distributed` package"
            " (pip install 'bot-arena[dask]')"
        ) from None
    return DaskExecutor.open(config, say)


def _current_games(
    config: TournamentConfig, store: Store, ids: Identities, plan: list[GameSpec] | None
) -> list[CurrentGame]:
    """The stored games the file now defines, with the identity it gives them, placed as
    its schedule places them; :class:`ConfigError` naming what changed when a stored game
    the file defines was played with another identity."""
    by_key = {s.key: s for s in plan} if plan is not None else None
    current: list[CurrentGame] = []
    stale: list[tuple[GameSpec, dict[str, Any]]] = []
    for stored in store.stored_places():
        spec = by_key.get(stored.key) if by_key is not None else defined_spec(config, stored)
        if spec is None:
            continue  # a removed bot's game, or beyond a smaller `games`: kept, not shown
        digest = ids.hash(spec.seed, spec.variant, spec.seats)
        if digest != stored.identity_hash:
            stale.append((spec, store.stored_identity(stored.key)))
            continue
        current.append(CurrentGame(stored.key, spec.order, spec.round, spec.group, digest))
    if stale:
        raise _stale_error(config, ids, stale, store.count_games())
    return current


def _stale_error(
    config: TournamentConfig,
    ids: Identities,
    stale: list[tuple[GameSpec, dict[str, Any]]],
    stored: int,
) -> ConfigError:
    """One line saying why stored games no longer match the tournament file."""
    index = {b.name: i for i, b in enumerate(config.bots)}
    changes: dict[str, None] = {}
    for spec, identity in stale:
        now = ids.of(spec.seed, spec.variant, spec.seats)
        for change in describe_changes(identity, now, index):
            changes[change] = None
    out = config.output
    return ConfigError(
        f"{config.path}: {len(stale)} of the {stored} games stored in {out} no longer match "
        f"this file: {'; '.join(changes)}. Run with --fresh to start over in {out} (deletes "
        "its stored games), or choose another --output"
    )


def _at_most_one_left(scheduler: Scheduler) -> bool:
    """A fixed plan with at most one game to play needs one worker only."""
    planned = scheduler.planned
    return planned is not None and planned - scheduler.stored <= 1
