"""Leaderboard, pairings and win-rate matrix, as text tables, markdown, JSON or CSV.

:meth:`Leaderboard.rows` is the one source of the per-bot columns (JSON, CSV, the text
tables and any report built on them); :meth:`Leaderboard.pairings` the same for pairs.
Numbers that are not finite (the Elo of a 100% score) are ``None`` there.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabulate import tabulate

from arena.results import rating
from arena.results.rating import REASONS, BotStats, Pairwise
from arena.results.stats import EloEstimate, Sprt, SprtResult, mean_interval, percentile
from arena.results.store import Store, open_existing

FORFEIT_KEYS = REASONS


def _num(value: float | None, digits: int) -> float | None:
    """``value`` rounded, or ``None`` when missing or not finite (JSON has no infinity)."""
    if value is None or not math.isfinite(value):
        return None
    return round(value, digits)


def _elo_text(e: EloEstimate) -> str:
    """``+55.6 ±27.7``; ``+inf`` for a 100% score; ``-`` without games."""
    if e.n == 0:
        return "-"
    if not math.isfinite(e.elo):
        return "+inf" if e.elo > 0 else "-inf"
    error = f"{e.elo_error:.1f}" if math.isfinite(e.elo_error) else "inf"
    return f"{round(e.elo, 1) + 0.0:+.1f} ±{error}"  # + 0.0: no "-0.0"


def _bt_text(rating: float | None, error: float | None) -> str:
    """``+158 ±204``; ``-`` for a bot without games."""
    if rating is None:
        return "-"
    return f"{round(rating) + 0:+d} ±" + ("inf" if error is None else f"{error:.0f}")


def _ms_text(ms: float) -> str:
    """``0.42``, ``12.3``, ``250``: a response time with about three significant digits."""
    return f"{ms:.2f}" if ms < 10 else f"{ms:.1f}" if ms < 100 else f"{ms:.0f}"


def _rate_text(rate: float, interval: tuple[float, float]) -> str:
    """``62.5 [44-79]``: a rate in percent with its 95% Wilson interval."""
    low, high = interval
    return f"{100 * rate:.1f} [{100 * low:.0f}-{100 * high:.0f}]"


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


@dataclass(frozen=True)
class ClockOptions:
    """The tournament's clock options, as the leaderboard shows them."""

    time_margin_ms: float = 0
    clock_scale: float = 1.0
    kind: str = "wall"
    stall_replays: int = 0  # games broken off as stalls and played again
    stall_why: str = ""  # the latest stall's detail

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
        return text


