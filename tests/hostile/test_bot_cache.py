"""Hostile local users against the bot-file cache of Dask workers: a folder another user
made first (or can write, or a link) is refused with one line, never used; a cached file
changed after it was checked is checked again, and restored, before it runs."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from arena.errors import exit_code
from arena.execute import botfiles
from arena.execute.botfiles import PackError, pack, unpack
from support import REPO

AS_NOBODY = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]


def cache_root_in(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``cache_root()`` in a fresh process with ``env`` (its own temp folder)."""
    code = "from arena.execute.botfiles import cache_root; print(cache_root())"
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
    )


@pytest.fixture
def shared_tmp():
    """A folder every user may create things in, as /tmp (sticky, world-writable)."""
    folder = Path(tempfile.mkdtemp(prefix="arena-shared-", dir="/tmp"))
    folder.chmod(0o1777)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None, reason="needs root")
def test_a_default_cache_folder_another_user_made_first_is_refused(shared_tmp):
    planted = shared_tmp / f"arena-bot-files-{os.geteuid()}"
    for made_first in (["mkdir", str(planted)], ["ln", "-s", str(shared_tmp), str(planted)]):
        subprocess.run([*AS_NOBODY, *made_first], check=True)
        result = cache_root_in({"TMPDIR": str(shared_tmp)})
        assert result.returncode != 0
        last = result.stderr.strip().splitlines()[-1]
        assert f"bot file cache {planted}" in last and "refusing it" in last, result.stderr
        subprocess.run([*AS_NOBODY, "rm", "-r", str(planted)], check=True)


def test_a_cache_folder_others_may_change_or_a_link_is_refused(tmp_path, shared_tmp):
    open_folder = tmp_path / "open"
    open_folder.mkdir()
    open_folder.chmod(0o777)
    mine = tmp_path / "mine"
    mine.mkdir(mode=0o700)
    link = tmp_path / "link"
    link.symlink_to(mine)
    # Not this user's: a folder of another user (root's, for an unprivileged user).
    others = shared_tmp if os.geteuid() == 0 else Path("/var/tmp")
    in_open_parent = shared_tmp / "sub" / "cache"  # its parent, others may rename
    (shared_tmp / "sub").mkdir(mode=0o777)
    (shared_tmp / "sub").chmod(0o777)
    cases = {
        open_folder: "other users may write in it",
        link: "it is a symbolic link",
        in_open_parent: "lets another user replace it",
    }
    if os.geteuid() != 0:
        cases[others] = "not to this user"
    for path, why in cases.items():
        result = cache_root_in({botfiles.CACHE_ENV: str(path)})
        assert result.returncode != 0, path
        last = result.stderr.strip().splitlines()[-1]
        assert f"bot file cache {path} ($ARENA_BOT_CACHE): " in last, result.stderr
        assert why in last, result.stderr
    # A folder of this user's own is used, created 0700 if missing.
    fresh = tmp_path / "fresh" / "cache"
    result = cache_root_in({botfiles.CACHE_ENV: str(fresh)})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(fresh)
    assert fresh.stat().st_mode & 0o777 == 0o700


def test_a_cached_file_changed_after_its_first_use_is_restored_before_the_next(tmp_path):
    bot = tmp_path / "bot.py"
    bot.write_text("print('honest')\n")
    packed = pack(bot)
    cache = botfiles.safe_cache(tmp_path / "cache")
    first = unpack(packed, cache)
    assert first.read_text() == "print('honest')\n"
    # Swapped in place (same size, even the same modification time), after the check.
    stamp = first.stat()
    first.write_text("print('planted')\n"[: len("print('honest')\n")])
    os.utime(first, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    again = unpack(packed, cache)
    assert again.read_text() == "print('honest')\n"
    # Replaced by a link to a file of the same content: never used either.
    honest = tmp_path / "elsewhere.py"
    honest.write_text("print('honest')\n")
    again.unlink()
    again.symlink_to(honest)
    third = unpack(packed, cache)
    assert not third.is_symlink() and third.read_text() == "print('honest')\n"


def test_a_cache_that_cannot_be_used_is_bad_input_not_a_traceback(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(PackError, match="it is not a folder") as caught:
        botfiles.safe_cache(tmp_path / "file")
    assert exit_code(caught.value) == 2
