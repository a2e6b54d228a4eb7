"""The tournament report: one self-contained HTML page for an output folder.

It shows the leaderboard (every column of the ``--wide`` table, under the names the text
and markdown tables print: :meth:`ShownLeaderboard.table_rows`), the win-rate matrix
as a heatmap with its intervals, each bot's rating over the games played, response times
against the budget, forfeits by reason, and the newest :data:`SHOWN_GAMES` games
(filterable by bot and result), each linking to its viewer (``games/<slug>/viewer.html``,
written alongside when missing or stale): what the page costs follows what it shows, not
the games stored (every game is ``arena list``'s and ``arena serve``'s). Tables and
charts are plain HTML and SVG; a few lines of script filter the games list.
"""

from __future__ import annotations

import html
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.errors import ArenaError
from arena.plugins.registry import Registry, load_registry
from arena.records import Replay, split_detail
from arena.results.queries import GameFilter
from arena.results.stats import percentile
from arena.results.store import GamesPage, StoredGame, left_out_note, open_existing
from arena.views import templating
from arena.views.leaderboard import ShownLeaderboard, shown_leaderboard
from arena.views.replay import load_replay
from arena.views.viewer import (
    VIEWER_NAME,
    script_safe,
    static_text,
    viewer_html,
    viewer_stamp,
)

REPORT_NAME = "report.html"
LIVE_REFRESH_S = 5
"""How often a report written during a run reloads itself in the browser (seconds)."""
PALETTE = (
    "#e4572e", "#2f6fde", "#1f9d55", "#b83fd0", "#d97706",
    "#0891b2", "#be123c", "#4d7c0f", "#7c3aed", "#64748b",
)  # fmt: skip
SHOWN_GAMES = 200
"""The newest games the report lists (with their viewers and answer times); the others
are in ``arena list`` and ``arena serve``, their viewers written by ``arena view``."""
MAX_POINTS = 400
"""Points per line in the rating chart (long tournaments are sampled evenly)."""


@dataclass
class TurnTimes:
    """One bot's answer times: milliseconds and the fraction of each turn's budget used."""

    ms: list[float] = field(default_factory=list)
    used: list[float] = field(default_factory=list)


@dataclass
class ReportResult:
    """What :func:`write_report` wrote, and the games whose viewer could not be made."""

    path: Path
    viewers: int
    problems: list[str]
    left_out: int = 0  # stored games not shown: the file no longer defines them


def esc(value: Any) -> str:
    """HTML-escaped text of any value."""
    return html.escape(str(value))


def _fresh(viewer: Path, replay: Path, stamp: str) -> bool:
    try:
        if viewer.stat().st_mtime < replay.stat().st_mtime:
            return False
        with viewer.open("rb") as f:
            return f'content="{stamp}"'.encode() in f.read(2048)
    except OSError:
        return False


def collect_times(replay: Replay, times: dict[str, TurnTimes]) -> None:
    """Add every answer time of a replay to its bot's :class:`TurnTimes`."""
    players = replay["players"]
    for step in replay["steps"]:
        for seat, io in step.get("io", {}).items():
            t = times.setdefault(players[int(seat)], TurnTimes())
            t.ms.append(float(io.get("ms", 0.0)))
            if io.get("budget_ms"):
                t.used.append(float(io["ms"]) / float(io["budget_ms"]))


