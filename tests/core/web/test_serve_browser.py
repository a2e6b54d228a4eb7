"""``arena serve`` in a real headless Chromium (Debian's, driven by Playwright): pages that
update by themselves while a real run stores games, a game opened from the filtered list
with its viewer and stderr, stop and start again from the page."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from core.web.conftest import Server, shipped, slow_bot, write_tournament
from support import run_arena
from support.browser import CHROMIUM, chromium

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(sync_api) as b:
        yield b


def open_page(browser: Any, url: str, errors: list[str]) -> Any:
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    page.set_default_timeout(120_000)  # every wait and page load, on a loaded machine
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    response = page.goto(url)
    try:  # a loaded machine's first page may take long
        page.wait_for_selector("body[data-ready='1']", timeout=120_000)
    except sync_api.TimeoutError:
        status = response.status if response is not None else None
        raise AssertionError(
            f"the page never got ready: HTTP {status}, errors {errors}, body:\n"
            + page.content()[:3000]
        ) from None
    return page


def stored_games(output: Path) -> int:
    db = sqlite3.connect(f"file:{output / 'arena.sqlite'}?mode=ro", uri=True)
    try:
        return int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    finally:
        db.close()


def test_live_run_stop_and_start_again(
    tmp_path: Path, browser: Any, serve: Callable[..., Server]
) -> None:
    """Serving a tournament file: the leaderboard and the run's state follow the run; stop
    ends it cleanly (games stored whole), start again resumes it to the end."""
    bots = {"slow": slow_bot(tmp_path, 0.04), "greedy": shipped("greedy.py")}
    tournament = write_tournament(tmp_path, bots, games=8, max_turns=12)
    output = tmp_path / "out"
    server = serve(str(tournament))
    errors: list[str] = []
    page = open_page(browser, server.url, errors)
    page.wait_for_selector("#run-state[data-state='running']", timeout=30000)
    # The leaderboard appears and grows as games end, without a reload.
    page.wait_for_function(
        "document.querySelector('#board-title') &&"
        " /\\((stc, )?[1-9]\\d* games\\)/.test(document.querySelector('#board-title').textContent)",
        timeout=60000,
    )
    first = page.text_content("#board-title")
    page.wait_for_function(
        f"document.querySelector('#board-title').textContent !== {first!r}", timeout=60000
    )
    assert int(page.evaluate("document.body.dataset.refreshed")) >= 1
    page.click("button[data-action='stop']")
    page.wait_for_selector("#run-state[data-state='stopped']", timeout=60000)
    stopped_at = stored_games(output)
    assert 0 < stopped_at < 8
    log = (output / "serve-run.log").read_text()
    assert "interrupted" in log and "run the same command to resume" in log
    page.click("button[data-action='start']")
    page.wait_for_selector("#run-state[data-state='done']", timeout=300000)
    assert stored_games(output) == 8
    page.wait_for_function(
        "/8 games\\)/.test(document.querySelector('#board-title').textContent)", timeout=30000
    )
    assert page.locator("#leaderboard tbody tr").count() == 2
    assert errors == []


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("stored")
    bots = {
        "greedy": shipped("greedy.py"),
        "random": shipped("random_bot.py"),
        "<img src=x onerror=window.pwned=1>": shipped("random_bot.py"),
    }
    result = run_arena("run", str(write_tournament(folder, bots, games=2)), "--no-progress")
    assert result.returncode == 0, result.stderr
    return folder / "out"


def test_game_from_the_filtered_list(
    stored: Path, browser: Any, serve: Callable[..., Server]
) -> None:
    """Filter the games list by bot and opponent, open a game: its viewer plays and each
    seat's stderr is there turn by turn."""
    server = serve(str(stored))
    errors: list[str] = []
    page = open_page(browser, server.url + "games", errors)
    assert page.locator("tr[data-game]").count() == 6
    page.select_option("select[name=bot]", "greedy")
    page.select_option("select[name=opponent]", "random")
    page.click("#filters button[type=submit]")
    page.wait_for_selector("body[data-ready='1']")
    rows = page.locator("tr[data-game]")
    assert rows.count() == 2
    for i in range(2):
        assert "greedy" in rows.nth(i).text_content() and "random" in rows.nth(i).text_content()
    game_id = rows.nth(0).get_attribute("data-game")
    rows.nth(0).locator("a").first.click()
    page.wait_for_selector("#viewer")
    assert page.url == f"{server.url}games/{game_id}"
    frame = page.frame_locator("#viewer")
    frame.locator("body[data-ready='1']").wait_for(timeout=20000)
    # The shipped bots log every turn on stderr: step 1 of each seat.
    cells = page.locator("#stderr tbody tr").first.locator("td pre")
    assert cells.count() == 2
    assert cells.nth(0).text_content().startswith("turn 0 ")
    assert errors == []


