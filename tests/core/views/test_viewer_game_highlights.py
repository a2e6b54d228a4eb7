"""Each game's board marks what just happened, from the ``highlight`` of its view, at the
step it happened (stc: the pair placed, then each chain step's clears one after another;
cluster: the winning line; chess5: the last move), in Debian's Chromium with Playwright."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arena.plugins.registry import load_registry
from arena.views.replay import resimulate, step_views
from support.browser import CHROMIUM, chromium, open_viewer

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")


@pytest.fixture(scope="module")
def browser() -> Any:
    with chromium(sync_api) as b:
        yield b


def views_of(game: str, replay_path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    replay = json.loads(replay_path.read_text())
    return replay, step_views(load_registry().create(game), replay)


def test_stc_shows_the_pair_placed_then_each_chain_step(browser, shipped_replays, tmp_path):
    replay, views = views_of("stc", shipped_replays["stc"])
    step = next(
        i for i, v in enumerate(views) if any(m["kind"] == "cleared" for m in v["highlight"])
    )
    marks = views[step]["highlight"]
    chain = max(m["chain"] for m in marks if m["kind"] == "cleared")
    # The rules' own record of the grids each chain step cleared from.
    game = load_registry().create("stc")
    traces = list(resimulate(game, replay))[step - 1].after.last_trace
    page = open_viewer(browser, shipped_replays["stc"], tmp_path, step)
    phases = page.locator("#board [data-phase]")
    names = ["placed", *(f"chain {k}" for k in range(1, chain + 1)), "after"]
    assert [phases.nth(i).get_attribute("data-phase") for i in range(phases.count())] == names
    # Arriving at the step plays the phases one after another, ending on the turn's grid.
    page.wait_for_selector("#board[data-phase='after']", timeout=10000)
    assert page.locator("#board [data-highlight]").count() == 0
    page.click("#board button[data-phase='placed']")
    placed = sum(len(m["cells"]) for m in marks if m["kind"] == "placed")
    assert page.locator('#board [data-highlight="placed"]').count() == placed
    for k in range(1, chain + 1):
        page.click(f"#board button[data-phase='chain {k}']")
        assert page.get_attribute("#board", "data-phase") == f"chain {k}"
        for seat in (0, 1):
            cleared = [m for m in marks if m.get("chain") == k and m["seat"] == seat]
            cells = cleared[0]["cells"] if cleared else []
            lit = page.locator(f'#board [data-highlight="cleared"][data-seat="{seat}"]')
            assert lit.count() == len(cells)
            if cleared:
                # Drawn on the grid as it stood when those cells cleared, not the final one.
                grid = traces[seat].chain[k - 1].grid
                blocks = page.locator(f'#board [data-block][data-seat="{seat}"]')
                assert blocks.count() == sum(len(column) for column in grid)
                drawn = page.locator(f'#board [data-block][data-seat="{seat}"]')
                colours = sorted(
                    "0" if c == "skull" else c
                    for c in drawn.evaluate_all("(els) => els.map((e) => e.dataset.block)")
                )
                assert colours == sorted("".join(grid))
    # A step without a chain has no phases: the pair placed is outlined on the turn's grid.
    quiet = next(
        i
        for i, v in enumerate(views)
        if i and v["highlight"] and all(m["kind"] == "placed" for m in v["highlight"])
    )
    page.keyboard.press("Home")
    for _ in range(quiet):
        page.keyboard.press("ArrowRight")
    assert page.locator("#board button[data-phase]").count() == 0
    placed = sum(len(m["cells"]) for m in views[quiet]["highlight"])
    assert page.locator('#board [data-highlight="placed"]').count() == placed
    page.close()


def test_cluster_rings_the_winning_line_at_the_last_step(browser, shipped_replays, tmp_path):
    # The shipped bots play at random among equals: of the match's games, one won by a line.
    games = sorted(shipped_replays["cluster"].parent.parent.glob("*/replay.json"))
    path = next(p for p in games if json.loads(p.read_text())["outcome"]["reason"][:4] == "line")
    replay, views = views_of("cluster", path)
    last = len(views) - 1
    (mark,) = views[last]["highlight"]
    assert mark["kind"] == "line" and mark["seat"] == replay["outcome"]["ranks"].index(0)
    assert all(not v["highlight"] for v in views[:last])
    page = open_viewer(browser, path, tmp_path, last)
    ringed = page.locator('#board [data-highlight="line"]')
    assert ringed.count() == len(mark["cells"]) >= 4
    page.keyboard.press("ArrowLeft")
    assert page.locator("#board [data-highlight]").count() == 0
    page.close()


def test_chess5_marks_the_last_moves_squares(browser, shipped_replays, tmp_path):
    replay, views = views_of("chess5", shipped_replays["chess5"])
    # The first move of play (the view before it marks the last setup placement).
    step = next(i for i, v in enumerate(views) if v["ply"] == 1)
    (mark,) = views[step]["highlight"]
    assert mark["kind"] == "move" and len(mark["cells"]) == 2
    assert views[step - 1]["highlight"][0]["kind"] == "placed"
    # The move the step's action made, by the seat that made it.
    (seat, action), *_ = replay["steps"][step - 1]["actions"].items()
    assert int(seat) == mark["seat"]
    assert [action["Action"]["frm"], action["Action"]["to"]] == mark["cells"]
    page = open_viewer(browser, shipped_replays["chess5"], tmp_path, step)
    lit = page.locator('#board [data-highlight="move"]')
    assert lit.count() == 2
    page.keyboard.press("Home")
    assert page.locator("#board [data-highlight]").count() == 0
    page.keyboard.press("ArrowRight")
    assert page.locator('#board [data-highlight="placed"]').count() == 1
    page.close()