def write_report(
    output: Path,
    out: Path | None = None,
    registry: Registry | None = None,
    log: Callable[[str], None] | None = None,
    live: bool = False,
    rating: str | None = None,
    every_game: bool = False,
) -> ReportResult:
    """Write the report of ``output`` (default ``output/report.html``) and every game's
    viewer that is missing or stale. A game whose replay cannot be read keeps its row in
    the list, without a link; the reason is returned in ``problems``.

    The file is replaced atomically (written aside, then renamed), so a browser never
    reads half of it; ``live`` (while a run goes on) makes the page reload itself every
    few seconds; ``rating`` sorts the leaderboard (default: the tournament's). Stored
    games the tournament file no longer defines are left out (and counted on the page)
    unless ``every_game``."""
    target = out or output / REPORT_NAME
    store = open_existing(output)
    try:
        board = shown_leaderboard(store, rating, every_game)
        meta = store.meta()
        # kept as games were stored (bounded): the chart reads no game
        history = store.rating_history(current_only=not every_game)
        newest = store.games_page(order="newest", limit=SHOWN_GAMES)
        forfeits = store.games_page(GameFilter(result="forfeit"), "newest", SHOWN_GAMES)
        forfeit_counts = store.forfeit_counts()
        left_out = 0 if every_game else store.left_out()
        commands = store.bot_commands()
    finally:
        store.close()
    registry = registry or load_registry()
    links: dict[int, str] = {}
    times: dict[str, TurnTimes] = {}
    problems: list[str] = []
    written = 0
    stamps: dict[str, str] = {}
    timed = {g.id for g in newest.games}
    # Viewers and times of the games the page shows only: its cost follows the page.
    for g in {g.id: g for g in [*newest.games, *forfeits.games]}.values():
        replay_path = output / g.dir / "replay.json"
        try:
            game = registry.create(g.game)
            stamp = stamps.setdefault(g.game, viewer_stamp(game))
            replay = load_replay(replay_path)
            if g.id in timed:
                collect_times(replay, times)
            viewer = replay_path.with_name(VIEWER_NAME)
            if not _fresh(viewer, replay_path, stamp):
                page = viewer_html(game, replay, f"game {g.id} · {g.dir}")
                viewer.write_text(page, encoding="utf-8")
                written += 1
            links[g.id] = os.path.relpath(viewer, target.parent)
        except (ArenaError, OSError, ValueError, KeyError, TypeError) as exc:
            problems.append(f"game {g.id} ({g.dir}): {exc}")
            if log:
                log(f"arena: no viewer for game {g.id}: {exc}")
    page = _page(
        board,
        history,
        times,
        newest,
        forfeits,
        forfeit_counts,
        links,
        meta,
        commands,
        output,
        left_out,
        live,
    )
    aside = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    aside.write_text(page, encoding="utf-8")
    os.replace(aside, target)
    return ReportResult(target, written, problems, left_out)


# -- the page ------------------------------------------------------------------------


def _page(
    board: ShownLeaderboard,
    history: dict[str, list[tuple[int, float]]],
    times: dict[str, TurnTimes],
    newest: GamesPage,
    forfeits: GamesPage,
    forfeit_counts: Mapping[str, Mapping[str, int]],
    links: Mapping[int, str],
    meta: Mapping[str, Any],
    commands: Mapping[str, str],
    output: Path,
    left_out: int,
    live: bool,
) -> str:
    """The report's HTML: the shared templates (:mod:`arena.views.templating`) with the
    charts, styles and script inline (the page loads nothing from elsewhere)."""
    from markupsafe import Markup

    env = templating.environment(game_href=lambda g: links.get(g.id))
    games = sorted(newest.games, key=lambda g: g.id)  # in the order played
    drawn = board.best()  # (the pairwise tables of a thousand bots: their best)
    by_bot: dict[str, list[dict[str, Any]]] = {s.name: [] for s in drawn.stats}
    for p in drawn.pairings():
        by_bot[p["bot"]].append(p)
    subtitle = (
        f"{meta.get('game', '?')} · {newest.total} games · seed {meta.get('seed', '?')} · "
        f"written {time.strftime('%Y-%m-%d %H:%M')}"
    )
    return env.get_template("report.html").render(
        title=board.title,
        subtitle=subtitle,
        style=Markup(static_text("common.css") + static_text("report.css")),
        script=Markup(script_safe(static_text("report.js"))),
        refresh_s=LIVE_REFRESH_S if live else None,
        left_out=left_out_note(left_out),
        board=board,
        drawn=drawn,
        drawn_note=_drawn_note(board, drawn, output),
        ratings=Markup(_rating_section(history)),
        times=Markup(_times_section(times, board, len(newest.games), newest.total)),
        forfeits=Markup(_forfeits_section(forfeits, forfeit_counts, links)),
        games=games,
        shown=len(games),
        total=newest.total,
        game_bots=sorted({s.bot for g in games for s in g.seats}),
        variant_keys=list(meta.get("variant_keys", [])),
        output=str(output),
        bots=[
            {
                "name": s.name,
                "games": s.games,
                "command": commands.get(s.name, ""),
                "pairings": by_bot.get(s.name),  # (None: not drawn, see drawn_note)
            }
            for s in board.stats
        ],
    )


