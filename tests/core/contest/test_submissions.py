"""A contest's versions: uploads stored, built in the sandbox, validated against themselves
and ranked in the league (real bots, real builds, the real league run)."""

from __future__ import annotations

import gzip
import io
import json
import os
import re
import shutil
import sqlite3
import tempfile
import threading
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from arena.botproc import bwrap_works
from arena.contest.submissions import Submissions, Version
from arena.contest.uploads import UploadRefused, UploadRules
from arena.errors import ConfigError
from arena.plugins.registry import load_registry
from arena.tournament.config import load_tournament
from arena.tournament.roster import read_roster
from support import REPO, run_arena, stc_cycler
from support.hostile import (
    kill_all,
    marker,
    needs_memory_cgroup,
    needs_pids_cgroup,
    stc_bot,
    survivors,
    wait_for,
)

CPP_BOT = (REPO / "tests/core/botbuild/bots/stc_bot.cpp").read_bytes()
BROKEN_CPP = (REPO / "tests/core/botbuild/bots/broken.cpp").read_bytes()
PYTHON_BOT = stc_cycler().encode()
GARBAGE_BOT = b"import sys\nsys.stdin.readline()\nprint('hello there', flush=True)\n"
"""Answers garbage on its first turn: it forfeits its validation game (invalid)."""
MakeLeague = Callable[..., Path]
RULES = UploadRules(("python", "cpp"), max_bytes=10_000, per_hour=20)


def states(subs: Submissions) -> list[tuple[str, str, str | None]]:
    return [(v.bot, v.state, v.reason) for v in subs.versions()]


def in_background(subs: Submissions) -> list[Version]:
    """``process_pending`` in a thread of its own, as the server calls it."""
    done: list[list[Version]] = []
    thread = threading.Thread(target=lambda: done.append(subs.process_pending()))
    thread.start()
    thread.join(timeout=600)
    assert done, "process_pending did not finish"
    return done[0]


def test_a_python_and_a_cpp_version_are_ranked_and_play_in_the_league(
    tmp_path: Path, contest_league: MakeLeague
) -> None:
    out = contest_league()
    subs = Submissions(out, RULES)
    first = subs.submit("alice", "bot.py", PYTHON_BOT)
    assert first == Version(
        "alice", 1, "alice-v1", "bot.py", "python", "queued", None, first.created
    )
    subs.submit("bob", "main.cpp", CPP_BOT)
    assert [v.state for v in subs.versions()] == ["queued", "queued"]
    done = in_background(subs)
    assert [(v.bot, v.state, v.reason) for v in done] == [
        ("alice-v1", "ranked", None),
        ("bob-v1", "ranked", None),
    ]
    assert states(subs) == [("alice-v1", "ranked", None), ("bob-v1", "ranked", None)]
    # The source as uploaded, kept under the owner's version, never under the given path.
    assert (out / "contest/uploads/alice/1/bot.py").read_bytes() == PYTHON_BOT
    assert subs.source("bob", 1) == CPP_BOT
    added = json.loads((out / "roster.json").read_text())["added"]
    assert added[0] == {
        "name": "alice-v1",
        "cmd": f"python3 {out}/contest/uploads/alice/1/bot.py",
        "owner": "alice",
    }
    assert added[1]["name"] == "bob-v1" and added[1]["owner"] == "bob"
    program = Path(added[1]["cmd"])
    assert program.parent.parent == out / "contest/builds/bob/1" and program.name == "bot"
    assert os.access(program, os.X_OK)
    log = subs.build_log("bob", 1)
    assert log.startswith("$ g++ -std=gnu++17 -O2 -pipe -o build/") and log.endswith("built\n")
    assert " main.cpp\n" in log and str(tmp_path) not in log  # no server path shown
    assert subs.build_log("alice", 1) == "python: nothing to build, the source runs as it is\n"
    # The validation game was played through, both seats the version itself.
    replay = json.loads((out / "contest/builds/bob/1/validation/replay.json").read_text())
    assert [s["bot"] for s in replay["seats"]] == ["bob-v1-seat1", "bob-v1-seat2"]
    assert [s["forfeit"] for s in replay["seats"]] == [None, None]
    # The league reads them with their owner, and plays them.
    config = load_tournament(out / "tournament.yaml", load_registry())
    assert [b.name for b in config.bots] == ["boss", "wall", "alice-v1", "bob-v1"]
    run = run_arena("run", str(out / "tournament.yaml"), "--games", "12", "--no-progress")
    assert run.returncode == 0, run.stderr
    db = sqlite3.connect(out / "arena.sqlite")
    try:
        played = {bot for (bot,) in db.execute("SELECT DISTINCT bot FROM seats")}
    finally:
        db.close()
    assert played == {"boss", "wall", "alice-v1", "bob-v1"}


