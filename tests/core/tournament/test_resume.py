"""Resume through the real CLI on changed files: a stored game is reused only while
everything that decided it (game, rules version, seed, settings, bot commands and the
files they name) is what the tournament file now says."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from support import run_arena, stc_cycler, unmeasured

TOURNAMENT = """\
name: resume
game: stc
games: 2
seed: 1
concurrency: 1
settings:
  max_turns: {turns}
bots:
  - name: a
    cmd: python3 bots/cycle6.py
  - name: b
    cmd: python3 bots/cycle3.py
{extra}output: out
"""

LOSER = "import sys\nsys.stdin.readline()\nprint('garbage', flush=True)\n"
CYCLE4 = "  - name: c\n    cmd: python3 bots/cycle4.py\n"


class Folder:
    """A tournament file next to its bots, run with the real CLI from the repository."""

    def __init__(self, root: Path) -> None:
        self.root = root
        (root / "bots").mkdir(parents=True)
        for width in (3, 4, 6):
            (root / "bots" / f"cycle{width}.py").write_text(stc_cycler(width))
        (root / "bots" / "loser.py").write_text(LOSER)
        self.file = root / "t.yaml"
        self.out = root / "out"
        self.write()

    def write(self, turns: int = 2, extra: str = "", **replace: str) -> None:
        text = TOURNAMENT.format(turns=turns, extra=extra)
        for old, new in replace.items():
            assert old in text
            text = text.replace(old, new)
        # Relative paths: the file's folder (bots/..., out) is not the current folder.
        self.file.write_text(text.replace("output: out", f"output: {self.out}"))

    def run(self, *args: str) -> tuple[int, str, str]:
        result = run_arena("run", str(self.file), "--no-progress", *args)
        return result.returncode, result.stdout, result.stderr

    def board(self) -> dict:
        result = run_arena("leaderboard", str(self.out), "--format", "json")
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)

    def rows(self) -> list[tuple]:
        db = sqlite3.connect(self.out / "arena.sqlite")
        try:
            return db.execute("SELECT id, key, seed, finished_at FROM games ORDER BY id").fetchall()
        finally:
            db.close()

    def refused(self, *args: str) -> str:
        """Run, expect exit 2 with one line and nothing changed; return the line."""
        before, folders = self.rows(), sorted((self.out / "games").iterdir())
        meta = sqlite3.connect(self.out / "arena.sqlite").execute("SELECT * FROM meta").fetchall()
        code, out, err = self.run(*args)
        assert code == 2, err
        assert out == ""
        assert err.startswith("arena: ")
        assert self.rows() == before
        assert sorted((self.out / "games").iterdir()) == folders
        db = sqlite3.connect(self.out / "arena.sqlite")
        assert db.execute("SELECT * FROM meta").fetchall() == meta
        return err.strip()


@pytest.fixture
def folder(tmp_path: Path) -> Folder:
    f = Folder(tmp_path)
    code, _, err = f.run()
    assert code == 0, err
    assert "2 games played now, 0 resumed" in err
    return f


def stale(f: Folder, stored: int, changes: str, keep_old: str = "") -> str:
    return (
        f"arena: {f.file}: {stored} of the {stored} games stored in {f.out} no longer match "
        f"this file: {changes}.\n"
        f"  Run with --update to play only those {stored} games again and keep the others.\n"
        f"{keep_old}"
        f"  Or run with --fresh to start over in {f.out} (deletes its stored games), or "
        "choose another --output."
    )


def keep_old(name: str, word: str, cmd: str) -> str:
    """The stop message's lines on keeping the old version of an edited bot."""
    copy = word.replace(".py", "_v1.py")
    return (
        f"  To keep the old {name} as another bot: save its old version as {copy} (from git "
        f"or a backup), add `- {{name: {name}_v1, cmd: {cmd.replace(word, copy)}}}` to "
        "`bots`, then run with --update.\n"
    )


def test_an_unchanged_file_resumes_every_stored_game(folder):
    code, _, err = folder.run()
    assert code == 0, err
    assert "0 games played now, 2 resumed" in err


def test_a_new_seed_in_the_file_or_on_the_command_line_is_refused_naming_it(folder):
    folder.write(**{"seed: 1": "seed: 2"})
    assert folder.refused() == stale(folder, 2, "seed 1 -> 2")
    folder.write()
    assert folder.refused("--seed", "5") == stale(folder, 2, "seed 1 -> 5")


