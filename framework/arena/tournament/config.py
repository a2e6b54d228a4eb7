"""Tournament files: YAML read with line numbers, validated before any game starts.

Every problem is a :class:`~arena.errors.ConfigError` naming the file, the key path and
the line, e.g. ``tournaments/stc.yaml: bots[1].cmd (line 14): command not found: 'pyhton3'``.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.botbuild.build import (
    BUILD_MEMORY_MB,
    BUILD_TIMEOUT_S,
    Recipe,
    RecipeError,
    check_preset,
    make_recipe,
    merge_presets,
)
from arena.botproc.commands import (
    bot_file,
    default_names,
    named_files,
    resolve_command,
    resolve_path,
)
from arena.errors import ConfigError, InvalidSetting, UnknownGame
from arena.game import Game, GameInfo
from arena.tournament.schedule import FORMATS, MAX_GAMES, schedule_size

if TYPE_CHECKING:  # yaml and stats are imported where used: `arena match` needs neither
    import yaml

    from arena.plugins.registry import Registry
    from arena.results.stats import Sprt

SANDBOXES = ("auto", "bwrap", "none")
EXECUTORS = ("local", "dask")
ON_BUILD_ERROR = ("stop", "skip")
BOT_KEYS = ("name", "cmd", "source", "build", "language", "flags")
MAX_BUILD_TIMEOUT_S = 86400
"""Largest ``build_timeout_s`` accepted: a day."""
SPRT_KEYS = ("elo0", "elo1", "alpha", "beta", "model")
MAX_DEPTH = 32
"""Deepest nesting of YAML collections a tournament file may use (real files use 3)."""
MAX_VALUES = 100_000
"""Most values a tournament file may expand to (YAML aliases can multiply them)."""
MAX_FILE_BYTES = 1024 * 1024
"""A tournament file is read up to this size (``arena run /dev/zero`` must not read forever)."""
MAX_MEMORY_MB = 1024 * 1024
"""Largest ``memory_mb`` accepted: 1 TiB."""
MAX_DISK_MB = 1024 * 1024
"""Largest ``disk_mb`` accepted: 1 TiB."""
MAX_PROCESSES = 32768
"""Largest ``max_processes`` accepted."""
MAX_TIME_MARGIN_MS = 3_600_000
"""Largest ``time_margin_ms`` accepted: an hour."""
MAX_CLOCK_SCALE = 1000.0
"""Largest ``clock_scale`` accepted."""
"""A command's first word ending in these is a file path, not a program on the PATH."""
TEXT_KEYS = ("name", "game", "format", "output", "sandbox", "executor", "champion")
"""Keys whose value must be text (a number is read as text): a list, a mapping, a boolean
or nothing there is refused, with its line."""
KEYS = {
    "name": "tournament name (text)",
    "game": "game id (see `arena games`)",
    "format": "scheduling format: " + ", ".join(FORMATS),
    "games": "games per combination of bots (round-robin, gauntlet), the most games (sprt) "
    "or games in all (league)",
    "champion": "gauntlet: the bot that plays every other bot",
    "sprt": "sprt: {elo0, elo1, alpha, beta, model}",
    "players": "bots per game (default: the game's minimum, 2 for two-player games)",
    "seed": "tournament seed: every game's seed derives from it",
    "seeds": "an explicit list of seeds, one round per seed (round-robin and gauntlet: "
    "instead of `games`; sprt and league: the rounds go through the list again and again)",
    "rating": "the rating the leaderboard is sorted by: bt (default), elo, trueskill, "
    "openskill (see docs/leaderboard.md)",
    "rating_interval": "print the compact leaderboard to stderr every N games (default 0: "
    "only at the end)",
    "concurrency": "games played at once (default: the cores divided by the seats of the "
    "game that think at once, at least 1)",
    "settings": "game settings (see `arena games`); a list of values plays each of them",
    "bots": "list of {name, cmd} or {name, source} (see docs/languages.md)",
    "output": "output folder (SQLite file, replays, stderr)",
    "sandbox": "auto (bubblewrap when it works), bwrap or none",
    "memory_mb": "memory cap per bot in MiB, all its processes together (optional)",
    "disk_mb": "cap in MiB on the files a bot writes (its directory with /tmp, and /dev/shm; "
    "default 256)",
    "max_processes": "processes a bot may run at once where cgroups allow (default 64)",
    "executor": "where games run: local (worker processes here) or dask (a Dask cluster)",
    "dask": "executor dask: the scheduler's address (default: a local Dask cluster)",
    "time_margin_ms": "grace past each turn's budget: a later answer is `late`, not a "
    "timeout (default 0)",
    "clock_scale": "multiplies every time budget of the game, for slower machines (default 1)",
    "clock": "wall (default: a turn is charged the time from its input to its answer; a "
    "turn over budget only by the machine's wait is a stall, played again) or cpu (the CPU "
    "time of all the bot's processes)",
    "languages": "language presets added or changed: {name: {extensions, build, flags, cmd}}",
    "build_timeout_s": f"time cap of one bot's build in seconds (default {BUILD_TIMEOUT_S:g})",
    "build_memory_mb": f"memory cap of a build in MiB (default {BUILD_MEMORY_MB})",
    "on_build_error": "stop (default: no game is played) or skip (the bot is left out)",
    "files": "what a sandboxed bot sees of its own files: folder (the folder of the program "
    "its command runs, read-only; the default) or named (only the files its command names)",
    "read_only": "list of more files or folders every bot sees, read-only (paths resolved "
    "like the bots')",
}
CLOCKS = ("wall", "cpu")
FILES = ("folder", "named")
"""Values of the ``files`` key."""


