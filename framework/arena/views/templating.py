"""The Jinja2 templates of the report and of ``arena serve``'s pages (one home for both).

``views/templates/tables.html`` holds what both show: the leaderboard's tables, the
win-rate matrix, a games table and a bot's results against each opponent; the report
(``report.html``) and the web app's pages (``arena/web/templates``, which also read these)
are made from them. Where a page can link, its environment says how: ``bot_href``,
``game_href`` and ``h2h_href`` (``None`` in the report, which has no server: names stay
text and games link to their viewer files). Autoescape is on: whatever a bot or a file
put in the store reaches the page as text.

jinja2 is imported when a page is made, not with this module (``arena run`` imports the
views without writing a page).
"""

from __future__ import annotations

import importlib.resources
import json
import math
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.records import StoredGame
from arena.results import rating
from arena.views.listing import result_text, seat_result

if TYPE_CHECKING:
    import jinja2
    from markupsafe import Markup

LONG_HEADER = 16
"""A table header longer than this may break after its slashes."""


def cell_text(value: Any) -> str:
    """A table cell's text: lists joined by spaces, floats as ``%g`` (never ``-0``)."""
    if isinstance(value, list | tuple):
        return " ".join(str(v) for v in value)
    return f"{value + 0.0:g}" if isinstance(value, float) else str(value)


def columns(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every key of every row, in order of first appearance."""
    out: list[str] = []
    for row in rows:
        out += [k for k in row if k not in out]
    return out


def text_columns(rows: Sequence[Mapping[str, Any]], left: Sequence[str] | None) -> set[str]:
    """The columns aligned left: ``left``, or those with text in any row."""
    if left is not None:
        return set(left)
    return {c for c in columns(rows) if any(isinstance(r.get(c), str) for r in rows)}


def breakable(header: str) -> Markup:
    """A long header that may break after its slashes (escaped)."""
    from markupsafe import Markup, escape

    return Markup(str(escape(header)).replace("/", "/<wbr>"))


def heat(rate: float) -> str:
    """Red (0) through pale yellow (0.5) to green (1)."""
    return f"hsl({round(rate * 120)}, 65%, {88 - 18 * abs(rate - 0.5):.0f}%)"


def matrix_cells(board: Any) -> list[tuple[str, list[dict[str, Any] | None]]]:
    """The win-rate matrix, row by row: each cell (``None`` on the diagonal and for pairs
    that never met) with its rate, interval, encounters and hover title."""
    names = [s.name for s in board.stats]
    rows = []
    for a in names:
        cells: list[dict[str, Any] | None] = []
        for b in names:
            pw = board.pairs.get((a, b))
            if a == b or pw is None or pw.n == 0:
                cells.append(None)
                continue
            low, high = pw.interval()
            elo = pw.elo()
            title = f"{a} vs {b}: {pw.wins} wins, {pw.draws} draws, {pw.losses} losses"
            if math.isfinite(elo.elo) and math.isfinite(elo.elo_error):
                title += f"; Elo {round(elo.elo) + 0:+d} ±{elo.elo_error:.0f}"
            cells.append(
                {
                    "opponent": b,
                    "rate": pw.rate,
                    "low": low,
                    "high": high,
                    "n": pw.n,
                    "title": title,
                }
            )
        rows.append((a, cells))
    return rows


def game_rows(games: Sequence[StoredGame], variant_keys: Sequence[str]) -> list[dict[str, Any]]:
    """What a games table shows of each game (the report's script filters on
    ``results`` and ``forfeits``, as ``arena list`` does)."""
    return [
        {
            "game": g,
            "round": g.round + 1,
            "variant": rating.variant_label(g.settings, variant_keys) if variant_keys else "",
            "result": result_text(g.seats),
            "results": json.dumps(
                [[s.bot, seat_result(g.seats, i)] for i, s in enumerate(g.seats)]
            ),
            "forfeits": json.dumps([s.bot for s in g.seats if s.forfeit]),
            "scores": " : ".join(f"{s.score + 0.0:g}" for s in g.seats),
        }
        for g in games
    ]


def template_folder() -> Path:
    """The shared templates' folder."""
    return Path(str(importlib.resources.files("arena.views") / "templates"))


def environment(
    *first: Path,
    bot_href: Callable[[str], str] | None = None,
    game_href: Callable[[StoredGame], str | None] | None = None,
    h2h_href: Callable[[str, str], str] | None = None,
) -> jinja2.Environment:
    """The templates of ``first`` (folders read before the shared one), escaped by
    default, with the links a page can make (``None``: that page cannot)."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([*first, template_folder()]),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters.update(
        cell=cell_text,
        heat=heat,
        breakable=breakable,
        ms=lambda v: "-" if v is None else f"{v:.1f}",
    )
    env.globals.update(
        bot_href=bot_href,
        game_href=game_href,
        h2h_href=h2h_href,
        columns=columns,
        text_columns=text_columns,
        matrix_cells=matrix_cells,
        game_rows=game_rows,
        result_text=result_text,
        LONG_HEADER=LONG_HEADER,
    )
    return env
