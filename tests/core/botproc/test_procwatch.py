"""Looks at a bot's process through kept-open files give the answers of fresh reads."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from arena.botproc.procinfo import own_wait_ns, reading_input, schedstat
from arena.botproc.procwatch import ProcessWatch


def _settle(check, want, timeout: float = 5.0) -> object:
    deadline = time.monotonic() + timeout
    while (got := check()) != want and time.monotonic() < deadline:
        time.sleep(0.01)
    return got


def test_a_process_blocked_reading_its_input_is_seen_reading_then_not_once_it_runs():
    script = (
        "import sys, time\nsys.stdin.readline()\nend = time.time() + 5\nwhile time.time() < end: 0"
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE)
    try:
        watch = ProcessWatch(proc.pid)
        assert _settle(watch.reading, True) is True
        assert reading_input(proc.pid) is True
        assert proc.stdin is not None
        proc.stdin.write(b"go\n")
        proc.stdin.flush()
        assert _settle(watch.reading, False) is False  # spinning: not back reading
        cpu, _ = watch.single_thread_schedstat() or (0, 0)
        assert cpu > 0
        assert watch.threads == 1
    finally:
        proc.kill()
        proc.wait()
    assert watch.reading() is not True  # gone: never taken for a reader
    watch.close()


def _started(script: str) -> tuple[subprocess.Popen[bytes], str]:
    """``script`` started with its stdin and stdout piped, and the first line it wrote."""
    proc = subprocess.Popen(
        [sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert proc.stdout is not None
    return proc, proc.stdout.readline().decode()


def test_a_process_with_a_child_is_looked_at_whole():
    # The child keeps running: the tree is not idle, whatever the parent waits on.
    script = (
        "import subprocess, sys\n"
        "child = subprocess.Popen([sys.executable, '-c', 'while True: pass'])\n"
        "print(child.pid, flush=True)\n"
        "sys.stdin.readline()\n"
    )
    proc, first = _started(script)
    child = int(first)
    try:
        watch = ProcessWatch(proc.pid)
        time.sleep(0.3)
        assert watch.reading() is False
        assert reading_input(proc.pid) is False
        watch.close()
    finally:
        os.kill(child, 9)
        proc.kill()
        proc.wait()


def test_the_referees_own_wait_is_read_from_its_own_thread():
    stat = schedstat(os.getpid())  # the main thread's, read afresh
    assert stat is not None
    assert own_wait_ns() >= stat[1]


def test_a_process_whose_other_thread_runs_is_not_back_reading():
    # Its main thread waits on its input; a second thread spins: not idle.
    script = (
        "import sys, threading\n"
        "def spin():\n"
        "    while True: pass\n"
        "threading.Thread(target=spin, daemon=True).start()\n"
        "print('ready', flush=True)\n"
        "sys.stdin.readline()\n"
    )
    proc, _ = _started(script)
    try:
        watch = ProcessWatch(proc.pid)
        time.sleep(0.2)
        assert watch.reading() is False
        assert watch.threads == 2
        assert watch.single_thread_schedstat() is None  # every thread is looked at
        watch.close()
    finally:
        proc.kill()
        proc.wait()
