"""The game contract: what a game plugin provides and what the core relies on.

A game is pure rules. It never does I/O, never touches processes or clocks, and never
uses a global random generator: everything random comes from the seed handed to
:meth:`Game.start`. The core owns processes, clocks, sandboxing, scheduling, storage
and rating, and only ever talks to a game through the methods below.

One *step* of a game: the core asks :meth:`Game.to_act` which seats must answer now
(one seat for turn-based games, several for simultaneous ones), sends each of them
:meth:`Game.prompt`, feeds every line, word (``GameInfo.framing``) or output file the
bot answers to :meth:`Game.interpret` until it yields a :class:`Move`, and finally hands all the
moves to :meth:`Game.apply`. A bot that times out, crashes or answers something
:meth:`Game.interpret` rejects is removed with :meth:`Game.eliminate`. When
:meth:`Game.to_act` is empty the game is over and :meth:`Game.outcome` ranks the seats.
"""

from __future__ import annotations

import dataclasses
import enum
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Literal, TypeVar

from arena.errors import InvalidSetting

State = TypeVar("State")
Framing = Literal["lines", "tokens"]

DEFAULT_EXIT_CODES: Mapping[int, tuple[str, str]] = {
    1: ("invalid", "invalid json"),
    2: ("illegal", "illegal move"),
    3: ("crash", "internal error"),
}
"""Exit codes a per-turn bot may use: code -> (forfeit reason, what the code means)."""


@dataclass(frozen=True)
class FileTransport:
    """A new bot process per turn, speaking through files in the bot's own directory.

    The core writes the prompt to ``input_name`` in the bot's game directory (kept for the
    whole game), runs ``cmd <dir>/<input_name>`` with that directory as cwd, and hands the
    text of ``output_name`` to :meth:`Game.interpret`. A non-zero exit code loses the game;
    ``exit_codes`` maps the codes the protocol defines to (forfeit reason, meaning).
    Besides the two protocol files the bot may keep ``max_extra_files`` files of at most
    ``max_file_bytes`` each.
    """

    input_name: str = "state.json"
    output_name: str = "move.json"
    max_extra_files: int = 1
    max_file_bytes: int = 10 * 1024 * 1024
    exit_codes: Mapping[int, tuple[str, str]] = field(
        default_factory=lambda: dict(DEFAULT_EXIT_CODES)
    )


@dataclass(frozen=True)
class GameInfo:
    """A game's metadata, declared as data.

    ``transport`` None means a persistent process speaking a line protocol on
    stdin/stdout (the CodinGame way); a :class:`FileTransport` means a process per turn.
    ``queries`` declares that a bot may send queries inside its turn, each answered at
    once by a :class:`Reply`, all within the turn's clock.
    ``framing`` says how a line-protocol bot's output is cut into what
    :meth:`Game.interpret` reads: ``"lines"`` (each line, the CodinGame way) or
    ``"tokens"`` (whitespace-separated words, like C's ``scanf``: a command may span
    lines and several may share one; :meth:`Game.interpret` gets the words of the command
    so far joined by single spaces and answers :class:`Incomplete` until it is whole).
    ``exports`` names the formats :meth:`Game.export` writes (e.g. ``"codeclash"``).
    ``renderer`` names a JavaScript file shipped as package data next to the game's
    module (e.g. ``"viewer.js"``) that draws :meth:`Game.view` in ``arena view``; see
    :meth:`Game.renderer_script`.
    ``settings`` lists every setting the game accepts with its default value; tournament
    files may override them, unknown keys are refused.
    ``version`` is the rules version: raise it whenever a change to the rules or the
    protocol could change a game's result, so that stored games played under the old
    rules are not reused (it is part of every game's identity).
    ``thinking`` is how many seats think at once at most (2 for simultaneous moves by two
    players, 1 when seats take turns): a game needs that many cores, and the default
    number of games played at once is the machine's cores divided by it.
    """

    id: str
    title: str
    min_players: int
    max_players: int
    first_turn_ms: int
    turn_ms: int
    transport: FileTransport | None = None
    queries: bool = False
    framing: Framing = "lines"
    settings: Mapping[str, Any] = field(default_factory=dict)
    description: str = ""
    exports: tuple[str, ...] = ()
    renderer: str | None = None
    version: int = 1
    thinking: int = 1


@dataclass(frozen=True)
class Move:
    """An answer accepted as the seat's action for this step.

    ``message`` (e.g. the text a stc bot appends to its move) is stored per step in the
    replay (``messages``) and shown by ``arena match --verbose``.
    """

    action: Any
    message: str = ""


@dataclass(frozen=True)
class Reply:
    """An in-turn query answered at once; the text (lines ending in newline) is sent back."""

    text: str


@dataclass(frozen=True)
class Ignore:
    """A line the protocol lets bots send and the referee skips (e.g. ``# comment``)."""


