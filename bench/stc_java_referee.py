"""arena match against CodinGame's own Java referee of Smash The Code, on the same seeded games.

Both sides play the same seeded STC games between two instant bots (they answer as soon
as a turn's input is read; ``bench/overhead.py``'s bot):

* **Java**: the referee as cg-brutaltester runs it, one referee process per game (the
  command given with ``--referee``, e.g. ``java -jar stc-referee.jar`` or, for the
  referee's source compiled with ``javac -d build Referee.java``, ``java -cp build
  Referee``), relayed by this script the way cg-brutaltester does (``[[INIT]]``,
  ``[[GET_GAME_INFO]]``, ``[[SET_PLAYER_OUTPUT]]`` until ``[[SCORES]]``; the bots started
  plainly: no clocks, no sandbox, nothing stored);
* **arena**: one ``arena match stc BOT BOT --seed S --games N`` command, as a user runs it
  (its default sandbox unless ``--sandbox``; bots in worker processes, clocks, forfeits).

The games are the same: game ``i`` of the match plays seed ``S + i // 2`` (both seat
orders), and the Java side plays those seeds; the turn count of every game must agree
(arena's stc input is byte-identical to the referee's, see its README). Rounds alternate
which side goes first, so machine noise hits both alike. Prints each side's wall time and
the ratio arena / Java (target: at most 0.5), per round, then the min and median.

    python3 bench/stc_java_referee.py --referee "java -cp build Referee" [--games 10]
        [--rounds 3] [--seed 1] [--sandbox auto]

Without Java or the referee, ``--referee "python3 bench/stc_referee_stand_in.py"`` checks
the relay against a stand-in with arena's own rules (it measures nothing about Java).
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RESULT = re.compile(r"game (\d+) seed (\d+), (\d+) turns")
BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from cg_relay import relay_game  # noqa: E402
from overhead import INSTANT_BOT  # noqa: E402  (the same bot as the overhead benchmark)


def java_game(referee: list[str], bot: list[str], seed: int) -> int:
    """One game through the referee process, relayed like cg-brutaltester; its turns."""
    return relay_game(referee, bot, [f"seed={seed}"])[0]


def arena_match(bot: str, seed: int, games: int, sandbox: str) -> list[tuple[int, int]]:
    """One ``arena match`` command playing ``games`` games; (seed, turns) of each."""
    options = ["--seed", str(seed), "--games", str(games), "--no-progress", "--sandbox", sandbox]
    # As a user runs it: bytecode cached (the warm-up writes it where it is missing).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    result = subprocess.run(
        [sys.executable, "-m", "arena", "match", "stc", bot, bot, *options],
        capture_output=True, text=True, check=False, env=env,
    )  # fmt: skip
    if result.returncode != 0:
        raise RuntimeError(f"arena match failed:\n{result.stderr}")
    found = sorted((int(g), int(s), int(t)) for g, s, t in RESULT.findall(result.stdout))
    if len(found) != games:
        raise RuntimeError(f"arena match printed {len(found)} results of {games}")
    return [(s, t) for _, s, t in found]


def main() -> int:
    """Alternate the two sides round after round; print times and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--referee", required=True, help="the referee's command line")
    parser.add_argument("--games", type=int, default=10, help="games per side and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sandbox", default="auto", choices=("auto", "bwrap", "none"))
    args = parser.parse_args()
    referee = shlex.split(args.referee)
    work = Path(tempfile.mkdtemp(prefix="arena-bench-java-"))
    bot_file = work / "instant.py"
    bot_file.write_text(INSTANT_BOT)
    bot = [sys.executable, str(bot_file)]
    seeds = [args.seed + i // 2 for i in range(args.games)]

    # Warm-up (page cache, bytecode, the JVM's class data) outside the measurement.
    java_game(referee, bot, args.seed)
    arena_match(shlex.join(bot), args.seed, 1, args.sandbox)

    ratios: list[float] = []
    print(f"{args.games} seeded STC games per side and round (seeds {seeds[0]}-{seeds[-1]},")
    print(f"both seat orders) between two instant bots; referee: {args.referee}")
    for r in range(args.rounds):
        times: dict[str, float] = {}
        turns: dict[str, list[int]] = {}
        for side in ("java", "arena") if r % 2 == 0 else ("arena", "java"):
            start = time.perf_counter()
            if side == "java":
                turns[side] = [java_game(referee, bot, seed) for seed in seeds]
            else:
                played = arena_match(shlex.join(bot), args.seed, args.games, args.sandbox)
                if [s for s, _ in played] != seeds:
                    raise RuntimeError(f"arena played seeds {[s for s, _ in played]}, not {seeds}")
                turns[side] = [t for _, t in played]
            times[side] = time.perf_counter() - start
        if turns["java"] != turns["arena"]:
            raise RuntimeError(f"not the same games: turns {turns['java']} != {turns['arena']}")
        ratios.append(times["arena"] / times["java"])
        per_game = {k: 1000 * v / args.games for k, v in times.items()}
        print(
            f"round {r + 1}: {sum(turns['java'])} turns; Java referee {times['java']:7.3f} s "
            f"({per_game['java']:.0f} ms/game), arena match {times['arena']:7.3f} s "
            f"({per_game['arena']:.0f} ms/game), ratio arena / Java {ratios[-1]:.3f}"
        )
    print(f"ratio arena / Java: min {min(ratios):.3f}, median {statistics.median(ratios):.3f}")
    print("target: arena match at most 0.5x the Java referee's wall time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
