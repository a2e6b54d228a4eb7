"""``arena book OUTPUT [NAME]``: the seed books of an output folder.

Without a name it lists the folder's books; with one it shows the book, or writes it:
``--seeds 1,2,3`` (a list), ``--from-seed S --size N`` (seeds derived from ``S``, as a
run of that seed plays), or ``--curate N`` (the ``N`` seeds whose stored games split
the bots' results most, from this folder's games or ``--games-from`` another's). A
tournament then plays the book with ``book: NAME`` (or ``arena run --book NAME``,
``arena check --book NAME``). See docs/tournaments.md, Seed books.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from arena.errors import EXIT_OK, ConfigError


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def add_parsers(sub: Any) -> None:
    """The ``book`` command."""
    from arena.tournament.keys import parse_seeds

    p = sub.add_parser("book", help="list, show, write or curate an output folder's seed books")
    p.add_argument("output", type=Path, help="the output folder")
    p.add_argument("name", nargs="?", help="the book (none: list the folder's books)")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--seeds", type=parse_seeds, metavar="S1,S2,...", help="write these seeds")
    how.add_argument(
        "--from-seed", type=int, metavar="S", help="write the rounds' seeds a run of seed S plays"
    )
    how.add_argument(
        "--curate", type=_count, metavar="N", help="write the N seeds whose games split most"
    )
    p.add_argument("--size", type=_count, default=100, metavar="N", help="--from-seed: seeds")
    p.add_argument(
        "--games-from", type=Path, metavar="OUTPUT", help="--curate: read another folder's games"
    )
    p.add_argument("--replace", action="store_true", help="overwrite a book that exists")
    p.set_defaults(func=cmd_book)


def cmd_book(args: argparse.Namespace, extra: list[str]) -> int:
    """List, show or write a seed book."""
    from arena.tournament import books

    if args.name is None:
        if args.seeds or args.from_seed is not None or args.curate:
            raise ConfigError("arena book: name the book to write (arena book OUTPUT NAME ...)")
        return _list(args.output)
    if (why := books.name_problem(args.name)) is not None:
        raise ConfigError(f"arena book: {why}")
    if args.seeds:
        book = books.Book(args.name, args.seeds, "a list given to arena book")
    elif args.from_seed is not None:
        book = books.made_book(args.name, args.from_seed, args.size)
    elif args.curate:
        book = _curated(args.name, args.games_from or args.output, args.curate)
    else:
        return _show(args.output, args.name)
    if not args.output.is_dir():
        raise ConfigError(f"{args.output}: no such output folder")
    path = books.write_book(args.output, book, replace=args.replace)
    print(f"seed book {book.name}: {len(book.seeds)} seeds ({book.made}), written to {path}")
    return EXIT_OK


def _curated(name: str, source: Path, count: int) -> Any:
    from arena.results.store import open_existing
    from arena.tournament import books

    store = open_existing(source)
    try:
        rows = store.seed_points(current_only=False)
    finally:
        store.close()
    return books.curate(name, books.seed_splits(rows), count, str(source))


def _list(output: Path) -> int:
    from arena.tournament.books import list_books

    found = list_books(output)
    if not found:
        print(f"no seed book in {output} (arena book {output} NAME --curate N, or book: NAME)")
    for book in found:
        print(f"{book.name}: {len(book.seeds)} seeds ({book.made})")
    return EXIT_OK


def _show(output: Path, name: str) -> int:
    from arena.tournament.books import book_path, read_book

    book = read_book(output, name)
    if book is None:
        raise ConfigError(f"{book_path(output, name)}: no seed book named {name!r} in {output}")
    print(f"{book.name}: {len(book.seeds)} seeds ({book.made})")
    print(" ".join(str(s) for s in book.seeds))
    return EXIT_OK
