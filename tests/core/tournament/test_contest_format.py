"""Format contest: the next round where the ranking is least certain, bots of one owner
never meeting, retired bots given no game, leagues with bosses and promotion past them,
resuming from the store; its keys in tournament files; a real run, resumed."""

from __future__ import annotations

import json
import sqlite3
import textwrap
from pathlib import Path

import pytest

from arena.errors import ConfigError
from arena.plugins.registry import load_registry
from arena.records import GameSpec, SeatRecord
from arena.results.store import StoredGame
from arena.tournament.config import BotEntry, TournamentConfig, load_tournament
from arena.tournament.formats import ContestScheduler, make_scheduler
from arena.tournament.formats.contest import MIN_LEAGUE_GAMES
from support import run_arena, stc_cycler

MU, SIGMA = 25.0, 25 / 3  # TrueSkill's prior


def config(
    bots: list[str],
    owners: dict[str, str] | None = None,
    leagues: tuple[str, ...] = (),
    retired: tuple[str, ...] = (),
    games: int | None = None,
    output: Path = Path("out"),
) -> TournamentConfig:
    owners = owners or {}
    entries = [BotEntry(b, b, (b,), owner=owners.get(b)) for b in bots]
    return TournamentConfig(
        path=Path("t.yaml"), name="t", game="stc", format="contest", games=games, players=2,
        seed=3, concurrency=1, settings={}, bots=entries, output=output, variants=[{}],
        leagues=leagues, retired=retired,
    )  # fmt: skip


def seats(spec: GameSpec, winner: str | None) -> list[SeatRecord]:
    """The spec's seats with ``winner`` ranked first (None: a draw)."""
    return [SeatRecord(bot=b, rank=0 if winner in (None, b) else 1) for b in spec.seats]


def play(scheduler: ContestScheduler, winner_of, games: int) -> list[GameSpec]:
    """``games`` games one after the other, ``winner_of(spec)`` deciding each."""
    played = []
    stream = scheduler.specs()
    for spec in stream:
        played.append(spec)
        scheduler.record(spec, seats(spec, winner_of(spec)), {})
        if len(played) == games:
            break
    return played


def test_a_fresh_contest_spreads_the_first_rounds_over_idle_bots(tmp_path):
    s = ContestScheduler(config(["a", "b", "c"], output=tmp_path), [])
    stream = s.specs()
    # Equal priors: the first bot in the file's order meets the next (equal quality).
    assert [next(stream).seats for _ in range(2)] == [("a", "b"), ("b", "a")]
    # a and b have games under way, c none: c is the focus, and meets a (file order).
    assert [next(stream).seats for _ in range(2)] == [("c", "a"), ("a", "c")]


def test_the_focus_is_the_least_certain_bot_and_meets_the_closest_in_rating(tmp_path):
    s = ContestScheduler(config(["a", "b", "c", "d"], output=tmp_path), [])
    s.rating.update({"a": (30, 2), "b": (25, 2), "c": (20, 6), "d": (26, 2)})
    assert s.choose() == ("c", "b")  # c's sigma is the largest; b's mu the closest to 20
    # Rounds already played divide the quality: with sigma_c 6, sigma 2 and beta 25/6,
    # quality(c, b) = 0.5767 / (1 + 3) = 0.144 < quality(c, d) = 0.5357.
    s.rounds[frozenset(("b", "c"))] = 3
    assert s.choose() == ("c", "d")


def test_a_new_version_plays_more_until_its_rating_settles(tmp_path):
    s = ContestScheduler(config(["a", "b", "c"], output=tmp_path), [])
    play(s, lambda spec: "a", 40)
    s.rating["new"] = (MU, SIGMA)  # a version joins (as the roster's reload would make it)
    for table in (s.games, s.league, s.league_games, s.running):
        table["new"] = 0
    s.order["new"], s.owner["new"] = 3, None
    s.active.append("new")
    played = play(s, lambda spec: "a", 8)
    assert all("new" in spec.seats for spec in played)  # its sigma is the largest
    assert s.rating["new"][1] < SIGMA / 2


def test_bots_of_one_owner_never_meet(tmp_path):
    owners = {"x1": "x", "x2": "x", "x3": "x", "y1": "y"}
    s = ContestScheduler(config(["x1", "x2", "x3", "y1", "free"], owners, output=tmp_path), [])
    played = play(s, lambda spec: spec.seats[0], 60)
    assert len(played) == 60
    met = {frozenset(spec.seats) for spec in played}
    assert not any({"x1", "x2"} <= m or {"x1", "x3"} <= m or {"x2", "x3"} <= m for m in met)
    assert frozenset(("x1", "y1")) in met and frozenset(("free", "x2")) in met
    # Only one owner's bots left: no two bots may meet, the stream ends.
    alone = ContestScheduler(config(["x1", "x2"], owners, output=tmp_path), [])
    assert alone.choose() is None and list(alone.specs()) == []


