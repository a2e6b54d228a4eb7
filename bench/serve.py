"""``arena serve`` on big stores: page times, their growth, the delay from a game stored to
the page showing it at 50 games/s, and the server's CPU against the run's.

Stores of 10,000 and 100,000 games (and ``--games``, 1,000,000 by default) between ``--bots``
bots are built through arena's storing API as ``bench/scale.py`` builds them (batched
``Store.add_game``; past 100,000 games the 100,000-game store's rows copied in SQL), cached
under ``--cache``; their kept ratings are made once (what the first ``arena run`` or
writable read of a copied store does). On each, the real ``arena serve`` (127.0.0.1, a
free port) is timed, once its first leaderboard is made, on the leaderboard, pages of the
games list (the first, filtered ones, one far back), a game page, a bot page and a head to
head: the median and the worst of ``--repeat`` requests, and the growth exponent of each
page's median over the sizes (the slope of log time over log games).

On the biggest store, games are then stored at ``--rate`` games a second for ``--seconds``
(batched as ``arena run`` stores them) while one page follows the event stream as the
browser does (each event: the page's fragment fetched again): the delay from a game being
stored (``add_game`` returned) to its event and to the page showing it or a newer game,
and the server's CPU. Last, a real ``arena run`` of ``--run-games`` quick games of shipped
bots (``--concurrency`` at once) is served while it runs, a page following it: the
server's CPU against the run's (the run's process and its bots).

    python3 bench/serve.py [--games 1000000] [--bots 10] [--rate 50] [--seconds 20]
                           [--run-games 60] [--repeat 5] [--cache /tmp/arena-serve-bench]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "framework"))
sys.path.insert(0, str(REPO / "bench"))

from arena.results.store import Store  # noqa: E402
from scale import bot_names, build, game_record  # noqa: E402

PAGE_TARGET_S = 0.2
DELAY_TARGET_S = 1.0
CPU_TARGET = 0.05
BASE_SIZES = (10_000, 100_000)


def exponent(points: list[tuple[int, float]]) -> float | None:
    """The least-squares slope of log time over log games."""
    pts = [(math.log(n), math.log(t)) for n, t in points if t > 0]
    if len(pts) < 2:
        return None
    mx, my = (sum(x for x, _ in pts) / len(pts)), (sum(y for _, y in pts) / len(pts))
    den = sum((x - mx) ** 2 for x, _ in pts)
    return sum((x - mx) * (y - my) for x, y in pts) / den if den else None


def cpu_of(pid: int) -> float:
    """CPU seconds (user + system) of process ``pid`` itself."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def get(url: str, fragment: bool = False) -> tuple[float, str]:
    """Seconds to fetch ``url`` and its body (``fragment``: as a live page refreshes)."""
    headers = {"X-Arena-Fragment": "1"} if fragment else {}
    started = time.perf_counter()
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=600) as r:
        body = r.read().decode()
    return time.perf_counter() - started, body


