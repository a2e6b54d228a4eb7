"""Stored games in the terminal: ``arena list`` (the games table) and ``arena show`` (one game,
turn by turn: each bot's answer, message, time against its budget and stderr, and the board).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.errors import ConfigError
from arena.game import Game
from arena.records import Replay, ReplayStep, SeatRecord, first_places, result_of, split_detail
from arena.results.queries import GameFilter
from arena.results.rating import variant_label
from arena.results.store import left_out_note, open_existing
from arena.text import shown_line
from arena.views.replay import step_views, text_pictures
from arena.views.tables import Column, fit_table


def seat_result(seats: Sequence[SeatRecord], seat: int) -> str:
    """``win``, ``draw``, ``loss`` or ``-`` of one seat (:func:`arena.records.result_of`)."""
    return result_of([s.rank for s in seats], seat)


def result_text(seats: Sequence[SeatRecord]) -> str:
    """``enemy wins``, ``draw: a, b`` or, for one player, its score."""
    if len(seats) == 1:
        return f"score {seats[0].score:g}"
    first = [seats[i].bot for i in first_places([s.rank for s in seats])]
    return f"{first[0]} wins" if len(first) == 1 else "draw: " + ", ".join(first)


PAGE_SIZE = 100
"""Games ``arena list`` shows at once, unless ``--limit`` says otherwise."""


@dataclass(frozen=True)
class Listing:
    """What ``arena list`` asks: the filter, the order and the page (1 is the first;
    ``limit`` 0 shows every game passing); ``every_game`` stored (``--all``), or only those
    the tournament file defined at its last run."""

    filter: GameFilter = field(default_factory=GameFilter)
    order: str = "schedule"
    page: int = 1
    limit: int = PAGE_SIZE
    every_game: bool = False


def list_games(output: Path, listing: Listing | None = None, width: int | None = None) -> str:
    """The table of ``arena list``: one page of the stored games passing the filter,
    within ``width`` columns (``None``: unlimited): the seed and the round are left out
    first, then the long cells (seats, result, reason, forfeits) wrap. Filters, order and
    page are the store's query (:meth:`~arena.results.store.Store.games_page`). The last
    line says how many stored games the tournament file no longer defines, if any."""
    listing = listing or Listing()
    flt = listing.filter
    limit = listing.limit or None
    store = open_existing(output)
    try:
        meta = store.meta()
        for option, bot in (("--bot", flt.bot), ("--opponent", flt.opponent)):
            if bot is not None and bot not in meta.get("bots", []) and not store.has_bot(bot):
                known = sorted(set(meta.get("bots", [])) | set(store.stored_bots()))
                raise ConfigError(
                    f"{option} {bot!r}: no such bot in {output} (bots: {', '.join(known)})"
                )
        offset = (listing.page - 1) * (limit or 0)
        page = store.games_page(flt, listing.order, limit, offset, not listing.every_game)
        left_out = 0 if listing.every_game else store.left_out()
        variant_keys = list(meta.get("variant_keys", []))
    finally:
        store.close()
    rows = []
    for g in page.games:
        forfeits = ", ".join(f"{s.bot} {s.forfeit}" for s in g.seats if s.forfeit)
        variant = [variant_label(g.settings, variant_keys)] if variant_keys else []
        rows.append(
            [
                g.id,
                g.round + 1,
                g.seed,
                *variant,
                " vs ".join(s.bot for s in g.seats),
                result_text(g.seats),
                " : ".join(f"{s.score:g}" for s in g.seats),
                g.reason,
                g.turns,
                forfeits or "-",
            ]
        )
    headers = ["game", "round", "seed", *(["settings"] if variant_keys else [])]
    headers += ["seats", "result", "scores", "reason", "turns", "forfeit"]
    shown = f"{page.matching} of {page.total} games"
    if len(rows) < page.matching:
        first = offset + 1 if rows else 0
        shown += f", {first}-{offset + len(rows)} shown"
        if offset + len(rows) < page.matching:
            shown += f" (--page {listing.page + 1} for the next {limit}, --limit 0 for all)"
    drops = {"seed": 3, "round": 2}
    # Wrapped down to these widths (seats: a 20-character name and "vs" on a line).
    narrowest = {"settings": 10, "seats": 23, "result": 10, "scores": 10, "reason": 12}
    narrowest["forfeit"] = 9
    columns = [
        Column(h, [str(r[i]) for r in rows], drops.get(h, 0), h in narrowest, narrowest.get(h, 0))
        for i, h in enumerate(headers)
    ]
    text, dropped = fit_table(columns, width, wrap_below=1)
    if dropped:
        shown += f" ({', '.join(dropped)} left out to fit: --wide shows them)"
    note = left_out_note(left_out)
    return text + f"\n\n{shown}" + (f"\n{note}" if note else "")


def show_game(
    game: Game[Any], replay: Replay, step: int | None = None, inputs: bool = False
) -> Iterator[str]:
    """The lines of ``arena show``: a header, then every step (or only ``step``, 0 = start)."""
    steps = replay["steps"]
    players = list(replay["players"])
    if step is not None and not 0 <= step <= len(steps):
        raise ConfigError(f"--step {step}: this game has steps 0 (the start) to {len(steps)}")
    seats = " vs ".join(f"{name} (seat {i})" for i, name in enumerate(players))
    yield f"{game.info.title} ({game.info.id}), seed {replay['seed']}: {seats}"
    outcome = replay.get("outcome")
    if outcome:
        ranks = outcome["ranks"]
        records = [SeatRecord(bot=p, rank=r) for p, r in zip(players, ranks, strict=True)]
        scores = " : ".join(f"{s:g}" for s in outcome["scores"])
        yield f"result: {result_text(records)} ({scores}), {outcome.get('reason', '')}"
    yield f"{len(steps)} steps"
    pictures = text_pictures(game, replay) or [
        json.dumps(view, separators=(",", ":")) for view in step_views(game, replay)
    ]
    wanted = range(len(steps) + 1) if step is None else [step]
    for index in wanted:
        yield ""
        if index == 0:
            yield "--- start"
        else:
            yield from _step_lines(index, steps[index - 1], players, inputs)
        if index < len(pictures) and pictures[index]:
            lines = pictures[index].rstrip("\n").splitlines()
            yield from ("    " + shown_line(line) for line in lines)


def _step_lines(
    index: int, step: ReplayStep, players: Sequence[str], inputs: bool
) -> Iterator[str]:
    turn = f" (turn {step['turn']})" if "turn" in step else ""
    yield f"--- step {index}{turn}"
    for key, io in step.get("io", {}).items():
        name = players[int(key)]
        budget = f" / {io['budget_ms']} ms" if io.get("budget_ms") else ""
        if io.get("late"):
            budget += " LATE"
        # What a bot wrote is shown escaped: no escape sequence of its reaches the terminal.
        answer = " | ".join(shown_line(x) for x in io.get("lines", [])) or "(no answer)"
        yield f"  seat {key} {name}: {io.get('ms', 0.0):.1f} ms{budget} > {answer}"
        message = step.get("messages", {}).get(key)
        if message:
            yield f"      message: {shown_line(str(message))}"
        if inputs:
            for line in io.get("input", "").rstrip("\n").splitlines():
                yield f"      input: {shown_line(line)}"
        for line in io.get("stderr", "").rstrip("\n").splitlines():
            yield f"      stderr: {shown_line(line)}"
    for key, forfeit in step.get("forfeits", {}).items():
        who = f"seat {key} {players[int(key)]}"
        seat_io = step.get("io", {}).get(key)
        printed = str(seat_io.get("stderr", "") if seat_io else "").rstrip("\n").splitlines()
        yield from forfeit_lines(who, forfeit["reason"], forfeit["detail"], printed)


def forfeit_lines(who: str, reason: str, detail: str, printed: Sequence[str] = ()) -> Iterator[str]:
    """``  seat 0 bot FORFEITS: crash: exited with code 1 ...``, then the end of the bot's
    stderr that the detail keeps (a crash's traceback), indented below it, unless those
    lines are the last ones of the stderr ``printed`` just above (shown once, not twice)."""
    summary, tail = split_detail(detail)
    yield f"  {who} FORFEITS: {reason}: {shown_line(summary)}"
    if tail and list(printed[-len(tail) :]) != list(tail):
        yield "    its stderr ends:"
        yield from (f"      {shown_line(line)}" for line in tail)
