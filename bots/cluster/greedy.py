#!/usr/bin/env python3
"""42-cluster greedy bot: wins at once if it can, else avoids handing the opponent a win.

Each turn it fetches the board (``fetch cells``, ``fetch gravity``; walls once), then:
1. plays an action that wins now (a drop completing a line, or a winning rotation);
2. otherwise keeps only the actions after which the opponent has no winning reply (a drop of
   either of its colours or a rotation), which blocks a line the opponent could complete;
3. among those prefers the drop that makes its own longest line through the landing cell,
   then the one that sits where the opponent would extend its own line. Logs to stderr.
"""

from __future__ import annotations

import random
import sys

DIRS = ((0, -1, 1), (1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1))


def log(msg: str) -> None:
    """Reasoning goes to stderr."""
    print(f"[greedy] {msg}", file=sys.stderr, flush=True)


def send(line: str) -> None:
    """One answer line to the referee."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def read() -> list[str]:
    """The next line's words; exit quietly when the referee closes the pipe."""
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return line.split()


class Geometry:
    """The hexagon of edge ``size``: cells sorted by (q, r), neighbours, columns, fall order."""

    def __init__(self, size: int, win: int) -> None:
        n = size - 1
        self.size, self.win = size, win
        self.cells = [
            (q, r, -q - r) for q in range(-n, n + 1) for r in range(-n, n + 1) if abs(q + r) <= n
        ]
        self.index = {c: i for i, c in enumerate(self.cells)}
        self.nb = [
            [self.index.get((q + dq, r + dr, s + ds), -1) for (q, r, s) in self.cells]
            for (dq, dr, ds) in DIRS
        ]
        self.positions = list(range(-n, n + 1))
        self.entries = [
            {p: self.index[self.entry_cell(g, p)] for p in self.positions} for g in range(6)
        ]
        self.fall = [
            sorted(
                range(len(self.cells)), key=lambda i, d=d: -sum(map(int.__mul__, self.cells[i], d))
            )
            for d in DIRS
        ]

    def entry_cell(self, gravity: int, pos: int) -> tuple[int, int, int]:
        """The top cell of column ``pos`` under ``gravity`` (the referee's own computation)."""
        n = self.size - 1
        q, r, s = (pos, -n - pos, n) if pos < 0 else (pos, -n, n - pos)
        for _ in range((gravity + 3) % 6):
            q, r, s = -r, -s, -q
        return q, r, s

    def landing(self, board: list[int], walls: set[int], gravity: int, pos: int) -> int:
        """Where a chip dropped at ``pos`` stops, or -1 when the column is full."""
        i = self.entries[gravity][pos]
        if board[i] != -1:
            return -1
        step = self.nb[gravity]
        while (j := step[i]) >= 0 and j not in walls and board[j] == -1:
            i = j
        return i

    def settle(self, board: list[int], walls: set[int], gravity: int) -> list[int]:
        """A copy of ``board`` after every chip fell along ``gravity``."""
        out = board[:]
        step = self.nb[gravity]
        for i in self.fall[gravity]:
            chip = out[i]
            if chip == -1:
                continue
            j = i
            while (k := step[j]) >= 0 and k not in walls and out[k] == -1:
                j = k
            if j != i:
                out[j], out[i] = chip, -1
        return out

    def run_through(self, board: list[int], i: int) -> int:
        """The longest one-colour line through cell ``i`` (which holds a chip)."""
        chip, best = board[i], 0
        for d in range(3):
            length = 1
            for step in (self.nb[d], self.nb[d + 3]):
                j = step[i]
                while j >= 0 and board[j] == chip:
                    length, j = length + 1, step[j]
            best = max(best, length)
        return best

    def longest(self, board: list[int], half: int) -> list[int]:
        """Each player's longest one-colour line (player = colour // half)."""
        best = [0, 0]
        for d in range(3):
            fwd, back = self.nb[d], self.nb[d + 3]
            for i, chip in enumerate(board):
                if chip == -1 or (back[i] >= 0 and board[back[i]] == chip):
                    continue
                length, j = 1, fwd[i]
                while j >= 0 and board[j] == chip:
                    length, j = length + 1, fwd[j]
                p = chip // half
                if length > best[p]:
                    best[p] = length
        return best


