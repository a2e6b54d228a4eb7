"""Tournaments on Dask (``executor: dask``): a real LocalCluster, and real ``dask scheduler``
and ``dask worker`` processes on localhost started here and killed at the end.

The bots are deterministic Smash The Code players (shell and Python scripts), so the same
seed must give the same stored results whichever executor plays the games.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.botproc import BOT_HOMES
from arena.cli.main import main
from support import REPO, STC_STRONG_SH, STC_WEAK_SH, games_stored

STRONG, WEAK = STC_STRONG_SH, STC_WEAK_SH
# Says where it runs from (its stderr is stored), then cycles three columns; it may think
# a while on its first turn (the first turn's clock is 1000 ms).
WHEREAMI = """\
import os, sys, time
print("running", os.path.realpath(__file__), file=sys.stderr, flush=True)
turn = 0
while True:
    lines = [sys.stdin.readline() for _ in range(34)]
    if not lines[0]:
        break
    if turn == 0:
        time.sleep({sleep})
    print(turn % 3, 1, flush=True)
    turn += 1
"""


def without_core_warning(err: str) -> str:
    """stderr less the warning that two stc games (four thinking bots) exceed two cores:
    these tests run two workers on purpose."""
    return "".join(
        line for line in err.splitlines(keepends=True)
        if not line.startswith("arena: warning: concurrency 2 (4 bots thinking at once)")
    )  # fmt: skip


def write_tournament(
    tmp_path: Path, extra: str = "", bots: dict[str, str] | None = None, sleep: float = 0.0,
    games: int = 2, turns: int = 6, sandbox: str = "none",
) -> Path:  # fmt: skip
    folder = tmp_path / "bots"
    folder.mkdir(exist_ok=True)
    (folder / "strong.sh").write_text(STRONG)
    (folder / "weak.sh").write_text(WEAK)
    (folder / "whereami.py").write_text(WHEREAMI.format(sleep=sleep))
    commands = {"strong.sh": "sh", "weak.sh": "sh", "whereami.py": "python3"}
    bots = bots or {"strong": "strong.sh", "where": "whereami.py", "weak": "weak.sh"}
    lines = [
        "name: dask-test",
        "game: stc",
        "seed: 5",
        f"games: {games}",
        "concurrency: 2",
        f"sandbox: {sandbox}",
        "settings:",
        f"  max_turns: {turns}",
        f"output: {tmp_path / 'out'}",
        *extra.splitlines(),
        "bots:",
    ]
    for name, script in bots.items():
        lines += [f"  - name: {name}", f"    cmd: {commands[script]} {folder / script}"]
    path = tmp_path / "t.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


def arena(*args: str, env: dict[str, str] | None = None, timeout: float = 300):
    return subprocess.run(
        [sys.executable, "-m", "arena", *args],
        cwd=REPO, capture_output=True, text=True, timeout=timeout, env={**os.environ, **(env or {})},
    )  # fmt: skip


def results(out: Path) -> dict[str, tuple]:
    """Every stored game by key: what it was, how it ended, each seat's result."""
    db = sqlite3.connect(out / "arena.sqlite")
    try:
        games = {}
        for gid, key, seed, reason, turns, steps, folder in db.execute(
            "SELECT id, key, seed, reason, turns, steps, dir FROM games"
        ):
            seats = db.execute(
                "SELECT bot, rank, score, forfeit, detail, moves FROM seats WHERE game_id = ?"
                " ORDER BY seat",
                (gid,),
            ).fetchall()
            replay = json.loads((out / folder / "replay.json").read_text())
            talk = [
                {seat: (io["input"], io["lines"]) for seat, io in step["io"].items()}
                for step in replay["steps"]
            ]
            games[key] = (seed, reason, turns, steps, tuple(seats), talk)
        return games
    finally:
        db.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def dask_cluster(
    tmp_path: Path, workers: int, env: dict[str, str], threads: int = 1
) -> Iterator[tuple[str, list]]:
    """A real ``dask scheduler`` and ``workers`` real ``dask worker`` processes (one thread,
    no nanny: a killed worker stays dead): yields the address and the processes, the
    scheduler first; every process is killed at the end."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    full_env = {**os.environ, **env}
    procs: list[subprocess.Popen] = []
    log = open(tmp_path / "dask.log", "w")  # noqa: SIM115 (closed below)
    try:
        procs.append(
            subprocess.Popen(
                [sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1",
                 "--port", str(port), "--no-dashboard"],
                stdout=log, stderr=subprocess.STDOUT, env=full_env, start_new_session=True,
            )
        )  # fmt: skip
        for _ in range(workers):
            procs.append(
                subprocess.Popen(
                    [sys.executable, "-m", "dask", "worker", address, "--nthreads", str(threads),
                     "--no-nanny", "--no-dashboard", "--host", "127.0.0.1"],
                    stdout=log, stderr=subprocess.STDOUT, env=full_env, start_new_session=True,
                )
            )  # fmt: skip
        from distributed import Client

        with Client(address, timeout=60) as client:
            client.wait_for_workers(workers, timeout=120)
        yield address, procs
    finally:
        for proc in procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
        log.close()


def mentioning(text: str) -> list[str]:
    """Command lines of the live processes whose command line or environment has ``text``."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            environ = Path(f"/proc/{pid}/environ").read_bytes()
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z" and (text.encode() in cmdline or text.encode() in environ):
            found.append(cmdline.replace(b"\0", b" ").decode(errors="replace"))
    return found


