"""The ``arena`` command: the parser, stop signals, and one place that turns errors into
messages and exit codes (:func:`arena.errors.exit_code`).

Exit codes: 0 success, 1 a game failed in the referee, 2 bad input (file, key, game,
command, sandbox; or a bot's file changed during ``arena run``), 3 ``arena run``
gave up games that stalled at every replay (run it again to play them), 70 a bug in arena (one
line names it and the file holding its traceback), 130 interrupted by SIGINT (Ctrl-C),
143 stopped by SIGTERM, 141 standard output closed early (``arena ... | head``).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from types import FrameType

from arena import __version__
from arena.cli import books, bots, check, games, match, serve, stored, tournament
from arena.cli.common import ArenaParser
from arena.errors import EXIT_BUG, EXIT_PIPE, EXIT_USAGE, exit_code
from arena.execute.stopping import first_stop, note_stop
from arena.text import shown

# Only the standard library and arena's light modules are imported up here: each command
# imports what it needs (yaml, tabulate, trueskill, sqlite3, pluggy...) when it runs, so
# `arena --version` and `arena match` start fast (tests/core/test_imports.py).


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``arena`` command; return its exit code."""
    parser = _parser()
    args, extra = parser.parse_known_args(argv)
    if extra and args.command != "match":
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    _install_stop_signals()
    try:
        os.getcwd()
    except FileNotFoundError:  # every relative path would fail: say so once
        print("arena: the current folder no longer exists: cd to a folder first", file=sys.stderr)
        return EXIT_USAGE
    try:
        code = int(args.func(args, extra))
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's exit
        return code
    except BrokenPipeError:
        # The reader went away (`arena ... | head`): stop quietly, like other Unix tools.
        # Whatever is still buffered goes nowhere instead of failing again at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return EXIT_PIPE
    except KeyboardInterrupt:
        print("arena: interrupted", file=sys.stderr)
        return 128 + (first_stop() or signal.SIGINT)
    except Exception as exc:
        sqlite3 = sys.modules.get("sqlite3")  # imported only by the commands that use it
        if sqlite3 is not None and isinstance(exc, sqlite3.DatabaseError):
            from arena.results.store import database_error

            exc = database_error(exc)  # a damaged file: one line naming it, not a bug
        code = exit_code(exc)
        if code == EXIT_BUG:
            print(f"arena: {_bug_report(exc)}", file=sys.stderr)
        else:
            print(f"arena: {shown(str(exc))}", file=sys.stderr)  # control characters escaped
        return code
    finally:
        _ignore_late_signals()


def _bug_report(exc: BaseException) -> str:
    """One line naming an unexpected exception (an arena bug) and the file where its
    whole traceback was saved, for a bug report."""
    import traceback  # only for a bug: not on every command's start

    text = "".join(traceback.format_exception(exc))
    where = "(the traceback could not be saved)"
    try:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        fd, path = tempfile.mkstemp(prefix=f"arena-bug-{stamp}-", suffix=".txt")
        with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace") as out:
            out.write(f"arena {__version__}, argv {sys.argv!r}\n{text}")
        where = f"traceback saved in {path}"
    except OSError:
        pass
    return f"bug: {type(exc).__name__}: {exc} ({where}; please report it)"


def _install_stop_signals() -> None:
    """SIGINT or SIGTERM ends the command as Ctrl-C does; once one has, later ones wait.

    A running pool takes these signals itself, stops its games, and hands them back here.
    A second signal while the command winds down (a second Ctrl-C, Ctrl-C after SIGTERM)
    must not cut the leaderboard in half nor change the exit code: 128 + the first one.
    """

    def stop(signum: int, frame: FrameType | None) -> None:
        if first_stop() is not None:
            return
        note_stop(signum)
        raise KeyboardInterrupt

    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, stop)


def _ignore_late_signals() -> None:
    """Once a stop signal has decided the exit code, ignore any more until the process exits.

    The interpreter's shutdown puts back the default action of every signal Python code
    handles, under which one more Ctrl-C would kill the process instead of letting it exit
    with 128 + the first signal; a signal set to be ignored stays ignored.
    """
    if first_stop() is not None and threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, signal.SIG_IGN)


def _parser() -> argparse.ArgumentParser:
    parser = ArenaParser(
        prog="arena", description="Bot tournaments for many games: play, rate, replay."
    )
    parser.add_argument("--version", action="version", version=f"arena {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for commands in (games, match, tournament, check, books, bots, stored, serve):
        commands.add_parsers(sub)
    return parser
