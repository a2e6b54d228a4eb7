"""5x5 ability chess rules, worked out by hand: moves, setup, abilities, game end."""

from __future__ import annotations

from dataclasses import replace

import pytest

from arena_games.chess5 import rules
from arena_games.chess5.rules import BLACK, WHITE, Action, RuleError, State, board_from_rows


def dests(board: rules.Board, sq: tuple[int, int], shielded: tuple[int, int] | None = None) -> set:
    """Destination squares of the piece on ``sq``."""
    piece = rules.at(board, sq)
    assert piece is not None
    moves = rules.pseudo_moves(board, rules.color_of(piece), shielded)
    return {to for frm, to in moves if frm == sq}


# ---------------------------------------------------------------- piece moves


def test_rook_slides_until_blocked_and_captures() -> None:
    board = board_from_rows([".....", ".....", "..R.P", ".....", "..p.."])
    assert dests(board, (2, 2)) == {(1, 2), (0, 2), (3, 2), (4, 2), (2, 1), (2, 0), (2, 3)}


def test_bishop_slides_diagonally() -> None:
    board = board_from_rows([".....", ".P...", "..B..", "...r.", "....."])
    assert dests(board, (2, 2)) == {(1, 3), (0, 4), (3, 1), (4, 0), (3, 3)}


def test_queen_combines_rook_and_bishop() -> None:
    board = board_from_rows(["Q....", ".....", "..b..", ".....", "....."])
    expected = {(0, 1), (0, 2), (0, 3), (0, 4), (1, 0), (2, 0), (3, 0), (4, 0), (1, 1), (2, 2)}
    assert dests(board, (0, 0)) == expected


def test_king_steps_one_square() -> None:
    board = board_from_rows([".....", ".P...", "..K..", "...p.", "....."])
    expected = {(1, 2), (1, 3), (2, 1), (2, 3), (3, 1), (3, 2), (3, 3)}
    assert dests(board, (2, 2)) == expected
    corner = board_from_rows(["K....", ".....", ".....", ".....", "....."])
    assert dests(corner, (0, 0)) == {(0, 1), (1, 0), (1, 1)}


def test_white_pawn_steps_down_and_captures_diagonally_forward() -> None:
    board = board_from_rows([".....", "..P..", ".p.B.", ".....", "....."])
    assert dests(board, (1, 2)) == {(2, 2), (2, 1)}  # (2,3) holds a white piece


def test_pawn_blocked_by_any_piece_in_front_and_no_double_step() -> None:
    board = board_from_rows(["P.P..", "..p..", ".....", ".....", "....."])
    assert dests(board, (0, 0)) == {(1, 0)}  # one step only, even from the back row
    assert dests(board, (0, 2)) == set()  # an enemy in front blocks, no straight capture


def test_black_pawn_moves_up_the_board() -> None:
    board = board_from_rows([".....", ".....", "R....", ".p...", "....."])
    assert dests(board, (3, 1)) == {(2, 1), (2, 0)}
    assert dests(board, (3, 1), shielded=(2, 0)) == {(2, 1)}


def test_promotion_to_queen_on_the_far_row() -> None:
    board = board_from_rows(["K....", "....p", ".....", "P....", "..k.."])
    state = rules.play_position(board)
    after = rules.apply(state, Action((4, 0), (3, 0)))
    assert rules.at(after.board, (4, 0)) == "WQ"
    after = rules.apply(after, Action((0, 4), (1, 4)))
    assert rules.at(after.board, (0, 4)) == "BQ"


def test_capture_promotion() -> None:
    board = board_from_rows(["K....", ".....", ".....", "P....", ".r..k"])
    after = rules.apply(rules.play_position(board), Action((4, 1), (3, 0)))
    assert rules.at(after.board, (4, 1)) == "WQ"
    assert rules.at(after.board, (3, 0)) is None


def test_king_may_move_into_check() -> None:
    board = board_from_rows(["K....", ".....", ".r...", ".....", "....k"])
    state = rules.play_position(board)
    assert ((0, 0), (0, 1)) in rules.legal_moves(state)  # attacked by the rook on column 1


