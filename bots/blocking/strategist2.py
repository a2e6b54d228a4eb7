#!/usr/bin/env python3
"""Blocking bot `strategist2`: the strategist, tuned, and reading moves without their codes.

What it changes in ``strategist.py``: it never interprets an orientation code it did not
have to. Its own answer is always one of the valid moves listed in its turn input, copied
as written; which cells each listed move covers is worked out under the ruled convention
and checked against the placements it generates itself (a listed move that does not match
falls back to the valid placement of that shape through that cell). The opponents' moves
are read from the board: the cells a seat gained since the last turn are its move (only
the letter of the move line is used). In a duel it values its best first moves against the
opponent's most damaging reply among its most promising ones (DUEL_MOVES, DUEL_REPLIES)
instead of assuming the predicted reply; with more players it tries 12 of its own
second-round moves instead of 8.

The strategist's method, kept: it looks two rounds ahead, with the opponents' replies
predicted.

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
stops ~105 ms into a turn (clock 200 ms) and 200 ms after start-up on the first turn
(clock 1 s). Standalone (stdlib only), CodinGame-submittable; reasoning goes to stderr.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass

N = 13
FULL = (1 << (N * N)) - 1
COL_FIRST = sum(1 << (y * N) for y in range(N))
NOT_FIRST = FULL & ~COL_FIRST
CORNERS = ((0, 0), (N - 1, N - 1), (0, N - 1), (N - 1, 0))
CODES = ("00", "01", "02", "03", "10", "11", "12", "13")
OPENERS_3P = "ABCD"  # players 0 and 1 of a 3-player game open with one of these
STARTED = time.perf_counter()
BUDGET = 0.105  # seconds of thinking per turn (the clock is 0.2 s)
FIRST_BUDGET = 0.200  # first turn: 1 s, counted from the start of the interpreter
# Expected final score: a shape with n placements counts n / (n + HALF) of its squares.
HALF_ME, HALF_OPP = 6.0, 1.5
W_TERRITORY = 0.15  # per free cell a seat reaches first
W_LEADER, W_OPPONENTS = 0.6, 0.9  # opponents: share of the strongest, overall weight
FIRST_SHARE = 0.5  # share of the thinking time for the first round
SENSIBLE = 0.45  # average rank of its moves (0 best, 1 worst) below which a player is sensible
REPLIES = 12  # the bot's own next moves tried in the second round (3-4 players)
DUEL_MOVES = 6  # in a duel: our best first moves valued against the opponent's replies ...
DUEL_REPLIES = 5  # ... its most promising replies by the cheap score (plus its greedy one)


TUNABLE = (
    "BUDGET",
    "HALF_ME",
    "HALF_OPP",
    "W_TERRITORY",
    "W_LEADER",
    "W_OPPONENTS",
    "REPLIES",
    "FIRST_SHARE",
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
        for _ in range(int(read())):
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
        deadline = began + BUDGET if self.turns else STARTED + FIRST_BUDGET
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
