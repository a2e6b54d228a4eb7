"""The viewer and the report in a real headless Chromium (Debian's, driven by Playwright).

For each shipped game a real game between shipped bots is opened in its viewer; stepping
forward, back, by keyboard and by slider must draw each step's view (the pieces drawn are
counted against the stored view). Screenshots go to the test's folder, and also to
``$ARENA_SCREENS`` when set.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.plugins.registry import load_registry
from arena.views.replay import step_views
from arena.views.viewer import viewer_html
from support import run_arena

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed (apt-get install chromium)"
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for the module."""
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


def screenshot(page: Any, tmp_path: Path, name: str) -> Path:
    """Save a full-page screenshot in the test folder (and $ARENA_SCREENS if set)."""
    path = tmp_path / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 5000
    if os.environ.get("ARENA_SCREENS"):
        Path(os.environ["ARENA_SCREENS"]).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(os.environ["ARENA_SCREENS"]) / path.name)
    return path


def open_page(browser: Any, url: str, errors: list[str]) -> Any:
    """A new page at ``url``, recording script errors in ``errors``, once the viewer is ready."""
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(url)
    return page


def wait_ready(page: Any) -> None:
    page.wait_for_selector("body[data-ready='1']", timeout=15000)


# What each renderer must draw for a view: CSS selector -> number of elements.
def stc_counts(view: dict[str, Any]) -> dict[str, int]:
    out = {"[data-queue]": 2 * len(view["next_pairs"])}
    for seat, rows in enumerate(view["grids"]):
        out[f'[data-seat="{seat}"][data-block]'] = sum(len(r) - r.count(".") for r in rows)
        out[f'[data-seat="{seat}"][data-block="skull"]'] = sum(r.count("0") for r in rows)
    return out


def splitter_counts(view: dict[str, Any]) -> dict[str, int]:
    return {
        "[data-die]": sum(1 for row in view["values"] for v in row if v),
        "[data-group]": sum(1 for g in view["groups"] if g["points"]),
        "[data-next]": 2 if view["dice"] else 0,
    }


def blocking_counts(view: dict[str, Any]) -> dict[str, int]:
    out = {}
    for seat in range(len(view["scores"])):
        out[f'rect[data-owner="{seat}"]'] = sum(row.count(str(seat)) for row in view["board"])
        out[f'[data-hand="{seat}"]'] = sum(len(view["shapes"][k]) for k in view["remaining"][seat])
    return out


def chess5_counts(view: dict[str, Any]) -> dict[str, int]:
    shields = [
        e for side in view["abilitiesActivated"] for e in side if e[0] == "shield" and e[1] > 0
    ]
    return {
        "[data-piece]": sum(1 for row in view["board"] for cell in row if cell != "F"),
        "[data-fog]": sum(len(hidden) for hidden in view["fog"] if hidden),
        "[data-shield]": len(shields),
        "[data-blocked]": len(view["blockedTiles"]),
        '[data-ability][data-left="1"]': sum(len(a) for a in view["abilitiesRemaining"]),
    }


def cluster_counts(view: dict[str, Any]) -> dict[str, int]:
    return {
        "[data-chip]": len(view["chips"]),
        f'[data-gravity="{view["gravity"]}"]': 1,
        "[data-wall]": len(view["walls"]),
        "[data-bag]": len(view["bags"]),
    }


COUNTS: dict[str, Callable[[dict[str, Any]], dict[str, int]]] = {
    "stc": stc_counts,
    "splitter": splitter_counts,
    "blocking": blocking_counts,
    "chess5": chess5_counts,
    "cluster": cluster_counts,
}


# A renderer may play a step in phases (stc: the pair placed, each chain step, then the
# turn's grid): the step's own drawing is its last phase.
SETTLED = """() => {
  const board = document.querySelector('#board');
  const phases = board.querySelectorAll('button[data-phase]');
  return !phases.length || board.dataset.phase === phases[phases.length - 1].dataset.phase;
}"""


