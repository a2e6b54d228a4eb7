"""The coordinator's memory over a long run (issue 45): a round-robin of ``--games`` stc
games of one turn between two quick bots, run in this process as ``arena run`` runs it
(the live report and the periodic table observing), its RSS and Python's allocated
blocks sampled every ``--every`` games; then the growth over each 1,000 games and the
slope (KB a game) over the whole run and over its second half (flat: about 0); with
``--trace``, tracemalloc's biggest growths between the first sample and the last (what
the run keeps per game; tracemalloc's own bookkeeping makes the RSS grow meanwhile).

    python3 bench/run_memory.py [--games 3000] [--every 250] [--trace] [--no-report]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "framework"))

from arena.events import GameStored, RunObserver  # noqa: E402

BOT = (
    "import sys\nwhile True:\n    lines = [sys.stdin.readline() for _ in range(34)]\n"
    "    if not lines[-1]:\n        break\n    print('0 0', flush=True)\n"
)
"""An stc bot that answers at once (any answer: one turn, the game ends)."""


def rss_mb() -> float:
    """This process's resident memory now (MB)."""
    with open("/proc/self/status") as status:
        kb = next(line.split()[1] for line in status if line.startswith("VmRSS"))
    return int(kb) / 1024


class Probe(RunObserver):
    """RSS every ``every`` games (and a tracemalloc snapshot at the first and last)."""

    def __init__(self, every: int, trace: bool) -> None:
        self.every = every
        self.trace = trace
        self.samples: list[tuple[int, float, int]] = []  # (games, RSS MB, Python blocks)
        self.first: tracemalloc.Snapshot | None = None
        self.last: tracemalloc.Snapshot | None = None

    def stored(self, event: GameStored) -> None:
        if event.played % self.every:
            return
        self.samples.append((event.played, rss_mb(), sys.getallocatedblocks()))
        _, rss, blocks = self.samples[-1]
        print(f"{event.played:>6} games: RSS {rss:.1f} MB, {blocks:,} Python blocks", flush=True)
        if self.trace:
            snapshot = tracemalloc.take_snapshot()
            if self.first is None:
                self.first = snapshot
            self.last = snapshot


def slope(a: tuple[int, float, int], b: tuple[int, float, int]) -> str:
    """The RSS and blocks gained from sample ``a`` to ``b``, and per game."""
    games = b[0] - a[0]
    mb, blocks = b[1] - a[1], b[2] - a[2]
    return (
        f"{a[0]:>6}-{b[0]:<6} games: RSS {mb:+6.2f} MB ({mb * 1024 / games:+.2f} KB a game), "
        f"{blocks:+,} Python blocks ({blocks / games:+.2f} a game)"
    )


def growth(samples: list[tuple[int, float, int]]) -> None:
    """The growth over each 1,000 games, the whole run and its second half."""
    if len(samples) < 2:
        return
    print("growth:")
    at = {sample[0]: sample for sample in samples}
    for start in range(0, samples[-1][0], 1000):
        first = at.get(start) or (samples[0] if start == 0 else None)
        last = at.get(start + 1000)
        if first is not None and last is not None and first is not last:
            print(f"  {slope(first, last)}")
    print(f"  whole run   {slope(samples[0], samples[-1])}")
    half = next(s for s in samples if s[0] >= samples[-1][0] / 2)
    if half is not samples[-1]:
        print(f"  second half {slope(half, samples[-1])}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--every", type=int, default=250)
    parser.add_argument("--trace", action="store_true")
    parser.add_argument("--no-report", action="store_true", help="without the live report")
    args = parser.parse_args()

    from arena.cli.common import installed_games
    from arena.tournament.config import load_tournament
    from arena.tournament.run import run_tournament
    from arena.views.progress import run_observers

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "quick.py").write_text(BOT)
        bot = f"{sys.executable} {folder / 'quick.py'}"
        (folder / "t.yaml").write_text(
            f"name: memory\ngame: stc\nformat: round-robin\ngames: {args.games}\nseed: 1\n"
            "settings: {max_turns: 1}\nsandbox: none\nconcurrency: 2\n"
            f"output: {folder / 'out'}\nbots:\n  - {{name: a, cmd: {bot}}}\n"
            f"  - {{name: b, cmd: {bot}}}\n"
        )
        config = load_tournament(folder / "t.yaml", installed_games())
        probe = Probe(args.every, args.trace)
        if args.trace:
            tracemalloc.start(8)
        print(f"load before: {os.getloadavg()}", flush=True)
        start, cpu = time.perf_counter(), time.process_time()
        shown = run_observers(config.output, False, 100, not args.no_report, lambda _: None)
        observers = [*shown, probe]
        summary = run_tournament(config, observers=observers, log=lambda _: None)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        print(f"{summary.played} games in {wall:.0f} s ({cpu:.0f} s of the coordinator's CPU)")
        growth(probe.samples)
        if probe.first is not None and probe.last is not None:
            print("biggest growths (tracemalloc):")
            for stat in probe.last.compare_to(probe.first, "traceback")[:8]:
                print(f"  {stat.size_diff / 1024:+9.1f} KB {stat.count_diff:+7d} blocks")
                for line in stat.traceback.format()[-6:]:
                    print(f"      {line}")
    print(f"load after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
