"""A report whose size does not grow with the games: of 250 stored games it lists the newest
200, writes their viewers only, says where the others are, and still counts every
game's forfeits; a small tournament's report lists every game as before."""

from __future__ import annotations

import json
import re
from pathlib import Path

from arena.records import GameRecord, SeatRecord
from arena.results.store import Store
from arena.views.report import SHOWN_GAMES, write_report


def fill(out: Path, games: int) -> None:
    store = Store(out)
    store.set_meta({"name": "many", "game": "stc", "bots": ["a", "b"], "seed": 1})
    for n in range(games):
        a_forfeits = n % 10 == 0  # games 1, 11, 21...: a times out
        seats = [
            SeatRecord(
                bot="a", rank=1 if a_forfeits else 0, forfeit="timeout" if a_forfeits else None
            ),
            SeatRecord(bot="b", rank=0 if a_forfeits else 1),
        ]
        record = GameRecord("stc", n, {}, seats, "done", 3, 3, 1.0)
        key = f"g{n}"
        store.add_game(key, n, 0, "", record, {"seed": n, "bots": ["a", "b"]})
        folder = store.game_dir(key)
        folder.mkdir(parents=True)
        replay = {"game": "stc", "seed": n, "players": ["a", "b"], "steps": []}
        (folder / "replay.json").write_text(json.dumps(replay))
    store.close()


def listed_ids(page: str) -> list[int]:
    table = page.split('id="games-table"')[1].split("</table>")[0]
    return [int(i) for i in re.findall(r'class="game-link" href="[^"]*">(\d+)</a>', table)]


def test_a_long_tournaments_report_lists_the_newest_games_and_writes_only_their_viewers(
    tmp_path,
):
    fill(tmp_path, 250)
    result = write_report(tmp_path)
    page = result.path.read_text()
    assert SHOWN_GAMES == 200
    assert listed_ids(page) == list(range(51, 251))
    assert "The newest 200 of the 250 games" in page
    assert f"arena list {tmp_path}" in page
    # Viewers for the listed games and for the shown forfeits (the newest 200 such games
    # are all 25 of them: 1, 11, ..., 241).
    viewers = sorted(
        int(p.parent.name[1:].split("-")[0]) + 1 for p in tmp_path.glob("games/*/viewer.html")
    )
    forfeit_ids = [n + 1 for n in range(0, 250, 10)]
    assert viewers == sorted(set(range(51, 251)) | set(forfeit_ids))
    assert result.viewers == len(viewers)
    # Forfeits by reason count every game: a timed out in 25.
    forfeits = page.split('id="forfeits"')[1].split("</table>")[0]
    assert re.search(r'<td class="l">a</td><td>25</td>', forfeits)
    assert "· 250 games ·" in page


def test_a_small_tournaments_report_lists_every_game(tmp_path):
    fill(tmp_path, 12)
    page = write_report(tmp_path).path.read_text()
    assert listed_ids(page) == list(range(1, 13))
    assert "The newest" not in page
