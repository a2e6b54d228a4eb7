"""Clocks and per-turn logs with real bot processes: when a turn's clock starts and stops,
the time margin and clock scale, and which turn a bot's stderr belongs to."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from arena.botproc import BotHome, Sandbox
from arena.botproc.spawn import spawn
from arena.records import Clock
from arena.referee.engine import Referee
from support import run_arena
from support.toygame import FileToyGame, ToyGame


def play(game, bots, tmp_path: Path, clock: Clock | None = None, observer=None, **settings):
    merged = {**game.info.settings, **settings}
    referee = Referee(game, bots, tmp_path / "game", Sandbox("none"), observer, clock=clock)
    return referee.play(7, merged)


def replay_of(tmp_path: Path) -> dict[str, Any]:
    return json.loads((tmp_path / "game" / "replay.json").read_text())


def own_times(tmp_path: Path, record, seat: int) -> list[float]:
    """The times a bot measured itself, read -> write, one stderr line per turn."""
    text = (tmp_path / "game" / record.seats[seat].stderr).read_text()
    return [float(line) for line in text.split()]


# -- when the clock starts -----------------------------------------------------------

SELF_TIMED = """
import os, sys, time
{setup}
for line in sys.stdin:
    start = time.perf_counter()  # the whole input has been read
    {work}
    took = (time.perf_counter() - start) * 1000
    sys.stderr.write(f"{{took!r}}\\n")
    sys.stderr.flush()
    print(1, flush=True)
"""
SPIN_2MS = "while time.perf_counter() - start < 0.002:\n        pass"
REALTIME = "os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))"


def _realtime_allowed() -> bool:
    """Whether a bot arena starts (sandbox none) may take SCHED_FIFO: not where it runs as
    an unprivileged user, nor as root (root's bots have no capabilities)."""
    home = BotHome.create("probe", 1, Sandbox("none"))
    try:
        probe = [sys.executable, "-c", f"import os\n{REALTIME}"]
        null = subprocess.DEVNULL
        bot = spawn(probe, home.workdirs[0], Sandbox("none"), null, null, null, 1 << 20)
        try:
            return bot.proc.wait(timeout=60) == 0
        finally:
            bot.kill()
    finally:
        home.close()


@pytest.mark.skipif(not _realtime_allowed(), reason="a bot may not take SCHED_FIFO here")
def test_a_bot_that_preempts_the_referee_is_timed_from_before_its_input(make_bot, tmp_path):
    # A real-time bot on the referee's only core runs the instant the referee's write
    # wakes it, before the write even returns, and keeps the core for the 2 ms it spins:
    # the descheduled referee of a loaded machine, made certain. A clock started after
    # the write returned would see an answer already waiting (about 0 ms); the clock
    # starts before that write, so it never measures less than the bot's own time.
    bot = make_bot("realtime", SELF_TIMED.format(setup=REALTIME, work=SPIN_2MS))
    cpu = min(os.sched_getaffinity(0))
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {cpu})  # the bot inherits it
    try:
        record = play(ToyGame(), [bot], tmp_path, turns=30)
    finally:
        os.sched_setaffinity(0, before)
    assert record.seats[0].forfeit is None
    measured = [step["io"]["0"]["ms"] for step in replay_of(tmp_path)["steps"]]
    own = own_times(tmp_path, record, 0)
    assert len(measured) == len(own) == 30
    assert min(own) >= 2.0
    assert [m >= o for m, o in zip(measured, own, strict=True)] == [True] * 30


# -- when the clock stops ---------------------------------------------------------------


class SlowRulesGame(ToyGame):
    """The toy game whose rules take 5 ms to read each ``#slow`` line (as heavy rules may)."""

    info = replace(ToyGame.info, id="slowrules", first_turn_ms=1500, turn_ms=300)

    def interpret(self, state, seat, text):
        if text == "#slow":
            time.sleep(0.005)
        return super().interpret(state, seat, text)


