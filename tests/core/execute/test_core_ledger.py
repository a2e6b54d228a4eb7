"""The machine's core ledger (``arena.cores``): arena runs of one machine take a core per
thinking bot for each game, wait for each other, never hold more cores than there are,
and a killed run frees its cores.

Every test uses a ledger folder of its own (``ARENA_CORE_LEDGER``) and reads what the runs
did from the ledger's trace (``ARENA_CORE_TRACE``: each take and give, in the order they
happened), never from timing. A run is held in its first game by a bot that waits for a
file the test creates (its budgets scaled up, so the wait is neither a timeout nor a stall).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena import cores
from arena.cores import CoreLedger, CoreWait
from arena.web.folder import Folder
from support import REPO, games_stored

GATE = """
import os, sys, time
while not os.path.exists({go!r}):
    time.sleep(0.01)
os.execv(sys.executable, [sys.executable, {bot!r}])
"""
GREEDY = str(REPO / "bots" / "stc" / "greedy.py")
RANDOM = str(REPO / "bots" / "stc" / "random_bot.py")
PATIENCE_S = 300.0
"""How long a test waits for a run to reach a state before it fails (never a measurement)."""


def need() -> int:
    """The cores an stc game takes here: both bots think at once, at most the machine's."""
    return min(2, len(cores.machine_cores()))


@pytest.fixture
def ledger_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A ledger folder and trace of this test's own (set here and for the runs it starts)."""
    folder = tmp_path / "ledger"
    env = {cores.ENV: str(folder), cores.TRACE_ENV: str(tmp_path / "trace")}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return env


def tournament(folder: Path, name: str, games: int, first: str = GREEDY, **keys: object) -> Path:
    """An stc tournament file: ``games`` short games of ``first`` against the random bot,
    one at a time, budgets 50 times CodinGame's (a held bot neither times out nor stalls)."""
    extra = "".join(f"{key}: {value}\n" for key, value in keys.items())
    path = folder / f"{name}.yaml"
    path.write_text(
        f"name: {name}\ngame: stc\ngames: {games}\nconcurrency: 1\nsandbox: none\n"
        f"clock_scale: 50\nsettings: {{max_turns: 3}}\n{extra}bots:\n"
        f"  - {{name: first, cmd: {sys.executable} {first}}}\n"
        f"  - {{name: random, cmd: {sys.executable} {RANDOM}}}\n"
        f"output: {folder / name}\n"
    )
    return path


def gate_bot(folder: Path) -> tuple[Path, Path]:
    """A bot that plays greedy once ``go`` exists (the file's path, the bot's)."""
    go = folder / "go"
    bot = folder / "gate.py"
    bot.write_text(GATE.format(go=str(go), bot=GREEDY))
    return go, bot


