"""The ``arena`` command line. Only this module turns errors into messages and exit codes.

Exit codes: 0 success, 1 a game failed in the referee, 2 bad input (file, key, game,
command, sandbox; or a bot's file changed during ``arena run``), 130 interrupted by SIGINT
(Ctrl-C), 143 stopped by SIGTERM, 141 standard output closed early (``arena ... | head``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import sys
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from arena import __version__
from arena.errors import ArenaError, ConfigError
from arena.execute.stopping import first_stop, note_stop

if TYPE_CHECKING:
    from arena.game import Game

# Only the standard library and arena's light modules are imported up here: each command
# imports what it needs (yaml, tabulate, trueskill, sqlite3, pluggy...) when it runs, so
# `arena --version` and `arena match` start fast (tests/test_core_imports.py).

BOARD_FORMATS = ("table", "markdown", "json", "csv")
"""How ``arena run`` and ``arena leaderboard`` render the leaderboard (``--format``)."""
RESULTS = ("win", "loss", "draw", "forfeit")
"""What ``arena list --result`` filters on."""

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED, EXIT_PIPE = 0, 1, 2, 130, 141


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``arena`` command; return its exit code."""
    parser = _parser()
    args, extra = parser.parse_known_args(argv)
    if extra and args.command != "match":
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    _install_stop_signals()
    try:
        code = int(args.func(args, extra))
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's exit
        return code
    except BrokenPipeError:
        # The reader went away (`arena ... | head`): stop quietly, like other Unix tools.
        # Whatever is still buffered goes nowhere instead of failing again at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return EXIT_PIPE
    except ConfigError as exc:
        print(f"arena: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except ArenaError as exc:
        print(f"arena: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        print("arena: interrupted", file=sys.stderr)
        return 128 + (first_stop() or signal.SIGINT)
    finally:
        _ignore_late_signals()


def _install_stop_signals() -> None:
    """SIGINT or SIGTERM ends the command as Ctrl-C does; once one has, later ones wait.

    A running pool takes these signals itself, stops its games, and hands them back here.
    A second signal while the command winds down (a second Ctrl-C, Ctrl-C after SIGTERM)
    must not cut the leaderboard in half nor change the exit code: 128 + the first one.
    """

    def stop(signum: int, frame: FrameType | None) -> None:
        if first_stop() is not None:
            return
        note_stop(signum)
        raise KeyboardInterrupt

    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, stop)


def _ignore_late_signals() -> None:
    """Once a stop signal has decided the exit code, ignore any more until the process exits.

    The interpreter's shutdown puts back the default action of every signal Python code
    handles, under which one more Ctrl-C would kill the process instead of letting it exit
    with 128 + the first signal; a signal set to be ignored stays ignored.
    """
    if first_stop() is not None and threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, signal.SIG_IGN)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="arena", description="Bot tournaments for many games: play, rate, replay."
    )
    parser.add_argument("--version", action="version", version=f"arena {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("games", help="list the installed games")
    p.set_defaults(func=cmd_games)

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

    p = sub.add_parser("run", help="run (or resume) a tournament file")
    p.add_argument("file", type=Path, help="tournament YAML file")
    p.add_argument("--games", type=int, help="override `games`")
    p.add_argument("--concurrency", "-j", type=int, help="override `concurrency`")
    p.add_argument("--seed", type=int, help="override `seed`")
    p.add_argument("--output", type=Path, help="override `output`")
    p.add_argument("--executor", choices=("local", "dask"), help="override `executor`")
    p.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="play the games on the Dask scheduler at ADDRESS (implies --executor dask)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument(
        "--format",
        choices=BOARD_FORMATS,
        default="table",
        help="leaderboard format; stdout holds only the leaderboard, the rest goes to stderr",
    )
    p.add_argument(
        "--fresh",
        action="store_true",
        help="start over: delete the output folder's arena.sqlite and games/ first",
    )
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("leaderboard", help="print the leaderboard of an output folder")
    p.add_argument("output", type=Path, help="the tournament's output folder")
    p.add_argument("--format", choices=BOARD_FORMATS, default="table")
    p.set_defaults(func=cmd_leaderboard)

    p = sub.add_parser(
        "new-game",
        help="write a new game plugin package (game, bot, tournament, tests)",
        description="Write a complete game plugin package in DIR (default ./NAME): a small "
        "playable game to change into yours, a random bot, a tournament file, a README and "
        "tests using arena.testing. `pip install -e DIR` makes `arena games` list it.",
    )
    p.add_argument("name", help="the game id: lower-case letters, digits and '_'")
    p.add_argument("--dir", type=Path, help="where to write it (default ./NAME); must be empty")
    p.set_defaults(func=cmd_new_game)

    p = sub.add_parser("export", help="write a stored game in another tool's format")
    p.add_argument("game_id", help="game id (see the output's games table) or a replay.json path")
    p.add_argument("--format", required=True, help="e.g. codeclash (chess5)")
    p.add_argument("--from", dest="source", type=Path, default=Path("."), help="output folder")
    p.add_argument("--out", type=Path, help="write to this file instead of stdout")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("list", help="list the stored games of an output folder")
    p.add_argument("output", type=Path, help="the tournament's output folder")
    p.add_argument("--bot", help="only games of this bot")
    p.add_argument("--result", choices=RESULTS, help="only games with this result (for --bot)")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("show", help="show a stored game in the terminal, turn by turn")
    p.add_argument("game_id", help="game number (see `arena list`) or a replay.json path")
    p.add_argument("--from", dest="source", type=Path, default=Path("."), help="output folder")
    p.add_argument("--step", type=int, help="only this step (0 = the start)")
    p.add_argument("--input", action="store_true", help="also show each bot's input")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("view", help="write a stored game's HTML viewer")
    p.add_argument("game_id", help="game number (see `arena list`) or a replay.json path")
    p.add_argument("--from", dest="source", type=Path, default=Path("."), help="output folder")
    p.add_argument(
        "-o", "--out", type=Path, help="the HTML file (default: viewer.html by the replay)"
    )
    p.set_defaults(func=cmd_view)

    p = sub.add_parser("report", help="write the HTML report of an output folder")
    p.add_argument("output", type=Path, help="the tournament's output folder")
    p.add_argument("-o", "--out", type=Path, help="the HTML file (default: OUTPUT/report.html)")
    p.set_defaults(func=cmd_report)
    return parser


