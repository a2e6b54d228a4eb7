"""The real ``arena serve`` for the web tests: a subprocess on 127.0.0.1 (a free port,
``--port 0``), its URL read from its standard output; tournaments of shipped bots."""

from __future__ import annotations

import json
import selectors
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from support import REPO


@dataclass
class Server:
    """A running ``arena serve``."""

    proc: subprocess.Popen[str]
    url: str  # ends with "/"

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
        """Status and body of a GET."""
        return request(self.url + path.lstrip("/"), headers=headers)

    def status(self) -> dict[str, object]:
        return dict(json.loads(self.get("api/status")[1]))


def request(
    url: str, method: str = "GET", headers: dict[str, str] | None = None
) -> tuple[int, str]:
    """Status and body of an HTTP request (errors included)."""
    req = urllib.request.Request(url, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=30) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def start_serve(*args: str, cwd: Path = REPO) -> Server:
    """Start ``arena serve ARGS --port 0`` and wait for its URL."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "arena", "serve", *args, "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
    )
    assert proc.stdout is not None
    selector = selectors.DefaultSelector()
    selector.register(proc.stdout, selectors.EVENT_READ)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if selector.select(1):
            line = proc.stdout.readline()
            if line.startswith("arena serve: http://"):
                return Server(proc, line.split(": ", 1)[1].strip().split("?")[0])
            if not line:
                break
    proc.kill()
    raise AssertionError(f"arena serve printed no URL: {proc.communicate()[1]}")


def stop_serve(server: Server) -> tuple[int, str]:
    """Ctrl-C the server; its exit code and standard error."""
    if server.proc.poll() is None:
        server.proc.send_signal(signal.SIGINT)
    try:
        _, err = server.proc.communicate(timeout=90)
    except subprocess.TimeoutExpired:
        server.proc.kill()
        _, err = server.proc.communicate()
    return server.proc.returncode, err


@pytest.fixture
def serve() -> Iterator[Callable[..., Server]]:
    """Start servers; each is stopped at the end of the test."""
    started: list[Server] = []

    def start(*args: str) -> Server:
        server = start_serve(*args)
        started.append(server)
        return server

    yield start
    for server in started:
        stop_serve(server)


def write_tournament(
    folder: Path,
    bots: dict[str, str],
    games: int = 2,
    max_turns: int = 20,
    concurrency: int = 1,
) -> Path:
    """A Smash The Code round-robin of ``bots`` (name: command) in ``folder``."""
    lines = [
        "name: web",
        "game: stc",
        "format: round-robin",
        f"games: {games}",
        "seed: 1",
        f"concurrency: {concurrency}",
        "settings:",
        f"  max_turns: {max_turns}",
        "bots:",
    ]
    for name, cmd in bots.items():
        lines += [f"  - name: {json.dumps(name)}", f"    cmd: {json.dumps(cmd)}"]
    lines.append(f"output: {json.dumps(str(folder / 'out'))}")
    path = folder / "t.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


def shipped(name: str) -> str:
    """The command of a shipped stc bot."""
    return f"{sys.executable} {REPO / 'bots' / 'stc' / name}"


def slow_bot(folder: Path, sleep: float) -> str:
    """A command playing like the random bot, ``sleep`` s slower each turn (one file: the
    sandbox shows a bot only the file its command names)."""
    source = (REPO / "bots" / "stc" / "random_bot.py").read_text()
    slower = source.replace(
        "        start = time.perf_counter()",
        f"        time.sleep({sleep!r})\n        start = time.perf_counter()",
        1,
    )
    assert slower != source
    path = folder / "slow.py"
    path.write_text(slower)
    return f"{sys.executable} {path}"
