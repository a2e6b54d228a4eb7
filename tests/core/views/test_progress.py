"""The run's visible observers: the progress bar with its leader, the periodic table."""

from __future__ import annotations

import os
import subprocess
import sys

from support import REPO, stc_cycler


def test_the_bar_counts_the_games_and_names_the_leader(tmp_path):
    bots = tmp_path / "bots"
    bots.mkdir()
    (bots / "c6.py").write_text(stc_cycler(6))
    (bots / "c3.py").write_text(stc_cycler(3))
    path = tmp_path / "t.yaml"
    path.write_text(
        "name: barred\ngame: stc\ngames: 2\nseed: 3\nconcurrency: 1\nsettings:\n  max_turns: 3\n"
        f"bots:\n  - cmd: python3 {bots}/c6.py\n  - cmd: python3 {bots}/c3.py\n"
        f"output: {tmp_path / 'out'}\nrating_interval: 2\n"
    )
    env = {**os.environ, "ARENA_PROGRESS": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "arena", "run", str(path)],
        cwd=REPO, capture_output=True, text=True, timeout=600, env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "barred: 100%" in result.stderr and "2/2" in result.stderr
    assert "leader: c" in result.stderr
    # The periodic table, above the bar, once after the second game.
    assert result.stderr.count("--- barred: 2 games stored\n") == 1


def test_the_leader_of_one_player_games_has_the_best_mean_score():
    from arena.records import GameRecord, SeatRecord
    from arena.views.progress import Leader

    def solo(bot: str, score: float) -> GameRecord:
        return GameRecord(
            "solo", 1, {}, [SeatRecord(bot=bot, rank=0, score=score)], "end", 1, 1, 1.0
        )

    leader = Leader()
    assert leader.add(solo("a", 3.0)) == "a"
    assert leader.add(solo("b", 4.0)) == "b"  # a 3, b 4
    assert leader.add(solo("b", 1.0)) == "a"  # a 3, b (4 + 1) / 2 = 2.5
    assert leader.add(solo("a", 0.0)) == "b"  # a (3 + 0) / 2 = 1.5, b 2.5
