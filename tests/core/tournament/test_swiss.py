"""Swiss pairing (``format: swiss``): score groups, no rematches, byes that rotate, seats
swapped within each pairing, rounds resumed from the store; worked out by hand."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from arena.errors import ConfigError
from arena.plugins.registry import load_registry
from arena.records import GameSpec, SeatRecord
from arena.results.store import Store, StoredGame
from arena.tournament.config import BotEntry, TournamentConfig, load_tournament
from arena.tournament.formats import SwissScheduler, make_scheduler, swiss_rounds
from arena.tournament.run import run_tournament
from support import REPO, stc_cycler


def config(bots: str, games: int | None) -> TournamentConfig:
    return TournamentConfig(
        path=Path("t.yaml"), name="t", game="stc", format="swiss", games=games, players=2,
        seed=3, concurrency=1, settings={}, bots=[BotEntry(b, b, (b,)) for b in bots],
        output=Path("out"), variants=[{}],
    )  # fmt: skip


def seats(spec: GameSpec, winner: str | None) -> list[SeatRecord]:
    """The spec's seats with ``winner`` ranked first (None: a draw)."""
    return [SeatRecord(bot=b, rank=0 if winner in (None, b) else 1) for b in spec.seats]


def stored(spec: GameSpec, winner: str | None, i: int) -> StoredGame:
    return StoredGame(
        i, spec.key, spec.order, spec.round, spec.group, "stc", spec.seed, "", 1, 1.0, "",
        tuple(seats(spec, winner)), {},
    )  # fmt: skip


def play_round(sched: SwissScheduler, winner_of) -> list[GameSpec]:
    """One round's games, each recorded with ``winner_of(spec)``'s result."""
    games = list(sched.specs())
    for spec in games:
        sched.record(spec, seats(spec, winner_of(spec)), {})
    return games


def lineups(games: list[GameSpec]) -> list[tuple[str, ...]]:
    return [g.seats for g in games]


# a beats everyone, b beats c, d and e; c and d draw; the rest: the first seat wins
def strength(spec: GameSpec) -> str | None:
    x, y = spec.seats
    if {x, y} == {"c", "d"}:
        return None
    return min(x, y)


def test_four_bots_pair_by_score_without_rematches():
    sched = make_scheduler(config("abcd", 3), [])
    assert isinstance(sched, SwissScheduler) and sched.planned == 12
    # round 1: all on 0 points, ranked in the file's order: neighbours a-b, c-d
    first = play_round(sched, strength)
    assert lineups(first) == [("a", "b"), ("b", "a"), ("c", "d"), ("d", "c")]
    assert {g.round for g in first} == {0} and len({g.seed for g in first}) == 1
    assert [g.order for g in first] == [0, 1, 2, 3]
    assert sched.more_rounds()
    # a 2, c 1, d 1, b 0. a-b and c-d met; a-c + d-b and a-d + c-b both differ by one
    # point per pairing; a-c + d-b are neighbours in the ranking (a, c, d, b)
    assert sched.standings() == ["a", "c", "d", "b"]
    second = play_round(sched, strength)
    assert lineups(second) == [("a", "c"), ("c", "a"), ("d", "b"), ("b", "d")]
    assert second[0].key == "r1:a,c" and [g.order for g in second] == [4, 5, 6, 7]
    # a 4, b 2, c 1, d 1: only a-d and b-c are left unplayed
    assert sched.standings() == ["a", "b", "c", "d"]
    third = play_round(sched, strength)
    assert lineups(third) == [("a", "d"), ("d", "a"), ("b", "c"), ("c", "b")]
    assert sched.points == {"a": 6, "b": 4, "c": 1, "d": 1}
    assert not sched.more_rounds() and list(sched.specs()) == []


def test_a_rematch_only_once_every_pairing_has_met_and_then_by_score():
    sched = make_scheduler(config("abcd", 4), [])
    for _ in range(3):
        play_round(sched, strength)
    # every pairing met once: a 6 and b 4 meet again, c and d (1 each) too
    fourth = play_round(sched, strength)
    assert lineups(fourth) == [("a", "b"), ("b", "a"), ("c", "d"), ("d", "c")]
    assert sched.met == dict.fromkeys(map(frozenset, ("ab", "cd")), 2) | dict.fromkeys(
        map(frozenset, ("ac", "ad", "bc", "bd")), 1
    )


def test_five_bots_one_bye_a_round_and_byes_rotate():
    sched = make_scheduler(config("abcde", None), [])
    assert sched.rounds == swiss_rounds(5) == 4 and sched.planned == 16
    # round 1: e, last in the file's order, sits out and wins its round (2 points)
    first = play_round(sched, strength)
    assert lineups(first) == [("a", "b"), ("b", "a"), ("c", "d"), ("d", "c")]
    assert sched.history[0][1] == "e" and sched.points["e"] == 2
    # a 2, e 2, c 1, d 1, b 0: b is the lowest without a bye. Of a, e, c, d: a-e
    # would need the rematch c-d, so a-c + e-d (neighbours closer than a-d + e-c)
    assert sched.standings() == ["a", "e", "c", "d", "b"]
    second = play_round(sched, strength)
    assert lineups(second) == [("a", "c"), ("c", "a"), ("e", "d"), ("d", "e")]
    assert sched.history[1][1] == "b"
    # a 4, d 3 (it beat e twice), b 2 (the bye), e 2, c 1: c sits out. a-b and d-e
    # are rematches; a-d + b-e differ by 1 and 0 points, a-e + d-b by 2 and 1
    assert sched.standings() == ["a", "d", "b", "e", "c"]
    third = play_round(sched, strength)
    assert sched.history[2][1] == "c"
    assert lineups(third) == [("a", "d"), ("d", "a"), ("b", "e"), ("e", "b")]
    play_round(sched, strength)
    byes = [bye for _, bye in sched.history]
    assert len(set(byes)) == 4  # a different bot each round
    met = [frozenset(p) for pairs, _ in sched.history for p in pairs]
    assert len(met) == len(set(met))  # no rematch in 4 rounds of 5 bots
    assert not sched.more_rounds()


