"""Bots from source: a recipe per bot (from a language preset or its own ``build:``), built
once in the sandbox into a per-user cache, reused while the sources and the recipe hold.

A :class:`Recipe` is what decides a build: the language, the build steps and the run
command (as templates, see :mod:`arena.botbuild.languages`) and the source files. Its
:meth:`Recipe.digest` (the recipe, each source's content, the compilers' files) names the
build's folder in the cache (:func:`cache_root`), so a later run with the same sources finds
the result there. :func:`build` runs the steps in that folder, in the bots' sandbox, with a
time and a memory cap; a step that fails, hangs or runs out of memory is a
:class:`BuildFailed` carrying the compiler's first lines.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import functools
import hashlib
import json
import os
import re
import shlex
import shutil
import stat
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.botbuild.languages import PRESET_KEYS, PRESETS
from arena.botproc import cgroups
from arena.botproc.homes import private_folder, remove_tree
from arena.botproc.sandboxes.base import FILE_SIZE_CAP_BYTES, SYSTEM_DIRS, Sandbox
from arena.botproc.sandboxes.registry import backend_of
from arena.botproc.spawn import spawn
from arena.errors import ConfigError
from arena.limits import BUILD_MEMORY_MB, BUILD_TIMEOUT_S

CACHE_ENV = "ARENA_BUILD_CACHE"
"""Environment variable naming the build cache (default: ``$XDG_CACHE_HOME/arena/builds``)."""
BUILD_MAX_PROCESSES = 1024
"""Processes and threads a build may run at once (compilers start many)."""
FIRST_LINES = 12
"""Lines of the compiler's output a build error shows."""
MAX_SOURCE_FILES = 2000
"""Most files a folder source may hold."""
PLACEHOLDER = re.compile(r"\{(source|sources|dir|out|name|flags|main|package)\}")


class RecipeError(ConfigError):
    """A bot's source or build that cannot be used as given; ``key`` names the bot's key
    at fault (``source``, ``language``, ``build``, ``cmd``, ``flags``)."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key
        self.message = message


class BuildFailed(ConfigError):
    """A build that failed: ``why`` (exit code, time cap...), the command, its first lines."""

    def __init__(self, why: str, command: str, output: str) -> None:
        self.why, self.command, self.output = why, command, output
        super().__init__(self.text())

    def text(self) -> str:
        """The report: what failed, then the compiler's first lines, indented."""
        lines = [f"{self.why}: {self.command}"]
        lines += [f"    {line}" for line in first_lines(self.output)]
        return "\n".join(lines)


@dataclass(frozen=True)
class Recipe:
    """How one bot is built and run.

    ``sources``: (word as written, absolute path) of each source file or folder, the main
    one first; ``steps`` and ``cmd`` are templates whose only placeholder left is
    ``{out}``; ``shown`` are the same before their source placeholders were filled (what
    the game identity keeps: no machine's paths in it).
    """

    language: str
    sources: tuple[tuple[str, str], ...]
    steps: tuple[tuple[str, ...], ...]
    cmd: tuple[str, ...]
    shown: Mapping[str, Any]

    @property
    def main(self) -> str:
        """The main source as written (a custom build without sources: its command)."""
        return self.sources[0][0] if self.sources else str(self.shown["cmd"])

    def identity(self) -> dict[str, Any]:
        """What the game identity keeps of the recipe (sources are hashed beside it)."""
        return {"language": self.language, **self.shown}

    def digest(self) -> str:
        """The hash naming this build in the cache: recipe, sources' content, compilers."""
        h = hashlib.sha256()
        h.update(json.dumps([self.language, self.steps, self.cmd]).encode())
        for _, path in self.sources:
            h.update(f"\0{os.path.basename(path)}\0".encode())
            _hash_tree(path, h)
        for program in dict.fromkeys(step[0] for step in self.steps):
            found = shutil.which(program) if "/" not in program else program
            if found:
                real = os.path.realpath(found)
                with contextlib.suppress(OSError):
                    st = os.stat(real)
                    h.update(f"\0{real}:{st.st_size}:{st.st_mtime_ns}".encode())
        return h.hexdigest()[:32]


