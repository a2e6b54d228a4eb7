"""Smash The Code bots run as real processes on hand-made turns.

Each bot must answer every turn with exactly one line `x rotation` on stdout (nothing else),
log to stderr, exit cleanly at end of input, and never choose a placement that does not fit.
"""

from __future__ import annotations

import importlib.util
import random
import re
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from arena import Outcome
from arena_games.stc import rules
from arena_games.stc.game import StcGame
from support import REPO

BOTS = REPO / "bots" / "stc"
W, H = 6, 12
ANSWER = re.compile(rb"[0-5] [0-3]\n")
EMPTY_GRID = ["." * W] * H
HANG_GUARD_S = 60  # only to fail instead of hanging if a bot stops answering


def grid(columns: list[str]) -> list[str]:
    """Rows top to bottom from six column strings written bottom to top."""
    assert len(columns) == W
    return [
        "".join(col[H - 1 - r] if H - 1 - r < len(col) else "." for col in columns)
        for r in range(H)
    ]


def no_group_column(c: int, height: int) -> str:
    """A column of `height` colours where no two orthogonal neighbours (any column) match."""
    return "".join(str((r + 2 * c) % 5 + 1) for r in range(height))


def turn_text(
    pairs: list[tuple[int, int]],
    rows: list[str],
    opp_rows: list[str] = EMPTY_GRID,
    score: int = 0,
    opp_score: int = 0,
) -> str:
    """One turn of input exactly as the referee sends it."""
    assert len(pairs) == 8 and len(rows) == H and len(opp_rows) == H
    lines = [f"{a} {b}" for a, b in pairs]
    lines += [str(score), *rows, str(opp_score), *opp_rows]
    return "".join(line + "\n" for line in lines)