def _registry() -> Any:
    """The installed games; broken plugins and skipped games are reported once, on stderr."""
    from arena.plugins.registry import load_registry

    registry = load_registry()
    for problem in registry.problems():
        print(f"arena: warning: {problem}", file=sys.stderr)
    return registry


# -- arena games ----------------------------------------------------------------


def cmd_games(args: argparse.Namespace, extra: list[str]) -> int:
    """List installed games: id, players, clocks, transport, settings, package."""
    from tabulate import tabulate

    from arena.tournament.config import players_text

    registry = _registry()
    rows = []
    for gid, entry in sorted(registry.games.items()):
        info = entry.game.info
        players = players_text(info)
        transport = "lines" if info.transport is None else f"files ({info.transport.input_name})"
        if info.transport is None and info.framing == "tokens":
            transport = "words"
        if info.queries:
            transport += " + queries"
        settings = ", ".join(f"{k}={v}" for k, v in info.settings.items()) or "-"
        rows.append(
            [
                gid,
                info.title,
                f"v{info.version}",
                players,
                f"{info.first_turn_ms}/{info.turn_ms}",
                transport,
                settings,
                entry.package,
            ]
        )
    headers = ["id", "game", "rules", "players", "clock ms (first/turn)", "protocol"]
    headers += ["settings", "package"]
    print(tabulate(rows, headers=headers, disable_numparse=True))
    return EXIT_OK


# -- arena match ----------------------------------------------------------------


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