def test_changed_settings_and_commands_are_refused_naming_each(folder):
    folder.write(turns=3)
    assert folder.refused() == stale(folder, 2, "settings.max_turns 2 -> 3")
    folder.write(**{"python3 bots/cycle3.py": "python3 -B bots/cycle3.py"})
    assert folder.refused() == stale(
        folder, 2, "bots[1].cmd changed (was 'python3 bots/cycle3.py')"
    )


def test_an_edited_bot_file_is_refused_naming_the_file(folder):
    with (folder.root / "bots" / "cycle3.py").open("a") as f:
        f.write("# tuned\n")
    assert folder.refused() == stale(
        folder,
        2,
        "bots/cycle3.py changed since the stored games",
        keep_old("b", "bots/cycle3.py", "python3 bots/cycle3.py"),
    )


# Appends to its own file as it starts, as a user saving an edit while the run goes on.
SELF_EDITING = "with open(__file__, 'a') as me:\n    me.write('# edited\\n')\n" + stc_cycler(
    width=6
)


def test_a_bot_file_edited_during_the_run_stops_it_before_the_next_game(tmp_path):
    """No game starts after a bot's file has changed, so every stored game ran the file
    the run began with; the run says which file and stops with exit code 2 (before, the
    run went on and stored the later games under the first file's hash)."""
    f = Folder(tmp_path)
    (f.root / "bots" / "editor.py").write_text(SELF_EDITING)
    # Without a sandbox the bot may write its own file (bubblewrap mounts it read-only).
    f.write(
        **{"cmd: python3 bots/cycle6.py": "cmd: python3 bots/editor.py", "games: 2": "games: 4"},
        extra="sandbox: none\n",
    )
    code, out, err = f.run()
    assert code == 2, err
    assert len(f.rows()) == 1  # the game that edited the file, started before the edit
    assert "1 games played now, 0 resumed" in err
    assert err.strip().endswith(
        f"arena: {f.file}: bots[0].cmd (line 10): bots/editor.py (a) changed during the run, "
        "so no more games were started; the games stored were all played with the file as "
        "it was when the run began. Run again with --update to replay only the games of "
        "the edited bot (the others are kept), or put the file back to resume"
    )
    assert "resume (stc, 1 games)" in out  # the leaderboard of the game stored
    assert f.refused() == stale(
        f,
        1,
        "bots/editor.py changed since the stored games",
        keep_old("a", "bots/editor.py", "python3 bots/editor.py"),
    )


def test_another_game_or_rules_version_is_refused(folder):
    folder.write(**{"game: stc": "game: cluster", "  max_turns: 2\n": "  grid_size: 7\n"})
    message = folder.refused()
    assert message.startswith(f"arena: {folder.file}: 2 of the 2 games stored in {folder.out}")
    assert ": game stc -> cluster; settings.chips_per_color (unset) -> null; " in message
    assert "; settings.grid_size (unset) -> 7; " in message
    assert "; settings.max_turns 2 -> (unset); " in message
    # Games stored under an older version of the rules (the version is in the identity).
    folder.write()
    db = sqlite3.connect(folder.out / "arena.sqlite")
    with db:
        for key, identity in db.execute("SELECT key, identity FROM games").fetchall():
            old = json.loads(identity)
            old["version"] = 0
            db.execute("UPDATE games SET identity = ? WHERE key = ?", (json.dumps(old), key))
    db.execute("UPDATE games SET identity_hash = 'x'")
    # (an arena of that version recorded its resume check under another key)
    db.execute("DELETE FROM meta WHERE key = 'resume_check'")
    db.commit()
    assert folder.refused() == stale(folder, 2, "stc rules version 0 -> 1")


def test_fresh_deletes_the_stored_games_and_plays_everything_again(folder):
    (folder.out / "notes.txt").write_text("mine")
    old_dirs = sorted(p.name for p in (folder.out / "games").iterdir())
    (folder.out / "games" / old_dirs[0] / "marker").write_text("old")
    old_seeds = {r[2] for r in folder.rows()}
    folder.write(**{"seed: 1": "seed: 2"})
    code, _, err = folder.run("--fresh")
    assert code == 0, err
    assert "2 games played now, 0 resumed" in err
    assert len(folder.rows()) == 2 and {r[2] for r in folder.rows()}.isdisjoint(old_seeds)
    assert (folder.out / "notes.txt").read_text() == "mine"  # only arena's files go
    assert not any((folder.out / "games").glob("*/marker"))
    code, _, err = folder.run()
    assert code == 0 and "0 games played now, 2 resumed" in err