def test_moving_an_opponent_piece_or_from_an_empty_square_is_illegal() -> None:
    board = board_from_rows(["K....", ".....", ".....", ".....", "....k"])
    state = rules.play_position(board)
    with pytest.raises(RuleError):
        rules.check(state, Action((3, 4), (4, 4)))
    with pytest.raises(RuleError):
        rules.check(state, Action((2, 2), (2, 1)))
    with pytest.raises(RuleError):
        rules.check(state, Action((0, 5), (0, 4)))
    with pytest.raises(RuleError):
        rules.check(state, Action((0, 0)))  # no `from` in play


# ---------------------------------------------------------------- setup


def place(state: State, *actions: Action) -> State:
    """Apply setup actions in turn."""
    for action in actions:
        state = rules.apply(state, action)
    return state


def test_setup_order_white_first_in_every_step() -> None:
    order = [(rules.COLOR_NAMES[c], step) for c, step in rules.SETUP_ORDER]
    assert order[:4] == [("white", 1), ("black", 1), ("white", 2), ("black", 2)]
    assert order[4:8] == [("white", 3), ("black", 3)] * 2
    assert order[8:] == [("white", 4), ("black", 4)] * 5


def test_step1_king_in_own_back_two_rows() -> None:
    state = rules.new_game(1)
    assert (state.to_move, state.setup_step) == (WHITE, 1)
    rules.check(state, Action((1, 4)))
    rules.check(state, Action((0, 2), (0, 0)))  # `from` [0, 0] names the king
    for bad in (Action((2, 2)), Action((3, 0)), Action((5, 0))):
        with pytest.raises(RuleError):
            rules.check(state, bad)
    state = rules.apply(state, Action((0, 2)))
    assert rules.at(state.board, (0, 2)) == "WK"
    assert (state.to_move, state.setup_step) == (BLACK, 1)
    with pytest.raises(RuleError):
        rules.check(state, Action((1, 2)))  # black's rows are 3-4
    rules.check(state, Action((3, 2)))


def test_from_is_read_only_in_step_4() -> None:
    # The real server placed the king for a step-1 answer `from: [0, 3]` (a bishop's code)
    # and never reads `from` before step 4 (fixtures/chess5/server-match-log-2.json, -3).
    state = rules.apply(rules.new_game(1), Action((0, 2), (0, 3)))
    assert rules.at(state.board, (0, 2)) == "WK"
    state = rules.apply(state, Action((4, 2), (4, 4)))  # any `from`, even not a type code
    assert rules.at(state.board, (4, 2)) == "BK"
    state = place(state, Action((3, 2), (0, 3)), Action((1, 2), (0, 0)))  # blocks
    state = rules.apply(state, Action((0, 0), (0, 3)))  # step 3: a rook whatever `from` says
    assert rules.at(state.board, (0, 0)) == "WR"


def test_step2_blocks_are_accepted_anywhere_on_the_board() -> None:
    # The server accepted every block of its logged setups; arena accepts any square of
    # the board, and lists it in blockedTiles until play starts.
    kings = place(rules.new_game(1), Action((0, 2)), Action((4, 2)))
    assert kings.setup_step == 2
    for square in [(3, 2), (4, 2), (1, 1), (2, 4), (0, 2)]:  # free, the king, own rows, ...
        rules.check(kings, Action(square))
    with pytest.raises(RuleError):
        rules.check(kings, Action((5, 2)))  # off the board
    state = rules.apply(kings, Action((4, 2)))  # on the black king: accepted, no effect
    assert state.blocked == ((4, 2),) and rules.at(state.board, (4, 2)) == "BK"
    state = rules.apply(state, Action((3, 3)))  # black blocks a square of its own rows
    assert state.blocked == ((4, 2), (3, 3))
    assert (state.to_move, state.setup_step) == (WHITE, 3)
    state = rules.apply(state, Action((0, 0)))
    state = rules.apply(state, Action((3, 3)))  # its own block does not bind black either
    assert rules.at(state.board, (3, 3)) == "BR"


