"""A bare cg-brutaltester relay: one game through a CodinGame-style referee process.

What cg-brutaltester's loop does and nothing more: ``[[INIT]]`` with the players and
parameters, then ``[[GET_GAME_INFO]]``, forward a player's input, read its lines,
``[[SET_PLAYER_OUTPUT]]``, until ``[[SCORES]]``. No clocks, sandbox, replay or storage.
Shared by ``bench/cg_referee.py`` and ``bench/stc_java_referee.py``.
"""

from __future__ import annotations

import contextlib
import re
import subprocess
from collections.abc import Sequence

HEADER = re.compile(r"\[\[(.+)\] ?([0-9]+)\]")


def relay_game(referee: Sequence[str], bot: Sequence[str], params: Sequence[str]) -> list[int]:
    """Play one 2-player game of ``bot`` against itself through ``referee``, started with
    ``params`` (``seed=5``...); return how many answers each player gave."""
    ref = subprocess.Popen(
        referee, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True,
    )  # fmt: skip
    bots = [
        subprocess.Popen(
            bot,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        for _ in range(2)
    ]
    ref_in, ref_out = ref.stdin, ref.stdout
    assert ref_in is not None and ref_out is not None
    answers = [0, 0]
    try:
        init = "".join(f"{p}\n" for p in params)
        ref_in.write(f"[[INIT] {len(params) + 1}]\n2\n{init}[[GET_GAME_INFO] 0]\n")
        ref_in.flush()
        inputs: list[str] = []
        while True:
            line = ref_out.readline()
            if not line:
                raise RuntimeError(f"the referee ended without scores ({' '.join(params)})")
            header = HEADER.fullmatch(line.rstrip("\n"))
            if header is None:
                raise RuntimeError(f"not a referee message: {line!r}")
            name, count = header[1], int(header[2])
            lines = [ref_out.readline().rstrip("\n") for _ in range(count)]
            if name == "NEXT_PLAYER_INPUT":
                inputs = lines
            elif name == "NEXT_PLAYER_INFO":
                player, expected = int(lines[0]), int(lines[1])
                answers[player] += 1
                bot_in, bot_out = bots[player].stdin, bots[player].stdout
                assert bot_in is not None and bot_out is not None
                bot_in.write("".join(f"{text}\n" for text in inputs))
                bot_in.flush()
                answer = [bot_out.readline().rstrip("\n") for _ in range(expected)]
                message = f"[[SET_PLAYER_OUTPUT] {expected}]\n" + "".join(f"{a}\n" for a in answer)
                ref_in.write(message + "[[GET_GAME_INFO] 0]\n")
                with contextlib.suppress(BrokenPipeError):  # the referee may be done
                    ref_in.flush()
            elif name == "SCORES":
                return answers
    finally:
        for proc in (ref, *bots):
            proc.kill()
            proc.wait()
