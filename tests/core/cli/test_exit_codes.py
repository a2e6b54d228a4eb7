"""``arena run`` and ``arena check`` map a run's summary to an exit code in one place
(:func:`arena.cli.common.run_exit_code`): the codes docs/cli.md lists, in their order."""

from __future__ import annotations

import signal
from typing import Any

import pytest

from arena.cli.common import run_exit_code
from arena.errors import (
    EXIT_FAILED,
    EXIT_GIVEN_UP,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    EXIT_VERDICT_FAILED,
    EXIT_VERDICT_INCONCLUSIVE,
)
from arena.tournament.run import RunSummary


def summary(**fields: Any) -> RunSummary:
    """A run's summary: 4 games played, none resumed, the fields given on top."""
    base: dict[str, Any] = {"played": 4, "resumed": 0, "failed": 0, "interrupted": False}
    return RunSummary(leaderboard=None, **(base | fields))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({}, EXIT_OK),
        ({"interrupted": True, "stop_signal": signal.SIGTERM}, 128 + 15),
        ({"interrupted": True}, EXIT_INTERRUPTED),
        ({"changed": "greedy.py changed", "failed": 1}, EXIT_USAGE),
        ({"failed": 1, "abandoned": 1}, EXIT_FAILED),
        ({"abandoned": 2}, EXIT_GIVEN_UP),
    ],
)
def test_a_runs_summary_gives_the_first_code_that_applies(fields, code, capsys):
    assert run_exit_code(summary(**fields)) == code


def test_the_reasons_that_no_output_shows_are_said_on_stderr(capsys):
    assert run_exit_code(summary(changed="bots/a.py changed during the run")) == EXIT_USAGE
    assert capsys.readouterr().err == "arena: bots/a.py changed during the run\n"
    assert run_exit_code(summary(abandoned=2)) == EXIT_GIVEN_UP == 3
    assert capsys.readouterr().err == (
        "arena: 2 game(s) given up after stalling at every replay, not stored (exit code 3);"
        " run the same command again to play them\n"
    )


def test_a_checks_verdict_is_its_code_unless_the_run_broke_or_games_given_up_leave_it_open():
    assert run_exit_code(summary(), EXIT_VERDICT_FAILED, given_up_counts=False) == 4
    # A clear verdict holds though games were given up: they could not have changed it.
    assert run_exit_code(summary(abandoned=1), EXIT_OK, given_up_counts=False) == EXIT_OK
    assert run_exit_code(summary(abandoned=1), EXIT_VERDICT_INCONCLUSIVE) == EXIT_GIVEN_UP
    assert run_exit_code(summary(), EXIT_VERDICT_INCONCLUSIVE) == 5
    assert run_exit_code(summary(failed=2), EXIT_VERDICT_FAILED) == EXIT_FAILED
