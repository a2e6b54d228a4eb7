"""Hostile bots against the last ways out (issue 49): file locks between the two bots of
a game, SysV IPC left behind, a root bot leaving its cgroups or renicing itself, the
kernel surface under bubblewrap, and a command naming ``/tmp`` to see the host's."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.botproc.sandboxes.none import private_dirs_supported
from arena.records import BotSpec
from arena.referee.engine import Referee
from support import REPO
from support.hostile import MODES, PIDS_CGROUP, marker, mode_sandbox, write_bot
from support.toygame import ToyGame

BWRAP = [m for m in MODES if m.values[0] == "bwrap"]


def needs_private(mode: str) -> None:
    """``none`` gives its protections only where the kernel allows a mount namespace."""
    if mode == "none" and private_dirs_supported() is None:
        pytest.skip("no private namespaces for bots without bubblewrap here")


def play(tmp_path: Path, mode: str, bots: list[tuple[str, str, list[str]]], turns: int = 3):
    """Play the toy game with ``bots`` (name, source, arguments); each seat's stderr."""
    specs = [
        BotSpec(name, (sys.executable, str(write_bot(tmp_path / "bots", f"{name}.py", src)), *a))
        for name, src, a in bots
    ]
    folder = tmp_path / f"game-{marker()}"
    record = Referee(ToyGame(), specs, folder, mode_sandbox(mode)).play(
        1, {"turns": turns, "simultaneous": True}
    )
    logs = [(folder / s.stderr).read_text() for s in record.seats]
    return record, logs


# -- 1. locks on the files both bots see -------------------------------------------------

LOCKER = """
import fcntl, struct, sys
f = open("/etc/passwd")
for kind, take in (("flock", lambda: fcntl.flock(f, fcntl.LOCK_SH | fcntl.LOCK_NB)),
                   ("posix", lambda: fcntl.lockf(f, fcntl.LOCK_SH | fcntl.LOCK_NB, 0, 0))):
    try:
        take()
        sys.stderr.write(f"{kind} held\\n")
    except OSError as exc:
        sys.stderr.write(f"{kind} refused {exc.errno}\\n")
ofd = open("/etc/passwd")
try:
    fcntl.fcntl(ofd, 37, struct.pack("hhqqi", fcntl.F_RDLCK, 0, 0, 0, 0))  # F_OFD_SETLK
    sys.stderr.write("ofd held\\n")
except OSError as exc:
    sys.stderr.write(f"ofd refused {exc.errno}\\n")
for line in sys.stdin:
    print(1, flush=True)
"""

PROBER = """
import fcntl, os, struct, sys
turn = 0
for line in sys.stdin:
    turn += 1
    if turn >= 2:  # the locker took its locks before answering the first turn
        f = open("/etc/passwd", "rb")
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            sys.stderr.write("flock free\\n")
        except BlockingIOError:
            sys.stderr.write("flock BUSY\\n")
        except OSError as exc:
            sys.stderr.write(f"flock refused {exc.errno}\\n")
        for name, cmd in (("posix", fcntl.F_GETLK), ("ofd", 36)):  # 36: F_OFD_GETLK
            try:
                got = fcntl.fcntl(f, cmd, struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0))
                busy = struct.unpack("hhqqi", got)[0] != fcntl.F_UNLCK
                sys.stderr.write(f"{name} {'BUSY' if busy else 'free'}\\n")
            except OSError as exc:
                sys.stderr.write(f"{name} refused {exc.errno}\\n")
        f.close()
    print(1, flush=True)
"""


@pytest.mark.parametrize("mode", BWRAP)
def test_a_lock_on_a_shared_system_file_is_not_seen_by_the_other_bot(tmp_path, mode):
    record, (locker, prober) = play(
        tmp_path, mode, [("locker", LOCKER, []), ("prober", PROBER, [])]
    )
    assert [s.forfeit for s in record.seats] == [None, None], (locker, prober)
    assert "BUSY" not in prober, (locker, prober)
    # Locks are refused to bots (ENOLCK): a filter cannot tell a shared file from theirs.
    assert locker.count(f"refused {__import__('errno').ENOLCK}") == 3, locker
    assert prober.count("refused") == 3 * 2, prober  # turns 2 and 3


# -- 2. SysV IPC left behind ------------------------------------------------------------

IPC = """
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
KEY = int(sys.argv[1])
if sys.argv[2] == "leave":
    shm = libc.shmget(KEY, 4096, 0o1666)  # IPC_CREAT | 0666
    sem = libc.semget(KEY, 1, 0o1666)
    sys.stderr.write(f"left shm {shm} sem {sem}\\n")
else:
    shm, sem = libc.shmget(KEY, 0, 0), libc.semget(KEY, 0, 0)
    sys.stderr.write(("FOUND" if shm >= 0 or sem >= 0 else "nothing") + "\\n")
for line in sys.stdin:
    print(1, flush=True)
"""

QUIET = """
import sys
for line in sys.stdin:
    print(1, flush=True)
"""


@pytest.mark.parametrize("mode", MODES)
def test_sysv_ipc_a_bot_leaves_is_gone_with_it(tmp_path, mode):
    needs_private(mode)
    key = 0x4A000000 + os.getpid() % 0xFFFF
    libc = ctypes.CDLL(None, use_errno=True)
    try:
        _, logs = play(tmp_path, mode, [("leave", IPC, [str(key), "leave"]), ("q", QUIET, [])])
        assert "left shm" in logs[0] and "left shm -1" not in logs[0], logs[0]
        # Neither this (the host's) namespace nor a later bot finds them.
        assert libc.shmget(key, 0, 0) == -1 and libc.semget(key, 0, 0) == -1
        _, later = play(tmp_path, mode, [("look", IPC, [str(key), "look"]), ("q", QUIET, [])])
        assert "nothing" in later[0], later[0]
    finally:
        for get, ctl in ((libc.shmget, libc.shmctl), (libc.semget, libc.semctl)):
            if (found := get(key, 0, 0)) >= 0:
                ctl(found, 0, 0)  # IPC_RMID: leave the host as it was