def no_traceback(text: str) -> None:
    """Nothing but arena's own lines: no traceback, no log line of Dask's."""
    assert "Traceback" not in text and "distributed." not in text, text


# -- configuration mistakes ---------------------------------------------------------------


def test_a_bad_executor_or_a_stray_address_is_one_line_naming_file_key_and_line(tmp_path, capsys):
    path = write_tournament(tmp_path, "executor: cloud")
    assert main(["run", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"arena: {path}: executor (line 10): must be one of local, dask, not 'cloud'\n"

    path = write_tournament(tmp_path, "dask: tcp://127.0.0.1:8786")
    assert main(["run", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"arena: {path}: dask (line 10): only used with `executor: dask` (executor is local)\n"
    )
    path = write_tournament(tmp_path)
    assert main(["run", str(path), "--executor", "local", "--dask", "tcp://x:1"]) == 2
    assert "--dask: only used with the dask executor" in capsys.readouterr().err
    assert not (tmp_path / "out" / "arena.sqlite").exists()


def test_an_unreachable_scheduler_stops_before_any_game_with_exit_code_2(
    tmp_path, capsys, monkeypatch
):
    from arena.execute import dask_executor

    monkeypatch.setattr(dask_executor, "CONNECT_TIMEOUT_S", 1.0)
    nobody = f"tcp://127.0.0.1:{free_port()}"
    path = write_tournament(tmp_path)
    assert main(["run", str(path), "--dask", nobody, "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"arena: --dask: cannot reach the Dask scheduler at '{nobody}': ")
    assert err.count("\n") == 1

    path = write_tournament(tmp_path, f"executor: dask\ndask: {nobody}")
    assert main(["run", str(path), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"arena: {path}: dask (line 11): cannot reach the Dask scheduler")
    assert err.count("\n") == 1
    assert not (tmp_path / "out" / "arena.sqlite").exists()  # nothing stored, no game played


def test_without_the_distributed_package_the_dask_executor_is_a_configuration_mistake(tmp_path):
    path = write_tournament(tmp_path, "executor: dask")
    code = (
        "import sys; sys.modules['distributed'] = None\n"  # as if it were not installed
        f"from arena.cli.main import main; sys.exit(main(['run', {str(path)!r}]))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 2
    assert without_core_warning(result.stderr) == (
        f"arena: {path}: executor (line 10): executor dask needs the `distributed` package"
        " (pip install 'bot-arena[dask]')\n"
    )


def test_bot_files_too_large_to_ship_stop_before_the_cluster_starts(tmp_path, capsys, monkeypatch):
    from arena.execute import botfiles

    monkeypatch.setattr(botfiles, "MAX_PACK_BYTES", 100)
    path = write_tournament(tmp_path)
    assert main(["run", str(path), "--executor", "dask", "--no-progress"]) == 2
    err = without_core_warning(capsys.readouterr().err)
    assert err.startswith(f"arena: {path}: bots (line 10): bot 'strong': ")
    # (its folder travels with it: files: folder, the default)
    assert "its folder" in err and "holds more than 0 MiB to copy to every worker" in err
    assert err.count("\n") == 1 and not (tmp_path / "out" / "arena.sqlite").exists()


def test_arena_does_not_import_dask_unless_a_tournament_uses_it(tmp_path):
    code = (
        "import sys, arena.cli.main, arena.tournament.run, arena.tournament.config, arena.tournament.formats\n"
        "assert 'distributed' not in sys.modules and 'dask' not in sys.modules, 'imported'\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


# -- a LocalCluster ---------------------------------------------------------------------------


def test_a_local_dask_cluster_gives_the_local_executors_results_with_bot_files_shipped(tmp_path):
    path = write_tournament(tmp_path)
    local = arena("run", str(path), "--output", str(tmp_path / "local"), "--no-progress")
    assert local.returncode == 0, local.stderr

    cache = tmp_path / "cache"
    env = {"ARENA_PROGRESS": "1", "ARENA_BOT_CACHE": str(cache)}
    scratch_before = set(BOT_HOMES.glob("dask-*"))
    remote = arena("run", str(path), "--executor", "dask", "--output", str(tmp_path / "d"), env=env)
    assert set(BOT_HOMES.glob("dask-*")) <= scratch_before  # each game's scratch folder removed
    assert remote.returncode == 0, remote.stderr
    assert "dask: starting a local cluster of 2 workers" in remote.stderr
    assert "6/6" in remote.stderr  # the same progress bar, fed as games end
    no_traceback(remote.stderr)
    assert "6 games played now, 0 resumed" in remote.stderr
    assert results(tmp_path / "d") == results(tmp_path / "local")
    # The same leaderboard but for the response times (p99, the last column): measured,
    # not decided.
    times = re.compile(r" [0-9.]+ *$", re.M)
    board = times.sub("", remote.stdout.replace(str(tmp_path / "d"), "OUT"))
    assert board == times.sub("", local.stdout.replace(str(tmp_path / "local"), "OUT"))

    # The workers ran the cached copy of the bot's file (in its folder's), not the user's.
    digest_dirs = [p for p in cache.iterdir() if (p / "bots" / "whereami.py").exists()]
    assert len(digest_dirs) == 1
    logs = list((tmp_path / "d" / "games").glob("*/stderr-*-where.txt"))
    assert len(logs) == 4
    for log in logs:
        running = f"running {digest_dirs[0] / 'bots' / 'whereami.py'}"
        assert log.read_text().splitlines()[0] == running


def test_the_clock_options_travel_with_the_games_to_the_workers(tmp_path):
    # 1.3 s on the first turn: a timeout on stc's 1000 ms whatever the load, and in time at
    # clock_scale 10 (10 s) on a loaded machine too (at 2, the 0.7 s left were not always
    # enough there).
    bots = {"where": "whereami.py", "strong": "strong.sh"}
    path = write_tournament(tmp_path, "clock_scale: 10", bots, sleep=1.3, games=2, turns=3)
    remote = arena("run", str(path), "--executor", "dask", "--no-progress")
    assert remote.returncode == 0, remote.stderr
    seats = [seat for game in results(tmp_path / "out").values() for seat in game[4]]
    assert [(bot, forfeit) for bot, _, _, forfeit, _, _ in seats if bot == "where"] == [
        ("where", None),
        ("where", None),
    ]
    assert "clock: game budgets x10, time margin 0 ms" in remote.stdout


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_ctrl_c_or_sigterm_stops_a_local_cluster_quietly_and_the_rerun_completes_every_game_once(
    tmp_path, signum
):
    path = write_tournament(tmp_path, games=6, sleep=0.3)
    out = tmp_path / "out"
    # Its own process group, as a terminal runs it: Ctrl-C reaches every process in it.
    cache = str(tmp_path / "cache")  # in the environment of every process of the run
    proc = subprocess.Popen(
        [sys.executable, "-m", "arena", "run", str(path), "--executor", "dask"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True, env={**os.environ, "ARENA_BOT_CACHE": cache},
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and games_stored(out) < 3:
            time.sleep(0.2)
        assert any("arena.execute.game_process" in cmd for cmd in mentioning(cache))
        if signum == signal.SIGINT:
            os.killpg(proc.pid, signum)  # Ctrl-C: the whole foreground group
        else:
            proc.send_signal(signum)  # `kill PID`: arena run alone
        _, err = proc.communicate(timeout=60)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 128 + signum, err
    assert f"interrupted ({signal.Signals(signum).name}): " in err
    no_traceback(err)
    kept = games_stored(out)
    assert 3 <= kept < 18
    # Every process of the run is gone: the cluster's (its own session), the game
    # processes (their environment) and the bots (run from the cache).
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and (left := mentioning(cache)):
        time.sleep(0.2)
    assert not left, left

    again = arena("run", str(path), "--executor", "dask", "--no-progress")
    assert again.returncode == 0, again.stderr
    assert f"resuming: {kept} of 18 games already stored" in again.stderr
    assert f"{18 - kept} games played now, {kept} resumed" in again.stderr
    db = sqlite3.connect(out / "arena.sqlite")
    assert db.execute("SELECT COUNT(*), COUNT(DISTINCT key) FROM games").fetchone() == (18, 18)


def test_ctrl_c_while_the_local_cluster_starts_stops_at_once(tmp_path):
    path = write_tournament(tmp_path)
    proc = subprocess.Popen(
        [sys.executable, "-m", "arena", "run", str(path), "--executor", "dask"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline().decode()
        if first.startswith("arena: warning: concurrency"):
            first = proc.stderr.readline().decode()
        assert first == "dask: starting a local cluster of 2 workers\n"
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert err.decode() == "arena: interrupted\n"
    assert not (tmp_path / "out" / "arena.sqlite").exists()


def test_an_sprt_on_dask_asks_for_each_game_as_results_come_in(tmp_path):
    path = write_tournament(
        tmp_path,
        "format: sprt\nsprt: {elo0: 0, elo1: 50}\nexecutor: dask",
        bots={"new": "strong.sh", "old": "weak.sh"},
        games=400,
    )
    result = arena("run", str(path), "--no-progress")
    assert result.returncode == 0, result.stderr
    assert "H1 accepted" in result.stdout
    played = games_stored(tmp_path / "out")
    # 17 pairs cross the bound (as with the local executor). Past them are played only the
    # games in flight when the 17th pair completes (at most 2 x 2 workers - 1, the one
    # just stored aside) and the stored first games of their pairs (one per game in flight).
    assert 34 <= played <= 34 + 2 * 3, played


# -- real `dask scheduler` and `dask worker` processes ----------------------------------------


def test_a_scheduler_and_workers_on_localhost_play_every_game_from_the_shipped_files(tmp_path):
    cache = tmp_path / "worker-cache"
    path = write_tournament(tmp_path, sandbox="auto")
    with dask_cluster(tmp_path, 2, {"ARENA_BOT_CACHE": str(cache)}) as (address, _):
        result = arena("run", str(path), "--dask", address, "--no-progress")
    assert result.returncode == 0, result.stderr
    assert f"dask: 2 workers, 2 threads at {address}" in result.stderr
    no_traceback(result.stderr)
    assert "6 games played now" in result.stderr
    games = results(tmp_path / "out")
    assert len(games) == 6
    logs = list((tmp_path / "out" / "games").glob("*/stderr-*-where.txt"))
    assert len(logs) == 4
    for log in logs:
        first = log.read_text().splitlines()[0]
        assert first.startswith(f"running {cache}/") and first.endswith("/whereami.py")


def children(pid: int) -> list[int]:
    try:
        tasks = Path(f"/proc/{pid}/task").iterdir()
        return [int(c) for t in tasks for c in (t / "children").read_text().split()]
    except OSError:
        return []


def test_a_worker_killed_mid_game_loses_no_result(tmp_path):
    # Two games at once, one per worker; "a" thinks 0.5 s on its first turn.
    path = write_tournament(tmp_path, bots={"a": "whereami.py", "b": "strong.sh"}, sleep=0.5)
    out = tmp_path / "out"
    with dask_cluster(tmp_path, 2, {}) as (address, procs):
        workers = procs[1:]
        proc = subprocess.Popen(
            [sys.executable, "-m", "arena", "run", str(path), "--dask", address, "--no-progress"],
            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            # A worker is mid-game when the bots its game process started are running.
            victim = None
            deadline = time.monotonic() + 120
            while victim is None and time.monotonic() < deadline:
                victim = next(
                    (w for w in workers if sum(len(children(c)) for c in children(w.pid)) == 2),
                    None,
                )
                time.sleep(0.02)
            assert victim is not None, "no game ever started"
            assert games_stored(out) == 0
            victim.kill()
            victim.wait()
            _, err = proc.communicate(timeout=180)
        finally:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
        assert sum(w.poll() is None for w in workers) == 1  # the other worker lives on
    assert proc.returncode == 0, err
    no_traceback(err)
    # Both games are stored: the one on the dead worker was played again on the other.
    assert "2 games played now, 0 resumed" in err
    assert sorted(results(out)) == ["r0:a,b", "r0:b,a"]


def test_losing_the_scheduler_stops_with_one_line_and_the_run_resumes_on_another(tmp_path):
    path = write_tournament(tmp_path, games=6, sleep=0.3)
    out = tmp_path / "out"
    with dask_cluster(tmp_path, 2, {}) as (address, procs):
        proc = subprocess.Popen(
            [sys.executable, "-m", "arena", "run", str(path), "--dask", address, "--no-progress"],
            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and games_stored(out) < 2:
                time.sleep(0.05)
            procs[0].kill()  # the scheduler
            _, err = proc.communicate(timeout=120)
        finally:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
    assert proc.returncode == 1, err
    assert err.splitlines()[-1] == (
        f"arena: lost the Dask scheduler at {address}; the games stored so far are kept:"
        " run the same command again to resume"
    )
    no_traceback(err)
    kept = games_stored(out)
    assert 2 <= kept < 18
    with dask_cluster(tmp_path, 1, {}, threads=2) as (address, _):
        again = arena("run", str(path), "--dask", address, "--no-progress")
    assert again.returncode == 0, again.stderr
    # Two threads: two games at once, each in a game process of its own (no warning).
    assert again.stderr.startswith(f"dask: 1 worker, 2 threads at {address}\n")
    assert "warning" not in again.stderr
    assert f"{18 - kept} games played now, {kept} resumed" in again.stderr
