"""The contest server faces untrusted people: real HTTP requests against the real server on
127.0.0.1. Markup stays text; other origins and missing CSRF tokens are refused; sign-in is
rate-limited; oversized uploads are refused; what is not yours answers as a missing thing;
pages show no path and no token; event streams are bounded."""

from __future__ import annotations

import resource
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.contest.serving import (
    PASSWORD,
    Client,
    ContestServer,
    contest_file,
    start_contest,
    stop_contest,
)
from support import games_stored

SCRIPT = "<script>alert(1)</script>"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("contest")


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[ContestServer]:
    path = contest_file(folder, invite="[bob]", sign_up="approve", max_upload_kb="8")
    server = start_contest(path)
    yield server
    stop_contest(server)


@pytest.fixture(scope="module")
def ada(server: ContestServer) -> Client:
    client = Client(server)
    assert client.set_password(server.links["Ada"], PASSWORD).status == 303
    return client


@pytest.fixture(scope="module")
def bob(server: ContestServer) -> Client:
    client = Client(server)
    assert client.set_password(server.links["bob"], PASSWORD).status == 303
    return client


def people(ada: Client) -> str:
    return ada.get("/organise").body.split('<table id="people">', 1)[1].split("</table>", 1)[0]


def test_markup_in_names_stays_text(server: ContestServer, ada: Client) -> None:
    mallory = Client(server)
    mallory.get("/signup")
    assert mallory.post("/signup", {"name": SCRIPT, "password": PASSWORD}).status == 200
    table = people(ada)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in table
    assert SCRIPT not in ada.get("/organise").body
    answer = Client(server).sign_in(SCRIPT, "wrong password!")
    assert answer.status == 403
    assert SCRIPT not in answer.body and "&lt;script&gt;" in answer.body


def test_other_origins_are_refused(ada: Client) -> None:
    ada.get("/organise")
    for origin in ("http://evil.example", None):
        answer = ada.post("/organise/invite", {"name": "Oscar"}, origin=origin)
        assert answer.status == 403, origin
        assert "refused: not sent from a page of this contest" in answer.body
    assert "Oscar" not in people(ada)


def test_missing_or_wrong_csrf_tokens_are_refused(ada: Client, server: ContestServer) -> None:
    ada.get("/organise")
    assert ada.post("/organise/invite", {"name": "Oscar"}, csrf=False).status == 403
    assert ada.post("/organise/invite", {"name": "Oscar", "csrf": "x" * 32}).status == 403
    # another visitor's token (its own, valid for it) is not the organiser's
    stranger = Client(server)
    stranger.get("/login")
    assert ada.post("/organise/invite", {"name": "Oscar", "csrf": stranger.csrf}).status == 403
    assert "Oscar" not in people(ada)
    assert ada.post("/organise/invite", {"name": "Oscar"}).status == 200  # the real page's


def test_a_signed_out_form_needs_its_cookie_too(server: ContestServer) -> None:
    """A forged sign-in from another site carries no ``SameSite=Strict`` CSRF cookie."""
    visitor = Client(server)
    visitor.get("/login")
    visitor.cookies.clear()
    answer = visitor.post("/login", {"login": "ada", "password": PASSWORD})
    assert answer.status == 403


def test_a_foreign_host_name_is_refused(server: ContestServer) -> None:
    answer = Client(server).get("/", headers={"Host": "evil.example"})
    assert answer.status == 403 and "unknown host" in answer.body


def test_cookies_are_http_only_and_strict(server: ContestServer) -> None:
    visitor = Client(server)
    first = visitor.get("/login")
    assert first.headers["set-cookie"].endswith("; HttpOnly; SameSite=Strict; Path=/")
    answer = visitor.post("/login", {"login": "ada", "password": PASSWORD})
    session = [c for c in answer.headers.get_all("set-cookie") or [] if "arena_session" in c]
    assert len(session) == 1
    assert "; HttpOnly; SameSite=Strict; Path=/; Max-Age=1209600" in session[0]
    assert "Secure" not in session[0]  # loopback over plain HTTP (see test_config for https)


def test_what_is_not_yours_answers_as_missing(server: ContestServer, bob: Client) -> None:
    missing = Client(server).get("/games/999999")
    assert missing.status == 404
    message = missing.body.split('<p class="error" id="message">', 1)[1].split("<", 1)[0]
    for path in (
        "/organise",
        "/organise/versions/ada/1",
        "/organise/versions/bob/1",
        "/organise/export.csv",
        "/me/versions/1",
        "/me/versions/../../etc/passwd",
        "/games/99999999",  # games are public (their stderr is not): a missing one
        "/games/99999999/viewer",
        "/games/-1",
    ):
        answer = bob.get(path)
        assert answer.status == 404, path
        assert f'<p class="error" id="message">{message}<' in answer.body, path
    bob.get("/me")
    assert bob.post("/organise/freeze").status == 404
    assert bob.post("/organise/remove", {"account": "ada"}).status == 404


