"""A contest's export: the leaderboard (the league's, then the final's once played) as JSON
and CSV with each bot's owner, and a zip of every game's replay written to a stream that
cannot seek; from Python and from `arena contest export`."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import zipfile
from pathlib import Path

import pytest

from arena.contest.export import COLUMNS, export_csv, export_json, export_replays
from arena.contest.final import run_final
from arena.errors import ConfigError
from support import run_arena
from support.contest_league import contest_league


class Unseekable(io.RawIOBase):
    """A stream that only writes (a response being sent), keeping what it was given."""

    def __init__(self) -> None:
        self.data = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, b) -> int:  # type: ignore[override]
        self.data += b
        return len(b)


def stored_dirs(folder: Path) -> list[str]:
    db = sqlite3.connect(folder / "arena.sqlite")
    try:
        return [row[0] for row in db.execute("SELECT dir FROM games ORDER BY id")]
    finally:
        db.close()


@pytest.fixture(scope="module")
def league(tmp_path_factory) -> Path:
    return contest_league(tmp_path_factory.mktemp("export"), games=8)


def test_the_league_leaderboard_has_owners_ranks_and_the_games_tallied(league):
    board = export_json(league)
    assert board["leaderboard"] == "league" and board["rating"] == "bt"
    rows = board["rows"]
    assert [list(row) for row in rows] == [list(COLUMNS)] * len(rows)
    owners = {row["bot"]: row["owner"] for row in rows}
    assert owners == {"boss": None, "ann-v1": "ann", "ann-v2": "ann", "ann-v3": "ann",
                      "bob-v1": "bob", "=cat-v1": "cat"}  # fmt: skip
    assert [row["rank"] for row in rows] == [1, 2, 3, 4, 5, 6]
    rated = [row["rating"] for row in rows if row["rating"] is not None]
    assert rated == sorted(rated, reverse=True)
    assert sum(row["games"] for row in rows) == 2 * 8  # 8 games of two seats
    assert sum(row["wins"] for row in rows) == sum(row["losses"] for row in rows)
    assert all(row["wins"] + row["draws"] + row["losses"] == row["games"] for row in rows)
    assert next(row for row in rows if row["bot"] == "ann-v1")["games"] == 0  # retired at once
    # The same ratings as `arena leaderboard` (its sort value is bt).
    shown = json.loads(run_arena("leaderboard", str(league), "--format", "json").stdout)
    assert [(r["bot"], r["bt"]) for r in shown["leaderboard"]] == [
        (row["bot"], row["rating"]) for row in rows
    ]


def test_the_csv_is_the_json_with_formulas_quoted(league):
    rows = export_json(league)["rows"]
    text = export_csv(league)
    lines = text.splitlines()
    assert lines[0] == "rank,bot,owner,league,rating,interval,games,wins,draws,losses"
    parsed = list(csv.DictReader(io.StringIO(text)))
    assert [r["bot"] for r in parsed] == [
        "'=cat-v1" if row["bot"] == "=cat-v1" else row["bot"] for row in rows
    ]
    boss = next(r for r in parsed if r["bot"] == "boss")
    assert boss["owner"] == "" and boss["league"] == ""
    assert text.endswith("\n") and "\r" not in text


def test_the_replays_zip_holds_every_game_of_the_league_and_the_final(league):
    stream = Unseekable()
    export_replays(league, stream)
    archive = zipfile.ZipFile(io.BytesIO(bytes(stream.data)))
    league_dirs = stored_dirs(league)
    assert archive.namelist() == [f"league/{Path(d).name}/replay.json" for d in league_dirs]
    first = league_dirs[0]
    assert (
        archive.read(f"league/{Path(first).name}/replay.json")
        == (league / first / "replay.json").read_bytes()
    )
    run_final(league, 2)
    final_dirs = stored_dirs(league / "final")
    assert len(final_dirs) == 6  # 3 pairs of final versions, one seed in both seats each
    stream = Unseekable()
    export_replays(league, stream)
    names = zipfile.ZipFile(io.BytesIO(bytes(stream.data))).namelist()
    assert names[len(league_dirs) :] == [f"final/{Path(d).name}/replay.json" for d in final_dirs]
    # Once the final is played, the leaderboard exported is the final's.
    board = export_json(league)
    assert board["leaderboard"] == "final"
    assert sorted(row["bot"] for row in board["rows"]) == ["=cat-v1", "ann-v3", "bob-v1"]
    assert all(row["games"] == 4 for row in board["rows"])


def test_arena_contest_export_writes_files_and_says_one_line_for_a_mistake(league, tmp_path):
    csv_cli = run_arena("contest", "export", str(league), "--csv", "-")
    assert csv_cli.returncode == 0 and csv_cli.stdout == export_csv(league)
    out = tmp_path / "board.json"
    assert run_arena("contest", "export", str(league), "--json", str(out)).returncode == 0
    assert json.loads(out.read_text()) == export_json(league)
    zipped = tmp_path / "replays.zip"
    assert run_arena("contest", "export", str(league), "--replays", str(zipped)).returncode == 0
    assert len(zipfile.ZipFile(zipped).namelist()) == len(stored_dirs(league)) + len(
        stored_dirs(league / "final")
    )
    nowhere = tmp_path / "nowhere"
    nowhere.mkdir()
    bad = run_arena("contest", "export", str(nowhere), "--replays", str(tmp_path / "x.zip"))
    assert bad.returncode == 2
    assert bad.stderr == (
        f"arena: {nowhere}: no arena.sqlite here (is it an arena output folder?)\n"
    )
    assert not (tmp_path / "x.zip").exists()
    with pytest.raises(ConfigError):
        export_json(nowhere)
