"""The tables a user reads first fit the terminal: `arena leaderboard`, `arena games` and
`arena list` through the real CLI under a set COLUMNS, for every kind of board (two
players, four players, one player with score rounds), ten bots of 20-character names."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.records import GameRecord, SeatRecord
from arena.results.store import Store
from support import REPO

NAMES = [f"bot{i:02d}_" + "x" * 14 for i in range(10)]  # 20 characters each
BOARDS = {  # game id -> players per game
    "stc": 2,
    "blocking": 4,
    "splitter": 1,
    "cluster": 2,
    "chess5": 2,
}


def arena(*args: str, columns: int) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, COLUMNS=str(columns))
    return subprocess.run(
        [sys.executable, "-m", "arena", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=300,
    )


def seat(bot: str, rank: int, score: float, forfeit: str | None = None) -> SeatRecord:
    times = [1.0 + (hash(bot) % 50), 30.0, 250.5]
    return SeatRecord(bot=bot, rank=rank, score=score, forfeit=forfeit, turn_ms=times)


def fill(out: Path, game: str, players: int) -> None:
    """A store of a finished tournament of ten bots: every bot plays, some forfeit."""
    store = Store(out)
    store.set_meta(
        {"name": f"{game}-ten-bots", "game": game, "format": "round-robin", "players": players,
         "bots": NAMES, "variant_keys": [], "seed": 1}
    )  # fmt: skip
    order = 0
    for r in range(3):
        for i in range(len(NAMES)):
            if players == 1:
                lineup = [NAMES[i]]
            else:
                lineup = [NAMES[(i + k) % len(NAMES)] for k in range(players)]
            seats = []
            for k, bot in enumerate(lineup):
                forfeit = ("timeout", "crash", "invalid")[k % 3] if (i + r + k) % 7 == 0 else None
                seats.append(seat(bot, k, 1000.0 * (i + 1) - 90 * k + r, forfeit))
            record = GameRecord(game, 100 + r, {}, seats, "done", 10, 10, 5.0)
            group = f"r{r}" if players == 1 else f"r{r}:{i}"
            store.add_game(f"g{order}", order, r, group, record, {"seed": 100 + r, "bots": lineup})
            order += 1
    store.close()


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folders = {}
    for game, players in BOARDS.items():
        out = tmp_path_factory.mktemp(game)
        fill(out, game, players)
        folders[game] = out
    return folders


def widest(text: str) -> int:
    return max(len(line) for line in text.splitlines())


@pytest.mark.parametrize("columns", [100, 80])
@pytest.mark.parametrize("game", list(BOARDS))
def test_the_leaderboard_fits_the_terminal_for_every_board(outputs, game, columns):
    result = arena("leaderboard", str(outputs[game]), columns=columns)
    assert result.returncode == 0, result.stderr
    assert widest(result.stdout) <= columns, result.stdout
    lines = result.stdout.splitlines()
    header = next(line for line in lines if line.startswith("#"))
    assert "bot" in header and "BT ±95%" in header and "W/D/L" in header
    assert sum(1 for name in NAMES if any(line.split()[1:2] == [name] for line in lines)) == 10
    if columns == 100:
        assert "win % [95%]" in header and "forfeits" in header and "p99 ms" in header
        # games adds up W/D/L: the first column left out, only for one-player boards
        assert ("games" in header) == (BOARDS[game] != 1)
        if BOARDS[game] == 4:
            assert "avg rank" in header
        if BOARDS[game] == 1:
            assert "score [95%]" in header
    # Forfeits: one count per bot, their kinds inline or in a footnote.
    assert "timeout" in result.stdout


@pytest.mark.parametrize("game", list(BOARDS))
def test_wide_json_csv_and_markdown_keep_everything(outputs, game):
    out = str(outputs[game])
    wide = arena("leaderboard", out, "--wide", columns=100).stdout
    for column in ("Elo ±95%", "LOS", "mu-3σ", "draws", "ms p50/p99/max", "late"):
        assert column in wide
    assert "Win rate of row against column" in wide
    markdown = arena("leaderboard", out, "--format", "markdown", columns=100).stdout
    assert "| mu-3σ" in markdown and "### Win rate" in markdown
    rows = json.loads(arena("leaderboard", out, "--format", "json", columns=80).stdout)
    keys = set(rows["leaderboard"][0])
    assert {"bt", "bt_ci", "elo", "elo_bound", "los", "mu-3sigma", "timeout", "p99_ms"} <= keys
    text = arena("leaderboard", out, "--format", "csv", columns=80).stdout
    header = next(csv.reader(io.StringIO(text)))
    assert header == list(rows["leaderboard"][0])
    assert all(name.isascii() for name in header)  # no "±" in a CSV header


def test_columns_picks_and_names_the_known_ones(outputs):
    out = str(outputs["stc"])
    result = arena("leaderboard", out, "--columns", "rank,bot,elo,los,mu-3sigma", columns=100)
    assert result.returncode == 0, result.stderr
    header = result.stdout.splitlines()[2].split()
    assert header == ["#", "bot", "Elo", "±95%", "LOS", "mu-3σ"]
    result = arena("leaderboard", out, "--columns", "bot,nope", columns=100)
    assert result.returncode == 2
    assert "--columns: unknown column 'nope' (known: rank, bot, rating" in result.stderr


@pytest.mark.parametrize("columns", [100, 80])
def test_games_and_list_fit_the_terminal(outputs, columns):
    games = arena("games", columns=columns)
    assert games.returncode == 0, games.stderr
    assert widest(games.stdout) <= columns, games.stdout
    assert all(g in games.stdout for g in BOARDS)
    for game in ("blocking", "stc"):
        listing = arena("list", str(outputs[game]), columns=columns)
        assert listing.returncode == 0, listing.stderr
        assert widest(listing.stdout) <= columns, listing.stdout
        assert listing.stdout.rstrip().endswith("games") or "left out" in listing.stdout
    wide = arena("games", "--wide", columns=columns)
    assert "package" in wide.stdout and "settings" in wide.stdout


def test_list_filters_by_result_without_a_bot(outputs):
    out = str(outputs["stc"])
    forfeits = arena("list", out, "--result", "forfeit", columns=200)
    assert forfeits.returncode == 0, forfeits.stderr
    assert forfeits.stdout.strip().splitlines()[-1].startswith("7 of 30 games")
    wins = arena("list", out, "--result", "win", columns=200)
    assert wins.stdout.strip().splitlines()[-1].startswith("30 of 30 games")
