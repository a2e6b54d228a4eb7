"""Starting bots: the shell launcher bubblewrap bots start through (limits and cgroups before
the program's first instruction, or the program never runs), and arena's own limits lower
than the caps it gives bots."""

from __future__ import annotations

import json
import os
import pickle
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.botproc import bwrap_works, procinfo, resolve_sandbox
from arena.botproc.cgroups import BotCgroup, _wait_exit
from arena.botproc.homes import BotHome, remove_retired
from arena.botproc.launcher import LAUNCH_FAILED, shell_launch
from arena.botproc.spawn import spawn
from support.hostile import MODES, needs_pids_cgroup, pids_line

REPORT = """
import json, os
limits = {}
for line in open("/proc/self/limits"):
    for name in ("Max file size", "Max core file size", "Max address space"):
        if line.startswith(name):
            soft, hard = line[len(name):].split()[:2]
            limits[name] = [soft, hard]
print(json.dumps({"pid": os.getpid(), "limits": limits, "cgroup": open("/proc/self/cgroup").read()}))
"""


def report(argv: list[str], **popen: object) -> tuple[subprocess.Popen[str], dict]:
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True, **popen)  # type: ignore[call-overload]
    out, _ = proc.communicate(timeout=60)
    return proc, json.loads(out)


@needs_pids_cgroup
def test_the_shell_launcher_joins_the_cgroups_and_sets_hard_and_soft_limits_then_execs():
    group = BotCgroup.create(64, None)
    assert group is not None
    limits = [
        (resource.RLIMIT_FSIZE, 1000),  # not a whole 512-byte unit: rounded up
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_AS, 512 * 1024 * 1024),
    ]
    name = Path(group.join_files[0]).parent.name
    try:
        proc, seen = report(shell_launch(group.join_files, limits, [sys.executable, "-c", REPORT]))
    finally:
        group.remove()
    assert proc.returncode == 0
    assert seen["pid"] == proc.pid  # the program runs as the launcher's own process
    assert pids_line(seen["cgroup"]).endswith(f"/{name}")
    assert seen["limits"] == {
        "Max file size": ["1024", "1024"],
        "Max core file size": ["0", "0"],
        "Max address space": [str(512 * 1024 * 1024)] * 2,
    }


@needs_pids_cgroup
def test_a_launcher_joins_its_cgroup_as_its_one_thread_on_v1_not_as_a_whole_process():
    # Moving a whole process (cgroup.procs) makes a game's first bot wait for an RCU grace
    # period, 6-16 ms more; a single-threaded launcher moving its own thread (0 to `tasks`)
    # does not wait (bench/protections.py, the "after idle" rows).
    group = BotCgroup.create(8, None)
    assert group is not None
    try:
        expected = "tasks" if group.version == 1 else "cgroup.procs"
        # Beside v1, its threaded v2 group for PSI is joined by the thread too.
        psi = "cgroup.threads" if group.version == 1 else expected
        wanted = [psi if d == group.pressure_dir else expected for d in group.dirs]
        assert [Path(f).name for f in group.join_files] == wanted
    finally:
        group.remove()


# A bot with a second thread and a child process, both started after its launcher joined.
THREAD_AND_CHILD = """
import subprocess, sys, threading, time
threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
print("ready", flush=True)
sys.stdin.readline()
"""


@needs_pids_cgroup
@pytest.mark.parametrize("mode", MODES)
def test_every_thread_and_child_of_a_bot_runs_in_its_cgroup(mode):
    sandbox = resolve_sandbox(mode)
    home = BotHome.create("test", 1, sandbox)
    argv = [sys.executable, "-c", THREAD_AND_CHILD]
    pipe = subprocess.PIPE
    bot = spawn(argv, home.workdirs[0], sandbox, pipe, pipe, subprocess.DEVNULL, 1 << 20)
    try:
        assert bot.proc.stdout is not None
        assert bot.proc.stdout.readline() == b"ready\n"
        assert bot.cgroup is not None
        groups = {d.name for d in bot.cgroup.dirs}
        tree = [bot.pid, *procinfo.descendants(bot.pid)]
        tasks = [(pid, tid) for pid in tree for tid in os.listdir(f"/proc/{pid}/task")]
        assert len(tasks) >= 3  # the bot's two threads and its child (and bubblewrap's own)
        for pid, tid in tasks:
            line = pids_line(Path(f"/proc/{pid}/task/{tid}/cgroup").read_text())
            assert line.rsplit("/", 1)[-1] in groups, (pid, tid, line)
        assert set(tree) <= bot.cgroup.members()
    finally:
        bot.kill()
        home.close()
        remove_retired()