def cmd_match(args: argparse.Namespace, extra: list[str]) -> int:
    """Play ``--games`` games between the given commands and summarise them.

    Each game is played in a worker process, like a tournament's (``-j`` at once).
    """
    from arena.execute.jobs import Job, announce_sandbox, choose_sandbox, play_games
    from arena.execute.pool import Failure, Interrupted
    from arena.records import Clock, GameRecord, GameSpec
    from arena.tournament.config import check_clock_scale, check_time_margin, players_text
    from arena.tournament.schedule import MAX_GAMES, round_robin

    registry = _registry()
    game_cls = registry.get(args.game)
    info = game_cls.info
    settings = _setting_options(game_cls, extra)
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
    clock = Clock(args.clock_scale, args.time_margin_ms, args.clock)
    bots = _match_bots(args.bots)
    if args.output is not None:
        from arena.results.store import make_output_folder

        make_output_folder(args.output, "--output")
    _warn_concurrency(args.jobs, "-j", info.thinking)
    say = lambda msg: print(msg, file=sys.stderr, flush=True)  # noqa: E731
    sandbox = choose_sandbox(args.sandbox, None, [args.output] if args.output else [], 64)
    keep = args.output is not None
    root = args.output or Path(tempfile.mkdtemp(prefix="arena-match-"))
    names = [b.name for b in bots]
    # Round r plays seed --seed + r, every seat rotation of it before the next seed.
    specs = round_robin(names, len(names), args.games, args.seed)
    by_name = {b.name: b for b in bots}
    records: list[GameRecord] = []
    failed = 0
    progress = not args.verbose and args.games > 1 and _progress_wanted(args.no_progress)
    announce_sandbox(args.sandbox, sandbox, say)
    bar = _progress_bar(len(specs)) if progress else _NoProgressBar()

    def job(spec: GameSpec) -> Job:
        seats = tuple(by_name[n] for n in spec.seats)
        game_dir = str(root / f"game-{spec.order + 1:04d}")
        # --verbose: the worker builds the observer and prints every step as it is played.
        observer = _verbose_observer if args.verbose else None
        # Replays are recorded only when kept (--output): without, they would be deleted.
        seed = args.seed + spec.round
        return Job(info.id, seed, settings, seats, game_dir, sandbox, observer, clock, keep)

    def finished(spec: GameSpec, result: dict[str, Any] | Failure) -> None:
        nonlocal failed
        bar.update(1)
        if isinstance(result, Failure):
            failed += 1
            why = result.reason
            bar.write(f"arena: game {spec.order + 1} failed in the referee: {why}", sys.stderr)
            return
        if result.get("reason") == "stall":
            # The machine, not a bot, put a turn over its budget: not counted.
            stall = result.get("stall", "")
            bar.write(f"arena: game {spec.order + 1} stalled, not counted: {stall}", sys.stderr)
            return
        records.append(GameRecord.from_dict(result))
        if args.verbose or args.games <= 20:
            bar.write(_result_line(spec.order + 1, records[-1]), sys.stdout)
            sys.stdout.flush()

    stop: Interrupted | None = None
    try:
        try:
            play_games(specs, job, 1 if args.verbose else min(args.jobs, len(specs)), finished)
        except Interrupted as exc:
            stop = exc
            bar.write(f"arena: interrupted ({exc})", sys.stderr)
        finally:
            bar.close()
            if records:
                print(_match_summary(names, records, late=clock.margin_ms > 0))
            if keep:
                print(f"replays and stderr in {root}")
    finally:
        if not keep:
            shutil.rmtree(root, ignore_errors=True)
    if stop is not None:
        return 128 + stop.signum
    return EXIT_FAILED if failed else EXIT_OK


def _progress_bar(total: int) -> Any:
    """A tqdm progress bar of ``total`` games on stderr (tqdm is imported only for it)."""
    from tqdm import tqdm

    return tqdm(total=total, unit="game", file=sys.stderr)


