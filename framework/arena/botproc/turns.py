"""Per-turn bots (file protocols): one process per turn, files in, files and exit code out.

The bot's directory is the bot's: between turns it may have left anything there. The
referee never follows what it finds: files are opened relative to a descriptor of the
directory, without following links (``O_NOFOLLOW``), only when they are regular files,
without blocking (a FIFO cannot hang it) and read up to a cap. Anything else where a
protocol file belongs loses the game with a clear reason, and nothing outside the bot's
directory is ever written on its behalf.
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import stat
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from arena.botproc.lines import READS_PER_PUMP, LogSink
from arena.botproc.pressure import WaitCounters, turn_waits
from arena.botproc.procinfo import (
    WRAPPERS,
    children,
    exit_fd,
    own_wait_ns,
    schedstat,
    threads_of,
    tree_threads,
)
from arena.botproc.sandboxes.base import Sandbox
from arena.botproc.spawn import BotProcess, out_of_memory, spawn, sweep_orphans
from arena.text import shown_line

MAX_WALK_ENTRIES = 10_000
"""Entries of a bot directory examined at most; more is itself a problem."""


@dataclass(frozen=True)
class TurnProcessResult:
    """What one per-turn process did: exit code (None on timeout), time, files, output.

    ``file_problem`` is a protocol violation found in the bot's directory (before the turn:
    the process was then never started, ``started`` is False). ``memory`` says why the
    memory cap stopped it, if it did. ``log_tail`` is the end of what it wrote on its log
    this turn (a crash's traceback).
    """

    exit_code: int | None
    elapsed_ms: float
    timed_out: bool
    output: str | None
    file_problem: str | None
    started: bool = True
    memory: str | None = None
    log_tail: str = ""
    waited_ms: float = 0.0
    """How long the machine kept the turn waiting (see :func:`turn_wait_ms`), looked at
    when it was still running at its limit; while that wait is what puts it over, its
    deadline moves by that much (``excused``)."""
    excused: bool = False


@dataclass(frozen=True)
class TurnOptions:
    """How one seat's per-turn processes run: the same every turn of a game.

    The process is ``argv + [<workdir>/<input_name>]`` with ``workdir`` as cwd; it answers
    in ``output_name``. The directory may hold at most ``max_extra_files`` other entries,
    none larger than ``max_file_bytes``. stdout and stderr go to ``log_path`` (bounded).
    ``dir_fd``, an open descriptor of ``workdir`` (kept by the caller for the game), is
    what every file operation goes through; without it the directory is opened each turn.

    ``excuse`` (the wall clock): a process still running at its limit whose turn is
    within it once the machine's wait is taken off (:func:`turn_wait_ms`) is given that
    time (at most 4 times the limit and a second); the result says so (``excused``).
    ``core``: the CPU the process is confined to (a core of its own), None: any.
    """

    argv: Sequence[str]
    workdir: Path
    input_name: str
    output_name: str
    log_path: Path
    max_extra_files: int
    max_file_bytes: int
    sandbox: Sandbox = field(default_factory=Sandbox)
    dir_fd: int | None = None
    excuse: bool = False
    core: int | None = None


def run_turn_process(options: TurnOptions, input_text: str, timeout_s: float) -> TurnProcessResult:
    """Run one turn of a file-protocol bot and collect what it left.

    Writes ``input_text`` as the input file (removing the previous output file), starts
    the process, waits at most ``timeout_s`` of wall clock (start-up included), kills the
    process tree, then reads the output file and checks the directory (see
    :class:`TurnOptions`).
    """
    dir_fd = options.dir_fd
    if dir_fd is None:
        options.workdir.mkdir(parents=True, exist_ok=True)
        dir_fd = os.open(options.workdir, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    try:
        problem = prepare_turn(dir_fd, options.input_name, input_text, options.output_name)
        if problem is not None:
            return TurnProcessResult(0, 0.0, False, None, problem, started=False)
        return _run(options, dir_fd, timeout_s)
    finally:
        if options.dir_fd is None:
            os.close(dir_fd)


def _run(options: TurnOptions, dir_fd: int, timeout_s: float) -> TurnProcessResult:
    sandbox, excuse = options.sandbox, options.excuse
    input_name, output_name = options.input_name, options.output_name
    held = own_wait_ns()
    start = time.perf_counter()
    bot = spawn(
        [*options.argv, str(options.workdir / input_name)],
        options.workdir,
        sandbox,
        subprocess.DEVNULL,
        subprocess.PIPE,
        subprocess.STDOUT,
        options.max_file_bytes + 1,
        core=options.core,
    )
    proc = bot.proc
    pidfd = exit_fd(proc.pid)
    held_ms = (own_wait_ns() - held) / 1e6  # the referee's own wait while it started it
    started = _counters(bot) if excuse else None  # its group's, from (nearly) nothing
    waited_ms, excused = 0.0, False
    give_up = start + timeout_s * CPU_WALL_FACTOR + 1.0
    try:
        assert proc.stdout is not None
        log = LogSink(proc.stdout, options.log_path)
        deadline = start + timeout_s
        code: int | None = None
        ended: float | None = None
        # Wait in the kernel for the process to exit (a pidfd), draining its log, until
        # the deadline; the clock stops as soon as the exit is seen. Without pidfds, the
        # process is looked at every 50 ms (a child may hold the log pipe open).
        while True:
            while (remaining := deadline - time.perf_counter()) > 0:
                waiting = [] if pidfd is None else [pidfd]
                if not log.eof:
                    waiting.append(log.fileno())
                with contextlib.suppress(InterruptedError):
                    select.select(
                        waiting, [], [], remaining if pidfd is not None else min(remaining, 0.05)
                    )
                code = proc.poll()
                if code is not None:
                    ended = time.perf_counter()
                    break
                log.pump(READS_PER_PUMP)
            if ended is not None or not excuse or proc.poll() is not None:
                break
            # Still running at its limit (read before it is reaped): is it the machine's
            # doing? Then it gets the time the machine took, as a line bot does.
            now = time.perf_counter()
            elapsed = (now - start) * 1000.0
            waits = turn_waits(started, _counters(bot))
            bots = 0.0 if waits.own else max(turn_wait_ms(bot), waits.run_queue) + waits.blocked
            waited_ms = min(bots + held_ms, max(0.0, elapsed - turn_cpu_ms(bot)))
            if elapsed - waited_ms > timeout_s * 1000.0 or now > give_up:
                break
            excused = True
            deadline = start + timeout_s + (waited_ms + 1.0) / 1000.0
        if ended is None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = proc.wait(timeout=max(0.0, deadline - time.perf_counter()))
            ended = time.perf_counter()
        elapsed_ms = (ended - start) * 1000.0
    finally:
        # Whatever happens here (a timeout, Ctrl-C, an error), the turn's processes end.
        bot.kill()
        sweep_orphans()
        if pidfd is not None:
            os.close(pidfd)
    last_line = log.last_line()
    tail = log.tail()
    log.close()
    timed_out = code is None
    memory = out_of_memory(bot.oom_kills(), last_line, sandbox.memory_mb, sandbox.disk_mb)
    caps = options.max_extra_files, options.max_file_bytes
    problem = check_files(dir_fd, {input_name, output_name}, *caps)
    output = None
    if not timed_out and problem is None:
        output, problem = read_output(dir_fd, output_name, options.max_file_bytes)
    return TurnProcessResult(
        code, elapsed_ms, timed_out, output, problem, True, memory, tail, round(waited_ms, 3),
        excused,
    )  # fmt: skip


CPU_WALL_FACTOR = 4.0
"""An excused per-turn process is waited for this many times its limit (plus a second) at most."""


def turn_wait_ms(bot: BotProcess) -> float:
    """How long a per-turn process was kept waiting in the run queue so far (ms): each
    process of its chain down to the bot's own (the sandbox's first, which start it one
    after the other), the bot's own counted by its most delayed thread. Read before the
    process is reaped (``/proc/<pid>/schedstat``)."""
    total = 0
    pid = bot.pid
    for _ in range(8):
        tids = threads_of(pid)
        waits = [stat[1] for t in tids if (stat := schedstat(t, pid)) is not None]
        below = children(pid)
        name = ""
        with contextlib.suppress(OSError):
            name = Path(f"/proc/{pid}/comm").read_text().strip()
        if name not in WRAPPERS or len(below) != 1:
            total += max(waits, default=0)
            break
        total += waits[0] if waits else 0
        pid = below[0]
    return total / 1e6


def _counters(bot: BotProcess) -> WaitCounters | None:
    """A per-turn process's other waits' counters now (its cgroup's: None without one);
    its storage use is its top process's (each process counts the children it reaped)."""
    return bot.cgroup.counters([bot.pid]) if bot.cgroup is not None else None


def turn_cpu_ms(bot: BotProcess) -> float:
    """The CPU time all of a per-turn process's processes used so far (ms): its cgroup's
    count, else its live process tree's."""
    group = bot.cgroup
    cpu = group.cpu_ns() if group is not None else None
    if cpu is None:
        stats = (schedstat(t, p) for p, t in tree_threads(bot.pid))
        cpu = sum(stat[0] for stat in stats if stat is not None)
    return cpu / 1e6


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def _lstat(dir_fd: int, name: str) -> os.stat_result | None:
    try:
        return os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return None


def directory_problem(dir_fd: int) -> str | None:
    """The bot took permissions the referee needs from its own directory (e.g. ``chmod 000``):
    its doing, which loses it the game; the same whether the referee runs as root or not."""
    try:
        mode = stat.S_IMODE(os.fstat(dir_fd).st_mode)
    except OSError as exc:
        return f"cannot look at its directory: {exc.strerror}"
    if mode & 0o700 != 0o700:
        return f"it took permissions from its own directory (mode {mode:03o}, owner needs rwx)"
    return None


def prepare_turn(dir_fd: int, input_name: str, input_text: str, output_name: str) -> str | None:
    """Remove the last turn's files and write the input; the problem if the bot left junk.

    Only regular files are removed: a link, directory, FIFO... where a protocol file
    belongs is the bot's doing and loses the game. The input is created afresh
    (``O_EXCL | O_NOFOLLOW``): it can only ever be a new file in this directory.
    """
    if problem := directory_problem(dir_fd):
        return problem
    try:
        for name in (output_name, input_name):
            st = _lstat(dir_fd, name)
            if st is None:
                continue
            if not stat.S_ISREG(st.st_mode):
                return f"{name} in its directory is {_kind(st.st_mode)}, not a regular file"
            os.unlink(name, dir_fd=dir_fd)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(input_name, flags, 0o644, dir_fd=dir_fd)
        with os.fdopen(fd, "w") as f:
            f.write(input_text)
    except OSError as exc:
        return f"cannot write {input_name} into its directory: {exc.strerror}"
    return None


def read_output(dir_fd: int, name: str, cap: int) -> tuple[str | None, str | None]:
    """(text, problem) of the output file: None, None when there is none."""
    try:
        st = _lstat(dir_fd, name)
    except OSError as exc:
        return None, f"cannot read {name}: {exc.strerror}"
    if st is None:
        return None, None
    if not stat.S_ISREG(st.st_mode):
        return None, f"{name} is {_kind(st.st_mode)}, not a regular file"
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(name, flags, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return None, f"{name} is a symbolic link, not a regular file"
        return None, f"cannot read {name}: {exc.strerror}"
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            return None, f"{name} is not a regular file"
        data = f.read(cap + 1)
    if len(data) > cap:
        return None, f"{name} is over {cap} bytes"
    return data.decode("utf-8", "replace"), None


def check_files(dir_fd: int, protocol: set[str], max_extra: int, max_bytes: int) -> str | None:
    """The first limit the bot's directory breaks (extra entries, sizes), or None.

    Walks without following links, through at most :data:`MAX_WALK_ENTRIES` entries.
    """
    if problem := directory_problem(dir_fd):
        return problem
    try:
        entries = sorted(os.listdir(dir_fd))
    except OSError as exc:
        return f"cannot list its directory: {exc.strerror}"
    if len(entries) > MAX_WALK_ENTRIES:
        return f"over {MAX_WALK_ENTRIES} entries in the bot directory"
    extra = [name for name in entries if name not in protocol]
    if len(extra) > max_extra:
        names = ", ".join(shown_line(name) for name in extra)
        return f"{len(extra)} extra files in the bot directory (at most {max_extra}): {names}"
    budget = [MAX_WALK_ENTRIES]
    for name in [*extra, *(n for n in sorted(protocol) if n in entries)]:
        size = _size(dir_fd, name, budget)
        if size is None:
            return f"over {MAX_WALK_ENTRIES} files below the bot directory"
        if size > max_bytes:
            return f"{shown_line(name)} is {size} bytes (at most {max_bytes})"
    return None


def _size(dir_fd: int, name: str, budget: list[int]) -> int | None:
    """Bytes of regular files at ``name`` (a folder: all below it); None past the budget."""
    total = 0
    todo = [name]
    while todo:
        path = todo.pop()
        try:
            st = os.stat(path, dir_fd=dir_fd, follow_symlinks=False)
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode):
            total += st.st_size
        elif stat.S_ISDIR(st.st_mode):
            try:
                fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=dir_fd)
            except OSError:
                continue
            try:
                names = os.listdir(fd)
            finally:
                os.close(fd)
            budget[0] -= len(names)
            if budget[0] < 0:
                return None
            todo += [f"{path}/{child}" for child in names]
    return total
