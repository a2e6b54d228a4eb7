"""The report's leaderboard speaks the leaderboard's language (the column names the text
and markdown tables print) and the page fits 1400 px: wide tables scroll in their own box.
In Debian's Chromium with Playwright."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from arena.views.leaderboard import shown_leaderboard_for
from support import REPO, run_arena

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")

# Twenty-character names, six bots (the win-rate matrix alone is wider than 1400 px), one
# of them crashing with a long traceback line.
NAMES = [f"{kind}-{i}".ljust(20, "x") for i, kind in enumerate(["greedy", "random"] * 3)]


@pytest.fixture(scope="module")
def output(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("wide")
    bots = "".join(
        f"  - {{name: {name}, cmd: python3 {REPO}/bots/stc/{name.split('-')[0]}"
        f"{'' if name.startswith('greedy') else '_bot'}.py}}\n"
        for name in NAMES[:-1]
    )
    crash = "raise SystemExit('x' * 300)"
    bots += f'  - {{name: {NAMES[-1]}, cmd: "python3 -c \\"{crash}\\""}}\n'
    spec = root / "t.yaml"
    spec.write_text(
        "name: wide\ngame: stc\ngames: 1\nseed: 4\nconcurrency: 1\n"
        f"settings: {{max_turns: 8}}\nbots:\n{bots}output: {root / 'out'}\n"
    )
    result = run_arena("run", str(spec), "--no-progress")
    assert result.returncode == 0, result.stderr
    return root / "out"


@pytest.fixture(scope="module")
def page(output: Path) -> Any:
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox"]
        )
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto((output / "report.html").as_uri())
        yield page
        browser.close()


def test_the_leaderboard_has_the_tables_column_names(page, output):
    board = shown_leaderboard_for(output)
    printed = board.render("markdown").splitlines()
    head = next(line for line in printed if line.startswith("| #"))
    names = [cell.strip() for cell in head.strip("|").split("|")]
    shown = page.locator("#leaderboard th").all_inner_texts()
    assert shown == names
    assert {"BT ±95%", "Elo ±95%", "W/D/L", "win % [95%]", "ms p50/p99/max"} <= set(shown)
    assert not {"bt_ci", "elo_bound", "win%_low", "mu-3sigma"} & set(shown)
    # Each row as the table prints it.
    first = [
        c.strip() for c in page.locator("#leaderboard tr").nth(1).all_inner_texts()[0].split("\t")
    ]
    assert first == list(board.table_rows()[0].values())


def test_the_page_fits_1400_px(page):
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    assert page.evaluate("document.documentElement.scrollWidth") <= 1400
    # The matrix is wider than the window: it scrolls inside its own box.
    box = page.locator("#matrix .scroll")
    assert box.evaluate("(el) => el.scrollWidth > el.clientWidth")


def test_at_800_px_no_table_is_cut_every_one_fits_or_scrolls_to_its_last_column(page):
    page.set_viewport_size({"width": 800, "height": 900})
    try:
        page.reload()
        page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
        assert page.evaluate("document.documentElement.scrollWidth") <= 800
        # Each table: within its box, or its box scrolls until the last header shows whole.
        reached = page.evaluate(
            """Array.from(document.querySelectorAll('table')).map((t) => {
              const box = t.parentElement;
              if (t.getBoundingClientRect().width <= box.clientWidth + 1) return true;
              if (!['auto', 'scroll'].includes(getComputedStyle(box).overflowX)) return false;
              box.scrollLeft = box.scrollWidth;
              const last = t.querySelector('tr').lastElementChild.getBoundingClientRect();
              return last.right <= box.getBoundingClientRect().right + 1;
            })"""
        )
    finally:
        page.set_viewport_size({"width": 1400, "height": 900})
        page.reload()
    assert reached and all(reached), reached
