"""Bot processes: spawning, sandboxing, deadline reads, stderr capture and staged shutdown.

This is the only module of arena that touches ``subprocess``. Two kinds of bots:

* :class:`LineBot` - one persistent process per game speaking a line protocol on
  stdin/stdout. Output is read without blocking (non-blocking pipe plus ``select``),
  every line is timestamped when it arrives, and what is buffered is capped.
* :func:`run_turn_process` - one process per turn (file protocols): started with the
  path of its input file, waited for with a wall-clock cap, its directory checked.

Every bot runs in its own working directory, in its own session, optionally inside
bubblewrap (``sandbox="bwrap"``) with a private PID namespace so that everything it
starts dies with it. Its stderr (bounded) goes to a file per bot per game.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

MAX_LINE_BYTES = 64 * 1024
"""A bot line longer than this (no newline yet) is an output flood."""
MAX_BUFFERED_BYTES = 1024 * 1024
"""Unread output above this is an output flood."""
STDERR_CAP_BYTES = 1024 * 1024
"""Bytes of stderr kept per bot per game; the rest is counted and dropped."""
FILE_SIZE_CAP_BYTES = 256 * 1024 * 1024
"""RLIMIT_FSIZE for persistent bots: no single file they write grows past this."""


BOT_HOMES = Path(tempfile.gettempdir()) / "arena-bots"
"""Parent of every bot's private working directory (hidden from sandboxed bots)."""


def new_bot_home(prefix: str) -> Path:
    """A fresh private folder under :data:`BOT_HOMES` for one game's bot directories."""
    BOT_HOMES.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=prefix, dir=BOT_HOMES))


@dataclass(frozen=True)
class Sandbox:
    """How bot processes are confined.

    ``kind`` "none": own working directory and session, file-size limit, process tree
    killed at the end. "bwrap": additionally inside bubblewrap with a private PID
    namespace (everything the bot starts dies with it), no network, a read-only view of
    the system in which only its own directory is writable, and where the other bots'
    directories and the ``hide`` folders (the tournament's output) look empty.
    ``memory_mb`` caps the address space; ``max_processes`` caps the processes a bot may
    run at once, where cgroups allow it (see :class:`ProcessCap`).
    """

    kind: str = "none"
    memory_mb: int | None = None
    hide: tuple[str, ...] = ()
    max_processes: int | None = 64

    def wrap(self, argv: Sequence[str], workdir: Path) -> list[str]:
        """The command line that runs ``argv`` inside this sandbox."""
        if self.kind != "bwrap":
            return list(argv)
        wd = str(workdir)
        hidden = [str(BOT_HOMES), *self.hide]
        return [
            "bwrap",
            "--die-with-parent",
            "--unshare-pid",
            "--unshare-net",
            "--ro-bind", "/", "/",
            "--dev", "/dev",
            "--proc", "/proc",
            *[arg for path in hidden for arg in ("--tmpfs", path)],
            "--bind", wd, wd,
            "--chdir", wd,
            "--",
            *argv,
        ]  # fmt: skip


