"""arena from Python: ``arena.play`` and ``arena.run``, with the CLI's checks and results."""

from __future__ import annotations

import sys

import pytest

import arena
from arena import ConfigError
from support import REPO
from support.toygame import ToyGame

GREEDY = "python3 bots/stc/greedy.py"
RANDOM = "python3 bots/stc/random_bot.py"


def test_play_returns_ranks_scores_reason_forfeits_and_the_replay(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    result = arena.play(
        "stc", [GREEDY, RANDOM], seed=4, settings={"max_turns": 6}, output=tmp_path / "g"
    )
    assert result.game == "stc" and result.seed == 4 and result.settings == {"max_turns": 6}
    assert result.bots == ["greedy", "random_bot"]
    assert sorted(result.ranks) in ([0, 1], [0, 0])
    assert len(result.scores) == 2 and result.reason
    # (No assertion that nobody forfeits: a loaded machine may make a bot miss 100 ms.)
    assert result.forfeits == [s.forfeit for s in result.record.seats] and result.turns <= 6
    assert result.replay_path == tmp_path / "g" / "replay.json"
    assert result.replay["seed"] == 4 and len(result.replay["steps"]) in (
        result.turns,
        result.turns + 1,
    )
    assert result.winners == [b for b, r in zip(result.bots, result.ranks, strict=True) if r == 0]
    again = arena.play("stc", [GREEDY, RANDOM], seed=4, settings={"max_turns": 6})
    assert again.replay_path is None  # no output folder: the temporary one is gone
    assert (
        again.replay["steps"][0]["io"]["0"]["input"]
        == result.replay["steps"][0]["io"]["0"]["input"]
    )


def test_play_takes_a_game_class_and_argument_lists(tmp_path):
    bot = tmp_path / "bot.py"
    bot.write_text("import sys\nfor line in sys.stdin:\n    print(5, flush=True)\n")
    result = arena.play(
        ToyGame, [[sys.executable, str(bot)], [sys.executable, str(bot), "x"]], names=["a", "b"]
    )
    assert result.bots == ["a", "b"] and result.scores == [15.0, 15.0] and result.ranks == [0, 0]


def test_play_records_forfeits(tmp_path):
    crash = tmp_path / "crash.py"
    crash.write_text("import sys\ninput()\nsys.exit(3)\n")
    ok = tmp_path / "ok.py"
    ok.write_text("import sys\nfor line in sys.stdin:\n    print(1, flush=True)\n")
    result = arena.play(ToyGame, [f"{sys.executable} {crash}", f"{sys.executable} {ok}"])
    assert result.forfeits == ["crash", None] and result.ranks == [1, 0]
    assert result.details[0].startswith("exited with code 3")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: arena.play("nogame", [RANDOM]), "unknown game 'nogame' (installed: "),
        (lambda: arena.play("stc", [RANDOM]), "stc is played by 2-2 bots; 1 commands given"),
        (lambda: arena.play("stc", [RANDOM, "pyhton3 x.py"]), "bot 2 'pyhton3 x.py': command not found: 'pyhton3'"),
        (lambda: arena.play("stc", [RANDOM, RANDOM], settings={"max_turns": -5}), "settings.max_turns: must be between 1 and 10000, not -5"),
        (lambda: arena.play("stc", [RANDOM, RANDOM], settings={"turns": 5}), "settings.turns: unknown setting for stc"),
        (lambda: arena.play("stc", [RANDOM, RANDOM], sandbox="docker"), "sandbox must be one of auto, bwrap, none"),
        (lambda: arena.play(dict, [RANDOM, RANDOM]), "<class 'dict'> is not a subclass of arena.Game"),
    ],
)  # fmt: skip
def test_play_refuses_bad_input_before_any_game_with_the_clis_message(monkeypatch, call, message):
    monkeypatch.chdir(REPO)
    with pytest.raises(ConfigError) as info:
        call()
    assert str(info.value).startswith(message), str(info.value)


def test_run_plays_a_tournament_file_with_overrides_and_resumes(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    out = tmp_path / "o"
    result = arena.run("tournaments/cg-referee.yaml", games=2, concurrency=1, output=out)
    assert (result.name, result.output, result.played, result.resumed) == ("cg-sticks", out, 2, 0)
    assert result.failed == 0 and not result.interrupted
    rows = result.leaderboard.rows()
    assert {r["bot"] for r in rows} == {"smart", "random"} and rows[0]["games"] == 2
    assert "cg-sticks (cg-referee, 2 games)" in result.leaderboard.render("markdown")
    again = arena.run("tournaments/cg-referee.yaml", games=2, output=out)
    assert (again.played, again.resumed) == (0, 2)
    with pytest.raises(ConfigError, match=r"^games: must be a positive whole number, not 0$"):
        arena.run("tournaments/cg-referee.yaml", games=0)
