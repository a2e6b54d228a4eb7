"""The leaderboard as people and programs read it: a text table fitted to the terminal,
markdown, JSON or CSV, and the rows of text the report and the web pages show.

:class:`ShownLeaderboard` wraps the numbers of :class:`arena.results.leaderboard.Leaderboard`
(its :meth:`~arena.results.leaderboard.Leaderboard.rows` and pairings are the one source
of every figure) and formats them: the compact table by default, fitted to the
terminal's width (:mod:`arena.views.tables`); ``wide`` or ``columns`` show more. Every
column is explained in docs/leaderboard.md.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.errors import ConfigError
from arena.results import ratings
from arena.results.leaderboard import (
    Leaderboard,
    leaderboard_for,
    leaderboard_from_store,
    rated,
)
from arena.results.rating import REASONS, Pairwise, pairs_where
from arena.results.ratings.elo import elo_text, signed
from arena.results.stats import ScoreInterval, score_interval
from arena.views.tables import Column, fit_table, folded_table, terminal_width

if TYPE_CHECKING:
    from arena.results.store import Store

FORFEIT_KEYS = REASONS


def score_text(interval: ScoreInterval, wide: bool = False) -> str:
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


DRAWN_BOTS = 25
"""Most bots the pages draw pairwise (the win-rate matrix, the head-to-head tables of the
report and of ``arena serve``'s leaderboard): beyond, the best-ranked ones (every
pairing of a thousand bots is half a million rows; each bot's page has its own, and
``arena leaderboard --format csv`` every one)."""


@dataclass
class ShownLeaderboard(Leaderboard):
    """A tournament's leaderboard (its numbers: :class:`Leaderboard`), ready to print: what
    :func:`arena.run` returns as its ``leaderboard``, what ``arena leaderboard`` prints."""

    @classmethod
    def of(cls, board: Leaderboard) -> ShownLeaderboard:
        """``board``'s numbers, to print."""
        return cls(**{f.name: getattr(board, f.name) for f in dataclasses.fields(board)})

    def best(self, count: int = DRAWN_BOTS) -> ShownLeaderboard:
        """The board of its ``count`` best-ranked bots and their pairings among them:
        what the pages draw pairwise (the whole board when it holds no more)."""
        if len(self.stats) <= count:
            return self
        names = {s.name for s in self.stats[:count]}
        pairs = pairs_where(self.pairs, lambda a, b: a in names and b in names)
        return dataclasses.replace(self, stats=self.stats[:count], pairs=pairs)

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

    def shown_ratings(self) -> list[ratings.Rating]:
        """Every rating, the one the rows are sorted by first."""
        chosen = ratings.get(self.rating)
        return [chosen, *(r for r in ratings.everyone() if r is not chosen)]

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
        :func:`arena.views.tables.terminal_width`); ``wide`` shows every column, the
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

    def pair_line(self, a: str, b: str) -> str:
        """``enemy vs greedy: 4 games 4/0/0, Elo > +7, LOS 84.6%, draws 0.0%,
        Ptnml(0-2) [0, 0, 0, 0, 2]``: a pair as cutechess and fastchess print a match."""
        pw = self.pairs.get((a, b), Pairwise())
        elo = pw.elo()
        los = "-" if elo.n == 0 else f"{100 * elo.los:.1f}%"
        text = (
            f"{a} vs {b}: {pw.n} games {pw.wins}/{pw.draws}/{pw.losses}, "
            f"Elo {elo_text(elo)}, LOS {los}, draws {100 * pw.draw_rate:.1f}%"
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
            [rated(s, chosen.name).cells[chosen.headline] for s in self.stats],
        )
        for r in self.shown_ratings():
            for c in r.columns:
                out.setdefault(
                    c.key,
                    Column(c.header, [rated(s, r.name).cells[c.key] for s in self.stats]),
                )
        headers = {
            "games": "games",
            "wdl": "W/D/L",
            "win": "win % [95%]",
            "draws": "draws",
            "score": "score [95%]",
        }
        out.update({k: Column(h, [r[h] for r in table]) for k, h in headers.items()})
        out["score"].cells = [score_text(score_interval(s.scores)) for s in self.stats]
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
                cells = rated(s, rated_by.name).cells
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
                "score [95%]": score_text(score_interval(s.scores), wide=True),
            }
            for label in self.variants():
                v = score_interval(s.variant_scores.get(label, []))
                row[f"score {label}"] = score_text(v, wide=True)
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
            nelo = "-" if p["nelo"] is None else f"{signed(p['nelo'])} ±{p['nelo_ci']:.1f}"
            rows.append(
                {
                    "bot": a,
                    "opponent": b,
                    "games": str(p["games"]),
                    "W/D/L": f"{p['wins']}/{p['draws']}/{p['losses']}",
                    "score % [95%]": _rate_text(p["rate"], (p["rate_low"], p["rate_high"])),
                    "Elo ±95%": elo_text(pw.elo()),
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


def shown_leaderboard(
    store: Store, rating_name: str | None = None, every_game: bool = False
) -> ShownLeaderboard:
    """The leaderboard of ``store`` to print
    (:func:`arena.results.leaderboard.leaderboard_from_store`)."""
    return ShownLeaderboard.of(leaderboard_from_store(store, rating_name, every_game))


def shown_leaderboard_for(
    output: Path, rating_name: str | None = None, every_game: bool = False
) -> ShownLeaderboard:
    """The leaderboard of an existing output folder to print
    (:func:`arena.results.leaderboard.leaderboard_for`)."""
    return ShownLeaderboard.of(leaderboard_for(output, rating_name, every_game))