def test_step2_blocks_offered_to_bots_are_the_opponents_free_squares() -> None:
    state = place(rules.new_game(1), Action((0, 2)), Action((4, 2)))
    assert rules.setup_targets(state) == [
        (r, c) for r in (3, 4) for c in range(5) if (r, c) != (4, 2)
    ]
    state = rules.apply(state, Action((3, 2)))
    assert state.blocked == ((3, 2),)
    assert (3, 2) not in rules.setup_targets(state)  # not offered twice
    state = rules.apply(state, Action((1, 2)))
    assert state.blocked == ((3, 2), (1, 2))
    assert (state.to_move, state.setup_step) == (WHITE, 3)


def test_step3_rooks_one_per_call_alternating() -> None:
    state = place(rules.new_game(1), Action((0, 2)), Action((4, 2)), Action((3, 2)), Action((1, 2)))
    with pytest.raises(RuleError):
        rules.check(state, Action((0, 2)))  # own king there
    with pytest.raises(RuleError):
        rules.check(state, Action((3, 0)))  # not white's rows
    state = rules.apply(state, Action((0, 0), (0, 2)))
    assert rules.at(state.board, (0, 0)) == "WR"
    assert (state.to_move, state.setup_step) == (BLACK, 3)
    with pytest.raises(RuleError):
        rules.check(state, Action((0, 1)))  # not black's rows
    state = place(state, Action((4, 0)), Action((0, 4)), Action((4, 4)))
    assert (state.to_move, state.setup_step) == (WHITE, 4)


# RULINGS, chess5, blocked squares (corrected 2026-11-26): the real server reports the
# blocks in blockedTiles during setup but refuses no placement on a blocked square
# (fixtures: server-match-log-3.json, server-state-setup-blocked.json).
BLOCKS = [Action((0, 2)), Action((4, 2)), Action((3, 2)), Action((1, 2))]  # kings, blocks


def test_a_rook_may_be_placed_on_a_blocked_square() -> None:
    state = place(rules.new_game(1), *BLOCKS)
    assert state.blocked == ((3, 2), (1, 2))
    state = rules.apply(state, Action((1, 2)))  # white's rook on black's block
    assert rules.at(state.board, (1, 2)) == "WR"
    state = rules.apply(state, Action((3, 2)))  # black's rook on white's block
    assert rules.at(state.board, (3, 2)) == "BR"
    assert state.blocked == ((3, 2), (1, 2))  # still reported until play starts


@pytest.mark.parametrize("code, piece", [((0, 3), "B"), ((0, 4), "P")])
def test_a_bishop_or_pawn_may_be_placed_on_a_blocked_square(
    code: tuple[int, int], piece: str
) -> None:
    rooks = [Action((0, 0)), Action((4, 0)), Action((0, 4)), Action((4, 4))]
    state = place(rules.new_game(1), *BLOCKS, *rooks)
    assert state.setup_step == 4
    state = rules.apply(state, Action((1, 2), code))
    assert rules.at(state.board, (1, 2)) == "W" + piece
    state = rules.apply(state, Action((3, 2), code))
    assert rules.at(state.board, (3, 2)) == "B" + piece
    if piece == "P":
        assert state.pawn_homes == (((1, 2),), ((3, 2),))


def test_blocked_squares_are_among_the_legal_setup_actions() -> None:
    state = place(rules.new_game(1), *BLOCKS)
    assert Action((1, 2)) in rules.legal_actions(state)
    assert (1, 2) in rules.setup_targets(state)


