"""Every key of a tournament file, declared once: name, type, default, choices, check, help,
and the ``arena run`` option that overrides it.

This table feeds the file's loader (:func:`arena.tournament.config.load_tournament`: unknown
keys, defaults, checks), ``arena run``'s options (:func:`add_options`, their choices and help
generated from here), :func:`arena.run`'s keyword overrides and the docs test (every key
is in docs/tournaments.md). An override, from the command line or Python, is an
:class:`Override` handed to the loader, which validates the file and the overrides again
as one: a bad one names its option (``--games: must be a positive whole number, not 0``).

Light on purpose (no YAML, no sandbox): ``arena --version`` builds the parser from it.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from arena import limits
from arena.errors import ConfigError

Check = Callable[[Any], "str | None"]
"""Why a value is refused (one short phrase), or None when it is accepted."""

MAX_TIME_MARGIN_MS = 3_600_000
"""Largest ``time_margin_ms`` accepted: an hour."""
MAX_CLOCK_SCALE = 1000.0
"""Largest ``clock_scale`` accepted."""


@dataclass(frozen=True)
class Key:
    """One tournament-file key.

    ``type`` is what the file holds, in words (for docs and messages); ``default`` None
    means none, or one the loader computes (``help`` says which). ``check`` refuses a bad
    value with a phrase; keys with more structure (``bots``, ``settings``, ``sprt``...)
    are checked by the loader itself (``check`` None). ``option`` spells the ``arena run``
    options that override the key (none: the file alone sets it); ``parse`` turns the
    option's text into the key's value (a ``ValueError`` is a bad value).
    """

    name: str
    type: str
    help: str
    default: Any = None
    choices: tuple[str, ...] = ()
    check: Check | None = None
    option: tuple[str, ...] = ()
    parse: Callable[[str], Any] = str
    metavar: str | None = None
    option_help: str | None = None

    def value(self, given: Any) -> Any:
        """``given``, or the default when it is None (the key left out)."""
        return self.default if given is None else given

    def problem(self, value: Any) -> str | None:
        """Why ``value`` is refused by :attr:`choices` or :attr:`check`, or None."""
        if self.choices and value not in self.choices:
            return f"must be one of {', '.join(self.choices)}, not {value!r}"
        return self.check(value) if self.check is not None else None


@dataclass(frozen=True)
class Override:
    """A key's value given over the file's: by ``given_by`` (``--games``, or ``games``
    for :func:`arena.run`), named in its messages."""

    key: str
    value: Any
    given_by: str


# -- checks ------------------------------------------------------------------------------


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def positive(most: int | None = None) -> Check:
    """A whole number of at least 1 (and at most ``most``)."""

    def check(value: Any) -> str | None:
        if not _whole(value) or value < 1:
            return f"must be a positive whole number, not {value!r}"
        if most is not None and value > most:
            return f"must be at most {most}, not {value}"
        return None

    return check


def optional(check: Check) -> Check:
    """``check``, with ``null`` (nothing) accepted: the key left out."""

    def checked(value: Any) -> str | None:
        return None if value is None else check(value)

    return checked


def at_least_zero(unit: str) -> Check:
    """A whole number of ``unit``, 0 or more."""

    def check(value: Any) -> str | None:
        if not _whole(value) or value < 0:
            return f"must be a whole number of {unit}, 0 or more, not {value!r}"
        return None

    return check


def whole(value: Any) -> str | None:
    """Any whole number (a seed)."""
    return None if _whole(value) else f"must be a whole number, not {value!r}"


def text(value: Any) -> str | None:
    """Text, not empty (a number is read as text; a path given to :func:`arena.run` too)."""
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return f"must be text, not {value!r}"
    return None if str(value).strip() else "must not be empty"


def check_time_margin(value: Any) -> str | None:
    """Why ``value`` is not a valid ``time_margin_ms`` (None when it is)."""
    if not _whole(value) or value < 0:
        return f"must be a whole number of milliseconds, 0 or more, not {value!r}"
    if value > MAX_TIME_MARGIN_MS:
        return f"must be at most {MAX_TIME_MARGIN_MS}, not {value}"
    return None


def check_clock_scale(value: Any) -> str | None:
    """Why ``value`` is not a valid ``clock_scale`` (None when it is)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return f"must be a number greater than 0, not {value!r}"
    if value <= 0:
        return f"must be a number greater than 0, not {value!r}"
    if value > MAX_CLOCK_SCALE:
        return f"must be at most {MAX_CLOCK_SCALE:g}, not {value!r}"
    return None


