"""``arena serve``: the web app over an output folder, or over the run of a tournament file
it starts (see docs/serve.md)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.errors import EXIT_OK, ConfigError

if TYPE_CHECKING:
    import socket
    from collections.abc import Callable, Iterator
    from types import FrameType

# Only the standard library's light modules up here: every command's start imports this.

DEFAULT_PORT = 8765
SERVE_LOCK = ".arena-serve.lock"
"""Held (``flock``) by the ``arena serve`` of a folder: one server per folder."""


def add_parsers(sub: Any) -> None:
    """The ``serve`` command."""
    p = sub.add_parser(
        "serve", help="watch and steer a tournament live in the browser (a local web app)"
    )
    p.add_argument(
        "target",
        type=Path,
        help="an output folder (served while `arena run` writes it), a tournament file "
        "(run as a child process and served) or a contest file (see docs/contest.md)",
    )
    p.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"port (default {DEFAULT_PORT}; 0: any free one)",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1; another one asks for a token in the URL)",
    )
    p.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace, extra: list[str]) -> int:
    """Serve the folder (starting the tournament's run first, for a file) until Ctrl-C."""
    from arena.web.child import RunChild

    target: Path = args.target
    child = None
    if target.is_file() and target.suffix in (".yaml", ".yml") and _is_contest(target):
        return _serve_contest(target, args)
    if target.is_file() and target.suffix in (".yaml", ".yml"):
        output = _tournament_output(target)
        child = RunChild(target, output)
    else:
        output = _served_folder(target)
    loopback = _is_loopback(args.host)
    sock = _bind(args.host, args.port)
    lock = _lock(output)
    try:
        _serve(output, sock, args.host, loopback, child)
    finally:
        if child is not None:
            child.close()
        os.close(lock)
    return EXIT_OK


def _serve(output: Path, sock: socket.socket, host: str, loopback: bool, child: Any) -> None:
    import uvicorn

    from arena.tournament.control import Control, read_control, write_control
    from arena.web.app import Served, make_app
    from arena.web.folder import Folder
    from arena.web.guard import Guard, new_token

    token = None if loopback else new_token()
    served = Served(Folder(output), Guard(token), child)
    port = sock.getsockname()[1]
    shown_host = f"[{host}]" if ":" in host else host
    url = f"http://{shown_host}:{port}/" + (f"?token={token}" if token else "")
    if not loopback:
        print(
            f"arena: warning: serving {output} on {host}, beyond this machine: anyone on the "
            "network who has the URL (with its token) can see and steer the run",
            file=sys.stderr,
        )
    if child is not None:
        child.start()
        print(f"arena: running the tournament, its output in {child.log}", file=sys.stderr)
    print(f"arena serve: {url}", flush=True)
    config = uvicorn.Config(
        make_app(served), log_level="warning", lifespan="on", timeout_graceful_shutdown=2
    )
    try:
        _run_server(config, sock, served.watcher.end_streams)
    finally:
        if read_control(output).paused:  # no run should wait for a server that is gone
            write_control(output, Control(paused=False))


def _run_server(config: Any, sock: socket.socket, end_streams: Callable[[], None]) -> None:
    """Serve until Ctrl-C, SIGTERM or SIGHUP (the terminal closed), which all end the command
    the same way: open event streams end, uvicorn shuts down, then the signal it hands back
    ends the command as Ctrl-C does (the run the server started is stopped, not orphaned)."""
    import contextlib
    import signal

    import uvicorn

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            end_streams()  # open event streams end: nothing to wait for
            await super().shutdown(sockets)

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            # uvicorn takes SIGINT and SIGTERM only; SIGHUP would kill the server at once.
            def hangup(signum: int, frame: FrameType | None) -> None:
                self.handle_exit(signal.SIGTERM, frame)

            previous = signal.signal(signal.SIGHUP, hangup)
            try:
                with super().capture_signals():
                    yield
            finally:
                signal.signal(signal.SIGHUP, previous)

    Server(config).run(sockets=[sock])


def _tournament_output(path: Path) -> Path:
    """The output folder of a tournament file (the file checked as ``arena run`` would)."""
    from arena.cli.common import installed_games
    from arena.results.store import make_output_folder
    from arena.tournament.config import load_tournament

    config = load_tournament(path, installed_games())
    make_output_folder(config.output, f"{path}: output")
    return config.output


def _is_contest(path: Path) -> bool:
    from arena.contest.config import is_contest_file

    return is_contest_file(path)


def _serve_contest(path: Path, args: argparse.Namespace) -> int:
    """Serve a contest (docs/contest.md): its file checked, its output folder made and its
    league's tournament file written there, the league run as a child, until Ctrl-C."""
    from arena.cli.common import installed_games
    from arena.contest.config import load_contest
    from arena.results.store import make_output_folder

    config = load_contest(path, installed_games())
    make_output_folder(config.output, f"{path}: contest.output")
    loopback = _is_loopback(args.host)
    sock = _bind(args.host, args.port)
    lock = _lock(config.output)
    try:
        config.write_tournament()
        _run_contest(config, sock, args.host, loopback)
    finally:
        os.close(lock)
    return EXIT_OK


def _run_contest(config: Any, sock: socket.socket, host: str, loopback: bool) -> None:
    import uvicorn

    from arena.contest.app import make_app
    from arena.contest.server import MAX_CONNECTIONS, open_contest

    port = sock.getsockname()[1]
    shown_host = f"[{host}]" if ":" in host else host
    url = config.public_url or f"http://{shown_host}:{port}/"
    contest = open_contest(config, loopback)
    try:
        for line in contest.welcome(url):
            print(line, flush=True)
        contest.start()
        print(f"arena serve: {url}", flush=True)
        app = make_app(contest)
        uv = uvicorn.Config(
            app,
            log_level="warning",
            lifespan="on",
            timeout_graceful_shutdown=2,
            limit_concurrency=MAX_CONNECTIONS,
        )
        _run_server(uv, sock, contest.league.watcher.end_streams)
    finally:
        contest.close()


def _served_folder(target: Path) -> Path:
    """An existing output folder whose database opens and reads (else one clear line)."""
    import sqlite3

    from arena.results.store import DB_NAME, database_error, open_existing

    if not target.exists():
        raise ConfigError(f"{target}: no such file or folder")
    if target.is_file() and target.name != DB_NAME:
        raise ConfigError(f"{target}: neither an arena output folder nor a tournament file")
    store = open_existing(target)
    try:
        store.meta()
        store.db.execute("SELECT MAX(id) FROM games").fetchone()
        store.db.execute("SELECT COUNT(*) FROM seats").fetchone()
    except sqlite3.DatabaseError as exc:
        raise database_error(exc) from None
    finally:
        store.close()
    return store.output


def _is_loopback(host: str) -> bool:
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket (before anything else starts: a port in use is one line)."""
    import errno
    import socket

    if not 0 <= port <= 65535:
        raise ConfigError(f"--port {port}: not a port (0 to 65535)")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise ConfigError(f"--host {host}: unknown address ({exc.strerror})") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ConfigError(
                f"--port {port}: already in use on {host} (choose another, or --port 0)"
            ) from None
        raise ConfigError(f"--host {host} --port {port}: cannot listen: {exc.strerror}") from None
    sock.set_inheritable(False)
    return sock


def _lock(output: Path) -> int:
    """Hold the folder's serve lock: a second ``arena serve`` of it stops with one line."""
    import fcntl

    try:
        fd = os.open(output / SERVE_LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError:
        return os.open(os.devnull, os.O_RDONLY)  # a read-only folder: served without a lock
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise ConfigError(
            f"{output}: another arena serve is serving this folder (open its URL, or stop it)"
        ) from None
    return fd
