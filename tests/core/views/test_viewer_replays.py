"""Replays hold every step's view (as patches), parsed moves and messages, and still re-simulate;
`arena list`, `arena show`, `arena view` and `arena report` read them."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from arena.plugins.registry import load_registry
from arena.viewdiff import diff, normalize, patch
from arena.views.replay import resimulate, step_views
from arena.views.viewer import viewer_html
from support import REPO, run_arena

GAMES = ("stc", "splitter", "blocking", "chess5", "cluster")

# -- view patches ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "ops"),
    [
        ({"a": 1, "b": [1, 2]}, {"a": 1, "b": [1, 3]}, [[["b", 1], 3]]),
        ({"a": 1, "b": 2}, {"a": 1}, [[["b"]]]),
        ({"l": [1]}, {"l": [1, 2, 3]}, [[["l", 1], 2], [["l", 2], 3]]),
        ({"q": [1, 2, 3, 4]}, {"q": [2, 3, 4, 5]}, [[["q"], [2, 3, 4, 5]]]),  # mostly changed
        ({"q": [1, 2, 3, 4]}, {"q": [1, 2, 9, 4]}, [[["q", 2], 9]]),
        ({"l": [1, 2]}, {"l": [True, 2, 3]}, [[["l"], [True, 2, 3]]]),
        ({"l": [1, 2, 3]}, {"l": [1]}, [[["l"], [1]]]),  # a shrinking list is replaced whole
        ({"x": 1}, {"x": True}, [[[], {"x": True}]]),  # 1 == True in Python, not in JSON
        ({"x": 1}, [1], [[[], [1]]]),
        ({"rows": ["..", ".."]}, {"rows": ["..", ".1"]}, [[["rows", 1], ".1"]]),
    ],
)
def test_a_patch_holds_only_what_changed_and_rebuilds_the_new_view(old, new, ops):
    assert diff(old, new) == ops
    assert patch(old, diff(old, new)) == new


def test_patches_rebuild_random_json_values_exactly():
    rng = random.Random(7)

    def value(depth: int) -> Any:
        kind = rng.randrange(6 if depth < 3 else 4)
        if kind == 0:
            return rng.randrange(4)
        if kind == 1:
            return rng.choice(["a", "b", ""])
        if kind == 2:
            return rng.choice([True, False, None, 1.5])
        if kind == 3:
            return rng.randrange(3)
        if kind == 4:
            return [value(depth + 1) for _ in range(rng.randrange(4))]
        return {k: value(depth + 1) for k in rng.sample("pqrs", rng.randrange(4))}

    for _ in range(2000):
        old, new = value(0), value(0)
        ops = json.loads(json.dumps(diff(old, new)))  # as stored
        assert json.dumps(patch(old, ops), sort_keys=True) == json.dumps(new, sort_keys=True)


# -- what the referee stores -------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
def test_stored_views_equal_the_views_of_the_resimulated_game(shipped_replays, game_id):
    replay = json.loads(shipped_replays[game_id].read_text())
    game = load_registry().create(game_id)
    steps = list(resimulate(game, replay))
    expected = [normalize(game.view(steps[0].before))] + [
        normalize(game.view(s.after)) for s in steps
    ]
    assert len(steps) >= 3
    assert step_views(game, replay) == expected
    assert expected[-1] == replay["final"]
    # Compact: a step stores a patch, smaller than the full views would be (least for lists
    # that shift: cluster's sorted chips, stc's pair queue).
    # What just happened (``highlight``) is new at every step: it is left out of the count.
    patches = sum(
        len(json.dumps(op))
        for s in replay["steps"]
        for op in s["view"]
        if op[0][:1] != ["highlight"]
    )
    full = sum(len(json.dumps({**v, "highlight": None})) for v in expected[1:])
    assert patches < (0.8 if game_id == "cluster" else 0.6) * full


@pytest.mark.parametrize("game_id", GAMES)
def test_each_step_stores_the_parsed_move_message_budget_and_turn(shipped_replays, game_id):
    replay = json.loads(shipped_replays[game_id].read_text())
    game = load_registry().create(game_id)
    states = list(resimulate(game, replay))
    prompted: set[str] = set()
    for step, played in zip(replay["steps"], states, strict=True):
        assert step["turn"] == game.turn_number(played.after)
        for seat, text in step["moves"].items():
            move = game.interpret(played.before, int(seat), text)
            assert step["actions"][seat] == json.loads(json.dumps(game.action_view(move.action)))
            assert step["messages"].get(seat, "") == move.message
        for seat, io in step["io"].items():
            first = seat not in prompted
            prompted.add(seat)
            assert io["budget_ms"] == game.clock_ms(played.before, int(seat), first)


def test_messages_actions_replies_and_per_turn_stderr_are_recorded(shipped_replays):
    splitter = json.loads(shipped_replays["splitter"].read_text())
    first = splitter["steps"][0]
    assert re.fullmatch(r"\d at \(\d,\d\), \d at \(\d,\d\)", first["messages"]["0"])
    assert set(first["actions"]["0"]["Placement"]) == {"n", "x", "y"}
    blocking = json.loads(shipped_replays["blocking"].read_text())
    action = blocking["steps"][0]["actions"]["0"]
    assert action["move"] == blocking["steps"][0]["moves"]["0"].strip()
    assert len(action["cells"]) >= 1
    # cluster: each query's reply is kept, keyed by the query line's index.
    cluster = json.loads(shipped_replays["cluster"].read_text())
    queried = [io for s in cluster["steps"] for io in s["io"].values() if io.get("replies")]
    assert queried
    for io in queried:
        for index, reply in io["replies"].items():
            assert io["lines"][int(index)].startswith("fetch")
            assert reply.endswith("\n")
    # chess5 starts a process per turn: each step keeps that turn's stderr.
    chess = json.loads(shipped_replays["chess5"].read_text())
    logs = [io["stderr"] for s in chess["steps"] for io in s["io"].values()]
    assert sum(1 for text in logs if text.strip()) >= len(logs) // 2
    stderr_files = "".join(p.read_text() for p in shipped_replays["chess5"].parent.glob("stderr-*"))
    assert all(text in stderr_files for text in logs)


def test_old_replays_without_views_still_get_them_by_resimulation(shipped_replays):
    replay = json.loads(shipped_replays["stc"].read_text())
    game = load_registry().create("stc")
    old = {k: v for k, v in replay.items() if k != "start_view"}
    old["steps"] = [{k: v for k, v in s.items() if k != "view"} for s in replay["steps"]]
    assert step_views(game, old) == step_views(game, replay)


# -- the command line --------------------------------------------------------------


def test_list_shows_every_game_and_filters_by_bot_and_result(tournament):
    result = run_arena("list", str(tournament))
    assert result.returncode == 0, result.stderr
    assert "6 of 6 games" in result.stdout
    assert re.search(r"greedy vs crasher\s+greedy wins\s+\S+ : \S+\s+forfeit", result.stdout)
    lost = run_arena("list", str(tournament), "--bot", "crasher", "--result", "loss")
    assert "4 of 6 games" in lost.stdout
    forfeits = run_arena("list", str(tournament), "--result", "forfeit")
    assert "4 of 6 games" in forfeits.stdout and "crasher crash" in forfeits.stdout
    won = run_arena("list", str(tournament), "--bot", "crasher", "--result", "win")
    assert "0 of 6 games" in won.stdout
    unknown = run_arena("list", str(tournament), "--bot", "nobody")
    assert unknown.returncode == 2
    assert unknown.stderr.strip() == (
        f"arena: --bot 'nobody': no such bot in {tournament} (bots: crasher, greedy, random)"
    )


def test_show_prints_each_turn_with_answer_message_time_budget_stderr_and_board(tournament):
    result = run_arena("show", "1", "--from", str(tournament))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("Smash The Code (stc), seed ")
    assert "--- start" in out and "--- step 1 (turn 1)" in out
    assert re.search(r"seat 0 \w+: [\d.]+ ms / 1000 ms > \d \d", out)  # first turn: 1000 ms
    assert re.search(r"seat 1 \w+: [\d.]+ ms / 100 ms > \d \d", out)
    assert "stderr: turn 1 " in out  # greedy logs every turn
    assert "|......|" in out  # the text board
    one = run_arena("show", "1", "--from", str(tournament), "--step", "2", "--input")
    assert "--- step 2" in one.stdout and "--- step 3" not in one.stdout
    assert "input: " in one.stdout
    bad = run_arena("show", "1", "--from", str(tournament), "--step", "999")
    assert bad.returncode == 2 and "--step 999: this game has steps 0 (the start) to" in bad.stderr
    crash = run_arena("show", "3", "--from", str(tournament))
    assert "crasher FORFEITS: crash: exited with code 3" in crash.stdout
    missing = run_arena("show", "77", "--from", str(tournament))
    assert missing.returncode == 2
    assert (
        missing.stderr.strip()
        == f"arena: {tournament}: no game number 77 (see `arena list {tournament}`)"
    )


def test_view_writes_one_self_contained_page_by_number_or_path(tournament, tmp_path):
    result = run_arena("view", "2", "--from", str(tournament), "-o", str(tmp_path / "g.html"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"viewer: {tmp_path / 'g.html'}"
    page = (tmp_path / "g.html").read_text()
    _assert_self_contained(page)
    assert "function render(view, host, ctx)" in page  # stc's own renderer
    replay = next(tournament.glob("games/*/replay.json"))
    by_path = run_arena("view", str(replay))
    assert by_path.stdout.strip() == f"viewer: {replay.with_name('viewer.html')}"
    not_a_replay = run_arena("view", str(REPO / "README.md"))
    assert not_a_replay.returncode == 2 and "not a replay file" in not_a_replay.stderr


def test_report_links_every_game_to_its_viewer_and_rewrites_only_stale_ones(tournament):
    page = (tournament / "report.html").read_text()
    _assert_self_contained(page)
    links = re.findall(r'href="(games/[^"#]+/viewer\.html)', page)
    assert len(set(links)) == 6
    assert all((tournament / link).is_file() for link in links)
    for column in ("mu-3σ", "win % [95%]", "W/D/L", "BT ±95%"):  # the printed names
        assert f">{column}</th>" in page
    again = run_arena("report", str(tournament))
    assert again.stdout.strip() == f"report: {tournament / 'report.html'} (every viewer up to date)"


def _assert_self_contained(page: str) -> None:
    """Nothing is loaded from elsewhere: no external scripts, styles, images or fonts."""
    assert not re.search(r"<(script|img|link|iframe)[^>]+(src|href)=", page)
    assert not re.search(r"url\((?!#)", page)
    assert "@import" not in page and "fetch(" not in page


def test_a_game_without_a_renderer_falls_back_to_its_text_render():
    from support.toygame import ToyGame

    class TextToy(ToyGame):
        def view(self, state: Any) -> dict[str, Any]:
            return {"scores": list(state.scores)}

        def render(self, state: Any) -> str:
            return f"scores {state.scores}"

    replay = {
        "game": "toy", "seed": 1, "settings": {"turns": 2, "simultaneous": True},
        "players": ["a"], "steps": [
            {"to_act": [0], "moves": {"0": "4"}, "forfeits": {}, "io": {}},
            {"to_act": [0], "moves": {"0": "5"}, "forfeits": {}, "io": {}},
        ],
    }  # fmt: skip
    page = viewer_html(TextToy(), replay)
    assert "function render" not in page
    import base64
    import gzip

    data = re.search(r'id="arena-data">([^<]+)<', page).group(1)
    decoded = json.loads(gzip.decompress(base64.b64decode(data)))
    assert decoded["text"] == ["scores (0,)", "scores (4,)", "scores (9,)"]
    assert [s["view"] for s in decoded["replay"]["steps"]] == [
        [[["scores", 0], 4]],
        [[["scores", 0], 9]],
    ]
