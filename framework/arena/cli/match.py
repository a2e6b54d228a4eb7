"""``arena match``: games between bot commands given on the command line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena import limits
from arena.cli.common import (
    NoProgressBar,
    game_registry,
    progress_bar,
    progress_wanted,
    warn_concurrency,
)
from arena.errors import EXIT_FAILED, EXIT_OK, ConfigError
from arena.events import (
    CoresWaiting,
    GameFailed,
    GameGivenUp,
    GameStored,
    RunFinished,
    RunObserver,
    RunStarted,
)
from arena.text import shown_line

if TYPE_CHECKING:
    from arena.game import Game, GameInfo
    from arena.records import Clock, GameRecord, GameSpec, ReplayStep
    from arena.tournament.match import MatchRequest


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
    p.add_argument("--sandbox", choices=limits.SANDBOXES, default="auto")
    p.add_argument(
        "--files",
        choices=limits.FILES,
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
        choices=limits.CLOCKS,
        default="wall",
        help="charge each turn its wall time (default) or its CPU time, all the bot's "
        "processes together",
    )
    p.set_defaults(func=cmd_match)


def _setting_options(game: type[Game[Any]], extra: list[str]) -> dict[str, Any]:
    """Parse ``--key value`` options against the game's settings."""
    info = game.info
    parser = argparse.ArgumentParser(
        prog=f"arena match {info.id}", add_help=False, allow_abbrev=False
    )
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
    from arena.tournament.match import MatchRequest, match_bots

    # The registry the workers use too: forked from this process, they scan no plugins.
    game_cls = worker_registry(game_registry(args.game)).get(args.game)
    settings = _setting_options(game_cls, extra)
    clock = _check_options(args, game_cls.info)
    bots = match_bots(args.bots)
    read_only = _read_only(args.read_only)
    specs = _schedule(args, game_cls, [b.name for b in bots])
    request = MatchRequest(
        game_cls.info, settings, bots, specs, args.output, args.sandbox, args.files,
        read_only, clock, args.jobs, _verbose_observer if args.verbose else None,
    )  # fmt: skip
    return _play_match(args, request)


def _check_options(args: argparse.Namespace, info: GameInfo) -> Clock:
    """Refuse options the match cannot be played with; the clock they set."""
    from arena.records import Clock
    from arena.tournament.config import check_clock_scale, check_time_margin, players_text
    from arena.tournament.keys import KEYS
    from arena.tournament.schedule import MAX_GAMES

    if not info.min_players <= len(args.bots) <= info.max_players:
        given = f"{len(args.bots)} command" + ("" if len(args.bots) == 1 else "s")
        raise ConfigError(f"{info.id} is played by {players_text(info)}; {given} given")
    for option in ("games", "jobs"):
        if getattr(args, option) < 1:
            raise ConfigError(f"--{option} must be at least 1, not {getattr(args, option)}")
    if args.games > MAX_GAMES:
        raise ConfigError(f"--games {args.games}: arena plays at most {MAX_GAMES} games at once")
    if (why := KEYS["concurrency"].problem(args.jobs)) is not None:  # the same bound as -j of run
        raise ConfigError(f"--jobs: {why}")
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
    from arena.tournament.match import match_schedule

    specs = match_schedule(names, args.games, args.seed)
    _check_seeds(game, args.seed, sorted({s.seed for s in specs}), args.games)
    return specs


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _play_match(args: argparse.Namespace, request: MatchRequest) -> int:
    """Play the checked match, each game reported as it ends, then the summary; the exit
    code."""
    from arena.tournament.match import play_match

    info = request.info
    warn_concurrency(args.jobs, "-j", info.thinking)
    shown = not args.verbose and args.games > 1 and progress_wanted(args.no_progress)
    printer = _MatchPrinter(len(request.specs), shown, args.verbose or args.games <= 20)
    try:
        result = play_match(request, [printer], _say)
    finally:  # what was played is summed up even when arena itself failed
        _print_summary(info, request.names, printer.played, request.clock)
        if request.output is not None and printer.began:
            print(f"replays and stderr in {request.output}")
            print(f"games stored in {request.output} (arena list, leaderboard, report read it)")
    if result.stop is not None:
        print(f"arena: interrupted ({result.stop})", file=sys.stderr)
        return 128 + (result.stop_signal or 0)
    return EXIT_FAILED if result.failures else EXIT_OK


