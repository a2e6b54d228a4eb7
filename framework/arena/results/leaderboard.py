"""A tournament's leaderboard as numbers: each bot's ratings and tallies, the pairings.

:meth:`Leaderboard.rows` is the one source of the per-bot columns (JSON, CSV, the text
tables and any report built on them); :meth:`Leaderboard.pairings` the same for pairs.
Numbers that are not finite (the Elo of a 100% score) are ``None`` there, with
``elo_bound`` saying which way (``"+"``: above any number, ``"-"``: below). Their text
(tables fitted to the terminal, markdown, JSON, CSV) is :mod:`arena.views.leaderboard`'s.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from arena.errors import ConfigError
from arena.limits import DEFAULT_FORMAT
from arena.results import rating, ratings
from arena.results.rating import BotStats, Pairwise
from arena.results.ratings.elo import num
from arena.results.stats import Sprt, SprtResult, elo_bound, percentile, score_interval

if TYPE_CHECKING:
    from arena.results.store import Store


@dataclass(frozen=True)
class Timing:
    """How a bot answered the clock over a tournament: answers over the budget but within
    the time margin (``late``), and its response time at the median, the 99th percentile
    (nearest rank) and the maximum over every answered turn (None without stored times)."""

    late: int = 0
    p50_ms: float | None = None
    p99_ms: float | None = None
    max_ms: float | None = None

    @staticmethod
    def of(times: Sequence[float], late: int = 0) -> Timing:
        """The timing of a bot that answered its turns in ``times`` ms."""
        if not times:
            return Timing(late)
        ordered = sorted(times)
        return Timing(late, percentile(ordered, 0.5), percentile(ordered, 0.99), ordered[-1])

    @staticmethod
    def of_bins(bins: Sequence[tuple[float, int]], late: int = 0) -> Timing:
        """The timing of a bot from its times counted by value, ascending (what the store
        keeps: times to 0.01 ms, so the percentiles are those of the times, rounded)."""
        total = sum(n for _, n in bins)
        if not total:
            return Timing(late)

        def at(q: float) -> float:
            rank = min(max(1, math.ceil(q * total - 1e-9)), total)
            seen = 0
            for value, n in bins:
                seen += n
                if seen >= rank:
                    return value
            return bins[-1][0]

        return Timing(late, at(0.5), at(0.99), bins[-1][0])


@dataclass(frozen=True)
class ClockOptions:
    """The tournament's clock options, as the leaderboard shows them."""

    time_margin_ms: float = 0
    clock_scale: float = 1.0
    kind: str = "wall"
    stall_replays: int = 0  # games broken off as stalls and played again
    stall_why: str = ""  # the latest stall's detail
    stall_given_up: int = 0  # games still stalling after every replay: not stored

    @property
    def noteworthy(self) -> bool:
        """Whether the compact table should say anything about the clock."""
        return bool(
            self.clock_scale != 1
            or self.time_margin_ms
            or self.kind != "wall"
            or self.stall_replays
            or self.stall_given_up
        )

    def describe(self) -> str:
        """``clock: game budgets x1.5, time margin 50 ms`` (and the clock kind, stall
        replays, when there is something to say)."""
        text = f"clock: game budgets x{self.clock_scale:g}, time margin {self.time_margin_ms:g} ms"
        if self.kind != "wall":
            text += f", {self.kind} time"
        if self.stall_replays:
            text += (
                f"\n{self.stall_replays} game(s) replayed after a stall: a turn over its "
                f"budget only because the machine kept a bot waiting (last: {self.stall_why})"
            )
        if self.stall_given_up:
            text += (
                f"\n{self.stall_given_up} game(s) given up after stalling at every replay: "
                "not stored (run the same command again to play them)"
            )
        return text


def rated(s: BotStats, name: str) -> ratings.Rated:
    """``s``'s rating ``name`` (unrated when the board was built without it)."""
    return s.ratings.get(name) or ratings.get(name).unrated()


