"""Run observers: every event reaches every observer in order, one that raises is said and
skipped, and a real tournament run publishes its steps to the observers passed in."""

from __future__ import annotations

from pathlib import Path

from arena.events import (
    GameStored,
    Observers,
    RunFinished,
    RunObserver,
    RunStarted,
)
from arena.execute.pool import Failure
from arena.plugins.registry import load_registry
from arena.tournament.config import load_tournament
from arena.tournament.play import Failed, Played, Stalled, outcome_of
from arena.tournament.run import run_tournament
from support import stc_cycler


class Recorder(RunObserver):
    def __init__(self) -> None:
        self.events: list[object] = []

    def started(self, event: RunStarted) -> None:
        self.events.append(event)

    def stored(self, event: GameStored) -> None:
        self.events.append(event)

    def finished(self, event: RunFinished) -> None:
        self.events.append(event)


class Broken(RunObserver):
    def started(self, event: RunStarted) -> None:
        raise RuntimeError("no screen")


def test_a_failing_observer_is_said_and_the_others_still_hear(tmp_path):
    said: list[str] = []
    first, last = Recorder(), Recorder()
    observers = Observers([first, Broken(), last], said.append)
    event = RunStarted("t", tmp_path, total=3)
    observers.publish(event)
    observers.publish(RunFinished("done", played=0, done=0, total=3))
    assert first.events == last.events == [event, RunFinished("done", 0, 0, 3)]
    assert said == ["arena: Broken failed on RunStarted: RuntimeError: no screen"]


def test_a_workers_result_is_a_played_game_a_stall_or_a_failure():
    assert outcome_of(Failure("referee broke")) == Failed("referee broke")
    assert outcome_of({"reason": "stall", "stall": "seat 0 waited"}) == Stalled("seat 0 waited")
    record = {
        "game": "stc", "seed": 1, "settings": {}, "seats": [{"bot": "a"}], "reason": "win",
        "turns": 1, "steps": 1, "duration_ms": 1.0,
    }  # fmt: skip
    played = outcome_of(record)
    assert isinstance(played, Played) and played.record.seats[0].bot == "a"


def test_a_run_publishes_its_start_each_stored_game_and_its_end(tmp_path: Path):
    bots = tmp_path / "bots"
    bots.mkdir()
    (bots / "c6.py").write_text(stc_cycler(6))
    (bots / "c3.py").write_text(stc_cycler(3))
    path = tmp_path / "t.yaml"
    path.write_text(
        "name: ev\ngame: stc\ngames: 2\nseed: 3\nconcurrency: 1\nsettings:\n  max_turns: 3\n"
        f"bots:\n  - cmd: python3 {bots}/c6.py\n  - cmd: python3 {bots}/c3.py\n"
        f"output: {tmp_path / 'out'}\n"
    )
    config = load_tournament(path, load_registry())
    recorder = Recorder()
    summary = run_tournament(config, log=lambda _: None, observers=[recorder])
    assert summary.played == 2
    start, *stored, end = recorder.events
    assert start == RunStarted("ev", tmp_path / "out", total=2, stored=0)
    assert [(e.played, e.done, e.total) for e in stored] == [(1, 1, 2), (2, 2, 2)]
    assert {e.spec.key for e in stored} == {"r0:c6,c3", "r0:c3,c6"}
    assert end == RunFinished("done", played=2, done=2, total=2, why=None)
    # Run again: every game is stored, nothing to play; the start says so.
    again = Recorder()
    run_tournament(config, log=lambda _: None, observers=[again])
    assert again.events == [
        RunStarted("ev", tmp_path / "out", total=2, stored=2),
        RunFinished("done", played=0, done=2, total=2, why=None),
    ]
