"""What a running tournament shows as games end, each an observer of the run
(:mod:`arena.events`) that the command line creates: the progress bar and its leader
(:class:`ProgressBar`), the compact leaderboard every ``rating_interval`` games
(:class:`PeriodicTable`), and the live ``report.html`` (:class:`LiveReport`)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arena.errors import ArenaError
from arena.events import (
    GameFailed,
    GameGivenUp,
    GameStored,
    RunFinished,
    RunObserver,
    RunStarted,
)
from arena.records import GameRecord
from arena.results import rating, ratings

LIVE_MIN_S = 3.0
"""Seconds at least between two rewrites of the live report."""


class Leader:
    """The progress bar's current leader (completion order, display only): TrueSkill
    through the rating interface for games of several players, best mean score for
    one-player games."""

    def __init__(self) -> None:
        trueskill = ratings.get("trueskill")
        assert isinstance(trueskill, ratings.IncrementalRating)
        self.trueskill = trueskill
        self.state = trueskill.start()
        # one-player games: each bot's total score and games (not every score: a run's
        # memory stays flat however long it goes)
        self.scores: dict[str, tuple[float, int]] = {}

    def add(self, record: GameRecord) -> str:
        """Count a game; the leader's name now."""
        seats = record.seats
        if len(seats) == 1:
            total, games = self.scores.get(seats[0].bot, (0.0, 0))
            self.scores[seats[0].bot] = (total + seats[0].score, games + 1)
            return max(self.scores, key=lambda b: self.scores[b][0] / self.scores[b][1])
        event = [rating.Entry(s.bot, s.rank, s.score, s.forfeit) for s in seats]
        self.trueskill.update(self.state, event)
        return max(self.state, key=lambda b: self.trueskill.rated(self.state, b).value or 0.0)


class ProgressBar(RunObserver):
    """A tqdm bar on stderr of the games done (stored, failed or given up), its total
    following the run's expectation (an SPRT's, from its LLR); beside it the scheduler's
    state, else the leader."""

    def __init__(self) -> None:
        self.leader = Leader()
        self.bar: Any = None

    def started(self, event: RunStarted) -> None:
        """The bar, from the games already stored."""
        from tqdm import tqdm

        self.bar = tqdm(
            total=event.total,
            initial=event.stored,
            desc=event.name,
            unit="game",
            file=sys.stderr,
            dynamic_ncols=True,
        )

    def _advance(self, total: int | None) -> None:
        if total is not None:
            self.bar.total = max(total, self.bar.n + 1)
        self.bar.update(1)

    def stored(self, event: GameStored) -> None:
        """A game was stored: the bar moves, the leader beside it."""
        best = self.leader.add(event.record)
        status = event.status or (f"leader: {best}" if best else "")
        if status:
            self.bar.set_postfix_str(status, refresh=False)
        self._advance(event.total)

    def given_up(self, event: GameGivenUp) -> None:
        """A game was given up: done, for the bar."""
        self._advance(event.total)

    def failed(self, event: GameFailed) -> None:
        """A game failed: done, for the bar."""
        self._advance(event.total)

    def finished(self, event: RunFinished) -> None:
        """The bar is done."""
        if self.bar is not None:
            self.bar.close()


class PeriodicTable(RunObserver):
    """The compact leaderboard of the output folder on stderr every ``every`` games this
    run stored (above a progress bar, if one is shown)."""

    def __init__(self, every: int) -> None:
        self.every = every
        self.name = ""
        self.output: Path | None = None
        self.before = 0

    def started(self, event: RunStarted) -> None:
        """Where the run stores its games."""
        self.name, self.output, self.before = event.name, event.output, event.stored

    def stored(self, event: GameStored) -> None:
        """A game was stored: the table, every ``every`` games."""
        if not self.every or event.played % self.every or self.output is None:
            return
        from tqdm import tqdm

        from arena.views.leaderboard import shown_leaderboard_for

        board = shown_leaderboard_for(self.output).compact(title=False)
        head = f"--- {self.name}: {self.before + event.played} games stored"
        tqdm.write(f"{head}\n{board}\n", file=sys.stderr)


class LiveReport(RunObserver):
    """``report.html`` rewritten as games are stored: at most every :data:`LIVE_MIN_S`
    seconds, and never more often than four times the last write took (it reads every
    replay)."""

    def __init__(self, output: Path, say: Callable[[str], None]) -> None:
        self.output = output
        self.say = say
        self.next = 0.0
        self.broken = False

    def stored(self, event: GameStored) -> None:
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


def run_observers(
    output: Path,
    show_bar: bool,
    rating_interval: int,
    report: bool,
    say: Callable[[str], None],
) -> list[RunObserver]:
    """What ``arena run`` shows as it goes: the bar (when wanted), the periodic table
    (``rating_interval`` > 0), the live report (``report``)."""
    observers: list[RunObserver] = []
    if show_bar:
        observers.append(ProgressBar())
    if rating_interval:
        observers.append(PeriodicTable(rating_interval))
    if report:
        observers.append(LiveReport(output, say))
    return observers
