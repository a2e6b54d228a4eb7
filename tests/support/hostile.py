"""Helpers of the hostile-bot suite (``tests/hostile/``).

Every hostile bot is a real process and bounded on its own (a fork bomb stops after a few
thousand forks, a memory hog at a fixed size, sleepers after minutes), so a regression
fails a test instead of taking the machine down. Processes are found by a marker in
their command line, unique per test.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import pytest

from arena.botproc import Sandbox, bwrap_works
from support import REPO

try:  # the suite also runs against older arena versions, to see it fail there
    from arena.botproc import cgroups

    _parents = cgroups.parents()
    PIDS_CGROUP = _parents is not None and _parents.pids is not None
    MEMORY_CGROUP = _parents is not None and _parents.memory is not None
except ImportError:  # pragma: no cover - older versions
    PIDS_CGROUP = MEMORY_CGROUP = os.geteuid() == 0

MODES = [
    pytest.param("none", id="none"),
    pytest.param(
        "bwrap",
        id="bwrap",
        marks=pytest.mark.skipif(not bwrap_works(), reason="bubblewrap does not work here"),
    ),
]
"""Both sandbox kinds: every hostile test runs in each."""

needs_pids_cgroup = pytest.mark.skipif(not PIDS_CGROUP, reason="no pids cgroup here")
needs_memory_cgroup = pytest.mark.skipif(not MEMORY_CGROUP, reason="no memory cgroup here")


def pids_line(cgroup_file: str) -> str:
    """The line of a ``/proc/.../cgroup`` file naming the pids group (v1) or the group (v2)."""
    return next(x for x in cgroup_file.splitlines() if ":pids:" in x or x.startswith("0::"))


def marker() -> str:
    """A unique string to find a test's processes by."""
    return f"arena-hostile-{uuid.uuid4().hex[:12]}"


def processes_with(text: str) -> list[int]:
    """Live (not zombie) processes whose command line contains ``text``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if text.encode() in cmdline and state not in ("Z", "X"):
            found.append(int(entry))
    return found


def survivors(text: str, wait: float = 3.0) -> list[int]:
    """Processes with ``text`` still alive after ``wait`` seconds (they get that long to die)."""
    deadline = time.monotonic() + wait
    while (found := processes_with(text)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return found


def kill_all(text: str) -> None:
    """Clean up after a failed test: SIGKILL whatever still carries ``text``."""
    for pid in processes_with(text):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def write_bot(folder: Path, name: str, source: str) -> Path:
    """Write a bot program (Python source, dedented) and return its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(textwrap.dedent(source))
    return path


STC_TURNS = """
import sys
turn = 0
while True:
    lines = [sys.stdin.readline() for _ in range(34)]
    if not lines[0]:
        break
{per_turn}
    print(f"{{turn % 6}} 1", flush=True)
    turn += 1
"""


def stc_bot(prelude: str = "", per_turn: str = "") -> str:
    """Source of a Smash The Code bot: ``prelude`` at start, ``per_turn`` before each answer."""
    body = textwrap.indent(textwrap.dedent(per_turn), "    ") if per_turn else "    pass"
    return textwrap.dedent(prelude) + STC_TURNS.format(per_turn=body)


def tournament(
    tmp_path: Path,
    bots: dict[str, str],
    *,
    game: str = "stc",
    sandbox: str = "none",
    games: int = 2,
    concurrency: int = 1,
    settings: str = "max_turns: 6",
    extra: str = "",
) -> Path:
    """Write a tournament file; ``bots`` maps names to Python sources (or ``cmd:`` lines)."""
    folder = tmp_path / "bots"
    lines = []
    for name, source in bots.items():
        if source.startswith("cmd:"):
            cmd = source[4:].strip()
        else:
            cmd = f"{sys.executable} {write_bot(folder, f'{name}.py', source)}"
        lines.append(f"  - name: {name}\n    cmd: {cmd}")
    path = tmp_path / "t.yaml"
    path.write_text(
        f"name: hostile\ngame: {game}\ngames: {games}\nseed: 5\n"
        f"concurrency: {concurrency}\nsandbox: {sandbox}\n{extra}"
        f"settings:\n  {settings}\nbots:\n" + "\n".join(lines) + f"\noutput: {tmp_path / 'out'}\n"
    )
    return path


def arena(
    *args: str, env: dict[str, str] | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """Run the real ``arena`` command; a hung arena is killed with its whole session."""
    proc = start_arena(*args, env=env)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        stop_session(proc)
        out, err = proc.communicate()
        err += f"\n[test: arena still running after {timeout} s, killed]"
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def start_arena(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """Start ``arena`` in its own session (so a test can signal or clean it up)."""
    return subprocess.Popen(
        [sys.executable, "-m", "arena", *args],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )


def stop_session(proc: subprocess.Popen[str]) -> None:
    """SIGKILL a started arena and its whole session (workers included)."""
    with contextlib.suppress(OSError):
        os.killpg(proc.pid, signal.SIGKILL)


def game_dirs(out: Path) -> set[str]:
    """Games started so far in a tournament's output (their folders)."""
    games = out / "games"
    return {p.name for p in games.iterdir()} if games.is_dir() else set()


def wait_for(condition, timeout: float = 60.0, step: float = 0.05) -> bool:  # type: ignore[no-untyped-def]
    """Poll ``condition()`` until true or ``timeout``; whether it became true."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return False


def mode_sandbox(mode: str, **kw: object) -> Sandbox:
    """A :class:`Sandbox` of ``mode`` with the given caps."""
    return Sandbox(mode, **kw)  # type: ignore[arg-type]
