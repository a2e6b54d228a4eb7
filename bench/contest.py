"""The coordinator's cost of a contest's league (issue 47), beside the plain league's.

    python3 bench/contest.py [--bots 10 100 1000] [--rounds 200]
                             [--run-bots 10 100] [--games 30 90]

Two measures, each for ``format: contest`` and ``format: league`` side by side:

- **pairing**: CPU ms of the scheduler's choice of the next round (and of counting its two
  results) at 10, 100 and 1,000 bots: ``--rounds`` rounds, each handed out and recorded
  (random results, so ratings move), after 20 warm-up rounds; CPU of this process
  (``time.process_time``). A league's first rounds are its coverage phase (every pairing
  once: ``n(n-1)/2`` rounds), which is what it plays here from 100 bots up.
- **server CPU per game**: real ``arena run``s (in this process: ``run_tournament``; the
  games run in its worker processes, the bots in theirs) of a league of ``--run-bots``
  tiny stc bots (no sandbox, ``max_turns: 6``, concurrency 2); the CPU of this process
  alone over the run, measured at two game counts (``--games``), fresh each time: the
  marginal cost per game, ``(cpu(G2) - cpu(G1)) / (G2 - G1)``, which leaves out the
  start-up (registry, bot identities, the folder) that both runs pay.

The load (``os.getloadavg``) is printed before and after: the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "framework"))
sys.path.insert(1, str(REPO / "games"))

from arena.records import SeatRecord  # noqa: E402
from arena.tournament.formats import ContestScheduler, LeagueScheduler  # noqa: E402

FORMATS = {"contest": ContestScheduler, "league": LeagueScheduler}
BOT = """\
import sys
turn = 0
while True:
    lines = [sys.stdin.readline() for _ in range(34)]
    if not lines[0]:
        break
    print(f"{turn % WIDTH} 1", flush=True)
    turn += 1
"""


def scheduler(fmt: str, bots: int, output: Path) -> Any:
    """A scheduler of ``fmt`` over ``bots`` bots, nothing stored (a stand-in config)."""
    config = SimpleNamespace(
        bots=[SimpleNamespace(name=f"b{i}", owner=f"o{i // 3}") for i in range(bots)],
        variants=[], schedule_seed=1, games=None, retired=(), output=output, leagues=(),
    )  # fmt: skip
    return FORMATS[fmt](config, [])


def pairing_ms(fmt: str, bots: int, rounds: int, output: Path) -> float:
    """CPU ms per round: choosing it, handing out its two games, counting their results."""
    rng = random.Random(bots)
    s = scheduler(fmt, bots, output)
    games = s.specs()

    def one_round() -> None:
        for _ in range(2):
            spec = next(games)
            winner = rng.randrange(3)  # 0, 1: that seat wins; 2: a draw
            seats = [
                SeatRecord(bot=b, rank=0 if winner in (i, 2) else 1)
                for i, b in enumerate(spec.seats)
            ]
            s.record(spec, seats, {})

    for _ in range(20):
        one_round()
    start = time.process_time()
    for _ in range(rounds):
        one_round()
    return (time.process_time() - start) / rounds * 1000


def league_file(folder: Path, fmt: str, bots: int, games: int) -> Path:
    """A tournament file of ``bots`` tiny stc bots (a contest's: owners of three each)."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = []
    for i in range(bots):
        path = folder / f"bot{i}.py"
        path.write_text(BOT.replace("WIDTH", str(3 + i % 4)))
        owner = f", owner: o{i // 3}" if fmt == "contest" else ""
        lines.append(f"  - {{name: b{i}, cmd: python3 {path}{owner}}}")
    path = folder / f"{fmt}.yaml"
    path.write_text(
        textwrap.dedent(f"""\
        game: stc
        format: {fmt}
        games: {games}
        sandbox: none
        concurrency: 2
        settings:
          max_turns: 6
        output: {folder / "out"}
        bots:
        """)
        + "\n".join(lines)
        + "\n"
    )
    return path


def run_cpu(fmt: str, bots: int, games: int, root: Path) -> float:
    """CPU seconds of this process over one fresh run of ``games`` games."""
    from arena.plugins.registry import load_registry
    from arena.tournament.config import load_tournament
    from arena.tournament.run import run_tournament

    path = league_file(root / f"{fmt}-{bots}-{games}", fmt, bots, games)
    config = load_tournament(path, load_registry())
    start = time.process_time()
    summary = run_tournament(config, log=lambda line: None, fresh=True)
    cpu = time.process_time() - start
    assert summary.played == games, summary
    return cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--run-bots", type=int, nargs="+", default=[10, 100])
    parser.add_argument("--games", type=int, nargs=2, default=[30, 90])
    args = parser.parse_args()
    print(f"load before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory(prefix="arena-bench-contest-") as tmp:
        root = Path(tmp)
        print(f"{'pairing, CPU ms a round':<28}{'contest':>10}{'league':>10}")
        for bots in args.bots:
            cells = [pairing_ms(fmt, bots, args.rounds, root) for fmt in FORMATS]
            print(f"{f'{bots:,} bots':<28}" + "".join(f"{ms:>10.3f}" for ms in cells))
        low, high = args.games
        print(f"{'server CPU ms a game':<28}{'contest':>10}{'league':>10}")
        for bots in args.run_bots:
            cells = []
            for fmt in FORMATS:
                first, second = (run_cpu(fmt, bots, g, root) for g in (low, high))
                cells.append((second - first) / (high - low) * 1000)
            print(
                f"{f'{bots:,} bots ({low}->{high} games)':<28}"
                + "".join(f"{ms:>10.2f}" for ms in cells)
            )
    print(f"load after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
