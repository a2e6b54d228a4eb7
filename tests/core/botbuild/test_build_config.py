"""Bots from source in tournament files: keys, presets, errors with file, key and line;
the build cache folder; the recipe in a game's identity."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from arena.botbuild.build import cache_root
from arena.errors import ConfigError
from arena.plugins.registry import load_registry
from arena.results.identity import bot_fingerprint, describe_changes
from arena.tournament.config import load_tournament
from support import REPO

BOTS = Path(__file__).parent / "bots"
RANDOM = REPO / "bots/stc/random_bot.py"


def load(tmp_path: Path, bots: str, extra: str = "") -> object:
    path = tmp_path / "t.yaml"
    path.write_text(f"game: stc\n{extra}bots:\n  - cmd: {RANDOM}\n{bots}")
    return load_tournament(path, load_registry())


def error(tmp_path: Path, bots: str, extra: str = "") -> str:
    with pytest.raises(ConfigError) as caught:
        load(tmp_path, bots, extra)
    return str(caught.value)


def test_a_source_picks_its_preset_and_the_file_can_change_it(tmp_path: Path) -> None:
    (tmp_path / "mine.c").write_text("int main(void) { return 0; }\n")
    config = load(
        tmp_path,
        "  - source: mine.c\n  - name: fast\n    source: mine.c\n    flags: -O3\n",
        "languages:\n  c:\n    flags: -O1 -DLOCAL\n",
    )
    bots = config.bots  # type: ignore[attr-defined]
    mine, fast = bots[1], bots[2]
    assert mine.name == "mine" and mine.recipe.language == "c"
    assert mine.recipe.shown["flags"] == "-O1 -DLOCAL"
    assert fast.recipe.shown["flags"] == "-O3"
    assert mine.files == (("mine.c", str(tmp_path / "mine.c")),)
    assert mine.recipe.digest() != fast.recipe.digest()


def test_source_mistakes_name_the_file_key_and_line(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    assert error(tmp_path, "  - source: nowhere.cpp\n") == (
        f"{path}: bots[1].source (line 4): file not found: 'nowhere.cpp'"
    )
    (tmp_path / "bot.xyz").write_text("")
    assert "bots[1].source (line 4): a file of no known language: 'bot.xyz'" in error(
        tmp_path, "  - source: bot.xyz\n"
    )
    assert "bots[1].language (line 5): unknown language 'cobol'" in error(
        tmp_path, "  - source: bot.xyz\n    language: cobol\n"
    )
    assert "bots[1] (line 4): missing key 'cmd'" in error(tmp_path, "  - build: make\n")
    assert "languages.c (line 3): unknown key 'compiler'" in error(
        tmp_path, "", "languages:\n  c:\n    compiler: gcc\n"
    )
    assert "on_build_error (line 2): must be one of stop, skip" in error(
        tmp_path, f"  - name: two\n    cmd: {RANDOM}\n", "on_build_error: maybe\n"
    )


def test_the_build_cache_is_the_users_own_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ARENA_BUILD_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    root = cache_root()
    assert root == tmp_path / "cache" / "arena" / "builds"
    for folder in (root, root.parent):
        assert stat.S_IMODE(os.lstat(folder).st_mode) == 0o700
    root.chmod(0o777)
    assert stat.S_IMODE(os.lstat(cache_root()).st_mode) == 0o700
    root.rmdir()
    os.symlink(tmp_path, root)  # a link planted in its place is refused
    monkeypatch.setenv("ARENA_BUILD_CACHE", str(root))
    with pytest.raises(ConfigError, match="not a folder of this user"):
        cache_root()


def test_a_changed_recipe_is_named_in_the_stale_message(tmp_path: Path) -> None:
    source = tmp_path / "mine.c"
    source.write_text("int main(void) { return 0; }\n")
    build = {"language": "c", "build": ["gcc {flags} ..."], "cmd": "{out}/bot", "flags": "-O2"}
    files = [("mine.c", str(source))]
    old = bot_fingerprint("mine", "{out}/bot", files, build=build)
    new = bot_fingerprint("mine", "{out}/bot", files, build={**build, "flags": "-O3"})
    assert describe_changes({"bots": [old]} | _head(), {"bots": [new]} | _head(), {"mine": 1}) == [
        'bots[1] build flags changed (was "-O2")'
    ]
    source.write_text("int main(void) { return 1; }\n")
    edited = bot_fingerprint("mine", "{out}/bot", files, build=build)
    assert describe_changes({"bots": [old]} | _head(), {"bots": [edited]} | _head(), {}) == [
        "mine.c changed since the stored games"
    ]
    assert "build" not in bot_fingerprint("py", "bot.py", [])  # command bots: as before


def _head() -> dict[str, object]:
    return {"game": "stc", "version": 1, "tournament_seed": 1, "seed": 1, "settings": {}}
