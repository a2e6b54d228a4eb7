"""The records every layer shares: bots, clocks, scheduled games and their results.

Plain data at the bottom of the core: the referee fills them, workers send them back as
dicts, the store keeps them, ratings and views read them. Nothing here does any work.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, NotRequired, TypedDict

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
    kind: str = "wall"
    """``wall``: a turn is charged the time from its input to its answer (wait in the run
    queue excused: see ``stall``); ``cpu``: the CPU time all the bot's processes used."""

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
        if self.kind != "wall":
            parts.append(f"{self.kind} clock")
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
    stall: str = ""
    """Why the game was broken off as a ``stall`` (reason ``stall``): a turn over its budget
    only because the machine kept the bot or the referee waiting. Never stored as played."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able copy (for worker processes and the store)."""
        return asdict(self)

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> GameRecord:
        """Inverse of :meth:`to_dict`."""
        fields = dict(data)
        fields["seats"] = [SeatRecord(**s) for s in data["seats"]]
        return GameRecord(**fields)


@dataclass(frozen=True)
class StoredGame:
    """A finished game read back from the store."""

    id: int
    key: str
    ord: int
    round: int
    group: str
    game: str
    seed: int
    reason: str
    turns: int
    duration_ms: float
    dir: str
    seats: tuple[SeatRecord, ...]
    settings: dict[str, Any] = field(default_factory=dict)


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


# -- who won: the one place results are read from ranks ---------------------------------


def first_places(ranks: Sequence[int]) -> list[int]:
    """The seats in first place (the lowest rank): one winner, or several sharing a draw."""
    best = min(ranks)
    return [i for i, r in enumerate(ranks) if r == best]


def result_of(ranks: Sequence[int], seat: int) -> str:
    """``win`` (alone in first place), ``draw`` (first place shared) or ``loss`` for
    ``seat``; ``-`` in a one-player game (its results are scores, ranked across games)."""
    if len(ranks) < 2:
        return "-"
    first = first_places(ranks)
    if seat not in first:
        return "loss"
    return "draw" if len(first) > 1 else "win"


def pair_points(rank: int, other: int) -> float:
    """Points of a seat against one other seat of the same game: 1 for the better rank,
    1/2 for an equal one, 0 for a worse one."""
    return 1.0 if rank < other else 0.5 if rank == other else 0.0


# -- the replay file (``replay.json``): one schema, read by the views and viewer.js --------


class SeatIO(TypedDict):
    """One seat's exchange in one step: what it was sent, what it answered, and when."""

    input: str  # the text written to the bot for this turn
    lines: list[str]  # what it answered (lines or words, as the game frames them)
    ms: float  # the turn's time as measured (see the fair-time notes in docs/)
    budget_ms: float  # the turn's budget after the clock's scale
    stderr: str  # what the bot logged for this turn (capped)
    late: NotRequired[bool]  # over the budget, within the clock's margin
    wait_ms: NotRequired[float]  # of ``ms``, the time the machine kept the bot waiting
    wall_ms: NotRequired[float]  # ``clock: cpu``: the turn's wall time (``ms`` is its CPU)
    exit_code: NotRequired[int | None]  # per-turn (file) bots: the process's exit code
    replies: NotRequired[dict[str, str]]  # answers to a bot's queries, by line index


class ForfeitEntry(TypedDict):
    """Why a seat lost on the spot (:class:`Forfeit` as stored)."""

    reason: str
    detail: str
    raw: str


class ReplayStep(TypedDict):
    """One step of a game. Seats are keyed by their index as a string (JSON objects)."""

    to_act: list[int]  # the seats asked to answer in this step
    moves: dict[str, str]  # each answering seat's raw answer
    messages: dict[str, str]  # each seat's message (CodinGame's text after the move)
    forfeits: dict[str, ForfeitEntry]
    io: dict[str, SeatIO]
    actions: NotRequired[dict[str, Any]]  # each move as the game parsed it
    view: NotRequired[list[Any]]  # what changed in the game's view (arena.viewdiff)
    turn: NotRequired[int]  # the game's turn number after this step


class ReplayOutcome(TypedDict):
    """How the game ended: each seat's rank (0 is first) and score, and why it ended."""

    ranks: list[int]
    scores: list[float]
    reason: str


class Replay(TypedDict):
    """A whole ``replay.json`` (format :data:`REPLAY_FORMAT`)."""

    format: int
    game: str
    version: int
    seed: int
    settings: dict[str, Any]
    players: list[str]
    start_view: Any
    steps: list[ReplayStep]
    outcome: ReplayOutcome
    seats: list[dict[str, Any]]  # each seat's record (SeatRecord's fields but turn_ms)
    final: Any  # the game's full view at the end
    epilogue: NotRequired[dict[str, str]]  # what each seat was sent after the end (by seat)


REPLAY_FORMAT = 2
"""Version of ``replay.json``: 2 added views, parsed actions, messages, budgets, replies."""


STDERR_ENDS = "; its stderr ends:"
"""Ends the first line of a forfeit's detail that goes on with the bot's last stderr lines."""


def split_detail(detail: str) -> tuple[str, list[str]]:
    """A forfeit's detail as (its one-line summary, the bot's last stderr lines, if any)."""
    first, _, rest = detail.partition("\n")
    if not rest:
        return first, []
    return first.removesuffix(STDERR_ENDS), [line.removeprefix("  ") for line in rest.split("\n")]