@dataclass(frozen=True)
class Incomplete:
    """The command read so far is not whole yet: the core reads the next word (or line),
    appends it and asks again, on the same clock (e.g. ``drop 3`` before its chip)."""


Answer = Move | Reply | Ignore | Incomplete


@dataclass(frozen=True)
class Outcome:
    """How a finished game ranks its seats.

    ``ranks[i]`` is seat i's place, 0 for first; equal ranks are a draw between those
    seats. ``scores[i]`` is seat i's score in the game's own unit. ``reason`` says why the
    game ended (e.g. ``"200 turns"``, ``"nobody can move"``).

    The core ranks every seat that forfeited below every seat that did not. With
    ``forfeits_ranked`` the game ranked forfeits itself and a forfeiting seat it ranks
    equal to the last of the others stays tied with them (stc: one seat forfeits and the
    other's move of the same turn kills it, a draw).
    """

    ranks: tuple[int, ...]
    scores: tuple[float, ...]
    reason: str = ""
    forfeits_ranked: bool = False

    @staticmethod
    def from_scores(scores: Sequence[float], reason: str = "") -> Outcome:
        """Rank seats by score, highest first; equal scores share a rank."""
        ranks = tuple(sum(1 for other in scores if other > s) for s in scores)
        return Outcome(ranks, tuple(float(s) for s in scores), reason)


