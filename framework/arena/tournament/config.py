"""Tournament files: YAML read with line numbers, validated before any game starts.

Every problem is a :class:`~arena.errors.ConfigError` naming the file, the key path and
the line, e.g. ``tournaments/stc.yaml: bots[1].cmd (line 14): command not found: 'pyhton3'``;
a bad override names its option instead (``--games: must be a positive whole number, not 0``).
The keys themselves (types, defaults, checks, options) are declared in
:mod:`arena.tournament.keys`; the formats' rules in :data:`arena.tournament.formats.FORMATS`.
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.botbuild.build import Recipe, RecipeError, check_preset, make_recipe, merge_presets
from arena.botproc.commands import (
    bot_file,
    default_names,
    named_files,
    resolve_command,
    resolve_path,
)
from arena.errors import ConfigError, InvalidSetting, UnknownGame
from arena.game import Game, GameInfo
from arena.limits import (
    BUILD_MEMORY_MB,
    BUILD_TIMEOUT_S,
    DISK_MB,
    MAX_PROCESSES,
    ClockKind,
    ExecutorKind,
    FilesKind,
    OnBuildError,
    SandboxKind,
)
from arena.tournament.formats import DEFAULT_FORMAT, FORMATS, Scheduler, schedule_size
from arena.tournament.keys import KEYS, REQUIRED, Override
from arena.tournament.keys import check_clock_scale as check_clock_scale  # for arena match
from arena.tournament.keys import check_time_margin as check_time_margin
from arena.tournament.roster import ROSTER_NAME, Roster, read_roster

if TYPE_CHECKING:  # yaml and stats are imported where used: `arena match` needs neither
    import yaml

    from arena.plugins.registry import Registry
    from arena.results.stats import Sprt
    from arena.tournament.books import Book

BOT_KEYS = ("name", "cmd", "source", "build", "language", "flags", "owner")
SPRT_KEYS = ("elo0", "elo1", "alpha", "beta", "model")
MAX_DEPTH = 32
"""Deepest nesting of YAML collections a tournament file may use (real files use 3)."""
MAX_VALUES = 100_000
"""Most values a tournament file may expand to (YAML aliases can multiply them)."""
MAX_FILE_BYTES = 1024 * 1024
"""A tournament file is read up to this size (``arena run /dev/zero`` must not read forever)."""
MAX_NAME = 64
"""Longest bot name accepted, in characters."""


@dataclass(frozen=True)
class BotEntry:
    """A bot of the tournament: name, command as written, and resolved argv.

    ``files`` pairs each word of the command that names a file or folder, as written,
    with its absolute path: what the game identity hashes (see :mod:`arena.results.identity`).
    A bot built from source has its ``recipe`` (its ``files`` are its sources, its ``cmd``
    the run command's template); its ``argv`` is empty until it is built
    (:func:`arena.tournament.builds.build_bots`), and ``built_in`` names the folder of
    its build (its ``build.log``) when it was compiled.
    """

    name: str
    cmd: str
    argv: tuple[str, ...]
    files: tuple[tuple[str, str], ...] = ()
    recipe: Recipe | None = None
    owner: str | None = None  # who entered it (a contest's account): shown nowhere public
    built_in: str = ""


@dataclass(frozen=True)
class TournamentConfig:
    """A validated tournament file, overrides included (:func:`load_tournament`); frozen:
    a change is a new config, validated again (``load_tournament(path, registry, overrides)``)."""

    path: Path
    name: str
    game: str
    format: str
    games: int | None  # None: no limit (sprt until decided, league until Ctrl-C)
    players: int
    seed: int
    concurrency: int
    settings: dict[str, Any]
    bots: list[BotEntry]
    output: Path
    sandbox: SandboxKind = "auto"
    memory_mb: int | None = None
    max_processes: int = MAX_PROCESSES
    disk_mb: int = DISK_MB
    variants: list[dict[str, Any]] = field(default_factory=list)
    variant_keys: tuple[str, ...] = ()
    champion: str | None = None
    sprt: Sprt | None = None
    retired: tuple[str, ...] = ()  # league: bots given no new game (roster.json)
    leagues: tuple[str, ...] = ()  # format contest: the leagues' bosses, weakest first
    candidate: str | None = None  # format candidate: the bot judged (None: the first)
    verdict: Sprt | None = None  # format candidate: its bounds (None: the defaults)
    executor: ExecutorKind = "local"
    dask: str | None = None  # the Dask scheduler's address (None: a LocalCluster)
    lines: dict[str, int] = field(default_factory=dict)
    version: int = 1
    given_by: dict[str, str] = field(default_factory=dict)  # key -> the option overriding it
    files: FilesKind = "folder"  # what a sandboxed bot sees of its own folder
    read_only: tuple[str, ...] = ()  # more paths every bot sees, read-only (absolute)

    def where(self, key: str) -> str:
        """Where a key's value came from, for messages: ``FILE: key (line N)`` or the option."""
        return self.given_by.get(key) or where(self, key)

    time_margin_ms: int = 0
    clock_scale: float = 1.0
    clock: ClockKind = "wall"
    build_timeout_s: float = BUILD_TIMEOUT_S
    build_memory_mb: int = BUILD_MEMORY_MB
    on_build_error: OnBuildError = "stop"
    seeds: tuple[int, ...] | None = None  # one round per seed, instead of seeds from `seed`
    book: str | None = None  # the seed book whose seeds are `seeds` (OUTPUT/books/NAME.json)
    new_book: bool = False  # the book is made by this run (kept once the folder is locked)
    rating_interval: int = 0  # games between two leaderboards on stderr (0: none)
    rating: str = "bt"  # the rating the leaderboard is sorted by

    @property
    def schedule_seed(self) -> int | tuple[int, ...]:
        """What the schedule derives each round's seed from: ``seeds`` or ``seed``."""
        return self.seeds if self.seeds else self.seed


class _Located:
    """Parsed YAML plus the line of every key path (``bots[1].cmd``)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lines: dict[str, int] = {}
        self.values = 0
        self.given_by: dict[str, str] = {}  # key -> the option overriding it

    def error(self, key: str, message: str) -> ConfigError:
        """The message for a bad ``key``: with its file and line, or its option."""
        if key in self.given_by:
            return ConfigError(f"{self.given_by[key]}: {message}")
        line = self.lines.get(key)
        where = f"{key} (line {line})" if line else key
        return ConfigError(f"{self.path}: {where}: {message}")

    def build(self, node: yaml.Node, key: str, depth: int = 0) -> Any:
        """Python values of ``node``, recording lines; bounded in size and depth, since
        aliases can make a small file expand exponentially (or refer to itself)."""
        import yaml

        self.lines.setdefault(key, node.start_mark.line + 1)
        self.values += 1
        if self.values > MAX_VALUES:
            raise self.error(key, f"more than {MAX_VALUES} values (YAML aliases expanding?)")
        if depth > MAX_DEPTH:
            raise self.error(key, f"nested more than {MAX_DEPTH} levels deep")
        if isinstance(node, yaml.MappingNode):
            out: dict[str, Any] = {}
            for k_node, v_node in node.value:
                k = str(self.build(k_node, "?", depth + 1))
                sub = f"{key}.{k}" if key else k
                self.lines[sub] = k_node.start_mark.line + 1
                if k in out:
                    raise self.error(sub, "key given twice")
                out[k] = self.build(v_node, sub, depth + 1)
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, f"{key}[{i}]", depth + 1) for i, item in enumerate(node.value)]
        return yaml.SafeLoader(" ").construct_object(node)


LocatedYaml = _Located
"""Parsed YAML with the line of every key path, for the loaders of other files (contest files)."""


def _file_kind(mode: int) -> str | None:
    """What a file that is not a regular one is (``a FIFO``), or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def where(config: TournamentConfig, key: str) -> str:
    """``file: key (line N)``: where a key of a loaded tournament file was given."""
    line = config.lines.get(key)
    return f"{config.path}: {key} (line {line})" if line else f"{config.path}: {key}"


def available_cores() -> int:
    """The CPU cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def too_many_games(fmt: str, games: int, total: int) -> str:
    """The message refusing a schedule of more games than its format plays
    (:attr:`Scheduler.max_games`)."""
    most = FORMATS[fmt].max_games
    if FORMATS[fmt].open_ended:
        return f"arena plays at most {most} games in one tournament, not {games}"
    return (
        f"{games} games per combination make {total} games in all; "
        f"arena plays at most {most} in one {fmt} tournament"
    )


def players_text(info: GameInfo) -> str:
    """``2 players``, ``1 player`` or ``2-4 players``: who may play ``info``'s game."""
    if info.min_players == info.max_players:
        n = info.min_players
        return f"{n} player" if n == 1 else f"{n} players"
    return f"{info.min_players}-{info.max_players} players"


def check_settings(info: GameInfo, given: dict[str, Any], error: Any = None) -> dict[str, Any]:
    """Merge ``given`` over the game's defaults, refusing unknown keys and wrong types."""
    merged = dict(info.settings)
    for key, value in given.items():
        if key not in info.settings:
            known = ", ".join(sorted(info.settings)) or "none"
            message = f"unknown setting for {info.id} (known: {known})"
            raise (
                error(f"settings.{key}", message)
                if error
                else ConfigError(f"settings.{key}: {message}")
            )
        default = info.settings[key]
        if default is not None and not _same_kind(default, value):
            message = f"must be {type(default).__name__}, not {value!r}"
            raise (
                error(f"settings.{key}", message)
                if error
                else ConfigError(f"settings.{key}: {message}")
            )
        merged[key] = value
    return merged


def game_settings(
    game: type[Game[Any]], given: dict[str, Any], error: Any = None
) -> dict[str, Any]:
    """:func:`check_settings`, then the game's own :meth:`~arena.game.Game.check_settings`.

    ``error(key, message)`` builds the :class:`ConfigError` (with file and line); without
    it the message names the key alone.
    """
    merged = check_settings(game.info, given, error)

    def fail(key: str, message: str) -> ConfigError:
        return error(key, message) if error else ConfigError(f"{key}: {message}")

    try:
        game().check_settings(merged)
    except InvalidSetting as bad:
        raise fail(f"settings.{bad.key}", bad.message) from None
    except Exception as exc:  # a plugin's bug: still one clear message, no traceback
        message = f"{game.info.id} could not check its settings: {type(exc).__name__}: {exc}"
        raise fail("settings", message) from None
    return merged


def check_seed(game: type[Game[Any]], seed: int) -> str | None:
    """Why ``game`` refuses to play ``seed`` (:meth:`~arena.game.Game.check_seed`), or None.

    A plugin's bug while checking is one clear message too, not a traceback.
    """
    try:
        game().check_seed(seed)
    except InvalidSetting as bad:
        return bad.message
    except Exception as exc:
        return f"{game.info.id} could not check the seed {seed}: {type(exc).__name__}: {exc}"
    return None


def _same_kind(default: Any, value: Any) -> bool:
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(default, bool) and isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, int | float)
    return isinstance(value, type(default))


