"""Playing a tournament's games on a Dask cluster (``executor: dask``).

The coordinator (``arena run``) keeps everything the local executor keeps: the scheduler
of the format, the store (SQLite and the game folders), the progress bar, Ctrl-C. Only
the games move, and cheaply:

- **Game slots**: every worker thread holds one :class:`GameSlot`, a Dask actor created
  once; each game is one call to it, straight from the coordinator to the worker (no
  task per game: the scheduler does nothing per game, the coordinator spends about a
  third of the CPU a task cost it). A slot plays its games one at a time in a scratch
  folder and returns the record with the files the referee wrote (replay and stderr).
- **Files**: a worker on the coordinator's machine (same kernel, same output folder)
  writes the game's files into the output folder itself; elsewhere they come back with
  the record and the coordinator writes them. Then the coordinator stores the game.

- **Bot files** (:mod:`arena.execute.botfiles`): the files the bots' commands name are packed
  once, registered on the cluster as a worker plugin (:class:`BotFiles`: every worker,
  also one that joins or restarts later, receives them), and unpacked on each worker
  machine into a content-addressed cache; the command is rewritten to the cached copy.
  A worker needs arena, the games and the interpreters, not the user's checkout.
- **Lazy scheduling**: every slot has a game playing and the next one waiting (as many
  games in flight as the cluster has threads, twice over); the next game is asked of the
  format's scheduler only when one ends, so SPRT and league decide with every result
  known, as with the local executor.
- **Game processes**: a slot plays its games in a single-threaded process of its own
  (:mod:`arena.execute.game_process`), as the local pool's workers do: bots are never
  started from a threaded process, and Dask's event loop never delays the referee's clocks.
- **Lost workers**: a worker that dies mid-game loses nothing: the game is played again
  on another slot (same seed, same bots: same result); a game that kills
  ``distributed.scheduler.allowed-failures`` workers (3) fails with that reason. Workers
  that join later get slots within a second.
- Without an address a :class:`distributed.LocalCluster` is started
  (:mod:`arena.execute.dask_cluster`, in a session of its own so that Ctrl-C reaches only
  ``arena run``): ``concurrency`` workers of one thread each (one game at a time each,
  like the local pool), and the coordinator calls their slots directly.
  With ``--dask ADDRESS`` the calls go through the scheduler unless Dask's
  ``distributed.client.direct-to-workers`` is set (the coordinator must reach the workers).

Dask is imported only here, and this module only when ``executor: dask`` is used.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
import queue
import threading
import time
import uuid
import weakref
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import dask
import distributed
from distributed import WorkerPlugin

from arena.botproc import Sandbox
from arena.botproc.sandboxes.base import DEFAULT_DISK_MB
from arena.errors import ArenaError, ConfigError
from arena.execute.botfiles import (
    CACHE_ENV,
    FileRef,
    Pack,
    PackError,
    cache_root,
    localize,
    pack_commands,
    pack_paths,
    unpack,
)
from arena.execute.dask_cluster import LocalClusterProcess
from arena.execute.executor import Finished
from arena.execute.game_process import GameProcess, GameProcessDied, GameRequest
from arena.execute.jobs import Job
from arena.execute.pool import Failure
from arena.execute.stopping import StopSignals
from arena.records import BotSpec, Clock, GameSpec

CONNECT_TIMEOUT_S = 10.0
"""Seconds to reach the scheduler before ``arena run`` gives up (exit code 2)."""
_QUIET = logging.CRITICAL + 1  # not even critical messages
CONNECTION_LIMIT = 8192
"""Connections the client may hold open (Dask's default: 512): a game's call holds one
while it plays, so :data:`SLOT_DEPTH` per worker thread reached directly."""
SLOT_DEPTH = 2
LOST_PAUSE_S = 10.0
"""Seconds no slot is made on a worker whose slot was lost (the scheduler forgets a dead
worker sooner)."""
"""Games sent to one slot at once: one playing, the next waiting (no idle gap between)."""
_LOGGERS = ("distributed", "asyncio", "tornado")


@dataclass(frozen=True)
class DaskOptions:
    """What the Dask executor needs of a tournament, as plain values.

    ``address``: the scheduler's (None: start a local cluster of ``workers``); ``bots``:
    each bot's argument vector; the sandbox as configured (``auto`` is decided by each
    worker); ``where_bots`` and ``where_dask`` name the file, key and line for messages.
    """

    address: str | None
    workers: int
    bots: dict[str, tuple[str, ...]]
    sandbox: str
    memory_mb: int | None
    max_processes: int
    where_bots: str = "bots"
    where_dask: str = "dask"
    disk_mb: int | None = DEFAULT_DISK_MB
    files: str = "folder"
    read_only: tuple[str, ...] = ()
    output: str = ""
    """The output folder: never shipped, even inside a bot's folder."""


