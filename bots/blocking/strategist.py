#!/usr/bin/env python3
"""Blocking bot `strategist`: plays for the squares it can still place and the leader's loss.

Each listed move is first scored statically on the board after it, for every seat still
playing: squares covered, free corner cells to grow from (plus the free room around them)
and the free cells the seat reaches before everyone else; the bot's value minus a blend of
the strongest and the average opponent's. The best of them are then re-scored by piece
mobility, generated on bitmasks by the bot itself: for each shape still in hand, how many
placements remain (a shape with few placements is likely to stay in hand, so its squares
count less), for the bot after its move and for every opponent, whose potential (squares
covered plus placeable squares) is subtracted, weighted towards the strongest. Hard shapes
are thereby played while they still fit, and the moves that leave the leading opponents
with shapes that no longer fit are preferred. Thinking stops after ~90 ms (the clock is
200 ms). Standalone (stdlib only), CodinGame-submittable; reasoning goes to stderr.
"""

from __future__ import annotations

import sys
import time

N = 13
FULL = (1 << (N * N)) - 1
COL_FIRST = sum(1 << (y * N) for y in range(N))
NOT_FIRST = FULL & ~COL_FIRST
CORNERS = ((0, 0), (N - 1, N - 1), (0, N - 1), (N - 1, 0))
BUDGET = 0.090  # seconds of thinking per turn
TOP = 40  # candidates re-scored by mobility, best static values first
# Static evaluation: squares covered, corner cells, room around them, cells reached first.
W_SIZE, W_ANCHOR, W_ROOM, W_TERRITORY = 4.0, 1.0, 0.25, 0.5
W_OPPONENTS, W_LEADER = (
    0.6,
    0.5,
)  # opponents' static value: weight, share of the strongest
# Mobility: a shape in hand counts fully from MOB_FULL placements (OPP_FULL for opponents).
W_MOBILITY, MOB_FULL = 2.0, 40.0
W_POTENTIAL, OPP_FULL, POT_LEADER = 3.0, 3.0, 0.4


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


def room(spots: int, free: int) -> int:
    """Sum over the cells of ``spots`` of the ``free`` cells in their 3x3 block."""
    total = 0
    for band in (spots, (spots << 1) & NOT_FIRST, (spots & NOT_FIRST) >> 1):
        total += (band & free).bit_count()
        total += (((band << N) & FULL) & free).bit_count() + ((band >> N) & free).bit_count()
    return total


def orient(rows: list[str], code: str) -> list[tuple[int, int]]:
    """Cells of the shape drawn by ``rows`` in orientation ``code``, in reading order."""
    width, height = len(rows[0]), len(rows)
    cells = [(x, y) for y in range(height) for x in range(width) if rows[y][x] == "#"]
    if code[0] == "1":
        cells = [(width - 1 - x, y) for x, y in cells]
    for _ in range(int(code[1])):
        cells = [(height - 1 - y, x) for x, y in cells]
        width, height = height, width
    return sorted(cells, key=lambda c: (c[1], c[0]))


class Engine:
    """Placements of the shapes in play and move generation on bitmask boards."""

    def __init__(self, shapes: dict[str, list[str]]) -> None:
        self.size = {letter: "".join(rows).count("#") for letter, rows in shapes.items()}
        self.through: list[dict[str, list[int]]] = [{} for _ in range(N * N)]
        self.cells: dict[str, list[tuple[int, int]]] = {}
        for letter, rows in shapes.items():
            seen: set[tuple[tuple[int, int], ...]] = set()
            for code in ("00", "01", "02", "03", "10", "11", "12", "13"):
                cells = orient(rows, code)
                self.cells[letter + code] = cells
                if tuple(cells) in seen:
                    continue
                seen.add(tuple(cells))
                width = max(x for x, _ in cells) + 1
                height = max(y for _, y in cells) + 1
                for y in range(N - height + 1):
                    for x in range(N - width + 1):
                        mask = 0
                        for cx, cy in cells:
                            mask |= 1 << ((y + cy) * N + x + cx)
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

    def moves(self, seat: int, owned: list[int], letters: str) -> dict[int, str]:
        """Distinct placements open to ``seat``: cells -> letter."""
        occ = owned[0] | owned[1] | owned[2] | owned[3]
        blocked = occ | side(owned[seat])
        spots = anchors(seat, owned, occ)
        found: dict[int, str] = {}
        while spots:
            low = spots & -spots
            spots ^= low
            by_letter = self.through[low.bit_length() - 1]
            for letter in letters:
                for mask in by_letter.get(letter, ()):
                    if not mask & blocked:
                        found[mask] = letter
        return found

    def can_move(self, seat: int, owned: list[int], letters: str) -> bool:
        """Whether ``seat`` has any placement left."""
        occ = owned[0] | owned[1] | owned[2] | owned[3]
        blocked = occ | side(owned[seat])
        spots = anchors(seat, owned, occ)
        while spots:
            low = spots & -spots
            spots ^= low
            by_letter = self.through[low.bit_length() - 1]
            for letter in letters:
                for mask in by_letter.get(letter, ()):
                    if not mask & blocked:
                        return True
        return False