@dataclass(frozen=True)
class Built:
    """A built bot: the command that runs it, its folder, whether it came from the cache,
    and how long the build took (0 when cached)."""

    argv: tuple[str, ...]
    out: Path
    cached: bool
    seconds: float


# -- presets ------------------------------------------------------------------------------


def merge_presets(extra: Mapping[str, Mapping[str, Any]] | None) -> dict[str, dict[str, Any]]:
    """The built-in presets with a tournament's ``languages:`` over them (a known name
    is updated key by key; a new one is added and tried first for its extensions)."""
    merged = {name: dict(p) for name, p in PRESETS.items()}
    for name, preset in (extra or {}).items():
        if name in merged:
            merged[name].update(preset)
        else:
            merged = {name: dict(preset), **merged}
    return merged


def check_preset(preset: Any) -> str | None:
    """Why a ``languages:`` entry is not a usable preset (None when it is)."""
    if not isinstance(preset, dict):
        return "must be a mapping of " + ", ".join(PRESET_KEYS)
    for key, value in preset.items():
        if key not in PRESET_KEYS:
            return f"unknown key {key!r} (known: {', '.join(PRESET_KEYS)})"
        if key == "extensions":
            if not isinstance(value, list) or not all(
                isinstance(e, str) and e.startswith(".") for e in value
            ):
                return "extensions: must be a list of endings like .cpp"
        elif key == "build":
            if not (isinstance(value, str) or _string_list(value)):
                return "build: must be a command or a list of commands"
        elif not isinstance(value, str):
            return f"{key}: must be text, not {value!r}"
    return None


def _string_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def missing_programs(preset: Mapping[str, Any]) -> list[str]:
    """The programs a preset's build steps and command run that are not installed."""
    words = []
    for command in [*_steps_of(preset.get("build")), preset.get("cmd") or ""]:
        try:
            argv = shlex.split(command)
        except ValueError:
            continue
        if argv and not PLACEHOLDER.search(argv[0]) and "/" not in argv[0]:
            words.append(argv[0])
    return [w for w in dict.fromkeys(words) if shutil.which(w) is None]


def usable(preset: Mapping[str, Any]) -> bool:
    """Whether this machine can build and run with ``preset``: its programs are
    installed and its ``probe`` command, if any, succeeds."""
    if missing_programs(preset):
        return False
    probe = preset.get("probe")
    return not probe or _probe(probe)


