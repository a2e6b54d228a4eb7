"""``arena match``: games between bot commands given on the command line."""

from __future__ import annotations

import argparse
import shlex
import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.cli.common import (
    NoProgressBar,
    game_registry,
    progress_bar,
    progress_wanted,
    warn_concurrency,
)
from arena.errors import EXIT_FAILED, EXIT_OK, ConfigError
from arena.text import shown_line

if TYPE_CHECKING:
    from arena.botbuild.build import Recipe
    from arena.botproc.sandboxes.base import Sandbox
    from arena.execute.jobs import Job
    from arena.execute.pool import Failure
    from arena.execute.stopping import Interrupted
    from arena.game import Game, GameInfo
    from arena.records import BotSpec, Clock, GameRecord, GameSpec, ReplayStep


def add_parsers(sub: Any) -> None:
    """The ``match`` command."""
    p = sub.add_parser(
        "match",
        help="play games between bot commands, with a turn-by-turn log",
        description="Play one game (or --games N) of GAME between the bot commands given in "
        "seat order. Game settings are options too: e.g. --layout 2 for splitter "
        "(see `arena games`).",
    )
    p.add_argument("game", help="game id (see `arena games`)")
    p.add_argument(
        "bots",
        nargs="+",
        metavar="[NAME=]CMD",
        help="bot command lines, one per seat; NAME= sets the name shown (default: the "
        "stem of the bot's file)",
    )
    p.add_argument(
        "--seed", type=int, default=1, help="seed of the first game; the next seeds follow it"
    )
    p.add_argument("--games", type=int, default=1, help="games to play; seats rotate (default 1)")
    p.add_argument("--jobs", "-j", type=int, default=1, help="games played at once (default 1)")
    p.add_argument("--verbose", "-v", action="store_true", help="log every turn")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--output", type=Path, help="keep replays and stderr files in this folder")
    p.add_argument("--sandbox", choices=("auto", "bwrap", "none"), default="auto")
    p.add_argument(
        "--files",
        choices=("folder", "named"),
        default="folder",
        help="what a sandboxed bot sees of its own files: the folder of the program its "
        "command runs (default) or only the files its command names",
    )
    p.add_argument(
        "--read-only",
        action="append",
        default=[],
        type=Path,
        metavar="PATH",
        help="another file or folder every bot sees, read-only (repeatable)",
    )
    p.add_argument(
        "--time-margin-ms",
        type=int,
        default=0,
        metavar="MS",
        help="grace past each turn's budget: a later answer is late, not a timeout (default 0)",
    )
    p.add_argument(
        "--clock-scale",
        type=float,
        default=1.0,
        metavar="X",
        help="multiply every time budget of the game, for slower machines (default 1)",
    )
    p.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="charge each turn its wall time (default) or its CPU time, all the bot's "
        "processes together",
    )
    p.set_defaults(func=cmd_match)


def _setting_options(game: type[Game[Any]], extra: list[str]) -> dict[str, Any]:
    """Parse ``--key value`` options against the game's settings."""
    info = game.info
    parser = argparse.ArgumentParser(prog=f"arena match {info.id}", add_help=False)
    for key in info.settings:
        parser.add_argument(f"--{key}", f"--{key.replace('_', '-')}", dest=key)
    parsed, unknown = parser.parse_known_args(extra)
    if unknown:
        known = ", ".join(f"--{k}" for k in info.settings) or "none"
        raise ConfigError(f"unknown option {unknown[0]!r} for {info.id} (game settings: {known})")
    from arena.tournament.config import compose_yaml, game_settings

    given = {}
    for key, text in vars(parsed).items():
        if text is not None:  # a value is read as YAML (yaml is imported only then)
            import yaml

            node = compose_yaml(text, f"--{key}")
            given[key] = None if node is None else yaml.SafeLoader(text).construct_document(node)

    def error(key: str, message: str) -> ConfigError:
        if key.startswith("settings."):
            return ConfigError(f"{info.id}: --{key.removeprefix('settings.')}: {message}")
        return ConfigError(f"{info.id}: {message}")

    return game_settings(game, given, error)


def _check_seeds(game: type[Game[Any]], first: int, seeds: list[int], games: int) -> None:
    """Refuse, before any game, a seed the game cannot play (``--seed`` and the seeds
    after it that ``--games`` plays)."""
    from arena.tournament.config import check_seed

    for seed in seeds:
        if (why := check_seed(game, seed)) is not None:
            if seed == first:
                raise ConfigError(f"--seed {why}")
            raise ConfigError(f"--seed {first} --games {games}: seed {why}")


