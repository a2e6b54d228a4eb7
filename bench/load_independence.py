"""Results independent of load: bot0 against enemy (Smash The Code), the same seat-swapped
games played alone on the machine (one game at a time, no other work) and at the default
concurrency with a CPU hog (2 x cores busy processes outside arena) running.

Prints, for each run: bot0's win rate with its 95% (Wilson) interval, the timeouts of
each bot, the games replayed after a stall and given up, the time it took, and the
machine's load, steal time and CPU count. The two win rates must lie within each other's
interval, with 0 timeouts in both.

    python3 bench/load_independence.py [--games 200] [--hog N|auto] [--sandbox auto|none]
"""

from __future__ import annotations

import argparse
import math
import os
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


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a win rate (draws count half)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def play(root: Path, label: str, games: int, concurrency: int | None, sandbox: str) -> dict:
    """Play ``games`` bot0-enemy games (seats swapped per seed); what came out."""
    out = root / label
    config_text = f"""
name: load-{label}
game: stc
format: round-robin
games: {games}
seed: 1
sandbox: {sandbox}
bots:
  - name: bot0
    cmd: python3 {REPO / "bots/stc/bot0.py"}
  - name: enemy
    cmd: python3 {REPO / "bots/stc/enemy.py"}
output: {out}
"""
    if concurrency is not None:
        config_text += f"concurrency: {concurrency}\n"
    path = root / f"{label}.yaml"
    path.write_text(config_text)
    config = load_tournament(path, load_registry())
    started, stolen = time.perf_counter(), steal_ms()
    summary = run_tournament(config, log=lambda _: None)
    took = time.perf_counter() - started
    rows = {row["bot"]: row for row in summary.leaderboard.rows()}
    bot0 = rows["bot0"]
    n = int(bot0["games"])
    wins = float(bot0.get("wins", 0)) + 0.5 * float(bot0.get("draws", 0))
    steal = steal_ms()
    return {
        "label": label,
        "concurrency": config.concurrency,
        "games": n,
        "wins": wins,
        "interval": wilson(wins, n),
        "timeouts": {b: int(r.get("timeout", 0)) for b, r in rows.items()},
        "replayed": summary.replayed,
        "given_up": summary.abandoned,
        "took": took,
        "steal": None if steal is None or stolen is None else steal - stolen,
        "machine": machine(),
    }


def show(r: dict) -> None:
    low, high = r["interval"]
    steal = "unknown" if r["steal"] is None else f"{r['steal']:.0f} ms"
    print(
        f"{r['label']}: {r['games']} games at concurrency {r['concurrency']} in {r['took']:.0f} s;"
        f" bot0 win rate {r['wins'] / max(1, r['games']):.3f} [{low:.3f}, {high:.3f}];"
        f" timeouts {r['timeouts']}; {r['replayed']} stall replays, {r['given_up']} given up;"
        f" {r['machine']}, steal {steal}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per run (even)")
    parser.add_argument("--hog", default="auto", help="busy processes (auto: 2 x cores)")
    parser.add_argument("--sandbox", default="auto")
    args = parser.parse_args()
    hogs = 2 * (os.cpu_count() or 1) if args.hog == "auto" else int(args.hog)
    root = Path(tempfile.mkdtemp(prefix="load-independence-"))
    print(f"load independence: bot0 vs enemy, {args.games} games per run; {machine()}")
    try:
        alone = play(root, "alone", args.games, 1, args.sandbox)
        show(alone)
        busy = [
            subprocess.Popen([sys.executable, "-c", HOG], start_new_session=True)
            for _ in range(hogs)
        ]
        try:
            loaded = play(root, f"hog{hogs}", args.games, None, args.sandbox)
        finally:
            for proc in busy:
                proc.kill()
                proc.wait()
        show(loaded)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    a, b = alone["wins"] / max(1, alone["games"]), loaded["wins"] / max(1, loaded["games"])
    within = alone["interval"][0] <= b <= alone["interval"][1] and (
        loaded["interval"][0] <= a <= loaded["interval"][1]
    )
    no_timeouts = not any(alone["timeouts"].values()) and not any(loaded["timeouts"].values())
    ok = within and no_timeouts and not loaded["given_up"] and not alone["given_up"]
    print(
        f"win rates {a:.3f} alone, {b:.3f} loaded: "
        f"{'within' if within else 'NOT within'} each other's 95% interval; "
        f"timeouts {'0' if no_timeouts else 'SOME'}: " + ("OK" if ok else "FAILED")
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
