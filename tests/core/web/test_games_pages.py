"""The games list's keyset pages: the store's listing query (``Store.games_by_id``) paged
by id, newest first, through the real server; each page's games and links worked out by
hand from a store of 120 games written through arena's storing API."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from arena.records import GameRecord, SeatRecord
from arena.results.queries import GameFilter
from arena.results.store import Store
from core.web.conftest import Server

GAMES = 120


def _pair(i: int) -> tuple[str, str]:
    """Game ``i``'s seats: a against b in odd games, b against c in even ones."""
    return ("a", "b") if i % 2 else ("b", "c")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """120 games; game i (id i) is won by its first seat when i % 3 == 0, else drawn."""
    output = tmp_path_factory.mktemp("pages") / "out"
    store = Store(output)
    store.set_meta({"name": "pages", "game": "stc", "bots": ["a", "b", "c"], "seed": 1})
    store.set_bots({"a": "python3 a.py", "b": "python3 b.py", "c": "python3 c.py"})
    for i in range(1, GAMES + 1):
        first, second = _pair(i)
        ranks = (0, 1) if i % 3 == 0 else (0, 0)
        seats = [SeatRecord(first, ranks[0], 1.0), SeatRecord(second, ranks[1], 0.5)]
        record = GameRecord("stc", i, {}, seats, "end", 10, 20, 5.0)
        identity = {"seed": i, "bots": [first, second]}
        assert store.add_game(f"g{i}", i, 0, "", record, identity) == i
    store.close()
    return output


def test_store_pages_by_id(folder: Path) -> None:
    store = Store(folder, create=False)
    try:
        games, more = store.games_by_id(GameFilter(bot="a"), limit=5)
        assert [g.id for g in games] == [119, 117, 115, 113, 111] and more
        games, more = store.games_by_id(GameFilter(bot="a"), before=111, limit=5)
        assert [g.id for g in games] == [109, 107, 105, 103, 101] and more
        games, more = store.games_by_id(GameFilter(bot="a"), after=109, limit=5)
        assert [g.id for g in games] == [119, 117, 115, 113, 111] and not more
        # a's wins: odd games (a seats first) whose number divides by 3
        games, more = store.games_by_id(GameFilter(bot="a", result="win"), before=30, limit=5)
        assert [g.id for g in games] == [27, 21, 15, 9, 3] and not more
        games, _ = store.games_by_id(GameFilter(bot="c", result="loss"), limit=3)
        assert [g.id for g in games] == [120, 114, 108]
    finally:
        store.close()


def _shown(body: str) -> list[int]:
    return [int(n) for n in re.findall(r'<tr data-game="(\d+)"', body)]


def _link(body: str, name: str) -> str | None:
    found = re.search(rf'<a id="{name}" href="/([^"]+)"', body)
    return None if found is None else found.group(1).replace("&amp;", "&")


def test_pages_walk_every_game_once(folder: Path, serve: Callable[..., Server]) -> None:
    server = serve(str(folder))
    _, body = server.get("games")
    assert _shown(body) == list(range(120, 70, -1))
    assert _link(body, "newer") is None
    assert _link(body, "older") == "games?before=71"
    _, body = server.get("games?before=71")
    assert _shown(body) == list(range(70, 20, -1))
    assert (_link(body, "newer"), _link(body, "older")) == ("games?after=70", "games?before=21")
    _, body = server.get("games?before=21")
    assert _shown(body) == list(range(20, 0, -1))
    assert (_link(body, "newer"), _link(body, "older")) == ("games?after=20", None)
    _, body = server.get("games?after=20")  # back: the page just above, as first seen
    assert _shown(body) == list(range(70, 20, -1))
    # Filters ride along the links: b against c are the even games, b's wins the even
    # games divisible by 3 (b seats first there).
    _, body = server.get("games?bot=b&opponent=c&result=win")
    assert _shown(body) == list(range(120, 0, -6))
    assert _link(body, "older") is None
    _, body = server.get("games?bot=b&opponent=c")
    assert _shown(body) == list(range(120, 20, -2))
    assert _link(body, "older") == "games?bot=b&opponent=c&before=22"