@dataclass
class Leaderboard:
    """Ratings and tallies of a tournament, ready to print."""

    title: str
    stats: list[BotStats]
    pairs: dict[tuple[str, str], Pairwise]
    multiplayer: bool = False
    sprt: SprtResult | None = None
    timing: dict[str, Timing] = field(default_factory=dict)
    clock: ClockOptions | None = None

    def rows(self) -> list[dict[str, Any]]:
        """One dict per bot, best first (the JSON and CSV form).

        ``bt``/``bt_ci``: Bradley-Terry rating over all games and its 95% half-width;
        ``elo``/``elo_ci``/``los``: Elo difference against the field ±95% and likelihood
        of superiority in % (fastchess's formulas; pentanomial over seat-swapped pairs);
        ``win%_low``/``win%_high``: 95% Wilson interval of ``win%``; then the games lost
        by each forfeit reason, ``late`` (answers over the budget but within the time
        margin) and ``p50_ms``/``p99_ms``/``max_ms``, the response time over every
        answered turn (``None`` when no times were stored).
        """
        rows = []
        for i, s in enumerate(self.stats, start=1):
            mean, half = mean_interval(s.scores)
            elo = s.overall.elo()
            low, high = s.win_interval()
            row: dict[str, Any] = {
                "rank": i,
                "bot": s.name,
                "mu": round(s.mu, 2),
                "sigma": round(s.sigma, 2),
                "mu-3sigma": round(s.conservative, 2),
                "bt": _num(s.bt, 1),
                "bt_ci": _num(s.bt_error, 1),
                "elo": _num(elo.elo, 1),
                "elo_ci": _num(elo.elo_error, 1),
                "los": _num(100 * elo.los, 2),
                "games": s.games,
                "wins": s.wins,
                "draws": s.draws,
                "losses": s.losses,
                "win%": round(100 * s.win_rate, 1),
                "win%_low": round(100 * low, 1),
                "win%_high": round(100 * high, 1),
                "draw%": round(100 * s.overall.draw_rate, 1),
                "score": round(mean, 2),
                "score±": round(half, 2),
            }
            for label in self.variants():
                v_mean, v_half = mean_interval(s.variant_scores.get(label, []))
                row[f"score {label}"] = round(v_mean, 2)
                row[f"score± {label}"] = round(v_half, 2)
            if self.multiplayer:
                row["avg_rank"] = round(s.avg_rank, 2)
            row.update(s.forfeits)
            timing = self.timing.get(s.name, Timing())
            row["late"] = timing.late
            row["p50_ms"] = _num(timing.p50_ms, 2)
            row["p99_ms"] = _num(timing.p99_ms, 2)
            row["max_ms"] = _num(timing.max_ms, 2)
            rows.append(row)
        return rows

    def pairings(self) -> list[dict[str, Any]]:
        """Head to head, one dict per ordered pair of bots that met (both directions).

        ``rate`` with its Wilson interval, Elo ±95%, normalized Elo, LOS (%), draws (%),
        and ``ptnml``: the seat-swapped pairs by points of ``bot``, ``[LL, LD, WL+DD, WD,
        WW]`` (fastchess's ``Ptnml(0-2)``).
        """
        out = []
        for (a, b), p in sorted(self.pairs.items()):
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
                    "elo": _num(elo.elo, 1),
                    "elo_ci": _num(elo.elo_error, 1),
                    "nelo": _num(elo.nelo, 1),
                    "nelo_ci": _num(elo.nelo_error, 1),
                    "los": _num(100 * elo.los, 2),
                    "draw%": round(100 * p.draw_rate, 1),
                    "pairs": p.ptnml.pairs,
                    "ptnml": list(p.ptnml.counts),
                }
            )
        return out

    def variants(self) -> list[str]:
        """Labels of the settings variants played (``layout=1``...), empty when only one."""
        labels = sorted({label for s in self.stats for label in s.variant_scores if label})
        return labels

    def matrix(self) -> list[list[str]]:
        """Win-rate matrix rows: row bot's score rate against column bot in %, its 95%
        Wilson interval, and the games: ``62.5 [44-79] (16)``."""
        names = [s.name for s in self.stats]
        out = []
        for a in names:
            row = [a]
            for b in names:
                pw = self.pairs.get((a, b))
                if a == b or pw is None or pw.n == 0:
                    row.append("-")
                else:
                    row.append(f"{_rate_text(pw.rate, pw.interval())} ({pw.n})")
            out.append(row)
        return out

    def render(self, fmt: str = "table") -> str:
        """The leaderboard, pairings and matrix in ``fmt``: table, markdown, json or csv."""
        if fmt == "json":
            data: dict[str, Any] = {"title": self.title}
            if self.clock is not None:
                data["time_margin_ms"] = self.clock.time_margin_ms
                data["clock_scale"] = self.clock.clock_scale
                data["clock"] = self.clock.kind
                data["stall_replays"] = self.clock.stall_replays
            data["leaderboard"] = self.rows()
            data["pairwise"] = self.pairings()
            if self.sprt is not None:
                data["sprt"] = self.sprt.to_dict()
            return json.dumps(data, indent=2)
        if fmt == "csv":
            buf = io.StringIO()
            rows = self.rows()
            if rows:
                writer = csv.DictWriter(buf, fieldnames=list(rows[0]))
                writer.writeheader()
                writer.writerows(rows)
            return buf.getvalue()
        tablefmt = "github" if fmt == "markdown" else "simple"

        def heading(text: str) -> str:
            return f"{text}:" if fmt == "table" else f"### {text}"

        def table(rows: Any, headers: Any) -> str:
            return tabulate(rows, headers=headers, tablefmt=tablefmt, disable_numparse=True)

        parts = [self.title if fmt == "table" else f"## {self.title}"]
        if self.clock is not None:
            parts.append(self.clock.describe())
        parts += ["", table(self._table_rows(), "keys")]
        pairings = self._pairing_rows()
        if pairings:
            parts += [
                "",
                heading(
                    "Pairings: Elo of the first bot ±95%, normalized Elo, likelihood of "
                    "superiority; ptnml = seat-swapped pairs by its points [0, 1/2, 1, 3/2, 2]"
                ),
                "",
                table(pairings, "keys"),
            ]
        parts += [
            "",
            heading("Win rate of row against column (draws half), % [95% Wilson interval] (games)"),
            "",
            table(self.matrix(), ["", *[s.name for s in self.stats]]),
        ]
        if self.sprt is not None:
            parts += ["", self.sprt_text()]
        return "\n".join(parts)

    def sprt_text(self) -> str:
        """``SPRT normalized Elo [0, 5], ...: new vs base, 150 pairs, LLR 2.96 (...): H1
        accepted``."""
        if self.sprt is None:
            return ""
        r = self.sprt
        return (
            f"SPRT {r.test.describe()}: {r.candidate} vs {r.baseline}, {r.pairs} pairs, "
            f"{r.progress()}: {r.outcome}"
        )

    def _table_rows(self) -> list[dict[str, str]]:
        table = []
        for s, r in zip(self.stats, self.rows(), strict=True):
            elo = s.overall.elo()
            row = {
                "#": str(r["rank"]),
                "bot": r["bot"],
                "BT ±95%": _bt_text(r["bt"], r["bt_ci"]),
                "Elo ±95%": _elo_text(elo),
                "LOS": "-" if r["los"] is None else f"{r['los']:.1f}%",
                "mu": f"{r['mu']:.2f}",
                "sigma": f"{r['sigma']:.2f}",
                "mu-3σ": f"{r['mu-3sigma']:.2f}",
                "games": str(r["games"]),
                "W/D/L": f"{r['wins']}/{r['draws']}/{r['losses']}",
                "win % [95%]": f"{r['win%']:.1f} [{r['win%_low']:.0f}-{r['win%_high']:.0f}]",
                "draws": f"{r['draw%']:.1f}%",
                "score": f"{r['score']:.1f} ±{r['score±']:.1f}",
            }
            for label in self.variants():
                row[f"score {label}"] = f"{r[f'score {label}']:.1f} ±{r[f'score± {label}']:.1f}"
            if self.multiplayer:
                row["avg rank"] = f"{r['avg_rank']:.2f}"
            row["/".join(FORFEIT_KEYS)] = "/".join(str(r[k]) for k in FORFEIT_KEYS)
            row["late"] = str(r["late"])
            times = (r["p50_ms"], r["p99_ms"], r["max_ms"])
            row["ms p50/p99/max"] = "-" if None in times else "/".join(_ms_text(t) for t in times)
            table.append(row)
        return table

    def _pairing_rows(self) -> list[dict[str, str]]:
        """Each pair of bots once, the better placed first."""
        place = {s.name: i for i, s in enumerate(self.stats)}
        rows = []
        for p in self.pairings():
            a, b = p["bot"], p["opponent"]
            if place.get(a, len(place)) > place.get(b, len(place)):
                continue
            pw = self.pairs[a, b]
            nelo = "-" if p["nelo"] is None else f"{p['nelo']:+.1f} ±{p['nelo_ci']:.1f}"
            rows.append(
                {
                    "bot": a,
                    "opponent": b,
                    "games": str(p["games"]),
                    "W/D/L": f"{p['wins']}/{p['draws']}/{p['losses']}",
                    "score % [95%]": _rate_text(p["rate"], (p["rate_low"], p["rate_high"])),
                    "Elo ±95%": _elo_text(pw.elo()),
                    "nElo ±95%": nelo,
                    "LOS": "-" if p["los"] is None else f"{p['los']:.1f}%",
                    "draws": f"{p['draw%']:.1f}%",
                    "ptnml": " ".join(str(c) for c in p["ptnml"]) if p["pairs"] else "-",
                }
            )
        return rows


