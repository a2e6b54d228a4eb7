"""Bradley-Terry with a bootstrap interval (``rating: bt-boot``): bt's ratings, intervals
from resampled games, fitted only when chosen; figures worked out by hand."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from arena.results import ratings
from arena.results.rating import Counts, Entry, Pairwise, rate
from arena.results.ratings.bt_bootstrap import ELO, bootstrap_bounds
from support import run_arena, stc_cycler


def counts_of(results: dict[tuple[str, str], tuple[int, int, int]]) -> Counts:
    """Counts of two-player games: (wins, draws, losses) of a over b per pairing."""
    counts = Counts()
    for (a, b), (w, d, lost) in results.items():
        for bot in (a, b):
            counts.bot(bot).games += w + d + lost
        counts.pairs[a, b] = Pairwise(w, d, lost)
        counts.pairs[b, a] = Pairwise(lost, d, w)
    counts.finish()
    return counts


def boot(counts: Counts) -> dict[str, ratings.Rated]:
    return ratings.get("bt-boot").fit(counts, list(counts.stats))  # type: ignore[attr-defined]


def test_a_clean_sweep_resamples_to_itself_so_its_interval_is_its_rating():
    # 10 wins of 10: every resample is 10 of 10 again. With the virtual draw a scored
    # 10.5 and b 0.5, so a - b = 400 log10(21) and each sits half of it from 0.
    half = 200 * math.log10(10.5 / 0.5)  # 264.4
    got = boot(counts_of({("a", "b"): (10, 0, 0)}))
    assert got["a"].numbers == {"bt_boot": round(half, 1), "bt_boot_low": round(half, 1),
                                "bt_boot_high": round(half, 1)}  # fmt: skip
    assert got["a"].cells["bt_boot"] == "+264 [+264, +264]"
    assert got["b"].cells["bt_boot"] == "-264 [-264, -264]"


def test_an_even_pairing_has_an_interval_symmetric_about_zero_and_bt_s_rating():
    counts = counts_of({("a", "b"): (5, 0, 5)})
    got = boot(counts)
    bt = ratings.get("bt").fit(counts, ["a", "b"])  # type: ignore[attr-defined]
    assert got["a"].value == pytest.approx(bt["a"].value) == pytest.approx(0.0, abs=1e-9)
    low, high = got["a"].numbers["bt_boot_low"], got["a"].numbers["bt_boot_high"]
    assert low == -high and high > 0
    # a's resampled score s of 10 (binomial 10, 1/2) gives a = 200 log10((s + .5) / (10.5 - s)):
    # the 97.5th percentile of s is 8 (P(s <= 7) = 0.945, P(s <= 8) = 0.989).
    assert high == pytest.approx(200 * math.log10(8.5 / 2.5), abs=15)


def test_three_bots_keep_bt_s_ratings_inside_their_intervals():
    counts = counts_of({("a", "b"): (7, 1, 2), ("b", "c"): (6, 0, 4), ("a", "c"): (8, 0, 2)})
    got = boot(counts)
    bt = ratings.get("bt").fit(counts, ["a", "b", "c"])  # type: ignore[attr-defined]
    for name in "abc":
        n = got[name].numbers
        assert got[name].value == pytest.approx(bt[name].value)
        assert n["bt_boot_low"] < got[name].value < n["bt_boot_high"]
    # the zero-mean anchor holds in every resample: the bounds of the three straddle 0
    assert sum(got[n].value for n in "abc") == pytest.approx(0.0, abs=1e-6)


def test_the_resampled_fits_are_the_maximum_likelihood_of_each_resample():
    # One resample of a single pairing is fitted in closed form: a - b = ELO ln(s_a / s_b).
    counts = counts_of({("a", "b"): (3, 2, 5)})
    low, high = bootstrap_bounds(counts, resamples=1, seed=1)["a"]
    assert low == pytest.approx(high)  # one resample: both percentiles are it
    import numpy as np

    drawn = np.random.default_rng(1).multinomial([10], [[0.3, 0.2, 0.5]], size=(1, 1))[0, 0]
    s_a = drawn[0] + 0.5 * drawn[1] + 0.5
    assert low == pytest.approx(ELO * math.log(s_a / (11 - s_a)) / 2, abs=1e-6)


def test_games_of_three_players_show_no_bootstrap_interval():
    counts = counts_of({("a", "b"): (1, 0, 0), ("a", "c"): (1, 0, 0), ("b", "c"): (1, 0, 0)})
    counts.multi[(("a", "b", 1.0), ("a", "c", 1.0), ("b", "c", 1.0))] = 1
    got = boot(counts)
    assert got["a"].numbers["bt_boot_low"] is None and "[" not in got["a"].cells["bt_boot"]


def test_it_is_fitted_only_when_chosen():
    assert "bt-boot" not in [r.name for r in ratings.everyone()]
    assert "bt-boot" in [r.name for r in ratings.everyone("bt-boot")]
    counts = counts_of({("a", "b"): (2, 0, 1)})
    assert "bt-boot" not in rate(counts, {})[0].ratings
    assert "bt-boot" in rate(counts, {}, "bt-boot")[0].ratings
    assert Entry  # (the events' entry type, imported where tables are built)


def test_the_leaderboard_sorts_by_it_and_shows_its_interval(tmp_path: Path):
    bots = tmp_path / "bots"
    bots.mkdir()
    for n in (2, 6):
        (bots / f"c{n}.py").write_text(stc_cycler(n))
    (tmp_path / "t.yaml").write_text(
        f"game: stc\ngames: 4\nsettings:\n  max_turns: 3\noutput: {tmp_path / 'out'}\n"
        f"bots:\n  - cmd: python3 {bots}/c2.py\n  - cmd: python3 {bots}/c6.py\n"
    )
    run = run_arena("run", str(tmp_path / "t.yaml"), "--no-progress")
    assert run.returncode == 0, run.stderr
    board = run_arena("leaderboard", str(tmp_path / "out"), "--rating", "bt-boot")
    assert board.returncode == 0, board.stderr
    assert board.stdout.splitlines()[2].split()[:5] == ["#", "bot", "BT", "[boot", "95%]"]
    data = json.loads(
        run_arena(
            "leaderboard", str(tmp_path / "out"), "--rating", "bt-boot", "--format", "json"
        ).stdout
    )
    row = data["leaderboard"][0]
    assert row["bt_boot_low"] <= row["bt_boot"] <= row["bt_boot_high"]
    plain = json.loads(run_arena("leaderboard", str(tmp_path / "out"), "--format", "json").stdout)
    assert "bt_boot" not in plain["leaderboard"][0]