def test_a_game_goes_on_with_pieces_standing_on_blocks() -> None:
    # A white pawn stands on black's block (1, 2), a black bishop on white's block (3, 2);
    # play starts, and pieces move off and onto the squares that were blocked.
    setup = [
        *BLOCKS,
        Action((0, 0)),
        Action((4, 0)),
        Action((0, 4)),
        Action((4, 4)),
        Action((1, 2), (0, 4)),  # white pawn on black's block
        Action((3, 2), (0, 3)),  # black bishop on white's block
        Action((0, 1), (0, 3)),
        Action((4, 1), (0, 3)),
        Action((0, 3), (0, 3)),
        Action((3, 0), (0, 4)),
        Action((1, 0), (0, 4)),
        Action((3, 1), (0, 4)),
        Action((1, 1), (0, 4)),
        Action((3, 3), (0, 4)),
    ]
    state = place(rules.new_game(1), *setup)
    assert not state.in_setup and not state.over
    assert state.blocked == ()  # blocks only bind setup
    assert rules.board_rows(state.board)[1][2] == "WP"
    assert rules.board_rows(state.board)[3][2] == "BB"
    state = rules.apply(state, Action((2, 2), (1, 2)))  # the pawn leaves the block
    state = rules.apply(state, Action((2, 2), (3, 3)))  # a black pawn takes it
    state = rules.apply(state, Action((1, 2), (0, 2)))  # the king steps onto the block
    state = rules.apply(state, Action((2, 3), (3, 2)))  # the bishop leaves white's block
    assert rules.board_rows(state.board)[1:4] == [
        ["WP", "WP", "WK", "F", "F"],
        ["F", "F", "BP", "BB", "F"],
        ["BP", "BP", "F", "F", "F"],
    ]
    assert (state.ply, state.over) == (4, False)


def test_step4_bishops_and_pawns_by_type_code() -> None:
    state = place(
        rules.new_game(1),
        *(Action(sq) for sq in [(0, 2), (4, 2), (3, 2), (1, 2), (0, 0), (4, 0), (0, 4), (4, 4)]),
    )
    with pytest.raises(RuleError):
        rules.check(state, Action((1, 0)))  # step 4 needs the piece type
    with pytest.raises(RuleError):
        rules.check(state, Action((1, 0), (0, 2)))  # rook code
    white_bishops = [Action((0, 1), (0, 3)), Action((0, 3), (0, 3))]
    black_any = [Action((3, 0), (0, 4)), Action((3, 1), (0, 4))]
    state = place(state, white_bishops[0], black_any[0], white_bishops[1], black_any[1])
    assert rules.at(state.board, (0, 1)) == "WB"
    with pytest.raises(RuleError):
        rules.check(state, Action((1, 0), (0, 3)))  # a third bishop
    state = place(state, Action((1, 0), (0, 4)), Action((3, 3), (0, 4)))
    state = place(state, Action((1, 1), (0, 4)), Action((3, 4), (0, 3)))
    state = rules.apply(state, Action((1, 3), (0, 4)))
    with pytest.raises(RuleError):
        rules.check(state, Action((4, 1), (0, 4)))  # a fourth black pawn
    assert state.in_setup
    state = rules.apply(state, Action((4, 1), (0, 3)))
    assert not state.in_setup
    assert (state.to_move, state.ply) == (WHITE, 0)
    assert state.blocked == ()  # blocks only bind setup
    assert state.pawn_homes == (((1, 0), (1, 1), (1, 3)), ((3, 0), (3, 1), (3, 3)))


def test_abilities_cannot_be_used_in_setup() -> None:
    with pytest.raises(RuleError):
        rules.check(rules.new_game(1), Action((0, 2), None, "fog"))


def test_legal_actions_during_setup_are_all_accepted() -> None:
    state = rules.new_game(3)
    while state.in_setup:
        actions = rules.legal_actions(state)
        for action in actions:
            rules.check(state, action)
        state = rules.apply(state, actions[-1])
    assert sum(p is not None for p in state.board) == 16  # 8 pieces a side


# ---------------------------------------------------------------- abilities


SHIELD_BOARD = board_from_rows(["K....", ".....", "..R..", ".p...", "....k"])


