"""Resuming without checking every stored game again (issue 45): a run records what its
resume check found (:class:`~arena.results.store.ResumeCheck`); the next run under the same
tournament file and bot files checks only the games stored after it, and anything that
decides a game still makes its stored games stale."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from arena.plugins.registry import load_registry
from arena.records import GameRecord, SeatRecord
from arena.results.store import ResumeCheck, Store
from arena.tournament.config import load_tournament
from arena.tournament.formats import fixed_plan, resume_scheduler
from arena.tournament.resume import bot_identities, check_stored, resume_key
from support import STC_STRONG_SH, STC_WEAK_SH, run_arena

TOURNAMENT = """\
name: checked
game: stc
games: 2
seed: 3
concurrency: 1
settings:
  max_turns: 4
bots:
  - {{name: a, cmd: sh {bots}/a.sh}}
  - {{name: b, cmd: sh {bots}/b.sh}}
  - {{name: c, cmd: sh {bots}/c.sh}}
output: {out}
"""
PLANNED = 6  # 3 pairings, a seat-swapped pair each


def tournament(tmp_path: Path) -> tuple[Path, Path]:
    bots = tmp_path / "bots"
    bots.mkdir()
    (bots / "a.sh").write_text(STC_STRONG_SH)
    (bots / "b.sh").write_text(STC_WEAK_SH)
    (bots / "c.sh").write_text(STC_STRONG_SH)
    path = tmp_path / "t.yaml"
    out = tmp_path / "out"
    path.write_text(TOURNAMENT.format(bots=bots, out=out))
    return path, out


def stored_check(out: Path) -> ResumeCheck | None:
    store = Store(out, create=False)
    try:
        return store.resume_check()
    finally:
        store.close()


def test_a_finished_run_records_a_check_reaching_its_last_game(tmp_path):
    path, out = tournament(tmp_path)
    first = run_arena("run", str(path))
    assert first.returncode == 0, first.stderr
    config = load_tournament(path, load_registry())
    key = resume_key(config, bot_identities(config))
    assert stored_check(out) == ResumeCheck(key, PLANNED, PLANNED, PLANNED)  # ids 1 to 6


def test_an_unchanged_tournament_does_not_read_its_checked_games_again(tmp_path):
    path, out = tournament(tmp_path)
    assert run_arena("run", str(path)).returncode == 0
    # The proof that checked games are not read again: an identity changed behind
    # arena's back, in a game the check reached, goes unseen by the next run.
    db = sqlite3.connect(out / "arena.sqlite")
    with db:
        db.execute(
            "UPDATE games SET identity_hash = 'changed',"
            " identity = json_set(identity, '$.seed', 99) WHERE id = 2"
        )
    db.close()
    again = run_arena("run", str(path))
    assert again.returncode == 0, again.stderr
    assert f"resuming: {PLANNED} of {PLANNED} games already stored" in again.stderr
    # Without the check (as before it existed) the same store is refused: stale.
    db = sqlite3.connect(out / "arena.sqlite")
    with db:
        db.execute("DELETE FROM meta WHERE key = 'resume_check'")
    db.close()
    refused = run_arena("run", str(path))
    assert refused.returncode == 2
    assert "1 of the 6 games stored" in refused.stderr


def test_an_edited_bot_makes_its_checked_games_stale(tmp_path):
    path, out = tournament(tmp_path)
    assert run_arena("run", str(path)).returncode == 0
    (tmp_path / "bots" / "c.sh").write_text(STC_WEAK_SH)  # c tuned
    refused = run_arena("run", str(path))
    assert refused.returncode == 2
    assert (
        f"{path}: 4 of the 6 games stored in {out} no longer match this file: "
        f"{tmp_path / 'bots' / 'c.sh'} changed since the stored games." in refused.stderr
    )
    update = run_arena("run", str(path), "--update")
    assert update.returncode == 0, update.stderr
    assert "--update: 2 stored games kept, 4 stale games to play again" in update.stderr
    assert "4 games played now, 2 resumed" in update.stderr


def test_a_changed_setting_checks_every_game_again(tmp_path):
    path, _ = tournament(tmp_path)
    assert run_arena("run", str(path)).returncode == 0
    path.write_text(path.read_text().replace("max_turns: 4", "max_turns: 5"))
    refused = run_arena("run", str(path))
    assert refused.returncode == 2
    assert "6 of the 6 games stored" in refused.stderr
    assert "settings.max_turns 4 -> 5" in refused.stderr


def test_games_deleted_by_hand_void_the_check_and_are_played_again(tmp_path):
    path, out = tournament(tmp_path)
    assert run_arena("run", str(path)).returncode == 0
    db = sqlite3.connect(out / "arena.sqlite")
    with db:  # as a user deleting two games with sqlite3, their current rows left behind
        db.execute("DELETE FROM seats WHERE game_id IN (2, 5)")
        db.execute("DELETE FROM games WHERE id IN (2, 5)")
    db.close()
    again = run_arena("run", str(path))
    assert again.returncode == 0, again.stderr
    assert f"resuming: 4 of {PLANNED} games already stored" in again.stderr
    assert "2 games played now, 4 resumed" in again.stderr


def test_games_stored_after_the_check_are_checked(tmp_path):
    """A run killed before its end leaves games its check did not reach: the next run
    checks them (here one stored with another identity, as an edited bot's)."""
    config, plan, bots, store = planned(tmp_path)
    specs = list(plan)
    try:
        for spec in specs[:2]:
            stored(store, bots, spec)
        assert check_stored(config, store, bots, plan) == (0, resume_key(config, bots))
        assert store.resume_check() == ResumeCheck(resume_key(config, bots), 2, 2, 2)
        spec = specs[2]  # stored after the check, by a bot that has changed since
        other = dict(bots.ids.of(spec.seed, spec.variant, spec.seats), seed=99)
        store.add_game(spec.key, spec.order, spec.round, spec.group, record(spec), other)
        stored(store, bots, specs[3])  # and one stored as the file gives it
        removed, _ = check_stored(config, store, bots, plan, update=True)
        assert removed == 1
        assert store.count_current() == 3 and store.count_games() == 3
        assert store.resume_check() == ResumeCheck(resume_key(config, bots), 4, 3, 3)
        scheduler = resume_scheduler(config, store, plan)
        assert [s.key for s in scheduler.specs()] == [s.key for s in specs if s in (
            specs[2], *specs[4:])]  # fmt: skip
    finally:
        store.close()


def test_a_resumed_plan_starts_at_its_first_gap_and_skips_the_games_after_it(tmp_path):
    config, plan, bots, store = planned(tmp_path)
    specs = list(plan)
    try:
        for i in (0, 1, 3, 5):  # games 2 and 4 were still running at a stop
            stored(store, bots, specs[i])
        done = store.done_games()
        assert (done.count, done.start, done.later) == (4, 2, {specs[3].key, specs[5].key})
        scheduler = resume_scheduler(config, store, plan)
        assert (scheduler.planned, scheduler.stored) == (6, 4)
        assert [s.key for s in scheduler.specs()] == [specs[2].key, specs[4].key]
    finally:
        store.close()


def planned(tmp_path: Path):
    """The tournament's config, plan and bots' identities, and its store (empty)."""
    path, out = tournament(tmp_path)
    config = load_tournament(path, load_registry())
    plan = fixed_plan(config)
    assert plan is not None
    return config, plan, bot_identities(config), Store(out)


def stored(store: Store, bots, spec) -> None:
    """Store ``spec``'s game as the file gives it."""
    identity = bots.ids.of(spec.seed, spec.variant, spec.seats)
    store.add_game(spec.key, spec.order, spec.round, spec.group, record(spec), identity)


def record(spec) -> GameRecord:
    seats = [SeatRecord(bot=b, rank=i) for i, b in enumerate(spec.seats)]
    return GameRecord("stc", spec.seed, {"max_turns": 4}, seats, "end", 1, 1, 1.0)
