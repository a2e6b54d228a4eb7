"""The viewer in a real browser: Debian's Chromium, headless, driven by Playwright."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from support import run_arena

CHROMIUM = Path("/usr/bin/chromium")
"""Debian's chromium (package ``chromium``); Playwright downloads no browser here."""


@contextmanager
def chromium(sync_api: Any) -> Iterator[Any]:
    """A headless Chromium for a module's tests (``sync_api``: playwright.sync_api)."""
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox"]
        )
        try:
            yield browser
        finally:
            browser.close()


def open_viewer(browser: Any, replay_path: Path, tmp_path: Path, step: int) -> Any:
    """A page showing ``arena view`` of a replay at ``step``, once the viewer is ready."""
    out = tmp_path / "viewer.html"
    result = run_arena("view", str(replay_path), "-o", str(out))
    assert result.returncode == 0, result.stderr
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    page.goto(f"{out.as_uri()}#step={step}")
    page.wait_for_selector("body[data-ready='1']", timeout=15000)
    return page