@dataclass(frozen=True)
class RemoteJob:
    """One game as a worker receives it: bots' commands with :class:`FileRef` for their
    files, and the sandbox as configured (``auto`` is decided by each worker), with every
    option the local executor uses: ``disk_mb``, ``shown`` (the ``files`` key: folder or
    named), ``read_only`` (shipped copies, with the paths the tournament named), the clock.
    ``files`` names the worker plugin holding the packs."""

    game: str
    seed: int
    settings: dict[str, Any]
    bots: tuple[tuple[str, tuple[str | FileRef, ...]], ...]
    sandbox: str
    memory_mb: int | None
    max_processes: int
    files: str
    clock: Clock = field(default_factory=Clock)
    disk_mb: int | None = DEFAULT_DISK_MB
    shown: str = "folder"
    read_only: tuple[tuple[FileRef, str], ...] = ()
    game_dir: str = ""
    """The game's folder on the coordinator's machine: written by a worker on that machine
    (see :func:`output_identity`)."""
    output: tuple[str, ...] = ()
    """:func:`output_identity` of the coordinator's output folder (empty: never written
    by the worker)."""


def output_identity(folder: str) -> tuple[str, ...]:
    """What says that ``folder`` is the same folder in another process: this kernel's boot
    id (the same machine) and the folder's device and inode; empty when unknown."""
    try:
        with open("/proc/sys/kernel/random/boot_id") as file:
            boot = file.read().strip()
        st = os.stat(folder)
    except OSError:
        return ()
    return (folder, boot, str(st.st_dev), str(st.st_ino))


def _check_cache_env() -> None:
    """:class:`ConfigError` naming ``$ARENA_BOT_CACHE`` when it names something that is not
    a folder (the workers could not unpack the bot files there)."""
    value = os.environ.get(CACHE_ENV)
    if not value:
        return
    path = Path(value)
    if path.exists() and not path.is_dir():
        raise ConfigError(f"{CACHE_ENV}={value}: not a folder (the bot-file cache of the workers)")
    if not path.exists() and not path.parent.is_dir():
        raise ConfigError(f"{CACHE_ENV}={value}: its parent folder does not exist")


class BotFiles(WorkerPlugin):
    """A worker plugin carrying the packed bot files of one tournament."""

    def __init__(self, name: str, packs: dict[str, Pack]) -> None:
        self.name = name
        self.packs = packs

    def setup(self, worker: Any) -> None:
        """Unpack every file into this machine's cache as the worker starts."""
        for packed in self.packs.values():
            unpack(packed, cache_root())

    def path(self, ref: FileRef) -> Path:
        """The cached copy of a referenced file or folder (written again if damaged)."""
        return unpack(self.packs[ref.digest], cache_root())


_local = threading.local()


def _game_process() -> GameProcess:
    """This thread's game process (see :mod:`arena.execute.game_process`)."""
    if not hasattr(_local, "process"):
        _local.process = GameProcess()
    process: GameProcess = _local.process
    return process