def cmd_match(args: argparse.Namespace, extra: list[str]) -> int:
    """Play ``--games`` games between the given commands and summarise them.

    Each game is played in a worker process, like a tournament's (``-j`` at once).
    Everything is checked before the first game: the game and its settings, the options,
    the bots' commands, ``--read-only`` and the seeds.
    """
    from arena.execute.jobs import worker_registry

    # The registry the workers use too: forked from this process, they scan no plugins.
    game_cls = worker_registry(game_registry(args.game)).get(args.game)
    settings = _setting_options(game_cls, extra)
    clock = _check_options(args, game_cls.info)
    bots = _match_bots(args.bots)
    read_only = _read_only(args.read_only)
    specs = _schedule(args, game_cls, [b.name for b in bots])
    lock = None
    if args.output is not None:
        from arena.results.lock import lock_output
        from arena.results.store import make_output_folder

        make_output_folder(args.output, "--output")
        lock = lock_output(args.output)  # one arena at a time writes there
    try:
        return _play_match(args, game_cls.info, settings, clock, bots, read_only, specs)
    finally:
        if lock is not None:
            lock.release()


def _check_options(args: argparse.Namespace, info: GameInfo) -> Clock:
    """Refuse options the match cannot be played with; the clock they set."""
    from arena.records import Clock
    from arena.tournament.config import check_clock_scale, check_time_margin, players_text
    from arena.tournament.schedule import MAX_GAMES

    if not info.min_players <= len(args.bots) <= info.max_players:
        given = f"{len(args.bots)} command" + ("" if len(args.bots) == 1 else "s")
        raise ConfigError(f"{info.id} is played by {players_text(info)}; {given} given")
    for option in ("games", "jobs"):
        if getattr(args, option) < 1:
            raise ConfigError(f"--{option} must be at least 1, not {getattr(args, option)}")
    if args.games > MAX_GAMES:
        raise ConfigError(f"--games {args.games}: arena plays at most {MAX_GAMES} games at once")
    if args.verbose and args.jobs > 1:
        raise ConfigError("--verbose logs one game at a time: leave out -j")
    if message := check_time_margin(args.time_margin_ms):
        raise ConfigError(f"--time-margin-ms {message}")
    if message := check_clock_scale(args.clock_scale):
        raise ConfigError(f"--clock-scale {message}")
    return Clock(args.clock_scale, args.time_margin_ms, args.clock)


def _read_only(paths: list[Path]) -> tuple[str, ...]:
    """The ``--read-only`` paths, absolute; each must exist."""
    for path in paths:
        if not path.exists():
            raise ConfigError(f"--read-only {str(path)!r}: not found")
    return tuple(str(path.resolve()) for path in paths)


def _schedule(args: argparse.Namespace, game: type[Game[Any]], names: list[str]) -> list[GameSpec]:
    """The games to play: round r plays seed ``--seed`` + r, every seat rotation of it
    before the next seed; every seed checked with the game."""
    from arena.tournament.schedule import round_robin

    specs = round_robin(names, len(names), args.games, args.seed)
    _check_seeds(game, args.seed, sorted({args.seed + s.round for s in specs}), args.games)
    return specs


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _play_match(
    args: argparse.Namespace,
    info: GameInfo,
    settings: dict[str, Any],
    clock: Clock,
    sources: list[Any],
    read_only: tuple[str, ...],
    specs: list[GameSpec],
) -> int:
    """Play the checked match: the sandbox announced, source bots built, every game
    played and reported as it ends, then the summary; the exit code."""
    warn_concurrency(args.jobs, "-j", info.thinking)
    store = _match_store(args.output, info, settings, sources, _say) if args.output else None
    keep = args.output is not None
    root = args.output or Path(tempfile.mkdtemp(prefix="arena-match-"))
    try:
        sandbox = _match_sandbox(args, read_only)
        bots = _build_sources(sources, sandbox, _say)
        progress = not args.verbose and args.games > 1 and progress_wanted(args.no_progress)
        bar = progress_bar(len(specs)) if progress else NoProgressBar()
        results = _Results(info.id, root, store, bar, args.verbose or args.games <= 20)
        job = _job_maker(args, info.id, settings, bots, sandbox, clock, root)
        try:
            stop = _run_games(args, specs, job, results)
        finally:  # what was played is summed up even when arena itself failed
            _print_summary(info, [b.name for b in bots], results, clock)
            if keep:
                print(f"replays and stderr in {root}")
                print(f"games stored in {root} (arena list, leaderboard, report read it)")
    finally:
        if store is not None:
            store.close()
        if not keep:
            shutil.rmtree(root, ignore_errors=True)
    if stop is not None:
        return 128 + stop.signum
    return EXIT_FAILED if results.failed else EXIT_OK


