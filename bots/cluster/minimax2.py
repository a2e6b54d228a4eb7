#!/usr/bin/env python3
"""42-cluster minimax2 bot: alpha-beta over drops and rotations with iterative deepening.

``minimax.py``'s search made deeper: killer moves and late move reductions (a quiet drop
late in the order is first searched one or two plies shallower, in full only when it looks
better than the best so far) reach one to two plies further in the same time, and the move
generation and the rotations (chips settled, windows rebuilt in one pass) are cheaper.
Rotations, which end most games, are searched in full: never reduced, and the bot's own
are tried on the last ply too (one may complete a line at once). It searches until 70% of
the turn's timeout is spent (the minimax stops at 50%), depths 1 and 2 up to 80% on a
loaded machine (minimax: 70%). Landing cells and colour counts are kept
incrementally instead of recomputed at every node.

Each turn it fetches the board (``fetch cells``, ``fetch gravity``; walls once), then
searches deeper and deeper (principal variation search, a Zobrist transposition table,
history and killer move ordering, late move reductions) until SOFT of the turn's timeout is
spent (depths 1 and 2 may use up to HARD), keeping the best move of the last finished depth.
The opponent's chips are unknown, so its replies are drops of either of its colours and
rotations; a line that completes next move counts as a sure win only with threats in every
colour of its owner, else as a likely one (the needed chip may not be drawn). Leaves are
scored by open windows of ``win_length`` cells per colour (2 and 3 chips count; the
opponent's three weighs more than ours), two threats at once, and the chips each player
has left (it counts rotations from the opponent's echoed actions: running out of chips
loses), with weights fitted to the outcomes of stored games: a chip is worth most of an
open three, so a rotation (two chips) must buy more than it costs. Logs to stderr.
"""

from __future__ import annotations

import random
import sys
import time
from functools import reduce
from itertools import compress, repeat
from operator import getitem, xor
from typing import Any

Act = tuple[Any, ...]  # ('d', pos, chip, cell) or ('r', gravity)

DIRS = ((0, -1, 1), (1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1))
WIN = 1_000_000
# The evaluation's weights were fitted to the outcomes of 616 stored games against the
# minimax (bench/cluster_eval_fit.py: a logistic regression over 26,012 positions).
WEIGHTS = (0, 0, 18, 60, 400, 2000, 8000)  # our window's score by chips in it (then capped)
OPP_WEIGHTS = (0, 1, 16, 75, 600, 3000, 12000)  # the opponent's window's, against us
CHIP_VALUE = 50  # a chip still owned is worth this much (running out loses) ...
SCARCITY = 3000  # ... plus SCARCITY / (chips left + 1) lost as the bag empties
LATE_CHIP = 0  # ... plus LATE_CHIP * (share of the board filled)**2
SOFT, HARD = 0.7, 0.8  # share of the turn's timeout for deep searches / for depths 1-2
DEFENCE = 1.0  # the opponent's windows weigh OPP_WEIGHTS times this
EXACT, LOWER, UPPER = 0, 1, 2  # transposition-table bounds
MAX_DEPTH = 20  # iterative deepening stops here (tests and profiling fix the depth)
LMR_FROM = 4  # late move reductions: moves from this place in the move order on ...
LMR_DEPTH = 3  # ... at this depth or more are first searched one ply shallower (0: never),
LMR2_FROM, LMR2_DEPTH = 12, 5  # ... two plies from this place on, at this depth or more
ROT_LMR = 0  # 1: rotations are reduced as quiet drops are (0: never)
LAST_ROT = 1  # 1: own rotations are tried on the last ply too (0: only the opponent's)


def log(msg: str) -> None:
    """Reasoning goes to stderr."""
    print(f"[minimax] {msg}", file=sys.stderr, flush=True)


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
    """The hexagon of edge ``size``: cells sorted by (q, r), neighbours, columns, windows."""

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
        self.windows: list[tuple[int, ...]] = []
        for d in range(3):
            for i in range(len(self.cells)):
                w, j = [i], i
                while len(w) < win and (j := self.nb[d][j]) >= 0:
                    w.append(j)
                if len(w) == win:
                    self.windows.append(tuple(w))

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


class Sparse(dict):  # type: ignore[type-arg]
    """A table that answers ``default`` for every key it does not hold."""

    def __init__(self, default: int) -> None:
        super().__init__()
        self.default = default

    def __missing__(self, key: int) -> int:
        return self.default


