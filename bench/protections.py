"""What each protection costs, per bot start and per turn, measured side by side in one run.

    python3 bench/protections.py [--starts 100] [--turns 2000]

Per bot start: start a trivial bot (``/bin/true``), wait for it, end it. First a bare
``Popen``, then each layer arena adds, in the order the launcher applies them (without
bubblewrap: a ``preexec_fn``, so a ``fork``), then the ``/bin/sh`` launcher bubblewrap bots
start through (``vfork``), then arena's own ``spawn`` in each sandbox kind. The rows
interleave (one start of each, round after round, in a new random order each round) so
machine noise hits them alike. A Python bot's own start-up is printed for scale.

Per turn: a persistent bot pays nothing per turn for these protections (its limits,
cgroup and sandbox are set once); see ``bench/overhead.py`` for whole games. A per-turn
bot (file protocols, chess5) pays a bot start every turn plus the file handling: protocol
files through a directory descriptor without following links, against plain path calls,
and the sweep for orphans after the turn.

Rows marked "after idle" run after a pause with no bot start, as a game's first bot does:
joining a cgroup then waits for the kernel (an RCU grace period: the writer side of the
cgroup threadgroup lock goes back to its slow path once idle), a wait that back-to-back
starts hide. "Start to first answer" is what a game waits for before its first turn.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from arena.botproc import Sandbox, bwrap_works, cgroups
from arena.botproc.launcher import Launch, PrivateDirs, shell_launch
from arena.botproc.sandboxes.none import private_dirs_supported
from arena.botproc.spawn import spawn, sweep_orphans
from arena.botproc.turns import check_files, prepare_turn, read_output

TRUE = shutil.which("true") or "/bin/true"
CAT = shutil.which("cat") or "/bin/cat"
IDLE_S = 0.1
"""The pause before each "after idle" row: longer than the kernel keeps a cgroup join fast."""


def popen(
    workdir: Path, launch: Launch | None = None, session: bool = False, prefix: tuple[str, ...] = ()
) -> None:
    """Start /bin/true the way arena does, with the given layers (``prefix``: the PID
    namespace's ``unshare``), wait for it."""
    proc = subprocess.Popen(
        [*prefix, TRUE], cwd=workdir, start_new_session=session, close_fds=True, preexec_fn=launch
    )
    proc.wait()


def with_cgroup(workdir: Path, launch: Launch, prefix: tuple[str, ...] = ()) -> None:
    """The same with a fresh pids (and memory) cgroup, created, joined and removed."""
    group = cgroups.BotCgroup.create(64, 512)
    assert group is not None
    try:
        layered = replace(launch, cgroup_join=group.join_files)
        popen(workdir, layered, session=True, prefix=prefix)
    finally:
        group.remove()


def with_shell_launcher(workdir: Path, limits: tuple[tuple[int, int], ...]) -> None:
    """What bubblewrap bots start through: /bin/sh joins the cgroups and sets the rlimits,
    then execs (no Python between fork and exec: vfork)."""
    group = cgroups.BotCgroup.create(64, 512)
    join = group.join_files if group is not None else ()
    try:
        subprocess.Popen(
            shell_launch(join, limits, [TRUE]), cwd=workdir, start_new_session=True,
            close_fds=True,
        ).wait()  # fmt: skip
    finally:
        if group is not None:
            group.remove()


def arena_spawn(workdir: Path, sandbox: Sandbox) -> None:
    """arena's own spawn and kill, every protection of ``sandbox``."""
    bot = spawn([TRUE], workdir, sandbox, None, None, None, 1 << 30)
    bot.proc.wait()
    bot.kill()


def first_answer(workdir: Path, sandbox: Sandbox) -> None:
    """What a game waits for: arena's spawn of an echo bot (``cat``) until its first answer
    (a line sent and read back), then the kill."""
    bot = spawn([CAT], workdir, sandbox, subprocess.PIPE, subprocess.PIPE, None, 1 << 30)
    stdin, stdout = bot.proc.stdin, bot.proc.stdout
    assert stdin is not None and stdout is not None
    stdin.write(b"ping\n")
    stdout.readline()
    bot.kill()
    stdin.close()
    stdout.close()


def python_start(workdir: Path) -> None:
    """For scale: a bare Python interpreter start."""
    subprocess.run([sys.executable, "-c", "pass"], cwd=workdir, check=True)


AFTER_IDLE = "after idle:"
"""Rows whose name starts so run after a pause (see the module docstring)."""


def measure(rows: dict[str, Callable[[], object]], rounds: int) -> dict[str, list[float]]:
    """Run every row once per round, in a new random order each round; ms per run (an
    "after idle" row after a pause of :data:`IDLE_S`, not timed)."""
    times: dict[str, list[float]] = {name: [] for name in rows}
    names = list(rows)
    order = random.Random(1)
    for _ in range(rounds):
        order.shuffle(names)
        for name in names:
            if name.startswith(AFTER_IDLE):
                time.sleep(IDLE_S)
            t0 = time.perf_counter()
            rows[name]()
            times[name].append((time.perf_counter() - t0) * 1000.0)
    return times


def report(title: str, times: dict[str, list[float]], unit: str) -> None:
    """Fastest, first-quartile and median time of each row, and what the layer adds.

    On a shared, noisy machine the fast runs show the cost itself best: "added" is the
    difference of first quartiles with the row above.
    """
    print(f"\n{title}")
    print(f"{'':52} {'min':>9} {'p25':>9} {'median':>9} {'added':>9}")
    previous: float | None = None
    for name, values in times.items():
        ordered = sorted(values)
        low, p25 = ordered[0], ordered[len(ordered) // 4]
        layered = not name.startswith(("arena", "for scale", "launcher", AFTER_IDLE))
        added = f"{p25 - previous:+9.3f}" if layered and previous is not None else ""
        median = statistics.median(values)
        print(f"{name:52} {low:9.3f} {p25:9.3f} {median:9.3f} {added:>9}  {unit}")
        if layered:
            previous = p25


def start_rows(workdir: Path) -> dict[str, Callable[[], object]]:
    """The per-start layers available on this machine."""
    limits = ((resource.RLIMIT_FSIZE, 1 << 30), (resource.RLIMIT_CORE, 0))
    base = Launch((), limits, None, os.getpid())
    rows: dict[str, Callable[[], object]] = {
        "Popen (vfork), no protection": lambda: popen(workdir),
        "+ preexec_fn (fork instead of vfork), empty": lambda: popen(workdir, Launch()),
        "+ own session, rlimits, death signal": lambda: popen(workdir, base, session=True),
    }
    if cgroups.parents() is not None:
        rows["+ pids and memory cgroups (create, join, remove)"] = lambda: with_cgroup(
            workdir, base
        )
    if (mode := private_dirs_supported()) is not None:
        private = PrivateDirs(str(workdir), 64 << 20, mode.userns)
        full = Launch((), limits, private, os.getpid())
        pid_ns = replace(full, new_pid_ns=True)
        if cgroups.parents() is not None:
            rows["+ private /tmp and /dev/shm (mount namespace)"] = lambda: with_cgroup(
                workdir, full
            )
            if mode.pid_ns:
                rows["+ PID namespace (unshare --fork before the bot)"] = lambda: with_cgroup(
                    workdir, pid_ns, mode.pid_ns
                )
        else:
            rows["+ private /tmp and /dev/shm (mount namespace)"] = lambda: popen(
                workdir, full, session=True
            )
            if mode.pid_ns:
                rows["+ PID namespace (unshare --fork before the bot)"] = lambda: popen(
                    workdir, pid_ns, session=True, prefix=mode.pid_ns
                )
    rows["launcher of bwrap bots: /bin/sh, cgroups, rlimits"] = lambda: with_shell_launcher(
        workdir, limits
    )
    rows["arena spawn + kill, sandbox none"] = lambda: arena_spawn(workdir, Sandbox("none"))
    if bwrap_works():
        rows["arena spawn + kill, sandbox bwrap"] = lambda: arena_spawn(workdir, Sandbox("bwrap"))
    if cgroups.parents() is not None:
        rows[f"{AFTER_IDLE} the cgroups row"] = lambda: with_cgroup(workdir, base)
    rows[f"{AFTER_IDLE} arena start to first answer, none"] = lambda: first_answer(
        workdir, Sandbox("none")
    )
    if bwrap_works():
        rows[f"{AFTER_IDLE} arena start to first answer, bwrap"] = lambda: first_answer(
            workdir, Sandbox("bwrap")
        )
    rows["for scale: a Python interpreter start (bare)"] = lambda: python_start(workdir)
    return rows


def turn_rows(workdir: Path) -> dict[str, Callable[[], object]]:
    """Per-turn file handling: the old path calls against the descriptor-relative ones."""
    fd = os.open(workdir, os.O_RDONLY | os.O_DIRECTORY)
    state, move = workdir / "state.json", workdir / "move.json"
    text = '{"board": [[null, null, null, null, null]]}' * 20

    def plain() -> None:
        move.unlink(missing_ok=True)
        state.write_text(text)
        move.write_text("{}")
        _ = sorted(p for p in workdir.iterdir() if p.name not in ("state.json", "move.json"))
        if move.is_file():
            move.read_bytes()[:1000]

    def safe() -> None:
        prepare_turn(fd, "state.json", text, "move.json")
        move.write_text("{}")
        check_files(fd, {"state.json", "move.json"}, 10, 1000)
        read_output(fd, "move.json", 1000)

    return {
        "plain path calls (write, list, read)": plain,
        "no-follow, descriptor-relative, checked": safe,
        "+ orphan sweep after the turn": lambda: (safe(), sweep_orphans()),
    }


def main() -> int:
    """Run both measurements and print them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=100, help="starts per row")
    parser.add_argument("--turns", type=int, default=2000, help="turns per row")
    args = parser.parse_args()
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    work = Path(tempfile.mkdtemp(prefix="arena-bench-"))
    try:
        os.chmod(work, 0o755)
        found = cgroups.parents()
        print(f"machine: {os.cpu_count()} cores, uid {os.getuid()}, "
              f"{found.describe() if found else 'no cgroups'}, "
              f"bubblewrap {'works' if bwrap_works() else 'unavailable'}")  # fmt: skip
        rows = start_rows(work)
        for run in rows.values():  # warm-up: probes, page cache
            run()
        report(f"per bot start ({args.starts} each)", measure(rows, args.starts), "ms")
        turn_dir = work / "turns"
        turn_dir.mkdir()
        times = measure(turn_rows(turn_dir), args.turns)
        micros = {name: [ms * 1000 for ms in values] for name, values in times.items()}
        report(f"per turn of a per-turn bot ({args.turns} each)", micros, "µs")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
