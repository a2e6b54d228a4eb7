"""The referee with real bot processes: clocks, forfeits with reasons, queries, cleanup."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from arena.botproc import Sandbox, bwrap_works, cgroups, procinfo
from arena.referee.engine import Referee
from support import REPO, loop_bot
from support.toygame import ToyGame

SANDBOXES = [Sandbox("none")] + ([Sandbox("bwrap")] if bwrap_works() else [])


def play(game, bots, tmp_path: Path, sandbox=None, **settings):
    merged = {**game.info.settings, **settings}
    return Referee(game, bots, tmp_path / "game", sandbox or Sandbox("none")).play(7, merged)


@pytest.mark.parametrize("sandbox", SANDBOXES, ids=lambda s: s.kind)
def test_two_bots_play_to_the_end_and_the_replay_has_every_byte(make_bot, tmp_path, sandbox):
    bots = [make_bot("one", loop_bot("1")), make_bot("two", loop_bot("2"))]
    record = play(ToyGame(), bots, tmp_path, sandbox, turns=3)
    assert [s.score for s in record.seats] == [3, 6]
    assert [s.rank for s in record.seats] == [1, 0]
    assert [s.forfeit for s in record.seats] == [None, None]
    assert record.steps == 3 and record.turns == 3
    replay = json.loads((tmp_path / "game" / "replay.json").read_text())
    assert replay["players"] == ["one", "two"]
    assert [step["io"]["0"]["input"] for step in replay["steps"]] == [
        "turn 0\n",
        "turn 1\n",
        "turn 2\n",
    ]
    assert replay["steps"][1]["moves"] == {"0": "1", "1": "2"}
    assert replay["outcome"] == {"ranks": [1, 0], "scores": [3.0, 6.0], "reason": "done"}


# Sleeps ``ms`` after reading each input, then reports how long it took, read to write.
SELF_TIMED_SLEEPER = """
import sys, time
for line in sys.stdin:
    start = time.perf_counter()
    time.sleep({ms} / 1000)
    sys.stderr.write(f"{{(time.perf_counter() - start) * 1000!r}}\\n")
    sys.stderr.flush()
    print(1, flush=True)
