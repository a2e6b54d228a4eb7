"""The viewer shows a crashed bot's traceback in its forfeit (a real headless Chromium)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support import REPO, run_arena

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed (apt-get install chromium)"
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox"])
        yield b
        b.close()


def test_the_viewer_shows_a_crashed_bots_last_stderr_lines(browser: Any, tmp_path: Path) -> None:
    bot = tmp_path / "crasher.py"
    bot.write_text(
        "import sys\nprint('<b>start</b>', file=sys.stderr)\nraise SystemExit('boom: bad weights')\n"
    )
    greedy = f"python3 {REPO / 'bots' / 'stc' / 'greedy.py'}"
    out = tmp_path / "out"
    played = run_arena(
        "match", "stc", f"python3 {bot}", greedy, "--sandbox", "none", "--output", str(out)
    )
    assert played.returncode == 0, played.stderr
    page_file = tmp_path / "viewer.html"
    viewed = run_arena(
        "view", str(next((out / "games").iterdir()) / "replay.json"), "-o", str(page_file)
    )
    assert viewed.returncode == 0, viewed.stderr
    errors: list[str] = []
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(page_file.as_uri() + "#step=1")
    page.wait_for_selector("body[data-ready='1']", timeout=15000)
    forfeit = page.locator('.seat[data-seat="0"] .forfeit')
    assert "forfeit: crash — exited with code 1 without answering" in forfeit.inner_text()
    # The bot's own text, never markup.
    assert forfeit.locator("pre.crash-stderr").inner_text() == "<b>start</b>\nboom: bad weights"
    assert forfeit.locator("pre.crash-stderr b").count() == 0
    assert errors == []
    page.close()