def _drawn_note(board: ShownLeaderboard, drawn: ShownLeaderboard, output: Path) -> str:
    """What the pairwise tables leave out of a board of many bots ("" when nothing)."""
    if len(drawn.stats) == len(board.stats):
        return ""
    return (
        f"The {len(drawn.stats)} best-ranked of the {len(board.stats)} bots, and their "
        f"pairings among them: every pairing is in arena leaderboard {output} --format csv, "
        "and each bot's on its page of arena serve."
    )


# -- the charts and the forfeits --------------------------------------------------------


def _sample(points: list[tuple[int, float]]) -> list[tuple[int, float]]:
    if len(points) <= MAX_POINTS:
        return points
    step = len(points) / MAX_POINTS
    return [points[int(i * step)] for i in range(MAX_POINTS)] + [points[-1]]


def _rating_section(history: dict[str, list[tuple[int, float]]]) -> str:
    if not history or all(len(p) < 2 for p in history.values()):
        return ""
    width, height, left, bottom, top = 760, 280, 46, 26, 10
    xmax = max(1, max(p[-1][0] for p in history.values()))
    values = [mu for p in history.values() for _, mu in p]
    lo, hi = min(values), max(values)
    if hi - lo < 1e-9:
        lo, hi = lo - 1, hi + 1
    sx = (width - left - 10) / xmax
    sy = (height - top - bottom) / (hi - lo)

    def xy(i: int, mu: float) -> str:
        return f"{left + i * sx:.1f},{height - bottom - (mu - lo) * sy:.1f}"

    parts = [f'<svg width="{width}" height="{height}" viewBox="0 0 {width} {height}">']
    for k in range(5):
        mu = lo + (hi - lo) * k / 4
        y = height - bottom - (mu - lo) * sy
        parts.append(
            f'<line x1="{left}" y1="{y:.1f}" x2="{width - 10}" y2="{y:.1f}" stroke="#e5e7eb"/>'
            f'<text x="{left - 4}" y="{y + 4:.1f}" font-size="11" text-anchor="end">{mu:.1f}</text>'
        )
    parts.append(
        f'<text x="{width - 10}" y="{height - 6}" font-size="11" text-anchor="end">'
        f"rating events ({xmax})</text>"
    )
    legend = []
    for i, (bot, points) in enumerate(sorted(history.items(), key=lambda kv: -kv[1][-1][1])):
        color = PALETTE[i % len(PALETTE)]
        # A bot keeps its rating until its next event: the line runs to the last one.
        line = " ".join(xy(x, mu) for x, mu in [*_sample(points), (xmax, points[-1][1])])
        parts.append(
            f'<polyline data-bot="{esc(bot)}" points="{line}" fill="none" stroke="{color}" '
            'stroke-width="2"/>'
        )
        legend.append(
            f'<span><span class="chip" style="background:{color}"></span>{esc(bot)} '
            f"({points[-1][1]:.1f})</span>"
        )
    parts.append("</svg>")
    return (
        '<section id="ratings"><h2>TrueSkill mu over the games played</h2>'
        f'<div class="legend">{" ".join(legend)}</div>{"".join(parts)}</section>'
    )


