"""Seed books (``book: NAME``, ``arena book``): kept in the output folder, made once from
a seed, shared by every run there whatever its seed; curated from stored games where the
results split most (worked out by hand)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.errors import ConfigError
from arena.plugins.registry import load_registry
from arena.results.store import Store
from arena.tournament.books import Book, curate, read_book, seed_splits, write_book
from arena.tournament.config import load_tournament
from arena.tournament.run import run_tournament
from arena.tournament.schedule import round_seed
from support import run_arena, stc_cycler


def _candidate_file(tmp_path: Path, candidate: int, seed: int, extra: str = "") -> Path:
    """A candidate (cycler ``candidate``) against the cycler of width 2, 4 games."""
    bots = tmp_path / "bots"
    bots.mkdir(exist_ok=True)
    for n in (2, candidate):
        (bots / f"c{n}.py").write_text(stc_cycler(n))
    path = tmp_path / f"check{candidate}.yaml"
    path.write_text(
        f"game: stc\nformat: candidate\ngames: 4\nseed: {seed}\nbook: pool\n"
        f"settings:\n  max_turns: 3\nbots:\n  - cmd: python3 {bots}/c{candidate}.py\n"
        f"  - cmd: python3 {bots}/c2.py\noutput: {tmp_path / 'out'}\n{extra}"
    )
    return path


def _stored_seeds(out: Path, bot: str) -> list[int]:
    store = Store(out, create=False)
    try:
        return sorted(
            {g.seed for g in store.games(current_only=False) if bot in {s.bot for s in g.seats}}
        )
    finally:
        store.close()


def test_two_candidates_checked_with_other_seeds_meet_the_same_positions(tmp_path: Path):
    said: list[str] = []
    first = load_tournament(_candidate_file(tmp_path, 6, seed=3), load_registry())
    # games 4: at most 2 rounds (a pair a round against the one pool bot)
    made = (round_seed(3, 0), round_seed(3, 1))
    assert first.seeds == made and first.book == "pool" and first.new_book
    assert run_tournament(first, log=said.append).failed == 0
    path = tmp_path / "out" / "books" / "pool.json"
    assert json.loads(path.read_text()) == {"seeds": list(made), "made": "from seed 3"}
    assert f"seed book pool: 2 seeds made from seed 3, kept in {path}" in said
    # a week later, another candidate and another seed: the kept book decides the seeds
    said.clear()
    second = load_tournament(_candidate_file(tmp_path, 3, seed=99), load_registry())
    assert second.seeds == made and not second.new_book
    assert run_tournament(second, log=said.append).failed == 0
    assert f"seed book pool: 2 seeds from {path}" in said
    assert _stored_seeds(tmp_path / "out", "c6") == _stored_seeds(tmp_path / "out", "c3")
    assert _stored_seeds(tmp_path / "out", "c3") == sorted(made)
    assert json.loads(path.read_text())["made"] == "from seed 3"  # never rewritten


def test_a_book_with_seeds_is_one_clear_line(tmp_path: Path):
    path = _candidate_file(tmp_path, 6, seed=3, extra="seeds: [1, 2]\n")
    with pytest.raises(ConfigError) as info:
        load_tournament(path, load_registry())
    assert str(info.value) == (
        f"{path}: book (line 5): give `seeds` or `book`, not both (a book is a list of seeds)"
    )


@pytest.mark.parametrize("name", ["../x", "a/b", "", ".hidden", "x" * 65])
def test_a_book_name_that_is_no_file_name_is_refused(tmp_path: Path, name: str):
    path = _candidate_file(tmp_path, 6, seed=3)
    path.write_text(path.read_text().replace("book: pool", f"book: {json.dumps(name)}"))
    with pytest.raises(ConfigError) as info:
        load_tournament(path, load_registry())
    assert str(info.value).startswith(f"{path}: book (line 5): must be a book's name")


def test_a_damaged_book_names_its_file_and_is_left_as_it_is(tmp_path: Path):
    books = tmp_path / "out" / "books"
    books.mkdir(parents=True)
    (books / "pool.json").write_text('{"seeds": []}')
    with pytest.raises(ConfigError) as info:
        load_tournament(_candidate_file(tmp_path, 6, seed=3), load_registry())
    assert str(info.value) == (
        f"{books / 'pool.json'}: not a seed book: `seeds` must be a non-empty list of seeds"
    )
    assert (books / "pool.json").read_text() == '{"seeds": []}'


def test_curating_keeps_the_seeds_whose_results_split_the_bots_most():
    rows = [
        (1, "a", 2.0, 2),  # a beat b twice on seed 1: a 1.0, b 0.0 -> spread 0.5
        (1, "b", 0.0, 2),
        (2, "a", 1.0, 2),  # each won with the first seat: 0.5 each -> spread 0
        (2, "b", 1.0, 2),
        (3, "a", 1.5, 2),  # 0.75 / 0.25 -> spread 0.25
        (3, "b", 0.5, 2),
        (4, "a", 1.0, 1),  # one bot only: tells nothing
    ]
    splits = seed_splits(rows)
    assert [s.seed for s in splits] == [1, 2, 3]
    assert [s.spread for s in splits] == [0.5, 0.0, 0.25]
    assert curate("hard", splits, 1, "out").seeds == (1,)
    book = curate("hard", splits, 5, "out")
    assert book.seeds == (1, 3)  # the seat-decided seed 2 is left out
    assert book.made == "curated: the 2 of 3 seeds of out whose results split the bots most"
    with pytest.raises(ConfigError, match="no stored seed splits"):
        curate("hard", seed_splits(rows[2:4]), 1, "out")


def test_a_stores_seed_points_follow_the_ranks_of_its_games(tmp_path: Path):
    run_tournament(load_tournament(_candidate_file(tmp_path, 6, seed=3), load_registry()))
    store = Store(tmp_path / "out", create=False)
    try:
        games = store.games(current_only=False)
        rows = store.seed_points(current_only=False)
    finally:
        store.close()
    expected: dict[tuple[int, str], list[float]] = {}
    for g in games:
        a, b = g.seats
        for me, other in ((a, b), (b, a)):
            pts = 1.0 if other.rank > me.rank else 0.5 if other.rank == me.rank else 0.0
            got = expected.setdefault((g.seed, me.bot), [0.0, 0])
            got[0] += pts
            got[1] += 1
    assert sorted(rows) == sorted((s, bot, p, int(n)) for (s, bot), (p, n) in expected.items())


def test_arena_book_lists_writes_curates_and_refuses_to_overwrite(tmp_path: Path):
    out = tmp_path / "out"
    write_book(out, Book("given", (5, 6), "a list"))
    run_tournament(load_tournament(_candidate_file(tmp_path, 6, seed=3), load_registry()))
    listed = run_arena("book", str(out))
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines() == ["given: 2 seeds (a list)", "pool: 2 seeds (from seed 3)"]
    wrote = run_arena("book", str(out), "mine", "--seeds", "7,8,9")
    assert wrote.returncode == 0 and read_book(out, "mine") == Book("mine", (7, 8, 9), wrote_made())
    again = run_arena("book", str(out), "mine", "--from-seed", "1", "--size", "3")
    assert again.returncode == 2 and again.stdout == ""
    assert again.stderr.strip().endswith("(--replace to write it anyway)")
    assert "Traceback" not in again.stderr
    replaced = run_arena("book", str(out), "mine", "--from-seed", "1", "--size", "3", "--replace")
    assert replaced.returncode == 0
    assert read_book(out, "mine") == Book(
        "mine", tuple(round_seed(1, k) for k in range(3)), "from seed 1"
    )
    shown = run_arena("book", str(out), "pool")
    assert shown.stdout.splitlines()[1] == f"{round_seed(3, 0)} {round_seed(3, 1)}"
    missing = run_arena("book", str(out), "nope")
    assert missing.returncode == 2 and "no seed book named 'nope'" in missing.stderr


def wrote_made() -> str:
    return "a list given to arena book"


def test_arena_check_plays_the_book_of_its_folder_whatever_its_seed(tmp_path: Path):
    bots = tmp_path / "bots"
    bots.mkdir()
    for n in (2, 3, 6):
        (bots / f"c{n}.py").write_text(stc_cycler(n))
    out = tmp_path / "out"
    common = ["--games", "4", "--book", "pool", "--output", str(out), "--no-progress"]
    for candidate, seed in (("c6", "3"), ("c3", "77")):
        done = run_arena(
            "check", "stc", f"python3 {bots / candidate}.py",
            "--against", f"python3 {bots}/c2.py", "--seed", seed, *common, "--sandbox", "none",
        )  # fmt: skip
        assert done.returncode in (0, 4, 5), done.stderr  # a verdict, whichever
    assert read_book(out, "pool") == Book(
        "pool", (round_seed(3, 0), round_seed(3, 1)), "from seed 3"
    )
    assert _stored_seeds(out, "c6") == _stored_seeds(out, "c3") != []