def settled(page: Any) -> Any:
    """The page once the board shows the step's own drawing (its last phase, if any)."""
    page.wait_for_function(SETTLED, timeout=10000)
    return page


def drawn(page: Any, counts: dict[str, int]) -> dict[str, int]:
    settled(page)
    return {sel: page.locator(f"#board {sel}").count() for sel in counts}


def current_step(page: Any) -> int:
    return int(page.get_attribute("body", "data-step"))


def interesting_step(game_id: str, views: list[dict[str, Any]]) -> int:
    """A step worth a screenshot: chess5 under fog or shield if any, else two thirds in."""
    if game_id == "chess5":
        for i, v in enumerate(views):
            if any(v["fog"]) or any(v["abilitiesActivated"]):
                return i
    return (2 * (len(views) - 1)) // 3


@pytest.mark.parametrize("game_id", list(COUNTS))
def test_each_game_viewer_draws_every_step_it_is_moved_to(
    browser, shipped_replays, tmp_path, game_id
):
    replay_path = shipped_replays[game_id]
    replay = json.loads(replay_path.read_text())
    views = step_views(load_registry().create(game_id), replay)
    n = len(replay["steps"])
    out = tmp_path / f"{game_id}.html"
    result = run_arena("view", str(replay_path), "-o", str(out))
    assert result.returncode == 0, result.stderr
    errors: list[str] = []
    page = open_page(browser, out.as_uri(), errors)
    wait_ready(page)
    expect = COUNTS[game_id]
    assert current_step(page) == 0
    assert drawn(page, expect(views[0])) == expect(views[0])

    # Forward with the button: every step draws its own view; the drawing changes.
    pictures = [settled(page).inner_html("#board")]
    for i in range(1, min(6, n) + 1):
        page.click("#next")
        assert current_step(page) == i
        assert drawn(page, expect(views[i])) == expect(views[i]), f"step {i}"
        pictures.append(settled(page).inner_html("#board"))
    assert len(set(pictures)) > 1
    # Back: the previous step's drawing again, exactly.
    page.click("#prev")
    k = current_step(page)
    assert settled(page).inner_html("#board") == pictures[k]
    assert drawn(page, expect(views[k])) == expect(views[k])
    # Keyboard and slider.
    page.keyboard.press("End")
    assert current_step(page) == n
    assert drawn(page, expect(views[n])) == expect(views[n])
    page.keyboard.press("ArrowLeft")
    assert current_step(page) == n - 1
    page.keyboard.press("Home")
    assert current_step(page) == 0
    middle = interesting_step(game_id, views)
    page.eval_on_selector(
        "#slider", "(el, v) => { el.value = v; el.dispatchEvent(new Event('input')); }", middle
    )
    assert current_step(page) == middle
    assert drawn(page, expect(views[middle])) == expect(views[middle])

    # Each seat that acted shows its answer, its time against the budget, and its stderr.
    step = replay["steps"][middle - 1]
    for seat, io in step["io"].items():
        panel = page.locator(f'.seat[data-seat="{seat}"]')
        text = panel.inner_text()
        assert f"/ {io['budget_ms']} ms" in text
        for line in io["lines"]:
            assert panel.locator("pre.line").filter(has_text=line[:40]).count() >= 1
        if io["stderr"].strip():
            assert io["stderr"].strip().splitlines()[0] in panel.locator("pre.stderr").inner_text()
        if step.get("messages", {}).get(seat):
            assert step["messages"][seat] in text
    screenshot(page, tmp_path, f"viewer-{game_id}")

    # Play runs on by itself; pause stops it.
    page.select_option("#speed", "10")
    page.click("#play")
    page.wait_for_function(f"Number(document.body.dataset.step) > {middle}", timeout=5000)
    page.click("#play")
    assert page.inner_text("#play") == "play"
    assert errors == []
    page.close()


