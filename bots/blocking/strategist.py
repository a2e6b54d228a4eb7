#!/usr/bin/env python3
"""Blocking bot `strategist`: keeps its corners open, closes the opponents', looks a reply ahead.

Every move from the referee's list is scored by a static evaluation of the position after
it: squares placed, the free corner cells the bot can still grow from, minus the opponents'
such cells (weighted less with 3-4 players). In that order, candidates are then re-scored
after the next opponent answers with its own best reply (same evaluation from its side),
adding a territory count: free cells the bot reaches before every opponent. The best
re-scored move is played. The search stops after ~100 ms (the clock is 200 ms) and is
generated on bitmasks by the bot itself. Standalone (stdlib only), CodinGame-submittable;
logs its reasoning to stderr.
"""

from __future__ import annotations

import sys
import time

N = 13
FULL = (1 << (N * N)) - 1
COL_FIRST = sum(1 << (y * N) for y in range(N))
NOT_FIRST = FULL & ~COL_FIRST
CORNERS = ((0, 0), (N - 1, N - 1), (0, N - 1), (N - 1, 0))
BUDGET = 0.100  # seconds of thinking per turn
W_SIZE, W_MINE, W_TERRITORY = 3.0, 1.0, 0.5
# Weight of the opponents' corner cells: with 3 opponents blocking matters less than growing.
W_THEIRS = {2: 1.0, 3: 0.5, 4: 0.5}


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
        self.cells: dict[str, list[tuple[int, int]]] = {}  # "Lfr" -> squares in reading order
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

    def moves(self, seat: int, owned: list[int], letters: str) -> list[tuple[str, int]]:
        """Distinct (letter, cells) placements open to ``seat``."""
        occ = owned[0] | owned[1] | owned[2] | owned[3]
        own = owned[seat]
        blocked = occ | side(own)
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
        return [(letter, mask) for mask, letter in found.items()]


def anchors(seat: int, owned: list[int], occ: int) -> int:
    """Free cells where ``seat`` may start a new piece."""
    own = owned[seat]
    if not own:
        x, y = CORNERS[seat]
        return (1 << (y * N + x)) & ~occ
    return corner(own) & ~(occ | side(own))


def evaluate(seat: int, owned: list[int], active: list[int], theirs: float) -> float:
    """How good the board is for ``seat``: own squares and growth corners minus the others'."""
    occ = owned[0] | owned[1] | owned[2] | owned[3]
    value = W_SIZE * owned[seat].bit_count() + W_MINE * anchors(seat, owned, occ).bit_count()
    for other in active:
        if other != seat:
            value -= theirs * anchors(other, owned, occ).bit_count()
    return value


def territory(owned: list[int], seats: list[int]) -> list[int]:
    """Free cells each seat reaches strictly first, growing from its corners one ring per step."""
    occ = owned[0] | owned[1] | owned[2] | owned[3]
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
        self.theirs = W_THEIRS[self.players]

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

    def choose(self, owned: list[int], listed: list[str], began: float) -> str:
        """Score every listed move statically, then the best ones after the next reply."""
        me = self.me
        opponents = [(me + i) % self.players for i in range(1, self.players)]
        # Opponents that can no longer move do not count (they have no corners left to use).
        live = [me] + [o for o in opponents if self.engine.moves(o, owned, self.left[o])]
        scored = []
        for text in listed:
            mask = self.engine.mask(text)
            after = owned[:]
            after[me] |= mask
            scored.append((evaluate(me, after, live, self.theirs), text, after))
        scored.sort(key=lambda item: -item[0])
        best_value, best = float("-inf"), scored[0][1]
        searched = 0
        for _static, text, after in scored:
            board = self.reply(after, opponents, live, began)
            if board is None:
                break  # out of time: this candidate was not fully searched
            value = self.leaf(board, live)
            searched += 1
            if value > best_value:
                best_value, best = value, text
        if not searched:
            best_value, best = scored[0][0], scored[0][1]
        log(
            f"strategist[{me}]: {len(listed)} moves, searched {searched}, "
            f"play {best} (value {best_value:.1f}), {1000 * (time.perf_counter() - began):.0f} ms"
        )
        return best

    def leaf(self, board: list[int], live: list[int]) -> float:
        """Final score of a searched line: the static value plus territory over the opponents'."""
        ground = territory(board, live)
        others = ground[1:]
        lead = ground[0] - (sum(others) / len(others) if others else 0)
        return evaluate(self.me, board, live, self.theirs) + W_TERRITORY * lead

    def reply(
        self, board: list[int], opponents: list[int], live: list[int], began: float
    ) -> list[int] | None:
        """The board after the next opponent that can move plays its best reply (by its own
        static value); None when the budget ran out meanwhile."""
        nxt = next((opp for opp in opponents if opp in live), None)
        if nxt is None:
            return board
        top, top_board = float("-inf"), board
        for _letter, mask in self.engine.moves(nxt, board, self.left[nxt]):
            trial = board[:]
            trial[nxt] |= mask
            value = evaluate(nxt, trial, live, self.theirs)
            if value > top:
                top, top_board = value, trial
        return None if time.perf_counter() - began > BUDGET else top_board


def main() -> None:
    """Read the init input, then answer every turn."""
    bot = Strategist()
    while True:
        print(bot.turn(), flush=True)


if __name__ == "__main__":
    main()