def test_shield_stops_a_capture_during_the_next_turn_only() -> None:
    state = rules.play_position(SHIELD_BOARD)
    state = rules.apply(state, Action((0, 1), (0, 0), "shield", (2, 2)))
    assert state.abilities[WHITE] == frozenset({"fog", "pawnReset"})
    assert state.against[BLACK] == (rules.Effect("shield", 1, (2, 2)),)
    moves = rules.legal_moves(state)
    assert ((3, 1), (2, 2)) not in moves
    assert ((3, 1), (2, 1)) in moves  # the pawn can still step
    state = rules.apply(state, Action((4, 3), (4, 4)))
    state = rules.apply(state, Action((0, 0), (0, 1)))
    assert ((3, 1), (2, 2)) in rules.legal_moves(state)  # shield over


def test_shield_target_is_an_own_piece_after_the_move() -> None:
    state = rules.play_position(SHIELD_BOARD)
    rules.check(state, Action((2, 3), (2, 2), "shield", (2, 3)))  # the moved rook
    for target in [(2, 2), (4, 4), (1, 1), None]:  # vacated, enemy, empty, missing
        with pytest.raises(RuleError):
            rules.check(state, Action((2, 3), (2, 2), "shield", target))


def test_each_ability_once_per_game() -> None:
    state = rules.play_position(SHIELD_BOARD)
    state = rules.apply(state, Action((0, 1), (0, 0), "fog"))
    state = rules.apply(state, Action((4, 3), (4, 4)))
    with pytest.raises(RuleError):
        rules.check(state, Action((0, 0), (0, 1), "fog"))
    rules.check(state, Action((0, 0), (0, 1), "shield", (0, 0)))


def test_fog_lasts_three_turns_of_the_opponent() -> None:
    board = board_from_rows(["K....", ".....", ".....", ".....", "....k"])
    state = rules.apply(rules.play_position(board), Action((0, 1), (0, 0), "fog"))
    black = [((4, 4), (4, 3)), ((4, 3), (4, 4))] * 2
    white = [((0, 1), (0, 0)), ((0, 0), (0, 1))] * 2
    seen = []
    for (bf, bt), (wf, wt) in zip(black, white, strict=True):
        seen.append([(e.name, e.turns_left) for e in state.against[BLACK]])
        assert rules.is_fogged(state, BLACK) == bool(seen[-1])
        state = rules.apply(state, Action(bt, bf))
        assert not rules.is_fogged(state, WHITE)
        state = rules.apply(state, Action(wt, wf))
    assert seen == [[("fog", 3)], [("fog", 2)], [("fog", 1)], []]


def test_fog_visible_squares_by_hand() -> None:
    board = board_from_rows(["K....", ".....", ".R...", "..p..", "...k."])
    expected = {(3, 2), (4, 3), (2, 2), (2, 1), (3, 3), (3, 4), (4, 2), (4, 4)}
    assert rules.visible_squares(board, BLACK) == expected


HOMES = ((1, 0), (1, 2), (1, 4))


def test_pawn_reset_all_pawns_home_when_enough_squares() -> None:
    board = board_from_rows(["K....", "..P..", "P....", "....P", "k...."])
    state = rules.play_position(board, pawn_homes=(HOMES, ()))
    after = rules.apply(state, Action((0, 1), (0, 0), "pawnReset"))
    assert after.board == board_from_rows([".K...", "P.P.P", ".....", ".....", "k...."])
    assert after.against[BLACK] == (rules.Effect("pawnReset", 0),)
    assert "pawnReset" not in after.abilities[WHITE]


def test_pawn_reset_skips_taken_squares_and_picks_pawns_by_seed() -> None:
    # Home (1, 2) is taken by the bishop: two free homes for three pawns away.
    board = board_from_rows(["K....", "..B..", "P.P.P", ".....", "k...."])
    outcomes = set()
    for seed in range(20):
        state = rules.play_position(board, seed=seed, pawn_homes=(HOMES, ()))
        after = rules.apply(state, Action((0, 1), (0, 0), "pawnReset"))
        again = rules.apply(state, Action((0, 1), (0, 0), "pawnReset"))
        assert after == again  # same seed, same result
        cells = {divmod(i, 5) for i, p in enumerate(after.board) if p == "WP"}
        assert {(1, 0), (1, 4)} <= cells and len(cells) == 3
        assert rules.at(after.board, (1, 2)) == "WB"
        outcomes.add(frozenset(cells))
    # The pawn left on row 2 differs between seeds: the choice is the game RNG's.
    assert len(outcomes) == 3


