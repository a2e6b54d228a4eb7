"""Blocking rules worked out by hand: placement, listing, turn order, drop-outs, forfeits."""

from __future__ import annotations

from dataclasses import replace

import pytest

from arena import IllegalMove, Move
from arena_games.blocking.game import BlockingGame
from arena_games.blocking.rules import State, bit, draw_letters, legal_moves, new_game

GAME = BlockingGame()


def texts(state: State, seat: int) -> list[str]:
    return [p.text() for p in legal_moves(state, seat)]


def play(state: State, answer: str) -> State:
    seat = GAME.to_act(state)[0]
    move = GAME.interpret(state, seat, answer)
    assert isinstance(move, Move)
    return GAME.apply(state, {seat: move.action})


def position(players: int, owned: dict[int, list[tuple[int, int]]], left: str) -> State:
    """A hand-built position: cells per seat, every seat holding ``left``."""
    state = new_game(0, players)
    masks = [0] * players
    for seat, cells in owned.items():
        for x, y in cells:
            masks[seat] |= bit(x, y)
    return replace(state, owned=tuple(masks), remaining=(left,) * players, letters="ABCD")


def test_letters_drawn_per_player_count() -> None:
    for players, count in ((2, 18), (3, 13), (4, 10)):
        letters = draw_letters(5, players)
        assert len(letters) == count and letters.startswith("ABCD")
        assert list(letters) == sorted(set(letters))
    assert draw_letters(5, 4) == draw_letters(5, 4)
    assert len({draw_letters(seed, 4) for seed in range(20)}) > 1
    state = GAME.start(5, 4, {})
    assert state.remaining == (state.letters,) * 4


# Worked out by hand. D (#./##) numbers its squares 1 (0,0), 2 (0,1), 3 (1,1); its codes
# 00-03 give the four pictures (the transposes repeat them), and square 1 of the listed
# code names each placement: D01 (##/#.) has square 1 top right, D02 (##/.#) bottom
# right, D03 (.#/##) bottom left.
FIRST_MOVES_AD = {
    0: ["0 0 A001", "0 0 B001", "0 0 B011", "0 0 C001", "0 0 C011",
        "0 0 D001", "1 0 D011", "1 1 D021"],
    1: ["12 12 A001", "11 12 B001", "12 11 B011", "10 12 C001", "12 10 C011",
        "11 11 D001", "12 12 D021", "11 12 D031"],
    2: ["0 12 A001", "0 12 B001", "0 11 B011", "0 12 C001", "0 10 C011",
        "0 11 D001", "1 11 D011", "0 12 D031"],
    3: ["12 0 A001", "11 0 B001", "12 0 B011", "10 0 C001", "12 0 C011",
        "12 0 D011", "12 1 D021", "11 1 D031"],
}  # fmt: skip


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_first_moves_cover_own_corner(seat: int) -> None:
    state = replace(new_game(0, 4), remaining=("ABCD",) * 4)
    assert texts(state, seat) == FIRST_MOVES_AD[seat]


def test_hand_built_position_full_move_list() -> None:
    # Seat 0 holds (0, 0), seat 1 holds (2, 1); seat 0 has B and D left. Its only corner
    # cell is (1, 1): B horizontal hits (2, 1) or touches (0, 0) along a side; of the D
    # placements through (1, 1) only D00 on (1, 1)-(2, 2) and D03 on (0, 2)-(1, 1) avoid
    # (2, 1), (1, 0) and (0, 1).
    state = position(2, {0: [(0, 0)], 1: [(2, 1)]}, "BD")
    assert texts(state, 0) == ["1 1 B011", "1 1 D001", "0 2 D031"]
    # Without seat 1's square, the list grows to every placement through (1, 1).
    state = position(2, {0: [(0, 0)]}, "BD")
    assert texts(state, 0) == [
        "1 1 B001", "1 1 B011", "1 1 D001", "2 1 D011", "2 2 D021", "1 1 D031", "0 2 D031",
    ]  # fmt: skip


def test_moves_from_several_corners_listed_once() -> None:
    # Seat 0 holds (0, 0) and (2, 0): (1, 1) touches both at a corner. Listed once.
    state = position(2, {0: [(0, 0), (2, 0)]}, "A")
    assert texts(state, 0) == ["1 1 A001", "3 1 A001"]


