"""The SQL behind listings of stored games: filters, orders and pages in one query.

:meth:`arena.results.store.Store.games_page` runs what :func:`page_query` builds; ``arena
list``, the report's newest games and ``arena serve``'s games list read pages through it,
so their cost follows the page shown, not the games stored (the indexes are in
:data:`INDEXES`).

A seat's result follows :func:`arena.records.result_of`, written as SQL on the seats of
its game: ``win`` when no other seat ranks as well as it, ``draw`` when it shares the
first place, ``loss`` when another seat ranks better; a one-player game has no result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

RESULTS = ("win", "loss", "draw", "forfeit")
"""The results a :class:`GameFilter` selects."""

INDEXES = (
    "CREATE INDEX IF NOT EXISTS seats_by_bot ON seats(bot, game_id)",
    "CREATE INDEX IF NOT EXISTS seats_by_forfeit ON seats(forfeit, game_id)"
    " WHERE forfeit IS NOT NULL",
    "CREATE INDEX IF NOT EXISTS games_by_seed ON games(seed)",
    "CREATE INDEX IF NOT EXISTS current_by_schedule ON current_games(round, ord)",
)
"""The indexes the listings use: made with every store, and on the first read of a
store an older arena wrote (when its folder can be written)."""

ORDERS = {
    "schedule": ("c.round, c.ord, g.id", "g.id"),
    "newest": ("g.id DESC", "g.id DESC"),
    "oldest": ("g.id", "g.id"),
    "longest": ("g.turns DESC, g.id", "g.turns DESC, g.id"),
    "shortest": ("g.turns, g.id", "g.turns, g.id"),
}
"""Each order's SQL over the current games (joined as ``c``) and over every stored game:
``schedule`` is the tournament's (the order it was played in, for every stored game),
``newest``/``oldest`` by when a game was stored, ``longest``/``shortest`` by turns."""


@dataclass(frozen=True)
class GameFilter:
    """Which stored games a listing shows; ``None`` is any.

    ``bot``: games with this bot in a seat; ``opponent``: games with this bot in another
    seat (than ``bot``'s, with one). ``result`` (:data:`RESULTS`): with ``bot``, that bot's
    result in any of its seats (``forfeit``: it forfeited); without, ``win`` and ``loss``
    mean a game someone won, ``draw`` a shared first place, ``forfeit`` any forfeit.
    ``forfeit``: a forfeit for this reason (``timeout``, ``crash``...; ``bot``'s, with one).
    ``seed`` and ``round`` (counted from 1, as listings show it) as stored.
    """

    bot: str | None = None
    opponent: str | None = None
    result: str | None = None
    forfeit: str | None = None
    seed: int | None = None
    round: int | None = None

    def __post_init__(self) -> None:
        if self.result is not None and self.result not in RESULTS:
            raise ValueError(f"result {self.result!r}: one of {', '.join(RESULTS)}")


def _seat_result(seat: str, result: str) -> str:
    """SQL true when seat row ``seat`` (an alias of ``seats``) has ``result``."""
    other = f"FROM seats o WHERE o.game_id = {seat}.game_id AND o.seat != {seat}.seat"
    if result == "forfeit":
        return f"{seat}.forfeit IS NOT NULL"
    if result == "win":
        return (
            f"NOT EXISTS (SELECT 1 {other} AND o.rank <= {seat}.rank) AND EXISTS (SELECT 1 {other})"
        )
    if result == "draw":
        return (
            f"NOT EXISTS (SELECT 1 {other} AND o.rank < {seat}.rank)"
            f" AND EXISTS (SELECT 1 {other} AND o.rank = {seat}.rank)"
        )
    return f"EXISTS (SELECT 1 {other} AND o.rank < {seat}.rank)"  # loss


def _conditions(flt: GameFilter, rounds: str) -> tuple[list[str], list[Any]]:
    """The WHERE terms (ANDed) and their parameters; ``rounds`` is the round column."""
    terms: list[str] = []
    params: list[Any] = []
    if flt.seed is not None:
        terms.append("g.seed = ?")
        params.append(flt.seed)
    if flt.round is not None:
        terms.append(f"{rounds} = ?")
        params.append(flt.round - 1)
    seat_terms: list[str] = []  # on the seat `s` that the filter is about
    seat_params: list[Any] = []
    if flt.bot is not None:
        seat_terms.append("s.bot = ?")
        seat_params.append(flt.bot)
    if flt.opponent is not None:
        other = "o.seat != s.seat" if flt.bot is not None else "1"
        seat_terms.append(
            f"EXISTS (SELECT 1 FROM seats o WHERE o.game_id = s.game_id AND o.bot = ? AND {other})"
        )
        seat_params.append(flt.opponent)
    if flt.forfeit is not None:
        seat_terms.append("s.forfeit = ?")
        seat_params.append(flt.forfeit)
    if flt.result is not None:
        if flt.bot is None and flt.result == "loss":
            seat_terms.append(_seat_result("s", "win"))  # a game someone won
        else:
            seat_terms.append(_seat_result("s", flt.result))
    if seat_terms:
        # Each game once however many of its seats match.
        terms.append(
            "EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND "
            + " AND ".join(seat_terms)
            + ")"
        )
        params.extend(seat_params)
    return terms, params


def _seat_count(flt: GameFilter) -> tuple[str, list[Any]] | None:
    """The count of every stored game passing a filter of seats only (no seed, no round),
    on the seats' indexes alone; ``None`` for other filters."""
    if flt.seed is not None or flt.round is not None:
        return None
    terms, params = _conditions(flt, "g.round")
    if not terms:
        return None
    inner = terms[0].removeprefix("EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND ")
    return f"SELECT COUNT(DISTINCT s.game_id) FROM seats s WHERE {inner[:-1]}", params


GAME_COLUMNS = (
    "g.id, g.key, {places}, g.game, g.seed, g.reason, g.turns, g.duration_ms, g.dir, g.settings"
)


def page_query(
    flt: GameFilter, order: str, current_only: bool, id_past: int | None = None
) -> tuple[str, str, list[Any]]:
    """(the SELECT of a page's games, with ``LIMIT ? OFFSET ?`` left to add; the COUNT of
    every game passing; their parameters). ``current_only``: the games the tournament
    file defines (as the leaderboard), else every stored game. ``id_past`` (orders
    ``newest`` and ``oldest``): only the games after this id in that order (a keyset
    page: it walks the ids from there, so a page costs the same however far back it is)."""
    if order not in ORDERS:
        raise ValueError(f"order {order!r}: one of {', '.join(ORDERS)}")
    if current_only:
        # The schedule's order walks its index and stops at the page's end (the filter is
        # a look-up per game): the first pages of any filter cost the same at any size.
        # Other orders walk the games (by id) and look each up in the schedule.
        first, then = (
            ("current_games c", "games g")
            if order == "schedule"
            else ("games g", "current_games c")
        )
        source = f"{first} CROSS JOIN {then} ON c.key = g.key AND c.identity_hash = g.identity_hash"
        places, rounds, sql_order = "c.ord, c.round, c.grp", "c.round", ORDERS[order][0]
    else:
        source, places, rounds, sql_order = (
            "games g",
            "g.ord, g.round, g.grp",
            "g.round",
            ORDERS[order][1],
        )
    terms, params = _conditions(flt, rounds)
    if id_past is not None:
        if order not in ("newest", "oldest"):
            raise ValueError(f"order {order!r}: a keyset page is by id (newest or oldest)")
        terms.append("g.id < ?" if order == "newest" else "g.id > ?")
        params.append(id_past)
    where = (" WHERE " + " AND ".join(terms)) if terms else ""
    select = (
        f"SELECT {GAME_COLUMNS.format(places=places)} FROM {source}{where} ORDER BY {sql_order}"
    )
    count = f"SELECT COUNT(*) FROM {source}{where}"
    if not current_only and (by_seats := _seat_count(flt)) is not None:
        count = by_seats[0]  # (the same parameters: the seats' terms are all there is)
    return select, count, params


SEED_POINTS = """
SELECT g.seed, a.bot,
       SUM(CASE WHEN b.rank > a.rank THEN 1.0 WHEN b.rank = a.rank THEN 0.5 ELSE 0.0 END),
       COUNT(*)
FROM seats a
JOIN seats b ON b.game_id = a.game_id AND b.seat != a.seat
JOIN games g ON g.id = a.game_id{current}
GROUP BY g.seed, a.bot
"""
"""Per seed and bot: the points it took from the opponents it met on that seed (1 for
an opponent it ranked above, 0.5 for one it tied with), and how many it met. A
one-player game meets none. ``{current}``: the join keeping the current games only."""
CURRENT_JOIN = "\nJOIN current_games c ON c.key = g.key AND c.identity_hash = g.identity_hash"
