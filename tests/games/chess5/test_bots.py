"""chess5 bots run as real processes on real server files and answer legal moves."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arena_games.chess5 import rules, state_json
from arena_games.chess5.game import Chess5Game
from arena_games.chess5.rules import BLACK, WHITE, Action, board_from_rows
from support import REPO

ROOT = REPO
FIXTURES = ROOT / "tests" / "fixtures" / "chess5"
BOTS = ["random_bot", "greedy", "tactician", "tactician2"]
STATE_FILES = [
    "server-state-play.json",
    "server-state-play-turn23.json",
    "server-state-setup-blocked.json",
]


def run_bot(bot: str, state_text: str, folder: Path) -> str:
    """Run ``python3 bots/chess5/<bot>.py <folder>/state.json`` in ``folder``; move.json text."""
    (folder / "state.json").write_text(state_text)
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bots" / "chess5" / f"{bot}.py"), str(folder / "state.json")],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""
    extra = {p.name for p in folder.iterdir()} - {"state.json", "move.json"}
    assert len(extra) <= 1
    for name in extra:
        assert (folder / name).stat().st_size < 10 * 1024 * 1024
    return (folder / "move.json").read_text()


@pytest.mark.parametrize("bot", BOTS)
@pytest.mark.parametrize("name", STATE_FILES)
def test_bot_answers_real_server_state_legally(bot: str, name: str, tmp_path: Path) -> None:
    shutil.copy(FIXTURES / name, tmp_path / "state.json")
    text = (tmp_path / "state.json").read_text()
    answer = run_bot(bot, text, tmp_path)
    state = state_json.state_from_json(text)
    move = Chess5Game().interpret(state, WHITE, answer)  # raises unless legal
    if bot != "random_bot" and name == "server-state-play.json":
        # The white rook on (1, 0) sees the black king on (4, 0) down an open file.
        assert (move.action.frm, move.action.to) == ((1, 0), (4, 0))


def setup_state() -> rules.State:
    """Black's second call of setup step 4."""
    state = rules.new_game(2)
    for action in [
        Action((0, 2)),
        Action((4, 2)),
        Action((3, 2)),
        Action((1, 2)),
        Action((0, 0), (0, 2)),
        Action((4, 0), (0, 2)),
        Action((0, 4), (0, 2)),
        Action((4, 4), (0, 2)),
        Action((1, 0), (0, 4)),
        Action((3, 0), (0, 3)),
        Action((0, 1), (0, 3)),
    ]:
        state = rules.apply(state, action)
    assert (state.to_move, state.setup_step) == (BLACK, 4)
    return state


def fogged_state() -> rules.State:
    """Black to move under white's fog, with a capture in sight."""
    board = board_from_rows(["K....", ".R.B.", ".....", "..p..", "r..k."])
    return rules.apply(rules.play_position(board), Action((2, 1), (1, 1), "fog"))


@pytest.mark.parametrize("bot", BOTS)
def test_bot_answers_setup_and_fog_legally(bot: str, tmp_path: Path) -> None:
    game = Chess5Game()
    for state in (setup_state(), fogged_state()):
        answer = run_bot(bot, game.prompt(state, state.to_move), tmp_path)
        game.interpret(state, state.to_move, answer)


def ghost_states() -> tuple[rules.State, rules.State]:
    """Black to move twice: first in clear sight of a shielded white bishop that its pawn
    attacks, then under fog after the bishop left (its old square shows as fog)."""
    board = board_from_rows(["K....", "....B", ".....", "..p..", "...kr"])
    seen = rules.apply(rules.play_position(board), Action((2, 3), (1, 4), "shield", (2, 3)))
    moved = rules.apply(seen, Action((4, 2), (4, 3)))
    fogged = rules.apply(moved, Action((1, 4), (2, 3), "fog"))
    return seen, fogged


def test_tactician2_never_captures_a_piece_it_only_remembers(tmp_path: Path) -> None:
    """Under fog the pawn's diagonal shows as fog: the bishop it remembers there has left.

    (The tactician fills fog from memory and captures the ghost: an illegal move.)
    """
    game = Chess5Game()
    seen, fogged = ghost_states()
    run_bot("tactician2", game.prompt(seen, BLACK), tmp_path)  # remembers the clear board
    assert '"fog"' in game.prompt(fogged, BLACK)
    answer = run_bot("tactician2", game.prompt(fogged, BLACK), tmp_path)
    move = game.interpret(fogged, BLACK, answer)  # raises if illegal
    assert move.action.to != (2, 3)
