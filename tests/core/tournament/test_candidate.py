"""Format candidate: the candidate against every pool bot on shared seeds, stopping on its
verdict; its keys in tournament files."""

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
from arena.tournament.formats import CandidateScheduler, make_scheduler


def config(bots: list[str], games: int | None = None, **extra: object) -> TournamentConfig:
    return TournamentConfig(
        path=Path("t.yaml"), name="t", game="stc", format="candidate", games=games, players=2,
        seed=3, concurrency=1, settings={}, bots=[BotEntry(b, b, (b,)) for b in bots],
        output=Path("out"), variants=[{}], **extra,  # type: ignore[arg-type]
    )  # fmt: skip


def seats(spec: GameSpec, winner: str) -> list[SeatRecord]:
    return [SeatRecord(bot=b, rank=0 if b == winner else 1) for b in spec.seats]


def test_every_pool_bot_meets_the_candidate_on_the_same_seeds_both_ways() -> None:
    plan = CandidateScheduler.full_plan(config(["new", "a", "b", "c"], games=24)) or []
    assert len(plan) == 24
    rounds = [plan[i : i + 6] for i in range(0, 24, 6)]  # a pair against each of a, b, c
    for k, games in enumerate(rounds):
        assert [g.seats for g in games] == [
            ("new", "a"), ("a", "new"), ("new", "b"), ("b", "new"), ("new", "c"), ("c", "new")
        ]  # fmt: skip
        assert len({g.seed for g in games}) == 1, f"round {k} shares one seed"
    assert len({r[0].seed for r in rounds}) == 4  # a new seed each round
    assert len({g.key for g in plan}) == 24


def test_the_candidate_is_the_one_named_and_the_pool_the_rest() -> None:
    plan = CandidateScheduler.full_plan(config(["a", "new", "b"], games=4, candidate="new"))
    assert [g.seats for g in plan or []] == [("new", "a"), ("a", "new"), ("new", "b"), ("b", "new")]


def play(scheduler: CandidateScheduler, winner: str) -> int:
    """Hand out games until the scheduler stops, ``winner`` winning each; games played."""
    n = 0
    for spec in scheduler.specs():
        scheduler.record(spec, seats(spec, winner), {})
        n += 1
    return n


def test_it_stops_as_soon_as_the_pooled_verdict_is_clear() -> None:
    rule = Sprt(0, 150)
    scheduler = CandidateScheduler(config(["new", "a", "b"], games=1000, verdict=rule), [])
    played = play(scheduler, "new")
    assert scheduler.verdict.answer == "better"
    pairs = played // 2
    test = scheduler.verdict.pooled.better.test
    assert test.llr([0, 0, 0, 0, pairs]) >= test.upper > test.llr([0, 0, 0, 0, pairs - 1])
    assert scheduler.expected_total() == played


def test_a_candidate_losing_every_game_is_worse() -> None:
    scheduler = CandidateScheduler(config(["new", "a"], games=1000, verdict=Sprt(0, 150)), [])
    play(scheduler, "a")
    assert scheduler.verdict.answer == "worse"


def test_a_resumed_candidate_counts_its_stored_pairs_and_plays_on() -> None:
    cfg = config(["new", "a", "b"], games=1000, verdict=Sprt(0, 150))
    plan = CandidateScheduler.full_plan(cfg) or []
    stored = [
        StoredGame(i, s.key, s.order, s.round, s.group, "stc", s.seed, "", 1, 1.0, "",
                   tuple(seats(s, "new")), {})
        for i, s in enumerate(plan[:4])
    ]  # fmt: skip
    scheduler = make_scheduler(cfg, stored)
    assert isinstance(scheduler, CandidateScheduler)
    assert scheduler.stored == 4 and scheduler.verdict.pairs == 2
    first = next(iter(scheduler.specs()))
    assert first.key == plan[4].key  # the stored games are not played again


@pytest.fixture()
def write(tmp_path: Path):  # type: ignore[no-untyped-def]
    def write(text: str) -> Path:
        path = tmp_path / "t.yaml"
        path.write_text(textwrap.dedent(text))
        (tmp_path / "x.py").write_text("print(1)\n")
        return path

    return write


BOTS = """
bots:
  - {name: new, cmd: python3 x.py}
  - {name: a, cmd: python3 x.py}
  - {name: b, cmd: python3 x.py}
"""


def test_a_candidate_file_reads_its_keys(write) -> None:  # type: ignore[no-untyped-def]
    path = write(
        "game: stc\nformat: candidate\ncandidate: b\nverdict: {elo0: 0, elo1: 20, alpha: 0.1}\n"
        + BOTS
    )
    cfg = load_tournament(path, load_registry())
    assert (cfg.candidate, cfg.verdict) == ("b", Sprt(0, 20, 0.1, 0.05))


@pytest.mark.parametrize(
    "text, key, message",
    [
        ("format: candidate\ncandidate: nobody\n", "candidate", "no bot named 'nobody'"),
        ("format: candidate\nverdict: {elo0: 5, elo1: 0}\n", "verdict.elo1", "must be greater"),
        ("format: candidate\nverdict: {elo0: 0, elo1: 5, step: 1}\n", "verdict.step", "unknown key"),
        ("format: round-robin\nverdict: {elo0: 0, elo1: 5}\n", "verdict",
         "only used with `format: candidate`"),
        ("format: gauntlet\nchampion: a\ncandidate: a\n", "candidate",
         "only used with `format: candidate`"),
    ],
)  # fmt: skip
def test_bad_candidate_keys_are_refused_naming_the_key(write, text, key, message) -> None:  # type: ignore[no-untyped-def]
    path = write("game: stc\n" + text + BOTS)
    with pytest.raises(ConfigError) as refused:
        load_tournament(path, load_registry())
    assert f": {key} (line " in str(refused.value) and message in str(refused.value)