class _NoProgressBar:
    """What ``arena match`` writes through when no progress bar is shown."""

    def update(self, n: int = 1) -> None:
        """Nothing to move."""

    def close(self) -> None:
        """Nothing to close."""

    @staticmethod
    def write(text: str, file: Any) -> None:
        """Print a line (tqdm's ``write`` prints above its bar)."""
        print(text, file=file)


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
    bots: list[BotSpec] = []
    for i, (text, named) in enumerate(zip(commands, parsed, strict=True)):
        cmd = named.group(2) if named else text
        argv = resolve_command(cmd, Path.cwd())
        if isinstance(argv, str):
            raise ConfigError(f"bot {i + 1} {cmd!r}: {argv}")
        if named:
            name = named.group(1)
        else:
            name = default_name(argv)
            while name in given or any(b.name == name for b in bots):
                name += "'"
        bots.append(BotSpec(name, argv))
    return bots


def _progress_wanted(disabled: bool) -> bool:
    """A progress bar on stderr: when it is a terminal (or ARENA_PROGRESS=1) unless disabled."""
    return (not disabled and sys.stderr.isatty()) or os.environ.get("ARENA_PROGRESS") == "1"


def _warn_concurrency(games_at_once: int, option: str, thinking: int = 1) -> None:
    """Warn when more bots think at once than there are cores (``thinking`` seats of each
    game think at the same time): they then share cores, and games where the machine
    keeps a bot waiting past its budget are replayed as stalls."""
    from arena.tournament.config import available_cores

    cores = available_cores()
    if games_at_once * thinking > cores:
        bots = f" ({games_at_once * thinking} bots thinking at once)" if thinking > 1 else ""
        print(
            f"arena: warning: {option} {games_at_once}{bots} is more than the {cores} cores "
            "available: bots will share cores; turns they lose waiting for one are stalls, "
            "replayed",
            file=sys.stderr,
        )


def _result_line(n: int, record: Any) -> str:
    parts = []
    for s in record.seats:
        text = f"{s.bot} #{s.rank + 1} ({s.score:g})"
        if s.forfeit:
            text += f" {s.forfeit}: {s.detail}"
            if s.raw:
                text += f" [{s.raw[:60]!r}]"
        parts.append(text)
    return f"game {n} seed {record.seed}, {record.turns} turns, {record.reason}: " + "; ".join(
        parts
    )


def _match_summary(names: list[str], records: list[Any], late: bool = False) -> str:
    from tabulate import tabulate

    from arena.results.stats import mean_interval

    rows = []
    for name in names:
        seats = [s for r in records for s in r.seats if s.bot == name]
        scores = [s.score for s in seats]
        mean, half = mean_interval(scores)
        row = [name, len(seats)]
        if len(names) > 1:
            wins = sum(
                1
                for r in records
                for s in r.seats
                if s.bot == name and s.rank == 0 and sum(1 for o in r.seats if o.rank == 0) == 1
            )
            draws = sum(
                1
                for r in records
                for s in r.seats
                if s.bot == name and s.rank == 0 and sum(1 for o in r.seats if o.rank == 0) > 1
            )
            row.append(f"{wins}/{draws}/{len(seats) - wins - draws}")
        row += [f"{mean:.2f} ± {half:.2f}", f"{min(scores):g}", f"{max(scores):g}"]
        forfeits = [s.forfeit for s in seats if s.forfeit]
        row.append(", ".join(f"{k} {forfeits.count(k)}" for k in sorted(set(forfeits))) or "-")
        if late:
            row.append(str(sum(s.late for s in seats)))
        ms = [s.max_ms for s in seats]
        row.append(f"{max(ms):.1f}")
        rows.append(row)
    headers = ["bot", "games"] + (["W/D/L"] if len(names) > 1 else [])
    headers += ["mean score ± 95%", "min", "max", "forfeits"]
    headers += ["late", "max turn ms"] if late else ["max turn ms"]
    return tabulate(rows, headers=headers, disable_numparse=True)


