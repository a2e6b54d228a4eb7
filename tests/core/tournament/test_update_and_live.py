"""Through the real CLI: `--update` after editing a bot, the leaderboard every N games,
the live report, an explicit list of seeds, `arena match --output` read by the other
commands, and the SPRT's expected length."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from arena.records import SeatRecord
from arena.tournament.config import load_tournament
from arena.tournament.formats import SprtScheduler
from arena.tournament.schedule import pair_round
from support import run_arena, stc_cycler

TOURNAMENT = """\
name: live
game: stc
{games}
concurrency: 1
settings:
  max_turns: 2
bots:
  - name: a
    cmd: python3 bots/a.py
  - name: b
    cmd: python3 bots/b.py
  - name: c
    cmd: python3 bots/c.py
{extra}output: {out}
"""


def setup(root: Path, games: str = "games: 2", extra: str = "") -> Path:
    (root / "bots").mkdir(parents=True, exist_ok=True)
    for name, width in (("a", 6), ("b", 3), ("c", 4)):
        (root / "bots" / f"{name}.py").write_text(stc_cycler(width))
    path = root / "t.yaml"
    path.write_text(TOURNAMENT.format(games=games, extra=extra, out=root / "out"))
    return path


def stored(out: Path) -> list[tuple[str, int, str]]:
    db = sqlite3.connect(out / "arena.sqlite")
    try:
        return db.execute("SELECT key, seed, finished_at || id FROM games ORDER BY key").fetchall()
    finally:
        db.close()


def test_update_replays_only_the_games_of_the_edited_bot(tmp_path):
    path = setup(tmp_path)
    first = run_arena("run", str(path), "--no-progress")
    assert first.returncode == 0, first.stderr
    before = {key: row for key, *row in stored(tmp_path / "out")}
    assert len(before) == 6  # three pairings, seats swapped
    with (tmp_path / "bots" / "b.py").open("a") as bot:
        bot.write("# tuned\n")
    refused = run_arena("run", str(path), "--no-progress")
    assert refused.returncode == 2
    assert "4 of the 6 games stored" in refused.stderr
    assert "Run with --update to play only those 4 games again" in refused.stderr
    assert "To keep the old b as another bot: save its old version as bots/b_v1.py" in (
        refused.stderr
    )
    assert "`- {name: b_v1, cmd: python3 bots/b_v1.py}`" in refused.stderr
    update = run_arena("run", str(path), "--no-progress", "--update")
    assert update.returncode == 0, update.stderr
    assert "--update: 2 stored games kept, 4 stale games to play again" in update.stderr
    assert "4 games played now, 2 resumed" in update.stderr
    after = {key: row for key, *row in stored(tmp_path / "out")}
    assert set(after) == set(before)
    kept = [k for k in before if "b" not in k.split(":")[1].split(",")]
    assert len(kept) == 2 and all(after[k] == before[k] for k in kept)
    assert all(after[k] != before[k] for k in before if k not in kept)
    again = run_arena("run", str(path), "--no-progress")
    assert again.returncode == 0 and "0 games played now, 6 resumed" in again.stderr


def test_the_leaderboard_every_n_games_and_the_report_as_games_end(tmp_path):
    path = setup(tmp_path)
    result = run_arena("run", str(path), "--no-progress", "--rating-interval", "2")
    assert result.returncode == 0, result.stderr
    for n in (2, 4, 6):
        assert f"--- live: {n} games stored" in result.stderr
    block = result.stderr.split("--- live: 2 games stored\n")[1]
    assert block.splitlines()[0].split()[:4] == ["#", "bot", "BT", "±95%"]
    report = (tmp_path / "out" / "report.html").read_text()
    assert 'http-equiv="refresh"' not in report  # the last write, after the run, is final
    assert not list((tmp_path / "out").glob(".report.html.*"))  # written aside, renamed
    path.write_text(
        path.read_text().replace("concurrency: 1", "concurrency: 1\nrating_interval: x")
    )
    bad = run_arena("run", str(path), "--no-progress")
    assert bad.returncode == 2 and "rating_interval" in bad.stderr


def test_the_live_report_reloads_itself(tmp_path):
    from arena.views.report import write_report

    path = setup(tmp_path)
    assert run_arena("run", str(path), "--no-progress").returncode == 0
    write_report(tmp_path / "out", live=True)
    assert (
        '<meta http-equiv="refresh" content="5">' in (tmp_path / "out" / "report.html").read_text()
    )


def test_one_round_per_seed_of_a_list(tmp_path):
    path = setup(tmp_path, games="seeds: [7, 8, 9]")
    result = run_arena("run", str(path), "--no-progress")
    assert result.returncode == 0, result.stderr
    seeds = sorted({seed for _, seed, _ in stored(tmp_path / "out")})
    assert seeds == [7, 8, 9] and len(stored(tmp_path / "out")) == 18
    other = tmp_path / "other"
    path2 = setup(other)
    result = run_arena("run", str(path2), "--no-progress", "--seeds", "3,4")
    assert result.returncode == 0, result.stderr
    assert sorted({seed for _, seed, _ in stored(other / "out")}) == [3, 4]
    both = run_arena("run", str(path2), "--seeds", "3", "--games", "4")
    assert both.returncode == 2 and "--seeds: plays one round per seed" in both.stderr
    path2.write_text(path2.read_text().replace("games: 2", "games: 2\nseeds: [1]"))
    refused = run_arena("run", str(path2))
    assert refused.returncode == 2 and "give `games` or `seeds`, not both" in refused.stderr


def test_match_output_is_read_by_list_leaderboard_and_report(tmp_path):
    out = tmp_path / "m"
    match = run_arena(
        "match", "stc", "python3 bots/stc/greedy.py", "python3 bots/stc/random_bot.py",
        "--games", "4", "--max_turns", "3", "--output", str(out),
    )  # fmt: skip
    assert match.returncode == 0, match.stderr
    line = next(x for x in match.stdout.splitlines() if x.startswith("greedy vs random_bot:"))
    assert "4 games" in line and "Elo " in line and "LOS " in line and "Ptnml(0-2) [" in line
    listing = run_arena("list", str(out))
    assert listing.returncode == 0
    assert listing.stdout.strip().splitlines()[-1].startswith("4 of 4 games")
    board = json.loads(run_arena("leaderboard", str(out), "--format", "json").stdout)
    assert sorted(r["bot"] for r in board["leaderboard"]) == ["greedy", "random_bot"]
    assert sum(r["games"] for r in board["leaderboard"]) == 8
    pair = next(p for p in board["pairwise"] if p["bot"] == "greedy")
    assert pair["pairs"] == 2 and sum(pair["ptnml"]) == 2
    report = run_arena("report", str(out))
    assert report.returncode == 0 and "(4 viewers written)" in report.stdout
    again = run_arena(
        "match", "stc", "python3 bots/stc/greedy.py", "python3 bots/stc/greedy.py",
        "--games", "2", "--max_turns", "3", "--output", str(out),
    )  # fmt: skip
    assert again.returncode == 0 and "held an earlier match" in again.stderr
    last = run_arena("list", str(out)).stdout.strip().splitlines()[-1]
    assert last.startswith("2 of 2 games")


def test_the_sprt_expects_games_from_the_llr_not_the_maximum(tmp_path):
    path = setup(tmp_path)
    text = path.read_text().replace("  - name: c\n    cmd: python3 bots/c.py\n", "")
    sprt_keys = "format: sprt\ngames: 10000\nsprt: {elo0: 0, elo1: 10}"
    path.write_text(text.replace("games: 2", sprt_keys))
    from arena.plugins.registry import load_registry

    config = load_tournament(path, load_registry())
    sprt = SprtScheduler(config, [])
    assert sprt.expected_total() is None  # no pair yet
    for r in range(10):  # a wins every pair: the LLR climbs fast
        for spec in pair_round("a", "b", r, config.seed):
            first = spec.seats[0] == "a"
            seats = [SeatRecord(bot=spec.seats[0], rank=0 if first else 1),
                     SeatRecord(bot=spec.seats[1], rank=1 if first else 0)]  # fmt: skip
            sprt.record(spec, seats, {})
    r = sprt.result()
    expected = sprt.expected_total()
    assert expected is not None and expected < 10000
    if r.verdict is None:
        assert expected == max(22, -(-20 * r.test.upper // r.llr))
    else:
        assert expected == 20