def test_adding_a_bot_plays_only_its_pairings_and_removing_it_drops_it(folder):
    first = folder.rows()
    folder.write(extra=CYCLE4)
    code, out, err = folder.run()
    assert code == 0, err
    assert "4 games played now, 2 resumed" in err
    assert folder.rows()[:2] == first  # the stored games were kept, not played again
    assert "resume (stc, 6 games)" in out
    assert sorted(r["bot"] for r in folder.board()["leaderboard"]) == ["a", "b", "c"]

    folder.write()
    code, out, err = folder.run()
    assert code == 0, err
    assert "0 games played now, 2 resumed" in err
    assert "4 stored games are not in this tournament any more" in err
    assert "resume (stc, 2 games)" in out and " c " not in out
    board = folder.board()
    assert [(r["bot"], r["games"]) for r in board["leaderboard"]] == [("a", 2), ("b", 2)]
    assert {(p["bot"], p["opponent"]) for p in board["pairwise"]} == {("a", "b"), ("b", "a")}


def test_fewer_games_show_only_the_games_the_file_now_defines(folder):
    code, _, err = folder.run("--games", "4")
    assert code == 0 and "2 games played now, 2 resumed" in err
    code, out, err = folder.run("--games", "1")
    assert code == 0, err
    assert "0 games played now, 1 resumed" in err
    assert "resume (stc, 1 games)" in out
    assert [r["games"] for r in folder.board()["leaderboard"]] == [1, 1]
    code, _, err = folder.run("--games", "4")
    assert code == 0 and "0 games played now, 4 resumed" in err
    assert [r["games"] for r in folder.board()["leaderboard"]] == [4, 4]


def test_an_extended_tournament_rates_like_one_run_from_scratch(tmp_path):
    # A bot added first in the list moves the stored games later in the schedule; with
    # decisive games (the loser forfeits) the order the ratings see them in matters.
    first = "  - name: a\n"
    loser = "  - name: loser\n    cmd: python3 bots/loser.py\n  - name: a\n"
    grown = Folder(tmp_path / "grown")
    assert grown.run()[0] == 0
    grown.write(**{first: loser})
    code, _, err = grown.run()
    assert code == 0 and "4 games played now, 2 resumed" in err
    scratch = Folder(tmp_path / "scratch")
    scratch.write(**{first: loser})
    assert scratch.run()[0] == 0
    board = grown.board()
    assert unmeasured(board) == unmeasured(scratch.board())
    assert [(r["bot"], r["wins"], r["draws"]) for r in board["leaderboard"]] == [
        ("a", 2, 2), ("b", 2, 2), ("loser", 0, 0)
    ]  # fmt: skip
    assert board["leaderboard"][0]["mu"] != board["leaderboard"][1]["mu"]


OLD_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE bots (name TEXT PRIMARY KEY, cmd TEXT NOT NULL);
CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL UNIQUE,
    ord INTEGER NOT NULL, round INTEGER NOT NULL, grp TEXT NOT NULL, game TEXT NOT NULL,
    seed INTEGER NOT NULL, settings TEXT NOT NULL, players INTEGER NOT NULL,
    reason TEXT NOT NULL, turns INTEGER NOT NULL, steps INTEGER NOT NULL,
    duration_ms REAL NOT NULL, dir TEXT NOT NULL, finished_at TEXT NOT NULL);
INSERT INTO games VALUES (1, 'r0:a,b', 0, 0, 'r0:a,b', 'stc', 5, '{}', 2, '', 2, 2, 1.0,
    'games/x', '2024-01-01T00:00:00');
