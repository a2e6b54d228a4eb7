"""Formats: gauntlet, SPRT and league schedules, deciding from results, resuming from the
store; and their keys in tournament files (one clear message per mistake)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from arena.errors import ConfigError
from arena.plugins.registry import load_registry
from arena.records import GameSpec, SeatRecord
from arena.results.stats import Sprt
from arena.results.store import StoredGame
from arena.tournament.config import BotEntry, TournamentConfig, load_tournament
from arena.tournament.formats import LeagueScheduler, SprtScheduler, make_scheduler
from arena.tournament.schedule import gauntlet, pair_round, round_robin
from support import REPO


def config(fmt: str, bots: list[str], games: int | None, **extra) -> TournamentConfig:
    return TournamentConfig(
        path=Path("t.yaml"), name="t", game="stc", format=fmt, games=games, players=2,
        seed=3, concurrency=1, settings={}, bots=[BotEntry(b, b, (b,)) for b in bots],
        output=Path("out"), variants=[{}], **extra,
    )  # fmt: skip


def seats(spec: GameSpec, winner: str | None) -> list[SeatRecord]:
    """The spec's seats with ``winner`` ranked first (None: a draw)."""
    return [SeatRecord(bot=b, rank=0 if winner in (None, b) else 1) for b in spec.seats]


def stored(spec: GameSpec, winner: str | None, i: int = 0) -> StoredGame:
    return StoredGame(
        i, spec.key, spec.order, spec.round, spec.group, "stc", spec.seed, "", 1, 1.0, "",
        tuple(seats(spec, winner)), {},
    )  # fmt: skip


def play(scheduler, winner_of, limit: int = 10_000) -> list[GameSpec]:
    """Run a scheduler to its end, one game at a time, ``winner_of(spec)`` deciding."""
    played = []
    for spec in scheduler.specs():
        played.append(spec)
        scheduler.record(spec, seats(spec, winner_of(spec)), {})
        assert len(played) < limit
    return played


def test_gauntlet_plays_the_champion_against_each_other_bot_only():
    specs = gauntlet(["a", "b", "c", "d"], "c", 2, 2, seed=1)
    assert [s.seats for s in specs] == [
        ("a", "c"),
        ("c", "a"),
        ("b", "c"),
        ("c", "b"),
        ("c", "d"),
        ("d", "c"),
    ]
    # the games are those of the round-robin that involve the champion (same keys, seeds)
    rr = {s.key: s.seed for s in round_robin(["a", "b", "c", "d"], 2, 2, seed=1)}
    assert all(rr[s.key] == s.seed for s in specs)
    three = gauntlet(["a", "b", "c", "d"], "a", 3, 3, seed=1)
    assert {frozenset(s.seats) for s in three} == {
        frozenset("abc"),
        frozenset("abd"),
        frozenset("acd"),
    }


def test_a_pair_round_is_the_round_robin_round_of_two_bots():
    rr = [s for s in round_robin(["x", "y"], 2, 10, seed=9) if s.round == 4]
    assert pair_round("x", "y", 4, seed=9, order=8) == rr
    assert [s.key for s in rr] == ["r4:x,y", "r4:y,x"]


def test_sprt_stops_once_a_stronger_candidate_crosses_the_upper_bound():
    sched = make_scheduler(config("sprt", ["new", "old"], 2000, sprt=Sprt(0, 5)), [])
    played = play(sched, lambda spec: "new")
    # every pair is WW for new; normalized [0, 5] needs 147 such pairs (LLR 2.96 >= ln 19)
    assert len(played) == 294
    assert sched.result().verdict == "H1" and sched.result().pairs == 147
    assert sched.status() == "LLR 2.96 (-2.94, 2.94) [0, 5]"


def test_sprt_of_equal_bots_accepts_h0_or_reaches_the_maximum():
    # Seats decide every game: each pair is 1-1, exactly even.
    even = lambda spec: spec.seats[0]  # noqa: E731
    sched = make_scheduler(config("sprt", ["a", "b"], 60, sprt=Sprt(0, 5)), [])
    assert len(play(sched, even)) == 60 and sched.result().verdict is None
    logistic = Sprt(0, 20, model="logistic")
    sched = make_scheduler(config("sprt", ["a", "b"], 2000, sprt=logistic), [])
    played = play(sched, even)
    assert sched.result().verdict == "H0" and len(played) < 2000


