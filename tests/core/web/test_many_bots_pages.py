"""The pairwise tables of a board of many bots (issue 45): the report and ``arena serve``'s
leaderboard draw the 25 best-ranked bots' matrix and head to head, and say where the
others are; a bot's page holds its own pairings. A thousand bots' every pairing would be
half a million rows (the report did not finish)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

from arena.records import GameRecord, SeatRecord
from arena.results.store import Store
from arena.views.leaderboard import DRAWN_BOTS, shown_leaderboard_for
from arena.views.report import write_report
from core.web.conftest import Server

BOTS = [f"b{i:02d}" for i in range(30)]


def fill(out: Path) -> None:
    """A round-robin of 30 bots, two games a pairing; b00 always wins, the rest by lot."""
    store = Store(out)
    store.set_meta({"name": "many", "game": "stc", "bots": BOTS, "seed": 1})
    store.set_bots({b: f"python3 {b}.py" for b in BOTS})
    rng = random.Random(3)
    n = 0
    for i, a in enumerate(BOTS):
        for b in BOTS[i + 1 :]:
            for first, second in ((a, b), (b, a)):
                a_wins = a == "b00" or rng.random() < 0.5
                ranks = (0, 1) if (first == a) == a_wins else (1, 0)
                seats = [
                    SeatRecord(bot=first, rank=ranks[0]),
                    SeatRecord(bot=second, rank=ranks[1]),
                ]
                record = GameRecord("stc", n, {}, seats, "done", 3, 3, 1.0)
                store.add_game(f"g{n}", n, 0, "", record, {"seed": n, "bots": [first, second]})
                n += 1
    store.close()


def matrix_rows(page: str, marker: str) -> list[str]:
    table = page.split(marker, 1)[1].split("</table>", 1)[0]
    return re.findall(r"<tr><th class=\"l\">(?:<a [^>]*>)?([^<]+)", table)


def test_the_report_draws_the_best_ranked_bots_pairwise_and_says_where_the_rest_are(tmp_path):
    fill(tmp_path)
    best = [s.name for s in shown_leaderboard_for(tmp_path).stats[:DRAWN_BOTS]]
    assert DRAWN_BOTS == 25 and best[0] == "b00"
    page = write_report(tmp_path).path.read_text()
    assert matrix_rows(page, '<section id="matrix">') == best
    note = "The 25 best-ranked of the 30 bots, and their pairings among them"
    assert note in page and f"arena leaderboard {tmp_path} --format csv" in page
    pairings = page.split('<section id="pairings">', 1)[1].split("</table>", 1)[0]
    assert pairings.count("<tr>") - 1 == 25 * 24 // 2  # pairs among them (and a header)
    # Every bot is listed; the others' opponents are said to be elsewhere.
    bots = page.split('<section id="bots">', 1)[1]
    assert bots.count('<details class="bot"') == 30
    assert bots.count("Its opponents: <code>arena leaderboard") == 5


def test_a_small_board_is_drawn_whole(tmp_path):
    fill(tmp_path)
    board = shown_leaderboard_for(tmp_path)
    assert board.best(30) is board
    best = board.best(25)  # (read from the store's rows: the others' objects not made)
    names = {s.name for s in board.stats[:25]}

    def figures(pairs):
        return {k: (p.wins, p.draws, p.losses, p.ptnml.counts) for k, p in pairs.items()}

    among = {k: v for k, v in figures(board.pairs).items() if names >= set(k)}
    assert figures(best.pairs) == among and len(among) == 25 * 24
    assert all(sum(p.ptnml.counts) == 1 for p in best.pairs.values())  # a seat-swapped pair
    assert board.pairings("b07") == [p for p in board.pairings() if p["bot"] == "b07"]


def test_the_served_leaderboard_draws_the_best_ranked_and_a_bot_page_its_own(
    tmp_path: Path, serve: Callable[..., Server]
) -> None:
    fill(tmp_path)
    best = [s.name for s in shown_leaderboard_for(tmp_path).stats[:DRAWN_BOTS]]
    server = serve(str(tmp_path))
    status, page = server.get("")
    assert status == 200
    assert matrix_rows(page, 'id="matrix"') == best
    assert "The 25 best-ranked of the 30 bots" in page
    last = shown_leaderboard_for(tmp_path).stats[-1].name  # not drawn: on its own page
    status, page = server.get(f"bots/{last}")
    assert status == 200
    opponents = page.split('id="opponents"', 1)[1].split("</table>", 1)[0]
    assert opponents.count("<tr>") - 1 == 29