def test_a_launcher_that_cannot_confine_the_bot_never_runs_it(tmp_path):
    marker = tmp_path / "ran"
    procs = tmp_path / "no-such-group" / "cgroup.procs"
    program = [sys.executable, "-c", f"open({str(marker)!r}, 'w')"]
    result = subprocess.run(
        shell_launch([str(procs)], [(resource.RLIMIT_CORE, 0)], program),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == LAUNCH_FAILED
    assert f"arena: cannot join the cgroup of {procs}" in result.stderr
    assert not marker.exists()


@needs_pids_cgroup
def test_emptying_a_cgroup_kills_every_member_and_returns_once_they_are_gone():
    group = BotCgroup.create(16, None)
    assert group is not None
    # A shell in the group with three children: the whole tree must go.
    tree = subprocess.Popen(
        [
            "/bin/sh",
            "-c",
            f"echo 0 > {group.join_files[0]}; sleep 60 & sleep 60 & sleep 60 & wait",
        ],
        start_new_session=True,
    )
    try:
        for _ in range(500):
            if len(group.members()) == 4:
                break
            time.sleep(0.01)
        members = group.members()
        assert len(members) == 4
        group.kill_all()
        # Back only once every member has left the group (exited: a zombie at most).
        assert group.members() == set()
        for pid in members - {tree.pid}:
            assert procinfo.is_zombie(pid)
    finally:
        tree.kill()
        tree.wait()
        group.remove()
    assert group.dirs == []


def test_waiting_for_killed_processes_wakes_as_they_exit_not_at_the_timeout():
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(0.2)"])
    try:
        start = time.monotonic()
        _wait_exit({sleeper.pid}, 30.0)
        assert time.monotonic() - start < 15  # far below its 30 s timeout
        assert sleeper.poll() is not None
        _wait_exit({sleeper.pid}, 30.0)  # reaped meanwhile: no such process, no wait
        assert time.monotonic() - start < 15
    finally:
        sleeper.kill()
        sleeper.wait()


STC_BOT = """
import sys
while True:
    lines = [sys.stdin.readline() for _ in range(34)]
    if not lines[-1]:
        break
    print("0 1", flush=True)
"""

OWN_LIMIT = """
import json, resource, subprocess, sys
from arena.botproc import BotHome, Sandbox
from arena.botproc.spawn import spawn
resource.setrlimit(resource.RLIMIT_FSIZE, (100_000, 100_000))
sandbox = Sandbox(sys.argv[1])
home = BotHome.create("test", 1, sandbox)
try:
    bot = spawn([sys.executable, "-c", sys.argv[2]], home.workdirs[0], sandbox,
                None, subprocess.PIPE, None, 256 * 1024 * 1024)
    print(bot.proc.communicate(timeout=60)[0].decode())
    bot.kill()
finally:
    home.close()
"""


@pytest.mark.parametrize("mode", MODES)
def test_a_lower_hard_limit_of_arena_itself_is_what_its_bots_get(tmp_path, mode):
    # Only root may raise a hard limit: bots still start, capped by arena's own limit.
    result = subprocess.run(
        [sys.executable, "-c", OWN_LIMIT, mode, REPORT],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout)
    # 100,000 bytes is not a whole 512-byte unit: the launcher rounds down, never above.
    expected = "100000" if mode == "none" else str(100_000 // 512 * 512)
    assert seen["limits"]["Max file size"] == [expected, expected]


@pytest.mark.skipif(not bwrap_works(), reason="bubblewrap does not work here")
def test_bubblewrap_is_probed_once_per_run_not_again_in_each_worker(tmp_path):
    # A bwrap that logs how it is called, then runs the real one.
    tools = tmp_path / "tools"
    tools.mkdir()
    log = tmp_path / "bwrap.log"
    fake = tools / "bwrap"
    fake.write_text(f'#!/bin/sh\necho "$1" >> {log}\nexec {shutil.which("bwrap")} "$@"\n')
    fake.chmod(0o755)
    bot = tmp_path / "bot.py"
    bot.write_text(STC_BOT)
    env = {
        **os.environ,
        "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}",
        "TMPDIR": str(tmp_path),
    }
    options = ["--games", "2", "--jobs", "2", "--max-turns", "2", "--sandbox", "bwrap"]
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "arena",
            "match",
            "stc",
            f"python3 {bot}",
            f"python3 {bot}",
            *options,
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    calls = log.read_text().splitlines()
    assert calls.count("--help") == 1  # the options, asked once by the main process
    assert len(calls) == 1 + 1 + 4  # and one trial sandbox; then the bots of both games


# A worker process: it gets the sandbox the main process resolved (pickled, as the pools
# send it), and must start bots without forking a probe of its own.
WORKER_PROBES = """
import os, pickle, sys
from pathlib import Path
from arena.botproc import backend_of
from arena.botproc.sandboxes import none
sandbox = pickle.loads(bytes.fromhex(sys.argv[1]))
def no_fork():
    raise AssertionError("the worker probed again")
os.fork = no_fork
backend = backend_of(sandbox)
print(repr(none.private_dirs_supported()))
print(backend.env(sandbox, Path("/nowhere"))["TMPDIR"])
"""


def test_private_tmp_is_probed_once_per_run_not_again_in_each_worker(tmp_path):
    from arena.botproc import resolve_sandbox
    from arena.botproc.sandboxes.none import private_dirs_supported

    sandbox = resolve_sandbox("none")
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-c", WORKER_PROBES, pickle.dumps(sandbox).hex()],
        capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    found, tmpdir = result.stdout.splitlines()
    assert found == repr(private_dirs_supported())  # the main process's answer, as is
    assert tmpdir == ("/tmp" if private_dirs_supported() else "/nowhere")