def test_script_in_a_bot_name_stays_text(
    stored: Path, browser: Any, serve: Callable[..., Server]
) -> None:
    server = serve(str(stored))
    errors: list[str] = []
    for path in ("", "games", "bots/greedy"):
        page = open_page(browser, server.url + path, errors)
        assert page.evaluate("window.pwned") is None
        assert "<img src=x onerror=window.pwned=1>" in page.text_content("body")
    assert errors == []


def test_a_bot_added_from_the_page_plays_in_the_running_league(
    tmp_path: Path, browser: Any, serve: Callable[..., Server]
) -> None:
    """A league served from its file: a bot typed into the page's form joins the running
    league and plays its first game; a bad one is refused on the page."""
    bots = {"slow": slow_bot(tmp_path, 0.02), "greedy": shipped("greedy.py")}
    # More games than any machine plays before the bot is added (the server stops it).
    tournament = write_tournament(tmp_path, bots, games=5000, max_turns=8)
    tournament.write_text(tournament.read_text().replace("round-robin", "league"))
    output = tmp_path / "out"
    server = serve(str(tournament))
    errors: list[str] = []
    page = open_page(browser, server.url, errors)
    page.wait_for_selector("#run-state[data-state='running']", timeout=30000)
    page.wait_for_function(
        "document.querySelector('#board-title') &&"
        " /[1-9]\\d* games\\)/.test(document.querySelector('#board-title').textContent)",
        timeout=60000,
    )
    page.reload()  # the form shows once the folder holds the league
    page.wait_for_selector("#league-bot", timeout=20000)
    page.fill("#league-bot", f"greedy={shipped('random_bot.py')}")
    page.click("button[data-league='add']")
    page.wait_for_function(
        "document.querySelector('#league-said').textContent.includes('already has a bot')",
        timeout=20000,
    )
    page.fill("#league-bot", f"rookie={shipped('random_bot.py')}")
    page.click("button[data-league='add']")
    page.wait_for_function(
        "document.querySelector('#league-said').textContent === 'rookie: joins the league'",
        timeout=20000,
    )

    def rookie_games() -> int:
        db = sqlite3.connect(f"file:{output / 'arena.sqlite'}?mode=ro", uri=True)
        try:
            return int(db.execute("SELECT COUNT(*) FROM seats WHERE bot = 'rookie'").fetchone()[0])
        finally:
            db.close()

    for _ in range(1500):  # the running league takes it up after the games now running
        if rookie_games() >= 1:
            break
        page.wait_for_timeout(200)
    assert rookie_games() >= 1, "the added bot never played"
    page.wait_for_function(
        "Array.from(document.querySelectorAll('#leaderboard tbody tr'))"
        ".some(r => r.textContent.includes('rookie'))",
        timeout=60000,
    )
    assert (
        "the league's bots are now slow, greedy, rookie" in (output / "serve-run.log").read_text()
    )
    assert errors == []