def start(path: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    """``arena run`` of ``path`` started (its own process: the run's pid)."""
    return subprocess.Popen(
        [sys.executable, "-m", "arena", "run", str(path), "--no-progress"],
        cwd=REPO,
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def trace(env: dict[str, str]) -> list[tuple[str, int, int, list[int]]]:
    """The ledger's trace: (what, pid, game, cores) per line, in order."""
    path = Path(env[cores.TRACE_ENV])
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        what, pid, game, held = line.split(" ")
        out.append((what, int(pid), int(game), [int(c) for c in held.split(",") if c]))
    return out


def until(condition: object, what: str) -> None:
    """Wait until ``condition()`` holds (checked every 10 ms), failing after PATIENCE_S."""
    give_up = time.monotonic() + PATIENCE_S
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < give_up, f"never: {what}"
        time.sleep(0.01)


def holds(env: dict[str, str], pid: int) -> bool:
    """Whether process ``pid`` holds cores now, as the trace says."""
    taken = 0
    for what, who, _, _ in trace(env):
        if who == pid:
            taken += {"take": 1, "give": -1}.get(what, 0)
    return taken > 0


def waiting(output: Path) -> str | None:
    """What the run of ``output`` waits for, as its status.json says."""
    try:
        return json.loads((output / "status.json").read_text())["waiting_for_cores"]
    except (OSError, ValueError, KeyError):
        return None


def never_more_than_the_ledger(env: dict[str, str]) -> int:
    """Replay the trace: no core is taken while held, at most every core is held; the
    most cores held at once."""
    held: dict[int, int] = {}  # core: holder pid
    most = 0
    for what, pid, _, taken in trace(env):
        for core in taken:
            if what == "take":
                assert core not in held, (
                    f"core {core} taken by {pid} while {held.get(core)} held it"
                )
                held[core] = pid
            elif what == "give":
                assert held.pop(core) == pid
        most = max(most, len(held))
    assert most <= len(cores.machine_cores())
    return most


@pytest.fixture
def runs() -> Iterator[list[subprocess.Popen[str]]]:
    """The runs a test starts, killed if it fails before they end."""
    started: list[subprocess.Popen[str]] = []
    yield started
    for proc in started:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


def test_a_second_run_waits_for_the_cores_of_the_first_then_both_store_every_game(
    tmp_path: Path, ledger_env: dict[str, str], runs: list[subprocess.Popen[str]]
) -> None:
    go, gate = gate_bot(tmp_path)
    first = start(tournament(tmp_path, "one", 1, first=str(gate)), ledger_env)
    runs.append(first)
    until(lambda: holds(ledger_env, first.pid), "the first run holds its cores")
    second = start(tournament(tmp_path, "two", 3), ledger_env)
    runs.append(second)
    until(lambda: waiting(tmp_path / "two"), "the second run says it waits")
    n = need()
    what = "a core" if n == 1 else f"{n} cores"
    message = (
        f"waiting for {what}: 1 game of another arena run is using them "
        f"({n} of {len(cores.machine_cores())} cores held by others)"
    )
    assert waiting(tmp_path / "two") == message  # status.json, as arena serve shows it
    assert Folder(tmp_path / "two").run_state(0).to_dict()["waiting_for_cores"] == message
    go.touch()  # the first run's game goes on
    _, err_one = first.communicate(timeout=PATIENCE_S)
    _, err_two = second.communicate(timeout=PATIENCE_S)
    assert first.returncode == 0, err_one
    assert second.returncode == 0, err_two
    # Said once: the second run waited once, for the first run's only game.
    assert err_two.splitlines().count(f"arena: {message}") == 1
    assert games_stored(tmp_path / "one") == 1
    assert games_stored(tmp_path / "two") == 3
    assert waiting(tmp_path / "two") is None  # the run is over: it waits for nothing
    assert never_more_than_the_ledger(ledger_env) == n
    takes = [(pid, game) for what, pid, game, _ in trace(ledger_env) if what == "take"]
    assert sorted(takes) == sorted(
        [(first.pid, 1), (second.pid, 1), (second.pid, 2), (second.pid, 3)]
    )


def test_a_run_killed_with_sigkill_frees_its_cores_and_the_other_goes_on(
    tmp_path: Path, ledger_env: dict[str, str], runs: list[subprocess.Popen[str]]
) -> None:
    _, gate = gate_bot(tmp_path)  # never let go: the first run's game stays in turn 1
    first = start(tournament(tmp_path, "one", 2, first=str(gate)), ledger_env)
    runs.append(first)
    until(lambda: holds(ledger_env, first.pid), "the first run holds its cores")
    second = start(tournament(tmp_path, "two", 2), ledger_env)
    runs.append(second)
    until(lambda: waiting(tmp_path / "two"), "the second run says it waits")
    os.kill(first.pid, signal.SIGKILL)
    _, err = second.communicate(timeout=PATIENCE_S)
    assert second.returncode == 0, err
    assert games_stored(tmp_path / "two") == 2
    assert games_stored(tmp_path / "one") == 0
    # The killed run never gave its cores back: the kernel dropped its locks.
    assert [w for w, pid, _, _ in trace(ledger_env) if pid == first.pid] == ["take"]
    assert [w for w, pid, _, _ in trace(ledger_env) if pid == second.pid] == ["take", "give"] * 2


def test_a_concurrency_above_the_fair_one_shares_only_its_own_cores_and_says_how_often(
    tmp_path: Path, ledger_env: dict[str, str]
) -> None:
    concurrency = len(cores.machine_cores()) // need() + 1  # one game more than fair
    games = 2 * concurrency
    path = tournament(tmp_path, "many", games)
    path.write_text(path.read_text().replace("concurrency: 1", f"concurrency: {concurrency}"))
    result = subprocess.run(
        [sys.executable, "-m", "arena", "run", str(path), "--no-progress"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=PATIENCE_S,
    )
    assert result.returncode == 0, result.stderr
    assert games_stored(tmp_path / "many") == games
    over = [line for line in trace(ledger_env) if line[0] == "over"]
    assert over  # the game beyond the fair ones started without its cores, at least once
    said = f"arena: {len(over)} game{'' if len(over) == 1 else 's'} played oversubscribed"
    assert said in result.stderr
    never_more_than_the_ledger(ledger_env)


def test_the_ledger_turned_off_takes_no_cores(
    tmp_path: Path, ledger_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cores.ENV, "off")
    result = subprocess.run(
        [sys.executable, "-m", "arena", "run", str(tournament(tmp_path, "alone", 2))],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=PATIENCE_S,
    )
    assert result.returncode == 0, result.stderr
    assert games_stored(tmp_path / "alone") == 2
    assert trace(ledger_env) == []
    assert not (tmp_path / "ledger").exists()


# -- the ledger itself ----------------------------------------------------------------------


def test_a_game_takes_all_its_cores_or_none_and_gives_them_back(tmp_path: Path) -> None:
    one = CoreLedger.open(tmp_path / "l", [0, 1, 2])
    other = CoreLedger.open(tmp_path / "l", [0, 1, 2])  # another process's, as flock sees it
    claim = one.take(2)
    assert claim is not None and claim.cores == [2, 1]
    assert other.take(2) is None  # one core is free, the game needs two: it takes none
    assert other.free() == [0]
    assert other.wait_info(2) == CoreWait(2, 3, 2, 1, 1)
    assert other.wait_info(2).message() == (
        "waiting for 2 cores: 1 game of another arena run is using them "
        "(2 of 3 cores held by others)"
    )
    claim.release()
    again = other.take(2)
    assert again is not None and again.cores == [2, 1]
    mode = os.stat(tmp_path / "l").st_mode & 0o7777
    assert mode == 0o1777
    assert all((tmp_path / "l" / f"core-{c}.lock").stat().st_mode & 0o777 == 0o666 for c in (1, 2))
    assert (tmp_path / "l" / "core-2.lock").read_text() == f"{os.getpid()} 1\n"


def test_a_forked_child_does_not_keep_a_core_its_parent_gave_back(tmp_path: Path) -> None:
    ledger = CoreLedger.open(tmp_path / "l", [0])
    claim = ledger.take(1)
    assert claim is not None
    read, write = os.pipe()
    started_r, started_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child: says it runs, waits until the parent is done
        os.close(write)
        os.write(started_w, b"r")
        os.read(read, 1)
        os._exit(0)
    os.close(read)
    os.close(started_w)
    try:
        assert os.read(started_r, 1) == b"r"  # the child is past its fork
        claim.release()
        assert CoreLedger.open(tmp_path / "l", [0]).take(1) is not None
    finally:
        os.close(write)
        os.close(started_r)
        os.waitpid(pid, 0)


def test_a_planted_symlink_is_not_followed_and_its_core_is_used_without_the_ledger(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "l"
    folder.mkdir(mode=0o1777)
    precious = tmp_path / "precious"
    precious.write_text("keep me\n")
    (folder / "core-1.lock").symlink_to(precious)
    os.mkfifo(folder / "core-0.lock")  # opening a fifo must not block either
    ledger = CoreLedger.open(folder, [0, 1, 2])
    claim = ledger.take(3)
    assert claim is not None and claim.cores == [2, 1, 0]
    assert len(claim.fds) == 1  # only core 2 has a lock
    assert precious.read_text() == "keep me\n"
    assert ledger.spoiled == {1: "a symbolic link", 0: "not a regular file"}
    assert ledger.warnings == [
        f"arena: warning: core ledger: {folder / 'core-1.lock'} is not arena's lock file "
        "(a symbolic link): core 1 is used without the ledger (see docs/fair-time.md)",
        f"arena: warning: core ledger: {folder / 'core-0.lock'} is not arena's lock file "
        "(not a regular file): core 0 is used without the ledger (see docs/fair-time.md)",
    ]
    claim.release()
    assert (folder / "core-1.lock").is_symlink()


def test_a_ledger_folder_that_is_a_symlink_is_refused(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "l").symlink_to(tmp_path / "real")
    with pytest.raises(OSError, match="not a folder"):
        CoreLedger.open(tmp_path / "l")


def test_a_planted_hard_link_is_not_written(tmp_path: Path) -> None:
    folder = tmp_path / "l"
    folder.mkdir(mode=0o1777)
    precious = tmp_path / "precious"
    precious.write_text("keep me\n")
    os.link(precious, folder / "core-0.lock")
    ledger = CoreLedger.open(folder, [0])
    claim = ledger.take(1)
    assert claim is not None and claim.fds == []
    assert precious.read_text() == "keep me\n"


PLAY = f"""
import arena
result = arena.play("stc", ["{sys.executable} {GREEDY}", "{sys.executable} {RANDOM}"],
                    settings={{"max_turns": 3}}, sandbox="none")
print(result.ranks)
"""


def test_arena_play_waits_for_the_cores_another_run_holds(
    tmp_path: Path, ledger_env: dict[str, str], runs: list[subprocess.Popen[str]]
) -> None:
    held = CoreLedger.open(tmp_path / "ledger").take(need())  # as another run's game would
    assert held is not None
    game = subprocess.Popen(
        [sys.executable, "-c", PLAY],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    runs.append(game)
    assert game.stderr is not None
    line = game.stderr.readline()  # arena.play says nothing else before its game
    assert line.startswith("arena: waiting for "), line
    assert [pid for _, pid, _, _ in trace(ledger_env)] == [os.getpid()]  # it took nothing
    held.release()
    out, err = game.communicate(timeout=PATIENCE_S)
    assert game.returncode == 0, err
    assert out.startswith("[")
    assert [(w, pid) for w, pid, _, _ in trace(ledger_env)] == [
        ("take", os.getpid()),
        ("give", os.getpid()),
        ("take", game.pid),
        ("give", game.pid),
    ]