@dataclass
class Leaderboard:
    """Ratings and tallies of a tournament (:class:`arena.views.leaderboard.ShownLeaderboard`
    prints them)."""

    title: str
    stats: list[BotStats]
    pairs: Mapping[tuple[str, str], Pairwise]
    multiplayer: bool = False
    sprt: SprtResult | None = None
    timing: dict[str, Timing] = field(default_factory=dict)
    clock: ClockOptions | None = None
    players: int = 2
    rating: str = ratings.DEFAULT  # the rating the rows are sorted by (its name)

    def sorted_by(self, name: str) -> Self:
        """The same board sorted by the rating ``name`` (``--rating``)."""
        if why := ratings.check_name(name):
            raise ConfigError(f"--rating: {why}")
        stats = sorted(self.stats, key=lambda s: rating.rank_key(s, name))
        return dataclasses.replace(self, stats=stats, rating=name)

    def rows(self) -> list[dict[str, Any]]:
        """One dict per bot, best first (the JSON and CSV form).

        ``mu``/``sigma``/``mu-3sigma``: TrueSkill; ``bt``/``bt_ci``: Bradley-Terry rating
        over all games and its 95% half-width (the default order of the rows);
        ``elo``/``elo_ci``/``los``: Elo difference against the
        field ±95% and likelihood of superiority in % (fastchess's formulas; pentanomial
        over seat-swapped pairs), ``elo_low``/``elo_high`` the interval's bounds, and
        ``elo_bound`` ``"+"`` or ``"-"`` when ``elo`` is ``None`` for being infinite;
        ``win%_low``/``win%_high``: 95% Wilson interval of ``win%``; ``score`` the mean
        score, ``score_ci`` its 95% half-width and ``score_low``/``score_high`` the
        interval clipped to the scores' range (``None`` from fewer than two games); then
        the games lost by each forfeit reason, ``late`` (answers over the budget but
        within the time margin) and ``p50_ms``/``p99_ms``/``max_ms``, the response time
        over every answered turn (``None`` when no times were stored); last OpenSkill's
        ``os_mu``/``os_sigma``/``os_mu-3sigma``.
        """
        made: list[dict[str, Any]] | None = self.__dict__.get("_rows_made")
        if made is not None:  # made once (not a field): every table of a render reads them
            return made
        rows: list[dict[str, Any]] = []
        self.__dict__["_rows_made"] = rows
        variants = self.variants()
        for i, s in enumerate(self.stats, start=1):
            score = score_interval(s.scores)
            low, high = s.win_interval()
            row: dict[str, Any] = {"rank": i, "bot": s.name}
            for name in ("trueskill", "bt", "elo"):
                row.update(rated(s, name).numbers)
            row.update(
                {
                    "games": s.games,
                    "wins": s.wins,
                    "draws": s.draws,
                    "losses": s.losses,
                    "win%": round(100 * s.win_rate, 1),
                    "win%_low": round(100 * low, 1),
                    "win%_high": round(100 * high, 1),
                    "draw%": round(100 * s.overall.draw_rate, 1),
                    "score": round(score.mean, 2) + 0.0,
                    "score_ci": num(score.half, 2),
                    "score_low": num(score.low, 2),
                    "score_high": num(score.high, 2),
                }
            )
            for label in variants:
                v = score_interval(s.variant_scores.get(label, []))
                row[f"score {label}"] = round(v.mean, 2) + 0.0
                row[f"score_ci {label}"] = num(v.half, 2)
            if self.multiplayer:
                row["avg_rank"] = round(s.avg_rank, 2) if s.games else None
            row.update(s.forfeits)
            timing = self.timing.get(s.name, Timing())
            row["late"] = timing.late
            row["p50_ms"] = num(timing.p50_ms, 2)
            row["p99_ms"] = num(timing.p99_ms, 2)
            row["max_ms"] = num(timing.max_ms, 2)
            row.update(rated(s, "openskill").numbers)
            if ratings.RATINGS[self.rating].on_demand:  # fitted for this board only
                row.update(rated(s, self.rating).numbers)
            rows.append(row)
        return rows

    def pairings(self, bot: str | None = None) -> list[dict[str, Any]]:
        """Head to head, one dict per ordered pair of bots that met (both directions;
        with ``bot``, only its own, from its side).

        ``rate`` with its Wilson interval, Elo ±95%, normalized Elo, LOS (%), draws (%),
        and ``ptnml``: the seat-swapped pairs by points of ``bot``, ``[LL, LD, WL+DD, WD,
        WW]`` (fastchess's ``Ptnml(0-2)``).
        """
        out = []
        pairs = self.pairs
        if bot is not None:  # (filtered before the figures: a bot of a thousand)
            pairs = rating.pairs_where(pairs, lambda a, _: a == bot)
        for (a, b), p in sorted(pairs.items()):
            if p.n == 0:
                continue
            elo = p.elo()
            low, high = p.interval()
            out.append(
                {
                    "bot": a,
                    "opponent": b,
                    "games": p.n,
                    "wins": p.wins,
                    "draws": p.draws,
                    "losses": p.losses,
                    "rate": round(p.rate, 4),
                    "rate_low": round(low, 4),
                    "rate_high": round(high, 4),
                    "elo": num(elo.elo, 1),
                    "elo_bound": elo_bound(elo.elo),
                    "elo_ci": num(elo.elo_error, 1),
                    "elo_low": num(elo.elo_low, 1),
                    "elo_high": num(elo.elo_high, 1),
                    "nelo": num(elo.nelo, 1),
                    "nelo_ci": num(elo.nelo_error, 1),
                    "los": num(100 * elo.los, 2),
                    "draw%": round(100 * p.draw_rate, 1),
                    "pairs": p.ptnml.pairs,
                    "ptnml": list(p.ptnml.counts),
                    "unpaired": p.unpaired,
                }
            )
        return out

    def variants(self) -> list[str]:
        """Labels of the settings variants played (``layout=1``...), empty when only one."""
        made: list[str] | None = self.__dict__.get("_variants_made")
        if made is None:  # (asked for each row of a table; not a field)
            labels = {label for s in self.stats for label in s.variant_scores if label}
            made = self.__dict__["_variants_made"] = sorted(labels)
        return made

    @property
    def one_player(self) -> bool:
        """Whether the games have one player each (bots compared by score per seed)."""
        return self.players == 1