def test_a_cpp_version_that_does_not_compile_never_joins(
    tmp_path: Path, contest_league: MakeLeague
) -> None:
    out = contest_league()
    subs = Submissions(out, RULES)
    subs.submit("carol", "broken.cpp", BROKEN_CPP)
    (done,) = subs.process_pending()
    assert done.state == "build failed"
    quote = "(‘;’|';')"  # the compiler's quotes follow the locale
    assert done.reason is not None
    assert re.fullmatch(
        rf"the build failed \(exit code 1\): broken\.cpp:2:22: error: expected {quote} "
        rf"before (‘}}’|'}}') token",
        done.reason,
    ), done.reason
    log = subs.build_log("carol", 1)
    assert log.startswith("$ g++ -std=gnu++17 -O2 -pipe -o build/")
    assert "broken.cpp: In function" in log
    assert re.search(rf"broken\.cpp:2:22: error: expected {quote}", log)
    assert "int main() { return 0 }" in log and str(tmp_path) not in log
    assert subs.versions()[0].reason == done.reason
    assert read_roster(out).added == ()  # never in roster.json


def test_a_build_log_keeps_the_first_64_kib_of_a_flood_of_warnings(
    contest_league: MakeLeague,
) -> None:
    out = contest_league()
    flood = b"".join(b"#warning %04d this line is a warning\n" % i for i in range(1500))
    subs = Submissions(out, UploadRules(("cpp",), max_bytes=100_000))
    subs.submit("alice", "bot.cpp", flood + CPP_BOT)
    (done,) = subs.process_pending()
    assert done.state == "ranked"
    log = subs.build_log("alice", 1)
    assert "bot.cpp:1:2: warning: #warning 0000 this line is a warning" in log
    assert log.endswith("\n... (the log goes on past 64 KiB)\nbuilt\n")
    assert "#warning 1499" not in log and len(log.encode()) < 64 * 1024 + 200


def test_a_version_that_forfeits_its_validation_game_is_invalid(contest_league: MakeLeague) -> None:
    out = contest_league()
    subs = Submissions(out, RULES)
    subs.submit("dave", "garbage.py", GARBAGE_BOT)
    (done,) = subs.process_pending()
    assert done.state == "invalid"
    assert done.reason == (
        "it forfeits its validation game: invalid (expected 'x [rotation] [message]'); "
        "it wrote 'hello there'"
    )
    assert read_roster(out).added == ()


def test_the_fourth_version_retires_the_first(contest_league: MakeLeague) -> None:
    out = contest_league()
    subs = Submissions(out, RULES, keep=3)
    for _ in range(3):
        subs.submit("alice", "bot.py", PYTHON_BOT)
    subs.submit("bob", "bot.py", PYTHON_BOT)
    subs.process_pending()
    assert [v.state for v in subs.versions("alice")] == ["ranked"] * 3
    subs.submit("alice", "bot.py", PYTHON_BOT)
    (fourth,) = subs.process_pending()
    assert (fourth.bot, fourth.state) == ("alice-v4", "ranked")
    assert [(v.bot, v.state) for v in subs.versions("alice")] == [
        ("alice-v1", "retired"),
        ("alice-v2", "ranked"),
        ("alice-v3", "ranked"),
        ("alice-v4", "ranked"),
    ]
    roster = read_roster(out)
    names = ["alice-v1", "alice-v2", "alice-v3", "bob-v1", "alice-v4"]
    assert [b["name"] for b in roster.added] == names
    assert roster.retired == ("alice-v1",)
    assert load_tournament(out / "tournament.yaml", load_registry()).retired == ("alice-v1",)


def zipped() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("bot.py", PYTHON_BOT)
    return buffer.getvalue()


