"""Stored games in the terminal: ``arena list`` (the games table) and ``arena show`` (one game,
turn by turn: each bot's answer, message, time against its budget and stderr, and the board).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from arena.errors import ConfigError
from arena.game import Game
from arena.records import Replay, ReplayStep, SeatRecord, first_places, result_of
from arena.results.columns import Column, fit_table
from arena.results.rating import variant_label
from arena.results.store import StoredGame, open_existing
from arena.text import shown_line, split_detail
from arena.views.replay import step_views, text_pictures


def seat_result(seats: Sequence[SeatRecord], seat: int) -> str:
    """``win``, ``draw``, ``loss`` or ``-`` of one seat (:func:`arena.records.result_of`)."""
    return result_of([s.rank for s in seats], seat)


def game_matches(game: StoredGame, bot: str | None, result: str | None) -> bool:
    """Whether a stored game passes the ``--bot`` and ``--result`` filters.

    With a bot, the result is that bot's (in any of its seats); without one, ``win`` and
    ``loss`` mean a game someone won, ``draw`` a shared first place, ``forfeit`` any forfeit.
    """
    seats = [i for i, s in enumerate(game.seats) if bot is None or s.bot == bot]
    if not seats:
        return False
    if result is None:
        return True
    if result == "forfeit":
        return any(game.seats[i].forfeit for i in seats)
    if bot is None and result in ("win", "loss"):
        return any(seat_result(game.seats, i) == "win" for i in range(len(game.seats)))
    return any(seat_result(game.seats, i) == result for i in seats)


def result_text(seats: Sequence[SeatRecord]) -> str:
    """``enemy wins``, ``draw: a, b`` or, for one player, its score."""
    if len(seats) == 1:
        return f"score {seats[0].score:g}"
    first = [seats[i].bot for i in first_places([s.rank for s in seats])]
    return f"{first[0]} wins" if len(first) == 1 else "draw: " + ", ".join(first)


def list_games(
    output: Path, bot: str | None = None, result: str | None = None, width: int | None = None
) -> str:
    """The table of ``arena list``: stored games passing the filters, in schedule order,
    within ``width`` columns (``None``: unlimited): the seed and the round are left out
    first, then the long cells (seats, result, reason, forfeits) wrap."""
    store = open_existing(output)
    try:
        games = store.games()
        meta = store.meta()
        known = sorted(set(meta.get("bots", [])) | {s.bot for g in games for s in g.seats})
        variant_keys = list(meta.get("variant_keys", []))
    finally:
        store.close()
    if bot is not None and bot not in known:
        raise ConfigError(f"--bot {bot!r}: no such bot in {output} (bots: {', '.join(known)})")
    rows = []
    for g in games:
        if not game_matches(g, bot, result):
            continue
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
    shown = f"{len(rows)} of {len(games)} games"
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
    return text + f"\n\n{shown}"


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
        yield from forfeit_lines(who, forfeit["reason"], forfeit["detail"])


def forfeit_lines(who: str, reason: str, detail: str) -> Iterator[str]:
    """``  seat 0 bot FORFEITS: crash: exited with code 1 ...``, then the end of the bot's
    stderr that the detail keeps (a crash's traceback), indented below it."""
    summary, tail = split_detail(detail)
    yield f"  {who} FORFEITS: {reason}: {shown_line(summary)}"
    if tail:
        yield "    its stderr ends:"
        yield from (f"      {shown_line(line)}" for line in tail)