def bwrap_works() -> bool:
    """Whether bubblewrap is installed and can create a sandbox on this machine."""
    if shutil.which("bwrap") is None:
        return False
    probe = Sandbox("bwrap").wrap(["true"], Path("/tmp"))
    try:
        return subprocess.run(probe, capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def resolve_sandbox(
    kind: str, memory_mb: int | None = None, hide: Sequence[Path] = (), max_processes: int = 64
) -> Sandbox:
    """Turn the configured kind (``auto``, ``bwrap``, ``none``) into a :class:`Sandbox`."""
    if kind == "auto":
        kind = "bwrap" if bwrap_works() else "none"
    hidden = tuple(str(Path(p).resolve()) for p in hide)
    return Sandbox(kind, memory_mb, hidden, max_processes)


class LogSink:
    """Keeps what a bot writes on its log pipe: the first ``cap`` bytes go to a file.

    The referee feeds it from its own ``select`` loop (no threads): the pipe is drained
    whenever the referee waits on the bot, so a bot that logs a lot only ever blocks
    while it is not on the clock. :meth:`take_recent` returns what arrived since its
    last call (for per-turn logs), bounded too.
    """

    RECENT_CAP = 8 * 1024

    def __init__(self, pipe: IO[bytes], path: Path, cap: int = STDERR_CAP_BYTES) -> None:
        self.pipe = pipe
        os.set_blocking(pipe.fileno(), False)
        self._file = path.open("ab")
        self._cap = cap
        self._written = 0
        self.dropped = 0
        self.eof = False
        self._recent = bytearray()

    def fileno(self) -> int:
        """The pipe's descriptor, for ``select``."""
        return self.pipe.fileno()

    def pump(self) -> None:
        """Read whatever the pipe holds now (never blocks)."""
        while not self.eof:
            try:
                chunk = os.read(self.pipe.fileno(), 65536)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if not chunk:
                self.eof = True
                return
            keep = chunk[: max(0, self._cap - self._written)]
            if keep:
                self._file.write(keep)
                self._written += len(keep)
            self.dropped += len(chunk) - len(keep)
            room = self.RECENT_CAP - len(self._recent)
            if room > 0:
                self._recent += chunk[:room]

    def last_line(self) -> str:
        """The last non-empty line written since :meth:`take_recent` (e.g. a crash's error)."""
        self.pump()
        lines = bytes(self._recent).decode("utf-8", "replace").strip().splitlines()
        return lines[-1].strip() if lines else ""

    def take_recent(self) -> str:
        """What the bot wrote since the last call (at most 8 KiB), decoded leniently."""
        self.pump()
        data = bytes(self._recent)
        self._recent.clear()
        return data.decode("utf-8", "replace")

    def close(self, timeout: float = 1.0) -> None:
        """Drain to the end of the pipe (bounded wait), note any truncation, close."""
        deadline = time.perf_counter() + timeout
        while not self.eof:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                break
            with contextlib.suppress(InterruptedError):
                select.select([self.fileno()], [], [], remaining)
            self.pump()
        if self.dropped:
            note = f"\n[arena: stderr truncated, {self.dropped} bytes dropped]\n"
            self._file.write(note.encode())
        self._file.close()
        with contextlib.suppress(OSError):
            self.pipe.close()


def _children(pid: int) -> list[int]:
    """Direct children of ``pid`` from /proc/<pid>/task/*/children (empty if gone)."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                found += [int(c) for c in f.read().split()]
        except OSError:
            continue
    return found


def _descendants(root: int) -> list[int]:
    """Every live process below ``root``, walking the kernel's children lists."""
    found: list[int] = []
    todo = [root]
    while todo:
        for child in _children(todo.pop()):
            found.append(child)
            todo.append(child)
    return found


class ProcessCap:
    """A pids cgroup of one bot: caps how many processes it may run, kills them all at the end.

    Used where the machine lets arena create cgroups (cgroup v1 ``pids`` hierarchy, or v2
    with the pids controller); elsewhere :meth:`create` returns None and the bot runs with
    the other safeguards only. A fork bomb then meets ``pids.max`` instead of the machine's
    limit, and processes that left the bot's session or were orphaned are still found.
    """

    ROOTS = (Path("/sys/fs/cgroup/pids"), Path("/sys/fs/cgroup"))
    _root: Path | bool | None = False  # False: not probed yet
    _count = itertools.count()

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def root(cls) -> Path | None:
        """The cgroup folder arena can create pids groups in, or None (probed once)."""
        if cls._root is False:
            cls._root = None
            for root in cls.ROOTS:
                probe = root / f"arena-probe-{os.getpid()}"
                try:
                    probe.mkdir()
                except OSError:
                    continue
                usable = (probe / "pids.max").exists()
                with contextlib.suppress(OSError):
                    probe.rmdir()
                if usable:
                    cls._root = root
                    break
        return cls._root if isinstance(cls._root, Path) else None

    @classmethod
    def create(cls, max_processes: int | None) -> ProcessCap | None:
        """A new group allowing ``max_processes`` processes, or None where unsupported."""
        root = cls.root()
        if root is None or not max_processes:
            return None
        path = root / f"arena-{os.getpid()}-{next(cls._count)}"
        try:
            path.mkdir()
            (path / "pids.max").write_text(str(max_processes))
        except OSError:
            return None
        return cls(path)

    def add(self, pid: int) -> None:
        """Move a just-started process into the group (its later children follow it)."""
        with contextlib.suppress(OSError):
            (self.path / "cgroup.procs").write_text(str(pid))

    def kill_all(self) -> None:
        """SIGKILL every process in the group until it is empty, then remove the group."""
        for _ in range(100):
            try:
                pids = [int(p) for p in (self.path / "cgroup.procs").read_text().split()]
            except OSError:
                break
            if not pids:
                break
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.001)
        for _ in range(500):
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(0.001)  # the last processes are still leaving the group


