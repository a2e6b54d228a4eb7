"""A game that stalls at every replay is given up: the run says how many and why, the
leaderboard says so, and ``arena run`` ends with exit code 3; running it again plays it."""

from __future__ import annotations

import os

import pytest

from arena.botproc import cgroups
from arena.cli.main import main
from arena.errors import EXIT_GIVEN_UP
from arena.tournament import stalls
from support.load import spinning, stc_tournament, stc_worker

needs_cpu_cgroup = pytest.mark.skipif(
    (found := cgroups.parents()) is None or found.cpu is None,
    reason="no cpu cgroup controller here (root or a delegated cgroup v2 subtree)",
)


@needs_cpu_cgroup
def test_a_game_stalling_at_every_replay_is_given_up_with_exit_code_3(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.setattr(stalls, "REPLAY_BACKOFF_S", 0.1)
    monkeypatch.setattr(stalls, "GIVE_UP_AFTER_S", 0.0)  # given up after 4 stalls, not 15 min
    # 60 ms of CPU per 100 ms turn: in time alone, over it on a core shared with 8 busy
    # processes outside arena (at nice -20: whatever the bot's weight), both bots there.
    core = max(os.sched_getaffinity(0))
    bot = tmp_path / "loaded.py"
    bot.write_text(stc_worker(0.06, cpu=core))
    tournament = str(stc_tournament(tmp_path, {"a": bot, "b": bot}, games=1))
    with spinning([core]):
        code = main(["run", tournament, "--no-progress"])
    out, err = capsys.readouterr()
    assert code == EXIT_GIVEN_UP == 3, err
    assert "1 game(s) given up, not stored" in err
    assert "run the same command again to play them" in err
    assert "given up after stalling at every replay" in out  # the leaderboard says so
    # Where the bots have their time, the same command plays it and says nothing more of
    # it. (The same bots, now asking no more than a turn of CPU: the test needs no quiet
    # machine.)
    monkeypatch.setenv("STC_WORKER_WORK", "0")
    assert main(["run", tournament, "--no-progress"]) == 0
    out, err = capsys.readouterr()
    assert "1 games played now" in err
    assert "given up" not in out