@pytest.mark.parametrize(
    "name, data, message",
    [
        ("bot.py", b"#" * 10_001, "the file is too large: 10001 bytes, at most 10000 are accepted"),
        ("../x.py", PYTHON_BOT, "the file name must be a plain name, without '/', '\\' or '..'"),
        ("bot.py", b"\x7fELF\x02\x01\x01\0", "the file is not text (it holds NUL bytes): "
         "upload one source file"),
        ("bot.py", zipped(), "the file is an archive (zip): upload one source file"),
        ("bot.py", gzip.compress(gzip.compress(b"\0" * 10_000_000)),
         "the file is an archive (gzip): upload one source file"),
        ("bot.rb", b"puts 1\n", "'.rb' files are not accepted: the languages allowed are "
         "python (.py); cpp (.cpp .cc .cxx .c++)"),
    ],
)  # fmt: skip
def test_a_refused_upload_says_why_and_stores_nothing(
    tmp_path: Path, contest_league: MakeLeague, name: str, data: bytes, message: str
) -> None:
    out = contest_league()
    subs = Submissions(out, RULES)
    with pytest.raises(UploadRefused) as refused:
        subs.submit("eve", name, data)
    assert str(refused.value) == message
    assert subs.versions() == []
    assert not (out / "contest/uploads").exists()
    assert not (tmp_path / "x.py").exists()


def test_uploads_beyond_the_hourly_rate_are_refused(contest_league: MakeLeague) -> None:
    out = contest_league()
    subs = Submissions(out, UploadRules(("python",), per_hour=2))
    subs.submit("alice", "bot.py", PYTHON_BOT)
    subs.submit("alice", "bot.py", PYTHON_BOT)
    with pytest.raises(UploadRefused) as refused:
        subs.submit("alice", "bot.py", PYTHON_BOT)
    assert str(refused.value) == "too many uploads: at most 2 per hour; try again later"
    subs.submit("bob", "bot.py", PYTHON_BOT)  # another participant's own count
    # An upload older than an hour no longer counts.
    db = sqlite3.connect(out / "contest/contest.sqlite")
    with db:
        db.execute("UPDATE versions SET created = created - 3601 WHERE number = 1")
    db.close()
    assert subs.submit("alice", "bot.py", PYTHON_BOT).number == 3


def test_frozen_submissions_are_refused_and_stay_frozen_after_a_restart(
    contest_league: MakeLeague,
) -> None:
    out = contest_league()
    subs = Submissions(out, RULES)
    assert subs.frozen is False
    subs.frozen = True
    with pytest.raises(UploadRefused) as refused:
        Submissions(out, RULES).submit("alice", "bot.py", PYTHON_BOT)
    assert str(refused.value) == "submissions are frozen"
    subs.frozen = False
    assert subs.submit("alice", "bot.py", PYTHON_BOT).number == 1


def test_a_restart_processes_what_was_queued_or_half_done(contest_league: MakeLeague) -> None:
    out = contest_league()
    before = Submissions(out, RULES)
    before.submit("alice", "bot.py", PYTHON_BOT)
    before.submit("bob", "main.cpp", CPP_BOT)
    before.submit("carol", "bot.py", PYTHON_BOT)
    # The server stopped while bob's version built and carol's played its validation game.
    db = sqlite3.connect(out / "contest/contest.sqlite")
    with db:
        db.execute("UPDATE versions SET state = 'building' WHERE owner = 'bob'")
        db.execute("UPDATE versions SET state = 'validating' WHERE owner = 'carol'")
    db.close()
    half = out / "contest/builds/bob/1"
    half.mkdir(parents=True)
    (half / "build.log").write_text("half a log\n")
    after = Submissions(out, RULES)  # the server started again
    assert [v.bot for v in after.process_pending()] == ["alice-v1", "bob-v1", "carol-v1"]
    assert [(v.bot, v.state) for v in after.versions()] == [
        ("alice-v1", "ranked"),
        ("bob-v1", "ranked"),
        ("carol-v1", "ranked"),
    ]
    assert "half a log" not in after.build_log("bob", 1)
    assert after.process_pending() == []  # nothing twice
    assert [b["name"] for b in read_roster(out).added] == ["alice-v1", "bob-v1", "carol-v1"]


