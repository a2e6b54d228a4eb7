"""Running a tournament: schedule, parallel workers, storage as games end, resume, progress."""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import sys
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm

from arena import rating
from arena.botproc import Sandbox, resolve_sandbox
from arena.config import TournamentConfig
from arena.formats import Scheduler, make_scheduler
from arena.leaderboard import Leaderboard
from arena.plugins import Registry, load_registry
from arena.referee import BotSpec, GameRecord, Referee
from arena.schedule import GameSpec
from arena.stats import Sprt
from arena.store import Store, open_existing

_REGISTRY: Registry | None = None


def _worker_registry() -> Registry:
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = load_registry()
    return _REGISTRY


@dataclass(frozen=True)
class Job:
    """Everything a worker process needs to play one scheduled game (picklable)."""

    game: str
    seed: int
    settings: dict[str, Any]
    bots: tuple[BotSpec, ...]
    game_dir: str
    sandbox: Sandbox


def play_job(job: Job) -> dict[str, Any]:
    """Play one game in this process and return its record as a dict (worker entry point)."""
    game = _worker_registry().create(job.game)
    referee = Referee(game, job.bots, Path(job.game_dir), job.sandbox)
    return referee.play(job.seed, job.settings).to_dict()


@dataclass
class RunSummary:
    """What ``arena run`` did: games played now, already stored, failed; the leaderboard."""

    played: int
    resumed: int
    failed: int
    interrupted: bool
    leaderboard: Leaderboard


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
) -> RunSummary:
    """Play the games ``config.format`` schedules that are not yet stored in
    ``config.output``, then rate everything stored."""
    say = log or (lambda msg: print(msg, file=sys.stderr))
    store = Store(config.output)
    try:
        store.set_meta(
            {
                "name": config.name,
                "game": config.game,
                "format": config.format,
                "players": config.players,
                "settings": config.settings,
                "variant_keys": list(config.variant_keys),
                "seed": config.seed,
                "bots": [b.name for b in config.bots],
                "champion": config.champion,
                "sprt": None if config.sprt is None else asdict(config.sprt),
            }
        )
        store.set_bots({b.name: b.cmd for b in config.bots})
        variants = config.variants or [config.settings]
        scheduler = make_scheduler(config, store.games())
        resumed, planned = scheduler.stored, scheduler.planned
        if resumed:
            of = f" of {planned}" if planned is not None else ""
            say(f"resuming: {resumed}{of} games already stored in {store.path}")
        sandbox = resolve_sandbox(
            config.sandbox,
            config.memory_mb,
            hide=[config.output],
            max_processes=config.max_processes,
        )
        argv = {b.name: b.argv for b in config.bots}

        def job(spec: GameSpec) -> Job:
            bots = tuple(BotSpec(name, argv[name]) for name in spec.seats)
            return Job(
                config.game,
                spec.seed,
                variants[spec.variant],
                bots,
                str(store.game_dir(spec.key)),
                sandbox,
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

        def finished(spec: GameSpec, result: dict[str, Any] | BaseException) -> None:
            nonlocal played, failed
            if isinstance(result, BaseException):
                failed += 1
                say(f"game {spec.key} failed in the referee: {type(result).__name__}: {result}")
            else:
                record = GameRecord.from_dict(result)
                store.add_game(spec.key, spec.order, spec.round, spec.group, record)
                scheduler.record(spec, record.seats, record.settings)
                played += 1
                best = leader.add(record)
                status = scheduler.status() or (f"leader: {best}" if best else "")
                if status:
                    bar.set_postfix_str(status, refresh=False)
            bar.update(1)

        interrupted = False
        todo = scheduler.specs()
        try:
            if config.concurrency == 1 or _at_most_one_left(scheduler):
                for spec in todo:
                    try:
                        finished(spec, play_job(job(spec)))
                    except Exception as exc:  # a referee bug must not stop the tournament
                        finished(spec, exc)
            else:
                _run_parallel(todo, job, config.concurrency, finished)
        except KeyboardInterrupt:
            interrupted = True
            say(f"\ninterrupted: {played} games stored; run the same command again to resume")
        finally:
            bar.close()
        board = leaderboard_from_store(store)
        return RunSummary(played, resumed, failed, interrupted, board)
    finally:
        store.close()


def _at_most_one_left(scheduler: Scheduler) -> bool:
    """A fixed plan with at most one game to play needs no worker pool."""
    planned = scheduler.planned
    return planned is not None and planned - scheduler.stored <= 1


def _run_parallel(
    todo: Iterable[GameSpec],
    job: Callable[[GameSpec], Job],
    workers: int,
    finished: Callable[[GameSpec, dict[str, Any] | BaseException], None],
) -> None:
    # "spawn": workers start clean (no inherited threads or locks from the progress bar).
    ctx = multiprocessing.get_context("spawn")
    with cf.ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        pending = iter(todo)
        running: dict[cf.Future[dict[str, Any]], GameSpec] = {}
        try:
            # Keep the queue short so Ctrl-C stops quickly and order stays close to schedule.
            for spec in pending:
                running[pool.submit(play_job, job(spec))] = spec
                if len(running) >= workers * 2:
                    break
            while running:
                done, _ = cf.wait(running, return_when=cf.FIRST_COMPLETED)
                for fut in done:
                    spec = running.pop(fut)
                    exc = fut.exception()
                    finished(spec, exc if exc is not None else fut.result())
                    nxt = next(pending, None)
                    if nxt is not None:
                        running[pool.submit(play_job, job(nxt))] = nxt
        except BaseException:
            for fut in running:
                fut.cancel()
            pool.shutdown(wait=True, cancel_futures=True)
            raise


def leaderboard_from_store(store: Store) -> Leaderboard:
    """Recompute ratings and tables from everything stored (schedule order)."""
    meta = store.meta()
    games = store.games()
    bots = list(meta.get("bots", []))
    stats, pairs = rating.compute(bots, games, meta.get("variant_keys", []))
    fmt = meta.get("format", "round-robin")
    shown = "" if fmt == "round-robin" else f"{fmt}, "
    title = f"{meta.get('name', store.output.name)} ({meta.get('game', '?')}, {shown}"
    title += f"{len(games)} games)"
    sprt = None
    if fmt == "sprt" and meta.get("sprt") and len(bots) == 2:
        test = Sprt(**meta["sprt"])
        pw = pairs.get((bots[0], bots[1]), rating.Pairwise())
        sprt = test.result(bots[0], bots[1], pw.ptnml)
    # Games of other than two players also show each bot's average rank.
    return Leaderboard(title, stats, pairs, multiplayer=int(meta.get("players", 2)) != 2, sprt=sprt)


def leaderboard_for(output: Path) -> Leaderboard:
    """The leaderboard of an existing output folder."""
    store = open_existing(output)
    try:
        return leaderboard_from_store(store)
    finally:
        store.close()