def _match_sandbox(args: argparse.Namespace, read_only: tuple[str, ...]) -> Sandbox:
    """The sandbox of ``--sandbox``, ``--files`` and ``--read-only``, announced on stderr."""
    from arena.execute.jobs import announce_sandbox, choose_sandbox

    sandbox = choose_sandbox(args.sandbox, None, [args.output] if args.output else [], 64)
    sandbox = replace(sandbox, files=args.files, read_only=read_only)
    announce_sandbox(args.sandbox, sandbox, _say)
    return sandbox


def _job_maker(
    args: argparse.Namespace,
    game: str,
    settings: dict[str, Any],
    bots: list[BotSpec],
    sandbox: Sandbox,
    clock: Clock,
    root: Path,
) -> Callable[[GameSpec], Job]:
    """How a scheduled game becomes a worker's job."""
    from arena.execute.jobs import Job

    by_name = {b.name: b for b in bots}
    # --verbose: the worker builds the observer and prints every step as it is played.
    observer = _verbose_observer if args.verbose else None
    keep = args.output is not None

    def job(spec: GameSpec) -> Job:
        seats = tuple(by_name[n] for n in spec.seats)
        game_dir = str(root / f"game-{spec.order + 1:04d}")
        # Replays are recorded only when kept (--output): without, they would be deleted.
        seed = args.seed + spec.round
        return Job(game, seed, settings, seats, game_dir, sandbox, observer, clock, keep)

    return job


@dataclass
class _Results:
    """The games' results as they come in: each counted, stored and (``show``) printed."""

    game: str
    root: Path
    store: Any
    bar: Any
    show: bool
    records: list[GameRecord] = field(default_factory=list)
    played: list[GameSpec] = field(default_factory=list)
    failed: int = 0

    def finished(self, spec: GameSpec, result: dict[str, Any] | Failure) -> None:
        """One game ended (in a worker): its record, or why the referee failed."""
        from arena.execute.pool import Failure
        from arena.records import GameRecord

        self.bar.update(1)
        if isinstance(result, Failure):
            self.failed += 1
            why = f"arena: game {spec.order + 1} failed in the referee: {shown_line(result.reason)}"
            self.bar.write(why, sys.stderr)
            return
        if result.get("reason") == "stall":
            # The machine, not a bot, put a turn over its budget: not counted.
            stall = result.get("stall", "")
            why = f"arena: game {spec.order + 1} stalled, not counted: {stall}"
            self.bar.write(why, sys.stderr)
            return
        record = GameRecord.from_dict(result)
        self.records.append(record)
        self.played.append(spec)
        if self.store is not None:
            identity = {"game": self.game, "seed": record.seed, "bots": list(spec.seats)}
            folder = self.root / f"game-{spec.order + 1:04d}"
            self.store.add_game(spec.key, spec.order, spec.round, spec.group, record, identity,
                                folder)  # fmt: skip
        if self.show:
            self.bar.write(_result_line(spec.order + 1, record), sys.stdout)
            sys.stdout.flush()


def _run_games(
    args: argparse.Namespace,
    specs: list[GameSpec],
    job: Callable[[GameSpec], Job],
    results: _Results,
) -> Interrupted | None:
    """Play every game in worker processes; the stop signal that ended them early, if any."""
    from arena.execute.executor import LocalExecutor
    from arena.execute.pool import fork_safe
    from arena.execute.stopping import Interrupted

    try:
        workers = 1 if args.verbose else min(args.jobs, len(specs))
        # Workers forked from this process (single-threaded: no progress bar's
        # thread) start at once, with arena and the game already imported.
        method = "fork" if fork_safe() else "spawn"
        LocalExecutor(workers, method).run(iter(specs), job, results.finished)
        return None
    except Interrupted as exc:
        results.bar.write(f"arena: interrupted ({exc})", sys.stderr)
        return exc
    finally:
        results.bar.close()


def _print_summary(info: GameInfo, names: list[str], results: _Results, clock: Clock) -> None:
    """The table of the games played and, for two bots, their match line (none: nothing)."""
    if not results.records:
        return
    print(_match_summary(names, results.records, late=clock.margin_ms > 0))
    if len(names) == 2:
        print(_match_board(info, names, results.played, results.records).pair_line(*names))


