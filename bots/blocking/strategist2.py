#!/usr/bin/env python3
"""Blocking bot `strategist2`: an alpha-beta search for duels; the strategist, tuned, with 3-4.

In a duel (two players, both still playing) it searches (class ``Duel``): our move, the
opponent's best reply, our best answer, and so on, with alpha-beta and iterative deepening
until the clock's share runs out (depth 3-4 on the open board, 2-5 in the middle game, up
to 10 near the end; less on a loaded machine). Our DUEL_FIRST most promising moves (by a
cheap score: squares, corner cells opened, the opponent's corner cells taken, nearness to
the centre) are valued one ply deep first, then the DUEL_ROOT best of them searched
deeper; below the root each side tries its DUEL_WIDTH_ME / DUEL_WIDTH_OPP most promising
moves by the same cheap score, the best first. Each seat's valid placements are kept per
letter and updated only when the search needs them (a move removes the placements it
covers or touches along a side and adds those through the corner cells it opens). A board
is valued, for each seat, by its squares plus DUEL_CORNER per corner cell it can grow from
plus DUEL_TERRITORY per free cell it reaches first, ours minus the opponent's, while the
board is open; once fewer than DUEL_FULL placements are left to both seats together (about
the sixth move on) by the expected final scores below instead, so shapes in hand count by
how well they still fit (a deeper search on the cheap value lost to the strategist's
evaluation in the middle game).

What else it changes in ``strategist.py``: it never interprets an orientation code it did
not have to. Its own answer is always one of the valid moves listed in its turn input,
copied as written; which cells each listed move covers is worked out under the ruled
convention and checked against the placements it generates itself (a listed move that does
not match falls back to the valid placement of that shape through that cell). The
opponents' moves are read from the board: the cells a seat gained since the last turn are
its move (only the letter of the move line is used). With 3-4 players it tries 12 of its
own second-round moves instead of 8.

With 3-4 players (or ``DUEL_SEARCH=0``) the strategist's method, kept: it looks two rounds
ahead, with the opponents' replies predicted (with DUEL_SEARCH=0, in a duel, its best
first moves valued against the opponent's most damaging reply, DUEL_MOVES, DUEL_REPLIES).

Opponents are modelled, not feared: each is first assumed to be the plain greedy bot
(largest shape first, then the squares nearest the centre, then the first listed), whose
next move can be computed exactly. Every move an opponent makes is checked against that
prediction; one that strays is still simulated as greedy while its moves rank high among
its same-sized options by a cheap score ("sensible"), and left out of the simulation when
they rank about the middle ("random"). The search: every listed move (the most promising
first by a cheap score: squares, new corner cells, opponents' corner cells taken, centre)
is played out for one round (the move, then each following opponent's predicted reply);
the best of them again for a second round, taking the bot's best of its REPLIES most
promising next moves. A board is valued by each seat's expected final score: squares
covered plus, per shape in hand, its squares weighted by how many placements it has now
(n / (n + HALF): the bot counts its own shapes cautiously, so awkward ones get played
while they still fit), plus a little for the free cells the seat reaches first; the bot
maximises its own minus a blend of the strongest and the average opponent's. Thinking
stops ~105 ms into a turn (clock 200 ms); on the first turn (clock 1 s, start-up
included) 200 ms after start-up, or 350 ms after its first input came when it had started
before and waited for it (a second player). Standalone (stdlib only), CodinGame-submittable;
reasoning goes to stderr.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

N = 13
FULL = (1 << (N * N)) - 1
COL_FIRST = sum(1 << (y * N) for y in range(N))
NOT_FIRST = FULL & ~COL_FIRST
CORNERS = ((0, 0), (N - 1, N - 1), (0, N - 1), (N - 1, 0))
CODES = ("00", "01", "02", "03", "10", "11", "12", "13")
OPENERS_3P = "ABCD"  # players 0 and 1 of a 3-player game open with one of these
STARTED = time.perf_counter()
BUDGET = 0.105  # seconds of thinking per turn (the clock is 0.2 s)
FIRST_BUDGET = 0.200  # first turn: 1 s, counted from the start of the interpreter ...
# ... or, when the bot had started before and waited for its first input (a second player:
# its clock starts when the input comes), this long after that input came.
FIRST_WAITED = 0.350
# Expected final score: a shape with n placements counts n / (n + HALF) of its squares.
HALF_ME, HALF_OPP = 6.0, 1.5
W_TERRITORY = 0.15  # per free cell a seat reaches first
W_LEADER, W_OPPONENTS = 0.6, 0.9  # opponents: share of the strongest, overall weight
FIRST_SHARE = 0.5  # share of the thinking time for the first round
SENSIBLE = 0.45  # average rank of its moves (0 best, 1 worst) below which a player is sensible
REPLIES = 12  # the bot's own next moves tried in the second round (3-4 players)
DUEL_MOVES = 6  # in a duel: our best first moves valued against the opponent's replies ...
DUEL_REPLIES = 5  # ... its most promising replies by the cheap score (plus its greedy one)
DUEL_SEARCH = 1  # in a duel: the alpha-beta search (Duel) instead of the two rules above
DUEL_HALF_ME, DUEL_HALF_OPP = 6.0, 1.5  # the duel's expected-score weights (HALF_ME, ...)
DUEL_TERRITORY = 0.15  # per free cell a seat reaches first
DUEL_CORNER = 0.5  # per corner cell a seat can grow from (while the board is open)
DUEL_FULL = 400  # placements left (both seats) below which boards are valued by expected scores
DUEL_FIRST = 60  # our most promising first moves valued one ply deep ...
DUEL_FIRST_SHARE = 0.35  # ... in at most this share of the thinking time
DUEL_OPP = 1.0  # weight of the opponent's expected score
DUEL_ROOT = 16  # our first moves searched deeper than one ply
DUEL_WIDTH_ME, DUEL_WIDTH_OPP = 8, 8  # moves tried per node below the root
DUEL_MAX_DEPTH = 10  # plies (the end of the game is often searched through)


TUNABLE = (
    "BUDGET",
    "FIRST_BUDGET",
    "FIRST_WAITED",
    "HALF_ME",
    "HALF_OPP",
    "W_TERRITORY",
    "W_LEADER",
    "W_OPPONENTS",
    "REPLIES",
    "FIRST_SHARE",
    "DUEL_SEARCH",
    "DUEL_HALF_ME",
    "DUEL_HALF_OPP",
    "DUEL_TERRITORY",
    "DUEL_OPP",
    "DUEL_CORNER",
    "DUEL_FULL",
    "DUEL_FIRST",
    "DUEL_FIRST_SHARE",
    "DUEL_ROOT",
    "DUEL_WIDTH_ME",
    "DUEL_WIDTH_OPP",
    "DUEL_MAX_DEPTH",
)


def read() -> str:
    """One input line without its newline; exit quietly when the referee closes the input."""
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return line.rstrip("\n")


def log(text: str) -> None:
    """Reasoning to stderr (never stdout)."""
    print(text, file=sys.stderr, flush=True)


def side(mask: int) -> int:
    """Cells sharing a side with a cell of ``mask``."""
    return (
        ((mask << 1) & NOT_FIRST) | ((mask & NOT_FIRST) >> 1) | ((mask << N) & FULL) | (mask >> N)
    )


def corner(mask: int) -> int:
    """Cells sharing a corner with a cell of ``mask``."""
    both = ((mask << 1) & NOT_FIRST) | ((mask & NOT_FIRST) >> 1)
    return ((both << N) & FULL) | (both >> N)


def anchors(seat: int, owned: list[int], occ: int) -> int:
    """Free cells where ``seat`` may start a new piece (its corner before its first one)."""
    own = owned[seat]
    if not own:
        x, y = CORNERS[seat]
        return (1 << (y * N + x)) & ~occ
    return corner(own) & ~(occ | side(own))


def territory(owned: list[int], seats: list[int], occ: int) -> list[int]:
    """Free cells each seat reaches strictly first, growing from its anchors one ring a step."""
    allowed = [FULL & ~(occ | side(owned[q])) for q in seats]
    fronts = [anchors(q, owned, occ) for q in seats]
    taken = 0
    counts = [0] * len(seats)
    while True:
        contested = 0
        seen = 0
        for front in fronts:
            contested |= seen & front
            seen |= front
        if not seen:
            return counts
        taken |= seen
        for i, front in enumerate(fronts):
            mine = front & ~contested
            counts[i] += mine.bit_count()
            ring = mine | ((mine << 1) & NOT_FIRST) | ((mine & NOT_FIRST) >> 1)
            ring |= ((ring << N) & FULL) | (ring >> N)
            fronts[i] = ring & allowed[i] & ~taken


def duel_territory(board: list[int], me: int, opp: int, occ: int) -> tuple[int, int, int, int]:
    """``territory`` for two seats, faster: the free cells each reaches strictly first; then
    the number of corner cells (anchors) of each."""
    a = anchors(me, board, occ)
    b = anchors(opp, board, occ)
    corners_a, corners_b = a.bit_count(), b.bit_count()
    allow_a = FULL & ~(occ | side(board[me]))
    allow_b = FULL & ~(occ | side(board[opp]))
    taken = a | b
    count_a = count_b = 0
    while a or b:
        both = a & b
        a ^= both
        b ^= both
        count_a += a.bit_count()
        count_b += b.bit_count()
        a |= ((a << 1) & NOT_FIRST) | ((a & NOT_FIRST) >> 1)
        a |= (a << N) | (a >> N)
        b |= ((b << 1) & NOT_FIRST) | ((b & NOT_FIRST) >> 1)
        b |= (b << N) | (b >> N)
        a &= allow_a & ~taken  # allow_* also keeps the shifts on the board
        b &= allow_b & ~taken
        taken |= a | b
    return count_a, count_b, corners_a, corners_b


def orient(rows: list[str], code: str) -> list[tuple[int, int]]:
    """Cells of the shape drawn by ``rows`` in orientation ``code``; square k is ``[k - 1]``.

    Squares are numbered 1..k in reading order on the base picture and keep their numbers;
    f = 1 flips the picture over its main diagonal (transpose), then it turns 90 degrees
    clockwise r times, staying in the top-left corner (the referee's convention).
    """
    width, height = len(rows[0]), len(rows)
    cells = [(x, y) for y in range(height) for x in range(width) if rows[y][x] == "#"]
    if code[0] == "1":
        cells = [(y, x) for x, y in cells]
        width, height = height, width
    for _ in range(int(code[1])):
        cells = [(height - 1 - y, x) for x, y in cells]
        width, height = height, width
    return cells


class Engine:
    """Every placement of the shapes in play, and move generation on bitmask boards."""

    def __init__(self, shapes: dict[str, list[str]]) -> None:
        self.size = {letter: "".join(rows).count("#") for letter, rows in shapes.items()}
        self.through: list[dict[str, list[int]]] = [{} for _ in range(N * N)]
        self.cells: dict[str, list[tuple[int, int]]] = {}
        # A greedy bot's preference among placements of one size: spread from the centre,
        # then the listing order (letter, smallest code, square 1's cell).
        self.greedy_key: dict[int, tuple[int, str, str, int]] = {}
        self.letter: dict[int, str] = {}
        self.base: dict[int, float] = {}  # the duel search's cheap score: size, centre
        self.tips: dict[int, int] = {}  # cells touching a placement at a corner only
        for letter, rows in shapes.items():
            seen: set[tuple[tuple[int, int], ...]] = set()
            for code in CODES:
                cells = orient(rows, code)
                self.cells[letter + code] = cells
                if tuple(sorted(cells)) in seen:
                    continue
                seen.add(tuple(sorted(cells)))
                sx, sy = cells[0]  # square 1: where the referee's listing puts the move
                width = max(x for x, _ in cells) + 1
                height = max(y for _, y in cells) + 1
                for y in range(N - height + 1):
                    for x in range(N - width + 1):
                        mask = 0
                        spread = 0
                        for cx, cy in cells:
                            mask |= 1 << ((y + cy) * N + x + cx)
                            spread += (x + cx - 6) ** 2 + (y + cy - 6) ** 2
                        self.greedy_key[mask] = (spread, letter, code, (y + sy) * N + x + sx)
                        self.letter[mask] = letter
                        size = len(cells)
                        self.base[mask] = 10 * size - spread / (30.0 * size)
                        self.tips[mask] = corner(mask) & ~side(mask)
                        for cx, cy in cells:
                            self.through[(y + cy) * N + x + cx].setdefault(letter, []).append(mask)

    def mask(self, move: str) -> int:
        """Cells covered by ``x y Lfrk`` (square k at (x, y))."""
        sx, sy, shape = move.split()
        cells = self.cells[shape[:3]]
        ax, ay = cells[int(shape[3]) - 1]
        x0, y0 = int(sx) - ax, int(sy) - ay
        total = 0
        for cx, cy in cells:
            total |= 1 << ((y0 + cy) * N + x0 + cx)
        return total

    def moves(self, seat: int, owned: list[int], occ: int, letters: str) -> set[int]:
        """Distinct placements of ``letters`` open to ``seat``."""
        blocked = occ | side(owned[seat])
        spots = anchors(seat, owned, occ)
        found: set[int] = set()
        through = self.through
        while spots:
            low = spots & -spots
            spots ^= low
            by_letter = through[low.bit_length() - 1]
            for letter in letters:
                masks = by_letter.get(letter)
                if masks:
                    found.update([m for m in masks if not m & blocked])
        return found

    def greedy(self, seat: int, owned: list[int], occ: int, letters: str) -> int:
        """The placement a greedy bot would play (0 when it has none)."""
        for size in sorted({self.size[letter] for letter in letters}, reverse=True):
            group = "".join(letter for letter in letters if self.size[letter] == size)
            found = self.moves(seat, owned, occ, group)
            if found:
                return min(found, key=self.greedy_key.__getitem__)
        return 0

    def expected(self, seat: int, owned: list[int], occ: int, letters: str, half: float) -> float:
        """Squares ``seat`` covers plus those of its shapes in hand, each weighted by how
        many placements it has now (n placements count n / (n + half))."""
        counts = dict.fromkeys(letters, 0)
        letter_of = self.letter
        for mask in self.moves(seat, owned, occ, letters):
            counts[letter_of[mask]] += 1
        size = self.size
        return owned[seat].bit_count() + sum(
            size[letter] * n / (n + half) for letter, n in counts.items() if n
        )


Placements = dict[str, set[int]]  # a seat's valid placements, per letter of a shape in hand


@dataclass
class Node:
    """A duel board in the search: each seat's squares; each seat's valid placements per
    letter in hand (the keys are exactly its letters in hand), worked out from the parent's
    only when the search needs them (None until then)."""

    board: list[int]
    parent: Node | None = None
    seat: int = -1  # who played ``mask`` to reach this board from ``parent``
    mask: int = 0
    places: list[Placements | None] = field(default_factory=lambda: [None] * 4)


class Duel:
    """Two-player alpha-beta search (a duel): our move, the opponent's best reply, our best
    answer, ..., to the depth the clock allows (iterative deepening), over the most
    promising moves at each ply (DUEL_WIDTH_ME, DUEL_WIDTH_OPP by a cheap score).

    Boards are valued by ``light`` (squares, corner cells, territory: a few bit operations)
    while the board is open, and by the expected final scores (``full``: shapes in hand
    weighted by their placements left) once few placements are left (DUEL_FULL)."""

    def __init__(self, engine: Engine, me: int, opp: int, deadline: float) -> None:
        self.engine = engine
        self.me = me
        self.opp = opp
        self.deadline = deadline
        self.full = False
        self.nodes = 0
        self.leaves = 0

    def root(self, owned: list[int], hands: list[str]) -> Node:
        """The current board with both seats' placements generated."""
        occ = owned[0] | owned[1] | owned[2] | owned[3]
        node = Node(owned[:])
        letter_of = self.engine.letter
        for seat in (self.me, self.opp):
            found: Placements = {letter: set() for letter in hands[seat]}
            for mask in self.engine.moves(seat, owned, occ, hands[seat]):
                found[letter_of[mask]].add(mask)
            node.places[seat] = found
        return node

    def child(self, node: Node, seat: int, mask: int) -> Node:
        """``node`` after ``seat`` plays ``mask`` (placements left to ``places``)."""
        self.nodes += 1
        board = node.board[:]
        board[seat] |= mask
        return Node(board, node, seat, mask)

    def places(self, node: Node, seat: int) -> Placements:
        """``seat``'s valid placements at ``node``, from its parent's: after its own move
        they lose the letter played and those the move covers or touches along a side, and
        gain those through the corner cells it opens; after the other seat's move they lose
        those it covers."""
        found = node.places[seat]
        if found is not None:
            return found
        assert node.parent is not None
        before = self.places(node.parent, seat)
        mask = node.mask
        if node.seat != seat:
            found = {letter: {p for p in group if not p & mask} for letter, group in before.items()}
        else:
            played = self.engine.letter[mask]
            block = mask | side(mask)
            found = {
                letter: {p for p in group if not p & block}
                for letter, group in before.items()
                if letter != played
            }
            board = node.board
            occ = board[0] | board[1] | board[2] | board[3]
            blocked = occ | side(board[seat])
            fresh = corner(mask) & ~blocked
            if node.parent.board[seat]:
                fresh &= ~corner(node.parent.board[seat])
            through = self.engine.through
            while fresh:
                low = fresh & -fresh
                fresh ^= low
                by_letter = through[low.bit_length() - 1]
                for letter, group in found.items():
                    masks = by_letter.get(letter)
                    if masks:
                        group.update([m for m in masks if not m & blocked])
        node.places[seat] = found
        return found

    def worth(self, node: Node, seat: int, half: float) -> float:
        """``seat``'s expected final squares: covered plus, per shape in hand, its squares
        weighted by its placements left (n placements count n / (n + half))."""
        size = self.engine.size
        total = float(node.board[seat].bit_count())
        for letter, group in self.places(node, seat).items():
            n = len(group)
            if n:
                total += size[letter] * n / (n + half)
        return total

    def evaluate(self, node: Node) -> float:
        """Our value of ``node`` minus DUEL_OPP times the opponent's: squares covered (or
        expected, in ``full`` mode), corner cells to grow from, territory."""
        self.leaves += 1
        board = node.board
        occ = board[0] | board[1] | board[2] | board[3]
        me, opp = self.me, self.opp
        ground = duel_territory(board, me, opp, occ)
        if self.full:
            mine = self.worth(node, me, DUEL_HALF_ME)
            theirs = self.worth(node, opp, DUEL_HALF_OPP)
        else:
            mine = board[me].bit_count() + DUEL_CORNER * ground[2]
            theirs = board[opp].bit_count() + DUEL_CORNER * ground[3]
        mine += DUEL_TERRITORY * ground[0]
        theirs += DUEL_TERRITORY * ground[1]
        return mine - DUEL_OPP * theirs

    def candidates(self, node: Node, seat: int, width: int) -> list[int]:
        """``seat``'s ``width`` most promising placements by a cheap score: squares, the
        corner cells it opens, the other seat's corner cells it takes, nearness to the
        centre."""
        engine = self.engine
        board = node.board
        other = self.opp if seat == self.me else self.me
        occ = board[0] | board[1] | board[2] | board[3]
        theirs = anchors(other, board, occ)
        free = FULL & ~(occ | side(board[seat]))
        base = engine.base
        tips = engine.tips
        scored = [
            (base[m] + (tips[m] & free).bit_count() + 2 * (m & theirs).bit_count(), m)
            for group in self.places(node, seat).values()
            for m in group
        ]
        scored.sort(reverse=True)
        return [m for _score, m in scored[:width]]

    def search(self, node: Node, depth: int, seat: int, alpha: float, beta: float) -> float:
        """Minimax value of ``node`` with ``seat`` to move, ``depth`` plies left (a seat
        with no move passes); raises TimeoutError past the deadline."""
        if time.perf_counter() > self.deadline:
            raise TimeoutError
        if depth == 0:
            return self.evaluate(node)
        other = self.opp if seat == self.me else self.me
        width = DUEL_WIDTH_ME if seat == self.me else DUEL_WIDTH_OPP
        moves = self.candidates(node, seat, width)
        if not moves:
            if not any(self.places(node, other).values()):
                return self.evaluate(node)
            return self.search(node, depth - 1, other, alpha, beta)
        if seat == self.me:
            best = float("-inf")
            for m in moves:
                value = self.search(self.child(node, seat, m), depth - 1, other, alpha, beta)
                best = max(best, value)
                alpha = max(alpha, best)
                if alpha >= beta:
                    break
            return best
        best = float("inf")
        for m in moves:
            value = self.search(self.child(node, seat, m), depth - 1, other, alpha, beta)
            best = min(best, value)
            beta = min(beta, best)
            if alpha >= beta:
                break
        return best


@dataclass
class Line:
    """A board in the search: each seat's squares, shapes in hand, seats still playing."""

    board: list[int]
    hands: list[str]
    live: list[int]


class Strategist:
    """Game knowledge kept between turns: shapes, hands, the opponents' models."""

    def __init__(self) -> None:
        shapes: dict[str, list[str]] = {}
        asked = time.perf_counter()
        count = int(read())
        came = time.perf_counter()
        # The first turn's deadline: a bot that waited for its input (started with the game,
        # playing second) has its clock start when the input came; one whose input was
        # already there counts from its own start, as the clock includes start-up.
        waited = came - asked > 0.02
        self.first_deadline = (
            max(came + FIRST_WAITED, STARTED + FIRST_BUDGET) if waited else STARTED + FIRST_BUDGET
        )
        for _ in range(count):
            letter, w, h, defn = read().split()
            width = int(w)
            shapes[letter] = [defn[i : i + width] for i in range(0, width * int(h), width)]
        self.players = int(read())
        self.me = int(read())
        read()  # board size, 13
        letters = read()
        self.engine = Engine(shapes)
        self.left = [letters] * 4
        self.out = [False] * self.players + [True] * (4 - self.players)
        self.board = [0, 0, 0, 0]  # after the bot's own last move
        self.seen = [0] * 4  # opponents' moves checked against the greedy model
        self.hits = [0] * 4  # ... and those it predicted
        self.rank = [0.0] * 4  # sum of the moves' ranks (0 best, 1 worst) among same-sized
        self.ranked = [0] * 4  # ... over that many moves
        self.turns = 0

    def hand(self, seat: int, owned: list[int], letters: str | None = None) -> str:
        """Letters ``seat`` may play now (a 3-player opening is limited to A-D)."""
        hand = self.left[seat] if letters is None else letters
        if self.players == 3 and seat < 2 and not owned[seat]:
            hand = "".join(letter for letter in hand if letter in OPENERS_3P)
        return hand

    def greedy_like(self, seat: int) -> bool:
        """Whether ``seat`` has played as the greedy model predicts (so far, mostly)."""
        return self.hits[seat] >= self.seen[seat] - self.seen[seat] // 5

    def sensible(self, seat: int) -> bool:
        """Whether ``seat``'s moves rank high on average by the cheap score among its options
        of the same size (a random player's rank about the middle): its replies are then
        simulated as greedy ones, a fair proxy for a player that places large shapes first."""
        return self.ranked[seat] < 1 or self.rank[seat] / self.ranked[seat] < SENSIBLE

    def model(self, seat: int) -> str:
        """The name of the model of ``seat``, for the log."""
        if self.greedy_like(seat):
            return "greedy"
        return "sensible" if self.sensible(seat) else "random"

    def observe(self, seat: int, letter: str, mask: int) -> None:
        """Check an opponent's move (the cells it covered) against the greedy prediction and
        rank it among its same-sized options by the cheap score, then record it."""
        board = self.board
        occ = board[0] | board[1] | board[2] | board[3]
        hand = self.hand(seat, board)
        predicted = self.engine.greedy(seat, board, occ, hand)
        self.seen[seat] += 1
        self.hits[seat] += predicted == mask
        rivals = [rival for rival in range(self.players) if rival != seat]
        size = mask.bit_count()
        same = [
            option
            for option in self.engine.moves(seat, board, occ, hand)
            if option.bit_count() == size
        ]
        scored = self.ordered(seat, board, rivals, same)
        if len(scored) > 1 and mask in same:
            mine = next(score for score, option in scored if option == mask)
            above = sum(score > mine for score, _option in scored)
            level = sum(score == mine for score, _option in scored)
            self.rank[seat] += (above + (level - 1) / 2) / (len(scored) - 1)
            self.ranked[seat] += 1
        board[seat] |= mask
        self.left[seat] = self.left[seat].replace(letter, "")

    def turn(self) -> str:
        """Read one turn's input and choose the answer."""
        rows = [read()]
        began = time.perf_counter()
        rows += [read() for _ in range(N - 1)]
        owned = [0, 0, 0, 0]
        for y, row in enumerate(rows):
            for x, ch in enumerate(row):
                if ch in "0123":
                    owned[int(ch)] |= 1 << (y * N + x)
        for _ in range(int(read())):
            fields = read().split()
            seat = int(fields[0])
            letter = fields[-1][:1] if len(fields) > 1 else ""
            # The move's cells are what the seat gained on the board; its code is not needed.
            gained = owned[seat] & ~self.board[seat]
            if gained and letter:
                self.observe(seat, letter, gained)
        listed = [read() for _ in range(int(read()))]
        deadline = began + BUDGET if self.turns else self.first_deadline
        self.turns += 1
        masks = self.listed_masks(owned, listed)
        move = self.choose(owned, listed, masks, began, deadline)
        self.board = owned
        self.board[self.me] |= masks[move]
        self.left[self.me] = self.left[self.me].replace(move.split()[2][0], "")
        return move

    def listed_masks(self, owned: list[int], listed: list[str]) -> dict[str, int]:
        """The cells each listed move covers, checked against the placements we generate.

        Each is first read under the ruled orientation convention; one that reads as no
        valid placement (another convention in the referee) becomes the valid placement
        of its shape through its cell that no other listed move took.
        """
        engine = self.engine
        me = self.me
        occ = owned[0] | owned[1] | owned[2] | owned[3]
        valid = engine.moves(me, owned, occ, self.hand(me, owned))
        masks: dict[str, int] = {}
        taken: set[int] = set()
        odd: list[str] = []
        for text in listed:
            try:
                mask = engine.mask(text)
            except (KeyError, ValueError, IndexError):
                mask = -1
            if mask in valid and mask not in taken:
                masks[text] = mask
                taken.add(mask)
            else:
                odd.append(text)
        for text in odd:
            fields = text.split()
            letter = fields[2][:1] if len(fields) == 3 else ""
            try:
                cell = 1 << (int(fields[1]) * N + int(fields[0]))
            except (ValueError, IndexError):
                cell = 0
            options = (
                [m for m in valid if engine.letter[m] == letter and m & cell and m not in taken]
                or [m for m in valid if m not in taken]
                or list(valid)
            )
            masks[text] = options[0] if options else 0
            taken.add(masks[text])
        if odd:
            log(f"strategist2: {len(odd)} listed moves read by shape and cell, not by code")
        return masks

    def evaluate(self, line: Line) -> float:
        """Value of ``line``'s board for the bot: its expected final score against the
        opponents' (a seat out of moves keeps the squares it covers)."""
        engine = self.engine
        board, hands, live = line.board, line.hands, line.live
        occ = board[0] | board[1] | board[2] | board[3]
        ground = territory(board, live, occ)
        mine = float(board[self.me].bit_count())
        others = []
        for seat in range(self.players):
            if seat in live:
                half = HALF_ME if seat == self.me else HALF_OPP
                value = engine.expected(seat, board, occ, hands[seat], half)
                value += W_TERRITORY * ground[live.index(seat)]
            else:
                value = float(board[seat].bit_count())
            if seat == self.me:
                mine = value
            else:
                others.append(value)
        if not others:
            return mine
        blend = W_LEADER * max(others) + (1 - W_LEADER) * sum(others) / len(others)
        return mine - W_OPPONENTS * blend

    def play_round(self, line: Line, mask: int) -> Line:
        """The bot plays ``mask``, then every following opponent its predicted reply
        (opponents modelled as random players are left where they are)."""
        engine = self.engine
        me = self.me
        board = line.board[:]
        board[me] |= mask
        hands = line.hands[:]
        hands[me] = hands[me].replace(engine.letter[mask], "")
        live = [me]
        for step in range(1, self.players):
            seat = (me + step) % self.players
            if seat not in line.live:
                continue
            live.append(seat)
            if not (self.greedy_like(seat) or self.sensible(seat)):
                continue
            occ = board[0] | board[1] | board[2] | board[3]
            reply = engine.greedy(seat, board, occ, self.hand(seat, board, hands[seat]))
            if reply:
                board[seat] |= reply
                hands[seat] = hands[seat].replace(engine.letter[reply], "")
            else:
                live.pop()
        return Line(board, hands, live)

    def ordered(
        self, seat: int, board: list[int], rivals: list[int], masks: Iterable[int]
    ) -> list[tuple[float, int]]:
        """``seat``'s placements ``masks`` with a cheap score, the most promising first:
        squares, new corner cells, the ``rivals``' corner cells taken, nearness to the centre."""
        occ = board[0] | board[1] | board[2] | board[3]
        theirs = 0
        for rival in rivals:
            theirs |= anchors(rival, board, occ)
        own = board[seat]
        key = self.engine.greedy_key
        scored = []
        for mask in masks:
            after = own | mask
            spots = corner(after) & ~(occ | mask | side(after))
            size = mask.bit_count()
            score = (
                10 * size
                + spots.bit_count()
                + 2 * (mask & theirs).bit_count()
                - key[mask][0] / (30.0 * size)
            )
            scored.append((score, mask))
        scored.sort(key=lambda item: -item[0])
        return scored

    def worst_reply(self, root: Line, mask: int, rival: int, deadline: float) -> float | None:
        """Our value after ``mask`` and the reply of ``rival`` that is worst for us, among
        its DUEL_REPLIES most promising (by the cheap score) and its greedy move; None when
        out of time."""
        engine = self.engine
        me = self.me
        board = root.board[:]
        board[me] |= mask
        hands = root.hands[:]
        hands[me] = hands[me].replace(engine.letter[mask], "")
        occ = board[0] | board[1] | board[2] | board[3]
        hand = self.hand(rival, board, hands[rival])
        replies = engine.moves(rival, board, occ, hand)
        if not replies:
            return self.evaluate(Line(board, hands, [me]))
        picked = [m for _score, m in self.ordered(rival, board, [me], replies)[:DUEL_REPLIES]]
        greedy = engine.greedy(rival, board, occ, hand)
        if greedy and greedy not in picked:
            picked.append(greedy)
        worst = float("inf")
        for reply in picked:
            if time.perf_counter() > deadline:
                return None
            after = board[:]
            after[rival] |= reply
            left = hands[:]
            left[rival] = left[rival].replace(engine.letter[reply], "")
            worst = min(worst, self.evaluate(Line(after, left, root.live)))
        return worst

    def second_round(self, line: Line, deadline: float) -> float | None:
        """Best value after the bot's next move (among the REPLIES most promising) and the
        predicted replies to it; None when out of time."""
        me = self.me
        board = line.board
        occ = board[0] | board[1] | board[2] | board[3]
        masks = self.engine.moves(me, board, occ, self.hand(me, board, line.hands[me]))
        if not masks:
            return self.evaluate(Line(board, line.hands, [s for s in line.live if s != me]))
        best = float("-inf")
        rivals = [seat for seat in line.live if seat != me]
        for _score, mask in self.ordered(me, board, rivals, masks)[:REPLIES]:
            if time.perf_counter() > deadline:
                return None
            best = max(best, self.evaluate(self.play_round(line, mask)))
        return best

    def choose(
        self,
        owned: list[int],
        listed: list[str],
        masks: dict[str, int],
        began: float,
        deadline: float,
    ) -> str:
        """Value the listed moves (most promising first) after one predicted round, then the
        best of them after a second one."""
        engine = self.engine
        me = self.me
        occ = owned[0] | owned[1] | owned[2] | owned[3]
        for seat in range(self.players):
            if seat != me and not self.out[seat]:
                hand = self.hand(seat, owned)
                if not engine.moves(seat, owned, occ, hand):
                    self.out[seat] = True
        live = [me] + [s for s in range(self.players) if s != me and not self.out[s]]
        root = Line(owned, self.left[:], live)
        text_of = {mask: text for text, mask in masks.items()}
        if len(live) == 2 and DUEL_SEARCH and len(text_of) > 1:
            return self.duel(root, text_of, began, deadline)
        order = [mask for _score, mask in self.ordered(me, owned, live[1:], text_of)]
        first: list[tuple[float, int, Line]] = []
        halfway = began + (deadline - began) * FIRST_SHARE
        if len(order) > 1:
            for mask in order:
                if first and time.perf_counter() > halfway:
                    break
                after = self.play_round(root, mask)
                first.append((self.evaluate(after), mask, after))
        first.sort(key=lambda item: -item[0])
        best = first[0][1] if first else order[0]
        best_value = first[0][0] if first else 0.0
        deep = []
        if len(live) == 2 and DUEL_REPLIES:
            # A duel: the opponent is not assumed to play greedy but its most damaging
            # reply among its most promising ones (the cheap score's best and the greedy
            # move), and each of our best first moves is valued by that reply.
            for _value, mask, _after in first[:DUEL_MOVES]:
                value = self.worst_reply(root, mask, live[1], deadline)
                if value is None:
                    break
                deep.append((value, mask))
        else:
            for _value, mask, after in first:
                value = self.second_round(after, deadline)
                if value is None:
                    break
                deep.append((value, mask))
        if len(deep) > 1:
            best_value, best = max(deep)
        models = " ".join(
            f"{s}:{self.model(s)}({self.hits[s]}/{self.seen[s]}, "
            f"{self.rank[s] / max(1, self.ranked[s]):.2f})"
            for s in range(self.players)
            if s != me
        )
        log(
            f"strategist2[{me}]: {len(listed)} moves, {len(first)} valued after a round, "
            f"{len(deep)} after two; play {text_of[best]} (value {best_value:.1f}) "
            f"in {1000 * (time.perf_counter() - began):.0f} ms; models {models}"
        )
        return text_of[best]

    def duel(self, root: Line, text_of: dict[int, str], began: float, deadline: float) -> str:
        """A duel: iterative deepening alpha-beta (Duel) over our most promising moves."""
        me, opp = root.live
        search = Duel(self.engine, me, opp, deadline)
        node = search.root(root.board, root.hands)
        order = [mask for _score, mask in self.ordered(me, root.board, [opp], text_of)]
        total = sum(len(group) for seat in (me, opp) for group in node.places[seat].values())
        search.full = total <= DUEL_FULL
        # One ply: the most promising moves valued right after them.
        valued: list[tuple[float, int]] = []
        halfway = began + (deadline - began) * DUEL_FIRST_SHARE
        for mask in order[:DUEL_FIRST]:
            if valued and time.perf_counter() > halfway:
                break
            valued.append((search.evaluate(search.child(node, me, mask)), mask))
        valued.sort(key=lambda item: -item[0])
        best_value, best = valued[0]
        done = 1
        ranked = [mask for _value, mask in valued[:DUEL_ROOT]]
        depth = 2
        while len(ranked) > 1 and depth <= DUEL_MAX_DEPTH:
            results: list[tuple[float, int]] = []
            alpha = float("-inf")
            try:
                for mask in ranked:
                    value = search.search(
                        search.child(node, me, mask), depth - 1, opp, alpha, float("inf")
                    )
                    results.append((value, mask))
                    alpha = max(alpha, value)
            except TimeoutError:
                pass
            if results:
                best_value, best = max(results, key=lambda item: item[0])
                if len(results) == len(ranked):
                    done = depth
                # next depth: the best first, then this depth's order by value
                results.sort(key=lambda item: -item[0])
                ranked = [mask for _value, mask in results] + ranked[len(results) :]
            if len(results) < len(ranked) or time.perf_counter() > deadline:
                break
            depth += 1
        log(
            f"strategist2[{me}]: duel: {len(text_of)} moves ({total} placements, "
            f"{'full' if search.full else 'light'}), {len(valued)} valued, depth "
            f"{done} over {len(ranked)} (nodes {search.nodes}, leaves {search.leaves}); "
            f"play {text_of[best]} (value {best_value:.1f}) "
            f"in {1000 * (time.perf_counter() - began):.0f} ms"
        )
        return text_of[best]


def main() -> None:
    """Read the init input, then answer every turn.

    Optional ``NAME=value`` arguments override the tuning constants (for tuning runs).
    """
    for arg in sys.argv[1:]:
        name, _, value = arg.partition("=")
        if name in TUNABLE:
            globals()[name] = type(globals()[name])(float(value))
    bot = Strategist()
    while True:
        print(bot.turn(), flush=True)


if __name__ == "__main__":
    main()