def test_retired_bots_get_no_game_and_their_unfinished_round_is_dropped(tmp_path):
    first = ContestScheduler(config(["a", "b", "c"], output=tmp_path), [])
    half = next(first.specs())  # a vs b, its second game never played
    assert half.seats == ("a", "b")
    stored = [StoredGame(1, half.key, half.order, half.round, half.group, "stc", half.seed,
                         "", 1, 1.0, "", tuple(seats(half, "a")), {})]  # fmt: skip
    s = ContestScheduler(config(["a", "b", "c"], retired=("b",), output=tmp_path), stored)
    assert s.unfinished == [] and s.stored == 1 and s.games["b"] == 1
    played = play(s, lambda spec: "a", 10)
    assert all("b" not in spec.seats for spec in played) and len(played) == 10
    # Not retired, the same stored half round is finished first.
    again = ContestScheduler(config(["a", "b", "c"], output=tmp_path), stored)
    assert next(again.specs()).seats == ("b", "a")


def test_participants_start_in_the_lowest_league_and_meet_only_its_bots(tmp_path):
    s = ContestScheduler(config(["wood", "bronze", "p", "q"], leagues=("wood", "bronze"),
                                output=tmp_path), [])  # fmt: skip
    assert s.leagues() == {"wood": "wood", "bronze": "bronze", "p": "wood", "q": "wood"}
    assert s.status() == "leagues: wood 3, bronze 1, top 0"
    played = play(s, lambda spec: "wood", 30)  # nobody passes the boss
    assert all("bronze" not in spec.seats for spec in played)
    assert s.leagues() == {"wood": "wood", "bronze": "bronze", "p": "wood", "q": "wood"}


def test_promotion_after_enough_games_and_a_conservative_rating_above_the_boss(tmp_path):
    s = ContestScheduler(config(["wood", "bronze", "p", "q"], leagues=("wood", "bronze"),
                                output=tmp_path), [])  # fmt: skip
    s.rating.update({"p": (40.0, 1.0), "wood": (25.0, 1.0)})  # p's mu - 3 sigma: 37 > 22
    s.league_games["p"] = MIN_LEAGUE_GAMES - 2
    win = GameSpec(0, 0, 1, ("p", "wood"), "r0:p,wood")
    s.record(win, seats(win, "p"), {})
    assert s.league["p"] == 0  # rated above its boss, but one game short
    s.record(win, seats(win, "p"), {})
    assert s.leagues()["p"] == "bronze" and s.league_games["p"] == 0
    assert s.leagues()["wood"] == "wood"  # a boss never moves
    assert s.may_meet("p", "bronze") and not s.may_meet("p", "q")
    # Past the last boss: the top league, where p stays.
    s.rating.update({"p": (60.0, 1.0), "bronze": (30.0, 1.0)})
    s.league_games["p"] = MIN_LEAGUE_GAMES - 1
    beat = GameSpec(1, 1, 1, ("p", "bronze"), "r1:p,bronze")
    s.record(beat, seats(beat, "p"), {})
    assert s.leagues()["p"] == "top"
    assert s.status() == "leagues: wood 2, bronze 1, top 1"
    s.league_games["p"] = 50
    s.record(beat, seats(beat, "p"), {})
    assert s.leagues()["p"] == "top"


def test_a_strong_bot_climbs_the_leagues_in_play(tmp_path):
    cfg = config(["wood", "bronze", "p", "q"], leagues=("wood", "bronze"), output=tmp_path)
    s = ContestScheduler(cfg, [])
    strength = {"q": 0, "wood": 1, "bronze": 2, "p": 3}
    played = play(s, lambda spec: max(spec.seats, key=strength.__getitem__), 200)
    assert s.leagues() == {"wood": "wood", "bronze": "bronze", "p": "top", "q": "wood"}
    first_top = next(i for i, spec in enumerate(played) if "bronze" in spec.seats)
    assert all("q" not in spec.seats for spec in played[first_top:] if "p" in spec.seats)


def test_a_contest_resumes_with_the_ratings_and_leagues_it_had(tmp_path):
    cfg = config(["wood", "p", "q", "r"], {"q": "o", "r": "o"}, ("wood",), output=tmp_path)
    strength = {"q": 0, "r": 1, "wood": 2, "p": 3}
    s = ContestScheduler(cfg, [])
    played = play(s, lambda spec: max(spec.seats, key=strength.__getitem__), 41)  # a half pair
    stored = [
        StoredGame(
            i + 1,
            spec.key,
            spec.order,
            spec.round,
            spec.group,
            "stc",
            spec.seed,
            "",
            1,
            1.0,
            "",
            tuple(seats(spec, max(spec.seats, key=strength.__getitem__))),
            {},
        )
        for i, spec in enumerate(played)
    ][::-1]  # fmt: skip   (the store's order need not be the order they were played)
    resumed = make_scheduler(cfg, stored)
    assert isinstance(resumed, ContestScheduler)
    assert resumed.rating == s.rating and resumed.leagues() == s.leagues()
    assert resumed.stored == 41 and resumed.next_round == s.next_round
    last = played[-1]
    assert next(resumed.specs()).seats == last.seats[::-1]