def test_a_swiss_resumes_its_rounds_from_the_store():
    cfg = config("abcde", 4)
    live = make_scheduler(cfg, [])
    history: list[StoredGame] = []
    for _ in range(2):
        for spec in play_round(live, strength):
            history.append(stored(spec, strength(spec), len(history)))
    cut = history[:-1]  # stopped before the last game of round 2
    again = make_scheduler(cfg, cut)
    assert again.stored == 7 and again.points == {"a": 4, "b": 2, "c": 1, "d": 2, "e": 2}
    assert [bye for _, bye in again.history] == ["e", "b"]  # the byes read back
    rest = list(again.specs())
    assert [g.key for g in rest] == [history[-1].key]  # the cut game first, alone
    again.record(rest[0], seats(rest[0], strength(rest[0])), {})
    assert again.points == live.points and again.more_rounds()
    # then round 3 as the uninterrupted run pairs it
    assert lineups(list(again.specs())) == lineups(list(live.specs()))


BASE = """\
game: stc
seed: 5
format: swiss
settings:
  max_turns: 10
bots:
  - name: a
    cmd: python3 bots/stc/random_bot.py
  - name: b
    cmd: python3 bots/stc/greedy.py
  - name: c
    cmd: python3 bots/stc/enemy.py
"""


def load(tmp_path: Path, text: str) -> TournamentConfig:
    path = tmp_path / "t.yaml"
    path.write_text(textwrap.dedent(text))
    return load_tournament(path, load_registry())


def test_swiss_files_load_with_rounds_as_games(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    assert load(tmp_path, BASE).games is None
    assert make_scheduler(load(tmp_path, BASE), []).rounds == 3  # ceil(log2 3) + 1
    assert load(tmp_path, BASE + "games: 5\n").games == 5


def test_swiss_refuses_games_of_three_players(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    blocking = BASE.replace("game: stc", "game: blocking").replace(
        "settings:\n  max_turns: 10\n", ""
    )
    blocking = blocking.replace("bots/stc/enemy.py", "bots/blocking/strategist.py")
    blocking = blocking.replace("bots/stc", "bots/blocking") + "players: 3\n"
    with pytest.raises(ConfigError) as info:
        load(tmp_path, blocking)
    where = str(tmp_path / "t.yaml")
    assert (
        str(info.value) == f"{where}: players (line 11): format swiss plays two-player games, not 3"
    )


def test_a_swiss_run_plays_its_rounds_one_after_another_on_real_bots(tmp_path: Path):
    bots = tmp_path / "bots"
    bots.mkdir()
    for n in (2, 3, 6):
        (bots / f"c{n}.py").write_text(stc_cycler(n))
    path = tmp_path / "t.yaml"
    entries = "".join(f"  - cmd: python3 {bots}/c{n}.py\n" for n in (6, 3, 2))
    text = (
        "name: sw\ngame: stc\nformat: swiss\ngames: 2\nseed: 3\nconcurrency: 2\n"
        f"settings:\n  max_turns: 3\nbots:\n{entries}output: {tmp_path / 'out'}\n"
    )
    path.write_text(text)
    first = run_tournament(load_tournament(path, load_registry()), log=lambda _: None)
    assert first.played == 4 and first.failed == 0  # two rounds of one pairing
    # a third round later: the stored rounds are read back, the third pairing plays
    path.write_text(text.replace("games: 2", "games: 3"))
    cfg = load_tournament(path, load_registry())
    summary = run_tournament(cfg, log=lambda _: None)
    assert (summary.played, summary.resumed, summary.failed) == (2, 4, 0)
    # three bots: one pairing and a bye a round, each pairing once (no rematch)
    store = Store(tmp_path / "out", create=False)
    games = store.games()
    store.close()
    by_round: dict[int, set[str]] = {}
    for g in games:
        by_round.setdefault(g.round, set()).add(g.key)
    assert sorted(by_round) == [0, 1, 2] and all(len(k) == 2 for k in by_round.values())
    pairings = {frozenset(s.bot for s in g.seats) for g in games}
    assert len(pairings) == 3
    # the bye rotates: the bot missing from each round is a different one
    names = {"c6", "c3", "c2"}
    sat_out = [names - {s.bot for g in games if g.round == r for s in g.seats} for r in range(3)]
    assert sorted(b for out in sat_out for b in out) == ["c2", "c3", "c6"]
    assert sat_out[0] == {"c2"}  # the last in the file's order, first
    # run again: every round is stored, nothing more to play
    assert run_tournament(cfg, log=lambda _: None).played == 0
