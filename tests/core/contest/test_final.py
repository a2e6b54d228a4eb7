"""The contest's final: each owner's newest version (bosses only when asked) plays every
other, seat-swapped on shared seeds, in OUTPUT/final; resumable; one clear message for a
mistake, from Python and from `arena contest final`."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from arena.contest.final import final_bots, league_config, run_final
from arena.errors import ConfigError
from support import run_arena
from support.contest_league import contest_league


def final_games(folder: Path) -> list[tuple[int, int, tuple[str, ...]]]:
    """(round, seed, seats) of every stored game, in the order they were played."""
    db = sqlite3.connect(folder / "arena.sqlite")
    try:
        seats: dict[int, tuple[str, ...]] = {}
        for game, bot in db.execute("SELECT game_id, bot FROM seats ORDER BY game_id, seat"):
            seats[game] = (*seats.get(game, ()), bot)
        rows = db.execute("SELECT id, round, seed FROM games ORDER BY id").fetchall()
        return [(r, seed, seats[i]) for i, r, seed in rows]
    finally:
        db.close()


def games_so_far(folder: Path) -> int:
    """The final's stored games while it runs (0 before its tables exist)."""
    try:
        return len(final_games(folder))
    except sqlite3.OperationalError:  # the run is making the store
        return 0


@pytest.fixture(scope="module")
def league(tmp_path_factory) -> Path:
    return contest_league(tmp_path_factory.mktemp("final"))


def test_the_final_versions_are_each_owners_newest_not_retired(league):
    config = league_config(league)
    assert [b.name for b in final_bots(config)] == ["ann-v3", "bob-v1", "=cat-v1"]
    assert [b.name for b in final_bots(config, bosses=True)] == [
        "boss",
        "ann-v3",
        "bob-v1",
        "=cat-v1",
    ]


def test_every_pair_plays_seat_swapped_on_shared_seeds_and_resumes(league):
    folder = run_final(league, 4)
    assert folder == league / "final"
    games = final_games(folder)
    pairs = [("ann-v3", "bob-v1"), ("ann-v3", "=cat-v1"), ("bob-v1", "=cat-v1")]
    # Round r's one seed for every pair; each pair plays it in both seats.
    assert len(games) == 3 * 4
    for r in (0, 1):
        of_round = [g for g in games if g[0] == r]
        assert len({seed for _, seed, _ in of_round}) == 1
        assert sorted(s for _, _, s in of_round) == sorted([*pairs, *(p[::-1] for p in pairs)])
    # Again: nothing replayed; with more games per pair the stored ones are kept.
    run_final(league, 4)
    assert final_games(folder) == games
    said: list[str] = []
    run_final(league, 6, log=said.append)
    assert final_games(folder)[:12] == games and len(final_games(folder)) == 18
    assert any("resuming: 12 of 18 games already stored" in line for line in said)


@pytest.mark.parametrize(
    ("games", "message"),
    [
        (3, "--games-per-pair: must be an even whole number of at least 2 (each seed played in "
            "both seats), not 3"),
        (0, "--games-per-pair: must be an even whole number of at least 2 (each seed played in "
            "both seats), not 0"),
    ],
)  # fmt: skip
def test_an_odd_or_no_game_count_is_refused(league, games, message):
    with pytest.raises(ConfigError) as info:
        run_final(league, games)
    assert str(info.value) == message


def test_a_folder_that_is_no_contest_is_one_line_exit_2(tmp_path, league):
    with pytest.raises(ConfigError) as info:
        run_final(tmp_path, 2)
    assert str(info.value) == f"{tmp_path}: not a contest's folder (no tournament.yaml in it)"
    cli = run_arena("contest", "final", str(tmp_path))
    assert cli.returncode == 2
    assert cli.stderr == f"arena: {tmp_path}: not a contest's folder (no tournament.yaml in it)\n"


def test_arena_contest_final_plays_it_and_prints_the_leaderboard(league):
    cli = run_arena("contest", "final", str(league), "--games-per-pair", "6")
    assert cli.returncode == 0, cli.stderr
    lines = cli.stdout.splitlines()
    assert lines[0] == "rank,bot,owner,league,rating,interval,games,wins,draws,losses"
    assert sorted(line.split(",")[1] for line in lines[1:]) == ["'=cat-v1", "ann-v3", "bob-v1"]
    assert all(line.split(",")[6] == "12" for line in lines[1:])  # 6 games against each other
    assert f"the final is in {league / 'final'}" in cli.stderr


def test_a_final_stopped_by_ctrl_c_exits_130_and_resumes(tmp_path):
    import signal
    import subprocess
    import sys
    import time

    league = contest_league(tmp_path, games=2)
    final = league / "final"
    run = subprocess.Popen(
        [sys.executable, "-m", "arena", "contest", "final", str(league), "--games-per-pair", "20"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 600
        while not ((final / "arena.sqlite").is_file() and games_so_far(final)):
            assert time.monotonic() < deadline, "no game of the final was stored"
            time.sleep(0.2)
    finally:
        run.send_signal(signal.SIGINT)
        _, err = run.communicate(timeout=600)
    assert run.returncode == 130, err
    kept = final_games(final)
    assert 0 < len(kept) < 60
    assert exported_board(league) == "league"  # a final cut short is no ranking yet
    again = run_arena("contest", "final", str(league), "--games-per-pair", "20")
    assert again.returncode == 0, again.stderr
    assert final_games(final)[: len(kept)] == kept and len(final_games(final)) == 60
    assert f"resuming: {len(kept)} of 60 games already stored" in again.stderr
    assert exported_board(league) == "final"


def exported_board(league):
    """Which leaderboard ``arena contest export --json`` writes."""
    import json

    cli = run_arena("contest", "export", str(league), "--json", "-")
    assert cli.returncode == 0, cli.stderr
    return json.loads(cli.stdout)["leaderboard"]
