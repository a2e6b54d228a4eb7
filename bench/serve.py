"""``arena serve`` on a big store: page times and the delay from a game stored to a page.

Builds (once, cached under /tmp) a store of ``--games`` games between ``--bots`` bots through
arena's storing API (:meth:`arena.results.store.Store.add_game`, as ``arena run`` stores
games), starts the real ``arena serve`` on it (127.0.0.1, a free port) and prints:

- the first leaderboard (the ratings computed from every stored game, in the background);
- pages of the games list (first, filtered, page 100) and a game page while the ratings
  are computed, then the leaderboard, a bot page and a head-to-head once they are, each
  the median and worst of ``--repeat`` requests; the server's CPU while idle;
- the delay from a game being stored (its transaction committed) to the event stream
  announcing it and to the games list showing it, over ``--delays`` games stored one by one.

    python3 bench/serve.py [--games 1000000] [--bots 8] [--repeat 5] [--delays 20]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from arena.records import GameRecord, SeatRecord
from arena.results.store import Store


def build(folder: Path, games: int, bots: int) -> Path:
    """A store of ``games`` two-player games (cached: built once per size)."""
    output = folder / f"serve-{games}-{bots}"
    if (output / "done").is_file():
        return output
    names = [f"bot{i}" for i in range(bots)]
    store = Store(output)
    store.db.execute("PRAGMA synchronous=OFF")
    store.set_meta({"name": "bench-serve", "game": "stc", "bots": names, "players": 2})
    store.set_bots({n: f"python3 {n}.py" for n in names})
    rng = random.Random(1)
    started = time.perf_counter()
    for i in range(games):
        add(store, i, rng, names)
        if i % 100000 == 0 and i:
            print(f"  built {i} games in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    store.close()
    (output / "done").write_text("")
    return output


def add(store: Store, i: int, rng: random.Random, names: list[str]) -> int:
    """Store game ``i`` (key ``g<i>``): two random bots, a random result."""
    a, b = rng.sample(names, 2)
    win = rng.random()
    ranks = (0, 1) if win < 0.45 else (1, 0) if win < 0.9 else (0, 0)
    forfeit = "timeout" if rng.random() < 0.01 else None
    seats = [
        SeatRecord(a, ranks[0], 1.0 - ranks[0], None, "", "", 50, 40.0, 3.0, "", 0, [0.8] * 50),
        SeatRecord(b, ranks[1], 1.0 - ranks[1], forfeit, "", "", 50, 45.0, 4.0, "", 0, [0.9] * 50),
    ]
    record = GameRecord("stc", i, {}, seats, "end", 50, 100, 120.0)
    key = f"g{i}"
    identity = {"seed": i, "bots": [a, b]}
    return store.add_game(key, i, i // 1000, f"{i}", record, identity, store.output / "g")


def get(url: str) -> tuple[float, str]:
    started = time.perf_counter()
    with urllib.request.urlopen(url, timeout=600) as answer:
        body = answer.read().decode()
    return time.perf_counter() - started, body


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--bots", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--delays", type=int, default=20)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/arena-bench"))
    parser.add_argument(
        "--board-wait", type=float, default=3600, help="give up waiting for the leaderboard (s)"
    )
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    started = time.perf_counter()
    output = build(args.cache, args.games, args.bots)
    print(f"store: {args.games} games, {args.bots} bots ({time.perf_counter() - started:.0f} s)")
    proc = subprocess.Popen(
        [sys.executable, "-m", "arena", "serve", str(output), "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    SERVER_PID.append(proc.pid)
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().split(": ", 1)[1].strip()
        measure(url, output, args)
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(60)


def measure(url: str, output: Path, args: argparse.Namespace) -> None:
    started = time.perf_counter()
    seconds, _ = get(url + "games")
    print(f"first games page (indexes made on a store an older arena wrote): {seconds:.2f} s")
    pages = {
        "games list, first page": "games",
        "games list, bot1's wins": "games?bot=bot1&result=win",
        "games list, bot1 against bot2": "games?bot=bot1&opponent=bot2",
        "games list, page 100": "games?page=100",
        "game page": "games/1",
    }
    timed(url, pages, args.repeat)  # while the ratings are computed
    while "data-stale" in get(url)[1]:  # the first leaderboard, computed in the background
        if time.perf_counter() - started > args.board_wait:
            print(f"first leaderboard: not computed after {args.board_wait:.0f} s")
            break
        time.sleep(2)
    else:
        took = time.perf_counter() - started
        print(f"first leaderboard (ratings of every game computed): {took:.1f} s")
        pages = {"leaderboard": "", "bot page": "bots/bot1", "head to head": "h2h?a=bot1&b=bot2"}
        timed(url, pages, args.repeat)
    idle_cpu(url)
    delays(url, output, args.delays)


def timed(url: str, pages: dict[str, str], repeat: int) -> None:
    """Print the median and the worst time of each page over ``repeat`` requests."""
    for name, path in pages.items():
        times = [get(url + path)[0] for _ in range(repeat)]
        print(
            f"{name}: median {1000 * statistics.median(times):.1f} ms,"
            f" max {1000 * max(times):.1f} ms"
        )


def idle_cpu(url: str, seconds: float = 10.0) -> None:
    """The server's CPU over ``seconds`` with one page open on its event stream, no run."""
    pid = SERVER_PID[0]
    stream = urllib.request.urlopen(url + "events", timeout=600)
    stream.readline()

    def cpu() -> float:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    before = cpu()
    time.sleep(seconds)
    used = cpu() - before
    stream.close()
    print(f"server CPU, idle with a page open: {100 * used / seconds:.1f}% of a core")


SERVER_PID: list[int] = []


def delays(url: str, output: Path, count: int) -> None:
    """Store games one by one; time the event and the games page showing each."""
    events: dict[int, float] = {}
    stream = urllib.request.urlopen(url + "events", timeout=600)

    def listen() -> None:
        for raw in stream:
            line = raw.decode()
            if line.startswith("data: "):
                events[json.loads(line[6:])["last_id"]] = time.perf_counter()

    threading.Thread(target=listen, daemon=True).start()
    store = Store(output, create=True)
    rng = random.Random(2)
    names = list(store.meta()["bots"])
    base = store.count_games() + 10_000_000
    event_delays, page_delays = [], []
    for i in range(count):
        game_id = add(store, base + i, rng, names)
        stored = time.perf_counter()
        while game_id not in events and time.perf_counter() - stored < 10:
            time.sleep(0.005)
        event_delays.append(events.get(game_id, float("inf")) - stored)
        while f'data-game="{game_id}"' not in get(url + "games")[1]:
            pass
        page_delays.append(time.perf_counter() - stored)
        time.sleep(0.3)
    store.remove_games([f"g{base + i}" for i in range(count)])  # the cached store as it was
    store.close()
    print(
        f"delay, game stored -> event: median {1000 * statistics.median(event_delays):.0f} ms,"
        f" max {1000 * max(event_delays):.0f} ms; -> games page showing it: median"
        f" {1000 * statistics.median(page_delays):.0f} ms, max {1000 * max(page_delays):.0f} ms"
    )


if __name__ == "__main__":
    main()
