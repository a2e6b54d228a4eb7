"""Clock fidelity: bots answering at a known share of a 100 ms budget, timed by arena.

Each bot sleeps a fixed share of the budget from the moment it has read its whole input,
then answers with the time it took by its own clock (read to write). arena times it as
in a tournament: referees in worker processes, ``--concurrency`` games at once (default:
one per core), every seat of a game answering at the same time.

* at 80% of the budget no turn may time out (nor be late);
* at 105% every turn must be caught over its budget: with a time margin (100 ms) the
  bot plays on and each turn counts as late, so 10,000 turns need no 10,000 bot starts;
  a shorter run without a margin checks that the first timed turn is a timeout;
* ``measured - slept`` is arena's time minus the bot's own: never below 0 (the clock
  starts before the input is written and stops after the answer is read), and small.

Under load: ``--hog N`` runs N busy processes outside arena meanwhile (``--hog auto``: 2 x
cores), ``--spin`` makes the bots burn their share in CPU instead of sleeping, ``--thief``
adds a bot to every game that answers at once but starts 8 children that ``setsid()`` and
spin. A turn over its budget only because the machine kept a bot waiting is a ``stall``:
the game is replayed (at most 3 times, as ``arena run`` does) and counted apart; a timeout
at 80% is a false timeout.

A game's first turn (interpreter start-up, a 2000 ms budget) is not counted. A timeout
whose late answer shows the bot's own clock over the budget too is counted apart: the
machine held up the bot itself (on a virtual machine, steal time stalls every process;
the run's steal time is printed). Many seats per game keep 10,000 turns to about a
minute per share:

    python3 bench/clock_fidelity.py [--turns 10000] [--seats 8] [--concurrency N]
                                    [--sandbox auto|bwrap|none] [--spin]
                                    [--hog N|auto] [--thief] [--no-realtime]

``--no-realtime`` is a what-if, not arena: referees raise themselves to nice -10 only,
never to the real-time priority they take where allowed (``bench/what_if.py``).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from arena import Game, GameInfo, InvalidAnswer, Move, Outcome
from arena.botproc import describe, resolve_sandbox
from arena.execute.pool import Failure, WorkerPool
from arena.records import BotSpec, Clock
from arena.referee.engine import Referee
from arena.results.stats import percentile
from arena.tournament.config import available_cores

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import steal_ms
from what_if import referee_without_realtime

BUDGET_MS = 100
FIRST_TURN_MS = 2000

# Sleeps SHARE of the budget from having read its input, then answers its own time.
BOT = """\
import sys, time
SECONDS = float(sys.argv[1]) / 1000
for line in sys.stdin:
    start = time.perf_counter()
    end = start + SECONDS
    while (left := end - time.perf_counter()) > 0:
        time.sleep(left)
    sys.stdout.write(f"{(time.perf_counter() - start) * 1000!r}\\n")
    sys.stdout.flush()
"""
# Burns SHARE of the budget in its own CPU time, then answers the time that took.
SPIN_BOT = """\
import sys, time
SECONDS = float(sys.argv[1]) / 1000
for line in sys.stdin:
    start, cpu = time.perf_counter(), time.thread_time()
    while time.thread_time() - cpu < SECONDS:
        pass
    sys.stdout.write(f"{(time.perf_counter() - start) * 1000!r}\\n")
    sys.stdout.flush()
"""
# Answers at once; on its first turn starts 8 children that leave its session and spin.
THIEF = """\
import os, sys
started = False
for line in sys.stdin:
    if not started:
        started = True
        for _ in range(8):
            if os.fork() == 0:
                os.setsid()
                while True:
                    pass
    sys.stdout.write("0\\n")
    sys.stdout.flush()
