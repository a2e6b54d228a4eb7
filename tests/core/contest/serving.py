"""The real ``arena serve CONTEST.yaml`` for the contest tests: a subprocess on 127.0.0.1
(``--port 0``), its one-time links and URL read from its standard output, and a small
HTTP client that keeps cookies and sends forms as a browser does."""

from __future__ import annotations

import http.client
import queue
import re
import resource
import signal
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from support import REPO

SHIPPED = REPO / "bots" / "stc"


@dataclass
class ContestServer:
    proc: subprocess.Popen[str]
    url: str  # ends with "/"
    links: dict[str, str]  # person -> one-time link printed at start
    output: Path

    @property
    def port(self) -> int:
        return int(urlsplit(self.url).port or 0)


def contest_file(folder: Path, extra: str = "", **keys: str) -> Path:
    """A contest file of stc (short games) with two shipped bosses, an organiser Ada."""
    values = {
        "name": "Club contest",
        "game": "stc",
        "settings": "{max_turns: 6}",
        "output": str(folder / "out"),
        "organisers": "[Ada]",
        "bosses": f"[{SHIPPED / 'random_bot.py'}, {SHIPPED / 'greedy.py'}]",
        "league": "{concurrency: 1, sandbox: none}",
    } | keys
    text = "contest:\n" + "".join(f"  {k}: {v}\n" for k, v in values.items()) + extra
    path = folder / "contest.yaml"
    path.write_text(text)
    return path


def start_contest(path: Path, *args: str, open_files: int | None = None) -> ContestServer:
    """Start ``arena serve PATH --port 0`` and wait for its URL (``open_files``: its soft
    limit of open files, as a machine's default may be)."""

    def limit() -> None:
        if open_files is not None:
            hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
            resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, hard))

    proc = subprocess.Popen(
        [sys.executable, "-m", "arena", "serve", str(path), "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
        preexec_fn=limit if open_files is not None else None,
    )
    lines: queue.Queue[str] = queue.Queue()
    # A thread reads the lines (a selector on the pipe would miss a line already in the
    # reader's buffer) up to the URL's, then leaves the rest to communicate().
    threading.Thread(target=_read_start, args=(proc, lines), daemon=True).start()
    links: dict[str, str] = {}
    deadline = time.monotonic() + 240  # a loaded machine's start (imports, the sandbox probe)
    while (left := deadline - time.monotonic()) > 0:
        try:
            line = lines.get(timeout=left)
        except queue.Empty:
            break
        found = re.match(r"arena contest: (?:organiser|participant) (.+): (http\S+)$", line)
        if found:
            links[found[1]] = found[2]
        if line.startswith("arena serve: http://"):
            output = Path(str(path.parent / "out"))
            return ContestServer(proc, line.split(": ", 1)[1].strip(), links, output)
        if not line:
            break
    code = proc.poll()
    proc.kill()
    err = proc.communicate()[1]
    raise AssertionError(f"arena serve printed no URL (exit code {code}): {err}")


def _read_start(proc: subprocess.Popen[str], lines: queue.Queue[str]) -> None:
    assert proc.stdout is not None
    while True:
        line = proc.stdout.readline()
        lines.put(line)
        if not line or line.startswith("arena serve: http://"):
            return


def stop_contest(server: ContestServer) -> tuple[int, str]:
    """Ctrl-C the server; its exit code and standard error."""
    if server.proc.poll() is None:
        server.proc.send_signal(signal.SIGINT)
    try:
        _, err = server.proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        server.proc.kill()
        _, err = server.proc.communicate()
    return server.proc.returncode, err


@dataclass
class Answer:
    status: int
    body: str
    headers: http.client.HTTPMessage

    @property
    def location(self) -> str:
        return self.headers.get("location", "")


@dataclass
class Client:
    """A visitor: its cookies, and the CSRF token of the last page it read."""

    server: ContestServer
    cookies: dict[str, str] = field(default_factory=dict)
    csrf: str = ""

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> Answer:
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=60)
        sent = {"Host": f"127.0.0.1:{self.server.port}"} | (headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            conn.request(method, "/" + path.lstrip("/"), body=body, headers=sent)
            answer = conn.getresponse()
            text = answer.read().decode("utf-8", "replace")
        finally:
            conn.close()
        for cookie in answer.headers.get_all("set-cookie") or []:
            name, _, rest = cookie.partition("=")
            value = rest.split(";", 1)[0]
            if "Max-Age=0" in cookie:
                self.cookies.pop(name, None)
            else:
                self.cookies[name] = value
        if found := re.search(r'<meta name="csrf-token" content="([^"]+)">', text):
            self.csrf = found[1]
        return Answer(answer.status, text, answer.headers)

    def get(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        return self.request("GET", path, headers=headers)

    def post(
        self,
        path: str,
        fields: dict[str, str] | None = None,
        files: dict[str, tuple[str, bytes]] | None = None,
        csrf: bool = True,
        origin: str | None = "self",
    ) -> Answer:
        """A form posted from this server's page (``origin``: "self", another, or None)."""
        fields = dict(fields or {})
        if csrf:
            fields.setdefault("csrf", self.csrf)
        headers = {}
        if origin == "self":
            headers["Origin"] = self.server.url.rstrip("/")
        elif origin is not None:
            headers["Origin"] = origin
        if files:
            body, kind = multipart(fields, files)
        else:
            body, kind = urlencode(fields).encode(), "application/x-www-form-urlencoded"
        headers["Content-Type"] = kind
        return self.request("POST", path, body, headers)

    def set_password(self, link: str, password: str) -> Answer:
        path = urlsplit(link).path
        self.get(path)
        return self.post(path, {"password": password, "again": password})

    def sign_in(self, login: str, password: str) -> Answer:
        self.get("/login")
        return self.post("/login", {"login": login, "password": password})


def multipart(fields: dict[str, str], files: dict[str, tuple[str, bytes]]) -> tuple[bytes, str]:
    """A ``multipart/form-data`` body as a browser sends it."""
    boundary = uuid.uuid4().hex
    parts = []
    for name, value in fields.items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        )
    for name, (filename, data) in files.items():
        head = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
            f'filename="{filename}"\r\nContent-Type: application/octet-stream\r\n\r\n'
        )
        parts.append(head.encode() + data + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


PASSWORD = "correct horse battery"
