"""Leaderboard and pairwise win-rate matrix, as text tables, markdown, JSON or CSV."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from typing import Any

from tabulate import tabulate

from arena.rating import BotStats, Pairwise, mean_interval

FORMATS = ("table", "markdown", "json", "csv")


@dataclass
class Leaderboard:
    """Ratings and tallies of a tournament, ready to print."""

    title: str
    stats: list[BotStats]
    pairs: dict[tuple[str, str], Pairwise]
    multiplayer: bool = False

    def rows(self) -> list[dict[str, Any]]:
        """One dict per bot, best first (the JSON and CSV form)."""
        rows = []
        for i, s in enumerate(self.stats, start=1):
            mean, half = mean_interval(s.scores)
            row: dict[str, Any] = {
                "rank": i,
                "bot": s.name,
                "mu": round(s.mu, 2),
                "sigma": round(s.sigma, 2),
                "mu-3sigma": round(s.conservative, 2),
                "games": s.games,
                "wins": s.wins,
                "draws": s.draws,
                "losses": s.losses,
                "win%": round(100 * s.win_rate, 1),
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
            rows.append(row)
        return rows

    def variants(self) -> list[str]:
        """Labels of the settings variants played (``layout=1``...), empty when only one."""
        labels = sorted({label for s in self.stats for label in s.variant_scores if label})
        return labels

    def matrix(self) -> list[list[str]]:
        """Win-rate matrix rows: row bot's score rate against column bot, ± 95% margin."""
        names = [s.name for s in self.stats]
        out = []
        for a in names:
            row = [a]
            for b in names:
                pw = self.pairs.get((a, b))
                if a == b or pw is None or pw.n == 0:
                    row.append("-")
                else:
                    row.append(f"{100 * pw.rate:.0f}±{100 * pw.margin:.0f}% ({pw.n})")
            out.append(row)
        return out

    def render(self, fmt: str = "table") -> str:
        """The leaderboard and matrix in ``fmt``: table, markdown, json or csv."""
        if fmt == "json":
            return json.dumps(
                {"title": self.title, "leaderboard": self.rows(), "pairwise": self._pair_dict()},
                indent=2,
            )
        if fmt == "csv":
            buf = io.StringIO()
            rows = self.rows()
            if rows:
                writer = csv.DictWriter(buf, fieldnames=list(rows[0]))
                writer.writeheader()
                writer.writerows(rows)
            return buf.getvalue()
        tablefmt = "github" if fmt == "markdown" else "simple"
        return "\n".join(
            [
                f"{self.title}" if fmt == "table" else f"## {self.title}",
                "",
                tabulate(
                    self._table_rows(), headers="keys", tablefmt=tablefmt, disable_numparse=True
                ),
                "",
                "Win rate of row against column (draws half), ±95%, (games):"
                if fmt == "table"
                else "### Win rate of row against column (draws half), ±95%, (games)",
                "",
                tabulate(
                    self.matrix(),
                    headers=["", *[s.name for s in self.stats]],
                    tablefmt=tablefmt,
                    disable_numparse=True,
                ),
            ]
        )

    def _table_rows(self) -> list[dict[str, str]]:
        table = []
        for r in self.rows():
            row = {
                "#": str(r["rank"]),
                "bot": r["bot"],
                "mu": f"{r['mu']:.2f}",
                "sigma": f"{r['sigma']:.2f}",
                "mu-3σ": f"{r['mu-3sigma']:.2f}",
                "games": str(r["games"]),
                "W/D/L": f"{r['wins']}/{r['draws']}/{r['losses']}",
                "win %": f"{r['win%']:.1f}",
                "score": f"{r['score']:.1f} ±{r['score±']:.1f}",
            }
            for label in self.variants():
                row[f"score {label}"] = f"{r[f'score {label}']:.1f} ±{r[f'score± {label}']:.1f}"
            if self.multiplayer:
                row["avg rank"] = f"{r['avg_rank']:.2f}"
            row["timeout/crash/invalid/illegal"] = "/".join(
                str(r[k]) for k in ("timeout", "crash", "invalid", "illegal")
            )
            table.append(row)
        return table

    def _pair_dict(self) -> list[dict[str, Any]]:
        return [
            {
                "bot": a,
                "opponent": b,
                "wins": p.wins,
                "draws": p.draws,
                "losses": p.losses,
                "rate": round(p.rate, 4),
                "margin95": round(p.margin, 4),
            }
            for (a, b), p in sorted(self.pairs.items())
        ]
