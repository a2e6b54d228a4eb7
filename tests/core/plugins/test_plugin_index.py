"""``arena match`` imports only the plugin of its game while nothing installed has
changed since the last full scan, and says the same warnings; a package installed or a
plugin's file changed since is a full scan again."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from arena.plugins import registry as plugins
from support import REPO, beyond_the_sandbox_line, count_plugin, install_plugin

MARK_IMPORT = """
with open({marker!r}, "a") as f:  # each import of this plugin leaves a line
    f.write("{module}\\n")
"""

BOT = f'{sys.executable} -c "while True: input(); print(7, flush=True)"'


def install(site: Path, dist: str, module: str, game_id: str, marker: Path) -> None:
    """The Count game as package ``dist`` (module ``module``), marking each import."""
    prelude = MARK_IMPORT.format(marker=str(marker), module=module)
    install_plugin(site, dist, module, count_plugin(game_id, prelude=prelude))


def arena_with(site: Path, cache: Path, *args: str) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join([str(site), *filter(None, [os.environ.get("PYTHONPATH")])])
    env = {**os.environ, "PYTHONPATH": path, "XDG_CACHE_HOME": str(cache)}
    env.pop("ARENA_NO_HOST_CACHE", None)
    return subprocess.run(
        [sys.executable, "-m", "arena", *args],
        capture_output=True, text=True, cwd=REPO, env=env, timeout=600,
    )  # fmt: skip


def imported(marker: Path) -> list[str]:
    lines = marker.read_text().splitlines() if marker.exists() else []
    marker.unlink(missing_ok=True)
    return lines


def test_a_match_imports_only_its_games_plugin_once_the_scan_is_indexed(tmp_path):
    site, cache, marker = tmp_path / "site", tmp_path / "cache", tmp_path / "imported"
    site.mkdir()
    install(site, "count-game", "count_game", "count", marker)
    install(site, "other-game", "other_game", "other", marker)
    first = arena_with(site, cache, "match", "count", BOT, BOT, "--sandbox", "none")
    assert first.returncode == 0, first.stderr
    assert sorted(imported(marker)) == ["count_game", "other_game"]  # the full scan
    again = arena_with(site, cache, "match", "count", BOT, BOT, "--sandbox", "none")
    assert again.returncode == 0, again.stderr
    assert imported(marker) == ["count_game"]
    assert first.stdout.splitlines()[0] == again.stdout.splitlines()[0]
    assert again.stdout.startswith("game 1 seed 1, 0 turns")
    assert beyond_the_sandbox_line(again.stderr) == beyond_the_sandbox_line(first.stderr)


def test_a_package_installed_since_the_scan_is_seen_with_its_warning(tmp_path):
    site, cache, marker = tmp_path / "site", tmp_path / "cache", tmp_path / "imported"
    site.mkdir()
    install(site, "count-game", "count_game", "count", marker)
    assert arena_with(site, cache, "match", "count", BOT, BOT, "--sandbox", "none").returncode == 0
    # A package sorted first now claims the id too: it keeps it, as a full scan says.
    install(site, "aaa-count", "aaa_count", "count", marker)
    imported(marker)
    again = arena_with(site, cache, "match", "count", BOT, BOT, "--sandbox", "none")
    assert again.returncode == 0, again.stderr
    assert sorted(imported(marker)) == ["aaa_count", "count_game"]
    assert beyond_the_sandbox_line(again.stderr) == (
        "arena: warning: game id 'count' registered by 'aaa_count' (aaa-count) and "
        "'count_game' (count-game): keeping 'aaa_count'\n"
    )


def test_an_index_is_not_used_once_a_file_it_depends_on_changed(tmp_path, monkeypatch):
    site, marker = tmp_path / "site", tmp_path / "imported"
    site.mkdir()
    install(site, "count-game", "count_game", "count_idx", marker)
    monkeypatch.syspath_prepend(str(site))
    pm = plugins.get_plugin_manager()
    index = plugins.plugin_index(pm, plugins.load_registry(pm))
    assert str(site / "count_game.py") in index["files"]
    found = plugins.registry_for("count_idx", index)
    assert found is not None and list(found.games) == ["count_idx"]
    assert plugins.registry_for("no-such-game", index) is None
    (site / "game.log").write_text("a file made beside the packages is not a package\n")
    assert plugins.registry_for("count_idx", index) is not None
    os.utime(site / "count_game.py", ns=(0, 0))  # the plugin edited since
    assert plugins.registry_for("count_idx", index) is None
    assert plugins.registry_for("count_idx", {"games": "not an index"}) is None
