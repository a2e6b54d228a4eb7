"""The probes' results are reused until the machine changes, never from an unsafe file."""

from __future__ import annotations

import os

import pytest

from arena import hostcache
from arena.botproc import cgroups
from arena.botproc.sandboxes.registry import host_key


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("ARENA_NO_HOST_CACHE", raising=False)
    return tmp_path / "arena"


def test_facts_stored_under_a_key_come_back_under_that_key_only(cache_home):
    key = host_key()
    assert key
    hostcache.store(key, {"cgroups": None})
    assert hostcache.load(key) == {"cgroups": None}
    assert hostcache.load("another machine state") is None
    assert oct(cache_home.stat().st_mode & 0o777) == oct(0o700)


def test_a_cache_file_others_may_write_is_never_read(cache_home):
    key = host_key()
    hostcache.store(key, {"cgroups": None})
    path = cache_home / hostcache.FILE_NAME
    path.chmod(0o666)
    assert hostcache.load(key) is None


def test_a_cache_file_that_is_a_link_is_never_read(cache_home, tmp_path):
    key = host_key()
    hostcache.store(key, {"cgroups": None})
    path = cache_home / hostcache.FILE_NAME
    elsewhere = tmp_path / "elsewhere.json"
    path.rename(elsewhere)
    os.symlink(elsewhere, path)
    assert hostcache.load(key) is None


def test_the_cache_can_be_turned_off(cache_home, monkeypatch):
    monkeypatch.setenv("ARENA_NO_HOST_CACHE", "1")
    key = host_key()
    hostcache.store(key, {"cgroups": None})
    assert not (cache_home / hostcache.FILE_NAME).exists()


def test_a_cached_cgroup_folder_that_is_gone_is_probed_again(tmp_path):
    gone = [1, str(tmp_path / "gone"), None, None, None, None, None]
    with pytest.raises(ValueError):
        cgroups.parents_from_json(gone)
    here = [1, str(tmp_path), None, None, None, None, None]
    found = cgroups.parents_from_json(here)
    assert found is not None and cgroups.parents_to_json(found) == here