def _verbose_observer(game: Game[Any], names: Sequence[str]) -> Any:
    """The step observer of ``arena match --verbose`` (built in the worker process)."""

    def observe(index: int, step: dict[str, Any], state: Any) -> None:
        print(f"--- step {index + 1} (turn {game.turn_number(state)})")
        for seat_key, io in step["io"].items():
            seat = int(seat_key)
            answer = " | ".join(io["lines"]) if io["lines"] else "(no answer)"
            late = " LATE" if io.get("late") else ""
            print(f"  seat {seat} {names[seat]}: {io['ms']:.1f} ms{late} > {answer}")
            if message := step.get("messages", {}).get(seat_key):
                print(f"    message: {message}")
            for line in io.get("stderr", "").splitlines():
                print(f"    stderr: {line}")
        for seat_key, forfeit in step["forfeits"].items():
            who = f"seat {seat_key} {names[int(seat_key)]}"
            print(f"  {who} FORFEITS: {forfeit['reason']}: {forfeit['detail']}")
        picture = game.render(state)
        if picture:
            print("\n".join("    " + line for line in picture.splitlines()))
        sys.stdout.flush()

    return observe


# -- arena new-game ---------------------------------------------------------------


def cmd_new_game(args: argparse.Namespace, extra: list[str]) -> int:
    """Write a new game plugin package from the templates shipped with arena."""
    from arena.plugins.scaffold import write_plugin

    target = args.dir if args.dir is not None else Path(args.name)
    installed = _registry().games
    if args.name.replace("_", "-") in installed or args.name in installed:
        raise ConfigError(f"game id {args.name!r} is already installed (see `arena games`)")
    written = write_plugin(args.name, target)
    print(f"wrote {len(written)} files in {target}:")
    for path in written:
        print(f"  {path.relative_to(target)}")
    print(
        f"\nnext:\n  python3 -m pip install -e {target}\n  arena games\n"
        f"  cd {target} && python3 -m pytest && arena run tournaments/{args.name}.yaml"
    )
    return EXIT_OK


# -- arena run / leaderboard / export --------------------------------------------


def cmd_run(args: argparse.Namespace, extra: list[str]) -> int:
    """Run or resume a tournament file and print its leaderboard (only it, on stdout)."""
    from arena.results.store import make_output_folder
    from arena.tournament.config import load_tournament, too_many_games, where
    from arena.tournament.run import run_tournament
    from arena.tournament.schedule import MAX_GAMES, schedule_size

    registry = _registry()
    config = load_tournament(args.file, registry)
    for key in ("games", "concurrency"):
        value = getattr(args, key)
        if value is not None:
            if value < 1:
                raise ConfigError(f"--{key} must be at least 1, not {value}")
            setattr(config, key, value)
    fmt, bots, variants = config.format, len(config.bots), len(config.variants)
    total = schedule_size(fmt, bots, config.players, config.games, variants)
    if args.games is not None and total > MAX_GAMES:
        raise ConfigError(f"--games {args.games}: {too_many_games(fmt, args.games, total)}")
    if args.seed is not None:
        config.seed = args.seed
    if args.output is not None:
        config.output = args.output
    _executor_options(config, args)
    make_output_folder(config.output, "--output" if args.output else where(config, "output"))
    _warn_concurrency(config.concurrency, "concurrency", registry.get(config.game).info.thinking)
    summary = run_tournament(config, progress=_progress_wanted(args.no_progress), fresh=args.fresh)
    _print_board(summary.leaderboard.render(args.format))
    done = f"{summary.played} games played now, {summary.resumed} resumed"
    print(f"{done}, results in {config.output}", file=sys.stderr)
    _write_report(config.output)
    if summary.interrupted:
        return 128 + summary.stop_signal if summary.stop_signal else EXIT_INTERRUPTED
    if summary.changed:
        print(f"arena: {summary.changed}", file=sys.stderr)
        return EXIT_USAGE
    return EXIT_FAILED if summary.failed else EXIT_OK