def kill_tree(proc: subprocess.Popen[bytes], cap: ProcessCap | None = None) -> None:
    """Kill a bot and everything it started, then reap it.

    Staged: collect the descendants first (killing the parent would re-parent them), then
    SIGKILL the session's process group (catches well-behaved children), then each
    descendant found by PID (catches those that left the group with ``setsid``).
    """
    pids = _descendants(proc.pid) if proc.poll() is None else []
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    for pid in [proc.pid, *pids]:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
    proc.wait()  # SIGKILL cannot be ignored: a blocking wait, no polling delay
    if cap is not None:
        cap.kill_all()  # orphans and escapees that the walk above could not see


def _spawn(
    argv: Sequence[str],
    workdir: Path,
    sandbox: Sandbox,
    stdin: int | None,
    stdout: int | None,
    stderr: int | None,
    file_cap: int,
) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        sandbox.wrap(argv, workdir),
        cwd=workdir,
        stdin=stdin,
        stdout=stdout,
        stderr=stderr,
        start_new_session=True,  # own process group: one killpg ends the tree
        bufsize=0,
        close_fds=True,
        env=_bot_env(workdir),
    )
    # Limits are applied right after the start, from here (no preexec_fn: unsafe with
    # threads; no wrapper shell: it would delay every bot).
    import resource

    with contextlib.suppress(OSError, ValueError):
        resource.prlimit(proc.pid, resource.RLIMIT_FSIZE, (file_cap, file_cap))
        resource.prlimit(proc.pid, resource.RLIMIT_CORE, (0, 0))
        if sandbox.memory_mb:
            limit = sandbox.memory_mb * 1024 * 1024
            resource.prlimit(proc.pid, resource.RLIMIT_AS, (limit, limit))
    return proc


