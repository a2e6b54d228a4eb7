"""Contest accounts in a real SQLite file: scrypt hashes, one-time links, sessions, sign-up
awaiting approval, and nothing stored that signs anyone in."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from arena.contest.accounts import (
    AccountError,
    Accounts,
    check_password,
    digest,
    hash_password,
    slug,
)
from arena.contest.sessions import RateLimit


@pytest.fixture
def accounts(tmp_path: Path) -> Accounts:
    return Accounts(tmp_path)


def test_the_file_is_in_the_contest_folder(tmp_path: Path, accounts: Accounts) -> None:
    assert accounts.path == tmp_path / "contest" / "contest.sqlite"
    assert accounts.path.is_file()


def test_scrypt_hashes_check_and_differ_by_salt() -> None:
    one, two = hash_password("correct horse"), hash_password("correct horse")
    assert one.startswith("scrypt$16384$8$1$") and one != two
    assert check_password("correct horse", one)
    assert not check_password("correct horsE", one)
    assert not check_password("anything", None)


def test_slugs() -> None:
    assert slug("Ada Lovelace") == "ada-lovelace"
    assert slug("carol@example.org") == "carol"
    assert slug("Émile  Zola!") == "emile-zola"
    assert slug("<script>") == "script"
    assert slug("@@@") == "p"


def test_an_organiser_sets_a_password_through_a_one_time_link(accounts: Accounts) -> None:
    ada = accounts.ensure("Ada", "organiser")
    assert (ada.id, ada.role, ada.state) == ("ada", "organiser", "invited")
    token = accounts.new_link(ada.id)
    assert accounts.link_account(token) == ada
    assert accounts.authenticate("ada", "a long password") is None
    used = accounts.use_link(token, "a long password")
    assert used.state == "active"
    assert accounts.link_account(token) is None  # used up
    with pytest.raises(AccountError, match="used up or too old"):
        accounts.use_link(token, "another long password")
    assert accounts.authenticate("ADA", "a long password") == used
    assert accounts.authenticate("ada", "a long passworD") is None


def test_a_new_link_ends_the_older_one(accounts: Accounts) -> None:
    bob = accounts.create("Bob", "participant", "invited")
    first = accounts.new_link(bob.id)
    second = accounts.new_link(bob.id)
    assert accounts.link_account(first) is None
    assert accounts.link_account(second) == bob


def test_short_passwords_are_refused(accounts: Accounts) -> None:
    bob = accounts.create("Bob", "participant", "invited")
    token = accounts.new_link(bob.id)
    with pytest.raises(AccountError, match="at least 10 characters"):
        accounts.use_link(token, "short")
    assert accounts.link_account(token) == bob  # still good


def test_sign_up_awaits_approval(accounts: Accounts) -> None:
    eve = accounts.sign_up("Eve", "a long password")
    assert eve.state == "pending"
    assert accounts.authenticate("eve", "a long password") is None
    accounts.set_state(eve.id, "active")
    assert accounts.authenticate("eve", "a long password") is not None
    with pytest.raises(AccountError, match="the name 'EVE' is taken"):
        accounts.sign_up("EVE", "a long password")


def test_ids_stay_unique(accounts: Accounts) -> None:
    a = accounts.create("Ann Lee", "participant", "invited")
    b = accounts.create("Ann-Lee!", "participant", "invited")
    assert (a.id, b.id) == ("ann-lee", "ann-lee-2")


def test_sessions_end_on_sign_out_and_on_removal(accounts: Accounts) -> None:
    bob = accounts.create("Bob", "participant", "active", "a long password")
    token, csrf = accounts.new_session(bob.id, 3600)
    found = accounts.session(token)
    assert found is not None and found[0].id == "bob" and found[1] == csrf
    accounts.end_session(token)
    assert accounts.session(token) is None
    token, _ = accounts.new_session(bob.id, 3600)
    accounts.set_state(bob.id, "removed")
    assert accounts.session(token) is None
    assert accounts.authenticate("bob", "a long password") is None


def test_an_expired_session_signs_nobody_in(accounts: Accounts) -> None:
    bob = accounts.create("Bob", "participant", "active", "a long password")
    token, _ = accounts.new_session(bob.id, -1)
    assert accounts.session(token) is None


def test_nothing_stored_signs_in(tmp_path: Path, accounts: Accounts) -> None:
    """The database holds hashes only: no password, no link, no session token."""
    bob = accounts.create("Bob", "participant", "invited")
    link = accounts.new_link(bob.id)
    accounts.use_link(link, "a long password")
    token, _ = accounts.new_session(bob.id, 3600)
    accounts.close()
    dump = "\n".join(sqlite3.connect(tmp_path / "contest" / "contest.sqlite").iterdump())
    assert "a long password" not in dump
    assert link not in dump and token not in dump
    assert digest(token) in dump


def test_the_rate_limit_counts_a_window() -> None:
    limit = RateLimit(3, window_s=60)
    for t in (0.0, 1.0, 2.0):
        assert limit.wait_s("ada", now=t) == 0
        limit.failed("ada", now=t)
    assert limit.wait_s("ada", now=3.0) == 57.0
    assert limit.wait_s("bob", now=3.0) == 0
    assert limit.wait_s("ada", now=60.5) == 0  # the first failure left the window