"""


def test_a_folder_written_by_the_previous_schema_is_refused_until_fresh(tmp_path):
    f = Folder(tmp_path)
    f.out.mkdir()
    db = sqlite3.connect(f.out / "arena.sqlite")
    db.executescript(OLD_SCHEMA)
    db.close()
    message = (
        f"arena: {f.out}/arena.sqlite: written by an older arena, without game identities: "
        f"run the tournament again with --fresh to start over in {f.out}\n"
    )
    code, out, err = f.run()
    assert (code, out, err) == (2, "", message)
    result = run_arena("leaderboard", str(f.out))
    assert (result.returncode, result.stdout, result.stderr) == (2, "", message)
    tables = sqlite3.connect(f.out / "arena.sqlite").execute("SELECT name FROM sqlite_master")
    assert "scheduled" not in {t[0] for t in tables}  # refused without touching it
    code, _, err = f.run("--fresh")
    assert code == 0 and "2 games played now, 0 resumed" in err


def test_a_league_refuses_an_edited_bot_and_drops_a_removed_one(tmp_path):
    f = Folder(tmp_path)
    f.write(extra=CYCLE4, **{"games: 2": "games: 6\nformat: league"})
    code, _, err = f.run()
    assert code == 0 and "6 games played now" in err
    with (f.root / "bots" / "cycle4.py").open("a") as bot:
        bot.write("# tuned\n")
    message = f.refused()
    assert message.endswith(
        "no longer match this file: bots/cycle4.py changed since the stored games.\n"
        "  Run with --update to play only those 4 games again and keep the others.\n"
        + keep_old("c", "bots/cycle4.py", "python3 bots/cycle4.py")
        + f"  Or run with --fresh to start over in {f.out} (deletes its stored games), or "
        "choose another --output."
    )
    f.write(**{"games: 2": "games: 6\nformat: league"})
    code, _, err = f.run()
    assert code == 0, err
    assert "stored games are not in this tournament any more" in err
    assert sorted(r["bot"] for r in f.board()["leaderboard"]) == ["a", "b"]


def test_an_sprt_with_fewer_games_shows_only_those(folder):
    sprt = "games: 4\nformat: sprt\nsprt: {elo0: 0, elo1: 5}"
    folder.write(**{"games: 2": sprt})
    code, _, err = folder.run()
    assert code == 0 and "2 games played now, 2 resumed" in err  # the same first round
    code, _, err = folder.run("--games", "2")
    assert code == 0 and "0 games played now, 2 resumed" in err
    assert [r["games"] for r in folder.board()["leaderboard"]] == [2, 2]


def test_changed_clock_options_are_refused_naming_each(folder):
    folder.write(extra="time_margin_ms: 50\n")
    assert folder.refused() == stale(folder, 2, "time_margin_ms 0 -> 50")
    folder.write(extra="clock_scale: 1.5\n")
    assert folder.refused() == stale(folder, 2, "clock_scale 1 -> 1.5")
    folder.write(extra="time_margin_ms: 0\nclock_scale: 1\n")  # the defaults, written out
    code, _, err = folder.run()
    assert code == 0 and "0 games played now, 2 resumed" in err
    folder.write(extra="time_margin_ms: 20\nclock_scale: 2\n")
    code, _, err = folder.run("--fresh")
    assert code == 0 and "2 games played now, 0 resumed" in err
    code, _, err = folder.run()
    assert code == 0 and "0 games played now, 2 resumed" in err
    board = folder.board()
    assert (board["time_margin_ms"], board["clock_scale"]) == (20, 2.0)


def test_a_folder_of_the_previous_schema_still_opens_and_run_upgrades_it(folder):
    # Schema 2 is this schema without each seat's late answers and per-turn times.
    db = sqlite3.connect(folder.out / "arena.sqlite")
    with db:
        db.execute("ALTER TABLE seats DROP COLUMN turn_ms")
        db.execute("ALTER TABLE seats DROP COLUMN late")
    db.execute("PRAGMA user_version = 2")
    db.close()
    rows = folder.board()["leaderboard"]
    assert [r["games"] for r in rows] == [2, 2]
    assert [(r["late"], r["p50_ms"], r["p99_ms"], r["max_ms"]) for r in rows] == [
        (0, None, None, None)
    ] * 2
    for command in ("list", "report"):
        assert run_arena(command, str(folder.out)).returncode == 0
    version = sqlite3.connect(folder.out / "arena.sqlite").execute("PRAGMA user_version")
    assert version.fetchone()[0] == 2  # reading does not change it
    code, _, err = folder.run("--games", "4")
    assert code == 0 and "2 games played now, 2 resumed" in err
    version = sqlite3.connect(folder.out / "arena.sqlite").execute("PRAGMA user_version")
    assert version.fetchone()[0] == 3
    rows = folder.board()["leaderboard"]
    assert [r["games"] for r in rows] == [4, 4]
    assert all(r["p50_ms"] is not None and r["p50_ms"] <= r["max_ms"] for r in rows)
