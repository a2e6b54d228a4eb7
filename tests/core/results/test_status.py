"""``OUTPUT/status.json``: written whole at the start, as games end and at the end; read
back with a dead run's ``running`` as ``stopped``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from arena.events import GameFailed, GameGivenUp, GameStalled, GameStored, RunFinished, RunStarted
from arena.records import GameRecord, GameSpec, SeatRecord
from arena.results.status import KEYS, StatusWriter, read_status
from support import run_arena, stc_cycler

SPEC = GameSpec(0, 0, 7, ("a", "b"), "")


def record() -> GameRecord:
    seats = [SeatRecord("a", 0, 1.0, None, ""), SeatRecord("b", 1, 0.0, None, "")]
    return GameRecord("stc", 7, {}, seats, "win", 3, 3, 1.0, "replay.json")


def read(tmp_path: Path) -> dict:
    return json.loads((tmp_path / "status.json").read_text())


def test_the_file_follows_the_run_from_start_to_end(tmp_path):
    writer = StatusWriter(tmp_path)
    writer.started(RunStarted("t", tmp_path, total=5, stored=2))
    first = read(tmp_path)
    assert list(first) == list(KEYS)
    assert {k: first[k] for k in KEYS[:7]} == {
        "state": "running", "games_done": 2, "games_total": 5, "stalls_replayed": 0,
        "given_up": 0, "failed": 0, "eta_s": None,
    }  # fmt: skip
    assert first["pid"] == os.getpid()
    assert first["started"] == first["updated"] or first["started"] < first["updated"]
    writer.last_write = float("-inf")  # each event below is written (no 0.5 s wait)
    writer.stored(GameStored(SPEC, record(), played=1, done=3, total=5))
    now = read(tmp_path)
    assert (now["games_done"], now["games_total"]) == (3, 5)
    assert isinstance(now["eta_s"], float) and now["eta_s"] >= 0
    writer.last_write = float("-inf")
    writer.stalled(GameStalled(SPEC, "slow machine", replayed=1))
    writer.last_write = float("-inf")
    writer.given_up(GameGivenUp(SPEC, "slow machine", done=4, total=5))
    writer.last_write = float("-inf")
    writer.failed(GameFailed(SPEC, "boom", done=5, total=5))
    writer.finished(RunFinished("done", played=1, done=5, total=5))
    end = read(tmp_path)
    assert {k: end[k] for k in KEYS[:8]} == {
        "state": "done", "games_done": 5, "games_total": 5, "stalls_replayed": 1,
        "given_up": 1, "failed": 1, "eta_s": None, "pid": os.getpid(),
    }  # fmt: skip
    assert end["started"] == first["started"]
    # Written whole: a temporary file renamed over it, none left behind.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["status.json"]


def test_games_ending_close_together_are_written_at_most_every_half_second(tmp_path):
    writer = StatusWriter(tmp_path)
    writer.started(RunStarted("t", tmp_path, total=None))
    writer.last_write = float("inf")  # as if just written: the next games wait
    writer.stored(GameStored(SPEC, record(), played=1, done=1, total=None))
    assert read(tmp_path)["games_done"] == 0
    writer.finished(RunFinished("stopped", played=1, done=1, total=None, why="SIGINT"))
    end = read(tmp_path)
    assert (end["state"], end["games_done"], end["games_total"]) == ("stopped", 1, None)


def test_a_running_status_whose_process_is_gone_reads_as_stopped(tmp_path):
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    writer = StatusWriter(tmp_path)
    writer.started(RunStarted("t", tmp_path, total=4))
    assert read_status(tmp_path)["state"] == "running"  # this process: alive
    data = read(tmp_path)
    data["pid"] = int(gone.stdout)
    (tmp_path / "status.json").write_text(json.dumps(data))
    status = read_status(tmp_path)
    assert status["state"] == "stopped" and status["eta_s"] is None
    assert read_status(tmp_path / "none") is None
    (tmp_path / "status.json").write_text("{half")
    assert read_status(tmp_path) is None


def test_arena_run_leaves_a_done_status_and_api_run_too(tmp_path):
    import arena

    bots = tmp_path / "bots"
    bots.mkdir()
    (bots / "c6.py").write_text(stc_cycler(6))
    (bots / "c3.py").write_text(stc_cycler(3))
    text = (
        "name: st\ngame: stc\ngames: 2\nseed: 3\nconcurrency: 1\nsettings:\n  max_turns: 4\n"
        f"bots:\n  - cmd: python3 {bots}/c6.py\n  - cmd: python3 {bots}/c3.py\n"
        f"output: {tmp_path / 'out'}\n"
    )
    (tmp_path / "t.yaml").write_text(text)
    result = run_arena("run", str(tmp_path / "t.yaml"))
    assert result.returncode == 0, result.stderr
    status = read_status(tmp_path / "out")
    assert status is not None
    assert {k: status[k] for k in KEYS[:7]} == {
        "state": "done", "games_done": 2, "games_total": 2, "stalls_replayed": 0,
        "given_up": 0, "failed": 0, "eta_s": None,
    }  # fmt: skip
    assert status["pid"] != os.getpid()
    arena.run(tmp_path / "t.yaml", output=tmp_path / "api", games=1)
    status = read_status(tmp_path / "api")
    assert (status["state"], status["pid"]) == ("done", os.getpid())
    assert status["games_done"] == status["games_total"] >= 1
