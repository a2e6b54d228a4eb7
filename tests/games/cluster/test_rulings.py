"""42-cluster as the original C referee plays it (RULINGS.md, cluster), with real processes.

The original reads bots with ``scanf``: whitespace-separated words, so a command may span
lines and several may share one; ``fetch`` is answered before ``color`` too; any integer
colour is accepted; rotating to the current gravity is a pass; the init line's timeout is
written as C's ``%f``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from arena import resimulate
from arena.botproc import Sandbox
from arena.records import BotSpec
from arena.referee.engine import Referee
from arena_games.cluster.game import ClusterGame
from arena_games.cluster.rules import ChooseColor, Drop, Rotate

WORDS_BOT = """
import sys

def send(text):
    sys.stdout.write(text)
    sys.stdout.flush()

def line():
    text = sys.stdin.readline()
    if not text:
        sys.exit(0)
    return text.split()

init = line()
sys.stderr.write(" ".join(init) + "\\n")
send("fetch gravity\\ncolor\\n")       # a query before 'color', and 'color' split over lines
assert line() == ["gravity", "3"]
send("7\\n")                            # any integer colour
turn = 0
while True:
    words = line()
    if words[0] != "chips":
        continue                        # the opponent's last action
    a, b = int(words[1]), int(words[2])
    send("fetch gravity fetch chips\\n")  # two queries on one line
    gravity = int(line()[1])
    for _ in range(int(line()[1])):
        line()
    turn += 1
    if turn % 3 == 0 and b != -1:
        send(f"rotate {gravity}\\n")     # the current gravity: a pass
    else:
        pos = (turn * {step}) % 11 - 5
        send(f"drop\\n{pos} {a}\\n")      # one command over two lines
"""


def words_bot(tmp_path: Path, name: str, step: int) -> BotSpec:
    path = tmp_path / f"{name}.py"
    path.write_text(WORDS_BOT.replace("{step}", str(step)))
    return BotSpec(name, (sys.executable, str(path)))


def test_a_bot_read_word_by_word_plays_a_whole_game(tmp_path: Path) -> None:
    bots = [words_bot(tmp_path, "a", 3), words_bot(tmp_path, "b", 7)]
    settings = dict(ClusterGame.info.settings)
    game_dir = tmp_path / "game"
    record = Referee(ClusterGame(), bots, game_dir, Sandbox("none")).play(5, settings)
    assert [s.forfeit for s in record.seats] == [None, None], [s.detail for s in record.seats]
    assert sorted(s.rank for s in record.seats) == [0, 1]
    replay = json.loads((game_dir / "replay.json").read_text())
    first = replay["steps"][0]
    assert first["io"]["0"]["input"] == "init 4 22 6 4 1.000000 0\n"
    assert first["io"]["0"]["lines"] == ["fetch gravity", "color", "7"]
    assert first["moves"] == {"0": "color 7", "1": "color 7"}
    second = replay["steps"][1]
    assert second["io"]["0"]["lines"][0] == "fetch gravity fetch chips"
    assert second["moves"]["0"].startswith("drop ") and second["io"]["0"]["lines"][1] == "drop"
    passes = [s for s in replay["steps"] if s["moves"].get(str(s["to_act"][0]), "") == "rotate 3"]
    assert passes, "no pass was played"
    assert all(
        s["messages"][str(s["to_act"][0])] == "gravity stays bottom (a pass)" for s in passes
    )
    assert (game_dir / record.seats[0].stderr).read_text() == "init 4 22 6 4 1.000000 0\n"
    # The stored commands replay the game exactly.
    steps = list(resimulate(ClusterGame(), replay))
    assert steps[0].actions == {0: ChooseColor(7), 1: ChooseColor(7)}
    assert any(isinstance(a, Rotate) for s in steps for a in s.actions.values())
    assert any(isinstance(a, Drop) for s in steps for a in s.actions.values())
    assert ClusterGame().view(steps[-1].after) == replay["final"]


SCRIPTED = """
import sys

color, answers = {color!r}, {answers!r}


def line():
    text = sys.stdin.readline()
    if not text:
        sys.exit(0)
    sys.stderr.write("got " + text)
    sys.stderr.flush()
    return text.split()


line()  # init
print(color, flush=True)
for answer in answers:
    words = line()
    while words[0] != "chips":
        words = line()  # the opponent's last action
    print(answer.replace("{{a}}", words[1]), flush=True)
while True:
    line()
