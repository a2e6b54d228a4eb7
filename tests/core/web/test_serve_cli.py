"""``arena serve`` over HTTP: bad input is one line and exit 2; hostile requests are refused
or answered without harm (the real server on 127.0.0.1)."""

from __future__ import annotations

import json
import socket
import sqlite3
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from core.web.conftest import Server, request, shipped, stop_serve, write_tournament
from support import run_arena


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An output folder of 2 games between two shipped bots, one named with markup."""
    folder = tmp_path_factory.mktemp("stored")
    bots = {
        "greedy": shipped("greedy.py"),
        "<b>x<script>pwn()": shipped("random_bot.py"),
    }
    tournament = write_tournament(folder, bots, games=2)
    result = run_arena("run", str(tournament), "--no-progress")
    assert result.returncode == 0, result.stderr
    return folder / "out"


def test_not_an_output_folder_is_one_line(tmp_path: Path) -> None:
    result = run_arena("serve", str(tmp_path), "--port", "0", timeout=60)
    assert result.returncode == 2
    assert (
        result.stderr
        == f"arena: {tmp_path}: no arena.sqlite here (is it an arena output folder?)\n"
    )


def test_damaged_database_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "arena.sqlite").write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    result = run_arena("serve", str(tmp_path), "--port", "0", timeout=60)
    assert result.returncode == 2
    assert result.stderr.startswith(f"arena: {tmp_path / 'arena.sqlite'}: ")
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_port_in_use_is_one_line(stored: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_arena("serve", str(stored), "--port", str(port), timeout=60)
    assert result.returncode == 2
    assert result.stderr == (
        f"arena: --port {port}: already in use on 127.0.0.1 (choose another, or --port 0)\n"
    )


def test_second_serve_of_a_folder_is_refused(stored: Path, serve: Callable[..., Server]) -> None:
    serve(str(stored))
    result = run_arena("serve", str(stored), "--port", "0", timeout=60)
    assert result.returncode == 2
    assert result.stderr == (
        f"arena: {stored}: another arena serve is serving this folder (open its URL, or stop it)\n"
    )


def test_pages_escape_what_bots_named(stored: Path, serve: Callable[..., Server]) -> None:
    server = serve(str(stored))
    for path in (
        "",
        "games",
        "games/1",
        "bots/greedy",
        "h2h?a=greedy&b=%3Cb%3Ex%3Cscript%3Epwn()",
    ):
        status, body = server.get(path)
        assert status == 200, path
        assert "<script>pwn()" not in body and "<b>x" not in body, path
        assert "&lt;b&gt;x&lt;script&gt;pwn()" in body, path
    assert str(stored.parent) not in server.get("games/1")[1]  # no machine path on a page


def test_hostile_requests(stored: Path, serve: Callable[..., Server]) -> None:
    server = serve(str(stored))
    # Ids are looked up, never joined into a path.
    for path in (
        "games/..%2F..%2Fetc%2Fpasswd",
        "games/1%2F..%2F..",
        "games/-1",
        "games/0",
        "games/99999999999999999999999",
        "games/1/viewer/../../../etc/passwd",
        "bots/..%2F..%2Farena.sqlite",
        "static/..%2Farena.sqlite",
    ):
        status, body = server.get(path)
        assert status == 404, path
        assert "root:" not in body and "SQLite" not in body
    status, body = server.get("games?before=99999999999999999999999999&seed=-99999999999999999999")
    assert status == 200 and 'id="no-games"' in body
    status, body = server.get("games?before=99999999999999999999999999")
    assert status == 200 and body.count('<tr data-game="') == 2
    status, body = server.get("games?after=-99999999999999999999999999")
    assert status == 200 and body.count('<tr data-game="') == 2
    # A request changing something, from another site or without the page's token: refused.
    pause = server.url + "control/pause"
    assert request(pause, "POST")[0] == 403
    assert request(pause, "POST", {"Origin": "http://evil.example"})[0] == 403
    origin = server.url.rstrip("/")
    assert request(pause, "POST", {"Origin": origin, "X-CSRF-Token": "guess"})[0] == 403
    assert not (stored / "control.json").exists()
    # A page of another name for this machine (DNS rebinding) is not answered.
    assert server.get("", {"Host": "evil.example"})[0] == 403


def test_pause_from_the_page_writes_the_control_file(
    stored: Path, serve: Callable[..., Server]
) -> None:
    server = serve(str(stored))
    _, page = server.get("")
    csrf = page.split('name="csrf-token" content="', 1)[1].split('"', 1)[0]
    origin = server.url.rstrip("/")
    headers = {"Origin": origin, "X-CSRF-Token": csrf}
    status, body = request(server.url + "control/pause", "POST", headers)
    assert (status, body) == (200, '{"ok":true,"action":"pause"}')
    assert (stored / "control.json").read_text() == '{"paused": true}\n'
    assert server.status()["paused"] is True
    request(server.url + "control/resume", "POST", headers)
    assert (stored / "control.json").read_text() == '{"paused": false}\n'
    # Stopping a run this server did not start is not its business.
    assert request(server.url + "control/stop", "POST", headers)[0] == 409


def test_games_list_filters(stored: Path, serve: Callable[..., Server]) -> None:
    server = serve(str(stored))
    db = sqlite3.connect(stored / "arena.sqlite")
    wins = {
        gid
        for (gid,) in db.execute(
            "SELECT s.game_id FROM seats s WHERE s.bot = 'greedy' AND s.rank = 0 AND"
            " (SELECT COUNT(*) FROM seats o WHERE o.game_id = s.game_id AND o.rank = 0) = 1"
        )
    }
    db.close()
    _, body = server.get("games?bot=greedy&result=win")
    shown = {int(part.split('"', 1)[0]) for part in body.split('<tr data-game="')[1:]}
    assert shown == wins
    _, body = server.get("games?seed=424242")
    assert 'id="no-games"' in body


def _open_stream(server: Server) -> socket.socket:
    """A raw connection reading ``/events`` (its first event already read)."""
    host, port = server.url.split("//", 1)[1].rstrip("/").rsplit(":", 1)
    conn = socket.create_connection((host, int(port)), timeout=30)
    conn.sendall(f"GET /events HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
    seen = b""
    while b"event: update" not in seen:
        seen += conn.recv(4096)
    return conn


def test_a_thousand_idle_streams_and_disconnects(
    stored: Path, serve: Callable[..., Server]
) -> None:
    """A thousand open event streams, half of them dropped mid-stream: pages still answer,
    and Ctrl-C still stops the server at once, with no traceback."""
    server = serve(str(stored))
    streams = [_open_stream(server) for _ in range(1000)]
    for conn in streams[::2]:
        conn.close()  # a browser that goes away mid-stream
    status, body = server.get("games/1")
    assert status == 200 and "Game 1" in body
    assert server.status()["games_stored"] == 2
    code, err = stop_serve(server)
    for conn in streams[1::2]:
        conn.close()
    assert code == 130
    assert err == "arena: interrupted\n"


def test_a_bot_added_to_a_finished_league_is_said_to_join_at_its_next_start(
    tmp_path: Path, serve: Callable[..., Server]
) -> None:
    tournament = write_tournament(tmp_path, {"greedy": shipped("greedy.py"),
                                             "random": shipped("random_bot.py")})  # fmt: skip
    tournament.write_text(tournament.read_text().replace("round-robin", "league"))
    assert run_arena("run", str(tournament), "--no-progress").returncode == 0
    server = serve(str(tmp_path / "out"))
    _, page = server.get("")
    csrf = page.split('name="csrf-token" content="', 1)[1].split('"', 1)[0]
    headers = {"Origin": server.url.rstrip("/"), "X-CSRF-Token": csrf,
               "Content-Type": "application/json"}  # fmt: skip
    body = json.dumps({"bot": f"rookie={shipped('random_bot.py')}"}).encode()
    req = urllib.request.Request(server.url + "league/add", body, headers, method="POST")
    with urllib.request.urlopen(req, timeout=30) as answer:
        said = json.loads(answer.read())
    # Nothing runs the league: the page says the bot joins at its next start.
    assert said == {"ok": True, "action": "add", "bot": "rookie", "now": False}
