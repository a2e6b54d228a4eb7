"""A referee that dies shows its real error (a Java stack trace's exception line, not its
last ``at`` line), and a forfeit gives the same reason whichever seat it was."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import arena
from arena import ExternalProcessError
from arena.records import BotSpec
from arena.referee.engine import Referee
from arena.referee.external import error_line
from arena_games.cg_referee.game import CgRefereeGame
from support import REPO

EXAMPLE = REPO / "examples" / "cg-referee"
SMART = f"{sys.executable} {EXAMPLE / 'smart_bot.py'}"
TRACE = """\
Exception in thread "main" java.lang.NumberFormatException: For input string: "x"
\tat java.base/java.lang.NumberFormatException.forInputString(NumberFormatException.java:67)
\tat java.base/java.lang.Integer.parseInt(Integer.java:668)
\tat Referee.handleInit(Referee.java:120)
\tat Referee.main(Referee.java:41)
"""
# Reads INIT, writes a Java stack trace on stderr and closes its output with exit code 0.
DYING = f"""
import sys
sys.stdin.readline()
sys.stderr.write({TRACE!r} * 1 + "\\n".join("\\tat Frame.f%d(F.java:1)" % i for i in range(30)))
sys.stderr.flush()
"""


def test_a_dead_referee_shows_the_exception_line_of_its_stack_trace(tmp_path: Path) -> None:
    referee = tmp_path / "referee.py"
    referee.write_text(DYING)
    game = CgRefereeGame()
    settings = {**game.info.settings, "referee": f"{sys.executable} {referee}"}
    bots = [BotSpec(n, (sys.executable, str(EXAMPLE / "smart_bot.py"))) for n in "ab"]
    with pytest.raises(ExternalProcessError) as info:
        Referee(game, bots, tmp_path / "g").play(1, settings)
    assert str(info.value) == (
        'referee: closed its output (exit code 0); its stderr: Exception in thread "main" '
        'java.lang.NumberFormatException: For input string: "x"'
    )


def test_the_error_line_of_a_trace_keeps_its_last_cause() -> None:
    trace = (
        'starting\nException in thread "main" java.lang.RuntimeException: wrapped\n'
        "\tat A.b(A.java:1)\nCaused by: java.io.IOException: first\n\tat C.d(C.java:2)\n"
        'Caused by: java.lang.NumberFormatException: For input string: "2x"\n'
        "\tat E.f(E.java:3)\n\t... 4 more\n"
    )
    assert error_line(trace) == (
        'Exception in thread "main" java.lang.RuntimeException: wrapped; '
        'Caused by: java.lang.NumberFormatException: For input string: "2x"'
    )
    assert error_line("one\nreferee: simulated crash\n") == "referee: simulated crash"
    assert error_line("") == ""


@pytest.mark.parametrize("seat", [0, 1])
def test_a_forfeit_gives_the_same_reason_whichever_seat(tmp_path: Path, seat: int) -> None:
    ref = tmp_path / "ref.py"
    ref.write_text((EXAMPLE / "sticks_referee.py").read_text())
    crash = tmp_path / "crash.py"
    crash.write_text("import sys\ninput()\nsys.exit(4)\n")
    bots = [SMART, SMART]
    bots[seat] = f"{sys.executable} {crash}"
    settings = {"referee": f"{sys.executable} {ref}", "params": {"turn_ms": 2000}}
    result = arena.play("cg-referee", bots, seed=2, settings=settings, sandbox="none")
    assert result.forfeits[seat] == "crash"
    assert result.reason == "forfeit"