"""


def test_a_tenth_of_the_budget_never_times_out_twice_the_budget_always_does(make_bot, tmp_path):
    # Why this cannot flake: each bot reports the time it took itself, from having read
    # its input to writing its answer, and the referee's clock starts before the write
    # that completes the input and stops after the read that brings the answer, so its
    # measure is never less than the bot's own: a margin-free bound, whatever the load.
    # Twice the budget is then always a timeout. A tenth of it could only time out if the
    # machine stalled 180 ms of the bot's 200: sizes far from the bound. A clock that
    # started late (after the write returned, from a descheduled referee) would measure
    # less than the bot's own time, and fail here.
    game = ToyGame()
    game.info = replace(ToyGame.info, turn_ms=200)
    fast = make_bot("fast", SELF_TIMED_SLEEPER.format(ms=20))  # 10% of 200 ms
    slow = make_bot("slow", SELF_TIMED_SLEEPER.format(ms=400))  # 200% of 200 ms
    record = play(game, [fast, fast], tmp_path, turns=8)
    assert [s.forfeit for s in record.seats] == [None, None]
    steps = json.loads((tmp_path / "game" / "replay.json").read_text())["steps"]
    for seat in (0, 1):
        log = (tmp_path / "game" / record.seats[seat].stderr).read_text()
        own = [float(ms) for ms in log.split()]
        measured = [step["io"][str(seat)]["ms"] for step in steps]
        assert len(own) == len(measured) == 8
        assert all(o >= 20 for o in own)
        assert [m >= o for m, o in zip(measured, own, strict=True)] == [True] * 8
    for _ in range(2):
        record = play(game, [fast, slow], tmp_path, turns=8)
        assert record.seats[1].forfeit == "timeout"
        assert record.seats[1].detail == "no answer within 200 ms"
        assert record.seats[0].forfeit is None and record.seats[0].rank == 0
        assert record.seats[1].rank == 1


def test_first_turn_gets_the_longer_clock(make_bot, tmp_path):
    game = ToyGame()
    game.info = replace(ToyGame.info, first_turn_ms=1500, turn_ms=100)
    slow_start = make_bot("slow_start", "import time, sys\ntime.sleep(0.5)\n" + loop_bot("1"))
    record = play(game, [slow_start, slow_start], tmp_path, turns=3)
    assert [s.forfeit for s in record.seats] == [None, None]


CASES = {
    "crash": (
        "import sys\nsys.stdin.readline()\nraise SystemExit(3)\n",
        "crash",
        "exited with code 3",
    ),
    "garbage": (loop_bot("hello"), "invalid", "expected a whole number"),
    "illegal": (loop_bot("-5"), "illegal", "negative numbers are illegal"),
    "hang": (
        "import sys, time\nprint(1, flush=True)\nsys.stdin.readline()\ntime.sleep(60)\n",
        "timeout",
        "no answer within 300 ms",
    ),
    "flood": (
        "import sys\nsys.stdin.readline()\nsys.stdout.write('9' * 10_000_000)\nsys.stdout.flush()\n"
        "import time\ntime.sleep(60)\n",
        "invalid",
        "output flood: over 65536 bytes in one line",
    ),
}


@pytest.mark.parametrize("case", ["crash", "garbage", "illegal", "hang", "flood"])
def test_bad_bots_lose_with_the_reason_and_raw_output(make_bot, tmp_path, case):
    source, reason, detail = CASES[case]
    good = make_bot("good", loop_bot("1"))
    bad = make_bot("bad", source)
    start = time.monotonic()
    record = play(ToyGame(), [good, bad], tmp_path, turns=3)
    assert time.monotonic() - start < 30  # the arena never hangs on a bot
    assert record.seats[1].forfeit == reason
    assert detail in record.seats[1].detail
    assert record.seats[0].forfeit is None
    assert [s.rank for s in record.seats] == [0, 1]
    if case in ("garbage", "illegal"):
        assert record.seats[1].raw == ("hello" if case == "garbage" else "-5")
    if case == "flood":
        assert record.seats[1].raw == "9" * 200


def test_a_bot_that_never_reads_its_input_cannot_block_the_referee(make_bot, tmp_path):
    game = ToyGame()
    # 300 kB prompts fill the pipe of a bot that never reads.
    game.prompt = lambda state, seat: "x" * 300_000 + "\n"  # type: ignore[method-assign]
    deaf = make_bot("deaf", "import time\ntime.sleep(60)\n")
    good = make_bot("good", loop_bot("1"))
    record = play(game, [good, deaf], tmp_path, turns=2)
    assert record.seats[1].forfeit == "timeout"
    assert record.seats[1].detail == "did not read its input"


def test_late_answers_count_as_timeouts_with_the_time_they_took(make_bot, tmp_path):
    game = ToyGame()
    game.info = replace(ToyGame.info, turn_ms=100)
    late = make_bot("late", loop_bot("1", sleep=0.25))
    record = play(game, [late, late], tmp_path, turns=3)
    assert {s.forfeit for s in record.seats} == {"timeout"}
    assert record.seats[0].rank == record.seats[1].rank == 0  # both lost: a draw


def test_comment_lines_are_skipped_and_queries_answered_inside_the_turn(make_bot, tmp_path):
    asker = make_bot(
        "asker",
        """
        import sys
        for line in sys.stdin:
            print("# thinking", flush=True)
            print("ask", flush=True)
            reply = sys.stdin.readline().strip()
            print(reply.split()[1], flush=True)
        """,
    )
    record = play(ToyGame(), [asker, asker], tmp_path, turns=2)
    assert [s.score for s in record.seats] == [84, 84]
    replay = json.loads((tmp_path / "game" / "replay.json").read_text())
    assert replay["steps"][0]["io"]["0"]["lines"] == ["# thinking", "ask", "42"]


def test_stderr_is_captured_per_bot_and_bounded(make_bot, tmp_path):
    chatty = make_bot(
        "chatty",
        """
        import sys
        for line in sys.stdin:
            sys.stderr.write("thinking hard\\n" + "z" * 3_000_000 + "\\n")
            sys.stderr.flush()
            print(1, flush=True)
        """,
    )
    quiet = make_bot("quiet", loop_bot("1"))
    record = play(ToyGame(), [chatty, quiet], tmp_path, turns=2)
    assert record.seats[0].forfeit is None
    log = (tmp_path / "game" / record.seats[0].stderr).read_bytes()
    assert log.startswith(b"thinking hard\n")
    assert 1024 * 1024 < len(log) < 1024 * 1024 + 200
    assert b"[arena: stderr truncated" in log
    assert (tmp_path / "game" / record.seats[1].stderr).read_bytes() == b""


def _processes_with(marker: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
                state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if marker.encode() in cmdline and state != "Z":
                found.append(int(entry))
    return found


@pytest.mark.parametrize("sandbox", SANDBOXES, ids=lambda s: s.kind)
@pytest.mark.parametrize("escape", ["fork", "setsid"])
def test_everything_a_bot_started_is_killed_at_the_end(make_bot, tmp_path, sandbox, escape):
    marker = f"arena-test-child-{escape}-{sandbox.kind}-{os.getpid()}"
    forker = make_bot(
        "forker",
        f"""
        import os, sys
        if os.fork() == 0:
            {"os.setsid()" if escape == "setsid" else "pass"}
            code = "import time; time.sleep(120)"
            os.execv(sys.executable, [sys.executable, "-c", code, {marker!r}])
        for line in sys.stdin:
            print(1, flush=True)
        """,
    )
    good = make_bot("good", loop_bot("1"))
    record = play(ToyGame(), [forker, good], tmp_path, sandbox, turns=2)
    assert record.seats[0].forfeit is None
    for _ in range(50):
        if not _processes_with(marker):
            break
        time.sleep(0.05)
    assert _processes_with(marker) == []


def test_bots_start_in_their_own_empty_directories(make_bot, tmp_path):
    peek = make_bot(
        "peek",
        """
        import os, sys
        for line in sys.stdin:
            sys.stderr.write(os.getcwd() + "|" + ",".join(os.listdir(".")) + "\\n")
            open("mine.txt", "w").write("x")
            print(1, flush=True)
        """,
    )
    record = play(ToyGame(), [peek, peek], tmp_path, turns=1)
    logs = [(tmp_path / "game" / s.stderr).read_text().strip() for s in record.seats]
    dirs = [line.split("|") for line in logs]
    assert dirs[0][0] != dirs[1][0]
    assert dirs[0][1] == dirs[1][1] == ""
    # Removed while the next game's bots start (the referee waits for them anyway).
    play(ToyGame(), [peek, peek], tmp_path / "next", turns=1)
    assert not Path(dirs[0][0]).exists() and not Path(dirs[1][0]).exists()


def test_the_bot_folders_of_the_last_game_are_removed_when_the_process_exits(tmp_path):
    bot = tmp_path / "where.py"
    bot.write_text(
        "import os, sys\nfor line in sys.stdin:\n"
        "    sys.stderr.write(os.getcwd())\n    print(1, flush=True)\n"
    )
    script = f"""
