"""A whole contest in a real headless Chromium (Debian's, driven by Playwright), against
the real ``arena serve contest.yaml``: an organiser invites three participants; they sign
in and upload a Python, a C++ and a broken C++ bot (its build log shown to its owner only;
it never joins); the league plays and the public leaderboard updates live; a participant
sees its own stderr and source, never another's; the organiser freezes submissions, runs
the final ranking and exports it."""

from __future__ import annotations

import csv
import io
import json
import shutil
import sqlite3
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from core.contest.serving import PASSWORD, ContestServer, contest_file, start_contest, stop_contest
from support.browser import CHROMIUM, chromium

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("arena.contest.submissions")  # the version store (its own branch)
pytest.importorskip("arena.contest.final")  # the final ranking and exports (their own branch)
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
    pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed"),
]

PYTHON_BOT = """\
import sys
turn = 0
while True:
    lines = [sys.stdin.readline() for _ in range(34)]
    if not lines[0]:
        break
    print("bob-private-log turn", turn, file=sys.stderr, flush=True)
    print(f"{turn % 6} 1", flush=True)
    turn += 1
"""
CPP_BOT = """\
#include <iostream>
#include <string>
int main() {
    std::string line;
    for (int turn = 0;; ++turn) {
        for (int i = 0; i < 34; ++i) if (!std::getline(std::cin, line)) return 0;
        std::cerr << "carol-private-log turn " << turn << std::endl;
        std::cout << (turn + 3) % 6 << " 1" << std::endl;
    }
}
"""
BROKEN_BOT = "int main() { this is not C++; }\n"
WAIT_MS = 240_000  # builds and games on a loaded two-core machine


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(sync_api) as b:
        yield b


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ContestServer]:
    folder = tmp_path_factory.mktemp("contest")
    path = contest_file(
        folder,
        languages="[python, cpp]",
        final_games="2",
        settings="{max_turns: 8}",
        league="{concurrency: 1}",
    )
    server = start_contest(path)
    yield server
    code, err = stop_contest(server)
    assert code == 130 and "Traceback" not in err, err  # Ctrl-C: interrupted, cleanly


def person(browser: Any, link: str) -> Any:
    """A new browser (its own cookies) of a person who opens their one-time link."""
    page = browser.new_context(viewport={"width": 1300, "height": 900}).new_page()
    page.goto(link)
    page.fill("#password", PASSWORD)
    page.fill("#again", PASSWORD)
    page.click("#set-password")
    page.wait_for_selector("#signed-in")
    return page


def invite(ada: Any, name: str) -> str:
    ada.goto(ada.url.split("/organise")[0] + "/organise")
    ada.fill("#invite-name", name)
    ada.click("#invite-button")
    return str(ada.text_content("#link"))