def run_bot(name: str, text: str) -> tuple[list[bytes], bytes]:
    """Run bot `name` on `text` until end of input; return (stdout lines, stderr).

    `-S` skips site start-up, which here preloads the `random` module: without it a bot
    file shadowing a standard module (random.py importing random) would go unnoticed.
    """
    proc = subprocess.run(
        [sys.executable, "-S", str(BOTS / f"{name}.py")],
        input=text.encode(),
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    return proc.stdout.splitlines(keepends=True), proc.stderr


def fits(rows: list[str], answer: bytes) -> bool:
    """True if the answer's two blocks fit into the grid given top to bottom."""
    x, rot = (int(t) for t in answer.split())
    free = [sum(1 for r in rows if r[c] == ".") for c in range(W)]
    if rot in (1, 3):
        return free[x] >= 2
    other = x + 1 if rot == 0 else x - 1
    return 0 <= other < W and free[x] >= 1 and free[other] >= 1


PAIRS = [(1, 2), (3, 3), (4, 5), (2, 1), (5, 5), (1, 3), (2, 4), (3, 5)]


@pytest.mark.parametrize("name", ["random_bot", "greedy", "enemy", "bot0"])
def test_one_well_formed_line_per_turn_and_logs_on_stderr(name: str) -> None:
    """Three turns in, three `x rotation` lines out, nothing else on stdout, logs on stderr."""
    board = grid(["12", "3", "", "45", "", "5"])
    text = turn_text(PAIRS, EMPTY_GRID) + turn_text(PAIRS[1:] + PAIRS[:1], board, score=40)
    text += turn_text(PAIRS[2:] + PAIRS[:2], board, EMPTY_GRID, 40, 120)
    lines, err = run_bot(name, text)
    assert len(lines) == 3
    for line in lines:
        assert ANSWER.fullmatch(line), line
    assert err.strip(), "the bot should log its reasoning to stderr"


@pytest.mark.parametrize("name", ["random_bot", "greedy", "enemy", "bot0"])
def test_end_of_input_mid_turn_exits_cleanly_without_answer(name: str) -> None:
    """A turn cut short by end of input is not answered and the bot exits with status 0."""
    text = turn_text(PAIRS, EMPTY_GRID)[:40]
    lines, _ = run_bot(name, text)
    assert lines == []


def test_greedy_takes_the_only_clearing_placement() -> None:
    """Three 1s in column 0, column 1 full: only `0 1` (A=1 below B) clears four 1s."""
    board = grid(["111", no_group_column(1, H).replace("1", "4"), "", "", "", ""])
    lines, _ = run_bot("greedy", turn_text(PAIRS, board))
    assert lines == [b"0 1\n"]


def test_greedy_prefers_a_two_step_chain_to_a_single_clear() -> None:
    """A 1 on column 1 clears five 1s, the 2 above falls onto three 2s: 50 + 320 points.

    Putting the 3 on column 4 clears seven 3s (10 * 7 * GB 3 = 210 points): more than the
    chain would be worth without gravity (50) or without chain power (90), so greedy only
    fires the chain if both are right.
    """
    board = grid(["22212", "111", "", "", "24333", "12121333"])
    lines, _ = run_bot("greedy", turn_text([(1, 3), *PAIRS[1:]], board))
    assert lines[0] in (b"1 0\n", b"1 1\n", b"1 2\n")


def test_greedy_scores_nothing_elsewhere_so_prefers_the_low_stack() -> None:
    """No placement scores: greedy lays the pair flat on the two lowest columns."""
    board = grid([no_group_column(0, 6), no_group_column(1, 5), "", "", no_group_column(4, 3), "3"])
    lines, _ = run_bot("greedy", turn_text([(4, 4), *PAIRS[1:]], board))
    assert lines in ([b"2 0\n"], [b"3 2\n"])


def one_free_column_board() -> list[str]:
    """Every column full except column 3, which has two free cells."""
    cols = [no_group_column(c, H) for c in range(W)]
    cols[3] = no_group_column(3, H - 2)
    return grid(cols)


def two_single_cells_board() -> list[str]:
    """Columns 2 and 3 have one free cell each, the rest are full: only a flat pair fits."""
    cols = [no_group_column(c, H) for c in range(W)]
    cols[2] = no_group_column(2, H - 1)
    cols[3] = no_group_column(3, H - 1)
    return grid(cols)


@pytest.mark.parametrize(
    ("board", "allowed"),
    [
        (one_free_column_board(), {b"3 1\n", b"3 3\n"}),
        (two_single_cells_board(), {b"2 0\n", b"3 2\n"}),
    ],
)
@pytest.mark.parametrize("name", ["random_bot", "greedy", "enemy", "bot0"])
def test_nearly_full_board_gets_a_fitting_move(
    name: str, board: list[str], allowed: set[bytes]
) -> None:
    """With the only fitting placements given, every answer is one of them."""
    turns = 30 if name == "random_bot" else 2
    text = "".join(turn_text([(1 + t % 5, 1 + t * 3 % 5), *PAIRS[1:]], board) for t in range(turns))
    lines, _ = run_bot(name, text)
    assert len(lines) == turns
    assert set(lines) <= allowed
    if name == "random_bot":
        assert set(lines) == allowed, "30 random answers should use both fitting moves"


def test_enemy_answers_a_fitting_move_on_a_complex_board() -> None:
    """A tall, mixed board with skulls on both sides: the enemy still answers a fitting move."""
    board = grid(["1231240", "22311", "3340021441", "114523", "5512340", "42"])
    opp = grid(["0000", "1234", "000000000", "11", "2233", "44455"])
    turns = [turn_text(PAIRS[k:] + PAIRS[:k], board, opp, 1230, 880 + k) for k in range(3)]
    lines, err = run_bot("enemy", "".join(turns))
    assert len(lines) == 3
    for line in lines:
        assert ANSWER.fullmatch(line), line
        assert fits(board, line)
    assert b"depth" in err


def test_bot0_answers_a_fitting_move_on_a_complex_board() -> None:
    """The same tall, skull-laden boards as the enemy's test: legal answers, reasons logged."""
    board = grid(["1231240", "22311", "3340021441", "114523", "5512340", "42"])
    opp = grid(["0000", "1234", "000000000", "11", "2233", "44455"])
    turns = [turn_text(PAIRS[k:] + PAIRS[:k], board, opp, 1230, 880 + k) for k in range(3)]
    lines, err = run_bot("bot0", "".join(turns))
    assert len(lines) == 3
    for line in lines:
        assert ANSWER.fullmatch(line), line
        assert fits(board, line)
    log = err.decode()
    for part in (
        "pairs ",
        "candidates",
        "my chain now",
        "threat:",
        "skulls",
        "opp best chain",
        "plan ",
        " ms ",
    ):
        assert part in log, (part, log)


# The README's worked chain: the pair 1/2 played `0 1` on these columns scores 1000 (3 steps,
# two skull lines). The pair 4/5 is the opponent's trigger: it sets off 4 -> 5 -> 1 -> 2 -> 3
# on its grid, five steps, more than enough skulls to bury bot0.
README_CHAIN = grid(["111", "2223", "333", "", "", ""])
FIVE_STEP_CHAIN = grid(["444", "5551", "1112", "2223", "333", ""])


def test_bot0_fires_first_when_the_opponent_fires_next_turn() -> None:
    """The opponent can fire a 5-step chain next turn; bot0 fires its 2 lines now to bury it.

    Waiting would let its chain grow, but its skulls would land on a grid already covered
    by 11 lines. Fired now, they land first, on top of the opponent's trigger.
    """
    pairs = [(1, 2), (4, 5), (3, 3), (2, 2), (5, 5), (1, 1), (4, 4), (3, 3)]
    lines, err = run_bot("bot0", turn_text(pairs, README_CHAIN, FIVE_STEP_CHAIN))
    assert lines == [b"0 1\n"], err.decode()
    assert "expecting it fires at +1" in err.decode()


def test_bot0_waits_when_nobody_threatens() -> None:
    """Same grid, the opponent's grid empty: 1000 points are not worth firing yet."""
    pairs = [(1, 2), (4, 5), (3, 3), (2, 2), (5, 5), (1, 1), (4, 4), (3, 3)]
    lines, err = run_bot("bot0", turn_text(pairs, README_CHAIN))
    assert lines != [b"0 1\n"], err.decode()


def test_bot0_fires_a_chain_that_kills() -> None:
    """Opponent at height 10 everywhere: two skull lines fill it, so bot0 fires its 1000 now."""
    full = grid([no_group_column(c, 10) for c in range(W)])
    pairs = [(1, 2), (4, 5), (3, 3), (2, 2), (5, 5), (1, 1), (4, 4), (3, 3)]
    lines, err = run_bot("bot0", turn_text(pairs, README_CHAIN, full))
    assert lines == [b"0 1\n"], err.decode()
    assert "2 lines kill the opponent" in err.decode()


def load_bot0(monkeypatch: pytest.MonkeyPatch) -> Any:
    """bots/stc/bot0.py as a module, to call its parts in-process."""
    spec = importlib.util.spec_from_file_location("bot0", BOTS / "bot0.py")
    assert spec is not None and spec.loader is not None
    bot0 = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "bot0", bot0)  # its dataclasses look themselves up
    spec.loader.exec_module(bot0)
    return bot0