from pathlib import Path
from arena.botproc import Sandbox
from arena.referee.engine import BotSpec, Referee
from support.toygame import ToyGame
bot = BotSpec("where", ({sys.executable!r}, {str(bot)!r}))
game = ToyGame()
settings = {{**game.info.settings, "turns": 1}}
Referee(game, [bot, bot], Path({str(tmp_path / "game")!r}), Sandbox("none")).play(7, settings)
"""
    tests = REPO / "tests"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(tests), os.environ.get("PYTHONPATH", "")]),
    }
    subprocess.run([sys.executable, "-c", script], check=True, env=env, timeout=120)
    folder = Path((tmp_path / "game" / "stderr-0-where.txt").read_text())
    assert folder.name == "seat0" and folder.parent.parent.name.startswith("arena-bots")
    assert not folder.parent.exists()


def test_a_multiplayer_forfeit_drops_one_seat_and_the_game_goes_on(make_bot, tmp_path):
    good = make_bot("good", loop_bot("2"))
    bad = make_bot("bad", loop_bot("oops"))
    record = play(ToyGame(), [good, bad, good], tmp_path, simultaneous=False, turns=3)
    assert record.seats[1].forfeit == "invalid"
    assert [s.score for s in record.seats] == [6, 0, 6]
    assert [s.rank for s in record.seats] == [0, 2, 0]


@pytest.mark.skipif(not bwrap_works(), reason="bubblewrap is not usable here")
def test_sandboxed_bots_cannot_see_each_other_or_the_output_folder(make_bot, tmp_path):
    secret = tmp_path / "output"
    secret.mkdir()
    (secret / "arena.sqlite").write_text("results")
    peek = make_bot(
        "peek",
        f"""
        import os, sys
        home = os.path.dirname(os.getcwd())
        for line in sys.stdin:
            sys.stderr.write(repr((sorted(os.listdir(home)), os.path.exists({str(secret)!r}))) + "\\n")
            try:
                open("/etc/arena-was-here", "w")
                sys.stderr.write("wrote outside\\n")
            except OSError:
                pass
            print(1, flush=True)
        """,
    )
    sandbox = Sandbox("bwrap", hide=(str(secret),))
    record = play(ToyGame(), [peek, peek], tmp_path, sandbox, turns=1)
    for seat, s in enumerate(record.seats):
        log = (tmp_path / "game" / s.stderr).read_text()
        assert log == repr(([f"seat{seat}"], False)) + "\n"


def test_a_stored_replay_resimulates_to_the_same_outcome(make_bot, tmp_path):
    from arena import resimulate

    good = make_bot("good", loop_bot("2"))
    bad = make_bot("bad", loop_bot("oops"))
    game = ToyGame()
    record = play(game, [good, bad, good], tmp_path, simultaneous=False, turns=3)
    replay = json.loads((tmp_path / "game" / "replay.json").read_text())
    steps = list(resimulate(ToyGame(), replay))
    assert len(steps) == record.steps
    assert steps[1].actions == {}  # the forfeiting seat's step
    final = ToyGame().outcome(steps[-1].after)
    assert list(final.scores) == [s.score for s in record.seats] == [6, 0, 6]


@pytest.mark.skipif(cgroups.parents() is None, reason="no pids cgroup available here")
def test_a_fork_bomb_is_capped_loses_on_time_and_is_cleaned_up(make_bot, tmp_path):
    bomb = make_bot(
        "bomb",
        """
        import os, sys, time
        sys.stdin.readline()
        while True:
            try:
                os.fork()
            except OSError:
                time.sleep(0.01)  # the cap is reached: nothing more may start
        """,
    )
    good = make_bot("good", loop_bot("1"))
    sandbox = Sandbox("none", max_processes=32)
    start = time.monotonic()
    record = play(ToyGame(), [good, bomb], tmp_path, sandbox, turns=2)
    assert time.monotonic() - start < 30
    assert record.seats[1].forfeit == "timeout"
    assert record.seats[0].rank == 0
    for _ in range(50):
        if not _processes_with(bomb.argv[1]):
            break
        time.sleep(0.05)
    assert _processes_with(bomb.argv[1]) == []
    mine = f"arena-{procinfo.owner_tag()}-"
    groups = [p.name for d in cgroups.parents().folders() for p in d.iterdir()]
    assert [name for name in groups if name.startswith(mine)] == []


def test_a_forfeiting_bot_with_truncated_stderr_is_stopped_once_and_the_game_ends(
    make_bot, tmp_path
):
    noisy = make_bot(
        "noisy",
        """
        import sys
        sys.stderr.write("z" * 2_000_000)
        sys.stderr.flush()
        for line in sys.stdin:
            print("garbage", flush=True)
        """,
    )
    good = make_bot("good", loop_bot("1"))
    record = play(ToyGame(), [good, noisy, good], tmp_path, simultaneous=False, turns=2)
    assert record.seats[1].forfeit == "invalid"
    log = (tmp_path / "game" / record.seats[1].stderr).read_bytes()
    assert log.count(b"[arena: stderr truncated") == 1