def test_a_removed_participant_retires_and_its_queue_is_never_played(
    contest_league: MakeLeague,
) -> None:
    out = contest_league()
    subs = Submissions(out, RULES)
    subs.submit("alice", "bot.py", PYTHON_BOT)
    subs.process_pending()
    subs.submit("alice", "bot.py", PYTHON_BOT)
    subs.retire_owner("alice")
    assert states(subs) == [
        ("alice-v1", "retired", None),
        ("alice-v2", "retired", "the participant was removed"),
    ]
    assert subs.process_pending() == []
    roster = read_roster(out)
    assert [b["name"] for b in roster.added] == ["alice-v1"]
    assert roster.retired == ("alice-v1",)


def test_a_participant_removed_while_its_version_validates_never_joins(
    contest_league: MakeLeague,
) -> None:
    out = contest_league(extra="clock_scale: 30\n")  # a first turn of 30 s: time to wait
    waiting = stc_bot(
        prelude="""
        import os, time
        gate = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gate")
        for _ in range(2000):  # at most 20 s: until the test opens the gate (in its folder)
            if os.path.exists(gate):
                break
            time.sleep(0.01)
        """
    )
    subs = Submissions(out, RULES)
    subs.submit("alice", "bot.py", waiting.encode())
    thread = threading.Thread(target=subs.process_pending)
    thread.start()
    try:
        assert wait_for(lambda: subs.versions()[0].state == "validating", timeout=120)
        subs.retire_owner("alice")
    finally:
        (subs.upload_dir("alice", 1) / "gate").touch()
        thread.join(timeout=600)
    assert states(subs) == [("alice-v1", "retired", "the participant was removed")]
    assert read_roster(out).added == ()


@pytest.mark.skipif(not os.path.isdir("/var/tmp"), reason="no /var/tmp here")
def test_a_participant_removed_while_its_version_builds_never_joins(
    contest_league: MakeLeague,
) -> None:
    # The build reads a FIFO the test holds (outside /tmp, which a bot's and a build's
    # private /tmp would hide): it is building until the test writes.
    folder = Path(tempfile.mkdtemp(prefix="arena-test-", dir="/var/tmp"))
    try:
        fifo = folder / "gate.h"
        os.mkfifo(fifo)
        out = contest_league()
        subs = Submissions(out, RULES)
        subs.submit("alice", "bot.cpp", f'#include "{fifo}"\n'.encode() + CPP_BOT)
        thread = threading.Thread(target=subs.process_pending)
        thread.start()
        try:
            assert wait_for(lambda: subs.versions()[0].state == "building", timeout=120)
            subs.retire_owner("alice")
        finally:
            assert wait_for(lambda: open_gate(fifo), timeout=120), "the build never read it"
            thread.join(timeout=600)
        assert states(subs) == [("alice-v1", "retired", "the participant was removed")]
        assert read_roster(out).added == ()
    finally:
        shutil.rmtree(folder)


def open_gate(fifo: Path) -> bool:
    """Write an empty header into ``fifo`` once its reader (the compiler) opened it."""
    try:
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    except OSError:  # ENXIO: no reader yet
        return False
    os.write(fd, b"// the gate\n")
    os.close(fd)
    return True


def test_an_unknown_version_or_owner_is_not_found(contest_league: MakeLeague) -> None:
    subs = Submissions(contest_league(), RULES)
    assert subs.version("alice", 1) is None
    with pytest.raises(KeyError):
        subs.source("alice", 1)
    with pytest.raises(KeyError):
        subs.build_log("alice", 1)
    for owner in ("../x", "Alice", "", "a/b"):
        with pytest.raises(ValueError):
            subs.submit(owner, "bot.py", PYTHON_BOT)


# -- the hostile-bot suite on uploaded bots (bubblewrap: what a contest must use) ----------

FORK_BOMB = """
import os, sys, time
forked = 0
for _ in range(1000):  # bounded: a regression cannot take the machine down
    try:
        if os.fork() == 0:
            time.sleep(30)
            os._exit(0)
        forked += 1
    except OSError:
        break
sys.stderr.write(f"forked {forked}\\n")
"""

