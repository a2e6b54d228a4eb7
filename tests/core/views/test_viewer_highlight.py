"""The viewer keeps the result for the last step, and draws the game's ``highlight``
(what just happened), in Debian's Chromium driven by Playwright."""

from __future__ import annotations

import json
from typing import Any

import pytest

from arena.plugins.registry import load_registry
from arena.views.replay import step_views
from support.browser import CHROMIUM, chromium, open_viewer

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")


@pytest.fixture(scope="module")
def browser() -> Any:
    with chromium(sync_api) as b:
        yield b


def test_the_result_shows_only_at_the_last_step(browser, shipped_replays, tmp_path):
    replay_path = shipped_replays["stc"]
    replay = json.loads(replay_path.read_text())
    n = len(replay["steps"])
    page = open_viewer(browser, replay_path, tmp_path, 0)
    reason = replay["outcome"]["reason"]
    assert reason not in page.inner_text("#outcome")
    hidden = f"result hidden until the last step (step {n}: press End)"
    assert page.inner_text("#outcome") == hidden
    page.keyboard.press("ArrowRight")
    assert reason not in page.inner_text("#outcome")
    page.keyboard.press("End")
    assert reason in page.inner_text("#outcome")
    assert "1st" in page.inner_text("#outcome")
    page.keyboard.press("ArrowLeft")
    assert reason not in page.inner_text("#outcome")
    assert int(page.get_attribute("body", "data-step")) == n - 1
    page.close()


def test_blocking_marks_the_shape_its_view_highlights(browser, shipped_replays, tmp_path):
    replay_path = shipped_replays["blocking"]
    replay = json.loads(replay_path.read_text())
    views = step_views(load_registry().create("blocking"), replay)
    step = next(i for i in range(1, len(views)) if replay["steps"][i - 1].get("actions"))
    (mark,) = views[step]["highlight"]
    assert mark["kind"] == "placed" and mark["cells"] == views[step]["pieces"][-1][2]
    page = open_viewer(browser, replay_path, tmp_path, step)
    assert page.locator("#board [data-last]").count() == 1
    # The marked outline is drawn around exactly the highlighted cells' piece.
    seat = mark["seat"]
    assert page.locator(f'#board rect[data-owner="{seat}"][opacity="1"]').count() == len(
        mark["cells"]
    )
    page.close()
