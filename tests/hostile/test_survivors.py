"""Hostile bots that try to outlive their game, and signals that stop a tournament: nothing a bot
started survives, whatever it does, however arena is stopped, and the next run cleans up after
one that was killed outright."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.botproc import BOT_HOMES
from arena.records import BotSpec
from arena.referee.engine import Referee
from support import REPO
from support.hostile import (
    MODES,
    PIDS_CGROUP,
    arena,
    game_dirs,
    kill_all,
    marker,
    mode_sandbox,
    processes_with,
    start_arena,
    stc_bot,
    stop_session,
    survivors,
    tournament,
    wait_for,
    write_bot,
)
from support.toygame import FileToyGame, ToyGame

LOOP = "while :; do sleep 1; done"


def shell_bot(tmp_path: Path, name: str, script: str) -> BotSpec:
    path = tmp_path / f"{name}.sh"
    path.write_text(script)
    return BotSpec(name, ("/bin/sh", str(path)))


QUIET = BotSpec("quiet", ("/bin/sh", "-c", "while read line; do echo 1; done"))


@pytest.mark.parametrize("mode", MODES)
def test_a_daemon_double_forked_at_once_dies_with_the_game(tmp_path, mode):
    mark = marker()
    daemon = shell_bot(
        tmp_path,
        "daemon",
        f"( setsid sh -c '{LOOP}' {mark} & )\nwhile read line; do echo 1; done\n",
    )
    try:
        game = ToyGame()
        record = Referee(game, [daemon, QUIET], tmp_path / "g", mode_sandbox(mode)).play(
            1, {"turns": 2, "simultaneous": True}
        )
        assert record.seats[0].forfeit is None
        assert survivors(mark) == []
    finally:
        kill_all(mark)


@pytest.mark.parametrize("mode", MODES)
def test_the_orphan_of_a_bot_that_exits_dies_with_the_game(tmp_path, mode):
    mark = marker()
    orphaner = shell_bot(tmp_path, "orphaner", f"setsid sh -c '{LOOP}' {mark} &\nexit 3\n")
    try:
        game = ToyGame()
        record = Referee(game, [orphaner, QUIET], tmp_path / "g", mode_sandbox(mode)).play(
            1, {"turns": 2, "simultaneous": True}
        )
        assert record.seats[0].forfeit == "crash"
        assert survivors(mark) == []
    finally:
        kill_all(mark)


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_that_exits_mid_turn_crashes_though_its_orphan_holds_its_stdout(tmp_path, mode):
    # It reads its input (so it is alive when the input is written), then exits: its
    # daemon still holds the stdout pipe, so no end of file comes; the exit itself must
    # be seen, and called a crash at once, not a timeout at the end of the budget.
    mark = marker()
    script = f"setsid sh -c '{LOOP}' {mark} &\nread line\nexit 3\n"
    orphaner = shell_bot(tmp_path, "orphaner", script)
    try:
        game = ToyGame()
        record = Referee(game, [orphaner, QUIET], tmp_path / "g", mode_sandbox(mode)).play(
            1, {"turns": 2, "simultaneous": True}
        )
        seat = record.seats[0]
        assert (seat.forfeit, seat.detail) == ("crash", "exited with code 3 without answering")
        assert survivors(mark) == []
    finally:
        kill_all(mark)


@pytest.mark.parametrize("mode", MODES)
def test_a_per_turn_process_leaves_nothing_running_after_its_turn(tmp_path, mode):
    mark = marker()
    turn = shell_bot(tmp_path, "turn", f"( setsid sh -c '{LOOP}' {mark} & )\necho 1 > move.json\n")
    left_during_game: list[int] = []

    def look(index, step, state):
        left_during_game.extend(survivors(mark, wait=1.0))

    try:
        game = FileToyGame()
        settings = {**game.info.settings, "turns": 2, "simultaneous": False}
        record = Referee(game, [turn, turn], tmp_path / "g", mode_sandbox(mode), look).play(
            1, settings
        )
        assert [s.forfeit for s in record.seats] == [None, None]
        assert left_during_game == []
        assert survivors(mark) == []
    finally:
        kill_all(mark)


def session_members(session: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == session and fields[0] not in ("Z", "X"):
                found.append(int(entry))
    return found


SIGNALS = {
    "SIGTERM": [signal.SIGTERM],
    "SIGINT": [signal.SIGINT],
    "SIGINT-twice": [signal.SIGINT, signal.SIGINT],
    "SIGTERM-then-SIGINT": [signal.SIGTERM, signal.SIGINT],
}


@pytest.mark.parametrize("signals", list(SIGNALS), ids=list(SIGNALS))
def test_a_signal_stops_the_tournament_no_game_starts_after_it_and_nothing_survives(
    tmp_path, signals
):
    mark = marker()
    # Slow but legal bots (0.3 s a turn), each with a daemon: games last seconds.
    prelude = f"import subprocess\nsubprocess.Popen(['setsid', 'sh', '-c', '{LOOP}', '{mark}'])\n"
    slow = stc_bot(prelude, per_turn="import time; time.sleep(0.3)")
    bots = {name: slow for name in ("a", "b", "c")}
    path = tournament(tmp_path, bots, concurrency=2, settings="max_turns: 30")
    out = tmp_path / "out"
    proc = start_arena("run", str(path), "--no-progress")
    try:
        assert wait_for(lambda: len(game_dirs(out)) >= 2 and processes_with(mark), 120)
        started = game_dirs(out)
        for signum in SIGNALS[signals]:
            proc.send_signal(signum)
            time.sleep(0.05)
        _, err = proc.communicate(timeout=60)
        time.sleep(1.0)  # a game started late would show up by now
        assert proc.returncode == 128 + SIGNALS[signals][0], err
        assert "interrupted" in err and "Traceback" not in err
        assert game_dirs(out) == started  # no game started after the signal
        assert survivors(mark) == []
        assert session_members(proc.pid) == []  # no worker, no bot, nothing
    finally:
        stop_session(proc)
        kill_all(mark)


# The command's own exit path, with a stand-in for the run: what the pool does when a
# signal stops it (note it), then a second signal while the leaderboard is printed.
WIND_DOWN = """
import os, signal, sys, time
import arena.cli.games as games
from arena.cli.main import main

