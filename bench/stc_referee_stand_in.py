"""A Smash The Code referee speaking cg-brutaltester's protocol, built on arena's own rules.

A stand-in for CodinGame's Java referee, to check ``bench/stc_java_referee.py`` (its relay
and its same-games check) where Java or the referee is missing. It measures nothing:

    python3 bench/stc_java_referee.py --referee "python3 bench/stc_referee_stand_in.py"

The subset of the protocol the relay uses (``examples/cg-referee/sticks_referee.py`` has
the whole engine): ``[[INIT] n]`` with the player count and ``seed=S``; each
``[[GET_GAME_INFO] 0]`` is answered with a ``VIEW``, then the next player's
``NEXT_PLAYER_INPUT`` and ``NEXT_PLAYER_INFO`` (player, lines expected, ms), or at the end
``UINPUT`` and ``SCORES``. Both players' inputs of a turn come from the state before it and
the turn is played once both answered, as the Java referee does for this simultaneous game.
"""

from __future__ import annotations

import re
import sys

from arena import Move
from arena.plugins.registry import load_registry

HEADER = re.compile(r"\[\[(?P<cmd>.+)\] ?(?P<count>[0-9]+)\]")


def block(command: str, lines: list[str]) -> None:
    """One message: its header and lines."""
    sys.stdout.write("\n".join([f"[[{command}] {len(lines)}]", *lines]) + "\n")
    sys.stdout.flush()


def main() -> None:
    """Play one game over stdin and stdout."""
    game = load_registry().create("stc")
    state = None
    seed = 0
    turn_inputs: dict[int, str] = {}
    actions: dict[int, object] = {}
    player = 0
    frame = 0
    for line in sys.stdin:
        match = HEADER.fullmatch(line.rstrip("\n"))
        if match is None:
            raise SystemExit(f"not a header: {line!r}")
        command, count = match["cmd"], int(match["count"])
        lines = [sys.stdin.readline().rstrip("\n") for _ in range(count)]
        if command == "INIT":
            params = dict(item.partition("=")[::2] for item in lines[1:])
            seed = int(params.get("seed", "0"))
            state = game.start(seed, int(lines[0]), dict(game.info.settings))
        elif command == "GET_GAME_INFO":
            assert state is not None
            block("VIEW", [f"KEY_FRAME {frame}"])
            if not game.to_act(state):
                scores = game.outcome(state).scores
                block("UINPUT", [f"seed={seed}"])
                block("SCORES", [f"{i} {int(score)}" for i, score in enumerate(scores)])
                return
            if player == 0:  # a new turn: both inputs from the state before it
                turn_inputs = {seat: game.prompt(state, seat) for seat in (0, 1)}
            block("NEXT_PLAYER_INPUT", turn_inputs[player].splitlines())
            block("NEXT_PLAYER_INFO", [str(player), "1", "1000" if frame < 2 else "100"])
        elif command == "SET_PLAYER_OUTPUT":
            assert state is not None
            frame += 1
            answer = game.interpret(state, player, lines[0])
            assert isinstance(answer, Move), answer
            actions[player] = answer.action
            player += 1
            if player == 2:
                state = game.apply(state, actions)
                actions, player = {}, 0


if __name__ == "__main__":
    main()
