"""Bots without bubblewrap get a PID namespace of their own where the kernel allows it:
process 1 of it, their parent out of sight, the exit status theirs. (The hostile side, a
bot that kills or stops arena's processes, is in tests/hostile/test_workers.py.)"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from arena.botproc.launcher import PrivateDirs
from arena.botproc.sandboxes import none
from arena.botproc.sandboxes.base import Sandbox
from arena.botproc.sandboxes.none import pid_namespace
from arena.botproc.spawn import spawn

needs_pid_namespace = pytest.mark.skipif(
    not pid_namespace(), reason="no PID namespace for bots without bubblewrap here"
)


def run(tmp_path: Path, script: str, argv: tuple[str, ...] = ("/bin/sh", "-c")) -> tuple[int, str]:
    """Start ``sh -c script`` (or ``argv`` + script) as a bot under ``sandbox: none``;
    its exit code and output."""
    bot = spawn(
        [*argv, script],
        tmp_path,
        Sandbox("none"),
        subprocess.DEVNULL,
        subprocess.PIPE,
        subprocess.DEVNULL,
        1 << 20,
    )
    assert bot.proc.stdout is not None
    out = bot.proc.stdout.read().decode()
    code = bot.proc.wait()
    bot.kill()
    return code, out


@needs_pid_namespace
def test_a_bot_is_process_1_and_sees_no_parent(tmp_path):
    code, out = run(tmp_path, 'echo "$$ $PPID"; kill -0 -1 2>/dev/null; echo "others $?"')
    assert code == 0
    # pid 1, parent 0 (outside the namespace), and no other process to signal.
    assert out.split("\n")[:2] == ["1 0", "others 1"]


@needs_pid_namespace
def test_the_bots_exit_status_comes_through(tmp_path):
    assert run(tmp_path, "exit 7")[0] == 7
    # A crash (a real fault) is reported as the signal that killed the bot, as without
    # the namespace: unshare dies of the same signal.
    # (The interpreter named as a word of the command: a private /tmp keeps it in sight.)
    crash = "import ctypes; ctypes.string_at(0)"
    assert run(tmp_path, crash, (sys.executable, "-c"))[0] == -signal.SIGSEGV
    # Process 1 ignores a signal it sends itself and does not handle, as in a container.
    assert run(tmp_path, "kill -TERM $$; exit 3")[0] == 3


def test_the_probes_pid_namespace_is_cached_and_a_bad_one_refused():
    private = PrivateDirs("/", 1 << 20, True, pid_ns=("/usr/bin/unshare", "--fork", "--"))
    value = none.private_to_json(private)
    assert none.private_from_json(value).pid_ns == private.pid_ns
    # An older cache (no pid_ns) means none; a cached command that is not words is refused.
    assert none.private_from_json({"userns": True}).pid_ns == ()
    with pytest.raises(ValueError):
        none.private_from_json({"userns": True, "pid_ns": [1, 2]})


@needs_pid_namespace
def test_a_bot_killed_at_the_end_of_its_game_leaves_nothing_on_its_stderr(tmp_path):
    # unshare outliving the bot it waits for by a moment would say so on the bot's stderr:
    # killed first, it never does (200 ends of a game: the race showed in about 1 in 20).
    read, write = os.pipe()
    os.set_blocking(read, False)
    try:
        for _ in range(200):
            bot = spawn(["cat"], tmp_path, Sandbox("none"), subprocess.PIPE, subprocess.PIPE,
                        write, 1 << 20)  # fmt: skip
            assert bot.proc.stdin is not None and bot.proc.stdout is not None
            bot.proc.stdin.write(b"ping\n")
            assert bot.proc.stdout.readline() == b"ping\n"
            bot.kill()
            bot.proc.stdin.close()
            bot.proc.stdout.close()
        os.close(write)
        write = -1
        assert os.read(read, 1 << 16) == b""
    finally:
        os.close(read)
        if write != -1:
            os.close(write)