def test_the_last_move_is_marked_where_the_game_shows_one(browser, shipped_replays, tmp_path):
    replay_path = shipped_replays["blocking"]
    out = tmp_path / "blocking.html"
    run_arena("view", str(replay_path), "-o", str(out))
    page = open_page(browser, out.as_uri() + "#step=3", [])
    wait_ready(page)
    assert current_step(page) == 3
    replay = json.loads(replay_path.read_text())
    placed = replay["steps"][2]["actions"]
    seat, action = next(iter(placed.items()))
    assert page.locator("#board [data-last]").count() == 1
    assert page.locator(f'.seat[data-seat="{seat}"] pre.line').first.inner_text() == action["move"]
    page.close()


def test_the_report_links_each_game_to_its_viewer(browser, tournament, tmp_path):
    errors: list[str] = []
    page = open_page(browser, (tournament / "report.html").as_uri(), errors)
    assert page.locator("#leaderboard tr").count() == 1 + 3
    assert page.locator("#matrix td.heat").count() == 6
    assert page.locator("#ratings polyline").count() == 3
    assert page.locator("#times tr").count() == 1 + 3
    rows = page.locator("#games-table tr[data-results]")
    assert rows.count() == 6
    # Filter as `arena list --bot crasher --result loss` does.
    page.select_option("#filter-bot", "crasher")
    page.select_option("#filter-result", "loss")
    listed = run_arena("list", str(tournament), "--bot", "crasher", "--result", "loss").stdout
    expected = int(re.search(r"(\d+) of 6 games", listed).group(1))
    assert page.inner_text("#shown") == f"{expected} of 6 games"
    assert page.locator("#games-table tr[data-results]:not(.hidden)").count() == expected
    page.select_option("#filter-bot", "")
    page.select_option("#filter-result", "")
    screenshot(page, tmp_path, "report")
    # Click game 1 (greedy vs random): its viewer opens and draws the game.
    link = page.locator("#games-table a.game-link", has_text="1").first
    href = link.get_attribute("href")
    link.click()
    page.wait_for_url(re.compile(r".*/viewer\.html(#.*)?$"))
    wait_ready(page)
    assert page.url.split("#")[0].endswith(href)
    assert "greedy vs random" in page.title()
    assert page.locator("#board [data-queue]").count() == 16
    page.keyboard.press("End")
    assert page.locator("#board [data-block]").count() > 0
    screenshot(page, tmp_path, "report-to-viewer")
    assert errors == []
    page.close()


def test_a_game_without_a_renderer_shows_its_text_picture(browser, tmp_path):
    from support.toygame import ToyGame

    class TextToy(ToyGame):
        def render(self, state: Any) -> str:
            return f"scores {state.scores}"

    replay = {
        "game": "toy", "seed": 1, "settings": {"turns": 2, "simultaneous": True},
        "players": ["a"], "steps": [
            {"to_act": [0], "moves": {"0": "4"}, "forfeits": {}, "io": {"0": {
                "input": "turn 0\n", "lines": ["4"], "ms": 1.5, "budget_ms": 2000, "stderr": "<b>hi</b>\n"}}},
            {"to_act": [0], "moves": {"0": "5"}, "forfeits": {}, "io": {"0": {
                "input": "turn 1\n", "lines": ["5"], "ms": 2.5, "budget_ms": 300, "stderr": ""}}},
        ],
    }  # fmt: skip
    out = tmp_path / "toy.html"
    out.write_text(viewer_html(TextToy(), replay))
    errors: list[str] = []
    page = open_page(browser, out.as_uri(), errors)
    wait_ready(page)
    assert page.inner_text("#board pre.text-render") == "scores (0,)"
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#board pre.text-render") == "scores (4,)"
    # Bot output is shown as text, never as markup.
    assert page.inner_text('.seat[data-seat="0"] pre.stderr').strip() == "<b>hi</b>"
    assert page.locator(".seat pre.stderr b").count() == 0
    assert "1.5 ms / 2000 ms" in page.inner_text('.seat[data-seat="0"]')
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#board pre.text-render") == "scores (9,)"
    assert errors == []
    page.close()
