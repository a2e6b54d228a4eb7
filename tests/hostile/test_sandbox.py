"""Hostile bots against the sandbox itself: under bubblewrap nothing is privileged and nothing
of the host is visible but the system and the bot's own files; the user is told which sandbox
is in use, and a sandbox that cannot work stops arena before any game."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arena.botproc import Sandbox, bwrap_works
from arena.records import BotSpec
from arena.referee.engine import Referee
from support.hostile import arena, marker, stc_bot, tournament, write_bot
from support.toygame import ToyGame

SETTINGS = {"turns": 1, "simultaneous": True}
needs_bwrap = pytest.mark.skipif(not bwrap_works(), reason="bubblewrap does not work here")

REPORT = """
import json, os, sys
report = {{}}
{checks}
sys.stderr.write(json.dumps(report) + "\\n")
for line in sys.stdin:
    print(1, flush=True)
"""

PRIVILEGES = """
import ctypes, socket
libc = ctypes.CDLL(None, use_errno=True)
status = dict(l.split(":\\t", 1) for l in open("/proc/self/status").read().splitlines() if ":\\t" in l)
report["uid"] = os.getuid()
report["cap_eff"] = status["CapEff"].strip()
report["no_new_privs"] = status["NoNewPrivs"].strip()
MS_REMOUNT, MS_BIND = 32, 4096
report["remount_rw"] = libc.mount(None, b"/", None, MS_REMOUNT, None) == 0
report["umount_tmp"] = libc.umount2(b"/tmp", 0) == 0
report["bind_etc"] = libc.mount(b"/etc", b"/tmp", None, MS_BIND, None) == 0
written = []
for path in {outside!r}:
    try:
        open(path, "w").write("x")
        written.append(path)
    except OSError:
        pass
report["written"] = written
try:
    report["shadow"] = open("/etc/shadow").read()[:10]
except OSError:
    report["shadow"] = None
report["processes"] = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
try:
    socket.create_connection(("1.1.1.1", 53), timeout=2).close()
    report["network"] = True
except OSError:
    report["network"] = False
for d in ("/tmp", "/dev/shm"):
    with open(f"{{d}}/probe", "w") as f:
        f.write("x")  # private and writable
