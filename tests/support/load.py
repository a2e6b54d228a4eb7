"""A busy machine for the fair-time tests: processes outside arena spinning on given cores
(at nice -20, as root: a machine that takes a bot's time whatever its weight), and an STC
bot that burns a set amount of its own CPU every turn but the first."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from arena.botproc import cgroups

SPIN = "import os, sys\nos.sched_setaffinity(0, {int(sys.argv[1])})\nwhile True: pass"
"""A busy process pinned to the core given as its argument."""

STC_WORKER = """
import os, sys, time
CPU, WORK = {cpu!r}, float(os.environ.get("STC_WORKER_WORK", {work!r}))
if CPU is not None:
    try:
        os.sched_setaffinity(0, {{CPU}})
    except OSError:  # confined to another core of its own (a cpuset)
        pass
turn = 0
while True:
    lines = [sys.stdin.readline() for _ in range(34)]
    if not lines[-1]:
        break
    if turn:
        t = time.thread_time()
        while time.thread_time() - t < WORK:
            pass
    print(f"{{turn % 6}} 1", flush=True)
    turn += 1
"""


def stc_worker(work: float, cpu: int | None = None) -> str:
    """Source of an STC bot spending ``work`` seconds of its own CPU on every turn but the
    first (``STC_WORKER_WORK`` in its environment, where set: the same bot, another load),
    pinned to ``cpu`` where it may be (None: anywhere)."""
    return textwrap.dedent(STC_WORKER.format(cpu=cpu, work=work))


HOG_NICE = """import os
try:
    os.nice(-20)
    with open("/proc/self/autogroup", "w") as group:  # its session's, where there are
        group.write("-20")
except OSError:
    pass
"""
"""A busy process's first lines: at nice -20 where it may (root), its session's autogroup
too, each weighs about 87 times a process at nice 0, so eight of them on a core take a
thinking bot's time (about three quarters of it) whatever the weight of its group (the
kernel's most: see ``arena.botproc.cgroups.CPU_SHARES``)."""


def busy(source: str, *args: str, nice: bool = True) -> subprocess.Popen[bytes]:
    """A process outside arena running ``source`` (with ``args``) at nice -20 where it may
    (:data:`HOG_NICE`), in a session of its own: the kernel's autogroups would otherwise
    weigh all of them together as one."""
    first = HOG_NICE if nice else ""
    return subprocess.Popen([sys.executable, "-c", first + source, *args], start_new_session=True)


@contextmanager
def spinning(
    cores: Iterable[int], per_core: int = 8, source: str = SPIN, nice: bool = True
) -> Iterator[list[subprocess.Popen[bytes]]]:
    """``per_core`` busy processes on each of ``cores`` (``source`` gets the core as its
    argument), all spinning before the block starts and killed after it. Meanwhile every
    other core bots may be given is held, as another game holds it (:func:`holding`): a
    game started in the block gives its bots the busy cores, or, with too few of them,
    lets them share every core (where a bot pinned to a busy core stays on it). Without
    ``nice`` they spin at nice 0: a process started on their core (a bot's launch, which
    has no cgroup weight yet) still gets its share instead of starving."""
    cores = sorted(cores)
    with holding(set(cgroups.machine_cores()) - set(cores)):
        procs = [busy(source, str(core), nice=nice) for core in cores for _ in range(per_core)]
        time.sleep(0.2)  # all of them spinning
        try:
            yield procs
        finally:
            for proc in procs:
                proc.kill()
                proc.wait()


@contextmanager
def holding(cores: Iterable[int]) -> Iterator[None]:
    """The cpuset locks of ``cores`` held (waiting for a game that holds one to end), as a
    game of another arena process holds those of its bots' cores
    (``arena.botproc.cgroups.claim_cores``)."""
    fds = []
    try:
        for core in sorted(cores):
            cgroups.CORE_LOCKS.mkdir(mode=0o700, exist_ok=True)
            path = cgroups.CORE_LOCKS / f"core-{core}.lock"
            fds.append(os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC))
            fcntl.flock(fds[-1], fcntl.LOCK_EX)
        yield
    finally:
        for fd in fds:
            os.close(fd)


def stc_tournament(folder: Path, bots: dict[str, Path], games: int) -> Path:
    """A tournament file in ``folder``: ``games`` STC games of 3 turns between ``bots``
    (name: script), one at a time, without a sandbox, stored in ``folder / "out"``."""
    lines = "\n".join(f"  - {{name: {name}, cmd: python3 {path}}}" for name, path in bots.items())
    path = folder / "t.yaml"
    path.write_text(
        f"game: stc\ngames: {games}\nconcurrency: 1\nsandbox: none\n"
        f"settings: {{max_turns: 3}}\nbots:\n{lines}\noutput: {folder / 'out'}\n"
    )
    return path