def _times_section(
    times: dict[str, TurnTimes], board: ShownLeaderboard, timed: int = 0, total: int = 0
) -> str:
    """Each bot's answer times (over the newest ``timed`` of ``total`` games, when fewer)."""
    order = [s.name for s in board.stats if s.name in times] + sorted(
        set(times) - {s.name for s in board.stats}
    )
    if not order:
        return ""
    scale = max(1.0, max((max(times[b].used, default=0.0) for b in order), default=1.0))
    width, row_h, left = 520, 24, 10
    rows = []
    for i, bot in enumerate(order):
        t = times[bot]
        used = t.used
        # The leaderboard's percentiles (nearest rank), so one report shows one median.
        by_use, by_ms = sorted(used) or [0.0], sorted(t.ms) or [0.0]
        p50, p90, p99, top = (percentile(by_use, q) for q in (0.5, 0.9, 0.99, 1.0))

        def x(frac: float) -> float:
            return left + frac / scale * (width - 2 * left)

        color = PALETTE[i % len(PALETTE)]
        svg = (
            f'<svg width="{width}" height="{row_h}" viewBox="0 0 {width} {row_h}">'
            f'<line x1="{x(0)}" y1="12" x2="{x(scale):.1f}" y2="12" stroke="#e5e7eb"/>'
            f'<line x1="{x(p50):.1f}" y1="12" x2="{x(p99):.1f}" y2="12" stroke="{color}"/>'
            f'<rect x="{x(p50):.1f}" y="5" width="{max(1.0, x(p90) - x(p50)):.1f}" height="14" '
            f'fill="{color}" opacity=".7"/>'
            f'<circle cx="{x(top):.1f}" cy="12" r="4" fill="none" stroke="{color}" '
            'stroke-width="2"/>'
            f'<line x1="{x(1.0):.1f}" y1="1" x2="{x(1.0):.1f}" y2="23" stroke="#c62828" '
            'stroke-width="2"/></svg>'
        )
        slow = sum(1 for u in used if u > 0.5)
        rows.append(
            f'<tr><td class="l">{esc(bot)}</td><td>{len(t.ms)}</td>'
            f"<td>{percentile(by_ms, 0.5):.1f}</td><td>{percentile(by_ms, 0.9):.1f}</td>"
            f"<td>{percentile(by_ms, 0.99):.1f}</td><td>{by_ms[-1]:.1f}</td>"
            f"<td>{100 * top:.0f}%</td><td>{slow}</td><td>{svg}</td></tr>"
        )
    return (
        '<section id="times"><h2>Response times against the budget</h2>'
        + (
            f'<p class="muted">Over the newest {timed} of the {total} games.</p>'
            if timed < total
            else ""
        )
        + "<p class=\"muted\">Each answer's time as a share of that turn's budget: bar from the "
        "median to the 90th percentile, line to the 99th, circle at the slowest; the red line "
        'is the budget.</p><div class="scroll"><table><tr>'
        '<th class="l">bot</th><th>answers</th><th>p50 ms</th><th>p90 ms</th><th>p99 ms</th>'
        "<th>max ms</th><th>max % budget</th><th>&gt;50% budget</th>"
        f'<th class="l">share of budget (0 - {100 * scale:.0f}%)</th></tr>'
        f"{''.join(rows)}</table></div></section>"
    )


def _forfeits_section(
    page: GamesPage, counts: Mapping[str, Mapping[str, int]], links: Mapping[int, str]
) -> str:
    """Forfeits by bot and reason (every stored game counted) and the newest games with a
    forfeit, each forfeit with its detail."""
    items = []
    for g in page.games:
        for s in g.seats:
            if not s.forfeit:
                continue
            link = _link(links, g, "last")
            summary, tail = split_detail(s.detail)
            stderr = f"<pre>{esc(chr(10).join(tail))}</pre>" if tail else ""
            items.append(
                f'<tr><td>{link}</td><td class="l">{esc(s.bot)}</td><td class="l">'
                f'{esc(s.forfeit)}</td><td class="l wrap">{esc(summary)}{stderr}</td></tr>'
            )
    if not items:
        return '<section id="forfeits"><h2>Forfeits</h2><p>None.</p></section>'
    reasons = sorted({r for c in counts.values() for r in c})
    head = '<th class="l">bot</th>' + "".join(f"<th>{esc(r)}</th>" for r in reasons)
    body = "".join(
        f'<tr><td class="l">{esc(bot)}</td>'
        + "".join(f"<td>{c.get(r, 0)}</td>" for r in reasons)
        + "</tr>"
        for bot, c in sorted(counts.items())
    )
    every = "every forfeit"
    if len(page.games) < page.matching:
        every = f"the forfeits of the newest {len(page.games)} of {page.matching} such games"
    return (
        '<section id="forfeits"><h2>Forfeits by reason</h2>'
        f'<div class="scroll"><table><tr>{head}</tr>{body}</table></div>'
        f'<details><summary>{every}</summary><div class="scroll"><table><tr><th>game</th>'
        '<th class="l">bot</th><th class="l">reason</th><th class="l">detail</th></tr>'
        f"{''.join(items)}</table></div></details></section>"
    )


def _link(links: Mapping[int, str], g: StoredGame, step: str = "") -> str:
    href = links.get(g.id)
    if href is None:
        return f'<span class="muted" title="no viewer">{g.id}</span>'
    anchor = "#step=999999" if step == "last" else ""
    return f'<a class="game-link" href="{esc(href)}{anchor}">{g.id}</a>'
