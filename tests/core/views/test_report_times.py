"""The report's response times use the leaderboard's percentiles: one median per bot."""

from __future__ import annotations

import re

from arena.results.stats import percentile
from arena.views.leaderboard import ShownLeaderboard
from arena.views.report import TurnTimes, _times_section


def test_the_reports_median_is_the_leaderboards_nearest_rank_median():
    # Nearest rank: 2 of the 4 values are <= 2, so the median is 2 (docs/leaderboard.md's rule);
    # the report used to round the index and show 3 beside a leaderboard showing 2.
    times = {"a": TurnTimes(ms=[4.0, 1.0, 3.0, 2.0], used=[0.04, 0.01, 0.03, 0.02])}
    board = ShownLeaderboard("t", [], {})
    html = _times_section(times, board)
    cells = re.findall(r"<td>([0-9.]+)</td>", html)
    games, p50, p90, p99, top = cells[:5]
    assert (games, p50, p90, p99, top) == ("4", "2.0", "4.0", "4.0", "4.0")
    assert float(p50) == percentile([1.0, 2.0, 3.0, 4.0], 0.5)
