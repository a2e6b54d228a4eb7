"""The coordinator's memory over a long run (issue 45): a round-robin of ``--games`` stc
games of one turn between two quick bots, run in this process as ``arena run`` runs it
(the live report and the periodic table observing), its RSS sampled every ``--every``
games; with ``--trace``, tracemalloc's biggest growths between the first sample and the
last (what the run keeps per game).

    python3 bench/run_memory.py [--games 3000] [--every 250] [--trace]
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
        self.samples: list[tuple[int, float]] = []
        self.first: tracemalloc.Snapshot | None = None
        self.last: tracemalloc.Snapshot | None = None

    def stored(self, event: GameStored) -> None:
        if event.played % self.every:
            return
        self.samples.append((event.played, rss_mb()))
        print(f"{event.played:>6} games: RSS {self.samples[-1][1]:.1f} MB", flush=True)
        if self.trace:
            snapshot = tracemalloc.take_snapshot()
            if self.first is None:
                self.first = snapshot
            self.last = snapshot


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--every", type=int, default=250)
    parser.add_argument("--trace", action="store_true")
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
        observers = [*run_observers(config.output, False, 100, True, lambda _: None), probe]
        summary = run_tournament(config, observers=observers, log=lambda _: None)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        print(f"{summary.played} games in {wall:.0f} s ({cpu:.0f} s of the coordinator's CPU)")
        if len(probe.samples) >= 2:
            (n0, m0), (n1, m1) = probe.samples[0], probe.samples[-1]
            growth = (m1 - m0) * 1024 / (n1 - n0)
            print(f"RSS {m0:.1f} MB at {n0} games, {m1:.1f} MB at {n1}: {growth:.2f} KB a game")
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
