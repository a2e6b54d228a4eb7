"""The cg-referee game: a CodinGame-style referee process decides every rule.

Users bring the official referee of another CodinGame game (``java -jar referee.jar``,
anything speaking the protocol cg-brutaltester uses) and play it with arena's clocks,
sandbox, storage and ratings. The referee is a process, and games never touch processes:
this game talks to it only through :class:`arena.ExternalProcess`, which the core runs,
times out and kills with the game. The price is that a state is a cursor into one live
referee: each state can be played on once (replays start a new referee from the seed).
"""

from __future__ import annotations

import contextlib
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from arena import (
    ExternalProcess,
    ExternalProcessError,
    Game,
    GameInfo,
    Incomplete,
    InvalidSetting,
    Move,
    Outcome,
    check_range,
    command_problem,
)
from arena_games.cg_referee import protocol
from arena_games.cg_referee.protocol import Response, Turn

PARAM_KEY = re.compile(r"[A-Za-z0-9_.\-]+\Z")


@dataclass
class Link:
    """The referee process of one game, and how many times it was played on."""

    process: ExternalProcess
    position: int = 0


@dataclass(frozen=True)
class CgState:
    """Where the referee is: whose turn it is (and what it asked), or the final scores."""

    link: Link
    position: int
    players: int
    answers: tuple[str, ...]
    turn: Turn | None = None
    scores: tuple[float, ...] | None = None
    out: frozenset[int] = frozenset()
    frames: int = 0
    last: Response = field(default_factory=Response)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class CgRefereeGame(Game[CgState]):
    """Any game whose CodinGame referee speaks cg-brutaltester's protocol (``referee`` setting)."""

    info = GameInfo(
        id="cg-referee",
        title="A CodinGame referee (cg-brutaltester protocol)",
        min_players=1,
        max_players=4,
        first_turn_ms=1000,  # the referee's own clocks replace these (NEXT_PLAYER_INFO)
        turn_ms=100,
        settings={
            "referee": "",
            "params": {},
            "referee_timeout_ms": 30_000,
            "random_answers": "WAIT",
        },
        description=(
            "Plays through a CodinGame-style referee process ([[INIT]], [[GET_GAME_INFO]], "
            "[[SET_PLAYER_OUTPUT]] ...), e.g. referee: 'java -jar referee.jar'."
        ),
    )

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        """``referee`` is a command that exists; ``params`` are ``key=value`` pairs
        (not ``seed``: arena passes its own); ``referee_timeout_ms`` 100 ms to 1 hour."""
        referee = settings["referee"]
        if not referee.strip():
            raise InvalidSetting("referee", "required: the referee's command line")
        problem = command_problem(referee)
        if problem is not None:
            raise InvalidSetting("referee", problem)
        for key, value in settings["params"].items():
            if not isinstance(key, str) or not PARAM_KEY.match(key):
                raise InvalidSetting("params", f"{key!r} is not a parameter name")
            if key == "seed":
                raise InvalidSetting("params", "seed comes from arena (the game's seed)")
            if not isinstance(value, str | int | float | bool) or "\n" in _text(value):
                raise InvalidSetting(f"params.{key}", f"must be one line of text, not {value!r}")
        check_range(settings, "referee_timeout_ms", 100, 3_600_000)
        if not settings["random_answers"].strip():
            raise InvalidSetting("random_answers", "needs at least one answer")

    def start(self, seed: int, players: int, settings: Mapping[str, Any]) -> CgState:
        """Start the referee, send INIT (players, ``seed=<seed>``, ``params``), ask what next."""
        process = ExternalProcess(
            settings["referee"], name="referee", timeout_s=settings["referee_timeout_ms"] / 1000
        )
        params = {"seed": str(seed), **{k: _text(v) for k, v in settings["params"].items()}}
        answers = tuple(a.strip() for a in settings["random_answers"].split("|") if a.strip())
        state = CgState(Link(process), 0, players, answers)
        try:
            process.send(protocol.init_message(players, params))
            return self._exchange(state, protocol.GET_GAME_INFO, ask=False)
        except BaseException:
            process.close()
            raise

    def _exchange(self, state: CgState, message: str, ask: bool = True) -> CgState:
        """Send ``message`` (then GET_GAME_INFO if ``ask``), read the answer, the next state."""
        link = state.link
        if link.position != state.position:
            raise RuntimeError("cg-referee: this state was already played on")
        link.position += 1
        process = link.process
        process.send(message)
        if ask:
            # A referee may end the game as soon as it reads an output or a timeout, write
            # its scores and exit without reading GET_GAME_INFO: not an error.
            with contextlib.suppress(ExternalProcessError):
                process.send(protocol.GET_GAME_INFO)
        response = protocol.read_response(process.read_line, state.players)
        frames = state.frames + (1 if ask else 0)
        if response.turn is None:
            process.close()  # the game is over: the referee has nothing more to say
            scores = tuple(response.scores.get(i, 0.0) for i in range(state.players))
            return replace(
                state, position=link.position, turn=None, scores=scores, frames=frames,
                last=response,
            )  # fmt: skip
        after = replace(
            state, position=link.position, turn=response.turn, frames=frames, last=response
        )
        if response.turn.player in after.out:  # asked for a seat that already forfeited
            return self._exchange(after, protocol.SET_PLAYER_TIMEOUT)
        return after

    def to_act(self, state: CgState) -> Sequence[int]:
        """The player the referee asks for, none once it sent the scores."""
        return () if state.turn is None else (state.turn.player,)

    def prompt(self, state: CgState, seat: int) -> str:
        """The referee's NEXT_PLAYER_INPUT lines, as it wrote them."""
        assert state.turn is not None
        return "".join(f"{line}\n" for line in state.turn.input_lines)

    def clock_ms(self, state: CgState, seat: int, first_turn: bool) -> int:
        """The referee's time for this turn (NEXT_PLAYER_INFO)."""
        return state.turn.ms if state.turn is not None else self.info.turn_ms

    def interpret(self, state: CgState, seat: int, text: str) -> Move | Incomplete:
        """As many lines as NEXT_PLAYER_INFO asks for (the core joins them with ``\\n``),
        then passed on as they are: the referee judges them (a bad one loses by its rules)."""
        expected = state.turn.expected_lines if state.turn is not None else 1
        if text.count("\n") + 1 < expected:
            return Incomplete()  # the core reads the next line, on the same clock
        return Move(text)

    def apply(self, state: CgState, moves: Mapping[int, Any]) -> CgState:
        """SET_PLAYER_OUTPUT with the player's lines, then GET_GAME_INFO."""
        assert state.turn is not None
        text = moves[state.turn.player]
        return self._exchange(state, protocol.player_output(text.split("\n")))

    def eliminate(self, state: CgState, seat: int) -> CgState:
        """SET_PLAYER_TIMEOUT if it is the seat's turn (the protocol's one way to say a player
        is out); the seat ranks last whatever the referee's scores say."""
        after = replace(state, out=state.out | {seat})
        if state.turn is not None and state.turn.player == seat:
            return self._exchange(after, protocol.SET_PLAYER_TIMEOUT)
        return after

    def outcome(self, state: CgState) -> Outcome:
        """The referee's SCORES, highest first; seats that forfeited rank last."""
        scores = state.scores or (0.0,) * state.players
        kept = [s for i, s in enumerate(scores) if i not in state.out]
        ranks = tuple(
            len(kept) if i in state.out else sum(1 for other in kept if other > s)
            for i, s in enumerate(scores)
        )
        infos = [protocol.plain(line) for line in state.last.last("INFOS")]
        reason = next((line for line in infos if line), "") or "the referee's scores"
        if state.out:
            # What a referee says after SET_PLAYER_TIMEOUT depends on whose turn it was (a
            # timeout tooltip, or whatever its game state was): the same reason for any seat.
            reason = "forfeit"
        return Outcome(ranks, tuple(scores), reason)

    def random_answer(self, state: CgState, seat: int, rng: random.Random) -> str:
        """Lines drawn from the ``random_answers`` setting (``|``-separated), for tests."""
        need = state.turn.expected_lines if state.turn is not None else 1
        return "\n".join(rng.choice(state.answers) for _ in range(need))

    def view(self, state: CgState) -> dict[str, Any]:
        """The referee's last blocks (VIEW, INFOS, SUMMARY ...), whose turn, the scores."""
        return {
            "frame": state.frames,
            "player": None if state.turn is None else state.turn.player,
            "blocks": [[name, list(lines)] for name, lines in state.last.blocks],
            "scores": None if state.scores is None else list(state.scores),
        }

    def render(self, state: CgState) -> str:
        """The referee's last VIEW and INFOS lines."""
        lines = [*state.last.last("VIEW"), *map(protocol.plain, state.last.last("INFOS"))]
        return "\n".join(lines)

    def turn_number(self, state: CgState) -> int:
        """Answers and timeouts the referee received."""
        return state.frames
