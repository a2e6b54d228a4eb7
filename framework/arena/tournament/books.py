"""Seed books: named lists of round seeds kept in an output folder (``OUTPUT/books/``).

A tournament file's ``book: NAME`` plays its rounds on the book's seeds, in order (past
the book's end, from its start again), so every run in the folder that names the book
meets the same positions: two candidates checked a week apart, with any ``seed``. The
first run that names a book it does not find makes it from ``seed`` (as many seeds as
its rounds, :func:`made_size`) and keeps it; ``arena book`` lists books, writes one from
a list, or curates one: the seeds where the stored games' results split most
(:func:`curate`).

A book file is JSON: ``{"seeds": [...], "made": "how it was made"}``; arena writes it
once and never changes it unless asked (``arena book ... --replace``), since a stored
game whose seed the book no longer has would leave the tournament.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from arena.errors import ConfigError
from arena.tournament.schedule import round_seed

BOOKS_FOLDER = "books"
OPEN_ENDED_SIZE = 1000
"""Seeds in a book made for an open-ended format (sprt, league, candidate, swiss)."""
MOST_SEEDS = 1_000_000
"""Most seeds one book holds."""
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


@dataclass(frozen=True)
class Book:
    """A named list of round seeds and how it was made."""

    name: str
    seeds: tuple[int, ...]
    made: str

    def to_json(self) -> str:
        """The book file's text."""
        return json.dumps({"seeds": list(self.seeds), "made": self.made}, indent=1) + "\n"


def name_problem(name: object) -> str | None:
    """Why ``name`` cannot name a book (None when it can): a file name, no folder."""
    if not isinstance(name, str) or not _NAME.fullmatch(name) or name.endswith("."):
        return (
            f"must be a book's name (letters, digits, '_', '-', '.', at most 64, no folder), "
            f"not {name!r}"
        )
    return None


def book_path(output: Path, name: str) -> Path:
    """Where the book ``name`` of ``output`` is kept."""
    return output / BOOKS_FOLDER / f"{name}.json"


def read_book(output: Path, name: str) -> Book | None:
    """The book ``name`` kept in ``output`` (None: there is none); :class:`ConfigError`
    naming the file when it is not a book."""
    path = book_path(output, name)
    try:
        text = path.read_text("utf-8")
    except (FileNotFoundError, NotADirectoryError):
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read the seed book: {exc}") from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ConfigError(f"{path}: not a seed book (JSON): {exc}") from None
    seeds = data.get("seeds") if isinstance(data, dict) else None
    if (
        not isinstance(seeds, list)
        or not seeds
        or len(seeds) > MOST_SEEDS
        or not all(isinstance(s, int) and not isinstance(s, bool) for s in seeds)
    ):
        raise ConfigError(f"{path}: not a seed book: `seeds` must be a non-empty list of seeds")
    return Book(name, tuple(seeds), str(data.get("made", "")))


def write_book(output: Path, book: Book, replace: bool = False) -> Path:
    """Keep ``book`` in ``output`` (atomically); :class:`ConfigError` when a book of that
    name is kept already and not ``replace``."""
    path = book_path(output, book.name)
    if path.exists() and not replace:
        raise ConfigError(
            f"{path}: the seed book {book.name!r} exists: its seeds define stored games "
            "(--replace to write it anyway)"
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(book.to_json(), encoding="utf-8")
    os.replace(tmp, path)
    return path


def list_books(output: Path) -> list[Book]:
    """Every book kept in ``output``, by name."""
    folder = output / BOOKS_FOLDER
    names = sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []
    return [b for n in names if name_problem(n) is None and (b := read_book(output, n))]


def made_size(rounds: int | None) -> int:
    """Seeds in a book made for a run of ``rounds`` rounds (None: open-ended)."""
    return OPEN_ENDED_SIZE if rounds is None else max(1, min(rounds, MOST_SEEDS))


def made_book(name: str, seed: int, size: int) -> Book:
    """The book of ``size`` seeds derived from ``seed`` (the rounds' seeds a run of that
    seed plays without a book)."""
    return Book(name, tuple(round_seed(seed, k) for k in range(size)), f"from seed {seed}")


@dataclass(frozen=True)
class SeedSplit:
    """How one seed's stored games split the bots: each bot's mean points on it."""

    seed: int
    points: dict[str, float]  # bot -> mean points per opponent met (1 win, 0.5 draw)

    @property
    def spread(self) -> float:
        """The standard deviation of the bots' mean points (0: the seed told none apart)."""
        values = list(self.points.values())
        mean = sum(values) / len(values)
        return math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))


def seed_splits(rows: Iterable[tuple[int, str, float, int]]) -> list[SeedSplit]:
    """Per seed, each bot's mean points, from rows ``(seed, bot, points, opponents met)``
    (:meth:`arena.results.store.Store.seed_points`); seeds two bots or more played."""
    by_seed: dict[int, dict[str, float]] = defaultdict(dict)
    for seed, bot, points, met in rows:
        if met:
            by_seed[seed][bot] = points / met
    return [SeedSplit(s, p) for s, p in sorted(by_seed.items()) if len(p) >= 2]


def curate(name: str, splits: list[SeedSplit], count: int, source: str) -> Book:
    """The book of the ``count`` seeds whose results split the bots most (largest spread
    first, then the smaller seed); :class:`ConfigError` when no seed told bots apart."""
    telling = [s for s in splits if s.spread > 0]
    if not telling:
        raise ConfigError(
            f"{source}: no stored seed splits the bots' results (every seed's games gave "
            "each bot the same points): play more games first"
        )
    best = sorted(telling, key=lambda s: (-s.spread, s.seed))[:count]
    return Book(
        name,
        tuple(s.seed for s in best),
        f"curated: the {len(best)} of {len(splits)} seeds of {source} whose results split "
        "the bots most",
    )
