"""Token framing, messages and forfeit steps in the referee, with real bot processes.

A game with ``framing="tokens"`` reads bots as C's ``scanf`` does: a command may span lines,
several may share one, and words sent after a move wait for the next turn. Every command
keeps the arrival time of the line that completed it, and the replay stores the commands
that ``resimulate`` needs to play the game again.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from arena import resimulate
from arena.botproc import Sandbox
from arena.game import Outcome, standing_moves
from arena.referee.engine import Referee, _forfeiters_last
from support import loop_bot
from support.toygame import KeepingToyGame, TokenToyGame, ToyGame


def play(game, bots, tmp_path: Path, **settings):
    merged = {**game.info.settings, **settings}
    record = Referee(game, bots, tmp_path / "game", Sandbox("none")).play(7, merged)
    return record, json.loads((tmp_path / "game" / "replay.json").read_text())


SPLIT_AND_SHARED = """
import sys
def send(text):
    sys.stdout.write(text)
    sys.stdout.flush()
sys.stdin.readline()                 # turn 0
send("add\\n")                        # a command split over two lines
send("5\\n")
sys.stdin.readline()                 # turn 1
send("ask add\\n")                    # a query, then the start of a move
reply = sys.stdin.readline().split()[1]
send(reply + " add 7\\n")             # ends this turn's move; 'add 7' is next turn's
sys.stdin.readline()                 # turn 2: nothing more to send
sys.stdin.readline()
"""


def test_tokens_span_lines_share_lines_and_carry_over_to_the_next_turn(make_bot, tmp_path):
    words = make_bot("words", SPLIT_AND_SHARED)
    plain = make_bot("plain", loop_bot("add 1"))
    record, replay = play(TokenToyGame(), [words, plain], tmp_path, turns=3)
    assert [s.forfeit for s in record.seats] == [None, None]
    assert [s.score for s in record.seats] == [5 + 42 + 7, 3]
    steps = replay["steps"]
    assert [step["moves"]["0"] for step in steps] == ["add 5", "add 42", "add 7"]
    assert [step["io"]["0"]["lines"] for step in steps] == [
        ["add", "5"],
        ["ask add", "42 add 7"],
        [],
    ]
    assert steps[2]["io"]["0"]["ms"] == 0.0  # sent before turn 2's input: 0 ms
    assert steps[0]["messages"] == {"0": "added 5", "1": "added 1"}
    replayed = list(resimulate(TokenToyGame(), replay))
    assert [s.actions for s in replayed] == [{0: 5, 1: 1}, {0: 42, 1: 1}, {0: 7, 1: 1}]
    assert replayed[-1].after.scores == (54, 3)


LATE_WORD = """
import sys, time
sys.stdin.readline()
print("add 1", flush=True)
sys.stdin.readline()
print("add", flush=True)
time.sleep({delay})
print("2", flush=True)
sys.stdin.readline()
"""


def test_a_command_is_timed_by_the_word_that_completes_it(make_bot, tmp_path):
    game = TokenToyGame()
    game.info = replace(TokenToyGame.info, turn_ms=600)
    slow = make_bot("slow", LATE_WORD.format(delay=0.25))
    plain = make_bot("plain", loop_bot("add 1"))
    record, replay = play(game, [slow, plain], tmp_path, turns=2)
    assert record.seats[0].forfeit is None
    assert replay["steps"][1]["moves"]["0"] == "add 2"
    assert replay["steps"][1]["io"]["0"]["ms"] >= 250


def test_an_unfinished_command_is_no_answer(make_bot, tmp_path):
    game = TokenToyGame()
    game.info = replace(TokenToyGame.info, turn_ms=300)
    stuck = make_bot("stuck", LATE_WORD.format(delay=1.5))
    plain = make_bot("plain", loop_bot("add 1"))
    record, _ = play(game, [stuck, plain], tmp_path, turns=2)
    assert record.seats[0].forfeit == "timeout"
    assert record.seats[0].detail == "no answer within 300 ms"
    assert record.seats[0].raw == "add"
    assert [s.rank for s in record.seats] == [1, 0]


def test_a_bad_word_forfeits_with_the_command_read_so_far(make_bot, tmp_path):
    bad = make_bot("bad", loop_bot("add x"))
    plain = make_bot("plain", loop_bot("add 1"))
    record, _ = play(TokenToyGame(), [bad, plain], tmp_path, turns=2)
    assert record.seats[0].forfeit == "invalid"
    assert record.seats[0].raw == "add x"


def test_line_framing_still_hands_whole_lines_to_the_game(make_bot, tmp_path):
    spaced = make_bot("spaced", loop_bot("  7  "))
    record, replay = play(ToyGame(), [spaced, spaced], tmp_path, turns=1)
    assert [s.score for s in record.seats] == [7, 7]  # int("  7  ") of the whole line
    assert replay["steps"][0]["moves"] == {"0": "  7  ", "1": "  7  "}
    assert replay["steps"][0]["messages"] == {}


def test_by_default_the_others_moves_of_a_forfeit_step_are_dropped(make_bot, tmp_path):
    good = make_bot("good", loop_bot("4"))
    bad = make_bot("bad", loop_bot("oops"))
    record, replay = play(ToyGame(), [good, bad], tmp_path, turns=3)
    assert [s.score for s in record.seats] == [0, 0]
    assert [s.rank for s in record.seats] == [0, 1]
    assert [s.actions for s in resimulate(ToyGame(), replay)] == [{}]


def test_a_game_may_keep_the_others_moves_of_a_forfeit_step(make_bot, tmp_path):
    good = make_bot("good", loop_bot("4"))
    bad = make_bot("bad", loop_bot("oops"))
    record, replay = play(KeepingToyGame(), [good, bad], tmp_path, turns=3)
    assert [s.score for s in record.seats] == [4, 0]
    assert [s.rank for s in record.seats] == [0, 1]
    steps = list(resimulate(KeepingToyGame(), replay))
    assert [s.actions for s in steps] == [{0: 4}]
    assert steps[-1].after.scores == (4, 0)


def test_standing_moves_is_the_games_rule_only_after_a_forfeit():
    state = ToyGame().start(0, 2, {"turns": 3, "simultaneous": True})
    over = ToyGame().eliminate(state, 1)
    assert standing_moves(ToyGame(), over, {0: 4}, forfeited=False) == {0: 4}
    assert standing_moves(ToyGame(), over, {0: 4}, forfeited=True) == {}
    assert standing_moves(KeepingToyGame(), over, {0: 4}, forfeited=True) == {0: 4}


def test_forfeiters_rank_below_every_other_seat_unless_the_game_ranks_them_level():
    # The game's ranks are kept among seats that did not forfeit; forfeiters tie below.
    assert _forfeiters_last([0, 0], [False, True], game_decides=False) == [0, 1]
    assert _forfeiters_last([1, 0, 2, 0], [False, True, False, True], False) == [0, 2, 1, 2]
    assert _forfeiters_last([0, 0], [True, True], game_decides=False) == [0, 0]
    # stc: one forfeits, the other dies by its own move of that turn: the game says draw.
    assert _forfeiters_last([0, 0], [True, False], game_decides=True) == [0, 0]
    # Even then a forfeiter never ranks above a seat that did not forfeit.
    assert _forfeiters_last([0, 1, 2], [True, False, False], game_decides=True) == [2, 0, 1]
    assert _forfeiters_last([1, 0, 1], [True, False, False], game_decides=True) == [1, 0, 1]


def test_outcome_leaves_forfeit_ranking_to_the_core_by_default():
    assert Outcome((0, 1), (1.0, 0.0)).forfeits_ranked is False