def _match_store(
    output: Path, info: Any, settings: dict[str, Any], bots: list[Any], say: Any
) -> Any:
    """The store of ``--output``: each game is kept in its ``arena.sqlite`` as a tournament
    run keeps it, so ``arena list``, ``leaderboard`` and ``report`` read the folder. A
    folder of an earlier match is started over; one of a tournament is refused."""
    from arena.results.store import DB_NAME, Store, clear_output, open_existing

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
        for old_game in output.glob("game-[0-9]*"):
            shutil.rmtree(old_game, ignore_errors=True)
    store = Store(output)
    names = [b.name for b in bots]
    store.set_meta(
        {
            "name": " vs ".join(names),
            "game": info.id,
            "version": info.version,
            "format": "match",
            "players": len(names),
            "settings": settings,
            "variant_keys": [],
            "bots": names,
        }
    )
    store.set_bots({b.name: " ".join(b.argv) for b in bots})
    return store


def _match_board(info: Any, names: list[str], specs: list[Any], records: list[Any]) -> Any:
    """The leaderboard of the games played, as a tournament computes it."""
    from arena.records import StoredGame
    from arena.results import rating
    from arena.results.leaderboard import Leaderboard

    games = [
        StoredGame(
            i, spec.key, spec.order, spec.round, spec.group, info.id, r.seed, r.reason,
            r.turns, r.duration_ms, "", tuple(r.seats), dict(r.settings),
        )
        for i, (spec, r) in enumerate(
            sorted(zip(specs, records, strict=True), key=lambda sr: sr[0].order)
        )
    ]  # fmt: skip
    stats, pairs = rating.compute(names, games)
    title = f"match {' vs '.join(names)} ({info.id}, {len(games)} games)"
    return Leaderboard(title, stats, pairs, players=len(names), multiplayer=len(names) != 2)


def _match_bots(commands: list[str]) -> list[Any]:
    """Bot specs from ``[NAME=]CMD`` arguments; names default to the bot file's stem."""
    import re

    from arena.botproc.commands import default_name, resolve_command
    from arena.records import BotSpec

    parsed = [re.fullmatch(r"([\w.'-]+)=(\S.*)", text, flags=re.DOTALL) for text in commands]
    given = [m.group(1) for m in parsed if m]
    for i, name in enumerate(given):
        if name in given[:i]:
            raise ConfigError(f"the bot name {name!r} is given twice")
    bots: list[BotSpec | _Source] = []
    for i, (text, named) in enumerate(zip(commands, parsed, strict=True)):
        cmd = named.group(2) if named else text
        recipe = _source_recipe(cmd, i)
        if recipe is None:
            argv = resolve_command(cmd, Path.cwd())
            if isinstance(argv, str):
                raise ConfigError(f"bot {i + 1} {cmd!r}: {argv}")
        else:
            argv = (recipe.sources[0][1],)
        if named:
            name = named.group(1)
        else:
            name = default_name(argv)
            while name in given or any(b.name == name for b in bots):
                name += "'"
        bots.append(BotSpec(name, argv) if recipe is None else _Source(name, cmd, i, recipe))
    return bots


@dataclass(frozen=True)
class _Source:
    """A bot given as a source file, built (by its language's preset) before the games."""

    name: str
    cmd: str
    index: int
    recipe: Recipe


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


def _build_sources(bots: list[Any], sandbox: Sandbox, say: Callable[[str], None]) -> list[BotSpec]:
    """Each source bot built (or found built in the cache); the others as they are."""
    from arena.botbuild.build import BuildFailed, build
    from arena.records import BotSpec

    out: list[BotSpec] = []
    for bot in bots:
        if not isinstance(bot, _Source):
            out.append(bot)
            continue
        try:
            built = build(bot.recipe, sandbox)
        except BuildFailed as failed:
            raise ConfigError(
                f"bot {bot.index + 1} {bot.cmd!r} ({bot.name}) does not build: {failed.text()}"
            ) from None
        how = "cached build" if built.cached else f"built in {built.seconds:.1f} s"
        say(f"arena: {bot.name}: {bot.recipe.language} {how}")
        out.append(BotSpec(bot.name, built.argv))
    return out


def _result_line(n: int, record: Any) -> str:
    """``game 1 seed 1, 36 turns, ...: a #1 (3); b #2 (0) crash: ...``, then, for each
    seat that forfeited with stderr in its detail (a crash), the end of that stderr."""
    from arena.text import split_detail

    parts = []
    tails = []
    for s in record.seats:
        text = f"{s.bot} #{s.rank + 1} ({s.score:g})"
        if s.forfeit:
            summary, tail = split_detail(s.detail)
            text += f" {s.forfeit}: {shown_line(summary)}"
            if s.raw:
                text += f" [{shown_line(repr(s.raw[:60]))}]"
            if tail:
                tails += [f"  {s.bot}'s stderr ends:", *(f"    {shown_line(x)}" for x in tail)]
        parts.append(text)
    head = f"game {n} seed {record.seed}, {record.turns} turns, {record.reason}: "
    return "\n".join([head + "; ".join(parts), *tails])