@dataclass(frozen=True)
class BotEntry:
    """A bot of the tournament: name, command as written, and resolved argv.

    ``files`` pairs each word of the command that names a file or folder, as written,
    with its absolute path: what the game identity hashes (see :mod:`arena.results.identity`).
    A bot built from source has its ``recipe`` (its ``files`` are its sources, its ``cmd``
    the run command's template); its ``argv`` is empty until it is built
    (:func:`arena.tournament.builds.build_bots`).
    """

    name: str
    cmd: str
    argv: tuple[str, ...]
    files: tuple[tuple[str, str], ...] = ()
    recipe: Recipe | None = None


@dataclass
class TournamentConfig:
    """A validated tournament file (plus command-line overrides)."""

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
    sandbox: str = "auto"
    memory_mb: int | None = None
    max_processes: int = 64
    disk_mb: int = 256
    variants: list[dict[str, Any]] = field(default_factory=list)
    variant_keys: tuple[str, ...] = ()
    champion: str | None = None
    sprt: Sprt | None = None
    executor: str = "local"
    dask: str | None = None  # the Dask scheduler's address (None: a LocalCluster)
    lines: dict[str, int] = field(default_factory=dict)
    version: int = 1
    given_by: dict[str, str] = field(default_factory=dict)  # key -> command-line option
    files: str = "folder"  # what a sandboxed bot sees of its own folder (FILES)
    read_only: tuple[str, ...] = ()  # more paths every bot sees, read-only (absolute)

    def where(self, key: str) -> str:
        """Where a key's value came from, for messages: ``FILE: key (line N)`` or the option."""
        return self.given_by.get(key) or where(self, key)

    time_margin_ms: int = 0
    clock_scale: float = 1.0
    clock: str = "wall"
    build_timeout_s: float = BUILD_TIMEOUT_S
    build_memory_mb: int = BUILD_MEMORY_MB
    on_build_error: str = "stop"
    seeds: tuple[int, ...] | None = None  # one round per seed, instead of seeds from `seed`
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

    def error(self, key: str, message: str) -> ConfigError:
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