def _bot_env(workdir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_")}
    env["PYTHONUNBUFFERED"] = "1"
    env["TMPDIR"] = str(workdir)  # the one writable place inside the sandbox
    return env


class BotClosed(Exception):
    """The bot's stdout closed (it exited or crashed); ``exit_code`` when known."""

    def __init__(self, exit_code: int | None) -> None:
        super().__init__(f"exit code {exit_code}")
        self.exit_code = exit_code


class InputStalled(Exception):
    """The bot stopped reading: its input could not be written before the deadline."""


class OutputFlood(Exception):
    """The bot wrote more than the referee buffers; ``raw`` is its first bytes."""

    def __init__(self, message: str, raw: str) -> None:
        super().__init__(message)
        self.raw = raw


@dataclass
class LineBot:
    """A persistent bot process speaking a line protocol.

    ``lines`` holds complete lines with the ``perf_counter`` time they arrived; the
    referee pops them and compares arrival times with its deadlines, so a line that
    arrived in time counts as in time however late the referee looks at it.
    """

    argv: Sequence[str]
    workdir: Path
    stderr_path: Path
    sandbox: Sandbox = field(default_factory=Sandbox)
    proc: subprocess.Popen[bytes] | None = None
    lines: deque[tuple[str, float]] = field(default_factory=deque)
    _partial: bytearray = field(default_factory=bytearray)
    _buffered: int = 0
    _eof: bool = False
    _log: LogSink | None = None
    _cap: ProcessCap | None = None
    _stopped: bool = False

    def start(self) -> None:
        """Start the process in its working directory (stdout non-blocking).

        Call :meth:`confine` once every bot of the game is started.
        """
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.proc = _spawn(
            self.argv,
            self.workdir,
            self.sandbox,
            subprocess.PIPE,
            subprocess.PIPE,
            subprocess.PIPE,
            FILE_SIZE_CAP_BYTES,
        )
        assert self.proc.stdout is not None and self.proc.stderr is not None
        os.set_blocking(self.proc.stdout.fileno(), False)
        assert self.proc.stdin is not None
        os.set_blocking(self.proc.stdin.fileno(), False)
        self._log = LogSink(self.proc.stderr, self.stderr_path)

    def confine(self) -> None:
        """Put the started bot in its own pids group, where the machine allows one.

        Separate from :meth:`start` because joining a cgroup can take milliseconds: done
        after every bot of a game is started, it overlaps their start-up instead of
        delaying it. A bot's children follow it into the group.
        """
        assert self.proc is not None
        self._cap = ProcessCap.create(self.sandbox.max_processes)
        if self._cap is not None:
            self._cap.add(self.proc.pid)

    def fileno(self) -> int:
        """The stdout descriptor to wait on."""
        assert self.proc is not None and self.proc.stdout is not None
        return self.proc.stdout.fileno()

    def log_fileno(self) -> int | None:
        """The stderr descriptor to drain while waiting (None once it is closed)."""
        return self._log.fileno() if self._log is not None and not self._log.eof else None

    def pump_log(self) -> None:
        """Drain stderr without blocking."""
        if self._log is not None:
            self._log.pump()

    def send(self, text: str, deadline: float) -> float:
        """Write ``text`` completely; return the ``perf_counter`` time it was all written.

        The pipe is non-blocking, so a bot that stops reading cannot hang the referee:
        raises :class:`InputStalled` if the text cannot be written by ``deadline``, and
        :class:`BotClosed` when the bot no longer reads its input at all.
        """
        assert self.proc is not None and self.proc.stdin is not None
        fd = self.proc.stdin.fileno()
        view = memoryview(text.encode())
        while view:
            try:
                view = view[os.write(fd, view) :]
            except BlockingIOError:
                remaining = deadline - time.perf_counter()
                if remaining <= 0:
                    raise InputStalled() from None
                select.select([], [fd], [], remaining)
            except OSError:
                raise BotClosed(self.proc.poll()) from None
        return time.perf_counter()

    def pump(self) -> None:
        """Read whatever stdout has now, split it into timestamped lines.

        Raises :class:`OutputFlood` past the buffer caps. At end of file, sets ``closed``.
        """
        fd = self.fileno()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            now = time.perf_counter()
            if not chunk:
                self._eof = True
                return
            self._partial += chunk
            if b"\n" in chunk:
                *complete, rest = self._partial.split(b"\n")
                for raw in complete:
                    line = raw.decode("utf-8", "replace").rstrip("\r")
                    self.lines.append((line, now))
                    self._buffered += len(raw)
                self._partial = bytearray(rest)
            if len(self._partial) > MAX_LINE_BYTES:
                raw_text = bytes(self._partial[:200]).decode("utf-8", "replace")
                raise OutputFlood(
                    f"output flood: over {MAX_LINE_BYTES} bytes in one line", raw_text
                )
            if self._buffered + len(self._partial) > MAX_BUFFERED_BYTES:
                first = self.lines[0][0][:200] if self.lines else ""
                raise OutputFlood(f"output flood: over {MAX_BUFFERED_BYTES} bytes unread", first)

    def pop_line(self) -> tuple[str, float]:
        """The oldest complete line and its arrival time (call only when ``lines``)."""
        line, at = self.lines.popleft()
        self._buffered -= len(line)
        return line, at

    @property
    def closed(self) -> bool:
        """The bot closed its stdout and every complete line has been taken."""
        return self._eof and not self.lines

    def exit_code(self, wait: float = 0.2) -> int | None:
        """The exit code if the process ended (waiting at most ``wait`` seconds)."""
        if self.proc is None:
            return None
        with contextlib.suppress(subprocess.TimeoutExpired):
            return self.proc.wait(timeout=wait)
        return None

    def last_stderr_line(self) -> str:
        """The bot's latest stderr line, kept for the next :meth:`take_stderr`."""
        return self._log.last_line() if self._log else ""

    def take_stderr(self) -> str:
        """Stderr written since the last call (bounded)."""
        return self._log.take_recent() if self._log else ""

    def stop(self) -> None:
        """End the bot: close its stdin, kill it and everything it started, flush stderr.

        Safe to call again (a forfeiting bot is stopped at once, then with the others at
        the end of the game): later calls do nothing.
        """
        if self.proc is None or self._stopped:
            return
        self._stopped = True
        if self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
        kill_tree(self.proc, self._cap)
        if self.proc.stdout is not None:
            with contextlib.suppress(OSError):
                self.proc.stdout.close()
        if self._log is not None:
            self._log.close()


def wait_readable(bots: Sequence[LineBot], timeout: float) -> None:
    """Block until one of ``bots`` has output, or ``timeout`` seconds pass.

    Every bot's stderr is drained meanwhile, so none blocks on a full log pipe.
    """
    logs = {fd: bot for bot in bots if (fd := bot.log_fileno()) is not None}
    outs = [b.fileno() for b in bots]
    deadline = time.perf_counter() + timeout
    while True:
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            return
        try:
            ready, _, _ = select.select([*outs, *logs], [], [], remaining)
        except InterruptedError:
            continue
        for fd in ready:
            if fd in logs:
                logs[fd].pump_log()
                if logs[fd].log_fileno() is None:
                    del logs[fd]
        if any(fd in outs for fd in ready) or not ready:
            return


@dataclass(frozen=True)
class TurnProcessResult:
    """What one per-turn process did: exit code (None on timeout), time, files, output."""

    exit_code: int | None
    elapsed_ms: float
    timed_out: bool
    output: str | None
    file_problem: str | None
    last_log_line: str = ""


def run_turn_process(
    argv: Sequence[str],
    workdir: Path,
    input_name: str,
    input_text: str,
    output_name: str,
    timeout_s: float,
    log_path: Path,
    max_extra_files: int,
    max_file_bytes: int,
    sandbox: Sandbox | None = None,
) -> TurnProcessResult:
    """Run one turn of a file-protocol bot and collect what it left.

    Writes ``input_name`` into ``workdir`` (removing the previous output file), starts
    ``argv + [<workdir>/<input_name>]`` with ``workdir`` as cwd, waits at most
    ``timeout_s`` of wall clock (start-up included), kills the process tree, then reads
    ``output_name`` and checks the directory: at most ``max_extra_files`` other entries,
    none larger than ``max_file_bytes``. stdout and stderr go to ``log_path`` (bounded).
    """
    sandbox = sandbox or Sandbox()
    workdir.mkdir(parents=True, exist_ok=True)
    input_path = workdir / input_name
    output_path = workdir / output_name
    output_path.unlink(missing_ok=True)
    input_path.write_text(input_text)
    start = time.perf_counter()
    proc = _spawn(
        [*argv, str(input_path)],
        workdir,
        sandbox,
        subprocess.DEVNULL,
        subprocess.PIPE,
        subprocess.STDOUT,
        max_file_bytes + 1,
    )
    cap = ProcessCap.create(sandbox.max_processes)
    if cap is not None:
        cap.add(proc.pid)
    assert proc.stdout is not None
    log = LogSink(proc.stdout, log_path)
    deadline = start + timeout_s
    # The output pipe closes when the process exits: wait on it, draining the log. A
    # child that inherited the pipe may keep it open, so also look at the process itself.
    while not log.eof and (remaining := deadline - time.perf_counter()) > 0:
        with contextlib.suppress(InterruptedError):
            select.select([log.fileno()], [], [], min(remaining, 0.05))
        log.pump()
        if proc.poll() is not None:
            break
    code: int | None = None
    with contextlib.suppress(subprocess.TimeoutExpired):
        code = proc.wait(timeout=max(0.0, deadline - time.perf_counter()))
    timed_out = code is None
    elapsed_ms = (time.perf_counter() - start) * 1000.0
    kill_tree(proc, cap)
    last_line = log.last_line()
    log.close()
    problem = _check_files(workdir, {input_name, output_name}, max_extra_files, max_file_bytes)
    output = None
    if not timed_out and output_path.is_file():
        try:
            output = output_path.read_bytes()[:max_file_bytes].decode("utf-8", "replace")
        except OSError:
            output = None
    return TurnProcessResult(code, elapsed_ms, timed_out, output, problem, last_line)


def _check_files(workdir: Path, protocol: set[str], max_extra: int, max_bytes: int) -> str | None:
    extra = sorted(p for p in workdir.iterdir() if p.name not in protocol)
    if len(extra) > max_extra:
        names = ", ".join(p.name for p in extra)
        return f"{len(extra)} extra files in the bot directory (at most {max_extra}): {names}"
    for path in [*extra, *(workdir / name for name in protocol)]:
        size = _size(path)
        if size > max_bytes:
            return f"{path.name} is {size} bytes (at most {max_bytes})"
    return None


def _size(path: Path) -> int:
    if path.is_symlink() or not path.exists():
        return 0
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())