def test_side_contact_with_own_colour_rejected() -> None:
    state = replace(position(2, {0: [(0, 0)]}, "ABCD"), current=0)
    # (1, 0)-(1, 1): meets (0, 0) at a corner through (1, 1) but along a side through (1, 0).
    with pytest.raises(IllegalMove, match="along a side"):
        GAME.interpret(state, 0, "1 0 B011")
    with pytest.raises(IllegalMove, match="at a corner"):
        GAME.interpret(state, 0, "2 0 A001")
    with pytest.raises(IllegalMove, match="occupied"):
        GAME.interpret(state, 0, "0 0 A001")
    with pytest.raises(IllegalMove, match="off the board"):
        GAME.interpret(state, 0, "12 1 B001")
    assert isinstance(GAME.interpret(state, 0, "1 1 B001"), Move)
    # Touching another colour along a side is fine.
    other = replace(position(2, {0: [(0, 0)], 1: [(2, 1)]}, "ABCD"), current=0)
    assert isinstance(GAME.interpret(other, 0, "1 1 B011"), Move)


def test_first_move_must_cover_own_corner() -> None:
    state = GAME.start(0, 4, {})
    with pytest.raises(IllegalMove, match="corner 0 0"):
        GAME.interpret(state, 0, "1 1 A001")
    with pytest.raises(IllegalMove, match="corner 0 0"):
        GAME.interpret(state, 0, "12 12 A001")  # another seat's corner


def test_each_shape_once_and_only_shapes_in_play() -> None:
    state = GAME.start(0, 2, {})
    state = play(state, "0 0 A001")
    state = play(state, "11 12 B001")
    with pytest.raises(IllegalMove, match="already played"):
        GAME.interpret(state, 0, "1 1 A001")
    missing = next(ch for ch in "EFGHIJKLMNOPQRSTU" if ch not in state.letters)
    with pytest.raises(IllegalMove, match="not in play"):
        GAME.interpret(state, 0, f"1 1 {missing}001")


@pytest.mark.parametrize("answer", ["0 0 Q001", "0 0 Q033", "0 0 Q101", "0 0 Q113"])
def test_seed_example_first_moves_with_q_are_valid(answer: str) -> None:
    # The seed: "For a first move with Q, player 0 can say: 0 0 Q001 or 0 0 Q033 or
    # 0 0 Q101 or 0 0 Q113."
    state = replace(GAME.start(0, 2, {}), letters="ABCDQ", remaining=("ABCDQ",) * 2)
    assert isinstance(GAME.interpret(state, 0, answer), Move)


def test_seed_example_q001_and_q113_give_the_same_board() -> None:
    state = replace(GAME.start(0, 2, {}), letters="ABCDQ", remaining=("ABCDQ",) * 2)
    boards = [play(state, answer).owned for answer in ("0 0 Q001", "0 0 Q113")]
    t_at_corner = bit(0, 0) | bit(1, 0) | bit(2, 0) | bit(1, 1) | bit(1, 2)
    assert boards[0] == boards[1] == (t_at_corner, 0)
    # Q033 and Q101 cover the T turned the other way; listed as square 1 of Q03.
    for answer in ("0 0 Q033", "0 0 Q101"):
        placement = GAME.interpret(state, 0, answer).action.placement
        assert placement.text() == "0 2 Q031"
    assert "0 0 Q001" in texts(state, 0) and "0 2 Q031" in texts(state, 0)
    # Any code and square naming the same cells is accepted; other cells are not.
    for answer in ("1 2 Q005", "2 0 Q111", "1 1 Q114"):
        assert GAME.interpret(state, 0, answer).action.placement.text() == "0 0 Q001"
    with pytest.raises(IllegalMove, match="off the board"):
        GAME.interpret(state, 0, "0 0 Q003")


def test_four_player_turn_order() -> None:
    state = GAME.start(0, 4, {})
    order = []
    for answer in ["0 0 A001", "12 12 A001", "0 12 A001", "12 0 A001", "1 1 B001"]:
        order.append(GAME.to_act(state)[0])
        state = play(state, answer)
    assert order == [0, 1, 2, 3, 0]
    assert GAME.to_act(state) == (1,)