def check_build_timeout(value: Any) -> str | None:
    """Why ``value`` is not a valid ``build_timeout_s`` (None when it is)."""
    most = limits.MOST_BUILD_TIMEOUT_S
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= most:
        return f"must be a number of seconds above 0, at most {most}, not {value!r}"
    return None


def book_name(value: Any) -> str | None:
    """Why ``value`` cannot name a seed book (None when it can)."""
    from arena.tournament.books import name_problem

    return name_problem(value)


def parse_seeds(given: str) -> tuple[int, ...]:
    """``"1,2,3"`` (``--seeds``) as seeds; ``ValueError`` for anything else."""
    try:
        seeds = tuple(int(part) for part in given.split(",") if part.strip())
    except ValueError:
        raise ValueError(f"whole numbers separated by commas, not {given!r}") from None
    if not seeds:
        raise ValueError("at least one seed, e.g. --seeds 1,2,3")
    return seeds


def _whole_text(given: str) -> int:
    try:
        return int(given)
    except ValueError:
        raise ValueError(f"must be a whole number, not {given!r}") from None


# -- the table ---------------------------------------------------------------------------

_KEYS = (
    Key("name", "text", "tournament name (default: the file's name)", check=text),
    Key("game", "text", "game id (see `arena games`); required", check=text),
    Key("format", "text", "scheduling format (see docs/tournaments.md, Formats)",
        "round-robin", check=text),
    Key("games", "positive whole number",
        "games per combination of bots (round-robin, gauntlet; default 2), the most games "
        "(sprt) or games in all (league)",
        check=optional(positive()), option=("--games",), parse=_whole_text, metavar="N"),
    Key("champion", "text", "gauntlet: the bot that plays every other bot", check=text),
    Key("sprt", "mapping", "sprt: {elo0, elo1, alpha, beta, model}"),
    Key("candidate", "text", "candidate: the bot judged against all the others (default: "
        "the first bot)", check=text),
    Key("leagues", "list of bot names", "contest: the leagues' bosses, weakest first (every "
        "participant starts in the lowest league and is promoted past its boss)"),
    Key("verdict", "mapping", "candidate: the verdict's bounds {elo0, elo1, alpha, beta, "
        "model} (default {elo0: 0, elo1: 5}; see docs/ci.md)"),
    Key("players", "positive whole number",
        "bots per game (default: the game's minimum, 2 for two-player games)",
        check=positive()),
    Key("seed", "whole number", "tournament seed: every game's seed derives from it", 1,
        check=whole, option=("--seed",), parse=_whole_text, metavar="N"),
    Key("seeds", "list of whole numbers",
        "an explicit list of seeds, one round per seed (round-robin and gauntlet: "
        "instead of `games`; sprt and league: the rounds go through the list again and again)",
        option=("--seeds",), parse=parse_seeds, metavar="S1,S2,...",
        option_help="play one round per seed of this list (override `seeds` and `seed`)"),
    Key("book", "text",
        "a named seed book kept in the output folder (OUTPUT/books/NAME.json): the rounds "
        "play its seeds in order; made from `seed` by the first run that names it, then "
        "shared by every run there (see docs/tournaments.md, Seed books)",
        check=optional(book_name), option=("--book",), metavar="NAME",
        option_help="play the rounds on the seed book NAME of the output folder (override "
        "`book`)"),
    Key("rating", "text", "the rating the leaderboard is sorted by: bt (the default), elo, "
        "trueskill, openskill (see docs/leaderboard.md; checked against the installed ratings)"),
    Key("rating_interval", "whole number",
        "print the compact leaderboard to stderr every N games (default 0: only at the end)",
        0, check=at_least_zero("games"), option=("--rating-interval",), parse=_whole_text,
        metavar="N",
        option_help="print the compact leaderboard to stderr every N games (override "
        "`rating_interval`; 0: never)"),
    Key("concurrency", "positive whole number",
        "games played at once (default: the cores divided by the seats of the game that "
        f"think at once, at least 1; at most {limits.MOST_CONCURRENCY})",
        check=positive(limits.MOST_CONCURRENCY), option=("--concurrency", "-j"),
        parse=_whole_text, metavar="N"),
    Key("settings", "mapping", "game settings (see `arena games`); a list of values plays "
        "each of them"),
    Key("bots", "list", "list of {name, cmd} or {name, source} (see docs/languages.md), "
        "each with an optional `owner` (contest: bots of one owner never meet); required"),
    Key("output", "path", "output folder (SQLite file, replays, stderr); default out/FILE",
        check=text, option=("--output",), metavar="DIR"),
    Key("sandbox", "text", "auto (bubblewrap when it works), bwrap or none", "auto",
        choices=limits.SANDBOXES),
    Key("memory_mb", "positive whole number",
        "memory cap per bot in MiB, all its processes together (optional)",
        check=optional(positive(limits.MOST_MEMORY_MB))),
    Key("disk_mb", "positive whole number",
        "cap in MiB on the files a bot writes (its directory with /tmp, and /dev/shm; "
        f"default {limits.DISK_MB})", limits.DISK_MB, check=positive(limits.MOST_DISK_MB)),
    Key("max_processes", "positive whole number",
        f"processes a bot may run at once where cgroups allow (default {limits.MAX_PROCESSES})",
        limits.MAX_PROCESSES, check=positive(limits.MOST_PROCESSES)),
    Key("executor", "text",
        "where games run: local (worker processes here) or dask (a Dask cluster)", "local",
        choices=limits.EXECUTORS, option=("--executor",)),
    Key("dask", "text", "executor dask: the scheduler's address (default: a local Dask "
        "cluster)", option=("--dask",), metavar="ADDRESS",
        option_help="play the games on the Dask scheduler at ADDRESS (implies --executor dask)"),
    Key("time_margin_ms", "whole number", "grace past each turn's budget: a later answer "
        "is `late`, not a timeout (default 0)", 0, check=check_time_margin),
    Key("clock_scale", "number", "multiplies every time budget of the game, for slower "
        "machines (default 1)", 1.0, check=check_clock_scale),
    Key("clock", "text", "wall (default: a turn is charged the time from its input to its "
        "answer; a turn over budget only by the machine's wait is a stall, played again) or "
        "cpu (the CPU time of all the bot's processes)", "wall", choices=limits.CLOCKS),
    Key("languages", "mapping",
        "language presets added or changed: {name: {extensions, build, flags, cmd}}"),
    Key("build_timeout_s", "number",
        f"time cap of one bot's build in seconds (default {limits.BUILD_TIMEOUT_S:g})",
        limits.BUILD_TIMEOUT_S, check=check_build_timeout),
    Key("build_memory_mb", "positive whole number",
        f"memory cap of a build in MiB (default {limits.BUILD_MEMORY_MB})",
        limits.BUILD_MEMORY_MB, check=positive(limits.MOST_MEMORY_MB)),
    Key("on_build_error", "text",
        "stop (default: no game is played) or skip (the bot is left out)", "stop",
        choices=limits.ON_BUILD_ERROR),
    Key("files", "text", "what a sandboxed bot sees of its own files: folder (the folder "
        "of the program its command runs, read-only; the default) or named (only the files "
        "its command names)", "folder", choices=limits.FILES),
    Key("read_only", "list of paths", "list of more files or folders every bot sees, "
        "read-only (paths resolved like the bots')"),
)  # fmt: skip