FILE_ESCAPE = """
import os, sys
OUTPUT = {output!r}
for path in [OUTPUT + "/contest/contest.sqlite", OUTPUT + "/contest/uploads/alice/1/bot.py",
             OUTPUT + "/roster.json", OUTPUT + "/tournament.yaml"]:
    try:
        open(path, "rb").read()
        sys.stderr.write(f"read {{path}}\\n")
    except OSError as exc:
        sys.stderr.write(f"cannot read: {{type(exc).__name__}}\\n")
for path in [OUTPUT + "/contest/evil", OUTPUT + "/roster.json", OUTPUT + "/evil"]:
    try:
        with open(path, "w") as f:
            f.write("{{}}")
        sys.stderr.write(f"wrote {{path}}\\n")
    except OSError as exc:
        sys.stderr.write(f"cannot write: {{type(exc).__name__}}\\n")
try:
    sys.stderr.write(f"listed {{os.listdir(OUTPUT + '/contest')}}\\n")
except OSError as exc:
    sys.stderr.write(f"cannot list: {{type(exc).__name__}}\\n")
"""

INCLUDE_ESCAPE = """\
#include "{output}/contest/uploads/alice/1/bot.py"
int main() {{ return 0; }}
"""

COMPILE_BOMB = """\
#include "/dev/zero"
int main() { return 0; }
"""
"""The preprocessor reads zeros for ever, its memory growing: the build's caps stop it."""


def hostile_upload(hostile: str, out: Path, mark: str) -> tuple[str, str]:
    """(file name, source) of each hostile upload; its name carries ``mark``, so every
    process it starts can be found."""
    if hostile == "fork-bomb":
        return f"{mark}.py", stc_bot(prelude=FORK_BOMB)
    if hostile == "file-escape":
        return f"{mark}.py", stc_bot(prelude=FILE_ESCAPE.format(output=str(out)))
    if hostile == "include-escape":
        return f"{mark}.cpp", INCLUDE_ESCAPE.format(output=str(out))
    return f"{mark}.cpp", COMPILE_BOMB


def check_hostile(hostile: str, done: Version, out: Path) -> None:
    """What each hostile upload comes to: refused with its reason, or ranked when the
    sandbox made its attack harmless."""
    if hostile == "include-escape":  # the compiler sees no file of the contest
        assert done.state == "build failed"
        assert done.reason == (
            f"the build failed (exit code 1): {done.filename}:1:10: fatal error: "
            "OUTPUT/contest/uploads/alice/1/bot.py: No such file or directory"
        )
        return
    if hostile == "compile-bomb":
        assert done.state == "build failed" and done.reason is not None
        assert done.reason.startswith(
            "the build was killed by its memory cap (256 MiB, build_memory_mb)"
        ), done.reason
        return
    assert (done.state, done.reason) == ("ranked", None)  # it played its game through
    stderr = (out / "contest/builds/mallory/1/validation/stderr-0-mallory-v1-seat1.txt").read_text()
    if hostile == "fork-bomb":
        forked = int(re.search(r"forked (\d+)", stderr).group(1))  # type: ignore[union-attr]
        assert forked < 64  # the pids cap of every bot (max_processes)
    else:  # it sees nothing of the contest but the way to its own source (read-only)
        assert stderr == (
            "cannot read: FileNotFoundError\n" * 4
            + "cannot write: PermissionError\n" * 3
            + "listed ['uploads']\n"
        )


@pytest.mark.skipif(not bwrap_works(), reason="bubblewrap does not work here")
@pytest.mark.parametrize(
    "hostile",
    [
        pytest.param("fork-bomb", marks=needs_pids_cgroup),
        "file-escape",
        "include-escape",
        pytest.param("compile-bomb", marks=needs_memory_cgroup),
    ],
)
def test_hostile_uploads_are_ranked_or_refused_and_never_touch_the_contest(
    contest_league: MakeLeague, hostile: str
) -> None:
    out = contest_league(sandbox="bwrap", extra="build_memory_mb: 256\n")
    subs = Submissions(out, RULES)
    subs.submit("alice", "bot.py", PYTHON_BOT)
    (alice,) = subs.process_pending()
    assert alice.state == "ranked"
    roster_before = json.loads((out / "roster.json").read_text())
    mark = marker()
    name, source = hostile_upload(hostile, out, mark)
    try:
        subs.submit("mallory", name, source.encode())
        (done,) = subs.process_pending()
        assert survivors(mark) == []  # nothing it started outlives its game or build
    finally:
        kill_all(mark)
    check_hostile(hostile, done, out)
    # Nothing of the contest changed but the new version's own entry.
    assert subs.source("alice", 1) == PYTHON_BOT
    assert not (out / "contest/evil").exists() and not (out / "evil").exists()
    roster = json.loads((out / "roster.json").read_text())
    assert roster["added"][:1] == roster_before["added"] and roster["retired"] == []
    assert sorted(os.listdir(out / "contest")) == [
        ".process.lock", ".roster.lock", "builds", "contest.sqlite", "uploads"
    ]  # fmt: skip