class Served:
    """A running ``arena serve`` of one folder or tournament file."""

    def __init__(self, target: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "arena", "serve", str(target), "--port", "0"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=dict(os.environ, PYTHONPATH=f"{REPO / 'framework'}:{REPO / 'games'}"),
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if ": http://" not in line:
            raise SystemExit(f"arena serve {target} printed no URL: {line!r}")
        self.url = line.split(": ", 1)[1].strip()

    def cpu(self) -> float:
        return cpu_of(self.proc.pid)

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(120)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def ready_store(cache: Path, games: int, bots: int) -> Path:
    """The cached store of ``games`` games, its kept ratings made (timed the first time)."""
    started = time.perf_counter()
    out = build(cache, games, bots)
    store = Store(out)
    try:
        cpu = time.process_time()
        store.kept(bot_names(bots))
        kept_s = time.process_time() - cpu
    finally:
        store.close()
    print(
        f"store of {games:,} games, {bots} bots: ready in {time.perf_counter() - started:.0f} s"
        f" (kept ratings: {kept_s:.1f} s of CPU)",
        flush=True,
    )
    return out


def wait_for_board(url: str, limit_s: float) -> float:
    """Seconds until the leaderboard is computed (no page says it is being computed)."""
    started = time.perf_counter()
    while time.perf_counter() - started < limit_s:
        body = get(url)[1]
        if 'id="board-title"' in body and "data-stale" not in body:
            return time.perf_counter() - started
        time.sleep(0.5)
    return math.inf


def pages(games: int, bots: int) -> dict[str, str]:
    """The pages timed on a store of ``games`` games."""
    a, b = bot_names(bots)[1:3]
    return {
        "leaderboard": "",
        "games list, first page": "games",
        f"games list, {a}'s wins": f"games?bot={a}&result=win",
        f"games list, {a} against {b}": f"games?bot={a}&opponent={b}",
        f"games list, {a}'s timeouts": f"games?bot={a}&reason=timeout",
        "games list, half-way back": f"games?before={games // 2}",
        "game page": f"games/{games // 2}",
        "bot page": f"bots/{a}",
        "head to head": f"h2h?a={a}&b={b}",
    }


def time_pages(url: str, games: int, bots: int, repeat: int) -> dict[str, float]:
    """Each page's median (printed with its worst); the target is :data:`PAGE_TARGET_S`."""
    medians = {}
    for name, path in pages(games, bots).items():
        times = [get(url + path)[0] for _ in range(repeat)]
        medians[name] = statistics.median(times)
        mark = "ok" if max(times) < PAGE_TARGET_S else "MISSED"
        print(
            f"  {name}: median {1000 * medians[name]:.1f} ms, max {1000 * max(times):.1f} ms"
            f" (target < {1000 * PAGE_TARGET_S:.0f} ms: {mark})",
            flush=True,
        )
    return medians


class Follower:
    """One page open on a server: it reads the event stream and, on each event that moves
    the store on, fetches its page's fragment again (one at a time, as app.js does)."""

    def __init__(self, url: str, path: str = "") -> None:
        self.url, self.path = url, path
        self.events: list[tuple[float, int]] = []  # (when, last_id)
        self.shown: list[tuple[float, int]] = []  # (when fetched, newest game on the page)
        self.fetches = 0
        self._wake = threading.Event()
        self._stream = urllib.request.urlopen(url + "events", timeout=600)
        threading.Thread(target=self._listen, daemon=True).start()
        threading.Thread(target=self._refresh, daemon=True).start()

    def _listen(self) -> None:
        last = None
        try:
            for raw in self._stream:
                line = raw.decode()
                if line.startswith("data: "):
                    last_id = int(json.loads(line[6:])["last_id"])
                    self.events.append((time.perf_counter(), last_id))
                    if last is not None and last_id != last:
                        self._wake.set()
                    last = last_id
        except (OSError, ValueError, AttributeError):  # AttributeError: closed mid-read
            return

    def _refresh(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            try:
                _, body = get(self.url + self.path, fragment=True)
            except OSError:
                return
            self.fetches += 1
            newest = body.split('data-game="', 1)
            if len(newest) > 1:
                self.shown.append((time.perf_counter(), int(newest[1].split('"', 1)[0])))

    def close(self) -> None:
        self._stream.close()


def first_after(seen: list[tuple[float, int]], game_id: int, since: float) -> float:
    """Seconds from ``since`` to the first of ``seen`` that reaches ``game_id``."""
    return next((t - since for t, last in seen if last >= game_id and t >= since), math.inf)


def live_phase(url: str, served: Served, output: Path, rate: float, seconds: float) -> None:
    """Store games at ``rate`` a second; the delays to the event and to the page."""
    from arena.results.lock import lock_output

    follower = Follower(url)
    time.sleep(1.0)
    held = lock_output(output)  # as arena run holds it: the server's reader writes nothing then
    store = Store(output)
    store.batch()  # as arena run stores games: commits of the games that ended together
    names = list(store.meta()["bots"])
    rng = random.Random(7)
    base = store.count_games() + 50_000_000
    stored: list[tuple[int, float]] = []
    cpu, started = served.cpu(), time.perf_counter()
    count = int(rate * seconds)
    for i in range(count):
        time.sleep(max(0.0, started + i / rate - time.perf_counter()))
        a, b = rng.sample(names, 2)
        n = base + i
        identity = {"seed": n, "bots": [{"name": a}, {"name": b}]}
        game_id = store.add_game(f"live{n}", n, n // 1000, "", game_record(rng, a, b, n), identity)
        stored.append((game_id, time.perf_counter()))
    store.flush()
    time.sleep(3.0)  # the last events and pages
    used = served.cpu() - cpu
    wall = time.perf_counter() - started
    follower.close()
    event = [first_after(follower.events, g, t) for g, t in stored]
    page = [first_after(follower.shown, g, t) for g, t in stored]
    store.remove_games([f"live{base + i}" for i in range(count)])  # the cached store as it was
    store.close()
    held.release()
    for name, delays in (("its event", event), ("the page showing it (or a newer game)", page)):
        delays.sort()
        worst = delays[-1]
        mark = "ok" if worst < DELAY_TARGET_S else "MISSED"
        print(
            f"  delay, game stored -> {name}: median {1000 * statistics.median(delays):.0f} ms,"
            f" 99th {1000 * delays[int(0.99 * (len(delays) - 1))]:.0f} ms,"
            f" max {1000 * worst:.0f} ms (target < {1000 * DELAY_TARGET_S:.0f} ms: {mark})"
        )
    print(
        f"  {count} games at {rate:g}/s: the server used {100 * used / wall:.1f}% of a core"
        f" ({follower.fetches} page refreshes)",
        flush=True,
    )


def tournament(folder: Path, games: int, concurrency: int) -> Path:
    """A round-robin of quick Smash The Code games between shipped bots."""
    bots = {"greedy": "greedy.py", "random": "random_bot.py", "enemy": "enemy.py"}
    lines = [
        "name: bench-serve",
        "game: stc",
        f"games: {games}",
        "seed: 1",
        f"concurrency: {concurrency}",
        "settings:",
        "  max_turns: 30",
        "bots:",
    ]
    for name, file in bots.items():
        cmd = f"{sys.executable} {REPO / 'bots' / 'stc' / file}"
        lines += [f"  - name: {name}", f"    cmd: {json.dumps(cmd)}"]
    lines.append(f"output: {json.dumps(str(folder / 'out'))}")
    path = folder / "t.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


def run_phase(games: int, concurrency: int) -> None:
    """A real run served while it plays: the server's CPU against the run's."""
    with tempfile.TemporaryDirectory() as tmp:
        path = tournament(Path(tmp), games, concurrency)
        output = Path(tmp) / "out"
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        env = dict(os.environ, PYTHONPATH=f"{REPO / 'framework'}:{REPO / 'games'}")
        run = subprocess.Popen(
            [sys.executable, "-m", "arena", "run", str(path), "--no-progress"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        while not (output / "arena.sqlite").is_file() and run.poll() is None:
            time.sleep(0.05)
        served = Served(output)
        follower = Follower(served.url)
        cpu, started = served.cpu(), time.perf_counter()
        run.wait()
        wall = time.perf_counter() - started
        time.sleep(1.0)  # the run's last games reach the page
        used = served.cpu() - cpu
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        run_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        follower.close()
        served.stop()
        mark = "ok" if used < CPU_TARGET * run_cpu else "MISSED"
        print(
            f"  a run of {games} games ({concurrency} at once, {wall:.0f} s): the run and its"
            f" bots {run_cpu:.1f} s of CPU, the server {used:.2f} s"
            f" ({100 * used / max(run_cpu, 1e-9):.1f}% of the run's;"
            f" target < {100 * CPU_TARGET:.0f}%: {mark}; {follower.fetches} page refreshes)",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000, help="the biggest store")
    parser.add_argument("--bots", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--rate", type=float, default=50.0, help="games stored a second")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--run-games", type=int, default=60)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/arena-serve-bench"))
    parser.add_argument("--board-wait", type=float, default=3600, help="seconds, at most")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}", flush=True)
    sizes = sorted({*BASE_SIZES, args.games})
    medians: dict[str, list[tuple[int, float]]] = {}
    for games in sizes:
        output = ready_store(args.cache, games, args.bots)
        served = Served(output)
        try:
            waited = wait_for_board(served.url, args.board_wait)
            print(f"  first leaderboard: {waited:.1f} s after the server started")
            for name, median in time_pages(served.url, games, args.bots, args.repeat).items():
                medians.setdefault(name, []).append((games, median))
            if games == sizes[-1]:
                live_phase(served.url, served, output, args.rate, args.seconds)
        finally:
            served.stop()
    for name, points in medians.items():
        small = [p for p in points if p[0] <= BASE_SIZES[-1]]
        shown = [f"{slope:.2f}" if (slope := exponent(pts)) is not None else "-" for pts in
                 (small, points)]  # fmt: skip
        print(f"growth exponent, {name}: {shown[0]} from 10k to 100k, {shown[1]} to {sizes[-1]:,}")
    run_phase(args.run_games, args.concurrency)
    print(f"load after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