def play_remote(job: RemoteJob, files: BotFiles) -> dict[str, Any]:
    """Play one game on this worker: ``{"record": ..., "files": {name: bytes}}``.

    The bots' commands point at this machine's cached copies of their files; the game is
    played by this thread's game process, in a scratch folder whose files come back with
    the record, or are written into ``job.game_dir`` when that folder is the coordinator's
    own (this machine, the same output folder: ``files`` is then empty).
    """
    checked: dict[str, Path] = {}

    def where(ref: FileRef) -> Path:
        # Each cached copy is checked once a game (two bots of one folder: one check).
        if ref.digest not in checked:
            checked[ref.digest] = files.path(ref)
        return checked[ref.digest]

    bots = tuple(BotSpec(name, localize(argv, where)) for name, argv in job.bots)
    local = Job(job.game, job.seed, job.settings, bots, "", Sandbox(), clock=job.clock)
    read_only = tuple((str(where(ref)), named) for ref, named in job.read_only)
    request = GameRequest(
        local, job.sandbox, job.memory_mb, job.max_processes, job.disk_mb, job.shown, read_only
    )
    result = _game_process().play(request)
    if job.output and job.game_dir and output_identity(job.output[0]) == job.output:
        with contextlib.suppress(OSError):  # (not this user's to write: sent back instead)
            write_game_files(Path(job.game_dir), result["files"])
            result["files"] = {}
    return result


class GameSlot:
    """A Dask actor: one worker thread's games, played one after the other.

    :meth:`play` hands each game to a thread of the slot's own (with its game process), so
    the worker's event loop stays free; it never raises for a game: a referee failure
    comes back as ``("failed", reason)``, so that an exception of the call itself always
    means the worker (or the way to it) was lost. The thread is a daemon, as Dask's own
    are (a worker that exits does not wait for its games: their processes stop with it),
    and ends when the slot is dropped (its game process then stops too).
    """

    def __init__(self, plugin: str) -> None:
        self.plugin = plugin
        self.games: queue.SimpleQueue[Any] = queue.SimpleQueue()
        thread = threading.Thread(
            target=_serve_slot, args=(self.games,), name="arena-game-slot", daemon=True
        )
        thread.start()
        weakref.finalize(self, self.games.put, None)

    async def play(self, job: bytes) -> bytes:
        """A pickled :class:`RemoteJob` in; ``("done", {"record": ..., "files": ...})`` or
        ``("failed", reason)`` out, pickled.

        Pickled here rather than by Dask: Dask would also measure and dispatch on every
        field of them, on both sides, for each game.
        """
        files = distributed.get_worker().plugins[self.plugin]
        assert isinstance(files, BotFiles)
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[bytes] = loop.create_future()
        self.games.put((job, files, loop, answer))
        return await answer


def _serve_slot(games: queue.SimpleQueue[Any]) -> None:
    """A slot's thread: play its games in turn until the slot is dropped (None)."""
    try:
        while (game := games.get()) is not None:
            job, files, loop, answer = game
            result = _play_in_slot(job, files)
            loop.call_soon_threadsafe(_settle, answer, result)
    finally:
        if hasattr(_local, "process"):
            _local.process.close()


def _settle(answer: asyncio.Future[bytes], result: bytes) -> None:
    if not answer.done():
        answer.set_result(result)


def _play_in_slot(job: bytes, files: BotFiles) -> bytes:
    answer: tuple[str, Any]
    try:
        answer = ("done", play_remote(pickle.loads(job), files))
    except Exception as exc:
        if isinstance(exc, GameProcessDied | RuntimeError) and str(exc):
            answer = ("failed", str(exc))
        else:
            answer = ("failed", f"{type(exc).__name__}: {exc}")
    return pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)


@dataclass(eq=False)
class _Slot:
    """The coordinator's view of one :class:`GameSlot`: being created, then its actor."""

    worker: str
    future: Any
    actor: Any = None
    busy: int = 0
    """Games sent to it and not answered yet."""
    dead: bool = False


@dataclass
class _Game:
    """A game in flight: what it is, where it goes, how many workers it has lost."""

    spec: GameSpec
    remote: RemoteJob
    game_dir: Path
    lost: int = 0
    slot: _Slot | None = None


class _Lost:
    """A slot's answer when the call itself failed: its worker is gone."""


