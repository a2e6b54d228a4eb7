"""CPU time and peak memory of `arena leaderboard` as stores grow (issue 45, part 1).

Builds stores of real GameRecords through arena's own storing API (``Store.add_game``,
batched as a run stores them, so the kept ratings are written as they are in a run):
1k, 10k, 100k (and with ``--million`` 1M) games between 10 bots, and 100k games between
1,000 bots; then runs ``arena leaderboard OUTPUT`` (``--format``: table by default, as a
user reads it; json also lists every pairing, so it grows with the pairings shown) in a
child process and prints its CPU seconds (user + system) with the fitted ratings
forgotten first (``fit s``: the first read after new games) and kept (``new s``), and its
peak resident memory, beside the same command of the code before the kept ratings
(``--old REV``, default the parent of the first ratings commit, extracted with ``git
archive``) where that finishes in reasonable time (``--old-up-to``, default 100,000
games; never for 1,000 bots: its dense pure-Python fit did not end in 818 s).

    .venv/bin/python bench/ratings_scale.py [--million] [--old REV] [--keep DIR]

Targets: at most 0.5 s and 200 MB at 1,000,000 games between 10 bots, at most 2 s at
100,000 games between 1,000 bots. Report the load (``uptime``) with the figures.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "framework"))

from arena.records import GameRecord, SeatRecord  # noqa: E402
from arena.results.store import Store  # noqa: E402

OLD_REV = "d0ef0b7"
"""main before the rating interface and the kept ratings."""


def build(out: Path, games: int, bots: int, seed: int = 1) -> float:
    """A round-robin-like store: seat-swapped pairs of random bots, random results;
    returns the CPU seconds it took."""
    names = [f"bot{i:04d}" for i in range(bots)]
    store = Store(out)
    store.set_meta(
        {"name": f"scale-{games}-{bots}", "game": "stc", "format": "league", "players": 2,
         "bots": names, "variant_keys": [], "seed": seed}
    )  # fmt: skip
    store.batch(max_games=1000, max_delay_s=5.0)
    rng = random.Random(seed)
    start = time.process_time()
    for order in range(games):
        r = order // 2
        if order % 2 == 0:
            pair = rng.sample(names, 2)
        seats = pair if order % 2 == 0 else pair[::-1]
        ranks = rng.choice([(0, 1), (1, 0), (0, 0)])
        record = GameRecord(
            game="stc", seed=r, settings={},
            seats=[
                SeatRecord(bot=b, rank=k, score=float(rng.randint(0, 2000)),
                           turn_ms=[round(rng.uniform(0.2, 60.0), 3) for _ in range(4)])
                for b, k in zip(seats, ranks, strict=True)
            ],
            reason="end", turns=40, steps=40, duration_ms=120.0,
        )  # fmt: skip
        identity = {"game": "stc", "seed": r, "bots": list(seats), "settings": {}}
        store.add_game(f"r{r}:{','.join(seats)}", order, r, f"r{r}", record, identity)
    store.close()
    return time.process_time() - start


def forget_fit(out: Path) -> None:
    """Drop the fitted ratings kept in ``out``'s store: the next read fits them again, as
    the first read after new games does."""
    import sqlite3

    db = sqlite3.connect(out / "arena.sqlite")
    with db:
        db.execute("DELETE FROM kept_meta WHERE key = 'fitted'")
    db.close()


def measure(argv: list[str], pythonpath: str | None = None) -> tuple[float, float]:
    """CPU seconds and peak MB of one child process running ``arena`` with ``argv``."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    # The child reports its own usage (RUSAGE_CHILDREN's peak is the largest child's).
    code = (
        "import resource, sys\n"
        "from arena.cli.main import main\n"
        "import arena\n"
        "rc = main(sys.argv[1:])\n"
        "r = resource.getrusage(resource.RUSAGE_SELF)\n"
        "print(f'RUSAGE {r.ru_utime + r.ru_stime} {r.ru_maxrss} {arena.__file__}', "
        "file=sys.stderr)\n"
        "sys.exit(rc)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *argv], env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"arena {' '.join(argv)} failed: {done.stderr[-500:]}")
    _, cpu, peak, where = done.stderr.strip().splitlines()[-1].split(" ", 3)
    if pythonpath and not where.startswith(pythonpath):
        raise SystemExit(f"the old code was not the one run ({where})")
    return float(cpu), int(peak) / 1024


def old_code(rev: str, into: Path) -> str:
    """The ``framework`` folder of ``rev``, extracted into ``into``: a PYTHONPATH."""
    archive = into / "old.tar"
    with archive.open("wb") as f:
        subprocess.run(["git", "archive", rev, "framework"], cwd=REPO, stdout=f, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return str(into / "framework")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--million", action="store_true", help="also 1,000,000 games")
    parser.add_argument("--old", default=OLD_REV, help="the old code's revision")
    parser.add_argument("--old-up-to", type=int, default=100_000, help="largest old run")
    parser.add_argument("--keep", type=Path, help="build the stores here and keep them")
    parser.add_argument("--quick", action="store_true", help="only 1k and 10k games")
    parser.add_argument("--format", default="table", help="the leaderboard's --format")
    args = parser.parse_args()
    cases = [(1_000, 10), (10_000, 10), (100_000, 10), (100_000, 1_000)]
    if args.quick:
        cases = cases[:2]
    elif args.million:
        cases.append((1_000_000, 10))
    work = Path(tempfile.mkdtemp(prefix="ratings-scale-"))
    root = args.keep or work
    old = old_code(args.old, work) if args.old else None
    print(f"load: {os.getloadavg()[0]:.2f} (1-min average, {os.cpu_count()} cores)")
    print(f"{'games':>9} {'bots':>5} {'build s':>8} {'fit s':>7} {'new s':>7} {'new MB':>7} "
          f"{'old s':>7} {'old MB':>7}")  # fmt: skip
    try:
        for games, bots in cases:
            out = root / f"g{games}-b{bots}"
            if not (out / "complete").exists():
                shutil.rmtree(out, ignore_errors=True)
                built = build(out, games, bots)
                (out / "complete").touch()
            else:
                built = float("nan")
            command = ["leaderboard", str(out), "--format", args.format]
            forget_fit(out)
            fit_cpu, _ = measure(command)  # fits Bradley-Terry and Elo, keeps them
            cpu, mb = measure(command)  # reads them
            line = f"{games:>9} {bots:>5} {built:>8.1f} {fit_cpu:>7.2f} {cpu:>7.2f} {mb:>7.0f}"
            if old and games <= args.old_up_to and bots <= 100:
                old_cpu, old_mb = measure(command, old)
                line += f" {old_cpu:>7.2f} {old_mb:>7.0f}"
            else:
                line += f" {'-':>7} {'-':>7}"
            print(line, flush=True)
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
        else:
            shutil.rmtree(work / "framework", ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