def winding_down(args, extra):
    from arena.execute.stopping import note_stop
    note_stop(signal.SIGTERM)
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(0.2)
    print("leaderboard printed")
    return 128 + signal.SIGTERM

def before_any_game(args, extra):
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(5)
    return 0

class SecondCtrlC:  # Ctrl-C once the interpreter shuts down (and tears down this module)
    def __del__(self):
        os.kill(os.getpid(), signal.SIGINT)

def interrupted(args, extra):
    from arena.execute.stopping import note_stop
    note_stop(signal.SIGINT)
    global pressed
    pressed = SecondCtrlC()
    return 128 + signal.SIGINT

modes = {"late": winding_down, "early": before_any_game, "exiting": interrupted}
games.cmd_games = modes[sys.argv[1]]
sys.exit(main(["games"]))
"""


def test_a_second_signal_while_the_run_winds_down_keeps_the_first_ones_exit_code():
    r = subprocess.run(
        [sys.executable, "-c", WIND_DOWN, "late"], capture_output=True, text=True, timeout=60
    )
    assert (r.returncode, r.stdout, r.stderr) == (143, "leaderboard printed\n", "")


def test_sigterm_before_any_game_ends_the_command_with_143_and_one_line():
    r = subprocess.run(
        [sys.executable, "-c", WIND_DOWN, "early"], capture_output=True, text=True, timeout=60
    )
    assert (r.returncode, r.stdout, r.stderr) == (143, "", "arena: interrupted\n")


def test_a_second_ctrl_c_while_the_interpreter_exits_keeps_the_exit_code():
    """The interpreter's shutdown restores the default SIGINT action: a Ctrl-C then killed
    the process by signal (seen in CI, a second Ctrl-C 50 ms after the first)."""
    r = subprocess.run(
        [sys.executable, "-c", WIND_DOWN, "exiting"], capture_output=True, text=True, timeout=60
    )
    assert (r.returncode, r.stdout, r.stderr) == (130, "", "")


HANG_PER_TURN = """
import sys, time
time.sleep(60)  # {mark}
"""


def test_ctrl_c_during_a_per_turn_process_kills_it(tmp_path):
    mark = marker()
    hang = write_bot(tmp_path / "bots", f"{mark}.py", HANG_PER_TURN.format(mark=mark))
    greedy = REPO / "bots" / "chess5" / "greedy.py"
    bots = {"hang": f"cmd: {sys.executable} {hang}", "greedy": f"cmd: python3 {greedy}"}
    path = tournament(tmp_path, bots, game="chess5", games=2, settings="{}")
    proc = start_arena("run", str(path), "--no-progress")
    try:
        assert wait_for(lambda: processes_with(mark), 120)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 130, err
        assert survivors(mark) == []
    finally:
        stop_session(proc)
        kill_all(mark)


def dead_owner_tag() -> str:
    """An owner tag of a process that existed and is gone."""
    proc = subprocess.Popen(["sleep", "0.2"])
    start = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    proc.wait()
    return f"{proc.pid}.{start}"


def test_arena_removes_what_a_killed_run_left_behind(tmp_path):
    tag = dead_owner_tag()
    BOT_HOMES.mkdir(mode=0o700, exist_ok=True)
    stale_home = BOT_HOMES / f"stc-{tag}-abcd1234"
    (stale_home / "seat0").mkdir(parents=True)
    (stale_home / "seat0" / "big.bin").write_bytes(b"x" * 1000)
    mark = marker()
    sleeper = None
    stale_group = None
    if PIDS_CGROUP:
        from arena.botproc import cgroups

        parent = cgroups.parents().pids
        stale_group = parent / f"arena-{tag}-0"
        stale_group.mkdir()
        sleeper = subprocess.Popen(["sh", "-c", LOOP, mark], start_new_session=True)
        (stale_group / "cgroup.procs").write_text(str(sleeper.pid))
    try:
        path = tournament(tmp_path, {"a": stc_bot(), "b": stc_bot()}, games=1)
        result = arena("run", str(path), "--no-progress")
        assert result.returncode == 0, result.stderr
        assert not stale_home.exists()
        if stale_group is not None:
            assert not stale_group.exists()
            assert sleeper is not None and sleeper.wait(timeout=10) == -signal.SIGKILL
    finally:
        if sleeper is not None:
            sleeper.kill()
            sleeper.wait()
        if stale_group is not None and stale_group.exists():
            stale_group.rmdir()
        if stale_home.exists():
            import shutil

            shutil.rmtree(stale_home)
