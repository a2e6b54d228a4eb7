"""However ``arena serve`` ends (SIGKILL, SIGTERM, SIGHUP as when its terminal closes), the
league run it started ends too, within seconds, and frees the output folder's lock: the next
``arena serve contest.yaml`` starts the league again and has lost no upload, no account and
no stored game. Real servers, real league runs, real signals."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
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
from support import REPO, games_stored, stc_cycler

pytest.importorskip("arena.contest.submissions")

WAIT_S = 240.0  # builds, games and starts on a loaded two-core machine
RUN_END_S = 30.0  # a run whose server died ends in a few seconds (its short games first)


def wait_for(what: str, check: Callable[[], object], seconds: float = WAIT_S) -> object:
    """Poll ``check`` until it answers something true; fail naming ``what`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if found := check():
            return found
        time.sleep(0.2)
    raise AssertionError(f"after {seconds:.0f} s: still no {what}")


def children(pid: int) -> list[int]:
    """The process ids of ``pid``'s children (every thread's)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(p) for p in (task / "children").read_text().split()]
    return found


def league_run(server_pid: int, tournament: Path) -> int | None:
    """The process id of the run the server started of ``tournament``, if it runs."""
    for pid in children(server_pid):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if str(tournament).encode() in argv:
            return pid
    return None


def gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie has: only its exit status is left)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state in ("Z", "X")


def lock_free(output: Path) -> bool:
    """Whether nothing holds the output folder's run lock (``.arena.lock``)."""
    fd = os.open(output / ".arena.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    finally:
        os.close(fd)  # and with it the lock, if taken
    return True


def ranked(client: Client, number: int) -> bool:
    return f'data-version="{number}" data-state="ranked"' in client.get("/me").body


def test_a_killed_server_stops_its_league_and_a_restart_loses_nothing(tmp_path: Path) -> None:
    path = contest_file(tmp_path, invite="[bob]", languages="[python]")
    tournament = tmp_path / "out" / "tournament.yaml"
    first = start_contest(path)
    try:
        bob = Client(first)
        assert bob.set_password(first.links["bob"], PASSWORD).status == 303
        bob.get("/me")
        bot = stc_cycler(message="bob-was-here").encode()
        assert bob.post("/me/upload", files={"file": ("bot.py", bot)}).status in (200, 303)
        wait_for("ranked version", lambda: ranked(bob, 1))
        run = wait_for("league run", lambda: league_run(first.proc.pid, tournament))
        wait_for("bob-v1 on the leaderboard", lambda: "bob-v1" in Client(first).get("/").body)
        stored = wait_for("stored game", lambda: games_stored(first.output))
    finally:
        first.proc.kill()  # SIGKILL: the server has no say
        first.proc.communicate()
    assert isinstance(run, int) and isinstance(stored, int)
    wait_for(
        f"end of the league run {run} once its server was killed", lambda: gone(run), RUN_END_S
    )
    assert lock_free(first.output)
    log = (first.output / "serve-run.log").read_text()
    assert "interrupted (SIGINT)" in log  # stopped as Ctrl-C stops it: games stored whole

    second = start_contest(path)
    try:
        again = wait_for("new league run", lambda: league_run(second.proc.pid, tournament))
        assert again != run
        assert games_stored(second.output) >= stored  # no stored game lost
        wait_for("game played after the restart", lambda: games_stored(second.output) > stored)
        bob = Client(second)
        assert bob.sign_in("bob", PASSWORD).status == 303  # the account and its password
        assert ranked(bob, 1)  # the upload, still in the league
        assert bob.get("/me/versions/1").body.count("bob-was-here") >= 1  # its source
        assert not gone(again)  # the league plays on: it did get the folder's lock
    finally:
        code, err = stop_contest(second)
    assert code == 130 and "Traceback" not in err, err
    assert "another arena is running" not in (second.output / "serve-run.log").read_text()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_terminated_or_hung_up_contest_server_stops_its_league(
    tmp_path: Path, signum: int
) -> None:
    """SIGTERM (``kill``) and SIGHUP (the terminal closed) end the server as Ctrl-C does."""
    path = contest_file(tmp_path)
    server: ContestServer = start_contest(path)
    tournament = tmp_path / "out" / "tournament.yaml"
    try:
        run = wait_for("league run", lambda: league_run(server.proc.pid, tournament))
        wait_for("stored game", lambda: games_stored(server.output))
        server.proc.send_signal(signum)
        _, err = server.proc.communicate(timeout=WAIT_S)
    finally:
        if server.proc.poll() is None:
            server.proc.kill()
            server.proc.communicate()
    assert server.proc.returncode == 128 + signal.SIGTERM, err
    assert "Traceback" not in err and "arena: interrupted" in err, err
    assert isinstance(run, int) and gone(run)  # stopped and waited for, before the exit
    assert lock_free(server.output)


def test_a_killed_tournament_server_stops_its_run(tmp_path: Path) -> None:
    """``arena serve TOURNAMENT.yaml`` runs its tournament the same way."""
    bot = tmp_path / "cycler.py"
    bot.write_text(stc_cycler())
    tournament = tmp_path / "t.yaml"
    tournament.write_text(
        "game: stc\nformat: round-robin\ngames: 100000\nconcurrency: 1\nsandbox: none\n"
        "settings: {max_turns: 6}\n"
        f"bots:\n  - {{name: a, cmd: {sys.executable} {bot}}}\n"
        f"  - {{name: b, cmd: {sys.executable} {bot}}}\n"
        f"output: {tmp_path / 'out'}\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "arena", "serve", str(tournament), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
    )
    try:
        run = wait_for("tournament run", lambda: league_run(proc.pid, tournament))
        wait_for("stored game", lambda: games_stored(tmp_path / "out"))
    finally:
        proc.kill()
        proc.communicate()
    assert isinstance(run, int)
    wait_for(f"end of the run {run} once its server was killed", lambda: gone(run), RUN_END_S)
    assert lock_free(tmp_path / "out")


def final_state(ada: Client) -> str:
    page = ada.get("/organise").body
    return page.split('<b id="final-state">', 1)[1].split("</b>", 1)[0]


def test_a_final_cut_short_by_a_killed_server_is_stopped_not_done(tmp_path: Path) -> None:
    """The final ranking plays in the server: killed during it, the restarted server says
    it stopped (not done, nothing published as final) and running it again resumes it."""
    path = contest_file(tmp_path, invite="[bob, carol]", languages="[python]", final_games="400")
    first = start_contest(path)
    try:
        ada = Client(first)
        assert ada.set_password(first.links["Ada"], PASSWORD).status == 303
        for name, width in (("bob", 6), ("carol", 3)):
            person = Client(first)
            assert person.set_password(first.links[name], PASSWORD).status == 303
            person.get("/me")
            upload = {"file": ("bot.py", stc_cycler(width).encode())}
            assert person.post("/me/upload", files=upload).status in (200, 303)
            wait_for(f"{name}'s ranked version", lambda p=person: ranked(p, 1))
        ada.get("/organise")
        assert ada.post("/organise/final").status in (200, 303)
        played = wait_for("final game", lambda: games_stored(first.output / "final"))
        assert final_state(ada) == "running"
    finally:
        first.proc.kill()
        first.proc.communicate()
    assert isinstance(played, int)

    second = start_contest(path)
    try:
        ada = Client(second)
        assert ada.sign_in("Ada", PASSWORD).status == 303
        assert final_state(ada) == "stopped"
        assert (
            "the server stopped before its end: run it again to finish it"
            in ada.get("/organise").body
        )
        assert '<a href="/final">' not in ada.get("/organise").body  # no final to see yet
        exported = json.loads(ada.get("/organise/export.json").body)
        assert exported["leaderboard"] == "league"  # a final cut short is no ranking yet
        kept = games_stored(second.output / "final")
        assert kept >= played
        ada.get("/organise")
        assert ada.post("/organise/final").status in (200, 303)
        assert final_state(ada) == "running"
        wait_for(
            "final game after the restart", lambda: games_stored(second.output / "final") > kept
        )
    finally:
        code, err = stop_contest(second)
    assert code == 130, err