def _match_summary(names: list[str], records: list[Any], late: bool = False) -> str:
    """The table of each bot's games: W/D/L, mean score with its 95% interval, min, max,
    forfeits, (late answers,) longest turn."""
    from arena.records import result_of
    from arena.results.stats import score_interval

    rows = []
    for name in names:
        seats = [s for r in records for s in r.seats if s.bot == name]
        scores = [s.score for s in seats]
        interval = score_interval(scores)
        row = [name, len(seats)]
        if len(names) > 1:
            results = [
                result_of([o.rank for o in r.seats], i)
                for r in records
                for i, s in enumerate(r.seats)
                if s.bot == name
            ]
            wins, draws = results.count("win"), results.count("draw")
            row.append(f"{wins}/{draws}/{len(seats) - wins - draws}")
        mean = f"{interval.mean + 0.0:.2f}"
        if interval.low is not None and interval.high is not None:
            mean += f" [{interval.low + 0.0:.2f}, {interval.high + 0.0:.2f}]"
        row += [mean, f"{min(scores) + 0.0:g}", f"{max(scores) + 0.0:g}"]
        forfeits = [s.forfeit for s in seats if s.forfeit]
        row.append(", ".join(f"{k} {forfeits.count(k)}" for k in sorted(set(forfeits))) or "-")
        if late:
            row.append(str(sum(s.late for s in seats)))
        ms = [s.max_ms for s in seats]
        row.append(f"{max(ms):.1f}")
        rows.append(row)
    headers = ["bot", "games"] + (["W/D/L"] if len(names) > 1 else [])
    headers += ["mean score [95%]", "min", "max", "forfeits"]
    headers += ["late", "max turn ms"] if late else ["max turn ms"]
    return simple_table([[str(cell) for cell in row] for row in rows], headers)


def simple_table(rows: list[list[str]], headers: list[str]) -> str:
    """``tabulate(rows, headers, disable_numparse=True)``, byte for byte, without
    importing tabulate where every cell is one line of printable ASCII (the width of
    other text is tabulate's to measure)."""
    cells = [*headers, *(cell for row in rows for cell in row)]
    if not all(cell.isascii() and cell.isprintable() for cell in cells):
        from tabulate import tabulate

        return tabulate(rows, headers=headers, disable_numparse=True)
    rows = [[cell.strip() for cell in row] for row in rows]
    headers = [header.strip() for header in headers]
    # tabulate's simple format: headers padded by 2, cells left-aligned, 2 spaces apart.
    widths = [
        max([len(header) + 2, *(len(row[i]) for row in rows)]) for i, header in enumerate(headers)
    ]

    def line(parts: list[str]) -> str:
        return "  ".join(p.ljust(w) for p, w in zip(parts, widths, strict=True)).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths]), *map(line, rows)])


def _verbose_observer(game: Game[Any], names: Sequence[str]) -> Any:
    """The step observer of ``arena match --verbose`` (built in the worker process)."""
    from arena.views.listing import forfeit_lines

    def observe(index: int, step: ReplayStep, state: Any) -> None:
        print(f"--- step {index + 1} (turn {game.turn_number(state)})")
        for seat_key, io in step["io"].items():
            seat = int(seat_key)
            # What a bot wrote is shown escaped: no escape sequence reaches the terminal.
            lines = io["lines"]
            answer = " | ".join(shown_line(x) for x in lines) if lines else "(no answer)"
            late = " LATE" if io.get("late") else ""
            print(f"  seat {seat} {names[seat]}: {io['ms']:.1f} ms{late} > {answer}")
            if message := step.get("messages", {}).get(seat_key):
                print(f"    message: {shown_line(str(message))}")
            for line in io.get("stderr", "").splitlines():
                print(f"    stderr: {shown_line(line)}")
        for seat_key, forfeit in step["forfeits"].items():
            who = f"seat {seat_key} {names[int(seat_key)]}"
            for line in forfeit_lines(who, forfeit["reason"], forfeit["detail"]):
                print(line)  # escaped by forfeit_lines
        picture = game.render(state)
        if picture:
            print("\n".join("    " + shown_line(line) for line in picture.splitlines()))
        sys.stdout.flush()

    return observe
