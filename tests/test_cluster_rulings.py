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
