"""Whatever tree a bot leaves in its directory, clean-up removes it without recursion and
without following links, and a clean-up failure never stops a run, this one or a later one."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from arena.botproc import procinfo
from arena.botproc.trees import remove_tree
from support import REPO
from support.hostile import MODES, arena, write_bot

# Deeper than Python's recursion limit, and (with 200-character names) longer than PATH_MAX;
# the innermost folders lose every permission.
DEEP_TREE = """
import os
top = os.getcwd()
for i in range({depth}):
    os.mkdir({name!r})
    os.chdir({name!r})
open("file", "w").write("x")
os.symlink({victim!r}, "link")
os.chdir("..")
os.chmod({name!r}, 0)
os.chdir(top)
os.chmod(top, 0o500)
"""

STC_LOOP = """
turn = 0
import sys
while True:
    lines = [sys.stdin.readline() for _ in range(34)]
    if not lines[0]:
        break
    print(f"{turn % 6} 1", flush=True)
    turn += 1
"""


@pytest.fixture(autouse=True)
def _no_deep_tree_left(tmp_path):
    """Whatever a failed test leaves, pytest's own (recursive) clean-up must not meet it."""
    yield
    for child in tmp_path.iterdir():
        remove_tree(child)


def deep_bot(victim: Path, depth: int = 1000, name: str = "d") -> str:
    return DEEP_TREE.format(depth=depth, name=name, victim=str(victim)) + STC_LOOP


def env_with_tmp(tmp: Path) -> dict[str, str]:
    """The environment with bot folders under ``tmp`` (not the machine's shared ones)."""
    tmp.mkdir(exist_ok=True)
    tmp.chmod(0o755)
    return {**os.environ, "TMPDIR": str(tmp)}


def homes(tmp: Path) -> list[str]:
    folder = tmp / f"arena-bots-{os.getuid()}"
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def test_a_tree_deeper_than_the_recursion_limit_and_path_max_is_removed(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    top = tmp_path / "tree"
    top.mkdir()
    fd = os.open(top, os.O_RDONLY)
    name = "n" * 200
    for _ in range(1500):  # 300 kB of path: only descriptors reach the bottom
        os.mkdir(name, dir_fd=fd)
        new = os.open(name, os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = new
    os.symlink(str(victim), "link", dir_fd=fd)
    os.symlink(str(tmp_path), "folder-link", dir_fd=fd)
    os.fchmod(fd, 0)
    os.close(fd)
    top.chmod(0o500)
    assert remove_tree(top) is None
    assert not top.exists()
    assert victim.read_text() == "keep me\n"


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_leaving_1000_nested_folders_costs_nothing_and_the_next_run_works(tmp_path, mode):
    tmp = tmp_path / "tmp"
    env = env_with_tmp(tmp)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    digger = write_bot(tmp_path / "bots", "digger.py", deep_bot(victim))
    greedy = REPO / "bots" / "stc" / "greedy.py"
    for _ in range(2):  # the second run must start as cleanly as the first
        result = arena(
            "match",
            "stc",
            f"{sys.executable} {digger}",
            f"{sys.executable} {greedy}",
            "--sandbox",
            mode,
            "--max_turns",
            "3",
            env=env,
        )
        assert result.returncode == 0, result.stderr
        assert "bug" not in result.stderr and "Traceback" not in result.stderr
        assert "could not remove" not in result.stderr
        assert homes(tmp) == []
    assert victim.read_text() == "keep me\n"


def test_a_deep_tree_left_by_a_killed_run_is_removed_at_the_next_start(tmp_path):
    tmp = tmp_path / "tmp"
    env = env_with_tmp(tmp)
    bots = tmp / f"arena-bots-{os.getuid()}"
    bots.mkdir(mode=0o700)
    # A folder whose owner (pid 1 with another start time) is gone, as a killed run leaves.
    dead = f"stc-1.{(procinfo.start_time(1) or 0) + 12345}-leftover"
    assert procinfo.owner_alive(dead) is False
    fd = os.open(bots, os.O_RDONLY)
    os.mkdir(dead, dir_fd=fd)
    for _ in range(1200):
        new_fd = os.open(dead if _ == 0 else "d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = new_fd
        os.mkdir("d", dir_fd=fd)
    os.close(fd)
    greedy = REPO / "bots" / "stc" / "greedy.py"
    result = arena(
        "match",
        "stc",
        f"{sys.executable} {greedy}",
        f"{sys.executable} {greedy}",
        "--sandbox",
        "none",
        "--max_turns",
        "2",
        env=env,
    )
    assert result.returncode == 0, result.stderr
    assert "bug" not in result.stderr
    assert homes(tmp) == []