def test_an_answer_is_stamped_when_it_arrives_not_when_the_rules_are_done(make_bot, tmp_path):
    # Seat 0 sends 100 lines the rules take 0.5 s to read, then its answer, at once;
    # seat 1 answers 50 ms into its 300 ms. Neither may be charged for the referee's
    # time: seat 1's answer is read and stamped while seat 0's lines are being read.
    busy = make_bot(
        "busy",
        "import sys\nfor line in sys.stdin:\n    print('#slow\\n' * 100 + '1', flush=True)\n",
    )
    prompt = make_bot("prompt", SELF_TIMED.format(setup="", work="time.sleep(0.05)"))
    record = play(SlowRulesGame(), [busy, prompt], tmp_path, turns=3)
    assert [s.forfeit for s in record.seats] == [None, None]
    steps = replay_of(tmp_path)["steps"]
    own = own_times(tmp_path, record, 1)
    assert len(steps) == len(own) == 3
    for step, mine in zip(steps[1:], own[1:], strict=True):  # the first includes start-up
        assert len(step["io"]["0"]["lines"]) == 101
        assert step["io"]["0"]["ms"] < 100  # its answer came with its other lines
        assert mine <= step["io"]["1"]["ms"] < 250  # never less than its own time


class PatientRulesGame(SlowRulesGame):
    """SlowRulesGame with a 5 s turn: a referee that sleeps to the deadline is plain to see."""

    info = replace(SlowRulesGame.info, id="patientrules", first_turn_ms=5000, turn_ms=5000)


def test_an_answer_read_while_the_rules_read_another_seat_is_not_waited_for(make_bot, tmp_path):
    # Seat 1's 40 lines take the rules 0.2 s to read; seat 0 answers 50 ms into its turn,
    # so its answer is taken from the pipe (and stamped) while seat 1's lines are read.
    # The referee must then use it at once, not wait in the kernel for bytes already
    # read until the 5 s deadline (it did: 100 ms lost in 4 games of 10 at 100 ms turns).
    busy = make_bot(
        "busy", "import sys\nfor line in sys.stdin:\n    print('#slow\\n' * 40 + '1', flush=True)\n"
    )
    prompt = make_bot("prompt", SELF_TIMED.format(setup="", work="time.sleep(0.05)"))
    record = play(PatientRulesGame(), [prompt, busy], tmp_path, turns=3)
    assert [s.forfeit for s in record.seats] == [None, None]
    steps = replay_of(tmp_path)["steps"]
    assert [step["io"]["0"]["ms"] < 1000 for step in steps[1:]] == [True, True]
    # Each step ends once both answers are read: about 0.2 s, nowhere near the 5 s budget.
    assert record.duration_ms < 4000


# -- time margin and clock scale -----------------------------------------------------------


def test_an_answer_within_the_time_margin_is_late_not_a_timeout(make_bot, tmp_path):
    game = ToyGame()
    game.info = replace(ToyGame.info, turn_ms=100)
    # 200 ms is over the 100 ms budget whatever the machine does (the clock never
    # measures less than the bot slept) and far inside budget + margin (500 ms).
    late = make_bot("late", SELF_TIMED.format(setup="", work="time.sleep(0.2)"))
    record = play(game, [late, late], tmp_path, Clock(margin_ms=400), turns=3)
    assert [s.forfeit for s in record.seats] == [None, None]
    assert [s.late for s in record.seats] == [2, 2]  # the first turn has 2000 ms
    steps = replay_of(tmp_path)["steps"]
    late_flags = [[io.get("late", False) for io in s["io"].values()] for s in steps]
    assert late_flags == [[False, False], [True, True], [True, True]]
    assert [len(s.turn_ms) for s in record.seats] == [3, 3]
    # Past the margin it is a timeout, and the detail says both.
    slow = make_bot("slow", SELF_TIMED.format(setup="", work="time.sleep(1.0)"))
    record = play(game, [late, slow], tmp_path, Clock(margin_ms=400), turns=3)
    assert record.seats[1].forfeit == "timeout"
    assert record.seats[1].detail == "no answer within 100 ms + 400 ms margin"
    assert record.seats[0].forfeit is None


def test_clock_scale_multiplies_every_budget(make_bot, tmp_path):
    game = ToyGame()
    game.info = replace(ToyGame.info, first_turn_ms=1000, turn_ms=100)
    thinker = make_bot("thinker", SELF_TIMED.format(setup="", work="time.sleep(0.2)"))
    record = play(game, [thinker, thinker], tmp_path, Clock(scale=5.0), turns=3)
    assert [s.forfeit for s in record.seats] == [None, None]
    budgets = [io["budget_ms"] for s in replay_of(tmp_path)["steps"] for io in s["io"].values()]
    assert budgets == [5000, 5000, 500, 500, 500, 500]
    # The same bot on the game's own clocks thinks twice its budget.
    record = play(game, [thinker, thinker], tmp_path, turns=3)
    assert {s.forfeit for s in record.seats} == {"timeout"}
    assert record.seats[0].detail == "no answer within 100 ms"


