"""Reading stored replays: finding them, their per-step views, and re-simulating them.

The referee stores every step's answers (``replay.json``, see ``docs/architecture.md``)
and, compactly, every step's view (what changed since the previous one). Playing the
answers again through the game's own rules gives back every state, which is what exports
to other tools' formats and text pictures need.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from arena.errors import AnswerError, ConfigError
from arena.game import Game, Move, standing_moves
from arena.records import Replay
from arena.viewdiff import normalize, patch


@dataclass(frozen=True)
class ReplayedStep:
    """One step played again: the state before it, the actions by seat, the state after."""

    before: Any
    actions: dict[int, Any]
    after: Any


def resimulate(game: Game[Any], replay: Mapping[str, Any]) -> Iterator[ReplayedStep]:
    """Yield every step of a stored replay, re-played from its seed exactly as the referee did.

    ``step["moves"][seat]`` is the command that gave the seat's move (a line, the words of
    a token-framed command joined by spaces, or the output file), interpreted again in the
    state before the step. Forfeits are applied first; which other moves of that step
    stand is :func:`~arena.game.standing_moves`' rule, the referee's.
    """
    state = game.start(
        int(replay["seed"]), len(replay["players"]), dict(replay.get("settings", {}))
    )
    for step in replay["steps"]:
        before = state
        for seat in step.get("forfeits", {}):
            state = game.eliminate(state, int(seat))
        actions = {}
        for seat, text in step.get("moves", {}).items():
            answer = game.interpret(before, int(seat), text)
            if not isinstance(answer, Move):
                raise ValueError(f"{game.info.id}: stored move {text!r} is not a move: {answer!r}")
            actions[int(seat)] = answer.action
        actions = standing_moves(game, state, actions, bool(step.get("forfeits")))
        if actions:
            state = game.apply(state, actions)
        yield ReplayedStep(before, actions, state)


def step_views(game: Game[Any], replay: Mapping[str, Any]) -> list[Any]:
    """The view before the first step, then after each step (``len(steps) + 1`` views).

    Read from the stored patches; replays written before views were stored (format 1)
    are re-simulated instead.
    """
    if "start_view" not in replay:
        states = list(resimulate(game, replay))
        first = [game.view(states[0].before)] if states else []
        return [normalize(v) for v in first + [game.view(s.after) for s in states]]
    views = [replay["start_view"]]
    for step in replay["steps"]:
        views.append(patch(views[-1], step.get("view", [])))
    return views


def text_pictures(game: Game[Any], replay: Mapping[str, Any]) -> list[str] | None:
    """The game's text :meth:`~arena.game.Game.render` before the first step and after each,
    by re-simulation; None when it draws no text or the replay no longer plays under the
    installed rules (they changed since it was stored)."""
    try:
        steps = list(resimulate(game, replay))
        if not steps:
            return None
        pictures = [game.render(steps[0].before)] + [game.render(s.after) for s in steps]
    except (AnswerError, ValueError, KeyError, TypeError, AssertionError):
        return None
    return pictures if any(pictures) else None


def load_replay(path: Path) -> Replay:
    """Read a ``replay.json``; a missing, unreadable or other file is a :class:`ConfigError`
    naming it (and the line, for text that is not UTF-8 or not JSON)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({exc.strerror or exc})") from None
    try:
        replay = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        why = f"not UTF-8 text: byte 0x{data[exc.start]:02x}"
        raise ConfigError(f"{path} (line {line}): not a replay file ({why})") from None
    except json.JSONDecodeError as exc:
        why = f"invalid JSON: {exc.msg}"
        raise ConfigError(f"{path} (line {exc.lineno}): not a replay file ({why})") from None
    if (
        not isinstance(replay, dict)
        or not {"game", "seed", "players", "steps"} <= set(replay)
        or not isinstance(replay["game"], str)
        or not isinstance(replay["seed"], int)
        or not isinstance(replay["steps"], list)
    ):
        raise ConfigError(f"{path}: not a replay file (no game, seed, players and steps)")
    return cast(Replay, replay)  # the keys above are checked; the rest as the referee wrote


def find_replay(game: str, source: Path) -> Path:
    """The ``replay.json`` of ``game``: a path to one, or a game number in ``source``."""
    path = Path(game)
    if path.is_file():
        return path
    if path.is_dir() and (path / "replay.json").is_file():
        return path / "replay.json"
    if not game.isdigit():
        raise ConfigError(f"{game}: neither a game number nor a replay file")
    from arena.results.store import open_existing

    store = open_existing(source)
    try:
        stored = store.game(int(game))
    finally:
        store.close()
    if stored is None:
        raise ConfigError(f"{source}: no game number {game} (see `arena list {source}`)")
    return source / stored.dir / "replay.json"