def test_without_the_leagues_file_nothing_is_lost(contest_league: MakeLeague) -> None:
    out = contest_league()
    league = (out / "tournament.yaml").read_text()
    (out / "tournament.yaml").unlink()
    subs = Submissions(out, RULES)
    subs.submit("alice", "bot.py", PYTHON_BOT)
    with pytest.raises(ConfigError) as refused:
        subs.process_pending()
    assert str(out / "tournament.yaml") in str(refused.value)
    assert [v.state for v in subs.versions()] == ["queued"]  # taken up once the file is back
    (out / "tournament.yaml").write_text(league)
    assert [v.state for v in subs.process_pending()] == ["ranked"]


LEAGUE_PROBE = """
import os, sys
OUTPUT = {output!r}
for path in [OUTPUT + "/contest/uploads/alice/1/bot.py", OUTPUT + "/contest/builds/alice/1",
             OUTPUT + "/contest/contest.sqlite", OUTPUT + "/arena.sqlite"]:
    try:
        os.stat(path)
        sys.stderr.write(f"saw {{path}}\\n")
    except OSError as exc:
        sys.stderr.write(f"cannot see: {{type(exc).__name__}}\\n")
try:
    open(OUTPUT + "/contest/uploads/mallory/1/{mark}.py", "a").write("# changed")
    sys.stderr.write("changed its own source\\n")
except OSError as exc:
    sys.stderr.write(f"cannot change its source: {{type(exc).__name__}}\\n")
if os.fork() == 0:  # a child left behind, to outlive the game
    os.setsid()
    import time
    time.sleep(600)
    os._exit(0)
"""


@pytest.mark.skipif(not bwrap_works(), reason="bubblewrap does not work here")
def test_an_uploaded_bot_in_league_games_sees_no_other_participant_and_leaves_nothing(
    contest_league: MakeLeague,
) -> None:
    """The hostile checks hold in the league's own games too, where an uploaded bot plays
    next to others' uploads: it sees no other participant's source or build, nor the
    contest's databases, cannot change its own source, and what it starts dies with it."""
    out = contest_league(sandbox="bwrap")
    subs = Submissions(out, RULES)
    mark = marker()
    subs.submit("alice", "bot.py", PYTHON_BOT)
    probe = stc_bot(prelude=LEAGUE_PROBE.format(output=str(out), mark=mark))
    subs.submit("mallory", f"{mark}.py", probe.encode())
    try:
        assert [v.state for v in in_background(subs)] == ["ranked", "ranked"]
        run = run_arena("run", str(out / "tournament.yaml"), "--games", "12", "--no-progress")
        assert run.returncode == 0, run.stderr
        assert survivors(mark) == []
    finally:
        kill_all(mark)
    db = sqlite3.connect(out / "arena.sqlite")
    try:
        said = [  # each of its seats' stderr file, in its game's folder
            (out / folder / name).read_text()
            for folder, name in db.execute(
                "SELECT g.dir, s.stderr FROM seats s JOIN games g ON g.id = s.game_id"
                " WHERE s.bot = 'mallory-v1'"
            )
        ]
        met = {bot for (bot,) in db.execute(
            "SELECT DISTINCT o.bot FROM seats m JOIN seats o ON o.game_id = m.game_id"
            " WHERE m.bot = 'mallory-v1' AND o.bot != 'mallory-v1'"
        )}  # fmt: skip
    finally:
        db.close()
    assert "alice-v1" in met  # it did play next to Alice's upload
    seen = "cannot see: FileNotFoundError\n" * 4 + "cannot change its source: PermissionError\n"
    assert said and all(stderr == seen for stderr in said), said
    assert subs.source("mallory", 1) == probe.encode() and subs.source("alice", 1) == PYTHON_BOT