KEYS: dict[str, Key] = {key.name: key for key in _KEYS}
"""Every tournament-file key by name, in the order docs/tournaments.md lists them."""
REQUIRED = ("game", "bots")
"""Keys every tournament file must give."""


def key(name: str) -> Key:
    """The declared key ``name``."""
    return KEYS[name]


# -- overrides ---------------------------------------------------------------------------


def add_options(parser: Any) -> None:
    """``arena run``'s options that override keys, one per key with an :attr:`Key.option`."""
    for k in KEYS.values():
        if not k.option:
            continue
        help_text = k.option_help or f"override `{k.name}`"
        kwargs: dict[str, Any] = {"dest": k.name, "help": help_text}
        if k.choices:
            kwargs["choices"] = k.choices
        elif k.metavar:
            kwargs["metavar"] = k.metavar
        parser.add_argument(*k.option, **kwargs)


def option_overrides(args: Any) -> list[Override]:
    """The overrides ``arena run``'s options give (their text parsed, each refused with
    its option named)."""
    out = []
    for k in KEYS.values():
        given = getattr(args, k.name, None) if k.option else None
        if given is None:
            continue
        try:
            value = k.parse(given)
        except ValueError as exc:
            raise ConfigError(f"{k.option[0]}: {exc}") from None
        out.append(Override(k.name, value, k.option[0]))
    return out


def keyword_overrides(given: Mapping[str, Any]) -> list[Override]:
    """:func:`arena.run`'s keyword overrides (``games=4``): the keys with an option, by
    name, their values as Python gives them (``None``: not given)."""
    out = []
    for name, value in given.items():
        if name not in KEYS or not KEYS[name].option:
            known = ", ".join(k.name for k in KEYS.values() if k.option)
            raise ConfigError(f"{name}: not a key arena.run overrides (known: {known})")
        if value is not None:
            out.append(Override(name, value, name))
    return out