def test_a_per_turn_process_within_the_margin_is_late(make_bot, tmp_path):
    sleeper = make_bot(
        "sleeper",
        """
        import sys, time
        prompt = open(sys.argv[1]).read()
        time.sleep(0.6)
        open("move.json", "w").write("1")
        """,
    )
    game = FileToyGame()
    game.info = replace(FileToyGame.info, first_turn_ms=3000, turn_ms=3000)
    # 3000 ms x 0.1 = 300 ms, and a second of margin: 600 ms is late, not a timeout.
    record = play(game, [sleeper], tmp_path, Clock(scale=0.1, margin_ms=1000), turns=2)
    assert record.seats[0].forfeit is None and record.seats[0].late == 2
    steps = replay_of(tmp_path)["steps"]
    assert [s["io"]["0"]["budget_ms"] for s in steps] == [300, 300]
    assert [s["io"]["0"]["late"] for s in steps] == [True, True]
    record = play(game, [sleeper], tmp_path, Clock(scale=0.1), turns=2)
    assert record.seats[0].forfeit == "timeout"
    assert record.seats[0].detail == "still running after 300 ms"


# -- which turn a bot's stderr belongs to ----------------------------------------------

LOGGER = """
import sys, time
turn = 0
for line in sys.stdin:
    sys.stderr.write(f"before {turn}\\n")
    sys.stderr.flush()
    print(1, flush=True)
    time.sleep(0.01)  # still working on this turn after answering it
    sys.stderr.write(f"after {turn}\\n")
    sys.stderr.flush()
    turn += 1
"""
# Takes 100 ms to answer, but answers the last of 3 turns at once: the game then ends
# while the logger is still writing about its last turn.
SLOW_THEN_QUICK = """
import sys, time
for turn, line in enumerate(sys.stdin):
    if turn < 2:
        time.sleep(0.1)
    print(2, flush=True)
"""


@pytest.mark.parametrize("simultaneous", [True, False], ids=["simultaneous", "in-turn"])
def test_stderr_written_after_an_answer_belongs_to_that_turn(make_bot, tmp_path, simultaneous):
    # The logger logs 10 ms after answering; its next input comes after the other seat's
    # 100 ms (in turn, or in the same step), except after the last turn: the game ends,
    # and its stderr is drained before it is stopped.
    logger = make_bot("logger", LOGGER)
    other = make_bot("other", SLOW_THEN_QUICK)
    seen: list[tuple[int, dict[str, str]]] = []

    def observe(index, step, state):  # what `arena match --verbose` prints
        seen.append((index, {seat: io["stderr"] for seat, io in step["io"].items()}))

    record = play(ToyGame(), [logger, other], tmp_path, None, observe, turns=3,
                  simultaneous=simultaneous)  # fmt: skip
    assert [s.forfeit for s in record.seats] == [None, None]
    steps = replay_of(tmp_path)["steps"]
    logs = [{seat: io["stderr"] for seat, io in step["io"].items()} for step in steps]
    mine = [f"before {k}\nafter {k}\n" for k in range(3)]
    if simultaneous:
        expected = [{"0": text, "1": ""} for text in mine]
    else:  # seat 0 and seat 1 take turns
        expected = [step for text in mine for step in ({"0": text}, {"1": ""})]
    assert logs == expected
    assert seen == list(enumerate(expected))
    whole = (tmp_path / "game" / record.seats[0].stderr).read_text()
    assert whole == "".join(mine)


# Two stc bots: the logger answers at once and logs 20 ms later; the thinker logs, thinks
# 100 ms (of 300: clocks x3) and answers, except on the last of 4 turns, which it answers
# at once: the game then ends while the logger is still writing about its last turn.
STC_BOT = """\
import sys, time
turn = 0
while True:
    lines = [sys.stdin.readline() for _ in range(34)]
    if not lines[0]:
        break
    if {thinker}:
        print(f"thinking {{turn}}", file=sys.stderr, flush=True)
        if turn < 3:
            time.sleep(0.1)
    print(f"{{turn % 6}} 1", flush=True)
    if not {thinker}:
        time.sleep(0.02)
        print(f"after {{turn}}", file=sys.stderr, flush=True)
    turn += 1
"""