def _positive_int(
    doc: _Located, data: dict[str, Any], key: str, default: int, most: int | None = None
) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise doc.error(key, f"must be a positive whole number, not {value!r}")
    if most is not None and value > most:
        raise doc.error(key, f"must be at most {most}, not {value}")
    return value


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
    """The message refusing a schedule of more than :data:`MAX_GAMES` games."""
    if FORMATS[fmt].open_ended:
        return f"arena plays at most {MAX_GAMES} games in one tournament, not {games}"
    return (
        f"{games} games per combination make {total} games in all; "
        f"arena plays at most {MAX_GAMES} in one tournament"
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
    """A text file's contents; :class:`ConfigError` if unreadable or not UTF-8."""
    try:
        with open(path, "rb") as f:
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


def load_tournament(path: Path, registry: Registry) -> TournamentConfig:
    """Read and validate a tournament file; raise :class:`ConfigError` on the first problem."""
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
    for key in ("game", "bots"):
        if key not in data:
            raise ConfigError(f"{path}: missing key {key!r}")

    for key in TEXT_KEYS:
        value = data.get(key, "-")
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise doc.error(key, f"must be text, not {value!r}")
        if not str(value).strip():
            raise doc.error(key, "must not be empty")
    game_id = data["game"]
    try:
        game_cls = registry.get(str(game_id))
    except UnknownGame as exc:
        raise doc.error("game", str(exc)) from None
    info = game_cls.info
    fmt = data.get("format", "round-robin")
    if fmt not in FORMATS:
        raise doc.error("format", f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")
    players = _positive_int(doc, data, "players", max(info.min_players, min(2, info.max_players)))
    if not info.min_players <= players <= info.max_players:
        raise doc.error("players", f"{info.id} is played by {players_text(info)}, not {players}")
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
    merged = variants[0]

    presets = _load_languages(doc, data.get("languages"))
    bots = _load_bots(doc, data.get("bots"), path.parent, presets)
    if len(bots) < players:
        raise doc.error("bots", f"needs at least {players} bots for {players}-player games")
    champion, sprt = _check_format(doc, data, fmt, players, bots)
    seed = data.get("seed", 1)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise doc.error("seed", f"must be a whole number, not {seed!r}")
    if (why := check_seed(game_cls, seed)) is not None:
        raise doc.error("seed", why)
    sandbox = data.get("sandbox", "auto")
    if sandbox not in SANDBOXES:
        raise doc.error("sandbox", f"must be one of {', '.join(SANDBOXES)}, not {sandbox!r}")
    memory = data.get("memory_mb")
    if memory is not None:
        memory = _positive_int(doc, data, "memory_mb", 1, MAX_MEMORY_MB)
    seeds = _seeds(doc, data)
    if seeds is not None and fmt in ("round-robin", "gauntlet"):
        if data.get("games") is not None:
            raise doc.error("games", "give `games` or `seeds`, not both (one round per seed)")
        data["games"] = games_for_seeds(len(seeds), players)
    games = _games(doc, data, fmt)
    total = schedule_size(fmt, len(bots), players, games, len(variants))
    if games is not None and total > MAX_GAMES:
        raise doc.error("games", too_many_games(fmt, games, total))
    # Like a bot's files: from the current folder, else the file's folder (resume from anywhere).
    output = resolve_path(str(data.get("output", Path("out") / path.stem)), path.parent)
    executor, address = _executor(doc, data)
    return TournamentConfig(
        path=path,
        name=str(data.get("name", path.stem)),
        game=info.id,
        format=fmt,
        games=games,
        players=players,
        seed=seed,
        concurrency=_positive_int(doc, data, "concurrency", default_concurrency(info)),
        settings=merged,
        variants=variants,
        variant_keys=variant_keys,
        bots=bots,
        output=output,
        sandbox=sandbox,
        memory_mb=memory,
        max_processes=_positive_int(doc, data, "max_processes", 64, MAX_PROCESSES),
        disk_mb=_positive_int(doc, data, "disk_mb", 256, MAX_DISK_MB),
        champion=champion,
        sprt=sprt,
        executor=executor,
        dask=address,
        lines=doc.lines,
        version=info.version,
        time_margin_ms=_time_margin(doc, data),
        clock_scale=_clock_scale(doc, data),
        clock=_clock(doc, data),
        files=_files(doc, data),
        read_only=_read_only(doc, data, path.parent),
        seeds=seeds,
        rating_interval=_rating_interval(doc, data),
        rating=_rating(doc, data),
        **_build_options(doc, data),
    )


def _clock(doc: _Located, data: dict[str, Any]) -> str:
    value = data.get("clock", "wall")
    if value not in CLOCKS:
        raise doc.error("clock", f"must be one of {', '.join(CLOCKS)}, not {value!r}")
    return str(value)


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


def _build_options(doc: _Located, data: dict[str, Any]) -> dict[str, Any]:
    timeout = data.get("build_timeout_s", BUILD_TIMEOUT_S)
    if (
        isinstance(timeout, bool)
        or not isinstance(timeout, int | float)
        or not 0 < timeout <= MAX_BUILD_TIMEOUT_S
    ):
        raise doc.error(
            "build_timeout_s",
            f"must be a number of seconds above 0, at most {MAX_BUILD_TIMEOUT_S}, not {timeout!r}",
        )
    memory = _positive_int(doc, data, "build_memory_mb", BUILD_MEMORY_MB, MAX_MEMORY_MB)
    on_error = data.get("on_build_error", "stop")
    if on_error not in ON_BUILD_ERROR:
        known = ", ".join(ON_BUILD_ERROR)
        raise doc.error("on_build_error", f"must be one of {known}, not {on_error!r}")
    return {
        "build_timeout_s": float(timeout),
        "build_memory_mb": memory,
        "on_build_error": on_error,
    }


def new_output_note(config: TournamentConfig) -> str | None:
    """A line saying where a new output folder goes when the file's own folder (not the
    current one) would have been the other place looked in: from another folder, a
    tournament resumes only where its output was found (see docs/tournaments.md, Paths)."""
    out = config.output
    if out.is_absolute() or out.exists():
        return None
    if Path.cwd().resolve() == config.path.parent.resolve():
        return None
    return f"new output folder {out} (found neither here nor in {config.path.parent})"


def _files(doc: _Located, data: dict[str, Any]) -> str:
    value = data.get("files", "folder")
    if value not in FILES:
        raise doc.error("files", f"must be one of {', '.join(FILES)}, not {value!r}")
    return str(value)


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


def games_for_seeds(seeds: int, players: int) -> int:
    """``games`` of a round-robin or gauntlet with one round per seed: a combination of
    bots plays every seat rotation of each seed (one game for one-player games)."""
    return seeds * max(1, players)


def parse_seeds(text: str) -> tuple[int, ...]:
    """``"1,2,3"`` (``--seeds``) as seeds; :class:`ConfigError` for anything else."""
    try:
        seeds = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise ConfigError(f"--seeds: whole numbers separated by commas, not {text!r}") from None
    if not seeds:
        raise ConfigError("--seeds: at least one seed, e.g. --seeds 1,2,3")
    return seeds


def _seeds(doc: _Located, data: dict[str, Any]) -> tuple[int, ...] | None:
    raw = data.get("seeds")
    if raw is None:
        return None
    if not isinstance(raw, list) or not raw:
        raise doc.error("seeds", f"must be a non-empty list of whole numbers, not {raw!r}")
    for i, value in enumerate(raw):
        if isinstance(value, bool) or not isinstance(value, int):
            raise doc.error(f"seeds[{i}]", f"must be a whole number, not {value!r}")
    return tuple(raw)


def _rating(doc: _Located, data: dict[str, Any]) -> str:
    from arena.results import ratings  # the registry: only where a file names one

    value = data.get("rating", ratings.DEFAULT)
    if why := ratings.check_name(value):
        raise doc.error("rating", why)
    return str(value)


def _rating_interval(doc: _Located, data: dict[str, Any]) -> int:
    value = data.get("rating_interval", 0)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise doc.error("rating_interval", f"must be a whole number of games >= 0, not {value!r}")
    return value


def _time_margin(doc: _Located, data: dict[str, Any]) -> int:
    value = data.get("time_margin_ms", 0)
    message = check_time_margin(value)
    if message:
        raise doc.error("time_margin_ms", message)
    return int(value)


def _clock_scale(doc: _Located, data: dict[str, Any]) -> float:
    value = data.get("clock_scale", 1.0)
    message = check_clock_scale(value)
    if message:
        raise doc.error("clock_scale", message)
    return float(value)


def check_time_margin(value: Any) -> str | None:
    """Why ``value`` is not a valid ``time_margin_ms`` (None when it is)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return f"must be a whole number of milliseconds, 0 or more, not {value!r}"
    if value > MAX_TIME_MARGIN_MS:
        return f"must be at most {MAX_TIME_MARGIN_MS}, not {value}"
    return None


def check_clock_scale(value: Any) -> str | None:
    """Why ``value`` is not a valid ``clock_scale`` (None when it is)."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or value <= 0
    ):
        return f"must be a number greater than 0, not {value!r}"
    if value > MAX_CLOCK_SCALE:
        return f"must be at most {MAX_CLOCK_SCALE:g}, not {value!r}"
    return None


def _games(doc: _Located, data: dict[str, Any], fmt: str) -> int | None:
    if FORMATS[fmt].open_ended and data.get("games") is None:
        return None  # sprt: until a bound is crossed; league: until Ctrl-C
    return _positive_int(doc, data, "games", 2)


def _executor(doc: _Located, data: dict[str, Any]) -> tuple[str, str | None]:
    executor = data.get("executor", "local")
    if executor not in EXECUTORS:
        known = ", ".join(EXECUTORS)
        raise doc.error("executor", f"must be one of {known}, not {executor!r}")
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
) -> tuple[str | None, Sprt | None]:
    """The format's own keys (``champion``, ``sprt``) and what it needs of the bots."""
    for owner, rules in FORMATS.items():
        if rules.own_key in data and fmt != owner:
            raise doc.error(rules.own_key, f"only used with `format: {owner}` (format is {fmt})")
    if FORMATS[fmt].pairs and players != 2:
        raise doc.error("players", f"format {fmt} plays two-player games, not {players}")
    if fmt == "gauntlet":
        if players == 1:
            raise doc.error("players", "format gauntlet needs games of two or more players")
        if "champion" not in data:
            raise doc.error("format", "format gauntlet needs `champion: NAME` (one of the bots)")
        champion = str(data["champion"])
        names = [b.name for b in bots]
        if champion not in names:
            raise doc.error("champion", f"no bot named {champion!r} (bots: {', '.join(names)})")
        return champion, None
    if fmt == "sprt":
        if len(bots) != 2:
            raise doc.error("bots", f"format sprt compares exactly two bots, not {len(bots)}")
        return None, _load_sprt(doc, data.get("sprt"))
    return None, None