def _write_report(output: Path) -> None:
    """Write ``OUTPUT/report.html`` after a run; a failure is reported, never fatal."""
    from arena.views.report import write_report

    try:
        result = write_report(output, log=lambda msg: print(msg, file=sys.stderr))
    except (ArenaError, OSError) as exc:
        print(f"arena: could not write the report: {exc}", file=sys.stderr)
        return
    print(f"report: {result.path}", file=sys.stderr)  # stdout holds only the leaderboard


def _executor_options(config: Any, args: argparse.Namespace) -> None:
    """Apply ``--executor`` and ``--dask`` over the file's ``executor`` and ``dask``."""
    if args.executor is not None:
        config.executor = args.executor
        config.given_by["executor"] = "--executor"
        if args.executor == "local":
            config.dask = None
    if args.dask is not None:
        if args.executor == "local":
            raise ConfigError("--dask: only used with the dask executor (--executor is local)")
        if not args.dask.strip():
            raise ConfigError("--dask: needs the scheduler's address, e.g. tcp://host:8786")
        config.executor, config.dask = "dask", args.dask.strip()
        config.given_by.update(executor="--dask", dask="--dask")


def cmd_leaderboard(args: argparse.Namespace, extra: list[str]) -> int:
    """Print the leaderboard of an output folder again, from its database."""
    from arena.results.leaderboard import leaderboard_for

    _print_board(leaderboard_for(args.output).render(args.format))
    return EXIT_OK


def _print_board(text: str) -> None:
    """Print a rendered leaderboard, ending in exactly one newline (CSV ends in one)."""
    print(text, end="" if text.endswith("\n") else "\n")


def cmd_export(args: argparse.Namespace, extra: list[str]) -> int:
    """Write one stored game in another tool's format."""
    from arena.views.replay import find_replay, load_replay

    path = find_replay(args.game_id, args.source)
    replay = load_replay(path)
    game = _registry().create(replay["game"])
    if args.format not in game.info.exports:
        known = ", ".join(game.info.exports) or "none"
        raise ConfigError(f"{game.info.id} cannot export {args.format!r} (formats: {known})")
    try:
        text = game.export(replay, args.format)
    except Exception as exc:  # a damaged replay: its steps do not replay under the rules
        why = f"{type(exc).__name__}: {exc}"
        raise ConfigError(f"{path}: cannot export this replay as {args.format}: {why}") from None
    if args.out:
        try:
            args.out.write_text(text)
        except OSError as exc:
            raise ConfigError(f"--out {args.out}: cannot write: {exc.strerror}") from None
    else:
        print(text)
    return EXIT_OK


# -- arena list / show / view / report -----------------------------------------------


def cmd_list(args: argparse.Namespace, extra: list[str]) -> int:
    """Print the stored games of an output folder, filtered by bot and result."""
    from arena.views.listing import list_games

    print(list_games(args.output, args.bot, args.result))
    return EXIT_OK


def cmd_show(args: argparse.Namespace, extra: list[str]) -> int:
    """Print one stored game turn by turn."""
    from arena.views.listing import show_game
    from arena.views.replay import find_replay, load_replay

    replay = load_replay(find_replay(args.game_id, args.source))
    game = _registry().create(str(replay["game"]))
    for line in show_game(game, replay, args.step, args.input):
        print(line)
    return EXIT_OK


def cmd_view(args: argparse.Namespace, extra: list[str]) -> int:
    """Write one stored game's self-contained HTML viewer and say where."""
    from arena.views.replay import find_replay
    from arena.views.viewer import write_viewer

    path = write_viewer(find_replay(args.game_id, args.source), args.out)
    print(f"viewer: {path}")
    return EXIT_OK


def cmd_report(args: argparse.Namespace, extra: list[str]) -> int:
    """Write an output folder's HTML report (and its games' viewers) and say where."""
    from arena.views.report import write_report

    result = write_report(args.output, args.out, log=lambda m: print(m, file=sys.stderr))
    print(f"report: {result.path} ({result.viewers} viewers written)")
    return EXIT_OK
