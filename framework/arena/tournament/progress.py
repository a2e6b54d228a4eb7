"""What a running tournament shows as games end: the progress bar and its leader, the
compact leaderboard every ``rating_interval`` games, and the live ``report.html``."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tqdm import tqdm

from arena.errors import ArenaError
from arena.records import GameRecord
from arena.results import rating
from arena.results.leaderboard import leaderboard_from_store
from arena.results.store import Store
from arena.tournament.config import TournamentConfig
from arena.tournament.formats import Scheduler

LIVE_MIN_S = 3.0
"""Seconds at least between two rewrites of the live report."""


class Leader:
    """The progress bar's current leader (completion order, display only): running
    TrueSkill for games of several players, best mean score for one-player games."""

    def __init__(self) -> None:
        self.env = rating.new_env()
        self.ratings: dict[str, Any] = {}
        self.scores: dict[str, list[float]] = {}

    def add(self, record: GameRecord) -> str:
        """Count a game; the leader's name now."""
        seats = record.seats
        if len(seats) == 1:
            self.scores.setdefault(seats[0].bot, []).append(seats[0].score)
            return max(self.scores, key=lambda b: sum(self.scores[b]) / len(self.scores[b]))
        rs = [(self.ratings.get(s.bot, self.env.create_rating()),) for s in seats]
        new = self.env.rate(rs, ranks=[s.rank for s in seats])
        for s, (r,) in zip(seats, new, strict=True):
            self.ratings[s.bot] = r
        return max(self.ratings, key=lambda b: self.ratings[b].mu - 3 * self.ratings[b].sigma)


class LiveReport:
    """``report.html`` rewritten as games end: at most every :data:`LIVE_MIN_S` seconds,
    and never more often than four times the last write took (it reads every replay)."""

    def __init__(self, output: Path, say: Callable[[str], None]) -> None:
        self.output = output
        self.say = say
        self.next = 0.0
        self.broken = False

    def games_ended(self) -> None:
        """A game was stored: rewrite the report if it is time."""
        now = time.monotonic()
        if self.broken or now < self.next:
            return
        from arena.views.report import write_report

        try:
            write_report(self.output, live=True)
        except (ArenaError, OSError) as exc:
            self.broken = True  # said once; the report is written again after the run
            self.say(f"arena: could not refresh the report during the run: {exc}")
            return
        took = time.monotonic() - now
        self.next = time.monotonic() + max(LIVE_MIN_S, 4 * took)


class Progress:
    """The run's progress on stderr: a bar (when wanted) with the scheduler's state or the
    leader, the compact leaderboard every ``rating_interval`` games, the live report."""

    def __init__(
        self,
        config: TournamentConfig,
        scheduler: Scheduler,
        show_bar: bool,
        report: bool,
        say: Callable[[str], None],
    ) -> None:
        self.config = config
        self.scheduler = scheduler
        self.leader = Leader()
        self.live = LiveReport(config.output, say) if report else None
        self.bar = tqdm(
            total=scheduler.planned,
            initial=scheduler.stored,
            desc=config.name,
            unit="game",
            disable=not show_bar,
            file=sys.stderr,
            dynamic_ncols=True,
        )

    def stored(self, record: GameRecord, store: Store, played: int) -> None:
        """A game was stored (the ``played``-th of this run)."""
        best = self.leader.add(record)
        status = self.scheduler.status() or (f"leader: {best}" if best else "")
        if status:
            self.bar.set_postfix_str(status, refresh=False)
        every = self.config.rating_interval
        if every and played % every == 0:
            board = leaderboard_from_store(store).compact(title=False)
            head = f"--- {self.config.name}: {self.scheduler.stored + played} games stored"
            self.bar.write(f"{head}\n{board}\n", file=sys.stderr)
        if self.live is not None:
            self.live.games_ended()

    def advance(self) -> None:
        """One game done (stored, failed or given up): the bar moves, its total follows
        the scheduler's expectation (an SPRT's, from its LLR)."""
        eta = self.scheduler.expected_total()
        if eta is not None:
            self.bar.total = max(eta, self.bar.n + 1)
        self.bar.update(1)

    def close(self) -> None:
        """The bar is done."""
        self.bar.close()
