"""The scheduler every format is: which game to play next, told of every game that ends."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from arena.records import GameSpec, SeatRecord, StoredGame
from arena.tournament.schedule import MAX_GAMES, ListPlan, Plan

if TYPE_CHECKING:
    from arena.results.store import Store
    from arena.tournament.config import TournamentConfig


class Scheduler(ABC):
    """Decides which games to play; told of every game that ends.

    The class attributes are the format's rules, checked before any game
    (:func:`arena.tournament.config.load_tournament`).
    """

    #: what the format does, in words (docs, ``unknown format`` messages)
    description: ClassVar[str] = ""
    #: ``games`` counts all the games and may be left out (play until the format decides,
    #: or Ctrl-C); else ``games`` is per line-up, 2 by default
    open_ended: ClassVar[bool] = False
    #: two-player games between pairs of bots
    two_players: ClassVar[bool] = False
    #: the keys this format needs, each with the example its message shows; every other
    #: format refuses them
    needs: ClassVar[tuple[tuple[str, str], ...]] = ()
    #: the fewest players per game it takes
    min_players: ClassVar[int] = 1
    #: the exact number of bots it compares (None: any, at least a game's worth)
    bot_count: ClassVar[int | None] = None
    #: optional keys only this format reads (every other format refuses them)
    own_keys: ClassVar[tuple[str, ...]] = ()
    #: ``seeds`` gives one round per seed, instead of ``games``
    seeded_rounds: ClassVar[bool] = False
    #: ``games`` when the file leaves it out (fixed formats; None: the format decides)
    default_games: ClassVar[int | None] = 2
    #: the most games a file may schedule (as :func:`arena.tournament.formats.schedule_size` counts)
    max_games: ClassVar[int] = MAX_GAMES

    @classmethod
    def lineups(cls, bots: int, players: int) -> int | None:
        """How many line-ups a fixed format plays (None: open-ended, ``games`` in all)."""
        return None

    #: bots may be added and retired while it runs (``arena bot``, roster.json)
    takes_bots: ClassVar[bool] = False
    #: the run stopped handing out games because the league's roster changed
    roster_changed: bool = False
    #: games in the whole plan, stored ones included (``None``: open-ended)
    planned: int | None = None
    #: games of the plan already stored when the run started
    stored: int = 0

    @abstractmethod
    def specs(self) -> Iterator[GameSpec]:
        """The games to play now, produced lazily: each is decided when the executor asks
        for it, after every result recorded so far."""

    def record(self, spec: GameSpec, seats: Sequence[SeatRecord], settings: Any) -> None:
        """A scheduled game ended with these seats (ranks) under these settings (fixed
        plans ignore it)."""
        return None

    def status(self) -> str | None:
        """A short state for the progress bar (``None``: nothing of its own)."""
        return None

    def leagues(self) -> dict[str, str] | None:
        """Each bot's league by name, for ``status.json`` (``None``: the format has none)."""
        return None

    def more_rounds(self) -> bool:
        """Whether :meth:`specs` has more once every game it handed out has ended: a format
        that plays round by round ends its stream at a round's end, and the run asks
        again when the round's games are all in."""
        return False

    @abstractmethod
    def __init__(self, config: TournamentConfig, stored: Iterable[StoredGame]) -> None:
        """The format's state from the file and the games already stored (every format
        resumes: a stored game is never played again); the fixed formats are built from
        their plan instead (:meth:`FixedScheduler.create`)."""

    @classmethod
    def create(
        cls, config: TournamentConfig, stored: list[StoredGame], plan: Plan | None
    ) -> Scheduler:
        """The scheduler of ``config``, aware of the games already ``stored`` (``plan``:
        :meth:`make_plan`, when already made; a fixed format reuses it)."""
        return cls(config, stored)

    @classmethod
    def resume(
        cls,
        config: TournamentConfig,
        store: Store,
        plan: Plan | None,
    ) -> Scheduler:
        """The scheduler of a run that resumes the stored games the file now defines
        (:func:`~arena.tournament.resume.check_stored`): :meth:`create` from the stored
        games (a fixed plan and a league read less)."""
        return cls.create(config, store.games(), plan)

    @classmethod
    def full_plan(cls, config: TournamentConfig) -> list[GameSpec] | None:
        """Every game the file can ever schedule when that is a fixed list, else ``None``."""
        return None

    @classmethod
    def make_plan(cls, config: TournamentConfig) -> Plan | None:
        """Every game the file can ever schedule, when that is fixed (:meth:`full_plan`;
        round-robin and gauntlet generate theirs as it is played), else ``None``."""
        specs = cls.full_plan(config)
        return ListPlan(specs) if specs is not None else None

    @classmethod
    def defines(cls, config: TournamentConfig, seats: tuple[str, ...]) -> bool:
        """Whether an open-ended format still plays this line-up (for stored games)."""
        names = [b.name for b in config.bots]
        return len(seats) == 2 and all(b in names for b in seats)

    def expected_total(self) -> int | None:
        """The games the whole run is now expected to hold, stored ones included, for the
        progress bar's ETA (``None``: :attr:`planned`, as it stands)."""
        return None