def wait_state(page: Any, number: int, states: str) -> str:
    """Reload the participant's page until its version ``number`` is in one of ``states``."""
    wanted = states.split("|")
    for _ in range(WAIT_MS // 1000):
        page.goto(page.url.split("/me")[0] + "/me")
        state = page.get_attribute(f"tr[data-version='{number}']", "data-state")
        if state in wanted:
            return str(state)
        page.wait_for_timeout(1000)
    raise AssertionError(f"version {number} stayed {state}")


def test_a_whole_contest(server: ContestServer, browser: Any, tmp_path: Path) -> None:
    ada = person(browser, server.links["Ada"])
    assert ada.url.endswith("/organise")
    links = {name: invite(ada, name) for name in ("Bob", "Carol", "Dave")}
    bob, carol, dave = (person(browser, links[n]) for n in ("Bob", "Carol", "Dave"))
    # Bob signs out, and in again with his password through the sign-in form.
    bob.click("#sign-out")
    bob.wait_for_selector("#nav-login")
    bob.click("#nav-login")
    bob.fill("#login", "Bob")
    bob.fill("#password", PASSWORD)
    bob.click("#sign-in")
    assert bob.text_content("#signed-in") == "Bob"
    bob.goto(server.url + "me")

    # Bob pastes Python; Carol uploads a C++ file; Dave uploads a C++ file that fails to build.
    bob.fill("#filename", "bot.py")
    bob.fill("#source", PYTHON_BOT)
    bob.click("#submit")
    (tmp_path / "carol.cpp").write_text(CPP_BOT)
    carol.set_input_files("#file", str(tmp_path / "carol.cpp"))
    carol.click("#submit")
    (tmp_path / "dave.cpp").write_text(BROKEN_BOT)
    dave.set_input_files("#file", str(tmp_path / "dave.cpp"))
    dave.click("#submit")

    assert wait_state(dave, 1, "build failed") == "build failed"
    dave.click("tr[data-version='1'] a")
    assert "error" in str(dave.text_content("#build-log"))
    assert wait_state(bob, 1, "ranked") == "ranked"
    assert wait_state(carol, 1, "ranked") == "ranked"

    # Nobody else sees Dave's build log, or Carol's source.
    for path in ("/organise/versions/dave/1", "/organise/versions/carol/1", "/organise"):
        answer = bob.goto(server.url.rstrip("/") + path)
        assert answer.status == 404, path
        assert "this is not C++" not in bob.content() and "carol-private" not in bob.content()

    # The public leaderboard, signed out, updates by itself as the league plays.
    public = browser.new_context().new_page()
    public.goto(server.url)
    public.wait_for_selector("tr[data-bot='bob-v1']", timeout=WAIT_MS)
    public.wait_for_selector("tr[data-bot='carol-v1']", timeout=WAIT_MS)
    assert public.query_selector("tr[data-bot='dave-v1']") is None  # it never joined
    before = int(public.get_attribute("#games-stored", "data-games") or 0)
    public.wait_for_function(
        f"Number(document.querySelector('#games-stored').dataset.games) > {before}"
        " && Number(document.body.dataset.refreshed || 0) > 0",
        timeout=WAIT_MS,
    )

    # A game of Bob against Carol: Bob sees his stderr, never Carol's, even in the viewer.
    bob.goto(server.url + "me")
    game = bob.locator("table.games tr", has_text="carol-v1").first.get_attribute("data-game")
    bob.goto(f"{server.url}games/{game}")
    page = bob.content()
    assert "bob-private-log" in page and "carol-private-log" not in page
    viewer = bob.goto(f"{server.url}games/{game}/viewer")
    assert viewer.status == 200
    assert "carol-private-log" not in viewer.text()
    carol.goto(f"{server.url}games/{game}")
    assert "carol-private-log" in carol.content() and "bob-private-log" not in carol.content()
    ada.goto(f"{server.url}games/{game}")
    assert "carol-private-log" in ada.content() and "bob-private-log" in ada.content()

    # The organiser freezes submissions, runs the final ranking, publishes and exports it.
    ada.goto(server.url + "organise")
    ada.click("button[data-action='freeze']")
    ada.wait_for_selector("#frozen-state:text('frozen')")
    bob.goto(server.url + "me")
    assert bob.is_visible("#frozen") and bob.query_selector("#upload") is None
    ada.click("button[data-action='final']")
    for _ in range(WAIT_MS // 1000):
        ada.goto(server.url + "organise")
        if ada.text_content("#final-state") in ("done", "failed"):
            break
        ada.wait_for_timeout(1000)
    assert ada.text_content("#final-state") == "done"
    assert public.goto(server.url + "final").status == 404  # not published yet
    ada.click("button[data-action='publish']")
    public.goto(server.url + "final")
    shown = [row.get_attribute("data-bot") for row in public.query_selector_all("tr[data-bot]")]
    assert sorted(shown) == ["bob-v1", "carol-v1"]  # the final versions: no boss, not Dave's
    assert "2 games" in str(public.text_content(".note"))  # final_games: 2, seats swapped
    check_exports(ada, server, shown)


def download(page: Any, link: str) -> bytes:
    with page.expect_download() as started:
        page.click(link)
    return Path(started.value.path()).read_bytes()


def check_exports(ada: Any, server: ContestServer, final_order: list[str]) -> None:
    """The organiser's three downloads: the final ranking as JSON and as the same CSV, and
    a zip of every game's replay, the league's and the final's."""
    ada.goto(server.url + "organise")
    exported = json.loads(download(ada, "#export-json"))
    assert (exported["leaderboard"], [r["bot"] for r in exported["rows"]]) == ("final", final_order)
    for row in exported["rows"]:
        assert (row["owner"], row["games"]) == (row["bot"][: -len("-v1")], 2), row
        assert row["wins"] + row["draws"] + row["losses"] == 2, row
    table = list(csv.DictReader(io.StringIO(download(ada, "#export-csv").decode())))
    assert table == [{k: csv_cell(v) for k, v in r.items()} for r in exported["rows"]]
    with zipfile.ZipFile(io.BytesIO(download(ada, "#export-zip"))) as archive:
        names = archive.namelist()
        replays = [json.loads(archive.read(name)) for name in names]
    stored = {
        which: game_dirs(folder)
        for which, folder in (("league", server.output), ("final", server.output / "final"))
    }
    assert sorted(names) == sorted(
        f"{which}/{Path(d).name}/replay.json" for which, dirs in stored.items() for d in dirs
    )
    assert len(stored["final"]) == 2 and len(stored["league"]) > 2
    assert all(isinstance(r, dict) and r for r in replays)


def csv_cell(value: object) -> str:
    """A JSON value as the CSV shows it: empty for none, a quote before what a spreadsheet
    would run as a formula (the interval ``+0 ±197``)."""
    if value is None:
        return ""
    text = str(value)
    return "'" + text if isinstance(value, str) and text[:1] in ("=", "+", "-", "@") else text


def game_dirs(output: Path) -> list[str]:
    """Every stored game's folder (as the store lists them) in an output folder."""
    db = sqlite3.connect(f"file:{output / 'arena.sqlite'}?mode=ro", uri=True)
    try:
        return [str(row[0]) for row in db.execute("SELECT dir FROM games")]
    finally:
        db.close()
