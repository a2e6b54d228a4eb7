"""Who sees which seat's stderr: its owner and the organisers; a replay filtered before it
leaves the server keeps moves, messages and why a bot lost, and nothing of another's stderr."""

from __future__ import annotations

import copy
from typing import Any

from arena.contest.privacy import filter_replay, shown_seats

OWNERS = {"ada-v1": "ada", "bob-v2": "bob"}


def replay() -> dict[str, Any]:
    """Two seats (ada's and bob's), two steps; bob's bot crashes in the second."""
    return {
        "format": 2,
        "game": "stc",
        "players": ["ada-v1", "bob-v2"],
        "steps": [
            {
                "to_act": [0, 1],
                "moves": {"0": "1 0", "1": "2 1"},
                "messages": {"0": "hi", "1": "ho"},
                "forfeits": {},
                "io": {
                    "0": {"input": "x", "lines": ["1 0"], "ms": 1.0, "stderr": "ada thinks\n"},
                    "1": {"input": "y", "lines": ["2 1"], "ms": 2.0, "stderr": "bob plans\n"},
                },
            },
            {
                "to_act": [0, 1],
                "moves": {"0": "3 0", "1": ""},
                "messages": {},
                "forfeits": {
                    "1": {
                        "reason": "crash",
                        "detail": "exited with code 1; its stderr ends:\n  Traceback\n  bob's secret",
                        "raw": "",
                    }
                },
                "io": {"0": {"input": "x", "lines": ["3 0"], "ms": 1.0, "stderr": ""}},
            },
        ],
        "seats": [
            {"bot": "ada-v1", "stderr": "ada thinks\n", "detail": ""},
            {
                "bot": "bob-v2",
                "stderr": "bob plans\n",
                "detail": "exited with code 1; its stderr ends:\n  bob's secret",
            },
        ],
    }


def test_who_sees_which_seat() -> None:
    players = ["ada-v1", "bob-v2", "boss"]
    assert shown_seats(players, OWNERS.get, "ada", organiser=False) == {0}
    assert shown_seats(players, OWNERS.get, "bob", organiser=False) == {1}
    assert shown_seats(players, OWNERS.get, "carol", organiser=False) == set()
    assert shown_seats(players, OWNERS.get, None, organiser=False) == set()
    assert shown_seats(players, OWNERS.get, "ada", organiser=True) == {0, 1, 2}


def test_ada_sees_her_stderr_and_not_bobs() -> None:
    original = replay()
    filtered = filter_replay(original, {0})
    assert original == replay()  # the stored replay is left alone
    first, second = filtered["steps"]
    assert first["io"]["0"]["stderr"] == "ada thinks\n"
    assert first["io"]["1"] == {"input": "y", "lines": ["2 1"], "ms": 2.0, "stderr": ""}
    assert first["moves"] == {"0": "1 0", "1": "2 1"}
    assert first["messages"] == {"0": "hi", "1": "ho"}
    assert second["forfeits"]["1"] == {"reason": "crash", "detail": "exited with code 1", "raw": ""}
    assert filtered["seats"][0] == {"bot": "ada-v1", "stderr": "ada thinks\n", "detail": ""}
    assert filtered["seats"][1] == {"bot": "bob-v2", "stderr": "", "detail": "exited with code 1"}
    assert "secret" not in repr(filtered) and "bob plans" not in repr(filtered)


def test_everything_shown_is_the_replay_itself() -> None:
    assert filter_replay(replay(), {0, 1}) == replay()


def test_nothing_shown_leaves_no_stderr() -> None:
    filtered = filter_replay(replay(), set())
    assert "thinks" not in repr(filtered) and "secret" not in repr(filtered)
    expected = copy.deepcopy(replay())
    for step in expected["steps"]:
        for io in step["io"].values():
            io["stderr"] = ""
    expected["steps"][1]["forfeits"]["1"]["detail"] = "exited with code 1"
    for seat in expected["seats"]:
        seat["stderr"] = ""
    expected["seats"][1]["detail"] = "exited with code 1"
    assert filtered == expected