def test_an_oversized_upload_is_refused_with_a_message(bob: Client) -> None:
    bob.get("/me")
    big = b"print(1)\n" * 2000  # 18 KB, the limit is 8 KiB
    answer = bob.post("/me/upload", files={"file": ("bot.py", big)})
    assert answer.status == 413
    assert "too large: at most 8 KiB" in answer.body
    huge = b"#" * 200_000  # past the body's bound: refused before it is read
    answer = bob.post("/me/upload", files={"file": ("bot.py", huge)})
    assert answer.status == 413
    assert "too large: at most 8 KiB" in answer.body


def test_pages_show_no_path_and_no_token(
    server: ContestServer, ada: Client, bob: Client, folder: Path
) -> None:
    secrets = [v for c in (ada, bob) for k, v in c.cookies.items() if k == "arena_session"]
    assert len(secrets) == 2
    for client, path in ((ada, "/organise"), (bob, "/me"), (bob, "/"), (Client(server), "/login")):
        body = client.get(path).body
        assert str(folder) not in body and "/tmp" not in body, path
        for secret in secrets:
            assert secret not in body, path


def test_event_streams_are_bounded(server: ContestServer) -> None:
    """256 open streams at most; one more is 503; pages still answer meanwhile."""
    streams = []
    try:
        for _ in range(256):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
            sock.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
            streams.append(sock)
        for sock in streams:  # each one answered: it is open
            assert sock.recv(64).startswith(b"HTTP/1.1 200")
        answer = Client(server).get("/events")
        assert answer.status == 503 and "too many open event streams" in answer.body
        assert Client(server).get("/").status == 200
    finally:
        for sock in streams:
            sock.close()


def test_a_thousand_open_connections_are_bounded_and_the_league_goes_on(tmp_path: Path) -> None:
    """Past 1024 open connections (streams, idle clients, a flood) a request is answered
    503 at once, even where the soft limit of open files is 1024; the league's games go on
    being stored meanwhile; once they close, pages answer again."""
    flood = 1100
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 4096:
        pytest.skip(f"{hard} open files at most here")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, flood + 256), hard))
    server = start_contest(contest_file(tmp_path), open_files=1024)
    sockets = []
    try:
        before = wait_for_games(server, 0)
        for _ in range(200):  # event streams, as open pages keep them
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=60)
            sock.sendall(STREAM_REQUEST % server.port)
            sockets.append(sock)
        for sock in sockets:  # each one answered: it is open
            assert sock.recv(64).startswith(b"HTTP/1.1 200")
        for _ in range(flood - len(sockets)):  # and clients that open and say nothing
            sockets.append(socket.create_connection(("127.0.0.1", server.port), timeout=60))
        assert Client(server).get("/").status == 503
        wait_for_games(server, before)  # the league plays on
        assert Client(server).get("/").status == 503  # still bounded, not fallen over
        for sock in sockets:
            sock.close()
        for _ in range(600):  # the server notices the closed connections
            answer = Client(server).get("/")
            if answer.status != 503:
                break
            time.sleep(0.1)
        assert answer.status == 200
        with socket.create_connection(("127.0.0.1", server.port), timeout=60) as stream:
            stream.sendall(STREAM_REQUEST % server.port)
            assert stream.recv(64).startswith(b"HTTP/1.1 200")  # a page's stream opens again
    finally:
        for sock in sockets:
            sock.close()
        code, err = stop_contest(server)
    assert code == 130 and "Traceback" not in err, err


STREAM_REQUEST = b"GET /events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n"


def wait_for_games(server: ContestServer, more_than: int) -> int:
    """Wait until the league has stored more than ``more_than`` games; how many it has."""
    for _ in range(2400):
        if (stored := games_stored(server.output)) > more_than:
            return stored
        time.sleep(0.1)
    raise AssertionError(f"the league stored no game beyond its {more_than} in 240 s")


def test_sign_in_is_rate_limited_per_account(tmp_path: Path) -> None:
    server = start_contest(contest_file(tmp_path, invite="[bob]"))
    try:
        Client(server).set_password(server.links["bob"], PASSWORD)
        for _ in range(5):
            assert Client(server).sign_in("bob", "wrong password").status == 403
        answer = Client(server).sign_in("bob", PASSWORD)  # even the right one waits now
        assert answer.status == 429 and "too many failed sign-ins: try again in" in answer.body
        assert Client(server).sign_in("ada-nobody", "wrong password").status == 403
    finally:
        stop_contest(server)


def test_sign_in_is_rate_limited_per_client(tmp_path: Path) -> None:
    server = start_contest(contest_file(tmp_path, invite="[bob]"))
    try:
        Client(server).set_password(server.links["bob"], PASSWORD)
        for i in range(20):  # a different name each time: only the client's limit counts
            assert Client(server).sign_in(f"guess{i}", "wrong password").status == 403
        assert Client(server).sign_in("bob", PASSWORD).status == 429
    finally:
        stop_contest(server)
