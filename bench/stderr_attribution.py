"""Stderr attribution: every line a bot logs lands with the turn it belongs to.

The shipped Smash The Code bots each log ``turn K`` (bot0 ``== turn K``) once per turn,
after or around their answer; a bot added here logs ``turn K`` 5 ms after answering. They
play a round-robin at the default concurrency with a CPU hog (2 x cores busy processes
outside arena) running; then every step of every replay is read: a ``turn K`` line filed
under another turn's step is misfiled. Prints the counts per bot, the time it took, and
the machine's load, steal time and CPU count.

    python3 bench/stderr_attribution.py [--games 60] [--hog N|auto] [--sandbox auto|none]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arena.plugins.registry import load_registry
from arena.tournament.config import load_tournament
from arena.tournament.run import run_tournament

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import machine, steal_ms

REPO = Path(__file__).resolve().parent.parent
HOG = "while True: pass"
MARK = re.compile(r"^(?:== )?turn (\d+)\b", re.MULTILINE)
LATE_LOGGER = """\
import sys, time
turn = 0
while True:
    lines = [sys.stdin.readline() for _ in range(34)]
    if not lines[-1]:
        break
    print(f"{turn % 6} 1", flush=True)
    time.sleep(0.005)  # its log comes 5 ms after its answer
    print(f"turn {turn}", file=sys.stderr, flush=True)
    turn += 1
"""


def tally(out: Path) -> dict[str, list[int]]:
    """Per bot: [turn logs filed with their turn, misfiled]."""
    counts: dict[str, list[int]] = {}
    for replay_path in sorted(out.rglob("replay.json")):
        replay = json.loads(replay_path.read_text())
        players = replay["players"]
        for index, step in enumerate(replay["steps"]):
            for seat, io in step["io"].items():
                c = counts.setdefault(players[int(seat)], [0, 0])
                for mark in MARK.finditer(io.get("stderr", "")):
                    c[int(mark.group(1)) != index] += 1
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60, help="games in all (about)")
    parser.add_argument("--hog", default="auto", help="busy processes (auto: 2 x cores)")
    parser.add_argument("--sandbox", default="auto")
    args = parser.parse_args()
    hogs = 2 * (os.cpu_count() or 1) if args.hog == "auto" else int(args.hog)
    root = Path(tempfile.mkdtemp(prefix="stderr-attribution-"))
    (root / "late.py").write_text(LATE_LOGGER)
    names = ("random_bot", "greedy", "enemy", "bot0")
    bots = [f"  - {{name: {n}, cmd: python3 {REPO / 'bots/stc' / (n + '.py')}}}" for n in names]
    bots.append(f"  - {{name: late5ms, cmd: python3 {root / 'late.py'}}}")
    pairs = len(bots) * (len(bots) - 1) // 2
    per_pair = max(2, 2 * round(args.games / pairs / 2))
    (root / "t.yaml").write_text(
        f"name: stderr\ngame: stc\nformat: round-robin\ngames: {per_pair}\nseed: 1\n"
        f"sandbox: {args.sandbox}\nsettings: {{max_turns: 60}}\noutput: {root / 'out'}\n"
        "bots:\n" + "\n".join(bots) + "\n"
    )
    print(f"stderr attribution: {per_pair * pairs} games, {hogs} busy processes; {machine()}")
    busy = [
        subprocess.Popen([sys.executable, "-c", HOG], start_new_session=True) for _ in range(hogs)
    ]
    started, stolen = time.perf_counter(), steal_ms()
    try:
        config = load_tournament(root / "t.yaml", load_registry())
        summary = run_tournament(config, log=lambda _: None)
        counts = tally(root / "out")
    finally:
        for proc in busy:
            proc.kill()
            proc.wait()
        shutil.rmtree(root, ignore_errors=True)
    steal = steal_ms()
    misfiled = sum(c[1] for c in counts.values())
    for bot, (right, wrong) in sorted(counts.items()):
        print(f"  {bot}: {right + wrong} turn logs, {wrong} misfiled")
    print(
        f"{summary.played} games at concurrency {config.concurrency} in "
        f"{time.perf_counter() - started:.0f} s, {summary.replayed} stall replays, "
        f"{summary.abandoned} given up; {machine()}, steal "
        + ("unknown" if steal is None or stolen is None else f"{steal - stolen:.0f} ms")
        + f": {misfiled} misfiled: "
        + ("OK" if misfiled == 0 else "FAILED")
    )
    return 0 if misfiled == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