class OutOfTime(Exception):
    """The search ran past its deadline."""


class Searcher:
    """Negamax with alpha-beta over an incrementally scored board; side 0 is this bot.

    Every window of ``win`` cells keeps a code of its chips per colour, so a drop updates the
    score and detects a finished line by touching only the windows through its cell.
    ``hot`` holds the windows one chip short of a line and of one colour.
    """

    def __init__(self, geo: Geometry, walls: set[int], me: int, colors: int, chips: int) -> None:
        self.geo, self.walls, self.me, self.half = geo, walls, me, colors // 2
        self.colors, self.chips = colors, chips
        self.deadline = 0.0
        self.nodes = 0
        self.threat_colors: set[int] = set()
        self.chip_value = CHIP_VALUE  # raised as the board fills (set at each root)
        self.order = sorted(geo.positions, key=abs)
        # Zobrist keys: one per (cell, colour); the gravity and the chips left are mixed in
        # per node. ``tt`` maps a key to (depth, bound, value, best action).
        rng = random.Random(42)
        self.zobrist = [[rng.getrandbits(60) for _ in range(colors)] for _ in geo.cells]
        self.zgrav = [rng.getrandbits(60) for _ in range(6)]
        self.hash = 0
        self.tt: dict[int, tuple[int, int, int, Act | None]] = {}
        self.cell_windows: list[list[int]] = [[] for _ in geo.cells]
        for w, cells in enumerate(geo.windows):
            for i in cells:
                self.cell_windows[i].append(w)
        # segments[g]: the wall-free runs of each column, listed from the bottom (the end of
        # gravity g) up; settling packs each run's chips towards its first cell.
        self.segments: list[list[list[int]]] = []
        for g in range(6):
            runs: list[list[int]] = []
            for pos in geo.positions:
                line, i = [], geo.entries[g][pos]
                while i >= 0:
                    line.append(i)
                    i = geo.nb[g][i]
                run: list[int] = []
                for i in reversed(line):
                    if i in walls:
                        runs.append(run)
                        run = []
                    else:
                        run.append(i)
                runs.append(run)
            self.segments.append([r for r in runs if r])
        # reachable[g][i]: a drop under gravity g can reach cell i (no wall above it)
        self.reachable = []
        for g in range(6):
            ok = [False] * len(geo.cells)
            for pos in geo.positions:
                i = geo.entries[g][pos]
                while i >= 0 and i not in walls:
                    ok[i] = True
                    i = geo.nb[g][i]
            self.reachable.append(ok)
        # A window's contents is one integer: sum of base**colour over its chips. Tables
        # indexed by that code give its score, and its colour when one chip short of a line.
        base = geo.win + 1
        self.pw = [base**c for c in range(colors)]
        self.full = [geo.win * p for p in self.pw]
        # Only windows of one colour score: k chips of colour c have code k * base**c.
        size = base**colors
        small = size <= 200_000  # lists are fastest; odd settings (many colours) use dicts
        self.table: list[int] | Sparse = [0] * size if small else Sparse(0)
        self.hot_color: list[int] | Sparse = [-1] * size if small else Sparse(-1)
        for c, p in enumerate(self.pw):
            for k in range(1, geo.win + 1):
                if c // self.half == me:
                    self.table[k * p] = WEIGHTS[min(k, len(WEIGHTS) - 1)]
                else:
                    self.table[k * p] = -int(OPP_WEIGHTS[min(k, len(OPP_WEIGHTS) - 1)] * DEFENCE)
            self.hot_color[(geo.win - 1) * p] = c
        self.wz = [*self.pw, 0]  # a cell's weight by its chip (-1, empty, reads 0)
        self.zz = [[*z, 0] for z in self.zobrist]  # its Zobrist key, the same way
        self.window_ids = range(len(geo.windows))
        self.is_hot: list[int] | Sparse = [0] * size if small else Sparse(0)
        for p in self.pw:
            self.is_hot[(geo.win - 1) * p] = 1
        self.board: list[int] = []
        self.code: list[int] = []
        self.score = 0
        self.hot: set[int] = set()
        self.left = [0, 0]  # chips each player still owns (bag and hand)
        self.rotations = [0, 0]  # rotations each player made (each discarded two chips)
        self.history: dict[Act, int] = {}  # move-ordering scores of moves that caused cuts
        n = geo.size - 1
        self.dkeys = [[("d", pos, c) for c in range(colors)] for pos in range(-n, n + 1)]
        self.rotations_to = [("r", g) for g in range(6)]
        # per remaining depth, the last two moves that caused a cut there (killer moves)
        self.killers: list[list[Act]] = [[] for _ in range(MAX_DEPTH + 2)]
        self.counts = [0] * colors  # chips of each colour on the board
        # the landing cell of each column (index pos + n), -1 if full
        self.land: list[int] | None = None
        self.gravity = 3  # the gravity ``land`` was computed for
        self.up = [geo.nb[(g + 3) % 6] for g in range(6)]  # the cell above, per gravity

    def load(self, board: list[int], gravity: int) -> None:
        """Set the position and rebuild every window's code, the score, ``hot``, the
        colour counts and the landing cells.

        Called at every rotation in the search, so it is written as ``map`` calls that run
        in C: ``wz`` and ``zz`` end with a 0 so that an empty cell (-1) reads 0.
        """
        self.board = board
        self.land = None  # computed when first needed (see ``actions``)
        self.gravity = gravity
        weight = list(map(self.wz.__getitem__, board))
        self.hash = reduce(xor, map(getitem, self.zz, board), 0)
        self.score_windows(weight)

    def score_windows(self, weight: list[int]) -> None:
        """Every window's code from the cells' weights, then the score and ``hot``."""
        if self.geo.win == 4:  # the usual case, spelled out for speed
            code = [
                weight[a] + weight[b] + weight[c] + weight[d] for a, b, c, d in self.geo.windows
            ]
        else:
            code = [sum([weight[i] for i in cells]) for cells in self.geo.windows]
        self.code = code
        self.score = sum(map(self.table.__getitem__, code))
        self.hot = set(compress(self.window_ids, map(self.is_hot.__getitem__, code)))

    def rotate_to(self, gravity: int) -> None:
        """Let every chip fall along ``gravity`` and rebuild the position (as :meth:`load`
        of :meth:`settle`'s board, the weights and the hash gathered as the chips fall)."""
        board, pw, zobrist = self.board, self.pw, self.zobrist
        out = [-1] * len(board)
        weight = [0] * len(board)
        h = 0
        for seg in self.segments[gravity]:
            k = 0
            for i in seg:
                v = board[i]
                if v >= 0:
                    t = seg[k]
                    out[t] = v
                    weight[t] = pw[v]
                    h ^= zobrist[t][v]
                    k += 1
        self.board, self.hash, self.land, self.gravity = out, h, None, gravity
        self.score_windows(weight)

    def settle(self, gravity: int) -> list[int]:
        """A copy of the board after every chip fell along ``gravity`` (segment by segment)."""
        board = self.board
        out = [-1] * len(board)
        for seg in self.segments[gravity]:
            k = 0
            for i in seg:
                v = board[i]
                if v >= 0:
                    out[seg[k]] = v
                    k += 1
        return out

    def put(self, cell: int, chip: int) -> bool:
        """Drop ``chip`` on ``cell``; True if it completes a line of ``win``."""
        self.board[cell] = chip
        self.hash ^= self.zobrist[cell][chip]
        self.counts[chip] += 1
        code, table, hot_color, hot = self.code, self.table, self.hot_color, self.hot
        inc, full = self.pw[chip], self.full[chip]
        won = False
        delta = 0
        for w in self.cell_windows[cell]:
            old = code[w]
            new = code[w] = old + inc
            delta += table[new] - table[old]
            if hot_color[new] >= 0:
                hot.add(w)
            elif hot_color[old] >= 0:
                hot.discard(w)
            if new == full:
                won = True
        self.score += delta
        return won

    def take(self, cell: int, chip: int) -> None:
        """Undo :meth:`put`."""
        self.board[cell] = -1
        self.hash ^= self.zobrist[cell][chip]
        self.counts[chip] -= 1
        code, table, hot_color, hot = self.code, self.table, self.hot_color, self.hot
        inc = self.pw[chip]
        delta = 0
        for w in self.cell_windows[cell]:
            old = code[w]
            new = code[w] = old - inc
            delta += table[new] - table[old]
            if hot_color[new] >= 0:
                hot.add(w)
            elif hot_color[old] >= 0:
                hot.discard(w)
        self.score += delta

    def chip_score(self, left: int) -> int:
        """What owning ``left`` chips is worth: each counts, more so as the bag runs low."""
        return self.chip_value * left - SCARCITY // (left + 1)

    def threats(self, gravity: int, player: int) -> set[int]:
        """Cells where ``player`` completes a line with its next drop (their colours are left
        in ``threat_colors``)."""
        out = set()
        colors = self.threat_colors = set()
        board, walls, windows = self.board, self.walls, self.geo.windows
        step, reach = self.geo.nb[gravity], self.reachable[gravity]
        hot_color, code, half = self.hot_color, self.code, self.half
        for w in self.hot:
            color = hot_color[code[w]]
            if color // half != player:
                continue
            for i in windows[w]:
                if board[i] == -1:
                    j = step[i]
                    if reach[i] and (j < 0 or j in walls or board[j] != -1):
                        out.add(i)
                        colors.add(color)
                    break
        return out

    def rotation_winner(self, board: list[int]) -> int:
        """Who wins on this (settled) board, from the window counts: -1 if nobody."""
        full = [False, False]
        present = set(self.code)
        for c, code in enumerate(self.full):
            if code in present:
                full[c // self.half] = True
        if full[0] and full[1]:  # both have a line: the longer one wins, a tie plays on
            lines = self.geo.longest(board, self.half)
            return 0 if lines[0] > lines[1] else 1 if lines[1] > lines[0] else -1
        return 0 if full[0] else 1 if full[1] else -1

    def chips_left(self, player: int) -> list[int]:
        """Colours of ``player`` that may still be in its bag (board count below the total)."""
        counts = self.counts
        return [
            c for c in range(player * self.half, (player + 1) * self.half) if counts[c] < self.chips
        ]

    def actions(
        self,
        gravity: int,
        chips: list[int],
        rotate: bool,
        first: set[int],
        lead: Act | None = None,
        killers: tuple[Act, ...] | list[Act] = (),
    ) -> list[Act]:
        """``lead`` (the table's move), drops on a cell of ``first`` (blocks), ``killers``
        (moves that caused cuts at this depth), then by history."""
        front: list[Act] = []
        back: list[Act] = []
        land, n = self.land, self.geo.size - 1
        if land is None:
            geo, board, walls = self.geo, self.board, self.walls
            land = self.land = [geo.landing(board, walls, gravity, p) for p in geo.positions]
        keys: list[Act] = []  # each of ``back``'s history key (the action without its cell)
        dkeys = self.dkeys
        for pos in self.order:
            cell = land[pos + n]
            if cell >= 0:
                if cell in first:
                    front += [("d", pos, chip, cell) for chip in chips]
                else:
                    row = dkeys[pos + n]
                    for chip in chips:
                        back.append(("d", pos, chip, cell))
                        keys.append(row[chip])
        if rotate:
            for g in range(6):
                if g != gravity:
                    back.append(self.rotations_to[g])
                    keys.append(self.rotations_to[g])
        # By history, most cuts first (a stable sort: ties keep the column order), then the
        # killers brought to the front.
        cuts = list(map(self.history.get, keys, repeat(0)))
        if killers or any(cuts):
            order: Any = range(len(back))
            if any(cuts):
                order = sorted(order, key=cuts.__getitem__, reverse=True)
            if killers:
                kill = [i for i in order if keys[i] in killers]
                if kill:
                    order = kill + [i for i in order if keys[i] not in killers]
            back = [back[i] for i in order]
        out = front + back
        if lead is not None and lead in out:
            out.remove(lead)
            out.insert(0, lead)
        return out

    def negamax(self, gravity: int, depth: int, alpha: int, beta: int, side: int) -> int:
        """Value for ``side`` to move (0 = this bot) searching ``depth`` plies."""
        self.nodes += 1
        if self.nodes & 63 == 0 and time.monotonic() > self.deadline:
            raise OutOfTime
        player = self.me if side == 0 else 1 - self.me
        if self.left[player] == 0:
            return -WIN - depth  # nothing left to draw: this player loses
        if self.threats(gravity, player):
            # A line completes next move if the player draws a chip of its colour: sure with
            # threats in all its colours, else likely (about 3 in 4 with two colours).
            if len(self.threat_colors) >= self.half:
                return WIN // 2 + depth
            return WIN * 3 // 8 + depth
        theirs = self.threats(gravity, 1 - player)
        if depth == 0:
            if len(theirs) > 1:
                return -WIN // 4  # two threats: only one can be blocked
            value = (
                self.score
                + self.chip_score(self.left[self.me])
                - self.chip_score(self.left[1 - self.me])
            )
            return value if side == 0 else -value
        key = self.hash ^ self.zgrav[gravity] ^ side ^ (self.left[0] << 61) ^ (self.left[1] << 70)
        entry = self.tt.get(key)
        lead = None
        if entry is not None:
            e_depth, bound, e_value, lead = entry
            if e_depth >= depth:
                if bound == EXACT:
                    return e_value
                if bound == LOWER and e_value >= beta:
                    return e_value
                if bound == UPPER and e_value <= alpha:
                    return e_value
        alpha0 = alpha
        chips = self.chips_left(player)
        best = -WIN - 100
        best_act: Act | None = None
        # Rotations on the last ply: the opponent's always, as one may complete its line;
        # ours too (LAST_ROT), for the same reason: most games end with a rotation.
        rotate = self.left[player] >= 2 and (depth > 1 or side == 1 or LAST_ROT == 1)
        killers = self.killers[depth]
        reduce_from = LMR_FROM if LMR_DEPTH and depth >= LMR_DEPTH else 1000
        for n, act in enumerate(self.actions(gravity, chips, rotate, theirs, lead, killers)):
            if best_act is None:
                value = self.play(gravity, act, player, depth, alpha, beta, side)
            else:  # principal variation search: prove the move worse with a null window
                if n >= reduce_from and (
                    (act[0] == "d" and act[3] not in theirs) or (act[0] == "r" and ROT_LMR == 1)
                ):
                    # a late drop that blocks nothing (rotations: only with ROT_LMR): first
                    # searched shallower (two plies for the last ones), in full only if it
                    # looks good
                    cut = 2 if n >= LMR2_FROM and depth >= LMR2_DEPTH else 1
                    value = self.play(gravity, act, player, depth - cut, alpha, alpha + 1, side)
                    if value <= alpha:
                        best = max(best, value)  # (an upper bound, as the full search's)
                        continue
                value = self.play(gravity, act, player, depth, alpha, alpha + 1, side)
                if alpha < value < beta:
                    value = self.play(gravity, act, player, depth, alpha, beta, side)
            if value > best:
                best, best_act = value, act
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        hkey = act[:3]  # a cut: try this move early elsewhere too
                        self.history[hkey] = self.history.get(hkey, 0) + depth * depth
                        if hkey not in killers:  # and first among the quiet moves here
                            killers.insert(0, hkey)
                            del killers[2:]
                        break
        bound = LOWER if best >= beta else UPPER if best <= alpha0 else EXACT
        self.tt[key] = (depth, bound, best, best_act)
        return best

    def play(
        self, gravity: int, act: Act, player: int, depth: int, alpha: int, beta: int, side: int
    ) -> int:
        """Value of one action for the player making it."""
        if act[0] == "d":
            _, pos, chip, cell = act
            self.left[player] -= 1
            land, k = self.land, pos + self.geo.size - 1
            land[k] = self.up[gravity][cell]
            try:
                if self.put(cell, chip):
                    return WIN + depth
                return -self.negamax(gravity, depth - 1, -beta, -alpha, 1 - side)
            finally:
                self.take(cell, chip)
                land[k] = cell
                self.left[player] += 1
        saved = (self.board, self.code, self.score, self.hot, self.hash, self.land)
        self.left[player] -= 2
        try:
            self.rotate_to(act[1])
            won = self.rotation_winner(self.board)
            if won == player:
                return WIN + depth
            if won >= 0:
                return -WIN - depth
            return -self.negamax(act[1], depth - 1, -beta, -alpha, 1 - side)
        finally:
            self.board, self.code, self.score, self.hot, self.hash, self.land = saved
            self.left[player] += 2

    def root(
        self,
        board: list[int],
        gravity: int,
        chips: list[int],
        can_rotate: bool,
        budget: float,
        hard: float,
    ) -> Act:
        """Iterative deepening from the current position; returns the best action found.

        Depths 1 and 2 (which see every immediate threat, rotations included) may run until
        ``hard`` seconds, for a loaded machine; deeper searches stop at ``budget`` seconds.
        """
        start = time.monotonic()
        self.history = {k: v // 4 for k, v in self.history.items() if v >= 4}  # age old cuts
        self.killers = [[] for _ in range(MAX_DEPTH + 2)]
        self.load(board, gravity)
        self.counts = [0] * self.colors
        for v in board:
            if v >= 0:
                self.counts[v] += 1
        placed = [0, 0]
        for v in board:
            if v >= 0:
                placed[v // self.half] += 1
        filled = (placed[0] + placed[1]) / (len(board) - len(self.walls))
        self.chip_value = CHIP_VALUE + int(LATE_CHIP * filled * filled)
        self.tt.clear()  # leaf values depend on chip_value
        self.left = [self.half * self.chips - placed[p] - 2 * self.rotations[p] for p in (0, 1)]
        acts = self.actions(gravity, chips, can_rotate, self.threats(gravity, 1 - self.me))
        if not acts:
            log("no legal action: playing anything")
            return ("d", 0, chips[0], -1)
        best, depth = acts[0], 1
        while True:
            self.deadline = start + (hard if depth <= 2 else budget)
            scored: list[tuple[int, Act]] = []
            alpha = -WIN - 100
            try:
                for act in acts:
                    value = self.play(gravity, act, self.me, depth, alpha, WIN + 100, 0)
                    scored.append((value, act))
                    alpha = max(alpha, value)
            except OutOfTime:
                # The moves searched so far (the previous best first) have exact values or
                # bounds below the best of them: that best is better informed than the last.
                if scored:
                    top, best = max(scored, key=lambda x: x[0])
                    log(f"depth {depth} (partial, {len(scored)}/{len(acts)}): {fmt(best)} {top}")
                break
            scored.sort(key=lambda x: -x[0])
            top, best = scored[0]
            acts = [a for _, a in scored]  # best first at the next depth
            log(f"depth {depth}: best {fmt(best)} value {top} nodes {self.nodes}")
            if abs(top) >= WIN // 2 or depth >= MAX_DEPTH:
                break
            depth += 1
        return best


def fmt(act: Act) -> str:
    """The protocol line of an action."""
    return f"drop {act[1]} {act[2]}" if act[0] == "d" else f"rotate {act[1]}"


TUNABLE = (
    "SOFT",
    "HARD",
    "DEFENCE",
    "CHIP_VALUE",
    "SCARCITY",
    "LATE_CHIP",
    "MAX_DEPTH",
    "LMR_FROM",
    "LMR_DEPTH",
    "LMR2_FROM",
    "LMR2_DEPTH",
    "ROT_LMR",
    "LAST_ROT",
)


def main() -> None:
    """Answer ``init``; then on each ``chips`` line fetch the board and search.

    Optional ``NAME=value`` arguments override the tuning constants (for tuning runs).
    """
    for arg in sys.argv[1:]:
        name, _, value = arg.partition("=")
        if name in TUNABLE:
            globals()[name] = type(globals()[name])(float(value))
    geo: Geometry | None = None
    searcher: Searcher | None = None
    colors = chips = me = 0
    walls: set[int] = set()
    timeout = 1.0
    rotations = [0, 0]  # rotations per player so far: each discarded two chips
    while True:
        words = read()
        if not words:
            continue
        if words[0] == "init":
            colors, chips, size, win = map(int, words[1:5])
            timeout, me = float(words[5]), int(words[6])
            log(f"init colors={colors} chips={chips} size={size} win={win} me={me}")
            geo = Geometry(size, win)
            send("color 4")
        elif words[0] == "rotate":
            rotations[1 - me] += 1
        elif words[0] == "chips" and geo is not None:
            started = time.monotonic()
            a, b = int(words[1]), int(words[2])
            if searcher is None:
                send("fetch walls")
                walls = set()
                for _ in range(int(read()[1])):  # wall_count n, then n lines: wall q r s
                    _, q, r, s = read()
                    walls.add(geo.index[(int(q), int(r), int(s))])
                searcher = Searcher(geo, walls, me, colors, chips)
            send("fetch cells")
            board = [-1] * len(geo.cells)
            for _ in range(int(read()[1])):
                _, q, r, s, v = read()
                board[geo.index[(int(q), int(r), int(s))]] = int(v)
            send("fetch gravity")
            gravity = int(read()[1])
            hand = sorted({c for c in (a, b) if c != -1})
            spent = time.monotonic() - started
            budget, hard = SOFT * timeout - spent, HARD * timeout - spent
            searcher.rotations = rotations
            act = searcher.root(board, gravity, hand, b != -1, max(budget, 0.02), max(hard, 0.05))
            if act[0] == "r":
                rotations[me] += 1
            send(fmt(act))


if __name__ == "__main__":
    main()