def read_text(path: Path) -> str:
    """A text file's contents; :class:`ConfigError` if unreadable, not a regular file (a
    FIFO would wait for a writer forever, a device read without end) or not UTF-8."""
    try:
        # O_NONBLOCK: opening a FIFO returns at once, to be refused below, not waited on.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    with open(fd, "rb") as f:
        kind = _file_kind(os.fstat(fd).st_mode)
        if kind is not None:
            raise ConfigError(f"{path}: {kind}, not a tournament file")
        try:
            data = f.read(MAX_FILE_BYTES + 1)
        except OSError as exc:
            raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    if len(data) > MAX_FILE_BYTES:
        size = f"{MAX_FILE_BYTES // 1024} KiB"
        raise ConfigError(f"{path}: larger than {size}: not a tournament file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        byte = data[exc.start]
        raise ConfigError(f"{path} (line {line}): not UTF-8 text (byte 0x{byte:02x})") from None


def compose_yaml(text: str, path: Path | str) -> yaml.Node | None:
    """Parse YAML text into nodes, refusing nesting deeper than :data:`MAX_DEPTH` first
    (PyYAML's composer recurses once per level: thousands of levels crash it)."""
    import yaml

    opening = (
        yaml.BlockMappingStartToken,
        yaml.BlockSequenceStartToken,
        yaml.FlowMappingStartToken,
        yaml.FlowSequenceStartToken,
    )
    closing = (yaml.BlockEndToken, yaml.FlowMappingEndToken, yaml.FlowSequenceEndToken)
    try:
        depth = 0
        for token in yaml.scan(text, Loader=yaml.SafeLoader):
            if isinstance(token, opening):
                depth += 1
                if depth > MAX_DEPTH:
                    line = token.start_mark.line + 1
                    raise ConfigError(
                        f"{path} (line {line}): nested more than {MAX_DEPTH} levels deep"
                    )
            elif isinstance(token, closing):
                depth -= 1
        return yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.reader.ReaderError as exc:  # a character YAML refuses (NUL, other controls)
        line = text[: exc.position].count("\n") + 1
        raise ConfigError(
            f"{path} (line {line}): invalid YAML: character #x{exc.character:04x} is not allowed"
        ) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" (line {mark.line + 1})" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise ConfigError(f"{path}{line}: invalid YAML: {problem}") from None


def load_tournament(
    path: Path, registry: Registry, overrides: Iterable[Override] = ()
) -> TournamentConfig:
    """Read and validate a tournament file with ``overrides`` over its keys (``arena run``'s
    options, :func:`arena.run`'s keywords), all checked as one; raise
    :class:`ConfigError` on the first problem."""
    doc, data = _read_keys(path, list(overrides))
    try:
        game_cls = registry.get(str(data["game"]))
    except UnknownGame as exc:
        raise doc.error("game", str(exc)) from None
    info = game_cls.info
    fmt = str(data.get("format", DEFAULT_FORMAT))
    if fmt not in FORMATS:
        raise doc.error("format", f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")
    players = _value(data, "players", max(info.min_players, min(2, info.max_players)))
    if not info.min_players <= players <= info.max_players:
        raise doc.error("players", f"{info.id} is played by {players_text(info)}, not {players}")
    variants, variant_keys = _variants(doc, data, game_cls)
    presets = _load_languages(doc, data.get("languages"))
    output = _output(data, path, "output" in doc.given_by)
    roster = read_roster(output)
    raw_bots = data.get("bots")
    if roster.added and isinstance(raw_bots, list):
        raw_bots = [*raw_bots, *roster.added]  # added while a league ran (roster.json)
    bots = _load_bots(doc, raw_bots, path.parent, presets)
    retired = _retired(roster, bots, output)
    if len(bots) < players:
        raise doc.error("bots", f"needs at least {players} bots for {players}-player games")
    champion, sprt, candidate, verdict = _check_format(doc, data, fmt, players, bots)
    leagues = _leagues(doc, data, bots)
    seed = _value(data, "seed")
    if (why := check_seed(game_cls, seed)) is not None:
        raise doc.error("seed", why)
    seeds = _seeds(doc, data)
    games = _games(doc, data, FORMATS[fmt], seeds, players)
    book, new_book = _book(doc, data, output, seeds, games, players)
    total = schedule_size(fmt, len(bots), players, games, len(variants))
    if games is not None and total > FORMATS[fmt].max_games:
        raise doc.error("games", too_many_games(fmt, games, total))
    executor, address = _executor(doc, data)
    return TournamentConfig(
        path=path,
        name=str(data.get("name", path.stem)),
        game=info.id,
        format=fmt,
        games=games,
        players=players,
        seed=seed,
        concurrency=_value(data, "concurrency", default_concurrency(info)),
        settings=variants[0],
        variants=variants,
        variant_keys=variant_keys,
        bots=bots,
        output=output,
        retired=retired,
        leagues=leagues,
        sandbox=_value(data, "sandbox"),
        memory_mb=_value(data, "memory_mb"),
        max_processes=_value(data, "max_processes"),
        disk_mb=_value(data, "disk_mb"),
        champion=champion,
        sprt=sprt,
        candidate=candidate,
        verdict=verdict,
        executor=executor,
        dask=address,
        lines=doc.lines,
        version=info.version,
        given_by=dict(doc.given_by),
        time_margin_ms=_value(data, "time_margin_ms"),
        clock_scale=float(_value(data, "clock_scale")),
        clock=_value(data, "clock"),
        files=_value(data, "files"),
        read_only=_read_only(doc, data, path.parent),
        seeds=book.seeds if book else seeds,
        book=book.name if book else None,
        new_book=new_book,
        rating_interval=_value(data, "rating_interval"),
        rating=_rating(doc, data),
        build_timeout_s=float(_value(data, "build_timeout_s")),
        build_memory_mb=_value(data, "build_memory_mb"),
        on_build_error=_value(data, "on_build_error"),
    )


def _read_keys(path: Path, overrides: list[Override]) -> tuple[_Located, dict[str, Any]]:
    """The file's keys with the overrides over them: unknown and missing keys refused,
    and every key's own check (:attr:`arena.tournament.keys.Key.check`) passed."""
    import yaml

    doc = _Located(path)
    node = compose_yaml(read_text(path), path)
    if node is None:
        raise ConfigError(f"{path}: empty file")
    if not isinstance(node, yaml.MappingNode):
        raise ConfigError(f"{path} (line {node.start_mark.line + 1}): expected a mapping of keys")
    data = doc.build(node, "")
    for key in data:
        if key not in KEYS:
            raise doc.error(key, "unknown key (known: " + ", ".join(KEYS) + ")")
    for key in REQUIRED:
        if key not in data:
            raise ConfigError(f"{path}: missing key {key!r}")
    _apply_overrides(doc, data, overrides)
    for key, value in data.items():
        if (why := KEYS[key].problem(value)) is not None:
            raise doc.error(key, why)
    return doc, data


def _apply_overrides(doc: _Located, data: dict[str, Any], overrides: list[Override]) -> None:
    """Put each override over the file's key, noting who gave it (its messages name that).

    Two keys go together: ``dask`` (an address) means ``executor: dask``, and the local
    executor given over the file drops the file's ``dask``.
    """
    for over in overrides:
        data[over.key] = over.value.strip() if over.key == "dask" else over.value
        doc.given_by[over.key] = over.given_by
    given = doc.given_by
    if "dask" in given:
        if "executor" in given and data["executor"] == "local":
            executor = given["executor"]
            message = f"only used with the dask executor ({executor} is local)"
            raise ConfigError(f"{given['dask']}: {message}")
        if not data["dask"]:
            raise doc.error("dask", "needs the scheduler's address, e.g. tcp://host:8786")
        data["executor"] = "dask"
        given["executor"] = given["dask"]
    elif "executor" in given and data["executor"] == "local":
        data.pop("dask", None)


def _value(data: dict[str, Any], key: str, default: Any = None) -> Any:
    """A checked key's value, else ``default``, else the key's declared default."""
    value = data.get(key)
    if value is not None:
        return value
    return default if default is not None else KEYS[key].default


def _output(data: dict[str, Any], path: Path, overridden: bool) -> Path:
    """The output folder: an override as given (relative to the current folder); the file's
    like a bot's files, from the current folder, else the file's (resume from anywhere)."""
    if overridden:
        return Path(str(data["output"]))
    return resolve_path(str(data.get("output", Path("out") / path.stem)), path.parent)


def _variants(
    doc: _Located, data: dict[str, Any], game_cls: type[Game[Any]]
) -> tuple[list[dict[str, Any]], tuple[str, ...]]:
    """Every combination of the settings given as lists (the variants), each checked."""
    info = game_cls.info
    settings = data.get("settings") or {}
    if not isinstance(settings, dict):
        raise doc.error("settings", "must be a mapping of game settings")
    variant_keys = tuple(
        k for k, v in settings.items() if isinstance(v, list) and k in info.settings
    )
    axes = [
        [(k, value) for value in (settings[k] if k in variant_keys else [settings[k]])]
        for k in settings
    ]
    for k in variant_keys:
        if not settings[k]:
            raise doc.error(f"settings.{k}", "an empty list of values")
    variants = [
        game_settings(game_cls, dict(choice), doc.error) for choice in itertools.product(*axes)
    ] or [game_settings(game_cls, {}, doc.error)]
    return variants, variant_keys


def default_concurrency(info: GameInfo) -> int:
    """Games at once by default: a core for every seat that thinks at the same time
    (:attr:`GameInfo.thinking`), at least one game."""
    return max(1, available_cores() // max(1, info.thinking))


def _load_languages(doc: _Located, raw: Any) -> dict[str, dict[str, Any]]:
    """The language presets: the built-in table with the file's ``languages:`` over it."""
    if raw is None:
        return merge_presets(None)
    if not isinstance(raw, dict):
        raise doc.error("languages", "must be a mapping of language names to presets")
    for name, preset in raw.items():
        message = check_preset(preset)
        if message:
            raise doc.error(f"languages.{name}", message)
    return merge_presets(raw)


def new_output_note(config: TournamentConfig) -> str | None:
    """A line saying where a new output folder goes when the file's own folder (not the
    current one) would have been the other place looked in: from another folder, a
    tournament resumes only where its output was found (see docs/tournaments.md, Paths).
    None when the output was given as an option (it is then where it says)."""
    out = config.output
    if "output" in config.given_by or out.is_absolute() or out.exists():
        return None
    if Path.cwd().resolve() == config.path.parent.resolve():
        return None
    folder = f"{config.path.parent}/"
    return f"new output folder {out}, made in the current folder (none yet here or in {folder})"


def _read_only(doc: _Located, data: dict[str, Any], base: Path) -> tuple[str, ...]:
    """The ``read_only`` paths made absolute like a bot's files: against the current
    folder, else the tournament file's; each must exist."""
    value = data.get("read_only", [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        raise doc.error("read_only", f"must be a list of paths, not {value!r}")
    out = []
    for i, item in enumerate(value):
        key = f"read_only[{i}]"
        if not isinstance(item, str) or not item:
            raise doc.error(key, f"must be a path, not {item!r}")
        found = next((p for p in (Path(item), base / item) if p.exists()), None)
        if found is None:
            raise doc.error(key, f"not found: {item!r}")
        out.append(os.path.abspath(found))
    return tuple(out)


def _seeds(doc: _Located, data: dict[str, Any]) -> tuple[int, ...] | None:
    raw = data.get("seeds")
    if raw is None:
        return None
    if isinstance(raw, tuple):  # from --seeds or arena.run
        raw = list(raw)
    if not isinstance(raw, list) or not raw:
        raise doc.error("seeds", f"must be a non-empty list of whole numbers, not {raw!r}")
    for i, value in enumerate(raw):
        if isinstance(value, bool) or not isinstance(value, int):
            raise doc.error(f"seeds[{i}]", f"must be a whole number, not {value!r}")
    return tuple(raw)


def _book(
    doc: _Located,
    data: dict[str, Any],
    output: Path,
    seeds: tuple[int, ...] | None,
    games: int | None,
    players: int,
) -> tuple[Book | None, bool]:
    """``book``: the seed book kept in ``output``, or (True: new) the one this run makes
    from ``seed``, as many seeds as its rounds (and keeps once it holds the folder)."""
    from arena.tournament.books import made_book, made_size, read_book

    name = data.get("book")
    if name is None:
        return None, False
    if seeds is not None:
        raise doc.error("book", "give `seeds` or `book`, not both (a book is a list of seeds)")
    kept = read_book(output, str(name))
    if kept is not None:
        return kept, False
    rounds = None if games is None else -(-games // max(1, players))
    return made_book(str(name), _value(data, "seed"), made_size(rounds)), True


def _rating(doc: _Located, data: dict[str, Any]) -> str:
    """The rating the leaderboard sorts by (checked against the ratings' registry)."""
    from arena.results import ratings  # the registry: only where a file names one

    value = data.get("rating", ratings.DEFAULT)
    if why := ratings.check_name(value):
        raise doc.error("rating", why)
    return str(value)


def games_for_seeds(seeds: int, players: int) -> int:
    """``games`` of a round-robin or gauntlet with one round per seed: a combination of
    bots plays every seat rotation of each seed (one game for one-player games)."""
    return seeds * max(1, players)


def _games(
    doc: _Located,
    data: dict[str, Any],
    rules: type[Scheduler],
    seeds: tuple[int, ...] | None,
    players: int,
) -> int | None:
    """``games``: per line-up (default 2), or in all for open-ended formats (None: no
    limit); where ``seeds`` gives one round per seed, it sets them instead. An override
    beats the file: ``--seeds`` over a file's ``games``, ``--games`` over its ``seeds``."""
    games = data.get("games")
    if seeds is not None and rules.seeded_rounds:
        given = doc.given_by
        if games is None or ("seeds" in given and "games" not in given):
            return games_for_seeds(len(seeds), players)
        if "seeds" in given:
            raise doc.error("seeds", f"plays one round per seed: leave out {given['games']}")
        if "games" not in given:
            raise doc.error("games", "give `games` or `seeds`, not both (one round per seed)")
    if games is None and not rules.open_ended:
        return rules.default_games
    return games


def _executor(doc: _Located, data: dict[str, Any]) -> tuple[ExecutorKind, str | None]:
    """``executor`` and, for ``dask``, the scheduler's address (None: a local cluster)."""
    executor = _value(data, "executor")
    address = data.get("dask")
    if address is None:
        return executor, None
    if executor != "dask":
        raise doc.error("dask", f"only used with `executor: dask` (executor is {executor})")
    if not isinstance(address, str) or not address.strip():
        example = "a scheduler address like tcp://host:8786"
        raise doc.error("dask", f"must be {example}, not {address!r}")
    return executor, address.strip()


def _check_format(
    doc: _Located, data: dict[str, Any], fmt: str, players: int, bots: list[BotEntry]
) -> tuple[str | None, Sprt | None, str | None, Sprt | None]:
    """The format's rules (:data:`~arena.tournament.formats.FORMATS`): the keys it needs
    (and the other formats refuse), the players and bots it takes."""
    rules = FORMATS[fmt]
    for owner, other in FORMATS.items():
        for key in (*(k for k, _ in other.needs), *other.own_keys):
            if key in data and owner != fmt:
                raise doc.error(key, f"only used with `format: {owner}` (format is {fmt})")
    if rules.two_players and players != 2:
        raise doc.error("players", f"format {fmt} plays two-player games, not {players}")
    if players < rules.min_players:
        least = _NUMBERS.get(rules.min_players, str(rules.min_players))
        raise doc.error("players", f"format {fmt} needs games of {least} or more players")
    for key, example in rules.needs:
        if key not in data:
            raise doc.error("format", f"format {fmt} needs {example}")
    if rules.bot_count is not None and len(bots) != rules.bot_count:
        count = _NUMBERS.get(rules.bot_count, str(rules.bot_count))
        raise doc.error("bots", f"format {fmt} compares exactly {count} bots, not {len(bots)}")
    champion, candidate = (_bot_named(doc, data, key, bots) for key in ("champion", "candidate"))
    sprt = _load_sprt(doc, data["sprt"]) if "sprt" in data else None
    verdict = _load_sprt(doc, data["verdict"], "verdict") if "verdict" in data else None
    return champion, sprt, candidate, verdict


def _bot_named(doc: _Located, data: dict[str, Any], key: str, bots: list[BotEntry]) -> str | None:
    """The bot a key names (``champion``, ``candidate``), None when the key is not given."""
    if key not in data:
        return None
    name = str(data[key])
    names = [b.name for b in bots]
    if name not in names:
        raise doc.error(key, f"no bot named {name!r} (bots: {', '.join(names)})")
    return name


def _leagues(doc: _Located, data: dict[str, Any], bots: list[BotEntry]) -> tuple[str, ...]:
    """``leagues`` (format contest): the bosses, weakest first, each a bot of the file
    named once; () when left out (one league)."""
    raw = data.get("leagues")
    if raw is None:
        return ()
    if not isinstance(raw, list) or not raw or not _texts(raw):
        raise doc.error("leagues", "must be a list of bot names (the bosses, weakest first)")
    names = [b.name for b in bots]
    for i, name in enumerate(raw):
        if name not in names:
            raise doc.error(f"leagues[{i}]", f"no bot named {name!r} (bots: {', '.join(names)})")
        if name in raw[:i]:
            raise doc.error(f"leagues[{i}]", f"bot {name!r} is the boss of two leagues")
    return tuple(raw)


_NUMBERS = {2: "two", 3: "three", 4: "four"}


def _load_sprt(doc: _Located, raw: Any, key_name: str = "sprt") -> Sprt:
    """The ``sprt`` mapping (or ``verdict``, which has the same keys) as a test."""
    from arena.results.stats import SPRT_MODELS, Sprt

    if raw is None:
        raise doc.error("format", "format sprt needs `sprt: {elo0: 0, elo1: 5}`")
    if not isinstance(raw, dict):
        raise doc.error(key_name, "must be a mapping: {elo0, elo1, alpha, beta, model}")
    for key in raw:
        if key not in SPRT_KEYS:
            raise doc.error(f"{key_name}.{key}", f"unknown key (known: {', '.join(SPRT_KEYS)})")
    values: dict[str, float] = {}
    for key, default in (("elo0", None), ("elo1", None), ("alpha", 0.05), ("beta", 0.05)):
        value = raw.get(key, default)
        if value is None:
            raise doc.error(key_name, f"missing key {key!r}")
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise doc.error(f"{key_name}.{key}", f"must be a number, not {value!r}")
        values[key] = float(value)
    if values["elo0"] >= values["elo1"]:
        raise doc.error(f"{key_name}.elo1", "must be greater than elo0")
    for key in ("alpha", "beta"):
        if not 0 < values[key] < 1:
            raise doc.error(f"{key_name}.{key}", f"must be between 0 and 1, not {values[key]:g}")
    if values["alpha"] + values["beta"] >= 1:
        raise doc.error(f"{key_name}.beta", "alpha + beta must be less than 1")
    model = raw.get("model", "normalized")
    if model not in SPRT_MODELS:
        raise doc.error(
            f"{key_name}.model", f"must be one of {', '.join(SPRT_MODELS)}, not {model!r}"
        )
    return Sprt(values["elo0"], values["elo1"], values["alpha"], values["beta"], model)


def _load_bots(
    doc: _Located, raw: Any, base: Path, presets: dict[str, dict[str, Any]] | None = None
) -> list[BotEntry]:
    if not isinstance(raw, list) or not raw:
        raise doc.error("bots", "must be a non-empty list of {name, cmd}")
    bots: list[BotEntry] = []  # named "" until every bot is read (see default_names)
    for i, item in enumerate(raw):
        where = f"bots[{i}]"
        if not isinstance(item, dict):
            raise doc.error(where, "must be a mapping with name and cmd")
        for key in item:
            if key not in BOT_KEYS:
                raise doc.error(f"{where}.{key}", f"unknown key (known: {', '.join(BOT_KEYS)})")
        owner = _owner(doc, item, where)
        if "source" in item or "build" in item:
            bot = _source_bot(doc, item, where, base, presets)
            bots.append(dataclasses.replace(bot, owner=owner))
            continue
        for key in ("language", "flags"):
            if key in item:
                raise doc.error(f"{where}.{key}", "only used with `source:` or `build:`")
        if "cmd" not in item:
            raise doc.error(where, "missing key 'cmd'")
        cmd = item["cmd"]
        if not isinstance(cmd, str):
            raise doc.error(f"{where}.cmd", f"must be a command line, not {cmd!r}")
        argv = resolve_command(cmd, base)
        if isinstance(argv, str):
            raise doc.error(f"{where}.cmd", argv)
        name = _given_name(doc, item, where) or ""
        bots.append(BotEntry(name, cmd, argv, named_files(cmd, argv), owner=owner))
    files = [bot_file(b.argv) if b.argv else _first_source(b) for b in bots]
    names = default_names([b.name or None for b in bots], files)
    for i, name in enumerate(names):
        _check_name(doc, f"bots[{i}]", name, bots[:i])
        bots[i] = dataclasses.replace(bots[i], name=name)
    return bots


def _retired(roster: Roster, bots: list[BotEntry], output: Path) -> tuple[str, ...]:
    """The roster's retired bots, each one of the bots."""
    names = [b.name for b in bots]
    for name in roster.retired:
        if name not in names:
            raise ConfigError(f"{output / ROSTER_NAME}: retired bot {name!r} is not a bot")
    return tuple(roster.retired)


def _first_source(bot: BotEntry) -> str:
    """The file a source bot's default name comes from: its first source."""
    recipe = bot.recipe
    return recipe.sources[0][1] if recipe is not None and recipe.sources else "bot"


def bot_name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a bot, or None: a name is printed in tables and terminals
    and names files, so it is printable text of at most :data:`MAX_NAME` characters, with
    no path separator, no comma (lists of bots are comma-separated) and no space at its ends."""
    if not name.strip():
        return "a bot name must not be empty"
    if len(name) > MAX_NAME:
        return f"a bot name has at most {MAX_NAME} characters, not {len(name)}"
    if not name.isprintable():
        return f"a bot name must be printable text, not {name!r}"
    if name != name.strip():
        return f"a bot name must not start or end with a space: {name!r}"
    for bad in ("/", "\\", ","):
        if bad in name:
            return f"a bot name must not contain {bad!r}: {name!r}"
    if name in (".", ".."):
        return f"a bot name must not be {name!r}"
    return None


def _owner(doc: _Located, item: dict[str, Any], where: str) -> str | None:
    """A bot's ``owner`` (who entered it: bots of one owner never meet in a contest), None
    when left out or null: printable text like a bot's name."""
    owner = item.get("owner")
    if owner is None:
        return None
    if not isinstance(owner, str):
        raise doc.error(f"{where}.owner", f'must be text, not {owner!r} (quote it: "{owner}")')
    if not owner.strip() or len(owner) > MAX_NAME or not owner.isprintable():
        why = f"an owner is printable text of 1 to {MAX_NAME} characters, not {owner!r}"
        raise doc.error(f"{where}.owner", why)
    return owner


def _given_name(doc: _Located, item: dict[str, Any], where: str) -> str | None:
    """A bot's ``name`` as written, None when left out (a name is made for it once every
    bot is read): text only (``name: 5`` is refused, not read as ``"5"``: quote it)."""
    if "name" not in item:
        return None
    name = item["name"]
    if not isinstance(name, str):
        raise doc.error(f"{where}.name", f'must be text, not {name!r} (quote it: "{name}")')
    if (why := bot_name_problem(name)) is not None:
        raise doc.error(f"{where}.name", why)
    return name


def _check_name(doc: _Located, where: str, name: str, bots: list[BotEntry]) -> None:
    """A bot's name (given, or made from its command or source) is one a bot may have,
    and not another bot's."""
    key = f"{where}.name" if f"{where}.name" in doc.lines else where
    why = bot_name_problem(name)
    if why is not None:
        hint = "" if key.endswith(".name") else " (made from its command: give it a `name`)"
        raise doc.error(key, why + hint)
    if any(b.name == name for b in bots):
        raise doc.error(key, f"bot name {name!r} used twice")


def _source_bot(
    doc: _Located,
    item: dict[str, Any],
    where: str,
    base: Path,
    presets: dict[str, dict[str, Any]] | None,
) -> BotEntry:
    """A bot built from source: ``source`` (a file, a folder or a list of files) with
    its language's preset, or its own ``build`` and ``cmd`` (each overrides the preset)."""
    source = item.get("source")
    if source is not None and not (
        isinstance(source, str) or (isinstance(source, list) and source and _texts(source))
    ):
        raise doc.error(f"{where}.source", "must be a file or folder, or a list of files")
    build = item.get("build")
    if build is not None and not (
        isinstance(build, str) or (isinstance(build, list) and _texts(build))
    ):
        raise doc.error(f"{where}.build", "must be a command or a list of commands")
    for key in ("cmd", "language", "flags"):
        if key in item and not isinstance(item[key], str):
            raise doc.error(f"{where}.{key}", f"must be text, not {item[key]!r}")
    if source is None and "cmd" not in item:
        raise doc.error(where, "missing key 'cmd' (the command that runs what `build` made)")
    try:
        recipe = make_recipe(
            source,
            base,
            language=item.get("language"),
            build=build,
            cmd=item.get("cmd"),
            flags=item.get("flags"),
            presets=presets,
        )
    except RecipeError as exc:
        key = exc.key if exc.key in item else ("source" if source is not None else "build")
        raise doc.error(f"{where}.{key}", exc.message) from None
    name = _given_name(doc, item, where) or ""  # a default name once every bot is read
    return BotEntry(name, str(recipe.shown["cmd"]), (), recipe.sources, recipe)


def _texts(values: list[Any]) -> bool:
    return all(isinstance(v, str) for v in values)