"""
HOG = "while True: pass"
MAX_STALL_REPLAYS = 3


@dataclass(frozen=True)
class FidelityState:
    steps: int
    step: int
    out: tuple[bool, ...]


class FidelityGame(Game[FidelityState]):
    """Every seat answers every step (how long it slept, in ms); nobody wins."""

    info = GameInfo(
        id="clock-fidelity",
        title="Clock fidelity",
        min_players=1,
        max_players=64,
        first_turn_ms=FIRST_TURN_MS,
        turn_ms=BUDGET_MS,
        settings={"steps": 10},
    )

    def start(self, seed: int, players: int, settings: Mapping[str, Any]) -> FidelityState:
        return FidelityState(int(settings["steps"]), 0, (False,) * players)

    def to_act(self, state: FidelityState) -> Sequence[int]:
        if state.step >= state.steps:
            return []
        return [seat for seat, out in enumerate(state.out) if not out]

    def prompt(self, state: FidelityState, seat: int) -> str:
        return f"turn {state.step}\n"

    def interpret(self, state: FidelityState, seat: int, text: str) -> Move:
        try:
            return Move(float(text))
        except ValueError:
            raise InvalidAnswer("expected the time slept", text) from None

    def apply(self, state: FidelityState, moves: Mapping[int, Any]) -> FidelityState:
        return replace(state, step=state.step + 1)

    def eliminate(self, state: FidelityState, seat: int) -> FidelityState:
        out = list(state.out)
        out[seat] = True
        return replace(state, out=tuple(out))

    def outcome(self, state: FidelityState) -> Outcome:
        return Outcome.from_scores([0] * len(state.out), "done")

    def random_answer(self, state: FidelityState, seat: int, rng: random.Random) -> str:
        return "0"


@dataclass
class Turns:
    """What arena saw of the timed turns: measured and slept ms, late, timeouts."""

    measured_minus_slept: list[float] = field(default_factory=list)
    late: int = 0
    timeouts: int = 0
    answered: int = 0
    own_over: int = 0  # timeouts where the bot's own clock already read over the budget
    timeout_gaps: list[float] = field(default_factory=list)  # measured - slept, timeouts
    stalls: int = 0  # games broken off as stalls (each replayed, at most 3 times)
    abandoned: int = 0  # games still stalling after 3 replays
    thief_timeouts: int = 0  # timeouts of the thief's opponents (must be 0)

    @property
    def timed(self) -> int:
        return self.answered + self.timeouts

    def add(self, other: Mapping[str, Any]) -> None:
        self.measured_minus_slept += other["diffs"]
        self.late += other["late"]
        self.timeouts += other["timeouts"]
        self.answered += other["answered"]
        self.own_over += other["own_over"]
        self.timeout_gaps += other["timeout_gaps"]
        self.stalls += other["stalls"]
        self.abandoned += other["abandoned"]
        self.thief_timeouts += other["thief_timeouts"]


def play_fidelity(job: Mapping[str, Any], heartbeat: Any) -> dict[str, Any]:
    """Play one game in a worker process; return what its timed turns looked like."""
    out: dict[str, Any] = {
        "diffs": [], "late": 0, "timeouts": 0, "answered": 0, "own_over": 0, "timeout_gaps": [],
        "stalls": 0, "abandoned": 0, "thief_timeouts": 0,
    }  # fmt: skip
    thief = job["thief"] is not None

    def observe(index: int, step: dict[str, Any], state: Any) -> None:
        if index == 0:
            return  # start-up
        for seat, io in step["io"].items():
            if thief and seat == "0":
                continue  # the thief itself
            forfeit = step["forfeits"].get(seat)
            if forfeit is not None:
                if forfeit["reason"] != "timeout":
                    continue
                out["timeouts"] += 1
                out["thief_timeouts"] += thief
                # A late answer is the bot's own time: was the bot itself held up?
                try:
                    own = float(forfeit["raw"])
                except ValueError:
                    continue  # no answer at all
                out["own_over"] += own > BUDGET_MS
                out["timeout_gaps"].append(io["ms"] - own)
                continue
            out["answered"] += 1
            out["late"] += bool(io.get("late"))
            out["diffs"].append(io["ms"] - float(step["moves"][seat]))

    bots = [BotSpec(f"bot{i}", tuple(job["argv"])) for i in range(job["seats"])]
    if thief:
        bots[0] = BotSpec("thief", tuple(job["thief"]))
    clock = Clock(margin_ms=job["margin_ms"])
    for _ in range(1 + MAX_STALL_REPLAYS):
        referee = Referee(
            FidelityGame(), bots, Path(job["dir"]), job["sandbox"], observe, heartbeat, clock
        )
        record = referee.play(job["seed"], {"steps": job["steps"]})
        if record.reason != "stall":
            break
        out["stalls"] += 1
    else:
        out["abandoned"] += 1
    other = [s.forfeit for s in record.seats if s.forfeit not in (None, "timeout")]
    if other:
        raise RuntimeError(f"unexpected forfeits: {other}")
    return out


def run(
    share: float,
    turns: int,
    seats: int,
    games: int,
    workers: int,
    margin_ms: int,
    sandbox: Any,
    root: Path,
    spin: bool = False,
    thief: bool = False,
) -> Turns:
    """``turns`` timed turns at ``share`` of the budget over ``games`` games of ``seats``
    bots, ``workers`` games at once."""
    bot = root / "bot.py"
    bot.write_text(SPIN_BOT if spin else BOT)
    argv = [sys.executable, str(bot), repr(share * BUDGET_MS)]
    thief_argv = None
    if thief:
        (root / "thief.py").write_text(THIEF)
        thief_argv = [sys.executable, str(root / "thief.py")]
    steps = 1 + math.ceil(turns / (seats * games))  # turns of the timed bots
    seats += thief
    jobs = [
        (
            i,
            {
                "argv": argv,
                "seats": seats,
                "steps": steps,
                "margin_ms": margin_ms,
                "sandbox": sandbox,
                "dir": str(root / f"{share}-{margin_ms}-{i}"),
                "seed": i,
                "thief": thief_argv,
            },
        )
        for i in range(games)
    ]
    total = Turns()

    def done(key: int, result: Any) -> None:
        if isinstance(result, Failure):
            raise RuntimeError(f"game {key} failed: {result.reason}")
        total.add(result)

    # Forked workers: play_fidelity lives in this script, which a spawned worker cannot
    # import (the pool hides the caller's __main__ from spawned workers).
    WorkerPool(workers, play_fidelity, "fork").run(jobs, done)
    return total


def spread(values: Sequence[float]) -> str:
    """``min +0.05  p50 +0.21  p99 +1.30  max +4.20 ms``."""
    if not values:
        return "-"
    ordered = sorted(values)
    parts = [("min", ordered[0]), ("p50", percentile(ordered, 0.5))]
    parts += [("p99", percentile(ordered, 0.99)), ("max", ordered[-1])]
    return "  ".join(f"{name} {value:+.2f}" for name, value in parts) + " ms"


def report(label: str, turns: Turns, within_budget: bool = False, thief: bool = False) -> None:
    under = sum(1 for d in turns.measured_minus_slept if d < 0)
    print(
        f"{label}: {turns.timed} turns measured, {turns.timeouts} timeouts, {turns.late} late,"
        f" {turns.stalls} stall replays ({turns.abandoned} games still stalled after"
        f" {MAX_STALL_REPLAYS})"
        # Only honest opponents count: a bot at 105% times out of its own accord.
        + (
            f", {turns.thief_timeouts} timeouts of a thief's opponents"
            if thief and within_budget
            else ""
        )
    )
    print(f"  measured - slept: {spread(turns.measured_minus_slept)} ({under} below 0)")
    if within_budget and turns.timeout_gaps:
        # On a shared or virtual machine every process can stall at once (steal time):
        # then the bots' own clocks overrun too, and no referee can time them in budget.
        print(
            f"  timeouts answered late: {len(turns.timeout_gaps)}; the bot's own clock read"
            f" over {BUDGET_MS} ms in {turns.own_over} of them; measured - slept:"
            f" {spread(turns.timeout_gaps)}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=10_000, help="timed turns per share")
    parser.add_argument("--seats", type=int, default=8, help="bots per game, all answering")
    parser.add_argument("--concurrency", type=int, default=available_cores())
    parser.add_argument("--sandbox", choices=("auto", "bwrap", "none"), default="auto")
    parser.add_argument("--spin", action="store_true", help="bots burn CPU instead of sleeping")
    parser.add_argument("--hog", default="0", help="busy processes outside arena (auto: 2 x cores)")
    parser.add_argument("--thief", action="store_true", help="a CPU-thief bot in every game")
    parser.add_argument(
        "--no-realtime",
        action="store_true",
        help="what-if: referees at nice -10, not at a real-time priority",
    )
    args = parser.parse_args()
    if args.no_realtime:
        referee_without_realtime()  # the workers are forked from here
    hogs = 2 * (os.cpu_count() or 1) if args.hog == "auto" else int(args.hog)
    # Each in a session of its own: the kernel's autogroups would weigh them all as one.
    busy = [
        subprocess.Popen([sys.executable, "-c", HOG], start_new_session=True) for _ in range(hogs)
    ]
    sandbox = resolve_sandbox(args.sandbox)
    root = Path(tempfile.mkdtemp(prefix="clock-fidelity-"))
    games, seats = args.concurrency, args.seats
    load = "/".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"clock fidelity: {BUDGET_MS} ms budget, {games} games at once "
        f"({available_cores()} cores), {seats} seats per game, sandbox {describe(sandbox)}, "
        f"load average {load}, {hogs} busy processes beside arena, "
        f"bots {'spinning' if args.spin else 'sleeping'}"
        + (", a thief in every game" if args.thief else "")
        + (", referees NOT at a real-time priority (what-if)" if args.no_realtime else "")
    )
    started, stolen = time.perf_counter(), steal_ms()
    extra = {"spin": args.spin, "thief": args.thief}
    try:
        within = run(0.80, args.turns, seats, games, games, 0, sandbox, root, **extra)
        report("80% of the budget", within, within_budget=True, thief=args.thief)
        late = run(1.05, args.turns, seats, games, games, 100, sandbox, root, **extra)
        report("105% of the budget, time_margin_ms 100", late)
        # Without a margin a timeout ends the bot's game: one timed turn per bot.
        cut = run(1.05, seats * games * 4, seats, games * 4, games, 0, sandbox, root, **extra)
        report("105% of the budget, no margin (one timed turn per bot)", cut)
    finally:
        for proc in busy:
            proc.kill()
            proc.wait()
        shutil.rmtree(root, ignore_errors=True)
    ok = (
        within.timeouts == within.late == 0
        and within.timed >= args.turns
        and late.late + late.timeouts == late.timed >= args.turns
        and cut.timeouts == cut.timed
    )
    load = "/".join(f"{x:.1f}" for x in os.getloadavg())
    if stolen is not None and (now := steal_ms()) is not None:
        load += f", steal time {now - stolen:.0f} ms of CPU"
    print(
        f"80%: {within.timeouts} timeouts of {within.timed} (must be 0); 105%: "
        f"{late.late + late.timeouts + cut.timeouts} of {late.timed + cut.timed} caught "
        f"(must be all); {time.perf_counter() - started:.0f} s, load average {load}: "
        + ("OK" if ok else "FAILED")
    )
    return 0 if ok else 1


if __name__ == "__main__":
    # The workers import the game and play_fidelity by module name (they do not see
    # the caller's __main__): run this file as the module clock_fidelity.
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import clock_fidelity

    sys.exit(clock_fidelity.main())
