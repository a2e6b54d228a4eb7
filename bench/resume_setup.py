#!/usr/bin/env python3
"""What a run pays before its first game to resume by game identity, for a large schedule.

``arena run`` builds the schedule, hashes every game's identity, compares the stored
games with it and records the current games (``current_games``). This prints each step's
time and the peak memory for ``games`` games between two bots, first into an empty store,
then again over the same store holding all of them (the resume path); the schedule bound
(``arena.tournament.schedule.MAX_GAMES``) is set from these figures.

Run: python3 bench/resume_setup.py [games]   (default: 200000, the bound)
"""

from __future__ import annotations

import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

from arena.results.identity import Identities, bot_fingerprint
from arena.results.store import Store
from arena.tournament.config import BotEntry, TournamentConfig
from arena.tournament.formats import fixed_plan
from arena.tournament.resume import current_games

BOT = Path(__file__).resolve().parent.parent / "bots" / "stc" / "greedy.py"


def main(argv: list[str]) -> int:
    """Time schedule, identities, stale check and current-games table; print them."""
    games = int(argv[0]) if argv else 200_000
    out = Path(tempfile.mkdtemp(prefix="arena-bench-"))
    try:
        files = ((str(BOT), str(BOT)),)
        bots = [BotEntry(n, f"python3 {BOT}", ("python3", str(BOT)), files) for n in "ab"]
        config = TournamentConfig(
            Path("bench.yaml"), "bench", "stc", "round-robin", games, 2, 1, 1,
            {"max_turns": 200}, bots, out, variants=[{"max_turns": 200}],
        )  # fmt: skip
        store = Store(out)
        for label in ("empty store", f"store holding all {games} games"):
            began = time.perf_counter()
            plan = fixed_plan(config)
            assert plan is not None
            planned = time.perf_counter()
            fps = {b.name: bot_fingerprint(b.name, b.cmd, b.files) for b in bots}
            ids = Identities("stc", 1, config.seed, config.variants, fps)
            current, _ = current_games(config, store, ids, plan)
            checked = time.perf_counter()
            store.set_current(current)
            done = time.perf_counter()
            print(
                f"{label}: schedule {planned - began:.2f} s, identities + stale check "
                f"{checked - planned:.2f} s, current_games {done - checked:.2f} s, "
                f"total {done - began:.2f} s"
            )
            if not current:  # store every game once, as if played, for the resume path
                with store.db:
                    store.db.executemany(
                        "INSERT INTO games(key, ord, round, grp, game, seed, settings, players,"
                        " reason, turns, steps, duration_ms, dir, finished_at, identity,"
                        " identity_hash) VALUES (?, ?, ?, ?, 'stc', ?, '{}', 2, '', 1, 1, 1.0,"
                        " '', '', '{}', ?)",
                        [
                            (s.key, s.order, s.round, s.group, s.seed,
                             ids.hash(s.seed, s.variant, s.seats))
                            for s in plan
                        ],
                    )  # fmt: skip
                    store.db.executemany(
                        "INSERT INTO seats(game_id, seat, bot, rank, score, forfeit, detail, raw,"
                        " moves, total_ms, max_ms, stderr) VALUES (?, ?, ?, 0, 0, NULL, '', '', 0,"
                        " 0, 0, '')",
                        [
                            (i + 1, seat, bot)
                            for i, s in enumerate(plan)
                            for seat, bot in enumerate(s.seats)
                        ],
                    )
        store.close()
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        size = (out / "arena.sqlite").stat().st_size / 1e6
        print(f"peak memory {peak:.0f} MiB, database {size:.0f} MB")
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
