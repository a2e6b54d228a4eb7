"""``arena check``: is a candidate better than a pool of bots? A verdict and an exit code.

The bots are given as ``arena match`` takes them (``[NAME=]CMD``, or a source file to
build). The check is a tournament of format ``candidate``: its file is written into the
output folder (``check.yaml``) and run as ``arena run`` runs one, so a second check on
the same folder resumes (its games are kept: ``arena leaderboard DIR`` and the others
read them), and every candidate checked there meets the pool on the same seeds.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from arena import limits
from arena.cli.common import installed_games, progress_wanted, run_exit_code
from arena.errors import EXIT_OK, EXIT_VERDICT_FAILED, EXIT_VERDICT_INCONCLUSIVE, ConfigError

GATES = {"better": ("better",), "not-worse": ("better", "not worse")}
"""The answers each ``--gate`` passes."""


def add_parsers(sub: Any) -> None:
    """The ``check`` command."""
    p = sub.add_parser(
        "check",
        help="is a candidate better than a pool of bots? plays until the verdict is clear "
        "(exit 0 passed, 4 failed, 5 inconclusive; docs/ci.md)",
    )
    p.add_argument("game", help="game id (see `arena games`)")
    p.add_argument("candidate", help="the candidate: [NAME=]CMD, or a source file to build")
    p.add_argument(
        "--against", nargs="+", required=True, metavar="BOT", help="the pool: [NAME=]CMD ..."
    )
    p.add_argument("--games", type=int, default=10_000, metavar="N", help="the most games")
    p.add_argument("--elo0", type=float, default=0.0, help="better: H0 (default 0)")
    p.add_argument("--elo1", type=float, default=5.0, help="better: H1 (default 5)")
    p.add_argument("--alpha", type=float, default=0.05)
    p.add_argument("--beta", type=float, default=0.05)
    p.add_argument("--model", choices=("normalized", "logistic"), default="normalized")
    p.add_argument(
        "--gate", choices=tuple(GATES), default="better", help="what passes (default better)"
    )
    p.add_argument("--json", type=Path, metavar="FILE", help="write the verdict as JSON")
    p.add_argument(
        "--output",
        type=Path,
        metavar="DIR",
        help="where the games are kept (default out/check-GAME)",
    )
    p.add_argument("--seed", type=int, default=1, metavar="N", help="the seed of the seeds")
    p.add_argument(
        "--book",
        metavar="NAME",
        help="play the seed book NAME kept in the output folder (made from --seed if none)",
    )
    p.add_argument("--concurrency", "-j", type=int, metavar="N", help="games at once")
    p.add_argument("--clock", choices=limits.CLOCKS, help="how turns are timed")
    p.add_argument("--sandbox", choices=limits.SANDBOXES, help="the bots' sandbox")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_check)


def _bot_entries(commands: list[str]) -> list[dict[str, str]]:
    """The ``bots`` of the check's file: absolute commands, or source files to build."""
    from arena.tournament.match import match_bots

    return [bot.file_entry() for bot in match_bots(commands)]


def check_file(args: argparse.Namespace) -> dict[str, Any]:
    """The tournament file of the check the arguments ask for."""
    if args.games < 2:
        raise ConfigError(f"--games: must be at least 2 (a pair), not {args.games}")
    data: dict[str, Any] = {
        "name": f"check {args.game}",
        "game": args.game,
        "format": "candidate",
        "games": args.games,
        "seed": args.seed,
        "verdict": {
            "elo0": args.elo0,
            "elo1": args.elo1,
            "alpha": args.alpha,
            "beta": args.beta,
            "model": args.model,
        },
        "bots": _bot_entries([args.candidate, *args.against]),
        "output": str(args.output.resolve()),
    }
    for key in ("concurrency", "clock", "sandbox", "book"):
        if getattr(args, key) is not None:
            data[key] = getattr(args, key)
    return data


def cmd_check(args: argparse.Namespace, extra: list[str]) -> int:
    """Play the candidate against the pool until the verdict is clear; print it."""
    import yaml

    from arena.results.store import make_output_folder
    from arena.tournament.config import load_tournament
    from arena.tournament.run import run_tournament
    from arena.views.progress import run_observers
    from arena.views.verdict import verdict_lines, write_verdict_files

    if extra:
        raise ConfigError(f"unknown arguments: {' '.join(extra)}")
    if args.json is not None and args.json.is_dir():
        raise ConfigError(f"--json {args.json}: is a folder, not a file")
    if args.output is None:
        args.output = Path("out") / f"check-{args.game}"
    output = args.output
    data = check_file(args)
    registry = installed_games()
    make_output_folder(output, "--output")
    path = output / "check.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    config = load_tournament(path, registry, {})
    say = lambda message: print(message, file=sys.stderr)  # noqa: E731
    shown = run_observers(config.output, progress_wanted(args.no_progress), 0, False, say)
    summary = run_tournament(config, update=True, observers=shown)
    if summary.interrupted or summary.changed:  # no verdict to print
        return run_exit_code(summary)
    print(
        f"{summary.played} games played now, {summary.resumed} resumed, results in {output}",
        file=sys.stderr,
    )
    verdict = summary.verdict
    assert verdict is not None  # format candidate
    passed = verdict.answer in GATES[args.gate]
    for line in verdict_lines(verdict, passed):
        print(line)
    for written in write_verdict_files(verdict, passed, args.json):
        print(f"verdict written to {written}", file=sys.stderr)
    inconclusive = verdict.answer == "inconclusive"
    if inconclusive:
        answer = EXIT_VERDICT_INCONCLUSIVE
    else:
        answer = EXIT_OK if passed else EXIT_VERDICT_FAILED
    return run_exit_code(summary, answer, given_up_counts=inconclusive)
