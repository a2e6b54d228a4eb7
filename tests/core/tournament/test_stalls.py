"""Stalled games under sustained load: the run slows down (a bounded back-off it says)
instead of giving up; it gives a game up only after a long limit. The machine's business
is given to the code here (``machine_busy``), so no test depends on the real load."""

from __future__ import annotations

import re
import time
from collections import deque
from pathlib import Path

import pytest

from arena.records import GameSpec
from arena.tournament import stalls
from arena.tournament.stalls import StallBook, backoff_s, with_retries


def spec(n: int) -> GameSpec:
    return GameSpec(order=n, round=n, seed=n, seats=("a", "b"), group="")


def test_the_back_off_doubles_from_10_s_to_at_most_2_minutes() -> None:
    assert [backoff_s(n) for n in range(1, 8)] == [10, 20, 40, 80, 120, 120, 120]


def test_a_game_that_keeps_stalling_is_replayed_until_the_long_limit_is_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    said: list[str] = []
    book = StallBook(said.append)
    now = time.monotonic()
    # Four stalls at once: more than MAX_STALL_REPLAYS, but not for 15 minutes yet.
    for count in range(1, 5):
        assert book.stalled(spec(1), "seat 0 (a) took 130.0 ms") is False
        game, until = book.retry[-1]
        assert game == spec(1)
        assert now + backoff_s(count) <= until <= time.monotonic() + backoff_s(count)
    assert book.given_up == [] and said == []
    # Once it has been stalling for the limit, the next stall gives it up.
    book.first[spec(1).key] -= stalls.GIVE_UP_AFTER_S
    assert book.stalled(spec(1), "seat 0 (a) took 130.0 ms") is True
    assert book.given_up == ["game r1:a,b: seat 0 (a) took 130.0 ms"]
    assert said == [
        "game r1:a,b given up: it stalled 5 times in 15 min (the machine kept a bot waiting:"
        " seat 0 (a) took 130.0 ms); not stored: run the same command again to play it, on"
        " a quieter machine, with fewer games at once, or with `clock: cpu`"
    ]


def test_replays_wait_for_calm_and_say_so_once_per_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stalls, "machine_busy", lambda: True)
    said: list[str] = []
    now = time.monotonic()
    retry = deque([(spec(1), now + 0.2), (spec(2), now + 0.3)])
    played = list(with_retries(iter([spec(3)]), retry, said.append))
    # The scheduled game goes on at once; the replays come after their back-off.
    assert played == [spec(3), spec(1), spec(2)]
    assert time.monotonic() - now >= 0.3
    pattern = (
        r"arena: machine busy \(load \d+\): waiting to replay {n} {games} \(the next within"
        r" 0 s; see docs/fair-time.md\)"
    )
    assert len(said) == 2
    assert re.fullmatch(pattern.format(n=2, games="games"), said[0]), said
    assert re.fullmatch(pattern.format(n=1, games="game"), said[1]), said


def test_on_a_calm_machine_replays_come_at_once_and_nothing_is_said(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(stalls, "machine_busy", lambda: False)
    said: list[str] = []
    retry = deque([(spec(1), time.monotonic() + 3600)])
    assert list(with_retries(iter([spec(2)]), retry, said.append)) == [spec(1), spec(2)]
    assert said == []


def test_the_machine_is_busy_while_any_wait_a_stall_forgives_is_high(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stalls, "PRESSURE_DIR", tmp_path)
    line = "some avg10={} avg60=0.00 avg300=0.00 total=1\nfull avg10=0.00 total=0\n"
    for kind, share in (("cpu", "3.10"), ("io", "0.00"), ("memory", "0.00")):
        (tmp_path / kind).write_text(line.format(share))
    assert not stalls.machine_busy()
    (tmp_path / "memory").write_text(line.format("35.52"))  # the machine reclaiming
    assert stalls.machine_busy()
    (tmp_path / "memory").write_text(line.format("19.99"))
    (tmp_path / "io").write_text(line.format("20.00"))  # its disks busy
    assert stalls.machine_busy()