def anchors(seat: int, owned: list[int], occ: int) -> int:
    """Free cells where ``seat`` may start a new piece."""
    own = owned[seat]
    if not own:
        x, y = CORNERS[seat]
        return (1 << (y * N + x)) & ~occ
    return corner(own) & ~(occ | side(own))


def territory(owned: list[int], seats: list[int], occ: int) -> list[int]:
    """Free cells each seat reaches strictly first, growing from its corners one ring per step."""
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


class Strategist:
    """Game knowledge kept between turns: shapes, seats, letters each seat has left."""

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
        self.out = [False] * 4  # seats known to have no move left (they never move again)

    def turn(self) -> str:
        """Read one turn's input and choose the answer."""
        rows = [read()]
        began = time.perf_counter()
        rows += [read() for _ in range(N - 1)]
        for _ in range(int(read())):
            seat, _x, _y, shape = read().split()
            self.left[int(seat)] = self.left[int(seat)].replace(shape[0], "")
        listed = [read() for _ in range(int(read()))]
        owned = [0, 0, 0, 0]
        for y, row in enumerate(rows):
            for x, ch in enumerate(row):
                if ch in "0123":
                    owned[int(ch)] |= 1 << (y * N + x)
        move = self.choose(owned, listed, began)
        self.left[self.me] = self.left[self.me].replace(move.split()[2][0], "")
        return move

    def evaluate(self, board: list[int], live: list[int]) -> float:
        """Static value of ``board`` for the bot (``live[0]``) against the other live seats."""
        occ = board[0] | board[1] | board[2] | board[3]
        ground = territory(board, live, occ)
        values = []
        for i, seat in enumerate(live):
            own = board[seat]
            spots = anchors(seat, board, occ)
            values.append(
                W_SIZE * own.bit_count()
                + W_ANCHOR * spots.bit_count()
                + W_ROOM * room(spots, FULL & ~(occ | side(own)))
                + W_TERRITORY * ground[i]
            )
        others = values[1:]
        if not others:
            return values[0]
        blend = W_LEADER * max(others) + (1 - W_LEADER) * sum(others) / len(others)
        return values[0] - W_OPPONENTS * blend

    def mobility(self, seat: int, board: list[int], letters: str, full: float) -> float:
        """Squares of ``letters`` that ``seat`` can still place on ``board``, each shape
        counted in proportion to its placements up to ``full`` of them."""
        counts: dict[str, int] = {}
        for letter in self.engine.moves(seat, board, letters).values():
            counts[letter] = counts.get(letter, 0) + 1
        size = self.engine.size
        return sum(size[letter] * min(1.0, n / full) for letter, n in counts.items())

    def potential(self, board: list[int], opponents: list[int]) -> float:
        """The opponents' squares covered plus placeable, blended towards the strongest."""
        values = [
            W_SIZE * board[o].bit_count()
            + W_MOBILITY * self.mobility(o, board, self.left[o], OPP_FULL)
            for o in opponents
        ]
        return POT_LEADER * max(values) + (1 - POT_LEADER) * sum(values) / len(values)

    def choose(self, owned: list[int], listed: list[str], began: float) -> str:
        """Score every listed move statically, then re-score the best by mobility."""
        me = self.me
        opponents = [(me + i) % self.players for i in range(1, self.players)]
        for o in opponents:
            if not self.out[o] and not self.engine.can_move(o, owned, self.left[o]):
                self.out[o] = True
        playing = [o for o in opponents if not self.out[o]]
        live = [me, *playing]
        scored = []
        for text in listed:
            after = owned[:]
            after[me] |= self.engine.mask(text)
            scored.append((self.evaluate(after, live), text, after))
        scored.sort(key=lambda item: -item[0])
        best_value, best = scored[0][0], scored[0][1]
        searched = 0
        if len(scored) > 1:
            best_value = float("-inf")
            for static, text, after in scored[:TOP]:
                if time.perf_counter() - began > BUDGET:
                    break
                hand = self.left[me].replace(text.split()[2][0], "")
                value = static + W_MOBILITY * self.mobility(me, after, hand, MOB_FULL)
                if playing:
                    value -= W_POTENTIAL * self.potential(after, playing)
                searched += 1
                if value > best_value:
                    best_value, best = value, text
        log(
            f"strategist[{me}]: {len(listed)} moves, {len(playing)} opponents playing, "
            f"re-scored {searched}, play {best} (value {best_value:.1f}), "
            f"{1000 * (time.perf_counter() - began):.0f} ms"
        )
        return best


def main() -> None:
    """Read the init input, then answer every turn."""
    bot = Strategist()
    while True:
        print(bot.turn(), flush=True)


if __name__ == "__main__":
    main()
