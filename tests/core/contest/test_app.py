"""The contest's pages over real HTTP (the real server on 127.0.0.1): an organiser's first
password, invitations, sign-up and approval, removal, signing out; a restart keeps all."""

from __future__ import annotations

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


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("contest")


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[ContestServer]:
    path = contest_file(folder, invite="[bob, carol@example.org]", sign_up="approve")
    server = start_contest(path)
    yield server
    stop_contest(server)


@pytest.fixture(scope="module")
def ada(server: ContestServer) -> Client:
    """The organiser, signed in through the link printed at start."""
    client = Client(server)
    answer = client.set_password(server.links["Ada"], PASSWORD)
    assert (answer.status, answer.location) == (303, "/organise")
    return client


def test_links_printed_for_who_has_no_password_yet(server: ContestServer) -> None:
    assert sorted(server.links) == ["Ada", "bob", "carol@example.org"]
    for link in server.links.values():
        assert link.startswith(server.url + "welcome/")


def test_the_public_leaderboard_needs_no_sign_in(server: ContestServer) -> None:
    answer = Client(server).get("/")
    assert answer.status == 200
    assert '<h1 id="board-title">Leaderboard</h1>' in answer.body
    assert 'href="/login"' in answer.body and 'href="/signup"' in answer.body


def test_the_organiser_page(ada: Client) -> None:
    page = ada.get("/organise")
    assert page.status == 200
    assert '<tr data-account="ada" data-state="active">' in page.body
    assert '<tr data-account="bob" data-state="invited">' in page.body
    assert '<tr data-account="carol" data-state="invited">' in page.body
    assert 'id="signed-in">Ada<' in page.body


def test_a_used_link_shows_nothing(server: ContestServer, ada: Client) -> None:
    answer = Client(server).get(server.links["Ada"].removeprefix(server.url))
    assert answer.status == 404
    assert "this link is used up or too old" in answer.body


def test_an_invitation_link_signs_the_participant_up(server: ContestServer, ada: Client) -> None:
    made = ada.post("/organise/invite", {"name": "Dave"})
    assert made.status == 200
    link = made.body.split('<code id="link">', 1)[1].split("<", 1)[0]
    assert link.startswith(server.url + "welcome/")
    dave = Client(server)
    answer = dave.set_password(link, PASSWORD)
    assert (answer.status, answer.location) == (303, "/me")
    me = dave.get("/me")
    assert me.status == 200 and 'id="signed-in">Dave<' in me.body
    assert "organise" not in me.body.split("</nav>")[0]
    # the second use of the link
    assert Client(server).set_password(link, PASSWORD).status == 404


def test_passwords_must_match_and_be_long(server: ContestServer) -> None:
    carol = Client(server)
    path = server.links["carol@example.org"].removeprefix(server.url)
    carol.get(path)
    answer = carol.post(path, {"password": PASSWORD, "again": PASSWORD + "x"})
    assert answer.status == 400 and "the two passwords differ" in answer.body
    answer = carol.post(path, {"password": "short", "again": "short"})
    assert answer.status == 400 and "a password has at least 10 characters" in answer.body
    answer = carol.post(path, {"password": PASSWORD, "again": PASSWORD})
    assert (answer.status, answer.location) == (303, "/me")
    assert Client(server).sign_in("carol@example.org", PASSWORD).location == "/me"


def test_sign_up_waits_for_approval(server: ContestServer, ada: Client) -> None:
    erin = Client(server)
    erin.get("/signup")
    answer = erin.post("/signup", {"name": "Erin", "password": PASSWORD})
    assert answer.status == 200 and "an organiser approves your account" in answer.body
    refused = Client(server).sign_in("Erin", PASSWORD)
    assert refused.status == 403 and "awaits an organiser" in refused.body
    ada.get("/organise")
    assert '<tr data-account="erin" data-state="pending">' in ada.get("/organise").body
    assert ada.post("/organise/approve", {"account": "erin"}).status == 303
    assert Client(server).sign_in("Erin", PASSWORD).location == "/me"


def test_removal_ends_the_participants_sessions(server: ContestServer, ada: Client) -> None:
    frank = Client(server)
    made = ada.post("/organise/invite", {"name": "Frank"})
    link = made.body.split('<code id="link">', 1)[1].split("<", 1)[0]
    frank.set_password(link, PASSWORD)
    assert frank.get("/me").status == 200
    ada.get("/organise")
    assert ada.post("/organise/remove", {"account": "frank"}).status == 303
    answer = frank.get("/me")
    assert (answer.status, answer.location) == (303, "/login")
    assert Client(server).sign_in("Frank", PASSWORD).status == 403


def test_signing_out(server: ContestServer) -> None:
    erin = Client(server)
    erin.sign_in("Erin", PASSWORD)
    erin.get("/me")
    assert erin.post("/logout").location == "/"
    assert erin.get("/me").location == "/login"


def test_freeze_is_kept(server: ContestServer, ada: Client) -> None:
    ada.get("/organise")
    assert ada.post("/organise/freeze").status == 303
    assert 'id="frozen-state">frozen<' in ada.get("/organise").body
    assert ada.post("/organise/unfreeze").status == 303
    assert 'id="frozen-state">open<' in ada.get("/organise").body


def test_a_restart_loses_no_account(tmp_path: Path) -> None:
    path = contest_file(tmp_path, invite="[bob]")
    first = start_contest(path)
    try:
        Client(first).set_password(first.links["Ada"], PASSWORD)
    finally:
        stop_contest(first)
    second = start_contest(path)
    try:
        assert sorted(second.links) == ["bob"]  # Ada has a password now: no new link
        assert Client(second).sign_in("Ada", PASSWORD).location == "/organise"
    finally:
        stop_contest(second)
