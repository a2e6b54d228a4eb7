"""A match: games between bot commands given one by one (``arena match``, and the bots
of :func:`arena.play`), played by the one runner (:mod:`arena.tournament.play`).

:func:`match_bots` reads ``[NAME=]CMD`` commands (a lone C++, Rust... source file is
built first), each named once by :func:`bot_names`; a :class:`MatchRequest` is the checked
match; :func:`play_match` plays it and, with an output folder, stores every game there as
``arena run`` does (``arena.sqlite``, ``games/<slug>/``, the run's meta and
``status.json``), so ``arena leaderboard``, ``list``, ``show`` and ``report`` read it.
"""

from __future__ import annotations

import re
import shlex
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.errors import ConfigError
from arena.events import Observers, RunObserver
from arena.limits import MAX_PROCESSES
from arena.records import BotSpec, Clock, GameRecord, GameSpec
from arena.tournament.play import GamePlan, play_plan

if TYPE_CHECKING:
    from arena.botbuild.build import Recipe
    from arena.botproc.sandboxes.base import Sandbox
    from arena.execute.executor import Finished
    from arena.execute.jobs import Job
    from arena.game import Game, GameInfo
    from arena.results.leaderboard import Leaderboard
    from arena.results.store import Store

MATCH_MAX_PROCESSES = MAX_PROCESSES
"""The processes a bot of a match may run at once (a tournament's default too)."""


@dataclass(frozen=True)
class MatchBot:
    """A bot of a match: its name, its command as given (``index``: its place), and its
    ``argv``; a source file to build has its ``recipe`` and no argv until built."""

    name: str
    cmd: str
    argv: tuple[str, ...]
    index: int
    recipe: Recipe | None = None

    def file_entry(self) -> dict[str, str]:
        """The bot as a tournament file's ``bots`` entry, from any folder: its absolute
        command, or its absolute source file to build."""
        if self.recipe is not None:
            return {"name": self.name, "source": str(Path(self.recipe.sources[0][1]).resolve())}
        return {"name": self.name, "cmd": shlex.join(self.argv)}


def bot_names(given: Sequence[str | None], argvs: Sequence[tuple[str, ...]]) -> list[str]:
    """The one rule that names bots (``arena run``, ``arena match``, :func:`arena.play`):
    :func:`arena.botproc.commands.default_names` over each command's file."""
    from arena.botproc.commands import bot_file, default_names

    return default_names(given, [bot_file(argv) for argv in argvs])


def refuse_repeated_names(given: Sequence[str | None]) -> None:
    """:class:`ConfigError` for the first bot name given twice (``None``: not given)."""
    for i, name in enumerate(given):
        if name is not None and name in given[:i]:
            raise ConfigError(f"the bot name {name!r} is given twice")


def resolve_bot(command: str | Sequence[str], index: int) -> tuple[str, ...]:
    """A bot's argv from a command line (file words resolved against the current folder)
    or an argument list; :class:`ConfigError` naming ``bot {index + 1}`` when it cannot run."""
    from arena.botproc.commands import resolve_command

    if isinstance(command, str):
        argv = resolve_command(command, Path.cwd())
        if isinstance(argv, str):
            raise ConfigError(f"bot {index + 1} {command!r}: {argv}")
        return argv
    if not command:
        raise ConfigError(f"bot {index + 1}: empty command")
    return tuple(str(part) for part in command)


def match_bots(commands: Sequence[str]) -> list[MatchBot]:
    """The bots of ``[NAME=]CMD`` arguments, in seat order; a name given twice is refused,
    the others named by :func:`bot_names`."""
    parsed = [re.fullmatch(r"([\w.'-]+)=(\S.*)", text, flags=re.DOTALL) for text in commands]
    given = [m.group(1) if m else None for m in parsed]
    refuse_repeated_names(given)
    bots: list[MatchBot] = []
    for i, (text, named) in enumerate(zip(commands, parsed, strict=True)):
        cmd = named.group(2) if named else text
        recipe = _source_recipe(cmd, i)
        argv = resolve_bot(cmd, i) if recipe is None else ()
        bots.append(MatchBot("", cmd, argv, i, recipe))
    files = [b.argv if b.recipe is None else (b.recipe.sources[0][1],) for b in bots]
    names = bot_names(given, files)
    return [replace(b, name=name) for b, name in zip(bots, names, strict=True)]


