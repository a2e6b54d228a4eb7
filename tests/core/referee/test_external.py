"""arena.ExternalProcess: the core's helper processes for games (lines, timeouts, clean-up)."""

from __future__ import annotations

import gc
import os
import sys
import textwrap
import time
from pathlib import Path

import pytest

from arena import ExternalProcess, ExternalProcessError, command_problem
from arena.referee.external import helper_scope


def script(tmp_path: Path, body: str) -> list[str]:
    path = tmp_path / "helper.py"
    path.write_text(textwrap.dedent(body))
    return [sys.executable, str(path)]


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


def gone(pid: int) -> bool:
    deadline = time.monotonic() + 5
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    return not alive(pid)


ECHO = """
import sys
print("ready", flush=True)
print("a note", file=sys.stderr, flush=True)
for line in sys.stdin:
    print(line.strip().upper() + "\\r", flush=True)
"""


def test_lines_go_both_ways_and_stderr_is_kept_in_the_game_folder(tmp_path):
    with helper_scope(tmp_path / "game"):
        helper = ExternalProcess(script(tmp_path, ECHO), name="echo", timeout_s=5)
        assert helper.read_line() == "ready"
        helper.send("hello\nworld\n")
        assert [helper.read_line(), helper.read_line()] == ["HELLO", "WORLD"]
        pid = helper.pid
    assert gone(pid)  # the scope's end killed it
    assert (tmp_path / "game" / "echo-stderr.txt").read_text() == "a note\n"


def test_a_silent_helper_times_out_with_its_last_stderr_line(tmp_path):
    helper = ExternalProcess(
        script(
            tmp_path,
            "import sys, time\nprint('thinking', file=sys.stderr, flush=True)\ntime.sleep(60)\n",
        ),
        name="slow",
        timeout_s=0.3,
    )
    started = time.perf_counter()
    with pytest.raises(
        ExternalProcessError,
        match=r"^slow: sent nothing for 0.3 s; its stderr: thinking$",
    ):
        helper.read_line()
    assert time.perf_counter() - started < 3
    helper.close()
    assert gone(helper.pid)


def test_a_helper_that_exits_or_stops_reading_is_an_error_not_a_hang(tmp_path):
    helper = ExternalProcess(script(tmp_path, "import sys\nsys.exit(5)\n"), name="quitter")
    with pytest.raises(ExternalProcessError, match=r"^quitter: closed its output \(exit code 5\)$"):
        helper.read_line()
    with pytest.raises(ExternalProcessError, match="stopped reading its input"):
        for _ in range(100):  # the pipe breaks once the process is gone
            helper.send("x" * 65536)
    helper.close()


def test_close_kills_everything_the_helper_started(tmp_path):
    body = """
    import subprocess, sys, time
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    print(child.pid, flush=True)
    time.sleep(60)
    """
    helper = ExternalProcess(script(tmp_path, body), name="parent", timeout_s=10)
    child = int(helper.read_line())
    assert alive(child)
    helper.close()
    helper.close()  # safe twice
    assert gone(helper.pid) and gone(child)
    with pytest.raises(ExternalProcessError, match="already closed"):
        helper.read_line()


def test_a_helper_nobody_closes_dies_with_its_owner(tmp_path):
    helper = ExternalProcess(script(tmp_path, "import time\ntime.sleep(60)\n"), name="orphan")
    pid = helper.pid
    del helper
    gc.collect()
    assert gone(pid)


def test_commands_are_checked_and_resolved_like_bot_commands(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ref.py").write_text("import os\nprint(os.getcwd())\n")
    assert command_problem(f"{sys.executable} ref.py") is None
    assert command_problem("jav -jar referee.jar") == "command not found: 'jav'"
    assert command_problem("python3 missing.py") == (
        f"file not found: 'missing.py' (looked for {Path.cwd() / 'missing.py'})"
    )
    with pytest.raises(
        ExternalProcessError, match=r"^referee 'jav -jar x.jar': command not found: 'jav'$"
    ):
        ExternalProcess("jav -jar x.jar", name="referee")
    helper = ExternalProcess(f"{sys.executable} ref.py", name="rel")
    # The relative path was made absolute; the helper runs in a private folder of its own.
    workdir = Path(helper.read_line())
    assert workdir != tmp_path and workdir.name.startswith("arena-rel-")
    helper.close()
    assert not workdir.exists()
    assert os.listdir(tmp_path) == ["ref.py"]