report["tmp"] = sorted(os.listdir("/tmp"))
report["host_tmp_file"] = os.path.exists({host_file!r})
"""


def report_of(tmp_path: Path, record, seat: int = 0) -> dict:
    text = (tmp_path / "game" / record.seats[seat].stderr).read_text()
    return json.loads(text.strip().splitlines()[0])


@needs_bwrap
def test_a_sandboxed_bot_has_no_privileges_and_its_own_tmp(tmp_path):
    mark = marker()
    host_file = Path("/tmp") / mark
    host_file.write_text("host")
    # Where a privileged bot would write on the host (removed whatever happens).
    outside = [f"/etc/{mark}", f"/usr/{mark}", f"/{mark}"]
    try:
        checks = PRIVILEGES.format(host_file=str(host_file), outside=outside)
        spy = BotSpec(
            "spy",
            (sys.executable, str(write_bot(tmp_path, "spy.py", REPORT.format(checks=checks)))),
        )
        sandbox = Sandbox("bwrap")
        record = Referee(ToyGame(), [spy, spy], tmp_path / "game", sandbox).play(1, SETTINGS)
    finally:
        host_file.unlink()
        written = [path for path in outside if os.path.exists(path)]
        for path in written:
            os.unlink(path)
    assert written == []
    assert [s.forfeit for s in record.seats] == [None, None]
    for seat in (0, 1):
        report = report_of(tmp_path, record, seat)
        assert report["cap_eff"] == "0000000000000000"
        assert report["no_new_privs"] == "1"
        if os.geteuid() == 0:
            assert report["uid"] != 0  # root's bots run as nobody
        assert not report["remount_rw"] and not report["umount_tmp"] and not report["bind_etc"]
        assert report["written"] == []
        assert report["shadow"] is None
        assert report["network"] is False
        assert len(report["processes"]) <= 3  # its own PID namespace: bwrap's init and itself
        # A private /tmp: only its own file, and the folders leading to its own files.
        assert "probe" in report["tmp"] and not report["host_tmp_file"]


SECRETS = """
report["home"] = os.path.exists({npmrc!r})
report["other_output"] = os.path.exists({other!r})
report["neighbours"] = sorted(os.listdir(os.path.dirname(os.getcwd())))
report["prefix"] = sys.prefix
"""


@needs_bwrap
def test_a_sandboxed_bot_sees_nothing_of_home_other_bots_or_outputs_yet_python_under_home_runs(
    tmp_path, monkeypatch
):
    # A user's HOME with a secret and a Python installed under it (as pyenv does).
    home = tmp_path / "home"
    (home / ".config").mkdir(parents=True)
    npmrc = home / ".npmrc"
    npmrc.write_text("//registry.npmjs.org/:_authToken=secret\n")
    venv = home / ".venvs" / "bots"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    monkeypatch.setenv("HOME", str(home))
    # Another tournament's output, outside /tmp and HOME.
    other = Path("/var/tmp") / marker()
    other.mkdir()
    try:
        (other / "arena.sqlite").write_text("results")
        checks = SECRETS.format(npmrc=str(npmrc), other=str(other / "arena.sqlite"))
        source = write_bot(tmp_path / "bots", "peek.py", REPORT.format(checks=checks))
        peek = BotSpec("peek", (str(venv / "bin" / "python"), str(source)))
        sandbox = Sandbox("bwrap", hide=(str(other),))
        record = Referee(ToyGame(), [peek, peek], tmp_path / "game", sandbox).play(1, SETTINGS)
    finally:
        shutil.rmtree(other)
    assert [s.forfeit for s in record.seats] == [None, None]
    for seat in (0, 1):
        report = report_of(tmp_path, record, seat)
        assert report["prefix"] == str(venv)  # the interpreter under HOME started
        assert report["home"] is False
        assert report["other_output"] is False
        assert report["neighbours"] == [f"seat{seat}"]


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
def test_bubblewrap_is_detected_when_installed_even_on_a_fresh_machine(tmp_path):
    # A fresh machine: nothing arena made exists yet in the temp folder.
    fresh = tmp_path / "fresh-tmp"
    fresh.mkdir()
    code = "from arena.botproc import bwrap_works; print(bwrap_works())"
    env = {**os.environ, "TMPDIR": str(fresh)}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert result.stdout.startswith("True"), result.stdout + result.stderr


def fake_bwrap(tmp_path: Path) -> str:
    """A PATH whose bwrap exists but cannot create a sandbox (like in many containers)."""
    fake = tmp_path / "fakebin"
    fake.mkdir()
    script = fake / "bwrap"
    script.write_text(
        "#!/bin/sh\necho 'bwrap: No permissions to creating new namespace' >&2\nexit 1\n"
    )
    script.chmod(0o755)
    return f"{fake}:{os.environ['PATH']}"


def test_sandbox_bwrap_that_cannot_work_is_one_error_before_any_game(tmp_path):
    path = tournament(tmp_path, {"a": stc_bot(), "b": stc_bot()}, sandbox="bwrap")
    env = {**os.environ, "PATH": fake_bwrap(tmp_path)}
    result = arena("run", str(path), env=env)
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip() == (
        f"arena: {path}: sandbox (line 6): bubblewrap does not work here: "
        "bwrap: No permissions to creating new namespace"
    )
    assert not (tmp_path / "out" / "arena.sqlite").exists()  # no game, nothing stored
    bot = f"{sys.executable} {write_bot(tmp_path / 'bots', 'm.py', stc_bot())}"
    match = arena("match", "stc", bot, bot, "--sandbox", "bwrap", env=env)
    assert match.returncode == 2
    assert match.stderr.startswith("arena: --sandbox: bubblewrap does not work here: ")


def test_auto_without_bubblewrap_warns_once_that_bots_are_not_isolated(tmp_path):
    bots = {name: stc_bot() for name in ("a", "b", "c")}
    path = tournament(tmp_path, bots, sandbox="auto", concurrency=1, settings="max_turns: 2")
    env = {**os.environ, "PATH": "/nonexistent"}  # no bubblewrap anywhere
    result = arena("run", str(path), "--no-progress", env=env)
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1
    assert "bots are not isolated from each other or the host" in warnings[0]
    assert "arena: sandbox none: bots run as " in result.stderr


@needs_bwrap
def test_run_and_match_say_which_sandbox_is_in_use(tmp_path):
    path = tournament(tmp_path, {"a": stc_bot(), "b": stc_bot()}, sandbox="auto", games=1)
    result = arena("run", str(path), "--no-progress")
    assert result.returncode == 0, result.stderr
    who = "nobody" if os.geteuid() == 0 else ""
    line = next(x for x in result.stderr.splitlines() if x.startswith("arena: sandbox "))
    assert line.startswith(f"arena: sandbox bubblewrap: bots run as {who}")
    bot = write_bot(tmp_path / "bots", "m.py", stc_bot())
    match = arena("match", "stc", f"{sys.executable} {bot}", f"{sys.executable} {bot}",
                  "--max_turns", "1", "--sandbox", "none")  # fmt: skip
    assert "arena: sandbox none: bots run as " in match.stderr
