"""A contest's results for its organisers: the leaderboard as CSV or JSON, and a zip of
every game's replay.

The leaderboard is the final's (``OUTPUT/final``, once :func:`arena.contest.final.run_final`
has played it to its end) or else the league's: per bot its rank, name, owner, league (a
contest with leagues), rating (the value it is sorted by) with its interval as the
leaderboard prints it, and its games, wins, draws and losses. The owner is shown here
and nowhere public: the export is the organisers'.
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from arena.contest.final import FINAL_FOLDER

COLUMNS = (
    "rank",
    "bot",
    "owner",
    "league",
    "rating",
    "interval",
    "games",
    "wins",
    "draws",
    "losses",
)
"""The leaderboard's columns, in order (CSV header, JSON keys)."""
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""A CSV cell starting with one of these is a formula to a spreadsheet: it is quoted."""


def board_folder(output: Path, final: bool | None = None) -> tuple[str, Path]:
    """Which leaderboard is exported, and its folder: the final's once it was played to its
    end (a final cut short is no ranking yet: run it again), else the league's; ``final``
    True or False asks for one (the final's once it has games)."""
    from arena.results.status import read_status

    folder = output / FINAL_FOLDER
    if final is None:
        final = (read_status(folder) or {}).get("state") == "done"
    if final and (folder / "arena.sqlite").is_file():
        return "final", folder
    return "league", output


def export_json(output: Path, final: bool | None = None) -> dict[str, Any]:
    """The leaderboard: ``{"leaderboard": "final" | "league", "rating": NAME, "rows":
    [{rank, bot, owner, league, rating, interval, games, wins, draws, losses}, ...]}``."""
    from arena.results import ratings
    from arena.results.leaderboard import leaderboard_from_store
    from arena.results.status import read_status
    from arena.results.store import open_existing

    which, folder = board_folder(output, final)
    store = open_existing(folder)
    try:
        board = leaderboard_from_store(store)
        owners = store.meta().get("owners") or {}
    finally:
        store.close()
    leagues = (read_status(output) or {}).get("leagues") or {} if which == "league" else {}
    headline = ratings.get(board.rating).headline
    rows = []
    for rank, s in enumerate(board.stats, start=1):
        rated = s.ratings.get(board.rating)
        value = None if rated is None or rated.value is None else round(rated.value, 2)
        if rated is not None and rated.numbers.get(headline) is not None:
            value = rated.numbers[headline]  # as the leaderboard's JSON rounds it
        rows.append(
            {
                "rank": rank,
                "bot": s.name,
                "owner": owners.get(s.name),
                "league": leagues.get(s.name),
                "rating": value,
                "interval": None if rated is None else rated.cells.get(headline),
                "games": s.games,
                "wins": s.wins,
                "draws": s.draws,
                "losses": s.losses,
            }
        )
    return {"leaderboard": which, "rating": board.rating, "rows": rows}


def export_csv(output: Path, final: bool | None = None) -> str:
    """The leaderboard of :func:`export_json` as CSV, a header line first (empty cells
    for none; a text cell that a spreadsheet would run as a formula starts with ``'``)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in export_json(output, final)["rows"]:
        writer.writerow(_cell(row[key]) for key in COLUMNS)
    return out.getvalue()


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def replay_files(output: Path) -> Iterator[tuple[Path, str]]:
    """Every stored game's replay (the league's, then the final's): its file and its
    name in the zip, ``league/<game folder>/replay.json`` or ``final/...``."""
    from arena.results.store import open_existing

    for which, folder in (("league", output), ("final", output / FINAL_FOLDER)):
        if not (folder / "arena.sqlite").is_file():
            continue
        store = open_existing(folder)
        try:
            dirs = [g.dir for g in store.games(current_only=False)]
        finally:
            store.close()
        for game_dir in dirs:
            path = folder / game_dir / "replay.json"
            if path.is_file():
                yield path, f"{which}/{Path(game_dir).name}/replay.json"


def export_replays(output: Path, dest: BinaryIO) -> None:
    """A zip of every game's replay written to ``dest`` (which need not seek: a response
    being sent); each file is copied through in chunks, so memory stays bounded."""
    from arena.results.store import open_existing

    open_existing(output).close()  # not a contest's folder: one clear message, no empty zip
    with zipfile.ZipFile(dest, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path, name in replay_files(output):
            archive.write(path, name)