def leaderboard_from_store(store: Store) -> Leaderboard:
    """Recompute ratings and tables from the stored games the tournament file defined at
    its last run (in the order of its schedule)."""
    meta = store.meta()
    games = store.games()
    bots = list(meta.get("bots", []))
    stats, pairs = rating.compute(bots, games, meta.get("variant_keys", []))
    fmt = meta.get("format", "round-robin")
    shown = "" if fmt == "round-robin" else f"{fmt}, "
    title = f"{meta.get('name', store.output.name)} ({meta.get('game', '?')}, {shown}"
    title += f"{len(games)} games)"
    sprt = None
    if meta.get("sprt") and len(bots) == 2:  # only format sprt stores its test
        test = Sprt(**meta["sprt"])
        pw = pairs.get((bots[0], bots[1]), rating.Pairwise())
        sprt = test.result(bots[0], bots[1], pw.ptnml)
    late: dict[str, int] = {}
    for game in games:
        for seat in game.seats:
            late[seat.bot] = late.get(seat.bot, 0) + seat.late
    times = store.response_times()
    timing = {s.name: Timing.of(times.get(s.name, ()), late.get(s.name, 0)) for s in stats}
    stalls = meta.get("stall_replays") or {}
    clock = ClockOptions(
        meta.get("time_margin_ms", 0),
        meta.get("clock_scale", 1.0),
        meta.get("clock", "wall"),
        int(stalls.get("replayed", 0)),
        str(stalls.get("why", "")),
    )
    # Games of other than two players also show each bot's average rank.
    return Leaderboard(
        title,
        stats,
        pairs,
        multiplayer=int(meta.get("players", 2)) != 2,
        sprt=sprt,
        timing=timing,
        clock=clock,
    )


def leaderboard_for(output: Path) -> Leaderboard:
    """The leaderboard of an existing output folder."""
    store = open_existing(output)
    try:
        return leaderboard_from_store(store)
    finally:
        store.close()