# -- tournament files ------------------------------------------------------------------


def contest_file(tmp_path: Path, extra: str = "", games: int = 4) -> Path:
    (tmp_path / "cycler.py").write_text(stc_cycler())
    (tmp_path / "other.py").write_text(stc_cycler(5))
    path = tmp_path / "contest.yaml"
    path.write_text(
        textwrap.dedent(f"""\
        game: stc
        format: contest
        games: {games}
        sandbox: none
        concurrency: 1
        settings:
          max_turns: 20
        bots:
          - {{name: boss, cmd: python3 cycler.py}}
          - {{name: ann-v1, cmd: python3 other.py, owner: ann}}
          - {{name: ann-v2, cmd: python3 cycler.py, owner: ann}}
          - {{name: bob-v1, cmd: python3 other.py, owner: bob}}
        output: {tmp_path / "out"}
        """)
        + extra
    )
    return path


def test_owner_and_leagues_load(tmp_path):
    cfg = load_tournament(contest_file(tmp_path, "leagues: [boss]\n"), load_registry())
    assert cfg.format == "contest" and cfg.leagues == ("boss",)
    assert [b.owner for b in cfg.bots] == [None, "ann", "ann", "bob"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("leagues: [zed]\n", "leagues[0] (line 14): no bot named 'zed' (bots: boss, ann-v1, "
                             "ann-v2, bob-v1)"),
        ("leagues: [boss, boss]\n", "leagues[1] (line 14): bot 'boss' is the boss of two leagues"),
        ("leagues: boss\n", "leagues (line 14): must be a list of bot names (the bosses, "
                            "weakest first)"),
    ],
)  # fmt: skip
def test_league_mistakes_name_file_key_and_line(tmp_path, extra, message):
    path = contest_file(tmp_path, extra)
    with pytest.raises(ConfigError) as info:
        load_tournament(path, load_registry())
    assert str(info.value) == f"{path}: {message}"


def test_leagues_belong_to_the_contest_and_an_owner_is_text(tmp_path):
    path = contest_file(tmp_path, "leagues: [boss]\n")
    path.write_text(path.read_text().replace("format: contest", "format: league"))
    with pytest.raises(ConfigError) as info:
        load_tournament(path, load_registry())
    assert str(info.value) == (
        f"{path}: leagues (line 14): only used with `format: contest` (format is league)"
    )
    path = contest_file(tmp_path)
    path.write_text(path.read_text().replace("owner: bob", "owner: 7"))
    with pytest.raises(ConfigError) as info:
        load_tournament(path, load_registry())
    assert (
        str(info.value) == f'{path}: bots[3].owner (line 12): must be text, not 7 (quote it: "7")'
    )


def stored_seats(out: Path) -> list[tuple[str, ...]]:
    db = sqlite3.connect(out / "arena.sqlite")
    try:
        games: dict[int, tuple[str, ...]] = {}
        for game, bot in db.execute("SELECT game_id, bot FROM seats ORDER BY game_id, seat"):
            games[game] = (*games.get(game, ()), bot)
        return list(games.values())
    finally:
        db.close()


def test_a_real_contest_plays_stores_owners_and_leagues_and_resumes(tmp_path):
    path = contest_file(tmp_path, "leagues: [boss]\n")
    out = tmp_path / "out"
    first = run_arena("run", str(path), "--no-progress")
    assert first.returncode == 0, first.stderr
    games = stored_seats(out)
    assert len(games) == 4
    assert not any(set(g) == {"ann-v1", "ann-v2"} for g in games)
    status = json.loads((out / "status.json").read_text())
    assert status["state"] == "done" and status["games_done"] == 4
    assert status["leagues"] == {"boss": "boss", "ann-v1": "boss", "ann-v2": "boss",
                                 "bob-v1": "boss"}  # fmt: skip
    db = sqlite3.connect(out / "arena.sqlite")
    meta = dict(db.execute("SELECT key, value FROM meta"))
    db.close()
    assert json.loads(meta["owners"]) == {"ann-v1": "ann", "ann-v2": "ann", "bob-v1": "bob"}
    board = run_arena("leaderboard", str(out))
    assert board.returncode == 0 and "ann" in board.stdout and "bob-v1" in board.stdout
    assert " ann " not in board.stdout  # the owner is shown nowhere public
    # Resumed with more games: the four stored are kept, four more played.
    second = run_arena("run", str(path), "--games", "8", "--no-progress")
    assert second.returncode == 0, second.stderr
    assert "resuming: 4 of 8 games already stored" in second.stderr
    assert stored_seats(out)[:4] == games and len(stored_seats(out)) == 8
    assert not any(set(g) == {"ann-v1", "ann-v2"} for g in stored_seats(out))