def _source_recipe(cmd: str, index: int) -> Recipe | None:
    """The recipe of a command that is one source file with a known ending (not Python,
    whose files run as commands, as always); None for any other command."""
    from arena.botbuild.build import RecipeError, known_extension, make_recipe

    try:
        words = shlex.split(cmd)
    except ValueError:
        return None
    if len(words) != 1 or words[0].endswith(".py") or not known_extension(words[0]):
        return None
    if not Path(words[0]).is_file():
        return None
    try:
        return make_recipe(words[0], Path.cwd())
    except RecipeError as exc:
        raise ConfigError(f"bot {index + 1} {cmd!r}: {exc.message}") from None


def match_schedule(names: list[str], games: int, seed: int) -> list[GameSpec]:
    """The games of a match: round r plays seed ``seed`` + r, every seat rotation of it
    before the next seed."""
    from arena.tournament.schedule import round_robin

    specs = round_robin(names, len(names), games, seed)
    return [replace(s, seed=seed + s.round) for s in specs]


StepObserver = Callable[..., Any]


@dataclass(frozen=True)
class MatchRequest:
    """A checked match: the game and its settings, the bots, the games (seeds), where they
    are kept (``output``; None: nowhere, no replay is recorded) and how they are played."""

    info: GameInfo
    settings: dict[str, Any]
    bots: list[MatchBot]
    specs: list[GameSpec]
    output: Path | None = None
    sandbox: str = "auto"
    files: str = "folder"
    read_only: tuple[str, ...] = ()
    clock: Clock = field(default_factory=Clock)
    jobs: int = 1
    step_observer: StepObserver | None = None  # built in the worker: every step (--verbose)

    @property
    def names(self) -> list[str]:
        """The bots' names, in seat order."""
        return [b.name for b in self.bots]


