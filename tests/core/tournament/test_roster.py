"""A league's bots changed while it runs: ``arena bot add|retire`` and the roster file."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from arena.errors import ConfigError
from arena.plugins.registry import load_registry
from arena.tournament.config import load_tournament
from arena.tournament.roster import Roster, read_roster, write_roster
from support import run_arena, stc_cycler


def league(tmp_path: Path, fmt: str = "league") -> Path:
    (tmp_path / "cycler.py").write_text(stc_cycler())
    (tmp_path / "other.py").write_text(stc_cycler(5))
    path = tmp_path / "league.yaml"
    path.write_text(
        textwrap.dedent(f"""\
        game: stc
        format: {fmt}
        sandbox: none
        concurrency: 1
        bots:
          - {{name: a, cmd: python3 cycler.py}}
          - {{name: b, cmd: python3 other.py}}
        output: out
        """)
    )
    return path


def test_the_roster_is_laid_over_the_file(tmp_path: Path) -> None:
    path = league(tmp_path)
    (tmp_path / "out").mkdir()
    write_roster(
        tmp_path / "out",
        Roster(({"name": "c", "cmd": f"python3 {tmp_path / 'cycler.py'}"},), ("a",)),
    )
    config = load_tournament(path, load_registry())
    assert [b.name for b in config.bots] == ["a", "b", "c"]
    assert config.retired == ("a",)
    assert read_roster(tmp_path / "out").added[0]["name"] == "c"


@pytest.mark.parametrize(
    "text, message",
    [
        ("[1, 2]", "not a roster"),
        ('{"added": [], "retired": ["nobody"]}', "retired bot 'nobody' is not a bot"),
        ('{"added": [{"name": "a", "cmd": "python3 x.py"}]}', "file not found"),
        ("{", "not a roster (JSON)"),
    ],
)
def test_a_bad_roster_is_one_clear_error(tmp_path: Path, text: str, message: str) -> None:
    path = league(tmp_path)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "roster.json").write_text(text)
    with pytest.raises(ConfigError) as refused:
        load_tournament(path, load_registry())
    assert message in str(refused.value)


def seats_of_games(out: Path) -> list[set[str]]:
    """The bots of each stored game, in the order they were stored."""
    try:
        db = sqlite3.connect(out / "arena.sqlite")
        try:
            rows = db.execute("SELECT game_id, bot FROM seats ORDER BY game_id").fetchall()
        finally:
            db.close()
    except sqlite3.Error:
        return []
    games: dict[int, set[str]] = {}
    for game_id, bot in rows:
        games.setdefault(game_id, set()).add(bot)
    return list(games.values())


def wait_for(condition, what: str, limit_s: float = 600):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"waited {limit_s:g} s for {what}")


def test_a_running_league_takes_up_an_added_bot_and_a_retired_one(tmp_path: Path) -> None:
    path = league(tmp_path)
    out = tmp_path / "out"
    run = subprocess.Popen(
        [sys.executable, "-m", "arena", "run", str(path), "--no-progress"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        wait_for(lambda: len(seats_of_games(out)) >= 2, "the league's first games")
        added = subprocess.run(
            [sys.executable, "-m", "arena", "bot", "add", str(out), "new=python3 cycler.py"],
            cwd=tmp_path, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert added.returncode == 0, added.stderr
        assert added.stdout == f"new joins the league in {out}\n"
        wait_for(lambda: any("new" in g for g in seats_of_games(out)), "a game of the new bot")
        retired = run_arena("bot", "retire", str(out), "a")
        assert retired.returncode == 0, retired.stderr
        at_retire = len(seats_of_games(out))
        # Games running when it was retired still end; after them, a plays no more.
        wait_for(lambda: len(seats_of_games(out)) >= at_retire + 8, "games after the retirement")
        later = seats_of_games(out)[at_retire + 4 :]
        assert later and all("a" not in g for g in later), later
    finally:
        run.send_signal(signal.SIGINT)
        _, err = run.communicate(timeout=300)
    assert run.returncode == 130, err
    assert "the league's bots are now a (retired), b, new" in err
    board = json.loads(run_arena("leaderboard", str(out), "--format", "json").stdout)
    assert {row["bot"] for row in board["leaderboard"]} == {"a", "b", "new"}


def test_only_a_league_takes_bots(tmp_path: Path) -> None:
    path = league(tmp_path, "round-robin")
    assert (
        run_arena("run", str(path), "--no-progress", "--output", str(tmp_path / "out")).returncode
        == 0
    )
    refused = run_arena("bot", "add", str(tmp_path / "out"), f"python3 {tmp_path / 'cycler.py'}")
    assert refused.returncode == 2
    assert refused.stderr.strip().endswith(
        "a round-robin tournament, not a league: only a league takes bots"
    )


def test_a_name_already_in_the_league_is_refused(tmp_path: Path) -> None:
    path = league(tmp_path)
    done = run_arena(
        "run", str(path), "--no-progress", "--games", "2", "--output", str(tmp_path / "out")
    )
    assert done.returncode == 0, done.stderr
    refused = run_arena("bot", "add", str(tmp_path / "out"), f"a=python3 {tmp_path / 'cycler.py'}")
    assert refused.returncode == 2 and "already has a bot named 'a'" in refused.stderr
    assert not (tmp_path / "out" / "roster.json").exists()
    again = run_arena("bot", "retire", str(tmp_path / "out"), "zed")
    assert again.returncode == 2 and "no bot named 'zed'" in again.stderr
