"""The records every layer shares: bots, clocks, scheduled games and their results.

Plain data at the bottom of the core: the referee fills them, workers send them back as
dicts, the store keeps them, ratings and views read them. Nothing here does any work.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from arena.text import safe_text


@dataclass(frozen=True)
class GameSpec:
    """One game to play: its place in the schedule, seed and bots by seat."""

    order: int
    round: int
    seed: int
    seats: tuple[str, ...]
    group: str
    variant: int = 0
    variants: int = 1

    @property
    def key(self) -> str:
        """Identifies the game across runs (resume): round, settings variant, bots by seat."""
        variant = f"v{self.variant}" if self.variants > 1 else ""
        return f"r{self.round}{variant}:" + ",".join(self.seats)


@dataclass(frozen=True)
class Clock:
    """How turns are timed: every game budget is multiplied by ``scale`` (a slower
    machine), and an answer up to ``margin_ms`` past its budget is *late*, not a forfeit
    (cutechess-cli's ``timemargin``)."""

    scale: float = 1.0
    margin_ms: float = 0.0

    def budget_ms(self, game_ms: float) -> float:
        """The budget of a turn the game gives ``game_ms``: an int when it is whole."""
        scaled = game_ms * self.scale
        return int(scaled) if float(scaled).is_integer() else round(scaled, 3)

    def describe(self) -> str:
        """``budgets x1.5, margin 50 ms`` (empty for the default clock)."""
        parts = []
        if self.scale != 1.0:
            parts.append(f"budgets x{self.scale:g}")
        if self.margin_ms:
            parts.append(f"margin {self.margin_ms:g} ms")
        return ", ".join(parts)


@dataclass(frozen=True)
class BotSpec:
    """A bot as the referee runs it: its display name and its argument vector."""

    name: str
    argv: tuple[str, ...]


@dataclass
class SeatRecord:
    """How one seat did in one game."""

    bot: str
    rank: int = 0
    score: float = 0.0
    forfeit: str | None = None
    detail: str = ""
    raw: str = ""
    moves: int = 0
    total_ms: float = 0.0
    max_ms: float = 0.0
    stderr: str = ""
    late: int = 0  # answers over the budget but within the clock's margin
    turn_ms: list[float] = field(default_factory=list)  # each answered turn's time, in order


@dataclass
class GameRecord:
    """The result of one game, as the store keeps it."""

    game: str
    seed: int
    settings: dict[str, Any]
    seats: list[SeatRecord]
    reason: str
    turns: int
    steps: int
    duration_ms: float
    replay: str = ""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able copy (for worker processes and the store)."""
        return asdict(self)

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> GameRecord:
        """Inverse of :meth:`to_dict`."""
        fields = dict(data)
        fields["seats"] = [SeatRecord(**s) for s in data["seats"]]
        return GameRecord(**fields)


@dataclass
class Forfeit:
    """Why a seat lost the game on the spot."""

    reason: str
    detail: str
    raw: str = ""

    def __post_init__(self) -> None:
        # A bot's file names and output may not be UTF-8: the store must take any forfeit.
        self.detail = safe_text(self.detail)
        self.raw = safe_text(self.raw)
