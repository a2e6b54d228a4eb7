"""The static report and ``arena serve``'s pages are made from the same templates: the
leaderboard's rows, the win-rate matrix, the games table and a bot's results against each
opponent read the same in both, the served page adding only its links."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from arena.records import GameRecord, SeatRecord
from arena.results.store import Store
from arena.views.report import write_report
from core.web.conftest import Server


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Nine games of three bots (a beats b, b beats c, c draws a), each with its replay."""
    output = tmp_path_factory.mktemp("shared") / "out"
    store = Store(output)
    store.set_meta({"name": "shared", "game": "stc", "bots": ["a", "b", "c"], "seed": 3})
    store.set_bots({"a": "python3 a.py", "b": "python3 b.py", "c": "python3 c.py --fast"})
    pairs = [("a", "b", (0, 1)), ("b", "c", (0, 1)), ("c", "a", (0, 0))] * 3
    for n, (x, y, ranks) in enumerate(pairs):
        seats = [SeatRecord(x, ranks[0], 1.0 - ranks[0]), SeatRecord(y, ranks[1], 1.0 - ranks[1])]
        record = GameRecord("stc", n, {}, seats, "done", 3, 3, 1.0)
        store.add_game(f"g{n}", n, 0, "", record, {"seed": n, "bots": [x, y]})
        folder = store.game_dir(f"g{n}")
        folder.mkdir(parents=True)
        replay = {"game": "stc", "seed": n, "players": [x, y], "steps": []}
        (folder / "replay.json").write_text(json.dumps(replay))
    store.close()
    return output


def _section(page: str, start: str, end: str = "</table>") -> str:
    return page.split(start, 1)[1].split(end, 1)[0]


def _unlinked(html: str) -> str:
    """The page's text and markup without its links (the report has no server to link to)."""
    return re.sub(r"</?a\b[^>]*>", "", html)


def _rows(html: str) -> list[str]:
    return re.findall(r"<tr\b.*?</tr>", html.split("<tbody>", 1)[1], flags=re.S)


def test_the_report_and_the_served_pages_share_their_tables(
    folder: Path, serve: Callable[..., Server]
) -> None:
    report = write_report(folder).path.read_text()
    server = serve(str(folder))
    _, served = server.get("")
    board = _rows(_section(report, '<section id="leaderboard">'))
    assert len(board) == 3
    assert _rows(_unlinked(_section(served, '<table id="leaderboard"'))) == board
    assert '<td class="l"><a href="/bots/a">a</a></td>' in served
    # The matrix: a's row reads 100% against b (3 wins of 3) and 50% against c (3 draws).
    matrix = _rows(_section(report, '<section id="matrix">'))
    assert _rows(_unlinked(_section(served, '<table id="matrix"'))) == matrix
    a_row = next(row for row in matrix if row.startswith('<tr><th class="l">a</th>'))
    assert re.findall(r"<b>(\d+)%</b>", a_row) == ["100", "50"]
    # The games table: the same rows (the report lists them in the order played).
    games = _rows(_section(report, 'id="games-table"'))
    _, listed = server.get("games")
    served_games = _rows(_unlinked(_section(listed, '<table class="games sortable"')))
    assert len(games) == 9 and served_games == list(reversed([_unlinked(g) for g in games]))
    # A bot's results against each opponent: the report's bot section, the bot page.
    section = _section(report, '<details class="bot" id="bot-', "</details>")
    assert "<b>a</b>" in section and '<code class="wrap">python3 a.py</code>' in section
    _, page = server.get("bots/a")
    opponents = _rows(_section(page, '<table class="sortable" id="opponents"'))
    served_rows = [
        re.sub(r"<td><a href=\"/h2h[^\"]*\">head to head</a></td>", "", r) for r in opponents
    ]
    assert [_unlinked(r) for r in served_rows] == _rows(_section(section, "<table"))
    assert [
        re.findall(r"<td[^>]*>([^<]*)</td>", r)[:3] for r in _rows(_section(section, "<table"))
    ] == [
        ["b", "3", "3/0/0"],
        ["c", "3", "0/3/0"],
    ]
