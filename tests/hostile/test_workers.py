"""Hostile bots against the process that referees them: a bot that kills or stops its parent
costs only its own games, reported as referee failures, and the tournament goes on."""

from __future__ import annotations

import sqlite3

import pytest

from support.hostile import MODES, arena, stc_bot, tournament

KILL_PARENT = stc_bot("import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n")
STOP_PARENT = stc_bot("import os, signal\nos.kill(os.getppid(), signal.SIGSTOP)\n")


def stored(out) -> list[tuple[str, str]]:
    db = sqlite3.connect(out / "arena.sqlite")
    return db.execute("SELECT key, reason FROM games ORDER BY key").fetchall()


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("mode", MODES)
def test_a_bot_that_kills_its_parent_costs_only_its_own_games(tmp_path, mode, workers):
    bots = {"killer": KILL_PARENT, "a": stc_bot(), "b": stc_bot()}
    path = tournament(tmp_path, bots, sandbox=mode, games=2, concurrency=workers)
    for _attempt in range(2):  # and a rerun resumes without dying either
        result = arena("run", str(path), "--no-progress")
        assert "Traceback" not in result.stderr
        keys = [key for key, _ in stored(tmp_path / "out")]
        innocent = [k for k in keys if "killer" not in k]
        assert len(innocent) == 2  # a against b, both seat orders: never lost
        if mode == "none":
            # The killer's four games failed in the referee, each with the reason.
            assert result.returncode == 1, result.stderr
            failures = [
                line for line in result.stderr.splitlines() if "failed in the referee" in line
            ]
            assert len(failures) == 4
            assert all("killed by SIGKILL" in line for line in failures)
            assert len(keys) == 2
        else:
            # Inside bubblewrap the parent is out of reach: the games are played.
            assert result.returncode == 0, result.stderr
            assert len(keys) == 6
        assert "rating ±95%" in result.stdout  # the leaderboard


def test_a_bot_that_stops_its_parent_is_abandoned_by_the_watchdog(tmp_path):
    bots = {"stopper": STOP_PARENT, "a": stc_bot()}
    path = tournament(tmp_path, bots, games=2, concurrency=1)
    result = arena("run", str(path), "--no-progress", timeout=240)
    assert result.returncode == 1, result.stderr
    failures = [line for line in result.stderr.splitlines() if "failed in the referee" in line]
    assert len(failures) == 2
    assert all("abandoned by the watchdog" in line for line in failures)
    assert "Traceback" not in result.stderr
