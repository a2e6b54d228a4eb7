"""Start-up cost of the command line: the interpreter alone, ``arena --version``, and a
one-game ``arena match``, with the time their imports take (``python -X importtime``).

Each command runs ``--runs`` times, the commands taking turns so that machine noise hits
all alike; the medians are printed. ``--against DIR`` times another checkout of arena too
(its ``framework`` and ``games`` folders first on ``PYTHONPATH``), in the same rounds, so
old and new code are compared side by side:

    python3 bench/startup.py [--runs 15] [--against /tmp/old-arena]

The match plays one seeded STC game between two instant bots in the default sandbox
(``--sandbox`` chooses another), so the figures are the command's own start-up and
shutdown plus one short game. Bytecode is cached as a user's would be
(``PYTHONDONTWRITEBYTECODE`` is dropped for the runs), and so are the host's probes
(``~/.cache/arena``: the warm-up round fills it). Each checkout runs its own
``framework`` and ``games`` folders (first on ``PYTHONPATH``).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from overhead import INSTANT_BOT  # noqa: E402  (the same bot as the overhead benchmark)

IMPORT_LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|")


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall time of one run of ``argv``, and the seconds its imports took in every process
    it started (the sum of ``-X importtime``'s self times)."""
    start = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    traced = subprocess.run(
        [argv[0], "-X", "importtime", *argv[1:]],
        env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    imports = sum(int(m[1]) for m in IMPORT_LINE.finditer(traced.stderr)) / 1e6
    return wall, imports


def _path(checkout: Path) -> str:
    return os.pathsep.join([str(checkout / "framework"), str(checkout / "games")])


def main() -> int:
    """Time every command of every checkout, round after round; print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--against", type=Path, help="another checkout of arena to compare")
    parser.add_argument("--sandbox", default="auto", choices=("auto", "bwrap", "none"))
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="arena-bench-startup-"))
    bot = work / "instant.py"
    bot.write_text(INSTANT_BOT)
    cmd = f"{sys.executable} {bot}"
    match = ["match", "stc", cmd, cmd, "--games", "1", "--sandbox", args.sandbox, "--no-progress"]
    commands = {
        "python -c pass": ["-c", "pass"],
        "arena --version": ["-m", "arena", "--version"],
        "arena match (1 game)": ["-m", "arena", *match],
    }
    # As a user runs it: bytecode cached (the warm-up writes it where it is missing).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["TMPDIR"] = str(work)
    envs = {"this checkout": {**env, "PYTHONPATH": _path(BENCH.parent)}}
    if args.against is not None:
        old = args.against.resolve()
        envs[f"{old}"] = {**env, "PYTHONPATH": _path(old)}
    results: dict[tuple[str, str], list[tuple[float, float]]] = {}
    runs = [(c, e) for c in commands for e in envs]
    for _ in range(1):  # warm-up: page cache, bytecode
        for command, env in runs:
            timed([sys.executable, *commands[command]], envs[env])
    for r in range(args.runs):
        shift = r % len(runs)
        for command, env in runs[shift:] + runs[:shift]:
            sample = timed([sys.executable, *commands[command]], envs[env])
            results.setdefault((command, env), []).append(sample)

    print(f"medians of {args.runs} runs each (wall time; imports in every process)")
    for env in envs:
        print(f"{env}:")
        for command in commands:
            samples = results[(command, env)]
            wall = statistics.median(s[0] for s in samples)
            imports = statistics.median(s[1] for s in samples)
            print(f"  {command:<22}: {1000 * wall:7.1f} ms  (imports {1000 * imports:6.1f} ms)")
    print("target (issue 39): the fixed cost of a one-game arena match as small as it can be")
    return 0


if __name__ == "__main__":
    sys.exit(main())