def test_three_player_turn_order_and_a_to_d_first() -> None:
    state = replace(GAME.start(0, 3, {}), letters="ABCDE", remaining=("ABCDE",) * 3)
    assert {t.split()[2][0] for t in texts(state, 0)} == set("ABCD")
    with pytest.raises(IllegalMove, match="3-player"):
        GAME.interpret(state, 0, "0 0 E011")
    state = play(state, "0 0 C001")
    assert GAME.to_act(state) == (1,)
    with pytest.raises(IllegalMove, match="3-player"):
        GAME.interpret(state, 1, "12 9 E011")
    state = play(state, "11 11 D001")
    assert GAME.to_act(state) == (2,)
    assert "0 9 E011" in texts(state, 2)  # seat 2 may open with any shape
    state = play(state, "0 9 E011")
    assert GAME.to_act(state) == (0,)
    assert "3 1 E001" in texts(state, 0)  # the rule binds the first move only
    # In 4-player games seat 0 may open with E.
    four = replace(GAME.start(0, 4, {}), letters="ABCDE", remaining=("ABCDE",) * 4)
    assert isinstance(GAME.interpret(four, 0, "0 0 E011"), Move)


def test_drop_out_and_end_of_game() -> None:
    state = replace(position(2, {0: [(0, 0)], 1: [(12, 12)]}, "AB"), current=0)
    state = replace(state, remaining=("AB", ""))  # seat 1 has nothing left to play
    state = play(state, "1 1 B001")
    assert state.out == (False, True)
    assert GAME.to_act(state) == (0,)  # seat 1 is skipped from now on
    assert GAME.prompt(state, 0).splitlines()[13] == "0"  # nobody else moved
    state = play(state, "3 2 A001")
    assert GAME.to_act(state) == ()
    assert state.out == (True, True)
    outcome = GAME.outcome(state)
    assert outcome.scores == (4.0, 1.0)
    assert outcome.ranks == (0, 1)
    assert outcome.reason == "nobody can move"


def test_blocked_player_drops_out() -> None:
    # Seat 1 holds only A at (12, 12); seat 0 covers both free corner cells of (12, 12)'s
    # diagonal neighbour (11, 11): seat 1 cannot move and is never asked again.
    state = replace(
        position(2, {0: [(10, 10)], 1: [(12, 12)]}, "A"), remaining=("AB", "A"), current=0
    )
    state = play(state, "11 11 A001")
    assert state.out == (False, True)
    assert GAME.to_act(state) == (0,)


def test_equal_scores_share_a_rank() -> None:
    state = replace(
        position(3, {0: [(0, 0)], 1: [(12, 12)], 2: [(0, 12), (1, 11)]}, ""), current=None
    )
    assert GAME.outcome(state).ranks == (1, 1, 0)


def test_forfeit_in_two_player_game_ends_it() -> None:
    state = play(GAME.start(0, 2, {}), "0 0 B001")
    state = GAME.eliminate(state, 1)
    assert GAME.to_act(state) == ()
    outcome = GAME.outcome(state)
    assert outcome.ranks == (0, 1)
    assert outcome.reason == "forfeit"


def test_forfeit_in_four_player_game_play_goes_on_for_the_others() -> None:
    state = GAME.start(0, 4, {})
    for answer in ["0 0 B011", "12 12 A001", "0 10 C011", "12 0 A001", "1 2 A001"]:
        state = play(state, answer)
    state = GAME.eliminate(state, 1)  # seat 1 forfeits on its own turn
    assert GAME.to_act(state) == (2,)
    state = play(state, "1 9 A001")
    state = GAME.eliminate(state, 0)  # seat 0 forfeits out of turn (e.g. its process died)
    assert GAME.to_act(state) == (3,)
    state = play(state, "10 1 B001")
    assert GAME.to_act(state) == (2,)  # seats 0 and 1 are never asked again
    state = GAME.eliminate(state, 3)
    assert GAME.to_act(state) == ()  # one seat left: every rank is decided
    outcome = GAME.outcome(state)
    assert outcome.scores == (3.0, 1.0, 4.0, 3.0)
    assert outcome.ranks == (1, 1, 0, 1)
    assert outcome.reason == "forfeit"


def test_forfeited_seat_ranks_last_whatever_its_score() -> None:
    state = position(4, {0: [(0, 0)], 1: [(12, 12), (11, 11)], 2: [(0, 12), (1, 11), (2, 10)],
                         3: [(12, 0), (11, 1)]}, "")  # fmt: skip
    state = replace(GAME.eliminate(replace(state, current=0), 2), current=None)
    assert GAME.outcome(state).ranks == (2, 0, 3, 0)
