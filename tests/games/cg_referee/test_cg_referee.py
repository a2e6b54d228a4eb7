"""cg-referee: games played through a CodinGame-style referee process, byte for byte.

The referee is ``examples/cg-referee/sticks_referee.py``, written in Python to speak the
protocol of CodinGame's original referees exactly as cg-brutaltester drives them.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import textwrap
from pathlib import Path

import pytest

import arena
from arena import ExternalProcessError
from arena.records import BotSpec
from arena.referee.engine import Referee
from arena_games.cg_referee import protocol
from arena_games.cg_referee.game import CgRefereeGame
from support import REPO, run_arena

EXAMPLE = REPO / "examples" / "cg-referee"
SMART = f"{sys.executable} {EXAMPLE / 'smart_bot.py'}"
RANDOM = f"{sys.executable} {EXAMPLE / 'random_bot.py'}"


def referee_cmd(tmp_path: Path) -> tuple[str, Path]:
    """A private copy of the referee (so its processes can be found) and its transcript."""
    copy = tmp_path / "ref" / "sticks_referee.py"
    copy.parent.mkdir(exist_ok=True)
    shutil.copy(EXAMPLE / "sticks_referee.py", copy)
    transcript = tmp_path / "ref" / "transcript.bin"
    transcript.touch()
    return f"{sys.executable} {copy} {transcript}", transcript


def processes_running(marker: Path) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if str(marker).encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def test_a_game_sends_the_referee_exactly_the_protocol_and_ranks_by_its_scores(tmp_path):
    cmd, transcript = referee_cmd(tmp_path)
    # Generous clocks (turn_ms): this test is about bytes, not time.
    settings = {"referee": cmd, "params": {"sticks": 10, "turn_ms": 2000}}
    result = arena.play(
        "cg-referee", [SMART, SMART], seed=7, settings=settings, output=tmp_path / "g"
    )
    # 10 sticks, both bots leave a multiple of 4: seat 0 takes 2, 3, 3 and the last stick
    # (+10), seat 1 takes 1, 1. The referee ends the game on reading the last output.
    assert transcript.read_bytes() == (
        b"[[INIT] 4]\n2\nseed=7\nsticks=10\nturn_ms=2000\n[[GET_GAME_INFO] 0]\n"
        b"[[SET_PLAYER_OUTPUT] 1]\n2\n[[GET_GAME_INFO] 0]\n"
        b"[[SET_PLAYER_OUTPUT] 1]\n1\n[[GET_GAME_INFO] 0]\n"
        b"[[SET_PLAYER_OUTPUT] 1]\n3\n[[GET_GAME_INFO] 0]\n"
        b"[[SET_PLAYER_OUTPUT] 1]\n1\n[[GET_GAME_INFO] 0]\n"
        b"[[SET_PLAYER_OUTPUT] 1]\n3\n"
    )
    assert result.scores == [18.0, 2.0] and result.ranks == [0, 1]
    assert result.reason == "The pile is empty"
    assert result.turns == 5 and result.forfeits == [None, None]
    steps = result.replay["steps"]
    # Each bot gets exactly the referee's NEXT_PLAYER_INPUT lines (init line first).
    assert [s["io"][str(s["to_act"][0])]["input"] for s in steps] == [
        "2 0 1\n10\n", "2 1 1\n8\n", "7\n", "4\n", "3\n",
    ]  # fmt: skip
    assert (tmp_path / "g" / "referee-stderr.txt").read_text().startswith("< [[INIT] 4]\n")
    assert result.replay["final"]["scores"] == [18.0, 2.0]
    assert ["UINPUT", ["seed=7", "sticks=10", "lines=1"]] in result.replay["final"]["blocks"]


def test_answers_of_several_lines_are_read_whole_and_passed_on(tmp_path):
    cmd, transcript = referee_cmd(tmp_path)
    settings = {"referee": cmd, "params": {"sticks": 5, "lines": 2, "turn_ms": 2000}}
    result = arena.play("cg-referee", [SMART, SMART], seed=1, settings=settings)
    assert transcript.read_bytes().startswith(
        b"[[INIT] 5]\n2\nseed=1\nsticks=5\nlines=2\nturn_ms=2000\n[[GET_GAME_INFO] 0]\n"
        b"[[SET_PLAYER_OUTPUT] 2]\n1\n# smart\n[[GET_GAME_INFO] 0]\n"
    )
    first = result.replay["steps"][0]
    assert first["io"]["0"]["lines"] == ["1", "# smart"]
    assert first["moves"]["0"] == "1\n# smart"
    assert result.scores == [14.0, 1.0]  # 5: takes 1, 1; the last 3 (+10)


def test_an_answer_missing_lines_times_out_on_one_clock(tmp_path):
    cmd, transcript = referee_cmd(tmp_path)
    half = tmp_path / "half.py"
    half.write_text("input()\ninput()\nprint(1, flush=True)\nimport time\ntime.sleep(5)\n")
    settings = {"referee": cmd, "params": {"lines": 2, "first_ms": 400}}
    result = arena.play(
        "cg-referee", [f"{sys.executable} {half}", SMART], seed=1, settings=settings
    )
    assert result.forfeits == ["timeout", None]
    assert result.details[0] == "no answer within 400 ms"
    assert result.replay["steps"][0]["io"]["0"]["lines"] == ["1"]
    assert b"[[SET_PLAYER_OUTPUT]" not in transcript.read_bytes()


def write_bot(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(body))
    return f"{sys.executable} {path}"


def test_a_bot_that_times_out_is_reported_to_the_referee_and_ranks_last(tmp_path):
    cmd, transcript = referee_cmd(tmp_path)
    slow = write_bot(
        tmp_path,
        "slow",
        """
        import time
        input()
        print(1, flush=True)
        input()
        time.sleep(5)
        """,
    )
    settings = {"referee": cmd, "params": {"sticks": 20, "turn_ms": 300}}
    result = arena.play("cg-referee", [slow, SMART], seed=2, settings=settings)
    assert result.forfeits == ["timeout", None]
    assert result.ranks == [1, 0]
    # Two players, one out: the referee ends the game at once (GET_GAME_INFO left unread).
    assert transcript.read_bytes().endswith(b"[[GET_GAME_INFO] 0]\n[[SET_PLAYER_TIMEOUT] 0]\n")
    assert result.reason == "forfeit"  # whichever seat it was (not the referee's INFOS)


def test_a_crashing_bot_is_out_through_a_timeout_message_too(tmp_path):
    cmd, transcript = referee_cmd(tmp_path)
    crash = write_bot(tmp_path, "crash", "import sys\ninput()\nsys.exit(4)\n")
    settings = {"referee": cmd, "params": {"turn_ms": 2000}}
    result = arena.play("cg-referee", [SMART, crash], seed=2, settings=settings)
    assert result.forfeits == [None, "crash"] and result.ranks == [0, 1]
    assert b"[[SET_PLAYER_TIMEOUT] 0]\n" in transcript.read_bytes()


def test_the_referee_judges_answers_a_bad_one_loses_by_its_rules(tmp_path):
    cmd, _ = referee_cmd(tmp_path)
    bad = write_bot(tmp_path, "bad", "input()\ninput()\nprint('banana', flush=True)\n")
    settings = {"referee": cmd, "params": {"turn_ms": 2000}}
    result = arena.play("cg-referee", [bad, SMART], seed=2, settings=settings)
    assert result.scores[0] == -1.0 and result.ranks == [1, 0]
    assert result.forfeits == [None, None]  # the protocol does not say why a player lost
    assert result.reason == "invalid input. Expected 'a number of sticks' but found 'banana'"


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        (
            "crash_at",
            "referee: closed its output (exit code 3); its stderr: referee: simulated crash",
        ),
        ("garbage_at", "referee: expected a [[COMMAND] n] header, got 'this is not a header'"),
        ("hang_at", "referee: sent nothing for 0.5 s; its stderr: < [[GET_GAME_INFO] 0]"),
    ],
)
def test_a_broken_referee_fails_the_game_with_a_clear_error_and_is_killed(tmp_path, fault, message):
    cmd, _ = referee_cmd(tmp_path)
    game = CgRefereeGame()
    settings = {
        **game.info.settings,
        "referee": cmd,
        "params": {fault: 2, "turn_ms": 2000},
        "referee_timeout_ms": 500,
    }
    bots = [BotSpec(n, (sys.executable, str(EXAMPLE / "smart_bot.py"))) for n in "ab"]
    with pytest.raises(ExternalProcessError) as info:
        Referee(game, bots, tmp_path / "g").play(1, settings)
    assert str(info.value) == message
    assert processes_running(tmp_path / "ref") == []  # the referee died with the game


def test_match_reports_a_broken_referee_without_a_traceback(tmp_path):
    cmd, _ = referee_cmd(tmp_path)
    result = run_arena(
        "match", "cg-referee", SMART, SMART, "--referee", cmd, "--params", "{crash_at: 1}"
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "arena: game 1 failed in the referee: ExternalProcessError: referee: " in (result.stderr)


def test_states_are_a_cursor_into_one_referee_and_replays_start_a_new_one(tmp_path):
    cmd, _ = referee_cmd(tmp_path)
    game = CgRefereeGame()
    settings = {**game.info.settings, "referee": cmd, "params": {"sticks": 6}}
    state = game.start(3, 2, settings)
    after = game.apply(state, {0: "2"})
    with pytest.raises(RuntimeError, match="already played on"):
        game.apply(state, {0: "1"})
    game.eliminate(after, 1)  # seat 1 times out: the game ends, the referee exits
    replay = {"seed": 3, "players": ["a", "b"], "settings": settings, "steps": []}
    replay["steps"].append({"to_act": [0], "moves": {"0": "2"}, "forfeits": {}})
    states = [s.after for s in arena.resimulate(game, replay)]
    assert states[-1].turn == protocol.Turn(1, ("2 1 1", "4"), 1, 1000)


def test_a_tournament_plays_the_referee_with_ratings(tmp_path):
    result = run_arena(
        "run", "tournaments/cg-referee.yaml", "--games", "4", "--output", str(tmp_path / "o")
    )
    assert result.returncode == 0, result.stderr
    board = result.stdout.split("\n")
    assert "cg-sticks (cg-referee, 4 games)" in result.stdout
    ranked = [line.split()[1] for line in board if line[:1].isdigit()]
    assert ranked[0] == "smart"


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ('referee: ""', "settings.referee (line 4): required: the referee's command line"),
        (
            'referee: "nope-no-such-referee"',
            "settings.referee (line 4): command not found: 'nope-no-such-referee'",
        ),
        ("params: {seed: 4}", "settings.params (line 5): seed comes from arena (the game's seed)"),
        (
            "referee_timeout_ms: 0",
            "settings.referee_timeout_ms (line 6): must be between 100 and 3600000, not 0",
        ),
    ],
)
def test_bad_referee_settings_stop_before_any_game(tmp_path, setting, message):
    key = setting.split(":")[0]
    lines = {
        "referee": 'referee: "python3 examples/cg-referee/sticks_referee.py"',
        "params": "params: {}",
        "referee_timeout_ms": "referee_timeout_ms: 1000",
    }
    lines[key] = setting
    path = tmp_path / "t.yaml"
    path.write_text(
        "game: cg-referee\nplayers: 2\nsettings:\n  "
        + "\n  ".join(lines.values())
        + "\nbots:\n  - cmd: python3 examples/cg-referee/smart_bot.py\n"
        "  - cmd: python3 examples/cg-referee/random_bot.py\n"
        f"output: {tmp_path / 'out'}\n"
    )
    result = run_arena("run", str(path))
    assert result.returncode == 2
    assert result.stderr.strip().endswith(message), result.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("lines", "error"),
    [
        (
            ["[[VIEW] 1]", "x", "[[NEXT_PLAYER_INFO] 2]", "0", "1"],
            "NEXT_PLAYER_INFO has 2 lines, not 3",
        ),
        (["[[NEXT_PLAYER_INFO] 3]", "2", "1", "50"], "asks player 2 of 2"),
        (["[[NEXT_PLAYER_INFO] 3]", "0", "0", "50"], "asks for 0 lines in 50 ms"),
        (
            ["[[NEXT_PLAYER_INFO] 3]", "zero", "1", "50"],
            "NEXT_PLAYER_INFO's player is not a whole number: 'zero'",
        ),
        (["[[SCORES] 2]", "0 5", "1"], "bad SCORES line '1'"),
        (["VIEW 0"], "expected a [[COMMAND] n] header, got 'VIEW 0'"),
    ],
)
def test_protocol_errors_from_the_referee_are_named(lines, error):
    source = iter(lines)
    with pytest.raises(ExternalProcessError, match=error.replace("[", r"\[").replace("]", r"\]")):
        protocol.read_response(lambda: next(source), 2)


def test_responses_are_read_as_the_original_referees_write_them():
    lines = [
        "[[VIEW] 2]", "KEY_FRAME 0", "Sticks",
        "[[INFOS] 0]",
        "[[SUMMARY]1]", "headline",
        "[[NEXT_PLAYER_INPUT] 2]", "2 0 1", "25",
        "[[NEXT_PLAYER_INFO] 3]", "0", "1", "1000",
    ]  # fmt: skip
    source = iter(lines)
    response = protocol.read_response(lambda: next(source), 2)
    assert response.turn == protocol.Turn(0, ("2 0 1", "25"), 1, 1000)
    assert response.last("SUMMARY") == ("headline",)
    source = iter(["[[INFOS] 1]", "¤RED¤Max rounds reached§RED§", "[[SCORES] 2]", "0 3", "1 -1"])
    response = protocol.read_response(lambda: next(source), 2)
    assert response.turn is None and response.scores == {0: 3.0, 1: -1.0}
    assert protocol.plain(response.last("INFOS")[0]) == "Max rounds reached"
    assert protocol.init_message(2, {"seed": "5", "league": "3"}) == (
        "[[INIT] 3]\n2\nseed=5\nleague=3\n"
    )
    assert protocol.player_output(["1", "# hi"]) == "[[SET_PLAYER_OUTPUT] 2]\n1\n# hi\n"


def test_the_game_module_never_touches_processes():
    # The design: the referee process belongs to the core (arena.ExternalProcess).
    folder = REPO / "games" / "arena_games" / "cg_referee"
    for path in folder.glob("*.py"):
        text = path.read_text()
        assert "subprocess" not in text and "import os" not in text, path
    assert json.dumps(CgRefereeGame.info.settings)
    assert os.access(EXAMPLE / "sticks_referee.py", os.X_OK)