# -- 3. root: leaving the cgroups, renicing ---------------------------------------------

ESCAPE = """
import glob, os, sys
for procs in glob.glob("/sys/fs/cgroup/cgroup.procs") + glob.glob("/sys/fs/cgroup/*/cgroup.procs"):
    try:
        with open(procs, "w") as f:
            f.write(str(os.getpid()))
        sys.stderr.write(f"MOVED {procs}\\n")
    except OSError as exc:
        sys.stderr.write(f"stayed {procs} {exc.errno}\\n")
try:
    os.setpriority(os.PRIO_PROCESS, 0, -20)
except OSError as exc:
    sys.stderr.write(f"renice refused {exc.errno}\\n")
sys.stderr.write(f"nice {os.getpriority(os.PRIO_PROCESS, 0)}\\n")
for line in sys.stdin:
    print(1, flush=True)
"""


@pytest.mark.skipif(os.geteuid() != 0 or not PIDS_CGROUP, reason="as root, with cgroups")
@pytest.mark.parametrize("mode", MODES)
def test_a_root_bot_neither_leaves_its_cgroups_nor_renices_itself(tmp_path, mode):
    needs_private(mode)
    _, (log, _) = play(tmp_path, mode, [("escape", ESCAPE, []), ("q", QUIET, [])])
    assert "MOVED" not in log, log  # every write to a cgroup.procs refused
    assert mode == "bwrap" or "stayed" in log, log  # bubblewrap shows no /sys at all
    assert "nice 0" in log, log


# -- 4. the kernel surface under bubblewrap ---------------------------------------------

SURFACE = """
import ctypes, os, platform, sys
libc = ctypes.CDLL(None, use_errno=True)
IO_URING_SETUP, PTRACE, UNSHARE = {"x86_64": (425, 101, 272), "aarch64": (425, 117, 97)}[
    platform.machine()]
params = ctypes.create_string_buffer(120)
for name, call in (("io_uring", lambda: libc.syscall(IO_URING_SETUP, 4, params)),
                   ("userns", lambda: libc.syscall(UNSHARE, 0x10000000)),
                   ("ptrace", lambda: libc.syscall(PTRACE, 16, 1, 0, 0))):  # ATTACH pid 1
    result = call()
    sys.stderr.write(f"{name} {'ALLOWED' if result >= 0 else 'refused'} {ctypes.get_errno()}\\n")
with open("/proc/1/cmdline", "rb") as f:  # process 1 is the bot itself, not bubblewrap
    sys.stderr.write(f"pid 1 {'is me' if b'surface.py' in f.read() else 'IS ANOTHER'}\\n")
for line in sys.stdin:
    print(1, flush=True)
"""


@pytest.mark.skipif(os.uname().machine not in ("x86_64", "aarch64"), reason="numbers unknown")
@pytest.mark.parametrize("mode", BWRAP)
def test_io_uring_user_namespaces_and_ptrace_are_refused_under_bubblewrap(tmp_path, mode):
    record, (log, _) = play(tmp_path, mode, [("surface", SURFACE, []), ("q", QUIET, [])])
    assert [s.forfeit for s in record.seats] == [None, None], log
    assert "ALLOWED" not in log, log
    assert log.count("refused 1") == 3, log  # EPERM each
    assert "pid 1 is me" in log, log


# -- 9. /tmp named in a command, TMPDIR open to all --------------------------------------

PEEK = """
import os, sys
seen = os.path.exists(os.path.join(sys.argv[1], sys.argv[2]))
sys.stderr.write(("SEEN" if seen else "hidden") + "\\n")
for line in sys.stdin:
    print(1, flush=True)
"""


@pytest.mark.parametrize("folder", ["/tmp", "/dev/shm", "/"])
@pytest.mark.parametrize("mode", MODES)
def test_naming_tmp_in_a_command_shows_the_private_one_not_the_hosts(tmp_path, mode, folder):
    needs_private(mode)
    host_tmp = "/tmp" if folder == "/" else folder
    secret = Path(host_tmp) / marker()  # another run's file in the host's folder
    secret.write_text("x")
    try:
        args = [folder, str(secret.relative_to(folder))]
        _, (log, _) = play(tmp_path, mode, [("peek", PEEK, args), ("q", QUIET, [])])
    finally:
        secret.unlink()
    assert log.strip() == "hidden", log


def test_a_tmpdir_others_may_replace_things_in_is_refused_for_bot_folders(tmp_path):
    open_folder = tmp_path / "open"
    open_folder.mkdir()
    open_folder.chmod(0o777)  # world-writable, no sticky bit
    bot = write_bot(tmp_path, "bot.py", QUIET)
    env = {**os.environ, "TMPDIR": str(open_folder)}
    done = subprocess.run(
        [sys.executable, "-m", "arena", "match", "stc", f"python3 {bot}", f"python3 {bot}",
         "--sandbox", "none", "--games", "1"],
        capture_output=True, text=True, env=env, cwd=REPO, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    errors = [line for line in done.stderr.splitlines() if "sticky" in line]
    assert len(errors) == 1 and str(open_folder) in errors[0], done.stderr
    assert "Traceback" not in done.stderr