def test_sprt_resumes_from_the_store_and_never_replays_a_key():
    cfg = config("sprt", ["new", "old"], 2000, sprt=Sprt(0, 5))
    first = make_scheduler(cfg, [])
    done = []
    for spec in first.specs():
        done.append(stored(spec, "new", len(done)))
        first.record(spec, seats(spec, "new"), {})
        if len(done) == 101:  # stopped in the middle of a pair
            break
    again = make_scheduler(cfg, done)
    assert again.stored == 101
    rest = play(again, lambda spec: "new")
    assert not {s.key for s in rest} & {g.key for g in done}
    assert rest[0].key == "r50:old,new"  # the missing half of the cut pair comes first
    assert len(done) + len(rest) == 294 and again.result().verdict == "H1"
    # a decided test plays nothing more
    finished = make_scheduler(cfg, done + [stored(s, "new") for s in rest])
    assert list(finished.specs()) == []


def test_league_first_covers_every_pairing_then_follows_overlapping_ratings():
    strength = {"a": 3, "b": 2, "c": 1, "d": 1}

    def winner(spec: GameSpec) -> str | None:
        a, b = spec.seats
        return None if strength[a] == strength[b] else max(spec.seats, key=strength.get)

    sched = make_scheduler(config("league", list("abcd"), 60), [])
    assert isinstance(sched, LeagueScheduler)
    played = play(sched, winner)
    assert len(played) == 60
    rounds = [frozenset(s.seats) for s in played[::2]]
    assert set(rounds[:6]) == {frozenset(p) for p in ("ab", "ac", "ad", "bc", "bd", "cd")}
    counts = {p: rounds.count(p) for p in set(rounds)}
    # c and d are equal (always draw): their ratings overlap most, they play most;
    # a against the weakest two, far apart, plays least.
    assert counts[frozenset("cd")] == max(counts.values())
    assert counts[frozenset("ac")] <= counts[frozenset("ab")]
    assert [s.round for s in played] == [r for r in range(30) for _ in range(2)]


def test_a_bot_added_to_a_league_plays_first_and_unfinished_rounds_complete():
    cfg = config("league", ["a", "b", "c"], 20)
    sched = make_scheduler(cfg, [])
    history = []
    for spec in sched.specs():
        history.append(stored(spec, spec.seats[0], len(history)))
    assert len(history) == 20
    cut = history[:-1]  # the last round lost its second game
    grown = make_scheduler(config("league", ["a", "b", "c", "new"], 30), cut)
    assert grown.stored == 19
    nxt = list(grown.specs())
    assert len(nxt) == 11
    assert nxt[0].key == history[-1].key  # the cut round is finished first
    assert all("new" in s.seats for s in nxt[1:7])  # then the newcomer meets everyone
    assert {frozenset(s.seats) - {"new"} for s in nxt[1:7]} == {
        frozenset("a"),
        frozenset("b"),
        frozenset("c"),
    }
    assert nxt[1].round == max(g.round for g in history) + 1


def test_a_league_without_games_runs_until_stopped():
    sched = make_scheduler(config("league", ["a", "b"], None), [])
    assert sched.planned is None
    stream = sched.specs()
    assert len([next(stream) for _ in range(500)]) == 500


# -- tournament files ----------------------------------------------------------------

BASE = """\
game: stc
seed: 5
settings:
  max_turns: 10
bots:
  - name: a
    cmd: python3 bots/stc/random_bot.py
  - name: b
    cmd: python3 bots/stc/greedy.py
"""


def load(tmp_path: Path, text: str) -> TournamentConfig:
    path = tmp_path / "t.yaml"
    path.write_text(textwrap.dedent(text))
    return load_tournament(path, load_registry())


