"""Leaderboard, pairings and win-rate matrix, as text tables, markdown, JSON or CSV.

:meth:`Leaderboard.rows` is the one source of the per-bot columns (JSON, CSV, the text
tables and any report built on them); :meth:`Leaderboard.pairings` the same for pairs.
Numbers that are not finite (the Elo of a 100% score) are ``None`` there, with
``elo_bound`` saying which way (``"+"``: above any number, ``"-"``: below). The text table
is compact by default, fitted to the terminal's width (:mod:`arena.results.columns`);
``wide`` or ``columns`` show more. Every column is explained in docs/leaderboard.md.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.errors import ConfigError
from arena.limits import DEFAULT_FORMAT
from arena.results import rating, ratings
from arena.results.columns import Column, fit_table, folded_table, terminal_width
from arena.results.rating import REASONS, BotStats, Pairwise
from arena.results.ratings.elo import elo_text, num, signed

if TYPE_CHECKING:
    from arena.results.store import Store

from arena.results.stats import (
    ScoreInterval,
    Sprt,
    SprtResult,
    elo_bound,
    percentile,
    score_interval,
)

FORFEIT_KEYS = REASONS


_num = num
_signed = signed
_elo_text = elo_text


def _score_text(interval: ScoreInterval, wide: bool = False) -> str:
    """``367.5 [0-1088]``: a mean score with its 95% interval clipped to the scores'
    range; ``367.5`` alone from one game; ``-`` from none."""
    if interval.n == 0:
        return "-"
    digits = 1 if wide or abs(interval.mean) < 100 else 0
    mean = f"{round(interval.mean, digits) + 0.0:.{digits}f}"
    if interval.low is None or interval.high is None:
        return mean
    return f"{mean} [{interval.low + 0.0:.0f}-{interval.high + 0.0:.0f}]"


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
    players: int = 2
    rating: str = ratings.DEFAULT  # the rating the rows are sorted by (its name)
    _rows: list[dict[str, Any]] = field(default_factory=list, init=False, repr=False, compare=False)
    _variants: list[str] | None = field(default=None, init=False, repr=False, compare=False)

    def sorted_by(self, name: str) -> Leaderboard:
        """The same board sorted by the rating ``name`` (``--rating``)."""
        if why := ratings.check_name(name):
            raise ConfigError(f"--rating: {why}")
        stats = sorted(self.stats, key=lambda s: rating.rank_key(s, name))
        return dataclasses.replace(self, stats=stats, rating=name)

    def shown_ratings(self) -> list[ratings.Rating]:
        """Every rating, the one the rows are sorted by first."""
        chosen = ratings.get(self.rating)
        return [chosen, *(r for r in ratings.everyone() if r is not chosen)]

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
        if self._rows:  # made once: every table and column of a render reads them
            return self._rows
        rows = self._rows
        variants = self.variants()
        for i, s in enumerate(self.stats, start=1):
            score = score_interval(s.scores)
            low, high = s.win_interval()
            row: dict[str, Any] = {"rank": i, "bot": s.name}
            for name in ("trueskill", "bt", "elo"):
                row.update(self._rated(s, name).numbers)
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
                    "score_ci": _num(score.half, 2),
                    "score_low": _num(score.low, 2),
                    "score_high": _num(score.high, 2),
                }
            )
            for label in variants:
                v = score_interval(s.variant_scores.get(label, []))
                row[f"score {label}"] = round(v.mean, 2) + 0.0
                row[f"score_ci {label}"] = _num(v.half, 2)
            if self.multiplayer:
                row["avg_rank"] = round(s.avg_rank, 2) if s.games else None
            row.update(s.forfeits)
            timing = self.timing.get(s.name, Timing())
            row["late"] = timing.late
            row["p50_ms"] = _num(timing.p50_ms, 2)
            row["p99_ms"] = _num(timing.p99_ms, 2)
            row["max_ms"] = _num(timing.max_ms, 2)
            row.update(self._rated(s, "openskill").numbers)
            rows.append(row)
        return rows

    @staticmethod
    def _rated(s: BotStats, name: str) -> ratings.Rated:
        """``s``'s rating ``name`` (unrated when the board was built without it)."""
        return s.ratings.get(name) or ratings.get(name).unrated()

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
                    "elo_bound": elo_bound(elo.elo),
                    "elo_ci": _num(elo.elo_error, 1),
                    "elo_low": _num(elo.elo_low, 1),
                    "elo_high": _num(elo.elo_high, 1),
                    "nelo": _num(elo.nelo, 1),
                    "nelo_ci": _num(elo.nelo_error, 1),
                    "los": _num(100 * elo.los, 2),
                    "draw%": round(100 * p.draw_rate, 1),
                    "pairs": p.ptnml.pairs,
                    "ptnml": list(p.ptnml.counts),
                    "unpaired": p.unpaired,
                }
            )
        return out

    def variants(self) -> list[str]:
        """Labels of the settings variants played (``layout=1``...), empty when only one."""
        if self._variants is None:  # (asked for each row of a table)
            labels = {label for s in self.stats for label in s.variant_scores if label}
            self._variants = sorted(labels)
        return self._variants

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

    def render(
        self,
        fmt: str = "table",
        wide: bool = False,
        columns: Sequence[str] | None = None,
        width: int | None = None,
    ) -> str:
        """The leaderboard in ``fmt``: table, markdown, json or csv.

        JSON, CSV and markdown hold everything (rows, pairings, the win-rate matrix).
        The text table is compact and fitted to ``width`` (default: the terminal's, see
        :func:`arena.results.columns.terminal_width`); ``wide`` shows every column, the
        pairings and the matrix; ``columns`` picks the columns by key (:data:`COLUMNS`).
        """
        if fmt == "json":
            data: dict[str, Any] = {"title": self.title, "rating": self.rating}
            if self.clock is not None:
                data["time_margin_ms"] = self.clock.time_margin_ms
                data["clock_scale"] = self.clock.clock_scale
                data["clock"] = self.clock.kind
                data["stall_replays"] = self.clock.stall_replays
                data["stall_given_up"] = self.clock.stall_given_up
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
        if fmt == "markdown" or wide:
            return self._full(fmt, width)
        if columns:
            return self._chosen(columns)
        return self.compact(width)

    def compact(self, width: int | None = None, title: bool = True) -> str:
        """The table a user reads first, within ``width`` columns: rank, bot, the chosen
        rating ±95% (``BT ±95%``),
        games, W/D/L, win % [95%], average rank (3+ players) or mean score (one player),
        forfeits and p99 response time; a footnote names the forfeits' kinds when they
        do not fit, and the Elo line of the pair when there are two bots."""
        width = width or terminal_width()
        parts: list[str] = []
        if title:
            parts += textwrap.wrap(self.title, width) or [""]
            clock = self.clock
            if clock is not None and clock.noteworthy:
                for said in clock.describe().splitlines():
                    parts += textwrap.wrap(said, width, subsequent_indent="  ")
            parts.append("")
        cols = self._columns()
        keys = ["rank", "bot", "rating", "games", "wdl", "win"]
        keys += ["avg_rank"] if self.players > 2 else []
        keys += ["score"] if self.one_player else []
        keys += ["forfeits", "p99"]
        # Left out first when too narrow: games (W/D/L adds up to it), then p99 time...
        drops = {"games": 6, "p99": 5, "win": 4, "score": 3, "avg_rank": 3, "forfeits": 2}
        chosen = [Column(cols[k].header, cols[k].cells, drops.get(k, 0)) for k in keys]
        text, dropped = fit_table(chosen, width)
        notes: list[str] = []
        if kinds := self._forfeit_kinds():
            # The kinds inline (``2 (timeout 2)``) when that still fits, else a footnote.
            at = keys.index("forfeits")
            inline = [Column(c.header, c.cells, c.drop) for c in chosen]
            inline[at] = Column("forfeits", self._forfeit_cells(True), drops["forfeits"])
            text2, dropped2 = fit_table(inline, width)
            if dropped2 == dropped:
                text = text2
            elif "forfeits" not in dropped:
                notes += textwrap.wrap(
                    "forfeits: " + "; ".join(f"{bot} {kinds}" for bot, kinds in kinds.items()),
                    width,
                    subsequent_indent="  ",
                )
        parts.append(text)
        parts += notes
        if len(self.stats) == 2:
            a, b = (s.name for s in self.stats)
            if self.pairs.get((a, b)) and self.pairs[a, b].n:
                line = textwrap.wrap(self.pair_line(a, b), width, subsequent_indent="  ")
                parts += ["", *line]
        if self.sprt is not None:
            parts += ["", *textwrap.wrap(self.sprt_text(), width, subsequent_indent="  ")]
        if title:
            left = f" ({', '.join(dropped)} left out at {width} columns)" if dropped else ""
            hint = f"more columns, pairings and the win-rate matrix: --wide{left}"
            parts += ["", *textwrap.wrap(hint, width)]
        return "\n".join(parts)

    @property
    def one_player(self) -> bool:
        """Whether the games have one player each (bots compared by score per seed)."""
        return self.players == 1

    def pair_line(self, a: str, b: str) -> str:
        """``enemy vs greedy: 4 games 4/0/0, Elo > +7, LOS 84.6%, draws 0.0%,
        Ptnml(0-2) [0, 0, 0, 0, 2]``: a pair as cutechess and fastchess print a match."""
        pw = self.pairs.get((a, b), Pairwise())
        elo = pw.elo()
        los = "-" if elo.n == 0 else f"{100 * elo.los:.1f}%"
        text = (
            f"{a} vs {b}: {pw.n} games {pw.wins}/{pw.draws}/{pw.losses}, "
            f"Elo {_elo_text(elo)}, LOS {los}, draws {100 * pw.draw_rate:.1f}%"
        )
        if pw.ptnml.pairs:
            text += f", Ptnml(0-2) [{', '.join(str(c) for c in pw.ptnml.counts)}]"
            if pw.unpaired:
                text += f" + {pw.unpaired} unpaired game" + ("s" if pw.unpaired > 1 else "")
        return text

    def _full(self, fmt: str, width: int | None = None) -> str:
        """Every column, the pairings and the matrix (``--wide`` and markdown). As text,
        each table is folded into blocks of columns that fit ``width`` (default: the
        terminal's), the names repeated in each block (:func:`folded_table`)."""
        tablefmt = "github" if fmt == "markdown" else "simple"
        fit = (width or terminal_width()) if fmt == "table" else None

        def heading(text: str) -> str:
            if fmt != "table":
                return f"### {text}"
            import textwrap

            return textwrap.fill(f"{text}:", fit or 10**6, break_on_hyphens=False)

        def table(rows: Any, headers: Any) -> str:
            if fit is not None and rows:  # plain text: folded to the width
                names = list(rows[0]) if headers == "keys" else list(headers)
                cells = [list(r.values()) if isinstance(r, dict) else list(r) for r in rows]
                columns = [
                    Column(str(h), [str(row[i]) for row in cells]) for i, h in enumerate(names)
                ]
                return folded_table(columns, fit, keep=2 if headers == "keys" else 1)
            from tabulate import tabulate  # only here: `arena match` starts without it

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

    def _chosen(self, keys: Sequence[str]) -> str:
        """The table of the columns ``keys`` (``--columns``), in that order."""
        cols = self._columns()
        unknown = [k for k in keys if k not in cols]
        if unknown:
            known = ", ".join(cols)
            raise ConfigError(f"--columns: unknown column {unknown[0]!r} (known: {known})")
        text, _ = fit_table([cols[k] for k in keys], None)
        return "\n".join([self.title, "", text])

    def _columns(self) -> dict[str, Column]:
        """Every text column by key (what ``--columns`` names), cells in row order."""
        table = self._table_rows()
        out = {
            "rank": Column("#", [r["#"] for r in table]),
            "bot": Column("bot", [r["bot"] for r in table]),
        }
        chosen = ratings.get(self.rating)
        out["rating"] = Column(
            chosen.headline_header(),
            [self._rated(s, chosen.name).cells[chosen.headline] for s in self.stats],
        )
        for r in self.shown_ratings():
            for c in r.columns:
                out.setdefault(
                    c.key,
                    Column(c.header, [self._rated(s, r.name).cells[c.key] for s in self.stats]),
                )
        headers = {
            "games": "games",
            "wdl": "W/D/L",
            "win": "win % [95%]",
            "draws": "draws",
            "score": "score [95%]",
        }
        out.update({k: Column(h, [r[h] for r in table]) for k, h in headers.items()})
        out["score"].cells = [_score_text(score_interval(s.scores)) for s in self.stats]
        if self.multiplayer:
            out["avg_rank"] = Column("avg rank", [r["avg rank"] for r in table])
        out["forfeits"] = Column("forfeits", self._forfeit_cells(False))
        for reason in FORFEIT_KEYS:
            out[reason] = Column(reason, [str(r[reason]) for r in self.rows()])
        out["late"] = Column("late", [r["late"] for r in table])
        rows = self.rows()
        for key in ("p50", "p99", "max"):
            cells = ["-" if r[f"{key}_ms"] is None else _ms_text(r[f"{key}_ms"]) for r in rows]
            out[key] = Column(f"{key} ms", cells)
        return out

    def _forfeit_kinds(self) -> dict[str, str]:
        """``{bot: "timeout 2, crash 1"}`` for the bots that forfeited."""
        out = {}
        for s in self.stats:
            kinds = ", ".join(f"{k} {n}" for k, n in s.forfeits.items() if n)
            if kinds:
                out[s.name] = kinds
        return out

    def _forfeit_cells(self, kinds: bool) -> list[str]:
        """``2`` or, with ``kinds``, ``2 (timeout 2)``; ``-`` for a bot without games."""
        named = self._forfeit_kinds()
        cells = []
        for s in self.stats:
            total = sum(s.forfeits.values())
            if not s.games:
                cells.append("-")
            elif kinds and total:
                cells.append(f"{total} ({named[s.name]})")
            else:
                cells.append(str(total))
        return cells

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

    def table_rows(self) -> list[dict[str, str]]:
        """The wide table's rows as text, keyed by the column names the text and markdown
        tables print (``#``, ``bot``, ``BT ±95%``, ...): what the report shows."""
        return self._table_rows()

    def pairing_rows(self) -> list[dict[str, str]]:
        """The pairings table's rows as text, keyed by its printed column names."""
        return self._pairing_rows()

    def _table_rows(self) -> list[dict[str, str]]:
        table = []
        shown = self.shown_ratings()
        for s, r in zip(self.stats, self.rows(), strict=True):
            played = s.games > 0
            row = {"#": str(r["rank"]), "bot": r["bot"]}
            for rated_by in shown:
                cells = self._rated(s, rated_by.name).cells
                for c in rated_by.columns:
                    if c.key in rated_by.wide:
                        row[c.header] = cells[c.key]
            row |= {
                "games": str(r["games"]),
                "W/D/L": f"{r['wins']}/{r['draws']}/{r['losses']}",
                "win % [95%]": (
                    f"{r['win%']:.1f} [{r['win%_low']:.0f}-{r['win%_high']:.0f}]" if played else "-"
                ),
                "draws": f"{r['draw%']:.1f}%" if played else "-",
                "score [95%]": _score_text(score_interval(s.scores), wide=True),
            }
            for label in self.variants():
                v = score_interval(s.variant_scores.get(label, []))
                row[f"score {label}"] = _score_text(v, wide=True)
            if self.multiplayer:
                row["avg rank"] = "-" if r["avg_rank"] is None else f"{r['avg_rank']:.2f}"
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
            nelo = "-" if p["nelo"] is None else f"{_signed(p['nelo'])} ±{p['nelo_ci']:.1f}"
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


COLUMNS = (
    "rank", "bot", "rating", "bt", "elo", "los", "ts", "mu", "sigma", "mu-3sigma", "os",
    "os_mu-3sigma", "games", "wdl", "win", "draws", "score", "avg_rank", "forfeits",
    *REASONS, "late", "p50", "p99", "max",
)  # fmt: skip
"""The keys ``--columns`` accepts (``avg_rank`` only for games of three or more players);
``rating`` is the column of the rating the rows are sorted by."""


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
    if kept is not None:
        fitted = kept.fitted
        if fitted is None:  # fitted once for these games, kept for the next reads
            fitted = rating.fit(kept.counts)
            store.keep_fitted(kept.fit_key, fitted)
        stats = rating.rate(kept.counts, kept.states, sort_by, fitted)
        pairs, played = kept.counts.pairs, kept.games
        timing = {
            s.name: Timing.of_bins(kept.times.get(s.name, ()), kept.late.get(s.name, 0))
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
