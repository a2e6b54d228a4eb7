"""The protocol of CodinGame's original referees, as cg-brutaltester speaks it: pure text.

Every message is a header ``[[COMMAND] n]`` followed by n lines. The arena side sends
INIT, GET_GAME_INFO, SET_PLAYER_OUTPUT and SET_PLAYER_TIMEOUT; the referee answers
GET_GAME_INFO with blocks (VIEW, INFOS, SUMMARY, TOOLTIP, ...) ending either in
NEXT_PLAYER_INPUT + NEXT_PLAYER_INFO (a player's turn) or in SCORES (the end). This
module builds what is sent and reads what comes back from a line source; the process
itself belongs to the core (:class:`arena.ExternalProcess`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from arena import ExternalProcessError

HEADER = re.compile(r"\[\[(.+)\] ?([0-9]+)\]")
"""A block header, as the original referees match it (``[[NEXT_PLAYER_INFO] 3]``)."""
MAX_BLOCK_LINES = 1_000_000
MAX_BLOCKS = 10_000
"""Blocks one answer may hold before the referee is taken to be broken."""
COLOR = re.compile(r"¤[A-Z]+¤|§[A-Z]+§")
"""The colour markers of INFOS lines (``¤RED¤text§RED§``)."""


def command(name: str, lines: Sequence[str] = ()) -> str:
    """The text of one message: ``[[name] n]`` then its n lines, each ending in a newline."""
    return "".join(f"{line}\n" for line in [f"[[{name}] {len(lines)}]", *lines])


def init_message(players: int, params: Mapping[str, str]) -> str:
    """``[[INIT] n]``: the player count, then one ``key=value`` line per parameter."""
    return command("INIT", [str(players), *(f"{k}={v}" for k, v in params.items())])


GET_GAME_INFO = command("GET_GAME_INFO")
SET_PLAYER_TIMEOUT = command("SET_PLAYER_TIMEOUT")


def player_output(lines: Sequence[str]) -> str:
    """``[[SET_PLAYER_OUTPUT] n]`` with the player's n lines."""
    return command("SET_PLAYER_OUTPUT", lines)


@dataclass(frozen=True)
class Turn:
    """A player's turn as the referee asks for it."""

    player: int
    input_lines: tuple[str, ...]
    expected_lines: int
    ms: int


@dataclass(frozen=True)
class Response:
    """What the referee wrote after GET_GAME_INFO: its blocks, then a turn or the scores."""

    blocks: tuple[tuple[str, tuple[str, ...]], ...] = ()
    turn: Turn | None = None
    scores: dict[int, float] = field(default_factory=dict)

    def last(self, name: str) -> tuple[str, ...]:
        """The lines of the last block called ``name`` (empty if none)."""
        for block, lines in reversed(self.blocks):
            if block == name:
                return lines
        return ()


def _int(text: str, what: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise ExternalProcessError(f"referee: {what} is not a whole number: {text!r}") from None


def read_response(read_line: Callable[[], str], players: int) -> Response:
    """Read blocks until NEXT_PLAYER_INFO (a turn) or SCORES (the end).

    Raises :class:`arena.ExternalProcessError` for anything that is not the protocol.
    """
    blocks: list[tuple[str, tuple[str, ...]]] = []
    pending_input: tuple[str, ...] = ()
    for _ in range(MAX_BLOCKS):
        header = read_line()
        match = HEADER.fullmatch(header)
        if match is None:
            raise ExternalProcessError(f"referee: expected a [[COMMAND] n] header, got {header!r}")
        name, count = match[1], int(match[2])
        if count > MAX_BLOCK_LINES:
            raise ExternalProcessError(f"referee: a {name} block of {count} lines")
        lines = tuple(read_line() for _ in range(count))
        blocks.append((name, lines))
        if name == "NEXT_PLAYER_INPUT":
            pending_input = lines
        elif name == "NEXT_PLAYER_INFO":
            if count < 3:
                raise ExternalProcessError(f"referee: NEXT_PLAYER_INFO has {count} lines, not 3")
            player = _int(lines[0], "NEXT_PLAYER_INFO's player")
            expected = _int(lines[1], "NEXT_PLAYER_INFO's line count")
            ms = _int(lines[2], "NEXT_PLAYER_INFO's time")
            if not 0 <= player < players:
                raise ExternalProcessError(f"referee: asks player {player} of {players}")
            if expected < 1 or ms < 1:
                raise ExternalProcessError(
                    f"referee: asks for {expected} lines in {ms} ms (at least 1 and 1)"
                )
            turn = Turn(player, pending_input, expected, ms)
            return Response(tuple(blocks), turn=turn)
        elif name == "SCORES":
            scores: dict[int, float] = {}
            for line in lines:
                parts = line.split()
                try:
                    seat, score = int(parts[0]), float(parts[1])
                except (IndexError, ValueError):
                    raise ExternalProcessError(f"referee: bad SCORES line {line!r}") from None
                if not 0 <= seat < players:
                    raise ExternalProcessError(f"referee: SCORES for player {seat} of {players}")
                scores[seat] = score
            return Response(tuple(blocks), scores=scores)
    raise ExternalProcessError(f"referee: {MAX_BLOCKS} blocks without a turn or the scores")


def plain(line: str) -> str:
    """An INFOS or SUMMARY line without its colour markers."""
    return COLOR.sub("", line).strip()
