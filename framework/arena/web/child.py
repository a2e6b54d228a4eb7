"""The run ``arena serve TOURNAMENT.yaml`` starts: ``arena run FILE`` as a child process,
its output in ``OUTPUT/serve-run.log``, stopped as Ctrl-C stops it (SIGINT: running games
end and are stored, nothing is lost) and started again to resume."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
import threading
from pathlib import Path

LOG_NAME = "serve-run.log"
STOP_WAIT_S = 60.0
"""How long :meth:`RunChild.close` waits for the run to end after SIGINT, then SIGTERM."""


class RunChild:
    """One tournament file's run, started and stopped by the server."""

    def __init__(self, tournament: Path, output: Path, extra: list[str] | None = None) -> None:
        self.tournament = tournament
        self.output = output
        self.extra = list(extra or [])
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self._stopping = False  # SIGINT sent: the run is winding down

    @property
    def log(self) -> Path:
        """Where the run's standard output and error go."""
        return self.output / LOG_NAME

    def alive(self) -> bool:
        """Whether the run is going on."""
        return self._proc is not None and self._proc.poll() is None

    def exit_code(self) -> int | None:
        """The run's exit code once it ended (``None`` while it runs or before it started)."""
        return None if self._proc is None else self._proc.poll()

    def start(self) -> bool:
        """Start the run (or resume it, after a stop: once the stopped run has ended);
        ``False`` when it is running."""
        with self._lock:
            if self.alive() and self._stopping:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self._proc.wait(STOP_WAIT_S)  # type: ignore[union-attr]
            if self.alive():
                return False
            self._stopping = False
            with open(self.log, "ab") as log:
                argv = [sys.executable, "-m", "arena", "run", str(self.tournament)]
                argv += ["--output", str(self.output), "--no-progress", *self.extra]
                self._proc = subprocess.Popen(
                    argv, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT
                )
            return True

    def stop(self) -> bool:
        """Ask the run to stop as Ctrl-C does; ``False`` when it is not running."""
        with self._lock:
            if not self.alive():
                return False
            assert self._proc is not None
            self._proc.send_signal(signal.SIGINT)
            self._stopping = True
            return True

    def close(self) -> None:
        """Stop the run and wait for it to end (SIGTERM if it takes too long)."""
        if self.stop():
            assert self._proc is not None
            try:
                self._proc.wait(STOP_WAIT_S)
            except subprocess.TimeoutExpired:
                self._proc.terminate()
                self._proc.wait()