"""


def scripted(tmp_path: Path, name: str, color: str, answers: list[str]) -> BotSpec:
    """A bot that answers ``color`` then ``answers`` in turn (``{a}``: its first chip)."""
    path = tmp_path / f"{name}.py"
    path.write_text(SCRIPTED.format(color=color, answers=answers))
    return BotSpec(name, (sys.executable, str(path)))


def scripted_game(
    tmp_path: Path, a: tuple[str, list[str]], b: tuple[str, list[str]], **settings: object
) -> tuple[Any, dict[str, Any]]:
    bots = [scripted(tmp_path, "a", *a), scripted(tmp_path, "b", *b)]
    game_dir = tmp_path / "game"
    merged = {**ClusterGame.info.settings, **settings}
    record = Referee(ClusterGame(), bots, game_dir, Sandbox("none")).play(3, merged)
    return record, json.loads((game_dir / "replay.json").read_text())


@pytest.mark.parametrize("tail", ["x", ";", ".0"])
def test_drop_with_characters_after_its_chip_is_played_then_they_lose(
    tmp_path: Path, tail: str
) -> None:
    # RULINGS (cluster, original): `drop 0 2x` drops chip 2 in column 0 (the opponent is
    # sent `drop 0 2`); `x` is then read as the bot's next command: invalid, it loses there.
    record, replay = scripted_game(
        tmp_path,
        ("color 0", ["drop 0 {a}" + tail, "drop 1 {a}"]),
        ("color 4", ["drop 2 {a}", "drop 3 {a}"]),
    )
    assert [s.forfeit for s in record.seats] == ["invalid", None]
    assert [s.rank for s in record.seats] == [1, 0]
    assert record.seats[0].raw == tail
    _, drop, reply, lost = replay["steps"]
    chip = drop["moves"]["0"].split()[2][: -len(tail)]
    assert drop["moves"]["0"] == f"drop 0 {chip}{tail}"
    assert drop["actions"]["0"] == {"Drop": {"pos": 0, "chip": int(chip)}, "rest": tail}
    assert (
        drop["messages"]["0"] == f"lands on 0 5 -5; {tail!r} left unread, read as its next command"
    )
    assert reply["io"]["1"]["input"].startswith(f"drop 0 {chip}\nchips ")
    assert reply["moves"]["1"].startswith("drop 2 ")  # the opponent played its turn first
    assert lost["io"]["0"]["input"].startswith(reply["moves"]["1"] + "\nchips ")
    assert lost["forfeits"]["0"]["reason"] == "invalid"
    assert record.turns == 2


def test_color_with_characters_after_its_number_loses_at_the_first_turn(tmp_path: Path) -> None:
    # `color 1.5`: colour 1, then `.5` is read when seat 1 first plays (after seat 0's turn).
    record, replay = scripted_game(
        tmp_path, ("color 0", ["drop 0 {a}", "drop 1 {a}"]), ("color 1.5", ["drop 2 {a}"])
    )
    assert [s.forfeit for s in record.seats] == [None, "invalid"]
    assert [s.rank for s in record.seats] == [0, 1]
    assert record.seats[1].raw == ".5"
    color, first, lost = replay["steps"]
    assert color["moves"] == {"0": "color 0", "1": "color 1.5"}
    assert replay["final"]["colors"] == [0, 1]
    assert first["moves"]["0"].startswith("drop 0 ")
    assert list(lost["forfeits"]) == ["1"]


def test_a_winning_drop_with_characters_after_its_chip_wins(tmp_path: Path) -> None:
    # Two colours, lines of 2: seat 0's second chip on its first completes a line; the `;`
    # after it is never read, the game is over.
    record, replay = scripted_game(
        tmp_path,
        ("color 0", ["drop 0 {a}", "drop 0 {a};"]),
        ("color 4", ["drop 2 {a}", "drop 2 {a}"]),
        colors=2,
        grid_size=3,
        win_length=2,
    )
    assert [s.forfeit for s in record.seats] == [None, None]
    assert [s.rank for s in record.seats] == [0, 1]
    assert record.reason == "line of 2"
    assert replay["steps"][-1]["moves"] == {"0": "drop 0 0;"}


def test_the_final_action_is_sent_to_the_other_bot(tmp_path: Path) -> None:
    # The original writes every action to the other bot before it checks for a winner.
    game_dir = tmp_path / "game"
    _, replay = scripted_game(
        tmp_path,
        ("color 0", ["drop 0 {a}", "drop 0 {a}"]),
        ("color 4", ["drop 2 {a}", "drop 2 {a}"]),
        colors=2,
        grid_size=3,
        win_length=2,
    )
    assert (game_dir / "stderr-1-b.txt").read_text().endswith("got drop 0 0\n")
    assert replay["epilogue"] == {"1": "drop 0 0\n"}  # the winner is sent nothing


@pytest.mark.parametrize(
    ("digits", "stored"),
    [
        ("4294967296", 0),
        ("4294967297", 1),
        ("4294967301", 5),
        ("2147483648", -2147483648),
        ("99999999999999999999", -1),
        ("-99999999999999999999", 0),
        ("-4294967297", -1),
        ("7", 7),
    ],
)
def test_numbers_beyond_32_bits_are_read_as_glibcs_percent_d_stores_them(digits, stored):
    from arena_games.cluster.protocol import c_int

    # RULINGS (cluster, original): a 64-bit long, saturated, its low 32 bits signed.
    assert c_int(digits) == stored


def test_drop_4294967296_is_played_in_column_0(tmp_path: Path) -> None:
    # RULINGS (cluster, original): `drop 4294967296 c` drops in column 0, as `drop 0 c`.
    record, replay = scripted_game(
        tmp_path,
        ("color 0", ["drop 4294967296 {a}", "drop 1 {a}"]),
        ("color 4", ["drop 2 {a}", "drop 3 {a}"]),
    )
    drop = replay["steps"][1]
    assert not drop.get("forfeits")  # played, not forfeited (it times out later: no answers)
    assert record.turns > 2
    chip = int(drop["moves"]["0"].split()[2])
    assert drop["actions"]["0"] == {"Drop": {"pos": 0, "chip": chip}}
    assert drop["messages"]["0"].startswith("lands on 0 5 -5")