def _stderr_by_step(text: str, indent: str) -> list[list[str]]:
    """The stderr lines printed under each ``--- step N`` of `arena match -v` or `show`."""
    steps: list[list[str]] = []
    for line in text.splitlines():
        if line.startswith("--- step "):
            steps.append([])
        elif steps and line.startswith(f"{indent}stderr: "):
            steps[-1].append(line.removeprefix(f"{indent}stderr: "))
    return steps


def test_verbose_show_and_the_replay_file_a_log_after_the_answer_under_its_turn(tmp_path):
    for name, thinker in (("logger", False), ("thinker", True)):
        (tmp_path / f"{name}.py").write_text(STC_BOT.format(thinker=thinker))
    out = tmp_path / "m"
    result = run_arena(
        "match", "stc", f"python3 {tmp_path / 'logger.py'}", f"python3 {tmp_path / 'thinker.py'}",
        "--max_turns", "4", "--clock-scale", "3", "--verbose", "--output", str(out),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    expected = [[f"after {k}", f"thinking {k}"] for k in range(4)]
    assert _stderr_by_step(result.stdout, "    ") == expected
    replay = next((out / "games").iterdir()) / "replay.json"
    steps = json.loads(replay.read_text())["steps"]
    assert [[io["stderr"] for io in s["io"].values()] for s in steps] == [
        [f"after {k}\n", f"thinking {k}\n"] for k in range(4)
    ]
    shown = run_arena("show", str(replay))
    assert shown.returncode == 0, shown.stderr
    assert _stderr_by_step(shown.stdout, "      ") == expected


# -- what the leaderboard shows --------------------------------------------------------

STC_SLEEPER = """\
import sys, time
turn = 0
while True:
    lines = [sys.stdin.readline() for _ in range(34)]
    if not lines[0]:
        break
    time.sleep({seconds})
    print(f"{{turn % 6}} 1", flush=True)
    turn += 1
"""
LATE_TOURNAMENT = """\
name: clocks
game: stc
games: 2
seed: 3
concurrency: 1
time_margin_ms: 300
settings:
  max_turns: 4
bots:
  - name: late
    cmd: python3 late.py
  - name: prompt
    cmd: python3 prompt.py
output: {out}
"""


def test_the_leaderboard_shows_late_answers_response_times_and_the_clock(tmp_path):
    # `late` answers every turn in 150 ms: over stc's 100 ms, far inside the 300 ms margin
    # (and inside the first turn's 1000 ms). Each game has 3 such turns.
    (tmp_path / "late.py").write_text(STC_SLEEPER.format(seconds=0.15))
    (tmp_path / "prompt.py").write_text(STC_SLEEPER.format(seconds=0))
    spec = tmp_path / "t.yaml"
    spec.write_text(LATE_TOURNAMENT.format(out=tmp_path / "out"))
    result = run_arena("run", str(spec), "--no-progress", "--format", "json")
    assert result.returncode == 0, result.stderr
    board = json.loads(result.stdout)
    assert (board["time_margin_ms"], board["clock_scale"]) == (300, 1.0)
    rows = {r["bot"]: r for r in board["leaderboard"]}
    assert [rows[b]["timeout"] for b in ("late", "prompt")] == [0, 0]
    assert [rows[b]["late"] for b in ("late", "prompt")] == [6, 0]
    late, prompt = rows["late"], rows["prompt"]
    assert 150 <= late["p50_ms"] <= late["p99_ms"] <= late["max_ms"]
    assert prompt["p50_ms"] <= prompt["p99_ms"] <= prompt["max_ms"]
    assert prompt["p50_ms"] < 150  # most of its turns are instant (the first has start-up)
    # Wide enough for one block of columns (narrower terminals fold the table).
    wide = {"COLUMNS": "400"}
    text = run_arena("leaderboard", str(tmp_path / "out"), "--wide", env=wide).stdout.splitlines()
    assert text[:2] == ["clocks (stc, 2 games)", "clock: game budgets x1, time margin 300 ms"]
    assert text[3].split()[-4:] == [
        "timeout/crash/memory/invalid/illegal",
        "late",
        "ms",
        "p50/p99/max",
    ]
    values = next(line for line in text if line.split()[1:2] == ["late"]).split()
    assert values[-3:-1] == ["0/0/0/0/0", "6"]
    assert values[-1].count("/") == 2 and float(values[-1].split("/")[0]) >= 150
