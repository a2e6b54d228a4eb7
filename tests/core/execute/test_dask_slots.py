"""How a game travels on Dask: a worker on the coordinator's machine writes the game's
files into the output folder itself, a worker elsewhere sends them back; a worker that
joins after the start gets game slots and plays."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from support import REPO, STC_STRONG_SH, games_stored

pytest.importorskip("distributed")

from arena.execute import dask_executor
from arena.execute.botfiles import CACHE_ENV, pack_commands
from arena.execute.dask_executor import BotFiles, RemoteJob, output_identity, play_remote


@pytest.fixture
def shipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[BotFiles, tuple]]:
    """Two shell stc bots packed as for the workers, a plugin holding them (its cache in
    ``tmp_path``); this thread's game process is closed at the end."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    (tmp_path / "bots").mkdir()
    script = tmp_path / "bots" / "strong.sh"
    script.write_text(STC_STRONG_SH)
    argv = ("sh", str(script))
    commands, packs = pack_commands({"a": argv, "b": argv}, folders=True)
    try:
        yield BotFiles("arena-bot-files-test", packs), (("a", commands["a"]), ("b", commands["b"]))
    finally:
        if hasattr(dask_executor._local, "process"):
            dask_executor._local.process.close()


def remote_job(bots: tuple, game_dir: Path, output: tuple[str, ...]) -> RemoteJob:
    return RemoteJob(
        "stc", 5, {"max_turns": 3}, bots, "none", None, 64, "arena-bot-files-test",
        game_dir=str(game_dir), output=output,
    )  # fmt: skip


def test_a_worker_writes_the_files_into_the_coordinators_own_output_folder(tmp_path, shipped):
    files, bots = shipped
    out = tmp_path / "out"
    out.mkdir()
    game_dir = out / "games" / "000001"
    result = play_remote(remote_job(bots, game_dir, output_identity(str(out))), files)
    assert result["files"] == {}  # nothing to send back
    assert sorted(p.name for p in game_dir.iterdir()) == [
        "replay.json",
        "stderr-0-a.txt",
        "stderr-1-b.txt",
    ]
    replay = json.loads((game_dir / "replay.json").read_text())
    assert len(replay["steps"]) == result["record"]["steps"]


def test_a_worker_elsewhere_sends_the_files_back_and_writes_nothing(tmp_path, shipped):
    files, bots = shipped
    out = tmp_path / "out"
    out.mkdir()
    folder, boot, dev, ino = output_identity(str(out))
    game_dir = out / "games" / "000001"
    # Another machine (boot id), or another folder at the same path (inode): not written.
    for output in ((folder, "another-boot", dev, ino), (folder, boot, dev, "1"), ()):
        result = play_remote(remote_job(bots, game_dir, output), files)
        assert sorted(result["files"]) == ["replay.json", "stderr-0-a.txt", "stderr-1-b.txt"]
        replay = json.loads(result["files"]["replay.json"])
        assert len(replay["steps"]) == result["record"]["steps"]
        assert not game_dir.exists()


def test_the_identity_of_an_output_folder_changes_with_the_folder(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    first = output_identity(str(out))
    assert first == output_identity(str(out)) and first[0] == str(out)
    (tmp_path / "elsewhere").mkdir()  # (made while out exists: another inode)
    out.rmdir()
    assert output_identity(str(out)) == ()
    (tmp_path / "elsewhere").rename(out)  # the same path, another folder
    assert output_identity(str(out))[3] != first[3]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(args: list[str], log: object) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "dask", *args], stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip


def game_processes(pid: int) -> list[int]:
    """The live game processes started by process ``pid``."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            with contextlib.suppress(OSError):
                cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
                if b"arena.execute.game_process" in cmdline:
                    found.append(int(child))
    return found


def test_a_worker_that_joins_after_the_start_gets_slots_and_plays_every_game(tmp_path):
    bots = tmp_path / "bots"
    bots.mkdir()
    (bots / "strong.sh").write_text(STC_STRONG_SH)
    path = tmp_path / "t.yaml"
    path.write_text(
        "name: late\ngame: stc\nseed: 5\ngames: 2\nsandbox: none\nsettings:\n  max_turns: 3\n"
        f"output: {tmp_path / 'out'}\nbots:\n"
        f"  - {{name: a, cmd: sh {bots / 'strong.sh'}}}\n"
        f"  - {{name: b, cmd: sh {bots / 'strong.sh'}}}\n"
    )
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    procs: list[subprocess.Popen] = []
    with open(tmp_path / "dask.log", "w") as log:
        try:
            procs.append(
                start(["scheduler", "--host", "127.0.0.1", "--port", str(port),
                       "--no-dashboard"], log)
            )  # fmt: skip
            run = subprocess.Popen(
                [sys.executable, "-m", "arena", "run", str(path), "--dask", address,
                 "--no-progress"],
                cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                env={**os.environ, CACHE_ENV: str(tmp_path / "cache")},
            )  # fmt: skip
            procs.append(run)
            assert run.stderr is not None
            first = run.stderr.readline()
            assert first == f"dask: no workers yet (the games wait for one) at {address}\n"
            time.sleep(1.0)
            assert games_stored(tmp_path / "out") == 0
            procs.append(
                start(["worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard",
                       "--host", "127.0.0.1"], log)
            )  # fmt: skip
            _, err = run.communicate(timeout=180)
            # The run's slots are dropped with it: the worker keeps no game process.
            worker = procs[-1].pid
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and (left := game_processes(worker)):
                time.sleep(0.2)
            assert not left
        finally:
            for proc in procs:
                with contextlib.suppress(ProcessLookupError):
                    if proc is run:
                        proc.kill()
                    else:  # a Dask process and whatever it started (its own session)
                        os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=30)
    assert run.returncode == 0, first + err
    assert "2 games played now, 0 resumed" in err
    assert games_stored(tmp_path / "out") == 2