@dataclass
class MatchResult:
    """What :func:`play_match` did: each stored game with its spec (in the order they
    ended), the failures, the stop signal (if one stopped it) and where the files are."""

    names: list[str]
    games: list[tuple[GameSpec, GameRecord]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    stop_signal: int | None = None
    stop: Exception | None = None
    root: Path | None = None
    oversubscribed: int = 0  # games started without a core per thinking bot (-j above fair)

    @property
    def records(self) -> list[GameRecord]:
        """The stored games' records, in the order they ended."""
        return [record for _, record in self.games]


def play_match(
    request: MatchRequest,
    observers: Sequence[RunObserver] = (),
    say: Callable[[str], None] = print,
) -> MatchResult:
    """Play ``request``'s games in worker processes (``jobs`` at once): the output folder
    locked and opened, the sandbox announced, source bots built, then every game played,
    each result published to ``observers`` (and ``OUTPUT/status.json``)."""
    from arena.results.status import StatusWriter

    lock = store = None
    root = request.output
    if request.output is not None:
        from arena.results.lock import lock_output
        from arena.results.store import make_output_folder

        make_output_folder(request.output, "--output")
        lock = lock_output(request.output)  # one arena at a time writes there
    try:
        if request.output is not None:
            store = _match_store(request, say)
        else:
            root = Path(tempfile.mkdtemp(prefix="arena-match-"))
        assert root is not None
        sandbox = _match_sandbox(request, say)
        builds: dict[str, dict[str, str]] = {}
        bots = _build_sources(request.bots, sandbox, say, builds)
        if store is not None:
            _write_match_meta(store, request, bots, builds)
        result = MatchResult(request.names, root=request.output)
        watching = [StatusWriter(request.output)] if request.output is not None else []
        _play(request, bots, sandbox, root, store, result, Observers([*watching, *observers], say))
        return result
    finally:
        if store is not None:
            store.close()
        if lock is not None:
            lock.release()
        if request.output is None and root is not None:
            shutil.rmtree(root, ignore_errors=True)


def _play(
    request: MatchRequest,
    bots: list[BotSpec],
    sandbox: Sandbox,
    root: Path,
    store: Store | None,
    result: MatchResult,
    observers: Observers,
) -> None:
    """The match's games, played by the runner; ``result`` filled as they end."""
    from arena.execute.executor import LocalExecutor
    from arena.execute.jobs import Job
    from arena.execute.pool import fork_safe

    by_name = {b.name: b for b in bots}
    keep = store is not None  # replays are recorded only when kept (--output)

    def job(spec: GameSpec) -> Job:
        seats = tuple(by_name[n] for n in spec.seats)
        game_dir = str(store.game_dir(spec.key) if store else root / f"game-{spec.order + 1:04d}")
        return Job(
            request.info.id, spec.seed, request.settings, seats, game_dir, sandbox,
            request.step_observer, request.clock, keep,
        )  # fmt: skip

    def stored(spec: GameSpec, record: GameRecord) -> None:
        if store is not None:
            identity = {"game": request.info.id, "seed": record.seed, "bots": list(spec.seats)}
            store.add_game(spec.key, spec.order, spec.round, spec.group, record, identity)
        result.games.append((spec, record))

    specs = request.specs
    plan = GamePlan(
        " vs ".join(request.names),
        request.output,
        iter(specs),
        job,
        total=lambda: len(specs),
        max_replays=0,  # a stall is not counted and not played again
    )
    workers = 1 if request.step_observer is not None else min(request.jobs, len(specs))
    # Workers forked from this process (single-threaded: no progress bar's thread)
    # start at once, with arena and the game already imported.
    executor = LocalExecutor(
        workers, "fork" if fork_safe() else "spawn", thinking=request.info.thinking
    )
    played = play_plan(plan, executor, stored, lambda spec, why: None, observers, _quiet)
    result.failures = played.failures
    result.stop_signal, result.stop = played.stop_signal, played.stop
    result.oversubscribed = played.oversubscribed


def _quiet(message: str) -> None:
    """The runner's own messages (stalls given up): the match's observers say them."""


def _match_sandbox(request: MatchRequest, say: Callable[[str], None]) -> Sandbox:
    """The sandbox of ``--sandbox`` (checked before any game), announced."""
    from arena.execute.jobs import announce_sandbox, choose_sandbox

    hide = [request.output] if request.output is not None else []
    sandbox = choose_sandbox(request.sandbox, None, hide, MATCH_MAX_PROCESSES)
    sandbox = replace(sandbox, files=request.files, read_only=request.read_only)
    announce_sandbox(request.sandbox, sandbox, say)
    return sandbox


def _build_sources(
    bots: list[MatchBot],
    sandbox: Sandbox,
    say: Callable[[str], None],
    builds: dict[str, dict[str, str]],
) -> list[BotSpec]:
    """Each source bot built (or found built in the cache); the others as they are.
    Each source bot's build goes into ``builds`` as ``arena run`` keeps it (meta ``builds``)."""
    from arena.botbuild.build import BuildFailed, build

    out: list[BotSpec] = []
    for bot in bots:
        if bot.recipe is None:
            out.append(BotSpec(bot.name, bot.argv))
            continue
        try:
            built = build(bot.recipe, sandbox)
        except BuildFailed as failed:
            raise ConfigError(
                f"bot {bot.index + 1} {bot.cmd!r} ({bot.name}) does not build: {failed.text()}"
            ) from None
        how = "cached build" if built.cached else f"built in {built.seconds:.1f} s"
        say(f"arena: {bot.name}: {bot.recipe.language} {how}")
        folder = str(built.out) if bot.recipe.steps else ""
        builds[bot.name] = {"language": bot.recipe.language, "source": bot.recipe.main,
                            "folder": folder}  # fmt: skip
        out.append(BotSpec(bot.name, built.argv))
    return out


def _match_store(request: MatchRequest, say: Callable[[str], None]) -> Store:
    """The store of the output folder. A folder of an earlier match is started over; one
    of a tournament is refused (before any bot is built)."""
    from arena.results.store import DB_NAME, Store, clear_output, open_existing

    output = request.output
    assert output is not None
    if (output / DB_NAME).is_file():
        old = open_existing(output)
        try:
            fmt = old.meta().get("format")
        finally:
            old.close()
        if fmt != "match":
            raise ConfigError(
                f"--output {output}: holds a tournament's games ({DB_NAME}); "
                "choose another folder for a match"
            )
        say(f"arena: {output} held an earlier match: its games are replaced")
        clear_output(output)
        for old_game in output.glob("game-[0-9]*"):  # the layout of earlier versions
            shutil.rmtree(old_game, ignore_errors=True)
    return Store(output)


def _write_match_meta(
    store: Store, request: MatchRequest, bots: list[BotSpec], builds: dict[str, dict[str, str]]
) -> None:
    """The run's meta, as ``arena run`` writes it (format ``match``), and each bot's
    command (a source file's as given, built or not)."""
    info, names = request.info, request.names
    clock = request.clock
    clock_options: dict[str, Any] = {
        "time_margin_ms": clock.margin_ms,
        "clock_scale": clock.scale,
    }
    if clock.kind != "wall":
        clock_options["clock"] = clock.kind
    store.set_meta(
        {
            "name": " vs ".join(names),
            "game": info.id,
            "version": info.version,
            "format": "match",
            "players": len(names),
            "settings": request.settings,
            "variant_keys": [],
            "seed": request.specs[0].seed if request.specs else None,
            "seeds": None,
            "book": None,
            "bots": names,
            "owners": {},
            "champion": None,
            "sprt": None,
            "rating": None,  # the default rating
            "builds": builds,
            **clock_options,
        }
    )
    commands = {
        given.name: given.cmd if given.recipe is not None else " ".join(spec.argv)
        for given, spec in zip(request.bots, bots, strict=True)
    }
    store.set_bots(commands)


def play_one(
    game: Game[Any],
    bots: list[BotSpec],
    seed: int,
    settings: dict[str, Any],
    root: Path,
    sandbox: str = "auto",
    memory_mb: int | None = None,
) -> GameRecord:
    """Play one game in this process (:func:`arena.play`: ``game`` may be a class no
    plugin registers), its files in ``root``; ``sandbox`` checked as ``--sandbox`` is.

    It is played by the runner (:func:`~arena.tournament.play.play_plan`), as a match's
    games are: a stall is not played again, and what the referee returned is the answer
    (a stall's record, broken off, says so in its ``reason``); a failure in the referee
    raises, as the game's own code does."""
    from arena.execute.cores import one_game
    from arena.execute.jobs import Job, choose_sandbox

    chosen = choose_sandbox(sandbox, memory_mb, [], MATCH_MAX_PROCESSES, "sandbox")
    names = [b.name for b in bots]
    specs = match_schedule(names, 1, seed)

    def job(spec: GameSpec) -> Job:
        return Job(game.info.id, spec.seed, settings, tuple(bots), str(root), chosen)

    played: list[GameRecord] = []
    plan = GamePlan(" vs ".join(names), None, iter(specs), job, total=lambda: 1, max_replays=0)
    here = _ThisProcess(game)
    keep = lambda spec, record: played.append(record)  # noqa: E731
    with one_game(game.info.thinking):  # its cores from the machine's ledger
        play_plan(plan, here, keep, lambda spec, why: None, Observers([]), _quiet)
    if played:
        return played[0]
    assert here.last is not None  # not played out: a stall (a failure raised)
    return here.last


@dataclass
class _ThisProcess:
    """The executor of :func:`play_one`: each game played here, in this process, by
    ``game``; ``last`` is the record the referee returned for the latest (a stall's too)."""

    game: Game[Any]
    last: GameRecord | None = None

    def run(
        self, todo: Iterator[GameSpec], job: Callable[[GameSpec], Job], finished: Finished
    ) -> None:
        """Play each game of ``todo`` in turn, ``finished`` told of each."""
        from arena.execute.jobs import play_job

        for spec in todo:
            result = play_job(job(spec), game=self.game)
            self.last = GameRecord.from_dict(result)
            finished(spec, result)

    def close(self) -> None:
        """Nothing is held."""


def match_board(
    info: GameInfo, names: list[str], played: list[tuple[GameSpec, GameRecord]]
) -> Leaderboard:
    """The leaderboard of the games played (each with its spec), as a tournament
    computes it."""
    from arena.records import StoredGame
    from arena.results import rating
    from arena.results.leaderboard import Leaderboard

    ordered = sorted(played, key=lambda sr: sr[0].order)
    games = [
        StoredGame(
            i, spec.key, spec.order, spec.round, spec.group, info.id, r.seed, r.reason,
            r.turns, r.duration_ms, "", tuple(r.seats), dict(r.settings),
        )
        for i, (spec, r) in enumerate(ordered)
    ]  # fmt: skip
    stats, pairs = rating.compute(names, games)
    title = f"match {' vs '.join(names)} ({info.id}, {len(games)} games)"
    return Leaderboard(title, stats, pairs, players=len(names), multiplayer=len(names) != 2)