def test_pawn_reset_leaves_promoted_queens() -> None:
    board = board_from_rows(["K....", "P....", "..P..", ".....", "k...Q"])
    state = rules.play_position(board, pawn_homes=(HOMES, ()))
    after = rules.apply(state, Action((0, 1), (0, 0), "pawnReset"))
    pawns = {divmod(i, 5) for i, p in enumerate(after.board) if p == "WP"}
    assert len(pawns) == 2 and pawns <= set(HOMES)
    assert rules.at(after.board, (4, 4)) == "WQ"


def test_pawn_reset_may_move_a_pawn_already_home_as_the_server_does() -> None:
    # server-match-log-3.json, move 6: black's setup squares are (3, 4), (4, 0), (4, 3); the
    # pawn of (4, 0) was taken, pawns stand on (3, 4) and (4, 3). After black's reset they
    # stand on (4, 0) and (4, 3): the pawn at home on (3, 4) moved to another free one.
    homes = ((3, 4), (4, 0), (4, 3))
    board = board_from_rows(["K....", ".....", ".....", "....p", "...pk"])
    outcomes = set()
    for seed in range(16):
        state = rules.play_position(board, BLACK, seed, pawn_homes=((), homes))
        after = rules.apply(state, Action((3, 3), (4, 4), "pawnReset"))
        outcomes.add(frozenset(divmod(i, 5) for i, p in enumerate(after.board) if p == "BP"))
    # Each pawn in a random order takes a random free setup square at that moment: the
    # first one taken goes to (4, 0), the second to the square the first one left.
    assert outcomes == {frozenset({(4, 0), (4, 3)}), frozenset({(4, 0), (3, 4)})}


# ---------------------------------------------------------------- end of game


def test_capturing_the_king_wins() -> None:
    board = board_from_rows(["K....", ".....", ".....", ".....", "R...k"])
    after = rules.apply(rules.play_position(board), Action((4, 4), (4, 0)))
    assert (after.over, after.winner, after.reason) == (True, WHITE, "king captured")
    assert rules.legal_moves(after) == []


def test_side_without_legal_move_loses() -> None:
    # White's rook arrives on (3, 3) shielded: the black king is walled in by its own
    # pawns, the pawn on (3, 4) is blocked by the white pawn, the other by the rook.
    board = board_from_rows(["K....", ".....", "....P", "R...p", "...pk"])
    state = rules.play_position(board)
    after = rules.apply(state, Action((3, 3), (3, 0), "shield", (3, 3)))
    assert (after.over, after.winner, after.reason) == (True, WHITE, "no legal move")
    unshielded = rules.apply(state, Action((3, 3), (3, 0)))
    assert not unshielded.over
    assert rules.legal_moves(unshielded) == [((4, 4), (3, 3))]


def test_two_hundred_plies_draw() -> None:
    board = board_from_rows(["K....", ".....", ".....", ".....", "....k"])
    state = replace(rules.play_position(board), ply=198)
    after = rules.apply(state, Action((0, 1), (0, 0)))
    assert not after.over and after.ply == 199
    last = rules.apply(after, Action((4, 3), (4, 4)))
    assert (last.over, last.winner, last.reason) == (True, None, "200 plies")


def test_king_capture_on_the_last_ply_still_wins() -> None:
    board = board_from_rows(["K...r", ".....", ".....", ".....", "....k"])
    state = replace(rules.play_position(board, BLACK), ply=199)
    after = rules.apply(state, Action((0, 0), (0, 4)))
    assert (after.winner, after.reason) == (BLACK, "king captured")


def test_forfeit_gives_the_game_to_the_opponent() -> None:
    state = rules.forfeit(rules.new_game(1), WHITE)
    assert (state.over, state.winner, state.reason) == (True, BLACK, "forfeit")
