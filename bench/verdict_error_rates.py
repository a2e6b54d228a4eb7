"""The candidate verdict's error rates, by simulation, at the rule's own bounds.

Simulated runs of the stopping rule of :mod:`arena.results.verdict` (pairs drawn from the
pentanomial distribution the GSPRT assumes at a true normalized Elo), at ``elo0`` and at
``elo1``: how often a candidate exactly ``elo0`` is called better (target: about
``alpha``), how often one exactly ``elo1`` is called anything else (about ``beta``), and
the mean number of pairs a run needs. The test suite checks the same at a wide ``[0, 60]``
(short runs); this script checks the defaults, which take minutes.

    python3 bench/verdict_error_rates.py [--elo0 0] [--elo1 5] [--alpha 0.05] [--beta 0.05]
        [--runs 1000] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import time

from arena.results.stats import wilson
from arena.results.verdict import VerdictRule, simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=5.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rule = VerdictRule(args.elo0, args.elo1, args.alpha, args.beta)
    print(f"rule: {rule.describe()}; {args.runs} runs at each strength")
    print(f"load at start: {os.getloadavg()[0]:.1f}")
    for nelo, wrong, chosen in (
        (args.elo0, ("better",), args.alpha),
        (args.elo1, ("not worse", "worse", "inconclusive"), args.beta),
    ):
        started = time.process_time()
        result = simulate(rule, nelo, args.runs, seed=args.seed)
        share = result.share(*wrong)
        low, high = wilson(share * args.runs, args.runs)
        print(
            f"true nElo {nelo:+g}: answers {dict(sorted(result.answers.items()))}; "
            f"wrong {share:.3f} [{low:.3f}, {high:.3f}] against {chosen:g}; "
            f"{result.mean_pairs:.0f} pairs a run; {time.process_time() - started:.0f} s CPU"
        )


if __name__ == "__main__":
    main()
