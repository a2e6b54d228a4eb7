"""Remote games keep every sandbox option of the local executor (``executor: dask`` on a
real LocalCluster): ``disk_mb``, the bot's own folder (``files: folder``, shipped with it)
or only its named files (``files: named``), and the ``read_only`` paths (shipped, shown
where the tournament named them)."""

from __future__ import annotations

import sqlite3
import textwrap
from pathlib import Path

import pytest

from support import REPO
from support.hostile import MODES, arena, stc_bot, write_bot

pytest.importorskip("distributed")

GREEDY = f"python3 {REPO / 'bots' / 'stc' / 'greedy.py'}"
# Imports a module next to it, reads a file next to it and a read_only file by its path.
FOLDER_BOT = stc_bot(
    prelude="""
    import sys
    from pathlib import Path
    from piece import MOVE
    here = Path(__file__).resolve().parent
    print("book:", (here / "book.txt").read_text().strip(), file=sys.stderr)
    print("weights:", open(WEIGHTS).read().strip(), file=sys.stderr, flush=True)
    """
)
# Reserves 32 MiB in its directory at once (posix_fallocate): past a 16 MiB disk_mb.
HOG = stc_bot(
    prelude="""
    import os
    fd = os.open("fill", os.O_CREAT | os.O_WRONLY, 0o600)
    os.posix_fallocate(fd, 0, 32 << 20)
    """
)


def write(tmp_path: Path, files: str = "folder", mode: str = "none", dask: bool = True) -> Path:
    """A tournament of the folder bot against a disk hog, its files readable by nobody."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "weights.txt").write_text("0.5\n")
    folder = tmp_path / "bots" / "deep"
    bot = write_bot(
        folder, "bot.py", FOLDER_BOT.replace("WEIGHTS", repr(str(data / "weights.txt")))
    )
    (folder / "piece.py").write_text("MOVE = '0 1'\n")
    (folder / "book.txt").write_text("opening e4\n")
    hog = write_bot(tmp_path / "bots" / "hog", "hog.py", HOG)
    for path in (tmp_path, tmp_path / "bots", folder, hog.parent, data):
        path.chmod(0o755)
    config = tmp_path / "t.yaml"
    config.write_text(
        textwrap.dedent(
            f"""\
            name: remote-sandbox
            game: stc
            games: 2
            seed: 5
            concurrency: 1
            sandbox: {mode}
            disk_mb: 16
            files: {files}
            read_only: [{data}]
            {"executor: dask" if dask else ""}
            settings: {{max_turns: 3}}
            output: {tmp_path / "out"}
            bots:
              - {{name: deep, cmd: python3 {bot}}}
              - {{name: hog, cmd: python3 {hog}}}
            """
        )
    )
    return config


def seats(out: Path) -> list[tuple[str, str | None, str]]:
    db = sqlite3.connect(out / "arena.sqlite")
    try:
        return db.execute(
            "SELECT bot, forfeit, detail FROM seats ORDER BY game_id, seat"
        ).fetchall()
    finally:
        db.close()


@pytest.mark.parametrize("mode", MODES)
def test_remote_games_keep_the_disk_cap_the_bots_folder_and_read_only_paths(tmp_path, mode):
    local = tmp_path / "local"
    remote = tmp_path / "remote"
    local.mkdir()
    remote.mkdir()
    results = {}
    for where, folder in (("local", local), ("remote", remote)):
        result = arena(
            "run", str(write(folder, mode=mode, dask=where == "remote")), "--no-progress"
        )
        assert result.returncode == 0, result.stderr
        results[where] = seats(folder / "out")
        logs = [p.read_text() for p in (folder / "out").rglob("stderr-*-deep.txt")]
        assert len(logs) == 2 and all("book: opening e4\n" in log for log in logs), logs
        assert all("weights: 0.5\n" in log for log in logs), logs
    for where, found in results.items():
        by_bot = {(bot, forfeit) for bot, forfeit, _ in found}
        assert by_bot == {("deep", None), ("hog", "memory")}, (where, found)
        hog = [detail for bot, _, detail in found if bot == "hog"]
        assert all("filled its disk cap (16 MiB)" in d for d in hog), (where, hog)


@pytest.mark.parametrize("mode", MODES)
def test_files_named_hides_a_sibling_module_remotely_too(tmp_path, mode):
    if mode == "none":
        pytest.skip("without a sandbox a bot sees every file of its machine")
    result = arena("run", str(write(tmp_path, files="named", mode=mode)), "--no-progress")
    assert result.returncode == 0, result.stderr
    deep = [detail for bot, _, detail in seats(tmp_path / "out") if bot == "deep"]
    assert len(deep) == 2
    assert all("ModuleNotFoundError: No module named 'piece'" in d for d in deep), deep
