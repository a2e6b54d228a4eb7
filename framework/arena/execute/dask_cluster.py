"""A ``distributed.LocalCluster`` in a process of its own session, for ``executor: dask``
without an address.

Why not in ``arena run``'s own process: Ctrl-C in a terminal reaches every process of its
group, and the cluster's processes (the host and the game processes of its workers) would
die of it with a traceback. In their own session they never see it: ``arena run`` alone
handles Ctrl-C, stops handing out games and closes the cluster, exactly as with the local
executor. The host process prints the scheduler's address, then waits for its standard
input to close (``arena run`` closing it, or dying) and closes the cluster.

Its workers live in the host process, beside the scheduler (one event loop, no nanny
processes): they only relay games to their game processes (see
:mod:`arena.execute.dask_executor`), and do as little else as Dask allows
(:data:`QUIET_CONFIG`): every cycle they take is one the games do not get.

    python -m arena.execute.dask_cluster WORKERS
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import FrameType
from typing import IO, Any

from arena.errors import ArenaError

START_TIMEOUT_S = 180.0
"""Seconds the cluster may take to start (a loaded machine is slow to start processes)."""
CLOSE_TIMEOUT_S = 20.0
"""Seconds the cluster gets to close before every process of it is killed."""
ALLOWED_FAILURES = 3
"""Workers a game may take down before it counts as failed."""
QUIET_CONFIG = {
    "distributed.scheduler.allowed-failures": ALLOWED_FAILURES,
    # No sampling of every thread's stack 100 times a second, no event-loop health
    # checks 50 times a second: cycles the games' processes would not get.
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.gil.enabled": False,
    "distributed.admin.system-monitor.interval": "5s",
}
"""The local cluster's settings: what it does beside relaying games, kept to a minimum."""


class LocalClusterProcess:
    """The host process of a LocalCluster of ``workers`` one-thread workers."""

    def __init__(self, workers: int) -> None:
        self.log_dir = Path(tempfile.mkdtemp(prefix="arena-dask-"))
        self.log: IO[bytes] = open(self.log_dir / "cluster.log", "wb")  # noqa: SIM115
        self.proc = subprocess.Popen(
            # Its scratch space (dask-scratch-space) in the log folder, removed on close.
            [sys.executable, "-m", "arena.execute.dask_cluster", str(workers), str(self.log_dir)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            start_new_session=True,  # out of the terminal's reach: no Ctrl-C, no SIGHUP
        )
        self.address = ""

    def wait_address(self) -> str:
        """The scheduler's address once the cluster is up (Ctrl-C here stops it at once)."""
        assert self.proc.stdout is not None
        deadline = time.monotonic() + START_TIMEOUT_S
        line = b""
        while not line.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0 or self.proc.poll() is not None:
                break
            ready, _, _ = select.select([self.proc.stdout], [], [], min(left, 0.5))
            if ready:
                chunk = os.read(self.proc.stdout.fileno(), 4096)
                if not chunk:
                    break
                line += chunk
        if not line.endswith(b"\n"):
            self.close()
            raise ArenaError(f"could not start a local Dask cluster: {self._last_log_line()}")
        self.address = line.decode().strip()
        return self.address

    def _last_log_line(self) -> str:
        try:
            lines = (self.log_dir / "cluster.log").read_text(errors="replace").splitlines()
        except OSError:
            lines = []
        return next((line for line in reversed(lines) if line.strip()), "no reason given")

    def close(self) -> None:
        """Ask the host to close the cluster; kill every process of it if that takes long."""
        with contextlib.suppress(OSError):
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(CLOSE_TIMEOUT_S)
        # The host's session holds the nannies and workers: none may outlive the run.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        with contextlib.suppress(OSError):
            if self.proc.stdout is not None:
                self.proc.stdout.close()
        self.log.close()
        shutil.rmtree(self.log_dir, ignore_errors=True)


def _stop(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(0)


def main(argv: list[str] | None = None) -> int:
    """Host a LocalCluster until standard input closes (see the module's docstring)."""
    import dask
    import distributed

    args = argv or sys.argv[1:]
    workers = int(args[0])
    signal.signal(signal.SIGTERM, _stop)
    # The workers' scratch space (dask-scratch-space): in the folder arena removes once
    # the cluster is closed, not in the shared temporary folder where it would stay.
    dask.config.set({**QUIET_CONFIG, "temporary-directory": args[1] if len(args) > 1 else None})
    cluster: Any = distributed.LocalCluster(
        n_workers=workers,
        threads_per_worker=1,  # one game slot each (see arena.execute.dask_executor)
        # Workers in this process, beside the scheduler: every game is played by a game
        # process of its own anyway, so a worker only relays it; one event loop, and no
        # nanny and worker processes taking cycles from the games.
        processes=False,
        protocol="tcp://",  # (not in-process: arena run connects from its own)
        memory_limit=0,  # no memory monitor: the games' memory is their processes'
        host="127.0.0.1",
        dashboard_address=None,
        silence_logs=logging.ERROR,
    )
    try:
        print(cluster.scheduler_address, flush=True)
        sys.stdin.buffer.read()  # until arena run closes it (or exits)
    finally:
        for name in ("distributed", "asyncio", "tornado"):
            logging.getLogger(name).setLevel(logging.CRITICAL)
        with contextlib.suppress(Exception):
            cluster.close(timeout=CLOSE_TIMEOUT_S / 2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