def test_format_keys_load(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    cfg = load(
        tmp_path, BASE + "format: sprt\nsprt: {elo0: -1, elo1: 4, beta: 0.1, model: logistic}\n"
    )
    assert cfg.sprt == Sprt(-1, 4, 0.05, 0.1, "logistic") and cfg.games is None
    cfg = load(tmp_path, BASE + "format: sprt\ngames: 400\nsprt: {elo0: 0, elo1: 5}\n")
    assert cfg.sprt == Sprt(0, 5) and cfg.games == 400
    assert isinstance(make_scheduler(cfg, []), SprtScheduler)
    cfg = load(tmp_path, BASE + "format: gauntlet\nchampion: b\n")
    assert cfg.champion == "b" and cfg.games == 2
    cfg = load(tmp_path, BASE + "format: league\n")
    assert cfg.format == "league" and cfg.games is None


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            "format: dutch\n",
            "format (line 10): unknown format 'dutch' "
            "(known: round-robin, gauntlet, sprt, league, candidate, swiss, contest)",
        ),
        (
            "format: gauntlet\n",
            "format (line 10): format gauntlet needs `champion: NAME` (one of the bots)",
        ),
        (
            "format: gauntlet\nchampion: zed\n",
            "champion (line 11): no bot named 'zed' (bots: a, b)",
        ),
        (
            "champion: a\n",
            "champion (line 10): only used with `format: gauntlet` (format is round-robin)",
        ),
        ("format: sprt\n", "format (line 10): format sprt needs `sprt: {elo0: 0, elo1: 5}`"),
        (
            "format: sprt\nsprt: {elo0: 5, elo1: 0}\n",
            "sprt.elo1 (line 11): must be greater than elo0",
        ),
        (
            "format: sprt\nsprt: {elo0: 0, elo1: 5, alpha: 1.5}\n",
            "sprt.alpha (line 11): must be between 0 and 1, not 1.5",
        ),
        (
            "format: sprt\nsprt: {elo0: 0, elo1: 5, alpha: 0.5, beta: 0.5}\n",
            "sprt.beta (line 11): alpha + beta must be less than 1",
        ),
        (
            "format: sprt\nsprt: {elo0: 0, elo1: five}\n",
            "sprt.elo1 (line 11): must be a number, not 'five'",
        ),
        ("format: sprt\nsprt: {elo0: 0}\n", "sprt (line 11): missing key 'elo1'"),
        (
            "format: sprt\nsprt: {elo0: 0, elo1: 5, model: bayes}\n",
            "sprt.model (line 11): must be one of normalized, logistic, not 'bayes'",
        ),
        (
            "format: sprt\nsprt: {elo0: 0, elo1: 5, alhpa: 0.1}\n",
            "sprt.alhpa (line 11): unknown key (known: elo0, elo1, alpha, beta, model)",
        ),
        (
            "sprt: {elo0: 0, elo1: 5}\n",
            "sprt (line 10): only used with `format: sprt` (format is round-robin)",
        ),
        ("format: league\ngames: 0\n", "games (line 11): must be a positive whole number, not 0"),
    ],
)
def test_format_mistakes_name_file_key_and_line(tmp_path, monkeypatch, extra, message):
    monkeypatch.chdir(REPO)
    with pytest.raises(ConfigError) as info:
        load(tmp_path, BASE + extra)
    assert str(info.value) == f"{tmp_path / 't.yaml'}: {message}"


def test_sprt_needs_exactly_two_bots_and_league_two_player_games(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    three = BASE + "  - name: c\n    cmd: python3 bots/stc/enemy.py\n"
    with pytest.raises(
        ConfigError, match=r"bots \(line 5\): format sprt compares exactly two bots, not 3"
    ):
        load(tmp_path, three + "format: sprt\nsprt: {elo0: 0, elo1: 5}\n")
    blocking = (BASE + "format: league\nplayers: 3\n").replace("game: stc", "game: blocking")
    blocking = blocking.replace("settings:\n  max_turns: 10\n", "").replace(
        "bots/stc", "bots/blocking"
    )
    blocking = blocking.replace(
        "greedy.py\n", "greedy.py\n  - name: c\n    cmd: python3 bots/blocking/strategist.py\n", 1
    )
    with pytest.raises(
        ConfigError, match=r"players \(line \d+\): format league plays two-player games, not 3"
    ):
        load(tmp_path, blocking)


def test_every_shipped_tournament_file_loads(monkeypatch):
    monkeypatch.chdir(REPO)
    files = sorted((REPO / "tournaments").glob("*.yaml"))
    formats = {load_tournament(path, load_registry()).format for path in files}
    assert formats == {"round-robin", "gauntlet", "sprt", "league"}