class Greedy:
    """One-move-ahead player for seat ``me``."""

    def __init__(self, geo: Geometry, walls: set[int], me: int, colors: int, chips: int) -> None:
        self.geo, self.walls, self.me = geo, walls, me
        self.half, self.colors, self.chips = colors // 2, colors, chips
        self.rng = random.Random()

    def owned(self, player: int) -> list[int]:
        """Colour ids of ``player``."""
        return list(range(player * self.half, (player + 1) * self.half))

    def winner(self, board: list[int]) -> int:
        """The player who wins with this board (-1 if none)."""
        lines = self.geo.longest(board, self.half)
        for p in (0, 1):
            if lines[p] >= self.geo.win and lines[p] > lines[1 - p]:
                return p
        return -1

    def opponent_can_win(self, board: list[int], gravity: int) -> bool:
        """Whether the opponent has a drop (either colour) or a rotation that wins."""
        opp = 1 - self.me
        for pos in self.geo.positions:
            cell = self.geo.landing(board, self.walls, gravity, pos)
            if cell < 0:
                continue
            for chip in self.owned(opp):
                board[cell] = chip
                won = self.geo.run_through(board, cell) >= self.geo.win
                board[cell] = -1
                if won:
                    return True
        return any(
            self.winner(self.geo.settle(board, self.walls, g)) == opp
            for g in range(6)
            if g != gravity
        )

    def choose(self, board: list[int], gravity: int, hand: list[int], can_rotate: bool) -> str:
        """The action line to play."""
        drops: list[tuple[int, int, int]] = []  # (pos, chip, landing cell)
        for pos in self.geo.positions:
            cell = self.geo.landing(board, self.walls, gravity, pos)
            if cell >= 0:
                drops.extend((pos, chip, cell) for chip in hand)
        rotations = [g for g in range(6) if g != gravity] if can_rotate else []
        for pos, chip, cell in drops:
            board[cell] = chip
            won = self.winner(board) == self.me
            board[cell] = -1
            if won:
                log(f"winning drop at {pos}")
                return f"drop {pos} {chip}"
        for g in rotations:
            if self.winner(self.geo.settle(board, self.walls, g)) == self.me:
                log(f"winning rotation to {g}")
                return f"rotate {g}"
        scored: list[tuple[float, str]] = []
        for pos, chip, cell in drops:
            board[cell] = chip
            safe = self.winner(board) == -1 and not self.opponent_can_win(board, gravity)
            own = self.geo.run_through(board, cell)
            block = 0
            for other in self.owned(1 - self.me):
                board[cell] = other
                block = max(block, self.geo.run_through(board, cell))
            board[cell] = -1
            score = 100 * safe + 3 * own + 2 * block + self.rng.random()
            scored.append((score, f"drop {pos} {chip}"))
        for g in rotations:
            new = self.geo.settle(board, self.walls, g)
            safe = self.winner(new) == -1 and not self.opponent_can_win(new, g)
            scored.append((100 * safe - 50 + self.rng.random(), f"rotate {g}"))
        if not scored:
            log("no legal action left")
            return f"drop 0 {hand[0]}"
        score, line = max(scored)
        log(f"{line} (score {score:.1f}, {'safe' if score >= 50 else 'no safe move'})")
        return line


def main() -> None:
    """Answer ``init``; then on each ``chips`` line fetch the board and pick greedily."""
    geo: Geometry | None = None
    player: Greedy | None = None
    colors = chips = me = 0
    while True:
        words = read()
        if not words:
            continue
        if words[0] == "init":
            colors, chips, size, win = map(int, words[1:5])
            me = int(words[6])
            log(f"init colors={colors} chips={chips} size={size} win={win} me={me}")
            geo = Geometry(size, win)
            send("color 3")
        elif words[0] == "chips" and geo is not None:
            a, b = int(words[1]), int(words[2])
            if player is None:
                send("fetch walls")
                walls = {geo.index[tuple(map(int, read()[1:4]))] for _ in range(int(read()[1]))}
                player = Greedy(geo, walls, me, colors, chips)
            send("fetch cells")
            board = [-1] * len(geo.cells)
            for _ in range(int(read()[1])):
                _, q, r, s, v = read()
                board[geo.index[(int(q), int(r), int(s))]] = int(v)
            send("fetch gravity")
            gravity = int(read()[1])
            hand = sorted({c for c in (a, b) if c != -1})
            send(player.choose(board, gravity, hand, b != -1))


if __name__ == "__main__":
    main()