def write_game_files(game_dir: Path, files: dict[str, bytes]) -> None:
    """Write a game's returned files into its folder (each replaced in one step)."""
    game_dir.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        if "/" in name or name in ("", ".", ".."):
            raise ValueError(f"a worker returned a file named {name!r}")
        tmp = game_dir / f".{name}.tmp"
        tmp.write_bytes(data)
        tmp.replace(game_dir / name)


class DaskExecutor:
    """The coordinator's side: a client (and maybe a LocalCluster) for one tournament."""

    def __init__(
        self,
        client: Any,
        cluster: LocalClusterProcess | None,
        options: DaskOptions,
        say: Callable[[str], None],
    ) -> None:
        self.client = client
        self.cluster = cluster
        self.options = options
        self.say = say
        self.address = options.address or "a local cluster"
        self.commands: dict[str, tuple[str | FileRef, ...]] = {}
        self.read_only: tuple[tuple[FileRef, str], ...] = ()
        self.plugin = ""
        self._levels: dict[str, int] = {}
        self._stop = StopSignals()
        self._done: queue.SimpleQueue[tuple[int, Any]] = queue.SimpleQueue()
        self._slots: list[_Slot] = []
        self._gone: dict[str, float] = {}
        """Workers whose slots were lost, with when: no slot made there for a while."""
        self._polled = 0.0
        self._output: tuple[str, ...] = ()
        self._allowed = int(dask.config.get("distributed.scheduler.allowed-failures", 3))

    # -- opening and closing -----------------------------------------------------------

    @classmethod
    def open(cls, options: DaskOptions, say: Callable[[str], None]) -> DaskExecutor:
        """Connect to ``options.address`` (else start a LocalCluster) and ship the bot files.

        Raises :class:`ConfigError` (before any game) when the scheduler cannot be reached
        or a bot's files cannot be packed.
        """
        if not options.address:
            _check_cache_env()  # the local cluster's workers inherit it
        skip = [options.output] if options.output else []
        try:
            commands, packs = pack_commands(options.bots, options.files == "folder", skip)
            read_only, more = pack_paths(options.read_only, skip)
        except PackError as exc:
            raise ConfigError(f"{options.where_bots}: {exc}") from None
        packs.update(more)
        levels = _quiet_logs(_QUIET)
        cluster: LocalClusterProcess | None = None
        try:
            if options.address:
                client = _connect(options)
            else:
                say(f"dask: starting a local cluster of {options.workers} workers")
                cluster = LocalClusterProcess(options.workers)
                address = cluster.wait_address()
                # The workers are on this machine: each game goes straight to its slot.
                client = distributed.Client(
                    address,
                    timeout=CONNECT_TIMEOUT_S,
                    direct_to_workers=True,
                    connection_limit=CONNECTION_LIMIT,
                )
        except BaseException:
            _restore_logs(levels)
            if cluster is not None:
                cluster.close()
            raise
        executor = cls(client, cluster, options, say)
        executor._levels = levels
        executor.commands = commands
        executor.read_only = read_only
        executor.plugin = f"arena-bot-files-{uuid.uuid4().hex[:12]}"  # one per run
        try:
            executor._start(packs)
        except BaseException:
            executor.close()
            raise
        return executor

    def _start(self, packs: dict[str, Pack]) -> None:
        """Send the bot files to every worker (also those that join later); say who is there."""
        try:
            self._call(self.client.register_plugin, BotFiles(self.plugin, packs), name=self.plugin)
        except ArenaError:
            raise
        except Exception as exc:  # a worker could not unpack them (disk full...)
            why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise ArenaError(f"the Dask workers could not take the bots' files: {why}") from None
        if not self.options.address:
            return
        nthreads = self._call(self.client.nthreads)
        workers, threads = len(nthreads), sum(nthreads.values())
        state = f"{_plural(workers, 'worker')}, {_plural(threads, 'thread')}"
        state = state if workers else "no workers yet (the games wait for one)"
        # (A worker of several threads plays as many games at once, each in a game process
        # of its own with its own referee: nothing to warn about.)
        self.say(f"dask: {state} at {self.options.address}")

    def close(self) -> None:
        """Drop the bot files plugin, disconnect (stop the local cluster); Dask's loggers
        stay quiet until the end."""
        try:
            with contextlib.suppress(Exception):
                if self.plugin and self.client.status == "running":
                    self.client.unregister_worker_plugin(self.plugin)
            with contextlib.suppress(Exception):
                self.client.close(timeout=5)
            if self.cluster is not None:
                self.cluster.close()
        finally:
            _restore_logs(self._levels)

    # -- running -----------------------------------------------------------------------

    def run(
        self, todo: Iterator[GameSpec], job: Callable[[GameSpec], Any], finished: Finished
    ) -> None:
        """Play every game of ``todo``; ``finished(spec, record dict or Failure)`` as each
        ends, after its files are in its folder.

        SIGINT and SIGTERM stop it as they stop the local pool: no game starts after the
        signal, a game being stored is stored, the answers of the games in flight are
        dropped (a local cluster's games are stopped with it), and
        :class:`~arena.execute.stopping.Interrupted` says which signal it was. Losing the
        scheduler raises :class:`ArenaError` (stored games kept).
        """
        running: dict[int, _Game] = {}
        again: deque[_Game] = deque()  # games whose worker was lost, to play first
        # Each answer is put here by the client's event loop: waiting for the next one
        # costs a queue wait, not a scan of every game in flight.
        self._done = queue.SimpleQueue()
        # (The output folder exists by now: the store is open.)
        self._output = output_identity(self.options.output) if self.options.output else ()
        exhausted = False
        token = 0
        with self._stop:
            while True:
                self._stop.check()
                if self.client.status != "running":
                    raise self._lost(None)
                self._refresh()
                # Every slot gets a game before any gets its second (depth 1, then 2).
                for depth in range(1, SLOT_DEPTH + 1):
                    for slot in self._slots:
                        if exhausted and not again:
                            break
                        if slot.actor is None or slot.dead or slot.busy >= depth:
                            continue
                        if again:
                            game = again.popleft()
                        else:
                            spec = next(todo, None)
                            if spec is None:
                                exhausted = True
                                continue
                            local = job(spec)
                            remote = self._remote(local)
                            game = _Game(spec, remote, Path(local.game_dir))
                        token += 1
                        game.slot = slot
                        slot.busy += 1
                        running[token] = game
                        self._send(slot, token, game.remote)
                if not running and exhausted and not again:
                    return
                for done, answer in self._call(self._first_done):
                    game = running.pop(done)
                    assert game.slot is not None
                    game.slot.busy -= 1
                    if isinstance(answer, _Lost):
                        self._slot_lost(game.slot)
                        game.lost += 1
                        if game.lost < self._allowed:
                            again.append(game)
                            continue
                        outcome: dict[str, Any] | Failure = Failure(
                            "Dask gave up on the game: the workers playing it died too often"
                            " (the scheduler's allowed-failures; a bot may do that)"
                        )
                    else:
                        outcome = self._outcome(answer, game.game_dir)
                    finished(game.spec, outcome)

    def _send(self, slot: _Slot, token: int, remote: RemoteJob) -> None:
        """Call ``slot`` with a game from the client's event loop; its answer (or
        :class:`_Lost`) is put on the queue of answers with ``token``."""
        actor, done = slot.actor, self._done
        job = pickle.dumps(remote, protocol=pickle.HIGHEST_PROTOCOL)

        async def call() -> None:
            try:
                answer: Any = pickle.loads(await actor.play(job))
            except Exception:  # the worker died, or the way to it (its answer is lost)
                answer = _Lost()
            done.put((token, answer))

        self.client.loop.add_callback(call)

    def _refresh(self) -> None:
        """Slots for every worker thread (asked of the scheduler at most once a second);
        slots whose actor is made become usable."""
        for slot in self._slots:
            if slot.actor is None and not slot.dead and slot.future.done():
                if slot.future.status == "finished":
                    slot.actor = self._call(slot.future.result)
                else:
                    slot.dead = True
        if time.monotonic() - self._polled < 1.0:
            return
        self._polled = time.monotonic()
        nthreads = self._call(self.client.nthreads)
        now = time.monotonic()
        # A worker lost a moment ago may still be listed: the scheduler has not noticed
        # yet. One still listed after LOST_PAUSE_S is alive (a connection failed): used again.
        self._gone = {
            w: t for w, t in self._gone.items() if w in nthreads and now - t < LOST_PAUSE_S
        }
        for slot in self._slots:
            if slot.worker not in nthreads:
                slot.dead = True
        self._slots = [s for s in self._slots if not s.dead or s.busy]
        for worker, threads in nthreads.items():
            if worker in self._gone:
                continue
            have = sum(1 for s in self._slots if s.worker == worker and not s.dead)
            for _ in range(threads - have):
                future = self._call(
                    self.client.submit,
                    GameSlot,
                    self.plugin,
                    actor=True,
                    workers=[worker],
                    allow_other_workers=False,
                    pure=False,
                    key=f"arena-slot-{uuid.uuid4().hex[:12]}",
                )
                self._slots.append(_Slot(worker, future))

    def _slot_lost(self, slot: _Slot) -> None:
        """A call to ``slot`` failed: its worker is gone (every slot of it)."""
        self._gone[slot.worker] = time.monotonic()
        for other in self._slots:
            if other.worker == slot.worker:
                other.dead = True

    def _first_done(self) -> list[tuple[int, Any]]:
        """The games that ended: at least one, unless none ended within a second (then
        the caller looks for room again)."""
        try:
            with self._stop.waiting():
                done = [self._done.get(timeout=1.0)]
        except queue.Empty:
            return []
        with contextlib.suppress(queue.Empty):
            while True:
                done.append(self._done.get_nowait())
        return done

    def _call(self, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """A call to the cluster; a lost connection becomes one clear :class:`ArenaError`."""
        try:
            return function(*args, **kwargs)
        except (CancelledError, OSError) as exc:
            raise self._lost(exc) from None

    def _lost(self, exc: BaseException | None) -> ArenaError:
        # Dask's own words (closed streams, connection pools) would not help the user.
        return ArenaError(
            f"lost the Dask scheduler at {self.address}; the games stored so far are"
            " kept: run the same command again to resume"
        )

    def _remote(self, local: Any) -> RemoteJob:
        return RemoteJob(
            local.game,
            local.seed,
            local.settings,
            tuple((b.name, self.commands[b.name]) for b in local.bots),
            self.options.sandbox,
            self.options.memory_mb,
            self.options.max_processes,
            self.plugin,
            local.clock,
            self.options.disk_mb,
            self.options.files,
            self.read_only,
            str(local.game_dir),
            self._output,
        )

    def _outcome(self, answer: tuple[str, Any], game_dir: Path) -> dict[str, Any] | Failure:
        kind, payload = answer
        if kind != "done":
            return Failure(str(payload))
        if payload["files"]:  # (a worker on another machine)
            write_game_files(game_dir, payload["files"])
        return dict(payload["record"])


def _connect(options: DaskOptions) -> Any:
    try:
        return distributed.Client(
            options.address, timeout=CONNECT_TIMEOUT_S, connection_limit=CONNECTION_LIMIT
        )
    except Exception as exc:
        why = str(exc).split("\n")[0] or type(exc).__name__
        raise ConfigError(
            f"{options.where_dask}: cannot reach the Dask scheduler at {options.address!r}: {why}"
        ) from None


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def _quiet_logs(level: int) -> dict[str, int]:
    """Raise every Dask, asyncio and tornado logger to ``level`` (their levels before).

    Child loggers have levels of their own (``distributed.client``...), so each is set:
    what goes wrong reaches the user as arena's one-line messages instead.
    """
    names = [n for n in logging.root.manager.loggerDict if n.split(".")[0] in _LOGGERS]
    levels = {}
    for name in {*_LOGGERS, *names}:
        logger = logging.getLogger(name)
        levels[name] = logger.level
        logger.setLevel(max(level, logger.level))
    return levels


def _restore_logs(levels: dict[str, int]) -> None:
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)