def test_bot0_takes_attacks_under_four_lines_and_meets_bigger_or_killing_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An attack under four skull lines (1680 points) is not met: the firing threshold
    stays. From three lines (1260 points) up it is still expected, so its skulls fall in
    the search; one or two lines are ignored. Four lines are met, and so is one line that
    would kill us. A chain the opponent is still growing (under 70% of its best) is not
    expected."""
    bot0 = load_bot0(monkeypatch)
    bot = bot0.Bot()
    pairs = [(1, 2)] * 8
    chain = bot0.Chain()
    chain.colour, chain.need = 3, 1  # its trigger: a 3, which the pairs never bring
    low, high = [3, 3, 3, 3, 3, 3], [11, 11, 11, 11, 11, 11]
    for pts, best, hts, expected in [
        (600, 600, low, None),  # one line: take it, keep building
        (1259, 1259, low, None),  # two lines and 419 points: the same
        (1260, 1260, low, (0, 3, False)),  # three lines: expected, taken
        (1670, 1670, low, (0, 3, False)),  # three lines and 410 points: the same
        (1670, 5000, low, None),  # ... but not while its chain is still growing
        (1680, 1680, low, (0, 4, True)),  # four lines: met
        (600, 600, high, (0, 1, True)),  # one line kills a full grid: met
    ]:
        chain.points = best  # its best chain in reach
        assert bot.expected_attack([(pts, 2), (0, 0)], chain, hts, low, pairs) == expected, pts


def test_bot0_counts_the_nuisance_it_already_owes_in_an_attack(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Skulls fall by the nuisance owed in all, so the three- and four-line rules count
    it: with 300 points still owed (4.3 nuisance), 1000 points fall as three lines and
    1400 as four. bot0 used to compare the opponent's points alone with 1260 and 1680,
    and built on under the three lines of 1140 points on top of 308 owed, in a lost game."""
    bot0 = load_bot0(monkeypatch)
    bot = bot0.Bot()
    bot.my_owed70 = 300
    pairs = [(1, 2)] * 8
    chain = bot0.Chain()
    chain.colour, chain.need = 3, 1
    low = [3] * W
    for pts, expected in [
        (900, None),  # 1200 in all: two lines, ignored
        (1000, (0, 3, False)),  # 1300: three lines, expected and taken
        (1400, (0, 4, True)),  # 1700: four lines, met
    ]:
        chain.points = pts
        assert bot.expected_attack([(pts, 3), (0, 0)], chain, low, low, pairs) == expected, pts


