"""A server for the network (``--host``) asks for its token: in the URL once, then a
cookie. The real app and uvicorn, listening on 127.0.0.1 with a token as ``--host`` gives."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn

from arena.web.app import Served, make_app
from arena.web.folder import Folder
from arena.web.guard import Guard
from core.web.conftest import request, shipped, write_tournament
from support import run_arena


@pytest.fixture(scope="module")
def lan_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("lan")
    tournament = write_tournament(folder, {"a": shipped("greedy.py"), "b": shipped("greedy.py")})
    assert run_arena("run", str(tournament), "--no-progress").returncode == 0
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    app = make_app(Served(Folder(folder / "out"), Guard(token="s3cret")))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}/"
    server.should_exit = True
    thread.join(30)


def test_the_token_is_asked_then_kept_in_a_cookie(lan_server: str) -> None:
    status, body = request(lan_server)
    assert (status, body) == (
        403,
        "403 forbidden: open the URL arena serve printed (with ?token=)\n",
    )
    assert request(lan_server + "games?token=guess")[0] == 403
    assert request(lan_server + "games", headers={"Cookie": "arena_token=guess"})[0] == 403
    import urllib.request

    with urllib.request.urlopen(lan_server + "?token=s3cret", timeout=30) as answer:
        assert answer.status == 200
        cookie = answer.headers["Set-Cookie"]
    assert cookie == "arena_token=s3cret; HttpOnly; SameSite=Strict; Path=/"
    status, body = request(lan_server + "games/1", headers={"Cookie": "arena_token=s3cret"})
    assert status == 200 and "Game 1" in body