class _MatchPrinter(RunObserver):
    """What ``arena match`` prints as games end: a line per game (``show``) on stdout, a
    failure or a stall on stderr, above the progress bar (``bar``: one is shown)."""

    def __init__(self, total: int, bar: bool, show: bool) -> None:
        self.total = total
        self.want_bar = bar
        self.show = show
        self.bar: Any = NoProgressBar()
        self.began = False
        self.played: list[tuple[GameSpec, GameRecord]] = []

    def started(self, event: RunStarted) -> None:
        """The games begin: the bar, if one is shown."""
        self.began = True
        if self.want_bar:
            self.bar = progress_bar(self.total)

    def stored(self, event: GameStored) -> None:
        """A game was stored: the bar moves; its line (``show``)."""
        self.bar.update(1)
        self.played.append((event.spec, event.record))
        if self.show:
            line = _result_line(event.spec.order + 1, event.record, fold_width())
            self.bar.write(line, sys.stdout)
            sys.stdout.flush()

    def failed(self, event: GameFailed) -> None:
        """A game failed in the referee: said on stderr."""
        self.bar.update(1)
        why = shown_line(event.reason)
        self.bar.write(
            f"arena: game {event.spec.order + 1} failed in the referee: {why}", sys.stderr
        )

    def given_up(self, event: GameGivenUp) -> None:
        """A game stalled: said on stderr, not counted."""
        # The machine, not a bot, put a turn over its budget: not counted.
        self.bar.update(1)
        why = f"arena: game {event.spec.order + 1} stalled, not counted: {event.why}"
        self.bar.write(why, sys.stderr)

    def waiting(self, event: CoresWaiting) -> None:
        """A game waits for the machine's cores other arena runs hold: said on stderr."""
        if event.message is not None:
            self.bar.write(f"arena: {event.message}", sys.stderr)

    def finished(self, event: RunFinished) -> None:
        """The bar is done."""
        self.bar.close()


def _print_summary(
    info: GameInfo, names: list[str], played: list[tuple[GameSpec, GameRecord]], clock: Clock
) -> None:
    """The table of the games played and, for two bots, their match line (none: nothing)."""
    from arena.tournament.match import match_board
    from arena.views.leaderboard import ShownLeaderboard

    if not played:
        return
    from arena.views.tables import terminal_width

    records = [record for _, record in played]
    print(_match_summary(names, records, clock.margin_ms > 0, terminal_width()))
    if len(names) == 2:
        board = ShownLeaderboard.of(match_board(info, names, played))
        print(folded(board.pair_line(*names), fold_width()))


def fold_width() -> int | None:
    """The width ``arena match`` folds its game lines to on a terminal (its width, or
    ``COLUMNS``); none when its output goes to a pipe or a file (one line per game, for
    grep and scripts)."""
    from arena.views.tables import terminal_width

    return terminal_width() if sys.stdout.isatty() else None


def folded(text: str, width: int | None) -> str:
    """``text`` folded at spaces onto lines of at most ``width`` characters where it can
    be, the lines after the first indented by two."""
    import textwrap

    if width is None or len(text) <= width:
        return text
    lines = textwrap.wrap(
        text, width, subsequent_indent="  ", break_long_words=False, break_on_hyphens=False
    )
    return "\n".join(lines)


def _result_line(n: int, record: Any, width: int | None = None) -> str:
    """``game 1 seed 1, 36 turns, ...: a #1 (3); b #2 (0) crash: ...``, then, for each
    seat that forfeited with stderr in its detail (a crash), the end of that stderr.
    Wider than ``width``, the seats go on the line below the game, indented."""
    from arena.records import split_detail

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
    head = f"game {n} seed {record.seed}, {record.turns} turns, {record.reason}:"
    line = f"{head} {'; '.join(parts)}"
    if width is not None and len(line) > width:
        line = folded(head, width) + "\n" + folded(f"    {'; '.join(parts)}", width)
    return "\n".join([line, *tails])


def _match_summary(
    names: list[str], records: list[Any], late: bool = False, width: int | None = None
) -> str:
    """The table of each bot's games: W/D/L, mean score with its 95% interval (as the
    leaderboard prints it), min, max, forfeits, (late answers,) longest turn; within
    ``width`` columns (min and max left out first, then the longest turn), said below."""
    from arena.records import result_of
    from arena.results.stats import score_interval
    from arena.views.leaderboard import score_text  # the board's format
    from arena.views.tables import Column, fit_table

    cells: dict[str, list[str]] = {}

    def add(header: str, value: str) -> None:
        cells.setdefault(header, []).append(value)

    for name in names:
        seats = [s for r in records for s in r.seats if s.bot == name]
        scores = [s.score for s in seats]
        add("bot", name)
        add("games", str(len(seats)))
        if len(names) > 1:
            results = [
                result_of([o.rank for o in r.seats], i)
                for r in records
                for i, s in enumerate(r.seats)
                if s.bot == name
            ]
            wins, draws = results.count("win"), results.count("draw")
            add("W/D/L", f"{wins}/{draws}/{len(seats) - wins - draws}")
        add("mean score [95%]", score_text(score_interval(scores)))
        add("min", f"{min(scores) + 0.0:g}")
        add("max", f"{max(scores) + 0.0:g}")
        forfeits = [s.forfeit for s in seats if s.forfeit]
        add("forfeits", ", ".join(f"{k} {forfeits.count(k)}" for k in sorted(set(forfeits))) or "-")
        if late:
            add("late", str(sum(s.late for s in seats)))
        add("max turn ms", f"{max(s.max_ms for s in seats):.1f}")
    drops = {"min": 3, "max": 3, "max turn ms": 2, "late": 1}
    columns = [
        Column(h, c, drop=drops.get(h, 0), wrap=h in ("bot", "forfeits")) for h, c in cells.items()
    ]
    table, dropped = fit_table(columns, width)
    if dropped:
        table += f"\n({', '.join(dropped)} left out to fit {width} columns)"
    return table


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