def test_bot0_expects_the_chain_the_opponent_fires_in_two_turns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The opponent's fires are looked for four turns ahead: a chain it can fire in two
    turns, much bigger than what it can fire now or next turn, is what it waits for: the
    smaller fires are not expected, the big one is, and met (six lines)."""
    bot0 = load_bot0(monkeypatch)
    bot = bot0.Bot()
    chain = bot0.Chain()
    chain.points, chain.colour, chain.need = 640, 4, 1
    pairs = [(1, 1)] * 8  # never the trigger colour: the far rule stays out of it
    low = [3] * W
    fires = [(50, 1), (640, 2), (2650, 4), (640, 2)]
    assert bot.expected_attack(fires, chain, low, low, pairs) == (2, 6, True)
    # Seen two turns ahead only (as before), nothing is expected.
    assert bot.expected_attack(fires[:2], chain, low, low, pairs) is None


def test_bot0_expects_a_big_chain_whose_trigger_comes_block_by_block(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """From a lost game: the opponent's 11500-point chain needs two blocks of colour 4;
    the next pair brings one and the pair after it the other, so it fires in two turns.
    bot0 used to count the trigger's blocks from the pair after next only, expected
    nothing, and was buried by 29 lines without firing its own chain first."""
    bot0 = load_bot0(monkeypatch)
    bot = bot0.Bot()
    chain = bot0.Chain()
    chain.points, chain.steps, chain.colour, chain.need, chain.column = 11500, 6, 4, 2, 4
    pairs = [(5, 2), (3, 4), (4, 1), (5, 3), (2, 2), (1, 2), (1, 2), (4, 5)]
    hts = [0, 3, 3, 5, 1, 3]
    attack = bot.expected_attack([(40, 1), (0, 0)], chain, hts, [5] * W, pairs)
    assert attack == (2, 11500 // 420, True)


# A turn of a game (seed 1718220258, bot0 first, turn 10): the opponent can fire 1490
# points now, three skull lines, and little on the three turns after.
THREE_LINES_TURN = (
    "5 3\n1 2\n3 1\n4 2\n1 4\n2 5\n1 5\n5 5\n"
    "0\n......\n......\n......\n......\n......\n.11...\n"
    ".34...\n.22...\n.25...\n2554..\n2143..\n2443..\n"
    "0\n......\n......\n......\n......\n.4....\n.4....\n"
    ".2....\n.21...\n.25...\n3551..\n4222..\n44133.\n"
)


def test_bot0_expects_a_three_line_attack_but_keeps_its_firing_threshold() -> None:
    """The opponent's 1490 points now are three lines: bot0 expects them (their skulls
    fall in its search; it used to build on as if they would never come, and lost games
    where the enemy fired three lines twice), but does not meet them: its firing
    threshold stays at 1500 (four lines lower it)."""
    _, err = run_bot("bot0", THREE_LINES_TURN)
    log = err.decode()
    assert "opp fires now 1490 (3 steps)" in log, log
    assert "expecting it fires at +0: 3 lines on us, taken (too small to meet)" in log, log
    assert "fire threshold 1500," in log, log


# A turn of a lost game (seed 271613577, bot0 first, turn 16): the opponent can fire 50
# points now and 640 next turn, but builds 2650 points (six lines) for the turn after;
# bot0 (the first grid, 43 cells) builds toward 8700 points three turns out.
TWO_TURNS_AHEAD_TURN = (
    "1 1\n1 4\n3 2\n5 4\n4 1\n5 5\n5 2\n1 1\n"
    "40\n......\n......\n......\n......\n013...\n0004.2\n"
    "0005.5\n253544\n254000\n544000\n513300\n522254\n"
    "1290\n......\n......\n......\n......\n......\n......\n"
    ".1....\n.1....\n51....\n5445..\n1413..\n31233.\n"
)


def test_bot0_sees_the_opponent_fire_two_turns_ahead() -> None:
    """From a lost game: bot0 looked two turns ahead for the opponent's fires, saw 640
    points, expected nothing and built on; the opponent fired 2650 points two turns later
    and buried it. Looking four turns ahead, it expects them and meets them."""
    _, err = run_bot("bot0", TWO_TURNS_AHEAD_TURN)
    log = err.decode()
    assert "opp fires now 50 (1 steps), next turn 640 (2 steps), in 2 and 3 turns 2650" in log
    assert "expecting it fires at +2: 6 lines on us, met (firing threshold lowered)" in log, log


def test_bot0_counts_a_kill_on_the_turn_it_is_killed_as_a_draw(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """bot0 can fire the README's 1000 points next turn (two lines, enough to kill the
    opponent), and the opponent is expected to fire 12 lines on that same turn. Both
    grids are buried at once: a draw, worth its points, not a win (bot0 used to value it
    as a kill). Two lines on the same turn leave bot0 room,
    so then it is a kill, as it is with no attack expected."""
    bot0 = load_bot0(monkeypatch)
    masks, hts = bot0.parse_grid(README_CHAIN)
    pairs = [(4, 5), (1, 2), (3, 3), (4, 4), (5, 5), (3, 4), (4, 5), (5, 3)]
    values = {}
    for threat in [(1, 12), (1, 2), None]:
        sr = bot0.Searcher()
        sr.kill_lines = 2
        sr.deadline = time.perf_counter() + 30
        best, _, _ = sr.search(masks, hts, pairs, 8, threat, ())
        assert best is not None and best.fire_depth == 1 and best.fire_pts == 1000, threat
        values[threat] = best.value
    assert values[(1, 12)] < 1000
    assert values[(1, 2)] > bot0.KILL / 2
    assert values[None] > bot0.KILL / 2


def rows_of(columns: tuple[str, ...]) -> list[str]:
    """The 12 input rows (top first) of a referee grid (columns, bottom first)."""
    return [
        "".join(col[y] if y < len(col) else "." for col in columns)
        for y in range(rules.HEIGHT - 1, -1, -1)
    ]


def columns_of(bot0: Any, masks: list[int], hts: list[int]) -> tuple[str, ...]:
    """bot0's bitboards as the referee's columns (bottom first, skulls '0')."""
    cells = bot0.to_cells(masks)
    columns = []
    for c in range(W):
        column = cells[c * H : (c + 1) * H]
        assert not any(column[hts[c] :]), "a block above its column's height"
        columns.append("".join("0" if v == bot0.SKULL else str(v) for v in column[: hts[c]]))
    return tuple(columns)


def same_neighbours(columns: tuple[str, ...]) -> int:
    """Pairs of orthogonal neighbours of one colour (skulls not counted)."""
    n = 0
    for x, col in enumerate(columns):
        for y, v in enumerate(col):
            if v != rules.SKULL:
                n += y + 1 < len(col) and col[y + 1] == v
                n += x + 1 < W and y < len(columns[x + 1]) and columns[x + 1][y] == v
    return n


def builder_move(
    columns: tuple[str, ...], pair: tuple[int, int], actions: list[tuple[int, int]]
) -> tuple[int, int]:
    """The drop that clears nothing and groups colours best on a low stack: it makes
    grids with chains waiting for their trigger."""

    def value(action: tuple[int, int]) -> tuple[bool, int]:
        played = rules.play_pair(columns, pair, action)
        assert played is not None
        after, points, _ = played
        return points == 0, 3 * same_neighbours(after) - max(map(len, after))

    return max(actions, key=value)


def test_bot0_simulates_drops_and_chains_exactly_as_the_referee(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """bot0's bitboard rules agree with the referee's on 1,500 drops over random games
    (chains, skulls, full columns): points, steps and the grid after; and each chain it
    sees in reach (a trigger of one or two blocks) scores what the referee scores."""
    bot0 = load_bot0(monkeypatch)
    rng = random.Random(11)
    move_index = {(m[0], m[1]): i for i, m in enumerate(bot0.MOVES)}
    drops = clears = chains_in_reach = 0
    while drops < 1500:
        columns: tuple[str, ...] = ("",) * W
        while actions := rules.legal_actions(columns):
            pair = (rng.randint(1, 5), rng.randint(1, 5))
            if rng.random() < 0.6:
                action = builder_move(columns, pair, actions)
            else:
                action = rng.choice(actions)
            expected = rules.play_pair(columns, pair, action)
            assert expected is not None
            masks, hts = bot0.parse_grid(rows_of(columns))
            landed = bot0.place(masks, hts, bot0.MOVES[move_index[action]], *pair)
            points, steps = bot0.resolve(masks, hts, landed)
            got = (columns_of(bot0, masks, hts), points, steps)
            assert got == expected, (columns, pair, action)
            drops += 1
            clears += points > 0
            columns = expected[0]
            if rng.random() < 0.05:
                columns = rules.drop_skulls(columns, rng.randint(1, 2))
            chain = bot0.chain_potential(*bot0.parse_grid(rows_of(columns)))
            if chain.points:
                triggered = list(columns)
                y = len(triggered[chain.column])
                triggered[chain.column] += str(chain.colour) * chain.need
                referee = rules.resolve(triggered, [(chain.column, y)])
                assert referee == (chain.points, chain.steps), (columns, str(chain))
                chains_in_reach += chain.steps >= 2
    assert clears >= 50 and chains_in_reach >= 200, (clears, chains_in_reach)
    # Worked by hand: a flat pair of 1s joins three groups of three (left, below, right)
    # into one of 11 blocks: group bonus 8, 10 * 11 * 8 = 880 points in one step.
    columns = ("23411", "3421", "111", "234", "3421", "23411")
    expected_grid = ("234", "342", "", "234", "342", "234")
    assert rules.play_pair(columns, (1, 1), (2, 0)) == (expected_grid, 880, 1)
    masks, hts = bot0.parse_grid(rows_of(columns))
    points, steps = bot0.resolve(
        masks, hts, bot0.place(masks, hts, bot0.MOVES[move_index[(2, 0)]], 1, 1)
    )
    assert (columns_of(bot0, masks, hts), points, steps) == (expected_grid, 880, 1)


def play_game(
    names: list[str], seed: int, args: list[list[str]], tmp_path: Path
) -> tuple[Outcome, list[str]]:
    """Play one whole game through the real rules, bots as processes (no clocks).

    Each answer goes through the referee's own interpret (which raises on an illegal or
    malformed line); returns the outcome and each bot's standard error.
    """
    game = StcGame()
    logs = [tmp_path / f"{seat}-{name}.log" for seat, name in enumerate(names)]
    procs = []
    for name, extra, log in zip(names, args, logs, strict=True):
        with log.open("w") as err:
            procs.append(
                subprocess.Popen(
                    [sys.executable, str(BOTS / f"{name}.py"), *extra],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=err,
                    text=True,
                )
            )
    try:
        state = game.start(seed, 2, {"max_turns": 40})
        while seats := game.to_act(state):
            moves = {}
            for seat in seats:
                proc = procs[seat]
                assert proc.stdin is not None and proc.stdout is not None
                proc.stdin.write(game.prompt(state, seat))
                proc.stdin.flush()
                ready, _, _ = select.select([proc.stdout], [], [], HANG_GUARD_S)
                assert ready, f"{names[seat]} stopped answering"
                line = proc.stdout.readline()
                assert ANSWER.fullmatch(line.encode()), line  # one `x rotation` line, no more
                moves[seat] = game.interpret(state, seat, line.rstrip("\n")).action
            state = game.apply(state, moves)
        for proc in procs:
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.close()  # end of input: the bot exits on its own, printing nothing more
            assert proc.stdout.read() == ""
            assert proc.wait(timeout=HANG_GUARD_S) == 0
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()
    return game.outcome(state), [log.read_text() for log in logs]


def test_bot0_plays_a_whole_game_legally_and_explains_every_turn(tmp_path: Path) -> None:
    """bot0 against the enemy on the real rules: legal answers until the game ends,
    only answers on stdout, and one reasoning block per turn on stderr."""
    outcome, errs = play_game(["bot0", "enemy"], 7, [[], []], tmp_path)
    assert sorted(outcome.ranks)[0] == 0
    turns = errs[0].count("== turn ")
    assert turns >= 5
    assert errs[0].count("threat: ") == errs[0].count("candidates at depth") == turns


class WorkClock:
    """A clock that moves only as the bot reads it: each read is 0.1 ms of work. The bot
    reads its clock every 16 placements and after every full evaluation, so its time is
    proportional to its work, the same on any machine, however loaded."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        self.now += 0.0001
        return self.now


