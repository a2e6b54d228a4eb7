"""Bot files shipped to Dask workers: which arguments travel, content addressing, the cache."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arena.execute import botfiles
from arena.execute.botfiles import (
    FileRef,
    PackError,
    is_shipped,
    localize,
    pack,
    pack_commands,
    unpack,
)


def write(path: Path, text: str, mode: int = 0o644) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(mode)
    return path


def test_only_the_bots_own_files_travel_not_the_interpreters_or_plain_words(tmp_path):
    bot = write(tmp_path / "bot.py", "print(1)\n")
    assert is_shipped(str(bot))
    assert is_shipped(str(tmp_path))  # a folder the command names travels whole
    assert not is_shipped("python3") and not is_shipped("--depth") and not is_shipped("3")
    assert not is_shipped(str(tmp_path / "missing.py"))
    assert not is_shipped("bot.py")  # relative: config.resolve_command made every path absolute
    assert not is_shipped("/usr/bin/env") and not is_shipped("/bin/sh")
    assert not is_shipped(sys.executable)  # the venv's interpreter is the machine's


def test_a_pack_is_named_by_its_name_and_content_and_keeps_the_executable_bit(tmp_path):
    a = write(tmp_path / "a" / "bot.py", "print(1)\n")
    b = write(tmp_path / "b" / "bot.py", "print(1)\n")
    other_name = write(tmp_path / "c" / "other.py", "print(1)\n")
    changed = write(tmp_path / "d" / "bot.py", "print(2)\n")
    script = write(tmp_path / "e" / "bot.py", "print(1)\n", 0o755)
    assert pack(a).digest == pack(b).digest  # same name and bytes: one cached copy
    assert len({pack(p).digest for p in (a, other_name, changed, script)}) == 4
    assert pack(script).files == (("", True, b"print(1)\n"),)


def test_unpack_writes_one_copy_per_digest_runnable_and_readable_by_everyone(tmp_path):
    src = write(tmp_path / "src" / "run.sh", "#!/bin/sh\necho hello from $0\n", 0o700)
    cache = tmp_path / "cache"
    packed = pack(src)
    copy = unpack(packed, cache)
    assert copy == cache / packed.digest / "run.sh"
    assert copy.read_bytes() == src.read_bytes()
    assert copy.stat().st_mode & 0o777 == 0o755 and copy.parent.stat().st_mode & 0o777 == 0o755
    assert subprocess.run([str(copy)], capture_output=True, text=True).stdout.startswith("hello")
    assert unpack(packed, cache) == copy
    assert sorted(p.name for p in cache.iterdir()) == [packed.digest]  # no temporary left


def test_a_damaged_copy_is_written_again(tmp_path, monkeypatch):
    src = write(tmp_path / "bot.py", "print('right')\n")
    cache = tmp_path / "cache"
    packed = pack(src)
    copy = unpack(packed, cache)
    copy.write_text("print('tampered')\n")
    assert unpack(packed, cache).read_text() == "print('right')\n"


def test_a_folder_travels_with_its_tree(tmp_path):
    folder = tmp_path / "mybot"
    write(folder / "main.py", "import helper\n")
    write(folder / "lib" / "helper.py", "X = 1\n")
    write(folder / "run", "#!/bin/sh\n", 0o755)
    packed = pack(folder)
    copy = unpack(packed, tmp_path / "cache")
    assert copy.name == "mybot" and copy.is_dir()
    assert (copy / "lib" / "helper.py").read_text() == "X = 1\n"
    assert os.access(copy / "run", os.X_OK) and not os.access(copy / "main.py", os.X_OK)
    write(folder / "lib" / "helper.py", "X = 2\n")
    assert pack(folder).digest != packed.digest


def test_commands_are_rewritten_to_the_cached_copies(tmp_path):
    one = write(tmp_path / "one.py", "1\n")
    two = write(tmp_path / "two.py", "2\n")
    commands, packs = pack_commands(
        {
            "a": ("python3", str(one), "--depth", "3"),
            "b": ("python3", str(two), str(one)),
        }
    )
    assert len(packs) == 2
    ref_one = FileRef(pack(one).digest, "one.py")
    assert commands["a"] == ("python3", ref_one, "--depth", "3")
    assert commands["b"][2] == ref_one
    cache = tmp_path / "cache"
    argv = localize(commands["b"], lambda ref: unpack(packs[ref.digest], cache))
    assert argv == (
        "python3",
        str(cache / pack(two).digest / "two.py"),
        str(cache / ref_one.digest / "one.py"),
    )


def test_too_much_to_ship_or_unreadable_is_refused_naming_the_bot(tmp_path, monkeypatch):
    big = write(tmp_path / "big.bin", "x" * 2000)
    monkeypatch.setattr(botfiles, "MAX_PACK_BYTES", 1000)
    with pytest.raises(PackError, match=r"bot 'hog': the files the commands name hold"):
        pack_commands({"hog": ("python3", str(big))})
    if os.geteuid() == 0:
        return  # root reads anything
    secret = write(tmp_path / "secret.py", "x", 0o000)
    with pytest.raises(PackError, match=r"bot 'shy': cannot read"):
        pack_commands({"shy": ("python3", str(secret))})


def test_cache_root_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv(botfiles.CACHE_ENV, str(tmp_path / "c"))
    assert botfiles.cache_root() == tmp_path / "c"
    monkeypatch.delenv(botfiles.CACHE_ENV)
    assert botfiles.cache_root().name == f"arena-bot-files-{os.geteuid()}"
    shutil.rmtree(tmp_path / "c", ignore_errors=True)
