"""A bot built from source shows its source and its build log on its page: the log's text
escaped, the build's folder read as ``OUTPUT`` and the home folder as ``~`` (the real run,
the real compiler, the real server)."""

from __future__ import annotations

import html
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from arena.botbuild.build import missing_programs
from arena.botbuild.languages import PRESETS
from arena.web.buildlog import MAX_LOG_BYTES, build_shown
from core.web.conftest import Server, shipped
from support import REPO, run_arena

WARNING = "built <b>here</b> & now"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """(the output folder, the home folder, the build cache) of a round-robin of a C bot,
    whose build warns, against a shipped bot; its source under the home folder."""
    if missing_programs(PRESETS["c"]):
        pytest.skip("no C compiler")
    home = tmp_path_factory.mktemp("home")
    source = (REPO / "tests/core/botbuild/bots/stc_bot.c").read_text()
    (home / "bots").mkdir()
    (home / "bots" / "warns.c").write_text(f'#warning "{WARNING}"\n{source}')
    cache = home / ".cache-builds"
    lines = [
        "name: built",
        "game: stc",
        "games: 2",
        "seed: 1",
        "settings:",
        "  max_turns: 10",
        "bots:",
        "  - source: bots/warns.c",
        "  - name: greedy",
        f"    cmd: {json.dumps(shipped('greedy.py'))}",
        f"output: {json.dumps(str(home / 'out'))}",
    ]
    (home / "t.yaml").write_text("\n".join(lines) + "\n")
    env = {"HOME": str(home), "ARENA_BUILD_CACHE": str(cache)}
    done = run_arena("run", str(home / "t.yaml"), "--no-progress", env=env)
    assert done.returncode == 0, done.stderr
    return home / "out", home, cache


def test_the_bot_page_shows_the_build_log(
    built: tuple[Path, Path, Path], serve: Callable[..., Server], monkeypatch: pytest.MonkeyPatch
) -> None:
    output, home, cache = built
    monkeypatch.setenv("HOME", str(home))  # the server's home (it inherits this process's)
    server = serve(str(output))
    status, body = server.get("bots/warns")
    assert status == 200
    assert '<p id="build-source">c, from <code>bots/warns.c</code></p>' in body
    log = body.split('<pre id="build-log" class="log">', 1)[1].split("</pre>", 1)[0]
    # gcc names the source as the build gave it: under the home folder, shown from ~
    assert f"~/bots/warns.c:1:2: warning: #warning &#34;{html.escape(WARNING, quote=False)}" in log
    assert "<b>" not in body.split('id="build-log"', 1)[1].split("</pre>", 1)[0]
    assert str(home) not in body and str(cache) not in body
    # The shipped bot runs by its command: no build section.
    _, body = server.get("bots/greedy")
    assert 'id="build-source"' not in body


def test_the_log_is_bounded_and_a_missing_one_said(tmp_path: Path) -> None:
    folder = tmp_path / "b"
    folder.mkdir()
    (folder / "build.log").write_text(f"{folder}/bot.c: x\n" + "y" * (2 * MAX_LOG_BYTES))
    meta = {"builds": {"me": {"language": "c", "source": "me.c", "folder": str(folder)}}}
    shown = build_shown(meta, "me")
    assert shown is not None
    assert shown.log.startswith("OUTPUT/bot.c: x\ny")
    assert len(shown.log) == MAX_LOG_BYTES - len(str(folder)) + len("OUTPUT")
    assert shown.cut == len(str(folder)) + 10 + MAX_LOG_BYTES
    shutil.rmtree(folder)
    gone = build_shown(meta, "me")
    assert gone is not None and gone.log == "" and "build log is gone" in gone.note
    assert build_shown(meta, "other") is None and build_shown({}, "me") is None