@functools.lru_cache(maxsize=32)
def _probe(command: str) -> bool:
    try:
        argv = shlex.split(command)
        done = subprocess.run(argv, capture_output=True, timeout=30, stdin=subprocess.DEVNULL)
    except (OSError, ValueError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def language_of(path: Path, presets: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The presets that claim ``path`` (a file by its ending, a folder by its marker file
    or the endings of its files), in the order they are tried."""
    if path.is_dir():
        marked = [
            n for n, p in presets.items() if p.get("marker") and (path / p["marker"]).exists()
        ]
        if marked:
            return marked
        endings = {f.suffix for f in _tree_files(path)}
        return [
            n
            for n, p in presets.items()
            if not p.get("marker") and endings & set(p.get("extensions", []))
        ]
    return [n for n, p in presets.items() if path.suffix in p.get("extensions", [])]


def known_extension(word: str, presets: Mapping[str, Mapping[str, Any]] | None = None) -> bool:
    """Whether ``word`` ends like a source file some preset builds or runs."""
    table = PRESETS if presets is None else presets
    return any(word.endswith(tuple(p.get("extensions", []))) for p in table.values())


def choose_preset(
    path: Path, language: str | None, presets: Mapping[str, Mapping[str, Any]]
) -> tuple[str, dict[str, Any]]:
    """The preset for a source: ``language`` if given, else the first usable one that
    claims the file; :class:`RecipeError` naming what to install when none is."""
    if language is not None:
        if language not in presets:
            raise RecipeError(
                "language", f"unknown language {language!r} (known: {', '.join(presets)})"
            )
        preset = dict(presets[language])
        missing = missing_programs(preset)
        if missing:
            raise RecipeError("language", _needs(language, preset, missing))
        return language, preset
    names = language_of(path, presets)
    if not names:
        endings = sorted({e for p in presets.values() for e in p.get("extensions", [])})
        what = "a folder without a known marker or source files" if path.is_dir() else "a file"
        raise RecipeError(
            "source",
            f"{what} of no known language: {path.name!r} (known endings: {' '.join(endings)}; "
            "or give `language:`, or `build:` and `cmd:`)",
        )
    for name in names:
        if usable(presets[name]):
            return name, dict(presets[name])
    needs = "; or ".join(_needs(n, presets[n], missing_programs(presets[n])) for n in names)
    raise RecipeError("source", f"cannot build {path.name!r} here: {needs}")


def _needs(name: str, preset: Mapping[str, Any], missing: list[str]) -> str:
    hint = preset.get("install")
    what = ", ".join(missing) if missing else f"`{preset.get('probe')}` to work"
    return f"{name} needs {what}" + (f" ({hint})" if hint else "")


def _steps_of(build: Any) -> list[str]:
    if build is None:
        return []
    return [build] if isinstance(build, str) else list(build)


# -- recipes ------------------------------------------------------------------------------


def make_recipe(
    source: str | Sequence[str] | None,
    base: Path,
    *,
    language: str | None = None,
    build: str | Sequence[str] | None = None,
    cmd: str | None = None,
    flags: str | None = None,
    presets: Mapping[str, Mapping[str, Any]] | None = None,
) -> Recipe:
    """The recipe of one bot from its ``source``, ``language``, ``build``, ``cmd`` and
    ``flags`` (any given over the preset's). Relative paths are found in the current
    folder, else in ``base`` (the tournament file's folder). Without ``source``, the
    sources are the files the ``build`` command names. Raises :class:`RecipeError`."""
    table = merge_presets(None) if presets is None else dict(presets)
    sources: list[tuple[str, str]] = []
    words = [source] if isinstance(source, str) else list(source or [])
    for word in words:
        found = _existing(word, base)
        if found is None:
            raise RecipeError("source", f"file not found: {word!r}")
        sources.append((word, os.path.abspath(found)))
    preset: dict[str, Any] = {}
    name = "custom"
    if sources:
        name, preset = choose_preset(Path(sources[0][1]), language, table)
    elif language is not None:
        raise RecipeError("language", "needs `source:` (the file to build)")
    if build is not None:
        preset["build"] = build
    if cmd is not None:
        preset["cmd"] = cmd
    if flags is not None:
        preset["flags"] = flags
    if not preset.get("cmd"):
        raise RecipeError("cmd", "missing: the command that runs the built bot (e.g. `{out}/bot`)")
    steps_text = _steps_of(preset.get("build"))
    if not sources:
        sources = _named_sources(steps_text, base)
    all_files = _expand_sources(sources, preset)
    first = Path(sources[0][1]) if sources else base
    values = {
        "source": [sources[0][1]] if sources else [],
        "sources": all_files,
        "dir": [str(first if first.is_dir() else first.parent)],
        "name": [first.stem],
        "flags": _split(preset.get("flags") or "", "flags"),
    }
    key = (
        "build"
        if build is not None or not sources
        else ("source" if language is None else "language")
    )
    steps = tuple(
        _fill(_split(text, "build"), values, all_files, key) for text in steps_text if text.strip()
    )
    run = _fill(_split(preset["cmd"], "cmd"), values, all_files, "cmd" if cmd else "source")
    if not run:
        raise RecipeError("cmd", "empty command")
    for step in steps:
        if "/" not in step[0] and "{" not in step[0] and shutil.which(step[0]) is None:
            raise RecipeError("build", f"command not found: {step[0]!r}")
    if "/" not in run[0] and "{" not in run[0] and shutil.which(run[0]) is None:
        raise RecipeError("cmd", f"command not found: {run[0]!r}")
    shown = {
        "build": steps_text,
        "cmd": preset["cmd"],
        "flags": preset.get("flags") or "",
    }
    return Recipe(name, tuple(sources), steps, tuple(run), shown)


def _split(text: str, key: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError as exc:
        raise RecipeError(key, f"cannot split {text!r}: {exc}") from None


def _fill(
    words: list[str], values: dict[str, list[str]], files: list[str], key: str
) -> tuple[str, ...]:
    """Replace every placeholder but ``{out}``; a word that is exactly ``{sources}`` or
    ``{flags}`` becomes several words."""
    out: list[str] = []
    for word in words:
        if word in ("{sources}", "{flags}"):
            out += values[word[1:-1]]
            continue

        def one(match: re.Match[str]) -> str:
            name = match.group(1)
            if name == "out":
                return match.group(0)
            if name == "main":
                return _java_main(files, key)
            if name == "package":
                return _cargo_binary(values["dir"][0], key)
            return " ".join(values[name])

        out.append(PLACEHOLDER.sub(one, word))
    return tuple(out)


def _existing(word: str, base: Path) -> Path | None:
    for path in (Path(word), base / word):
        try:
            if path.exists():
                return path
        except OSError:
            return None
    return None


def _named_sources(steps: list[str], base: Path) -> list[tuple[str, str]]:
    """The files and folders a custom ``build`` names (the words without placeholders
    that exist, after the program): what decides the build besides the command."""
    found: list[tuple[str, str]] = []
    for text in steps:
        for word in _split(text, "build")[1:]:
            if word.startswith("-") or PLACEHOLDER.search(word):
                continue
            path = _existing(word, base)
            if path is not None:
                found.append((word, os.path.abspath(path)))
    return list(dict.fromkeys(found))


def _expand_sources(sources: list[tuple[str, str]], preset: Mapping[str, Any]) -> list[str]:
    """Every source file: files as given, folders as the files in them with the preset's
    endings (all their files when the preset has a marker or no endings)."""
    endings = tuple(preset.get("extensions") or ())
    out: list[str] = []
    for _, path in sources:
        if os.path.isdir(path):
            files = _tree_files(Path(path))
            out += [
                str(f)
                for f in files
                if preset.get("marker") or not endings or f.name.endswith(endings)
            ]
        else:
            out.append(path)
    return out


def _tree_files(folder: Path) -> list[Path]:
    files: list[Path] = []
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(
            d for d in dirs if not d.startswith(".") and d not in ("target", "bin", "obj")
        )
        files += [Path(root) / n for n in sorted(names) if not n.startswith(".")]
        if len(files) > MAX_SOURCE_FILES:
            raise RecipeError("source", f"{folder}: more than {MAX_SOURCE_FILES} files")
    return files


def _java_main(files: list[str], key: str) -> str:
    """The class (with its package) whose body declares ``static void main``."""
    for path in files:
        try:
            text = Path(path).read_text(errors="replace")
        except OSError:
            continue
        text = re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.DOTALL)
        found = re.search(r"\bstatic\s+(?:final\s+)?(?:public\s+)?void\s+main\s*\(", text)
        if found is None:
            found = re.search(r"\bpublic\s+static\s+void\s+main\s*\(", text)
        if found is None:
            continue
        classes = list(
            re.finditer(r"\b(?:class|record|enum|interface)\s+(\w+)", text[: found.start()])
        )
        if not classes:
            continue
        package = re.search(r"^\s*package\s+([\w.]+)\s*;", text, re.MULTILINE)
        name = classes[-1].group(1)
        return f"{package.group(1)}.{name}" if package else name
    raise RecipeError(key, "no class declares `static void main` in the Java sources")


def _cargo_binary(folder: str, key: str) -> str:
    import tomllib

    try:
        data = tomllib.loads(Path(folder, "Cargo.toml").read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise RecipeError(key, f"cannot read {folder}/Cargo.toml: {exc}") from None
    bins = data.get("bin") or []
    if bins and isinstance(bins[0], dict) and "name" in bins[0]:
        return str(bins[0]["name"])
    name = data.get("package", {}).get("name")
    if not isinstance(name, str):
        raise RecipeError(key, f"{folder}/Cargo.toml names no package")
    return name


def _hash_tree(path: str, h: Any) -> None:
    paths = [Path(path)] if not os.path.isdir(path) else _tree_files(Path(path))
    for f in paths:
        h.update(f"\0{os.path.relpath(f, path)}\0".encode())
        try:
            h.update(f.read_bytes())
        except OSError as exc:
            h.update(f"unreadable: {exc.strerror}".encode())


# -- the cache ----------------------------------------------------------------------------


def cache_root() -> Path:
    """The build cache: ``$ARENA_BUILD_CACHE``, else ``$XDG_CACHE_HOME/arena/builds``
    (``~/.cache/arena/builds``), else a folder of this user in the temporary folder.

    The folder and its ``arena`` parent are this user's own, mode 0700, never a link.
    """
    given = os.environ.get(CACHE_ENV)
    if given:
        return _own_folder(Path(given))
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    try:
        root = Path(xdg)
        root.mkdir(parents=True, exist_ok=True, mode=0o700)
        _own_folder(root / "arena")
        return _own_folder(root / "arena" / "builds")
    except (OSError, ConfigError):
        return _own_folder(Path(tempfile.gettempdir()) / f"arena-builds-{os.getuid()}")


def _own_folder(path: Path) -> Path:
    if not private_folder(path):
        raise ConfigError(f"{path} is not a folder of this user: refusing to build bots in it")
    return path


# -- building -----------------------------------------------------------------------------


def build(
    recipe: Recipe,
    sandbox: Sandbox,
    timeout_s: float = BUILD_TIMEOUT_S,
    memory_mb: int | None = BUILD_MEMORY_MB,
    cache: Path | None = None,
) -> Built:
    """Build ``recipe`` into its cache folder (or find it built there) and return the
    command that runs it. Raises :class:`BuildFailed`."""
    if not recipe.steps:  # an interpreted language: nothing to build, nothing to cache
        return Built(recipe.cmd, Path(recipe.sources[0][1]).parent, True, 0.0)
    root = cache or cache_root()
    digest = recipe.digest()
    out = root / digest
    with open(root / f"{digest}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another run building the same: wait for it
        done = out / "build.json"
        argv = _fill_out(recipe.cmd, out)
        if done.is_file() and not done.is_symlink():
            return Built(argv, out, True, 0.0)
        if out.exists() or out.is_symlink():
            remove_tree(out)  # a build that was killed half-way
        out.mkdir(mode=0o755)
        started = time.monotonic()
        try:
            _run_steps(recipe, out, sandbox, timeout_s, memory_mb)
        except BaseException:
            remove_tree(out)
            raise
        finally:
            _own_and_readable(out)
        seconds = time.monotonic() - started
        program = argv[0]
        if os.path.isabs(program) and not os.path.isfile(program):
            remove_tree(out)
            raise BuildFailed("the build made no program to run", program, "")
        record = {"language": recipe.language, "sources": recipe.sources, "cmd": argv, "s": seconds}
        done.write_text(json.dumps(record, indent=1) + "\n")
        return Built(argv, out, False, seconds)


def _fill_out(words: Sequence[str], out: Path) -> tuple[str, ...]:
    return tuple(w.replace("{out}", str(out)) for w in words)


def _run_steps(
    recipe: Recipe, out: Path, sandbox: Sandbox, timeout_s: float, memory_mb: int | None
) -> None:
    found = cgroups.parents()
    capped = memory_mb if found is not None and found.memory is not None else None
    # Without a memory cgroup the cap would be the address space, which JVMs, Go and
    # Mono reserve by gigabytes without using: builds then go uncapped.
    box = dataclasses.replace(
        sandbox, memory_mb=capped, max_processes=BUILD_MAX_PROCESSES, build=True
    )
    backend = backend_of(box)
    ids = backend.bot_ids(box)
    if ids is not None:
        os.chown(out, *ids)
    deadline = time.monotonic() + timeout_s
    log_path = out / "build.log"
    for step in recipe.steps:
        argv = list(_fill_out(step, out))
        argv[0] = find_program(argv[0], backend.system_programs_first)
        command = shlex.join([step[0], *argv[1:]])  # the real paths, as it ran
        with open(log_path, "ab") as log:
            proc = spawn(
                argv, out, box, subprocess.DEVNULL, log.fileno(), log.fileno(), FILE_SIZE_CAP_BYTES
            )
            try:
                code = proc.proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                code = None
            oom = proc.oom_kills()
            proc.kill()
        output = _read_start(log_path)
        if code is None:
            why = f"the build did not finish within {timeout_s:g} s (build_timeout_s): killed"
            raise BuildFailed(why, command, output)
        if oom:
            raise BuildFailed(
                f"the build was killed by its memory cap ({capped} MiB, build_memory_mb)",
                command,
                output,
            )
        if code != 0:
            why = f"exit code {code}" if code > 0 else f"killed by signal {-code}"
            raise BuildFailed(f"the build failed ({why})", command, output)


def find_program(name: str, system_first: bool) -> str:
    """A build step's program as an absolute path. In a sandbox that shows only the system
    folders (``system_first``: bubblewrap's), a copy there wins over one earlier in
    ``PATH`` (``~/.cargo``)."""
    if "/" in name:
        return name
    candidates = []
    for folder in os.environ.get("PATH", os.defpath).split(os.pathsep):
        path = os.path.join(folder or ".", name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            candidates.append(os.path.abspath(path))
    if not candidates:
        return name
    if system_first:
        for path in candidates:
            if any(path.startswith(d + "/") for d in SYSTEM_DIRS):
                return path
    return candidates[0]


def _read_start(path: Path, limit: int = 64 * 1024) -> str:
    try:
        with open(path, "rb") as f:
            return f.read(limit).decode(errors="replace")
    except OSError:
        return ""


def first_lines(output: str, count: int = FIRST_LINES) -> list[str]:
    """The first non-blank lines of a compiler's output, each cut to 200 characters."""
    lines = [line.rstrip()[:200] for line in output.splitlines() if line.strip()]
    if len(lines) > count:
        return [*lines[:count], f"... ({len(lines) - count} more lines)"]
    return lines


def _own_and_readable(out: Path) -> None:
    """After a build (perhaps as nobody): everything arena's user's, nobody's to read
    (bots may run as nobody), no one else's to write."""
    uid, gid = os.getuid(), os.getgid()
    for root, dirs, files in os.walk(out):
        for name in [*dirs, *files, None]:
            path = root if name is None else os.path.join(root, name)
            with contextlib.suppress(OSError):
                st = os.lstat(path)
                if stat.S_ISLNK(st.st_mode):
                    continue
                if st.st_uid != uid and uid == 0:
                    os.chown(path, uid, gid)
                if stat.S_ISDIR(st.st_mode):
                    os.chmod(path, 0o755)
                else:
                    execute = 0o111 if st.st_mode & stat.S_IXUSR else 0
                    os.chmod(path, 0o644 | execute)