def test_bot0_spends_its_turn_on_one_search_sized_to_its_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """bot0 sizes one beam search to its time, layer by layer: it searches all 8 known pairs
    and stops before its deadline (iterative widening started a wider search it had to cut
    short and throw away), and four times the budget buys a beam several times wider."""
    bot0 = load_bot0(monkeypatch)
    clock = WorkClock()
    monkeypatch.setattr(bot0, "time", clock)
    board = grid(["1231240", "22311", "3340021441", "114523", "5512340", "42"])
    opp = grid(["0000", "1234", "000000000", "11", "2233", "44455"])
    lines = turn_text(PAIRS, board, opp, 1230, 880).splitlines()
    widest = {}
    for budget in (0.03, 0.12):
        monkeypatch.setitem(bot0.PARAMS, "budget", budget)
        bot = bot0.Bot()
        bot.turn = 1  # a later turn: the 100 ms clock and the budget
        start = clock.now
        bot.play(start, lines)
        searched = bot.pending
        assert searched.depth == 8 and not bot.searcher.timed_out, budget
        assert clock.now - start <= budget + 0.001
        widest[budget] = searched.width
    assert widest[0.12] >= 2.5 * widest[0.03], widest


def test_bot0_stops_searching_at_its_own_deadline(tmp_path: Path) -> None:
    """With a 0.5 ms budget (after the first turn's 1 s) the search cannot finish (2 ms
    could, on an early grid, since the rules run on bitboards): bot0 stops
    at its deadline (it logs `timeout True`, a depth short of the 8 pairs, and a few
    milliseconds used, where it usually takes 60) and still answers legally from the
    deepest finished layer."""
    outcome, errs = play_game(["bot0", "greedy"], 3, [["budget=0.0005"], []], tmp_path)
    assert sorted(outcome.ranks)[0] == 0
    turns = re.findall(r"; depth (\d+) width \d+ .* timeout (True|False) ms ([\d.]+)", errs[0])
    assert len(turns) >= 5
    for depth, cut, _ in turns[1:]:
        assert int(depth) < 8 and cut == "True", turns
    used = sorted(float(ms) for _, _, ms in turns[1:])
    assert used[len(used) // 2] < 20, used  # the median turn (a stall may hit one)
