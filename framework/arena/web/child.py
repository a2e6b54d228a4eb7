"""The run ``arena serve TOURNAMENT.yaml`` starts: ``arena run FILE`` as a child process,
its output in ``OUTPUT/serve-run.log``, stopped as Ctrl-C stops it (SIGINT: no game starts,
running ones end unstored, every stored game stays) and started again to resume (the games
cut short are played again).

The server is the run's only master, however it ends:

* the run is in a session of its own, so the terminal's Ctrl-C and SIGHUP reach only the
  server, which stops the run once (a second SIGINT would kill its workers outright);
* the run holds the read end of a pipe (its *lifeline*) whose write end only the server
  holds: when the server dies, even by SIGKILL, the kernel closes it, the run reads
  end-of-file and stops as Ctrl-C stops it (then as SIGTERM does, if it takes too long),
  and the output folder's lock is free for the next ``arena serve``.

The run is ``python -m arena.web.child FD run FILE ...``: :func:`main` watches the
lifeline ``FD`` in a thread and runs ``python -m arena run FILE ...`` in the main thread.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

LOG_NAME = "serve-run.log"
STOP_WAIT_S = 60.0
"""How long :meth:`RunChild.close` waits for the run to end after SIGINT, then SIGTERM
(and how long a run whose server died waits after its own SIGINT, then SIGTERM)."""


class RunChild:
    """One tournament file's run, started and stopped by the server."""

    def __init__(self, tournament: Path, output: Path, extra: list[str] | None = None) -> None:
        self.tournament = tournament
        self.output = output
        self.extra = list(extra or [])
        self._proc: subprocess.Popen[bytes] | None = None
        self._lifeline: int | None = None  # the write end of the run's lifeline
        self._lock = threading.Lock()
        self._stopping = False  # SIGINT sent: the run is winding down

    @property
    def log(self) -> Path:
        """Where the run's standard output and error go."""
        return self.output / LOG_NAME

    @property
    def pid(self) -> int | None:
        """The process id of the run (the last one started), or ``None`` before a start."""
        return None if self._proc is None else self._proc.pid

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
            self._cut_lifeline()
            # Both ends are close-on-exec: only this run gets the read end (pass_fds), and
            # no other child of the server ever holds the write end.
            read, write = os.pipe()
            try:
                with open(self.log, "ab") as log:
                    argv = [sys.executable, "-m", "arena.web.child", str(read)]
                    argv += ["run", str(self.tournament), "--output", str(self.output)]
                    argv += ["--no-progress", *self.extra]
                    self._proc = subprocess.Popen(
                        argv,
                        stdin=subprocess.DEVNULL,
                        stdout=log,
                        stderr=subprocess.STDOUT,
                        pass_fds=(read,),
                        start_new_session=True,  # the terminal's signals are the server's
                    )
            except BaseException:
                os.close(write)
                raise
            finally:
                os.close(read)
            self._lifeline = write
            return True

    def stop(self) -> bool:
        """Ask the run to stop as Ctrl-C does (once: a second SIGINT would kill its running
        games); ``False`` when it is not running."""
        with self._lock:
            if not self.alive():
                return False
            assert self._proc is not None
            if not self._stopping:
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
        with self._lock:
            self._cut_lifeline()

    def _cut_lifeline(self) -> None:
        if self._lifeline is not None:
            os.close(self._lifeline)
            self._lifeline = None


def _watch_lifeline(fd: int) -> None:
    """Wait for the server to go (end-of-file on the lifeline), then stop this run as
    Ctrl-C does; SIGTERM after :data:`STOP_WAIT_S` if it is still winding down."""
    with contextlib.suppress(OSError):
        while os.read(fd, 4096):
            pass  # the server never writes: only the end matters
    os.kill(os.getpid(), signal.SIGINT)
    threading.Event().wait(STOP_WAIT_S)
    os.kill(os.getpid(), signal.SIGTERM)


def main(argv: list[str]) -> None:
    """``python -m arena.web.child FD ARGS...``: ``python -m arena ARGS...`` (the program,
    as before, not an import of the layer above), stopped when the lifeline ``FD`` ends."""
    import runpy

    fd = int(argv[0])
    os.set_inheritable(fd, False)  # the run's own children (workers, bots) never hold it
    watcher = threading.Thread(target=_watch_lifeline, args=(fd,), name="lifeline", daemon=True)
    watcher.start()
    sys.argv = [sys.argv[0], *argv[1:]]
    try:
        runpy.run_module("arena", run_name="__main__", alter_sys=True)  # exits with its code
    except KeyboardInterrupt:  # stopped before arena took the signals: nothing began
        sys.exit(128 + signal.SIGINT)


if __name__ == "__main__":
    main(sys.argv[1:])
