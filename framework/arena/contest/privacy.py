"""What each person may see of a game: a participant sees its own seats' stderr, never
another's; organisers see everything; a visitor signed out sees no stderr at all.

A replay (and a game's stored seats) is filtered here before it leaves the server: the
seats not shown lose their stderr turn by turn, their stderr at the end, and the stderr
lines a forfeit's detail keeps (its one-line summary stays: everyone sees why a bot lost).
Moves, messages and the game's views are public, as on the contest platforms.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from arena.records import split_detail

Owner = Callable[[str], "str | None"]
"""The account owning a league bot (``ada-v3`` -> ``ada``), None for a boss."""


def shown_seats(
    players: Iterable[str], owner_of: Owner, viewer: str | None, organiser: bool
) -> set[int]:
    """The seats whose stderr ``viewer`` (an account id, None: signed out) may read."""
    seats = list(players)
    if organiser:
        return set(range(len(seats)))
    if viewer is None:
        return set()
    return {i for i, bot in enumerate(seats) if owner_of(bot) == viewer}


def summary(detail: str) -> str:
    """A forfeit's detail without the bot's stderr lines."""
    return split_detail(detail)[0]


def filter_replay(replay: Mapping[str, Any], shown: set[int]) -> dict[str, Any]:
    """A copy of ``replay`` with the stderr of every seat not in ``shown`` left out."""
    out = copy.deepcopy(dict(replay))
    hidden = {str(i) for i in range(len(out.get("players", []))) if i not in shown}
    if not hidden:
        return out
    for step in out.get("steps", []):
        for key, io in step.get("io", {}).items():
            if key in hidden and isinstance(io, dict) and "stderr" in io:
                io["stderr"] = ""
        for key, forfeit in step.get("forfeits", {}).items():
            if key in hidden and isinstance(forfeit, dict):
                forfeit["detail"] = summary(str(forfeit.get("detail", "")))
    for i, seat in enumerate(out.get("seats", [])):
        if str(i) in hidden and isinstance(seat, dict):
            seat["stderr"] = ""
            seat["detail"] = summary(str(seat.get("detail", "")))
    return out