def check_range(
    settings: Mapping[str, Any],
    key: str,
    low: float | None = None,
    high: float | None = None,
) -> None:
    """Raise :class:`InvalidSetting` unless ``settings[key]`` lies in ``[low, high]``.

    For :meth:`Game.check_settings`; ``None`` leaves that end open. ``None`` values (a
    setting whose default is "unset") are accepted.
    """
    value = settings.get(key)
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidSetting(key, f"must be a number, not {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            span = f"between {low} and {high}"
        elif low is not None:
            span = f"at least {low}"
        else:
            span = f"at most {high}"
        raise InvalidSetting(key, f"must be {span}, not {value!r}")


def standing_moves(
    game: Game[Any], state: Any, actions: Mapping[int, Any], forfeited: bool
) -> dict[int, Any]:
    """The actions of a step that still apply once its forfeits are eliminated.

    The one rule the referee and :func:`~arena.views.replay.resimulate` share: without a
    forfeit every action stands; after one, the game decides
    (:meth:`Game.moves_after_forfeit`, given ``state`` after the eliminations).
    """
    if not forfeited:
        return dict(actions)
    return dict(game.moves_after_forfeit(state, actions))


class Game(ABC, Generic[State]):
    """Base class of every game plugin: pure rules plus the text encoding bots speak.

    Subclasses set ``info`` and implement the abstract methods; states are the game's
    own objects, which the core never looks into and never mutates.
    """

    info: ClassVar[GameInfo]

    @abstractmethod
    def start(self, seed: int, players: int, settings: Mapping[str, Any]) -> State:
        """Return the initial state for ``players`` seats; all randomness derives from ``seed``.

        ``settings`` holds every key of ``info.settings``, overridden by the tournament.
        """

    @abstractmethod
    def to_act(self, state: State) -> Sequence[int]:
        """Seats that must answer now, in order; several for simultaneous moves; empty when over."""

    @abstractmethod
    def prompt(self, state: State, seat: int) -> str:
        """Exactly what seat receives before answering: lines each ending in ``\\n``, or
        the input file's contents for a :class:`FileTransport` game."""

    @abstractmethod
    def interpret(self, state: State, seat: int, text: str) -> Answer:
        """Read one line of the seat's answer (without its newline), or the whole output file.

        With ``info.framing == "tokens"``, ``text`` is the words of the command read so far
        joined by single spaces; answer :class:`Incomplete` while it needs more words.
        Called again on a stored command (:func:`~arena.views.replay.resimulate`), it must give
        the same answer. Return :class:`Move`, :class:`Reply` or :class:`Ignore`; raise
        :class:`~arena.errors.InvalidAnswer` for garbage and
        :class:`~arena.errors.IllegalMove` for a move the rules forbid, keeping the raw text.
        """

    @abstractmethod
    def apply(self, state: State, moves: Mapping[int, Any]) -> State:
        """Return the state after every seat of :meth:`to_act` played its action.

        In a step where a seat forfeited, ``moves`` holds what
        :meth:`moves_after_forfeit` kept, applied to the state after the eliminations.
        """

    @abstractmethod
    def eliminate(self, state: State, seat: int) -> State:
        """Return the state after ``seat`` forfeited (timeout, crash, invalid or illegal answer).

        The seat must never act again and must rank below every seat that did not forfeit;
        in a two-player game this ends the game.
        """

    @abstractmethod
    def outcome(self, state: State) -> Outcome:
        """Ranks and scores of a finished game (:meth:`to_act` is empty)."""

    @abstractmethod
    def random_answer(self, state: State, seat: int, rng: random.Random) -> str:
        """A legal answer for seat, chosen with ``rng``: random play for conformance tests."""

    def moves_after_forfeit(self, state: State, moves: Mapping[int, Any]) -> Mapping[int, Any]:
        """The other seats' actions that still apply in a step where a seat forfeited.

        ``state`` is after the eliminations; ``moves`` holds the actions of the seats that
        answered. The default keeps them only if the game still expects exactly those seats
        (:meth:`to_act`), else none (e.g. a two-player game ends on the spot). A game whose
        original applies the others' moves of that turn (stc) returns ``moves``.
        """
        return dict(moves) if set(moves) == set(self.to_act(state)) else {}

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        """Refuse settings the game cannot be played with: raise :class:`InvalidSetting`.

        Called by the core before any game (``arena run``, ``arena match``, :func:`arena.play`)
        with every key of ``info.settings``: the defaults overridden by the user, unknown
        keys and wrong types already refused. Check ranges and combinations here, e.g.
        ``check_range(settings, "max_turns", 1, 10_000)``; never do I/O. Default: accept.
        """

    def check_seed(self, seed: int) -> None:
        """Refuse a seed the game cannot be played with: raise ``InvalidSetting("seed", ...)``.

        Called by the core with every seed before any game is played (``arena match``, a
        tournament's ``seed`` and round seeds, :func:`arena.play`), e.g. a game whose
        original takes a signed 64-bit seed refuses larger ones. Default: accept any.
        """

    def epilogue(self, state: State, seat: int) -> str:
        """Text sent to seat's bot once the game is over ("" sends nothing, the default).

        The referee writes it, after the last step, to every line bot that did not forfeit
        (a bot that no longer reads is not waited for) and keeps it in the replay
        (``epilogue``, by seat). E.g. an original that writes every action to the other
        bot before it checks for a winner sends the final action to the loser.
        """
        return ""

    def clock_ms(self, state: State, seat: int, first_turn: bool) -> int:
        """The seat's time budget for this step in ms (default: ``info`` first/later turn)."""
        return self.info.first_turn_ms if first_turn else self.info.turn_ms

    def view(self, state: State) -> dict[str, Any]:
        """A JSON-able picture of the state for replays and ``--verbose`` logs."""
        return {}

    def render(self, state: State) -> str:
        """A human-readable picture of the state for ``arena match --verbose``."""
        return ""

    def action_view(self, action: Any) -> Any:
        """A JSON-able picture of a parsed action for replays (default: :func:`jsonable`)."""
        return jsonable(action)

    def renderer_script(self) -> str | None:
        """JavaScript drawing :meth:`view` in the HTML viewer, or None (the viewer then
        shows :meth:`render`'s text).

        The script defines ``function render(view, host, ctx)``, which replaces the content
        of the DOM element ``host`` with a picture of ``view`` (SVG or canvas). ``ctx`` holds
        ``players`` (names by seat), ``colors`` (a CSS colour per seat), ``step`` (the step
        record that led to this view, null for the start), ``previous`` (the view before it),
        ``index`` (the step number), ``settings`` and ``esc`` (escapes text for markup).
        The script must be self-contained: no imports, nothing from the network.
        By default the file named by ``info.renderer`` is read from the game's package.
        """
        if self.info.renderer is None:
            return None
        package = type(self).__module__.rpartition(".")[0] or type(self).__module__
        import importlib.resources

        return (importlib.resources.files(package) / self.info.renderer).read_text("utf-8")

    def turn_number(self, state: State) -> int:
        """The number of turns played, as the game counts them (for the store)."""
        return 0

    def export(self, replay: Mapping[str, Any], fmt: str) -> str:
        """Write a stored replay (see ``docs/architecture.md``) in one of ``info.exports``."""
        raise NotImplementedError(f"{self.info.id} cannot export {fmt!r}")


def jsonable(value: Any) -> Any:
    """A JSON-able copy of a game value: a dataclass becomes ``{ClassName: {fields}}``,
    tuples and sets lists, enums their name, integers beyond 2**53 strings, the rest str."""
    kind = type(value)
    if kind is tuple or kind is list:  # the usual action: a few numbers or strings
        return [jsonable(v) for v in value]
    if kind is str or kind is bool or kind is float or value is None:
        return value
    if kind is int:
        return value if -(2**53) < value < 2**53 else str(value)
    if value is None or isinstance(value, bool | str | float):
        return value
    if isinstance(value, int):
        return value if abs(value) < 2**53 else str(value)
    if isinstance(value, enum.Enum):
        return value.name
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {type(value).__name__: fields}
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, set | frozenset):
        return sorted((jsonable(v) for v in value), key=repr)
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    return str(value)