def chosen_rating(meta: dict[str, Any], given: str | None) -> str:
    """The rating the rows are sorted by: ``given`` (``--rating``), else the tournament's
    ``rating:`` as recorded, else :data:`arena.results.ratings.DEFAULT`."""
    name = given or meta.get("rating") or ratings.DEFAULT
    if why := ratings.check_name(name):
        raise ConfigError(f"--rating: {why}" if given else f"rating: {why}")
    return str(name)


def leaderboard_from_store(
    store: Store, rating_name: str | None = None, every_game: bool = False
) -> Leaderboard:
    """Recompute ratings and tables from the stored games the tournament file defined at
    its last run (in the order of its schedule), or from ``every_game`` stored, sorted by
    ``rating_name`` (see :func:`chosen_rating`)."""
    meta = store.meta()
    sort_by = chosen_rating(meta, rating_name)
    bots = list(meta.get("bots", []))
    kept = None if every_game else store.kept(bots)
    pairs: Mapping[tuple[str, str], Pairwise]
    if kept is not None:
        fitted, percentiles = kept.fitted, kept.percentiles
        if percentiles is None:
            of = {b: Timing.of_bins(bins) for b, bins in kept.times.items() if bins}
            percentiles = {b: (t.p50_ms, t.p99_ms, t.max_ms) for b, t in of.items()}
        if kept.fitted is None or kept.percentiles is None:
            # fitted once for these games (and the times' percentiles found), kept for the
            # next reads
            fitted = rating.fit(kept.counts) if fitted is None else fitted
            store.keep_fitted(kept.fit_key, fitted, percentiles)
        stats = rating.rate(kept.counts, kept.states, sort_by, fitted)
        pairs, played = kept.counts.pairs, kept.games
        timing = {
            s.name: Timing(kept.late.get(s.name, 0), *percentiles.get(s.name, (None,) * 3))
            for s in stats
        }
    else:
        games = store.games(current_only=not every_game)
        if every_game:  # bots of games the file no longer defines too
            bots += sorted({s.bot for g in games for s in g.seats} - set(bots))
        stats, pairs = rating.compute(bots, games, meta.get("variant_keys", []), sort_by)
        played = len(games)
        late: dict[str, int] = {}
        for game in games:
            for seat in game.seats:
                late[seat.bot] = late.get(seat.bot, 0) + seat.late
        times = store.response_times(current_only=not every_game)
        timing = {s.name: Timing.of(times.get(s.name, ()), late.get(s.name, 0)) for s in stats}
    fmt = meta.get("format", "round-robin")
    shown = "" if fmt == DEFAULT_FORMAT else f"{fmt}, "
    title = f"{meta.get('name', store.output.name)} ({meta.get('game', '?')}, {shown}"
    title += f"{played} games)"
    sprt = None
    if meta.get("sprt") and len(bots) == 2:  # only format sprt stores its test
        test = Sprt(**meta["sprt"])
        pw = pairs.get((bots[0], bots[1]), rating.Pairwise())
        sprt = test.result(bots[0], bots[1], pw.ptnml)
    stalls = meta.get("stall_replays") or {}
    clock = ClockOptions(
        meta.get("time_margin_ms", 0),
        meta.get("clock_scale", 1.0),
        meta.get("clock", "wall"),
        int(stalls.get("replayed", 0)),
        str(stalls.get("why", "")),
        int(stalls.get("given_up", 0)),
    )
    # Games of other than two players also show each bot's average rank.
    return Leaderboard(
        title,
        stats,
        pairs,
        multiplayer=int(meta.get("players", 2)) != 2,
        players=int(meta.get("players", 2)),
        sprt=sprt,
        timing=timing,
        clock=clock,
        rating=sort_by,
    )


def leaderboard_for(
    output: Path, rating_name: str | None = None, every_game: bool = False
) -> Leaderboard:
    """The leaderboard of an existing output folder (of ``every_game`` stored), sorted by
    ``rating_name``."""
    from arena.results.store import open_existing  # sqlite3: only where a store is read

    store = open_existing(output)
    try:
        return leaderboard_from_store(store, rating_name, every_game)
    finally:
        store.close()