def _load_sprt(doc: _Located, raw: Any) -> Sprt:
    from arena.results.stats import SPRT_MODELS, Sprt

    if raw is None:
        raise doc.error("format", "format sprt needs `sprt: {elo0: 0, elo1: 5}`")
    if not isinstance(raw, dict):
        raise doc.error("sprt", "must be a mapping: {elo0, elo1, alpha, beta, model}")
    for key in raw:
        if key not in SPRT_KEYS:
            raise doc.error(f"sprt.{key}", f"unknown key (known: {', '.join(SPRT_KEYS)})")
    values: dict[str, float] = {}
    for key, default in (("elo0", None), ("elo1", None), ("alpha", 0.05), ("beta", 0.05)):
        value = raw.get(key, default)
        if value is None:
            raise doc.error("sprt", f"missing key {key!r}")
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise doc.error(f"sprt.{key}", f"must be a number, not {value!r}")
        values[key] = float(value)
    if values["elo0"] >= values["elo1"]:
        raise doc.error("sprt.elo1", "must be greater than elo0")
    for key in ("alpha", "beta"):
        if not 0 < values[key] < 1:
            raise doc.error(f"sprt.{key}", f"must be between 0 and 1, not {values[key]:g}")
    if values["alpha"] + values["beta"] >= 1:
        raise doc.error("sprt.beta", "alpha + beta must be less than 1")
    model = raw.get("model", "normalized")
    if model not in SPRT_MODELS:
        raise doc.error("sprt.model", f"must be one of {', '.join(SPRT_MODELS)}, not {model!r}")
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
        if "source" in item or "build" in item:
            bots.append(_source_bot(doc, item, where, base, presets))
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
        bots.append(BotEntry(str(item.get("name") or ""), cmd, argv, named_files(cmd, argv)))
    files = [bot_file(b.argv) if b.argv else _first_source(b) for b in bots]
    names = default_names([b.name or None for b in bots], files)
    for i, name in enumerate(names):
        _check_name(doc, f"bots[{i}]", name, bots[:i])
        bots[i] = dataclasses.replace(bots[i], name=name)
    return bots


def _first_source(bot: BotEntry) -> str:
    """The file a source bot's default name comes from: its first source."""
    recipe = bot.recipe
    return recipe.sources[0][1] if recipe is not None and recipe.sources else "bot"


def _check_name(doc: _Located, where: str, name: str, bots: list[BotEntry]) -> None:
    if any(b.name == name for b in bots):
        raise doc.error(f"{where}.name", f"bot name {name!r} used twice")
    if "," in name:
        raise doc.error(f"{where}.name", "bot names cannot contain ','")


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
    name = str(item.get("name") or "")  # a default name is given once every bot is read
    return BotEntry(name, str(recipe.shown["cmd"]), (), recipe.sources, recipe)


def _texts(values: list[Any]) -> bool:
    return all(isinstance(v, str) for v in values)
