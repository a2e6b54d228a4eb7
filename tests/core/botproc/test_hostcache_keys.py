"""Each cached probe is keyed on what it depends on: a change there probes it again, and
nothing cached is lost on the way back (the cpuset a bot's core is taken from)."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from arena import hostcache
from arena.botproc import cgroups
from arena.botproc.sandboxes.registry import adopt_cached, host_key


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("ARENA_NO_HOST_CACHE", raising=False)
    return tmp_path / "cache" / "arena"


@pytest.fixture
def own_bwrap(tmp_path, monkeypatch):
    """A ``bwrap`` of the test's own, first on PATH (a copy of the real one if any)."""
    folder = tmp_path / "bin"
    folder.mkdir()
    fake = folder / "bwrap"
    real = shutil.which("bwrap")
    if real is not None:
        shutil.copy2(real, fake)
    else:
        fake.write_text("#!/bin/sh\nexit 1\n")
        fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    return fake


BWRAP_FACT = ["/usr/bin/bwrap", None, None, ["--bind"]]


def test_every_cgroup_parent_survives_the_cache_the_cpuset_too(tmp_path):
    folders = {name: tmp_path / name for name in ("pids", "memory", "cpu", "cpuacct", "cpuset")}
    for folder in folders.values():
        folder.mkdir()
    found = cgroups.CgroupParents(1, **folders)
    back = cgroups.parents_from_json(json.loads(json.dumps(cgroups.parents_to_json(found))))
    assert back == found
    assert back is not None and back.describe() == found.describe()


def test_a_cached_probe_is_redone_when_bwrap_changes(cache_home, own_bwrap):
    key = host_key()
    hostcache.store(key, {"bwrap": BWRAP_FACT, "cgroups": None})
    assert hostcache.load(key) == {"bwrap": BWRAP_FACT, "cgroups": None}
    os.utime(own_bwrap, ns=(0, 0))  # another bubblewrap installed in its place
    changed = host_key()
    assert changed != key
    assert hostcache.load(changed) is None


def test_another_cgroup_probes_only_the_cgroups_again(cache_home):
    host, _, cgroup = host_key().partition("/")
    hostcache.store(f"{host}/{cgroup}", {"bwrap": BWRAP_FACT, "cgroups": None})
    # The same user and programs, started in another cgroup: bubblewrap's result holds.
    assert hostcache.load(f"{host}/{'0' * 64}") == {"bwrap": BWRAP_FACT}
    # And the first cgroup's result is still there for a command started from it.
    assert hostcache.load(f"{host}/{cgroup}") == {"bwrap": BWRAP_FACT, "cgroups": None}


def test_only_the_latest_keys_are_kept(cache_home):
    host = host_key().partition("/")[0]
    for n in range(hostcache.MAX_KEYS + 3):
        hostcache.store(f"{host}/{n:064d}", {"bwrap": BWRAP_FACT, "cgroups": None})
    data = json.loads((cache_home / hostcache.FILE_NAME).read_text())
    assert len(data["entries"]) == hostcache.MAX_KEYS
    assert hostcache.load(f"{host}/{0:064d}") == {"bwrap": BWRAP_FACT}  # dropped: cgroups
    last = f"{host}/{hostcache.MAX_KEYS + 2:064d}"
    assert hostcache.load(last) == {"bwrap": BWRAP_FACT, "cgroups": None}


def test_a_cache_file_of_the_old_format_is_ignored(cache_home):
    key = host_key()
    cache_home.mkdir(parents=True, mode=0o700)
    old = {"key": key, "facts": {"cgroups": [1, "/sys/fs/cgroup/pids", None, None, None]}}
    (cache_home / hostcache.FILE_NAME).write_text(json.dumps(old))
    (cache_home / hostcache.FILE_NAME).chmod(0o600)
    assert hostcache.load(key) is None


def test_a_cache_file_of_another_user_is_never_read(cache_home):
    if os.getuid() != 0:
        pytest.skip("only root can give a file to another user")
    key = host_key()
    hostcache.store(key, {"bwrap": BWRAP_FACT, "cgroups": None})
    os.chown(cache_home / hostcache.FILE_NAME, 65534, 65534)
    assert hostcache.load(key) is None


def test_a_malformed_entry_is_ignored_not_trusted(cache_home):
    key = host_key()
    hostcache.store(key, {"bwrap": BWRAP_FACT, "cgroups": None})
    path = cache_home / hostcache.FILE_NAME
    data = json.loads(path.read_text())
    cgroup = key.partition("/")[2]
    data["entries"][cgroup] = {"cgroups": [1, "/nowhere"]}  # a parent missing
    path.write_text(json.dumps(data))
    assert adopt_cached(key) == {}
