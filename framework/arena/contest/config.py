"""Contest files: the ``contest:`` mapping ``arena serve`` reads, checked before anything starts.

Every problem is a :class:`~arena.errors.ConfigError` naming the file, the key path and the
line, as tournament files' are (``contest.yaml: contest.bosses[0] (line 9): command not
found: 'pyhton3'``), exit code 2. A contest's league is an ordinary tournament: the server
writes ``OUTPUT/tournament.yaml`` (:meth:`ContestConfig.tournament`, ``format: contest``, the
bosses as its bots) and runs it; participants' versions join it through ``roster.json``.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from arena.botbuild.languages import PRESETS
from arena.botproc.commands import bot_file, default_names, resolve_command, resolve_path
from arena.errors import ConfigError, UnknownGame
from arena.tournament.config import (
    LocatedYaml,
    bot_name_problem,
    compose_yaml,
    game_settings,
    read_text,
)
from arena.tournament.keys import KEYS

if TYPE_CHECKING:
    from arena.plugins.registry import Registry

SignUp = Literal["invite", "approve"]
SIGN_UPS: tuple[SignUp, ...] = ("invite", "approve")
CONTEST_KEYS = (
    "name",
    "game",
    "settings",
    "output",
    "languages",
    "max_upload_kb",
    "uploads_per_hour",
    "keep_versions",
    "sign_up",
    "organisers",
    "invite",
    "bosses",
    "final_games",
    "public_url",
    "league",
)
REQUIRED = ("game", "organisers")
LEAGUE_OWN = ("name", "game", "settings", "format", "bots", "output", "languages")
"""Tournament keys a contest sets itself: ``league:`` may not give them."""
MAX_PERSON = 64
"""Longest organiser or invited person (a name or an e-mail address), in characters."""
PERSON = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ._@+'-]*")
"""What a person of ``organisers`` or ``invite`` may be written as: a name or an e-mail."""
TOURNAMENT_NAME = "tournament.yaml"
"""The league's tournament file, written by the server into the contest's output folder."""


@dataclass(frozen=True)
class Boss:
    """A shipped bot every participant meets: its league name and command (absolute paths)."""

    name: str
    cmd: str


@dataclass(frozen=True)
class ContestConfig:
    """A checked contest file (:func:`load_contest`)."""

    path: Path
    name: str
    game: str
    settings: dict[str, Any]
    output: Path
    languages: tuple[str, ...]
    organisers: tuple[str, ...]
    invite: tuple[str, ...] = ()
    bosses: tuple[Boss, ...] = ()
    max_upload_kb: int = 100
    uploads_per_hour: int = 20
    keep_versions: int = 3
    sign_up: SignUp = "invite"
    final_games: int = 10
    public_url: str | None = None  # https://contest.example.org/ behind a TLS proxy
    league: dict[str, Any] = field(default_factory=dict)

    @property
    def max_upload_bytes(self) -> int:
        """The largest upload accepted, in bytes."""
        return self.max_upload_kb * 1024

    @property
    def tournament_path(self) -> Path:
        """Where the league's tournament file goes: ``OUTPUT/tournament.yaml``."""
        return self.output / TOURNAMENT_NAME

    def tournament(self) -> dict[str, Any]:
        """The league's tournament file, as data: ``format: contest``, the bosses as bots
        (weakest first), the settings and ``league:``'s keys."""
        return {
            "name": self.name,
            "game": self.game,
            "format": "contest",
            "settings": dict(self.settings),
            "output": str(self.output.resolve()),
            **self.league,
            "bots": [{"name": b.name, "cmd": b.cmd} for b in self.bosses],
        }

    def write_tournament(self) -> Path:
        """Write :meth:`tournament` to ``OUTPUT/tournament.yaml`` (the output folder exists)."""
        import yaml

        path = self.tournament_path
        text = "# Written by arena serve from " + str(self.path.resolve()) + ": edit that file.\n"
        text += yaml.safe_dump(self.tournament(), sort_keys=False, allow_unicode=True)
        tmp = path.with_suffix(".yaml.tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
        return path


def is_contest_file(path: Path) -> bool:
    """Whether ``path`` is a YAML file whose top-level mapping has the key ``contest``
    (a tournament file never has it). Unreadable or broken files are not contest files:
    the tournament file's loader then says what is wrong with them."""
    import yaml

    try:
        node = compose_yaml(read_text(path), path)
    except ConfigError:
        return False
    if not isinstance(node, yaml.MappingNode):
        return False
    return any(getattr(k, "value", None) == "contest" for k, _ in node.value)


def load_contest(path: Path, registry: Registry) -> ContestConfig:
    """Read and check a contest file; :class:`ConfigError` on the first problem."""
    import yaml

    doc = LocatedYaml(path)
    node = compose_yaml(read_text(path), path)
    if node is None:
        raise ConfigError(f"{path}: empty file")
    if not isinstance(node, yaml.MappingNode):
        raise ConfigError(f"{path} (line {node.start_mark.line + 1}): expected a mapping of keys")
    top = doc.build(node, "")
    for key in top:
        if key != "contest":
            raise doc.error(key, "unknown key (a contest file holds one key: contest)")
    data = top["contest"]
    if not isinstance(data, dict):
        raise doc.error("contest", "must be a mapping of the contest's keys")
    for key in data:
        if key not in CONTEST_KEYS:
            raise doc.error(
                f"contest.{key}", "unknown key (known: " + ", ".join(CONTEST_KEYS) + ")"
            )
    for key in REQUIRED:
        if key not in data:
            raise doc.error("contest", f"missing key {key!r}")
    return _checked(doc, data, path, registry)


def _error(doc: LocatedYaml, key: str, message: str) -> ConfigError:
    return doc.error(f"contest.{key}", message)


def _checked(
    doc: LocatedYaml, data: dict[str, Any], path: Path, registry: Registry
) -> ContestConfig:
    """The contest's keys checked one by one, in the order of :data:`CONTEST_KEYS`."""

    def error(key: str, message: str) -> ConfigError:
        return _error(doc, key, message)

    game_id = data["game"]
    if not isinstance(game_id, str):
        raise error("game", f"must be a game id, not {game_id!r}")
    try:
        game_cls = registry.get(game_id)
    except UnknownGame as exc:
        raise error("game", str(exc)) from None
    settings = data.get("settings") or {}
    if not isinstance(settings, dict):
        raise error("settings", "must be a mapping of game settings")
    game_settings(game_cls, settings, error)  # checked; the file's own values are written
    name = data.get("name", path.stem)
    if not isinstance(name, str) or not name.strip() or not name.isprintable():
        raise error("name", f"must be printable text, not {name!r}")
    output = resolve_path(str(data.get("output", Path("out") / path.stem)), path.parent)
    organisers = _people(doc, data, "organisers", required=True)
    invite = _people(doc, data, "invite")
    for i, person in enumerate(invite):
        if person.casefold() in {o.casefold() for o in organisers}:
            raise error(f"invite[{i}]", f"{person!r} is an organiser already")
    sign_up = data.get("sign_up", "invite")
    if sign_up not in SIGN_UPS:
        raise error("sign_up", f"must be one of {', '.join(SIGN_UPS)}, not {sign_up!r}")
    return ContestConfig(
        path=path,
        name=name,
        game=game_cls.info.id,
        settings=dict(settings),
        output=output,
        languages=_languages(doc, data),
        organisers=organisers,
        invite=invite,
        bosses=_bosses(doc, data.get("bosses"), path.parent),
        max_upload_kb=_positive(doc, data, "max_upload_kb", 100, 10_240),
        uploads_per_hour=_positive(doc, data, "uploads_per_hour", 20, 10_000),
        keep_versions=_positive(doc, data, "keep_versions", 3, 100),
        sign_up=sign_up,
        final_games=_positive(doc, data, "final_games", 10, 10_000),
        public_url=_public_url(doc, data.get("public_url")),
        league=_league(doc, data.get("league")),
    )


def _positive(doc: LocatedYaml, data: dict[str, Any], key: str, default: int, most: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= most:
        raise _error(doc, key, f"must be a whole number from 1 to {most}, not {value!r}")
    return value


def _people(
    doc: LocatedYaml, data: dict[str, Any], key: str, required: bool = False
) -> tuple[str, ...]:
    """A list of people (names or e-mail addresses), each once (whatever its case)."""
    raw = data.get(key, [])
    if not isinstance(raw, list) or (required and not raw):
        what = "a non-empty list" if required else "a list"
        raise _error(doc, key, f"must be {what} of names or e-mail addresses")
    seen: set[str] = set()
    for i, person in enumerate(raw):
        where = f"{key}[{i}]"
        if not isinstance(person, str):
            raise _error(doc, where, f"must be a name or an e-mail address, not {person!r}")
        if len(person) > MAX_PERSON or not PERSON.fullmatch(person):
            raise _error(
                doc,
                where,
                f"a name or e-mail address of at most {MAX_PERSON} letters, digits, spaces "
                f"and ._@+'- (starting with a letter or digit), not {person!r}",
            )
        if person.casefold() in seen:
            raise _error(doc, where, f"{person!r} given twice")
        seen.add(person.casefold())
    return tuple(raw)


def _languages(doc: LocatedYaml, data: dict[str, Any]) -> tuple[str, ...]:
    """The languages participants may upload: keys of the build presets (docs/languages.md)."""
    raw = data.get("languages", ["python", "cpp"])
    if not isinstance(raw, list) or not raw:
        raise _error(doc, "languages", "must be a non-empty list of languages, e.g. [python, cpp]")
    for i, lang in enumerate(raw):
        if not isinstance(lang, str) or lang not in PRESETS:
            known = ", ".join(PRESETS)
            raise _error(doc, f"languages[{i}]", f"unknown language {lang!r} (known: {known})")
    if len(set(raw)) != len(raw):
        raise _error(doc, "languages", "a language given twice")
    return tuple(raw)


def _bosses(doc: LocatedYaml, raw: Any, base: Path) -> tuple[Boss, ...]:
    """The bosses, weakest first: commands (or bot files) as in a tournament file's
    ``cmd``, or mappings ``{name, cmd}``; their paths made absolute (the league's file
    lives in the output folder)."""
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise _error(doc, "bosses", "must be a list of bot commands, weakest first")
    given: list[str | None] = []
    argvs: list[tuple[str, ...]] = []
    for i, item in enumerate(raw):
        where = f"bosses[{i}]"
        name = None
        if isinstance(item, dict):
            unknown = set(item) - {"name", "cmd"}
            if unknown or "cmd" not in item:
                raise _error(doc, where, "must be a command, or a mapping {name, cmd}")
            name, item = item.get("name"), item["cmd"]
            where += ".cmd"
            if name is not None:
                why = bot_name_problem(name) if isinstance(name, str) else "must be text"
                if why is not None:
                    raise _error(doc, f"bosses[{i}].name", why)
        if not isinstance(item, str):
            raise _error(doc, where, f"must be a command line, not {item!r}")
        argv = resolve_command(item, base)
        if isinstance(argv, str):
            raise _error(doc, where, argv)
        given.append(name)
        argvs.append(argv)
    names = default_names(given, [bot_file(a) for a in argvs])
    if len(set(names)) != len(names):
        raise _error(doc, "bosses", "two bosses with one name (give them a `name`)")
    return tuple(Boss(n, shlex.join(a)) for n, a in zip(names, argvs, strict=True))


def _public_url(doc: LocatedYaml, raw: Any) -> str | None:
    """The address people open (behind a reverse proxy): ``http(s)://host[:port]/``."""
    from urllib.parse import urlsplit

    if raw is None:
        return None
    parts = urlsplit(raw) if isinstance(raw, str) else None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise _error(doc, "public_url", f"must be an http(s) address, not {raw!r}")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise _error(doc, "public_url", "a site's address with no path (a contest is served at /)")
    return f"{parts.scheme}://{parts.netloc}/"


def _league(doc: LocatedYaml, raw: Any) -> dict[str, Any]:
    """More keys of the league's tournament file (``concurrency``, ``sandbox``,
    ``executor``...), each checked as a tournament file's (docs/tournaments.md)."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise _error(doc, "league", "must be a mapping of tournament keys")
    for key, value in raw.items():
        where = f"league.{key}"
        if key in LEAGUE_OWN:
            raise _error(doc, where, "set by the contest itself (a key of contest:)")
        if key not in KEYS:
            raise _error(doc, where, "unknown tournament key (see docs/tournaments.md)")
        if (why := KEYS[key].problem(value)) is not None:
            raise _error(doc, where, why)
    return dict(raw)
