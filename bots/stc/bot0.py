#!/usr/bin/env python3
"""Smash The Code: Bot0, a threat-aware beam search that builds chains and fires to kill.

Each turn it reads the 8 known pairs and both grids, then:

1. sizes up the opponent: the points it can fire on each of the next four turns (a
   narrow beam search on its grid), its best chain in reach, and the skulls it already
   owes us;
2. runs one beam search over the known pairs on its own grid, as wide as its time allows:
   after each layer, the next one's width is set so that the layers left fit in the time
   left, at the cost per beam node measured so far. The skull lines the opponent is
   expected to send are dropped into the simulated grid on the turn they would land, so
   the search feels a coming attack and fires (or digs out) before its chain is buried.
   A fired chain is valued by what it does to the opponent: a kill (its skull lines
   leave no room for the next pair) beats everything, a chain above the firing threshold
   counts in full, a small one barely (it wastes material). A position that fires
   nothing is valued by its chain potential: the biggest chain that one or two blocks of
   a neighbouring colour would set off, its number of steps, how well colours are
   grouped, and the stack's shape;
3. keeps the previous turn's plan in the beam, so a chain under construction is not
   abandoned for a slightly better-looking start.

It answers `x rotation` on stdout and logs its reasoning on stderr: the pairs, the
candidate first moves with their values, the chain being built, the opponent's threat
and the time used. Single file, stdlib only; runs unchanged on CodinGame (Python 3.10+:
int.bit_count). Grids are bitboards (one int per colour, see "the board" below): the
rules and the search's hot paths run on them, about twice as fast as on a list of
cells, with the same decisions (and the referee's rules: tests/games/stc/test_bots.py).
Optional `key=value` arguments override the tuning constants in PARAMS (for tuning runs).
"""

from __future__ import annotations

import gc
import os
import sys
import time
from dataclasses import dataclass
from operator import itemgetter

W = 6
H = 12
N = W * H
SKULL = 6  # internal code for a skull; 0 is an empty cell, 1-5 the colours
CB_TABLE = (0, 0, 2, 4, 8, 16)
POINTS_PER_LINE = 420  # 70 points a nuisance point, 6 nuisance points a line of skulls
KILL = 100000.0  # value of a chain whose skulls leave the opponent no room
DEAD = -1e9
DEATH = -50000.0  # a line of play where we cannot place a pair (added to its value)

PARAMS = {
    "first_budget": 0.30,  # seconds of search on the first turn (1000 ms clock) ...
    "first_total": 0.75,  # ... and at most this long after the process started
    "budget": 0.060,  # seconds of search on later turns (100 ms clock), from the first line
    "gamma": 0.85,  # discount per turn of lookahead
    "pot_w": 0.6,  # weight of the chain one or two blocks could set off
    "need2_f": 0.75,  # that chain's discount when it needs two blocks
    "trig_gamma": 0.85,  # ... and per turn until the pairs bring its trigger colour
    "steps_w": 25.0,  # per step of that chain
    "small_w": 0.1,  # weight of fired points under the firing threshold
    "fire_min": 1500.0,  # points a chain should reach before it is worth firing
    "fire_threat": 500.0,  # firing threshold when the opponent threatens to attack
    "threat_min": 1680.0,  # smallest attack (nuisance, with what we owe) we meet: 4 lines
    "soft_min": 1260.0,  # smallest we expect (its skulls in the search), not meet: 3 lines
    "ready": 0.7,  # ... when it is this share of the most it can fire from two turns
    # out or of its best chain in reach (or kills us)
    "opp_turns": 4,  # turns of the opponent's pairs we look ahead for its fires ...
    "opp_width": 4,  # ... keeping its most promising grids that fire nothing
    "far_lines": 5,  # a chain in reach sending this many lines (or killing us) is expected ...
    "far_turns": 4,  # ... on the turn the pairs bring its trigger, up to this many turns ahead
    "edge_w": 15.0,  # per pair of same-colour neighbours
    "expand": 4.5,  # children per beam slot that get the full evaluation
    "height_w": 1.5,  # per block on the grid
    "tall_w": 50.0,  # per squared cell above row 8 in a column
    "full_w": 80.0,  # per block above 54 cells in all
    "lines_w": 120.0,  # per skull line a chain sends, on top of its points
    "hit_w": 1.0,  # cost of a skull line we receive, in lines' worth of points (420)
    "spend": 0.85,  # share of the time left the next layers are sized to use ...
    "min_width": 4,  # ... with a beam no narrower than this ...
    "max_width": 96,  # ... and no wider
    "adaptive": 1,  # 1: one search, its width set layer by layer; 0: iterative widening
}


# ---------------------------------------------------------------- the board
#
# A grid is a list of bitboards, `masks`: masks[1..5] hold the cells of each colour,
# masks[SKULL] the skulls, masks[0] stays 0. Cell (column c, row r), r = 0 the bottom row,
# is bit c*S + r with S = H + 1: a column takes 12 cell bits and one guard bit that no
# mask ever holds. Shifting a mask by 1 moves its cells a row up or down, by S a column
# right or left; a cell pushed out of its column lands on a guard bit (or off the board),
# so ANDing with a mask drops it. Heights are kept beside the masks in a list, `hts` (in
# the search's nodes a tuple, shared and never changed). `tuple(masks)` identifies a grid
# (the cache key).

S = H + 1  # bits per column: 12 cells and a guard bit
COLUMN = (1 << H) - 1  # the 12 cell bits of column 0
COLOURS = (1, 2, 3, 4, 5)
BLOCKS = (1, 2, 3, 4, 5, SKULL)  # every mask that holds blocks


def _neighbour_masks() -> tuple[int, ...]:
    """NBM[i]: the mask of the cells next to bit i (0 for a guard bit)."""
    table = []
    for i in range(W * S):
        c, r = divmod(i, S)
        m = 0
        if r < H:
            if r > 0:
                m |= 1 << (i - 1)
            if r < H - 1:
                m |= 1 << (i + 1)
            if c > 0:
                m |= 1 << (i - S)
            if c < W - 1:
                m |= 1 << (i + S)
        table.append(m)
    return tuple(table)


def _trigger_neighbours() -> tuple[tuple[int, ...], ...]:
    """For a column's landing bit i: the bits below, left and right of it that are on the
    grid, in that order (the cell above a landing cell is empty)."""
    table = []
    for i in range(W * S):
        c, r = divmod(i, S)
        nb = []
        if r > 0:
            nb.append(1 << (i - 1))
        if c > 0:
            nb.append(1 << (i - S))
        if c < W - 1:
            nb.append(1 << (i + S))
        table.append(tuple(nb))
    return tuple(table)


NBM = _neighbour_masks()
TRIGGER_NB = _trigger_neighbours()
TOUCH = tuple(sum(nb) for nb in TRIGGER_NB)  # the same as one mask
# Every placement as (x, rotation, column of A, column of B).
MOVES = [(x, 0, x, x + 1) for x in range(W - 1)]
MOVES += [(x, 1, x, x) for x in range(W)]
MOVES += [(x, 2, x, x - 1) for x in range(1, W)]
MOVES += [(x, 3, x, x) for x in range(W)]
# With two blocks of one colour, rotations 2 and 3 repeat 0 and 1.
SAME_COLOUR_MOVES = [m for m in MOVES if m[1] in (0, 1)]
# For `landings`: (index, rotation, column of A, column of B, their bottom cells' bits).
INDEXED = [(i, m[1], m[2], m[3], m[2] * S, m[3] * S) for i, m in enumerate(MOVES)]


def to_cells(masks: list[int]) -> list[int]:
    """The cell list (index c*H + r, values 0-6) of some bitboards (for tests)."""
    cells = [0] * N
    for v in BLOCKS:
        m = masks[v]
        for c in range(W):
            for r in range(H):
                if m >> (c * S + r) & 1:
                    cells[c * H + r] = v
    return cells


def started_ago() -> float:
    """Seconds since this process started (Linux /proc; 0 where unknown)."""
    try:
        with open("/proc/self/stat", encoding="ascii") as src:
            ticks = int(src.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime", encoding="ascii") as src:
            uptime = float(src.read().split()[0])
        return max(0.0, uptime - ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return 0.0


def log(text: str) -> None:
    """One line of reasoning on stderr (never stdout: that is for answers)."""
    print(text, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- the rules


def place(masks: list[int], hts: list[int], move: tuple[int, int, int, int], a: int, b: int) -> int:
    """Drop pair (a, b) with `move`; return the mask of the two landed cells, or 0 if it
    does not fit."""
    _, rot, ca, cb = move
    if ca != cb:
        ha = hts[ca]
        hb = hts[cb]
        if ha >= H or hb >= H:
            return 0
        ba = 1 << (ca * S + ha)
        bb = 1 << (cb * S + hb)
        hts[ca] = ha + 1
        hts[cb] = hb + 1
    else:
        h = hts[ca]
        if h > H - 2:
            return 0
        low = 1 << (ca * S + h)
        if rot == 1:  # B on top of A
            ba, bb = low, low << 1
        else:  # A on top of B
            ba, bb = low << 1, low
        hts[ca] = h + 2
    masks[a] |= ba
    masks[b] |= bb
    return ba | bb


def group(seed: int, m: int) -> int:
    """The groups of mask `m` through the cells `seed` (cells of `m`), as one mask: grow
    the seed by its neighbours in `m` until nothing is added."""
    while True:
        grown = (seed | seed << 1 | seed >> 1 | seed << S | seed >> S) & m
        if grown == seed:
            return seed
        seed = grown


# (drops, region, shifts): see _fall_plan
FallPlan = tuple[tuple[tuple[int, int], ...], int, tuple[tuple[int, int, int], ...]]
_FALLS: dict[int, FallPlan] = {}


def _fall_plan(removed: int) -> FallPlan:
    """How the grid compacts when the cells `removed` empty (memoised in _FALLS):
    (drops, region, shifts). `drops`: (column, cells removed) per touched column.
    `region`: every cell of a touched column from its lowest removed row up; after the
    fall the blocks there are the ones that moved (the next step's seeds). `shifts`: ops
    (keep, take, k) applied in order to every mask x as x = (x & keep) | ((x & take) >> k):
    the cells above a run of k removed rows (`take`) drop by k. A column's runs go top
    run first, so the rows of its lower runs stay valid; runs of different columns are
    independent, so those of the same rank from the top and the same length share an op.
    """
    drops = []
    region = 0
    by_rank: dict[tuple[int, int], list[int]] = {}  # (rank, k) -> [keep region, take]
    for c in range(W):
        sh = c * S
        col = (removed >> sh) & COLUMN
        if not col:
            continue
        drops.append((c, col.bit_count()))
        low = (col & -col).bit_length() - 1
        region |= ((COLUMN >> low) << low) << sh
        rank = 0
        r = H - 1
        while r >= 0:
            if col >> r & 1:
                top = r
                while r >= 0 and col >> r & 1:
                    r -= 1
                start = r + 1
                k = top - start + 1
                op = by_rank.setdefault((rank, k), [0, 0])
                op[0] |= ((COLUMN >> start) << start) << sh
                op[1] |= ((COLUMN >> (start + k)) << (start + k)) << sh
                rank += 1
            r -= 1
    shifts = tuple((~cut, take, k) for (_, k), (cut, take) in sorted(by_rank.items()))
    plan = (tuple(drops), region, shifts)
    if len(_FALLS) > 50000:
        _FALLS.clear()  # bound the memory; plans are cheap to make again
    _FALLS[removed] = plan
    return plan


def resolve(
    masks: list[int], hts: list[int] | None, seeds: int, known: int = 0, colour: int = 0
) -> tuple[int, int]:
    """Clear the groups through `seeds`, let blocks fall, repeat; return (points, steps).

    Only groups through `seeds` (the blocks just placed, then the blocks that fell) can
    be new. Each step clears every group of 4+ with the skulls next to it, then each
    touched column is compacted from its lowest cleared row; the blocks that moved are
    the next step's seeds. `known` (with its `colour`): the one group of 4+ the first step
    clears, when the caller knows it (then `seeds` is not searched on that step).
    `hts` None: the caller has no use for the heights after (they are not kept).

    The fall (see `_fall_plan`) and the search for the next step's groups go
    colour by colour in one pass: a colour's groups do not depend on the others'.
    """
    total = 0
    step = 0
    region = seeds  # where the groups can be: the seeds, then the cells that fell
    shifts: tuple[tuple[int, int, int], ...] = ()  # the fall to apply first (none at first)
    while True:
        if known:
            cleared = known
            count = known.bit_count()
            gb = 8 if count >= 11 else count - 4
            colours = 1
            masks[colour] ^= known
            known = 0
        else:
            cleared = 0
            count = 0
            gb = 0
            colours = 0
            for v in COLOURS:
                m = masks[v]
                if not m & region:
                    continue
                for keep, take, k in shifts:
                    m = (m & keep) | ((m & take) >> k)
                s = m & region
                # The groups through these seeds all at once: none has 4 if their union has not.
                g = group(s, m)
                n = g.bit_count()
                if n >= 4:
                    if s & (s - 1):  # several seeds: split the union into its groups
                        found = 0
                        rest = g
                        while rest:
                            g = group(rest & -rest, rest)
                            rest ^= g
                            n = g.bit_count()
                            if n >= 4:
                                found |= g
                                count += n
                                gb += 8 if n >= 11 else n - 4
                    else:
                        found = g
                        count += n
                        gb += 8 if n >= 11 else n - 4
                    if found:
                        colours += 1
                        cleared |= found
                        m ^= found
                masks[v] = m
            if not cleared:
                return total, step
        sk = masks[SKULL]
        if sk:
            dead = (cleared << 1 | cleared >> 1 | cleared << S | cleared >> S) & sk
            if dead:
                masks[SKULL] = sk ^ dead
                cleared |= dead
        mult = (8 << (step - 1) if step else 0) + CB_TABLE[colours] + gb
        total += 10 * count * (1 if mult < 1 else 999 if mult > 999 else mult)
        step += 1
        # The fall: heights and skulls now, the colours in the next pass.
        plan = _FALLS.get(cleared)
        if plan is None:
            plan = _fall_plan(cleared)
        drops, region, shifts = plan
        if hts is not None:
            for c, k in drops:
                hts[c] -= k
        sk = masks[SKULL]
        if sk & region:
            for keep, take, k in shifts:
                sk = (sk & keep) | ((sk & take) >> k)
            masks[SKULL] = sk


def drop_skulls(masks: list[int], hts: list[int], lines: int) -> None:
    """Drop `lines` lines of skulls in place; a skull with no room is discarded."""
    sk = masks[SKULL]
    for c in range(W):
        h = hts[c]
        top = min(H, h + lines)
        sk |= ((1 << top) - (1 << h)) << (c * S)
        hts[c] = top
    masks[SKULL] = sk


def fits_any(hts: list[int]) -> bool:
    """True if some pair placement still fits (a vertical pair, or two free neighbours)."""
    for c in range(W):
        if hts[c] <= H - 2:
            return True
        if c < W - 1 and hts[c] < H and hts[c + 1] < H:
            return True
    return False


def lines_to_kill(hts: list[int]) -> int:
    """Fewest skull lines after which no pair fits into a grid of these heights."""
    for lines in range(H + 1):
        if not fits_any([min(H, h + lines) for h in hts]):
            return lines
    return H + 1


# ---------------------------------------------------------------- evaluation


class Chain:
    """The biggest chain one or two blocks could set off on a grid (the chain being built)."""

    __slots__ = ("colour", "column", "need", "points", "steps")

    def __init__(self) -> None:
        self.points = 0
        self.steps = 0
        self.column = -1
        self.colour = 0
        self.need = 0

    def __str__(self) -> str:
        if not self.points:
            return "none"
        return (
            f"{self.points} pts {self.steps} steps (drop {self.need}x colour {self.colour} "
            f"in col {self.column})"
        )


def edges(masks: list[int], hts: list[int]) -> int:
    """Same-colour neighbour pairs (a group of two has one, a group of three two)."""
    e = 0
    for v in COLOURS:
        m = masks[v]
        e += (m & m >> 1).bit_count() + (m & m >> S).bit_count()
    return e


def chain_potential(masks: list[int], hts: list[int]) -> Chain:
    """The biggest chain one or two blocks of one colour, dropped on a column, set off.

    For each column, the colours next to its landing cell are tried: with 3+ blocks in
    the touching groups of that colour one block completes a group of 4, with 2 blocks
    two are needed; fewer are not tried. The colours go in the order of their first cell
    among below, left and right of the landing cell (it breaks ties, as the list version did). A
    colour's touching groups are measured by one flood fill from its touching cells and
    kept as one mask (their union), which also identifies them: groups are disjoint, and
    unions of different colours never meet. A trigger completing the same groups as one
    already tried is not simulated again.
    """
    ch = Chain()
    tried: set[int] = set()  # unions of groups already completed by some trigger
    best = 0.0
    need2_f = PARAMS["need2_f"]
    # A cell's value (0 empty, 1-5 a colour, 6 a skull) in three bit planes.
    plane0 = masks[1] | masks[3] | masks[5]
    plane1 = masks[2] | masks[3] | masks[SKULL]
    plane2 = masks[4] | masks[5] | masks[SKULL]
    for c in range(W):
        h = hts[c]
        if h >= H:
            continue
        p = c * S + h
        bit = 1 << p
        touch = TOUCH[p]
        done = 0  # colours of this column already tried
        for t in TRIGGER_NB[p]:
            v = (1 if t & plane0 else 0) | (2 if t & plane1 else 0) | (4 if t & plane2 else 0)
            if v == 0 or v == SKULL or done >> v & 1:
                continue
            done |= 1 << v
            m = masks[v]
            u = touch & m  # the touching cells, grown below into their groups
            if u == t and not NBM[t.bit_length() - 1] & m:
                continue  # a lone block
            u = group(u, m)
            n = u.bit_count()
            if n < 2:
                continue
            need = 1 if n >= 3 else 2
            if h + need > H or u in tried:
                continue
            tried.add(u)
            cc = masks[:]
            if need == 1:  # the groups it touches and the block: the first step's one group
                cc[v] = m | bit
                pts, steps = resolve(cc, None, bit, u | bit, v)
            else:
                cc[v] = m | bit | bit << 1
                pts, steps = resolve(cc, None, bit)
            val = pts if need == 1 else pts * need2_f
            if val > best:
                best = val
                ch.points = pts
                ch.steps = steps
                ch.column = c
                ch.colour = v
                ch.need = need
    return ch


_TALL: dict[float, tuple[float, ...]] = {}  # tall_w -> each height's term (see below)


def shape_penalty(hts: list[int] | tuple[int, ...]) -> float:
    """Penalty (in points) for a tall or crowded grid.

    The same float operations in the same order as summing column by column: a column at
    or under row 8 adds 0.0 here (where the list version added nothing), which changes no bit."""
    tall_w = PARAMS["tall_w"]
    terms = _TALL.get(tall_w)
    if terms is None:
        terms = tuple((h - 8) * (h - 8) * tall_w if h > 8 else 0.0 for h in range(H + 1))
        _TALL[tall_w] = terms
    h0, h1, h2, h3, h4, h5 = hts
    total = h0 + h1 + h2 + h3 + h4 + h5
    pen = 0.0 + terms[h0] + terms[h1] + terms[h2] + terms[h3] + terms[h4] + terms[h5]
    pen += total * PARAMS["height_w"]
    if total > 54:
        pen += (total - 54) * PARAMS["full_w"]
    return pen


_LANDINGS: dict[tuple[int, ...], list[tuple]] = {}


def _landing_tables() -> list[tuple[int, int, int, list[list[tuple | None]]]]:
    """Per move (index, column of A, column of B, table): table[ha][hb], for the heights
    of A's and B's columns, is (index, bit of A, bit of B, their neighbour masks, whether
    the blocks touch), or None where the pair does not fit."""
    tables = []
    for mi, rot, ca, cb, oa, ob in INDEXED:
        table: list[list[tuple | None]] = [[None] * (H + 1) for _ in range(H + 1)]
        for ha in range(H + 1):
            for hb in range(H + 1):
                if ca != cb:
                    if ha >= H or hb >= H:
                        continue
                    ia = oa + ha
                    ib = ob + hb
                    touching = ha == hb
                else:
                    if ha != hb or ha > H - 2:
                        continue
                    if rot == 1:  # B on top of A
                        ia = oa + ha
                        ib = ia + 1
                    else:
                        ib = oa + ha
                        ia = ib + 1
                    touching = True
                table[ha][hb] = (mi, 1 << ia, 1 << ib, NBM[ia], NBM[ib], touching)
        tables.append((mi, ca, cb, table))
    return tables


LANDING_TABLES = _landing_tables()
SAME_COLOUR_LANDING_TABLES = [t for t in LANDING_TABLES if MOVES[t[0]][1] in (0, 1)]
_PENALTIES: dict[tuple[int, ...], float] = {}  # shape_penalty by heights, for landings


def landings(hts: list[int] | tuple[int, ...], same: bool) -> list[tuple]:
    """Every placement that fits a grid of these heights, for the search (memoised): per
    move (index, bit of block A, bit of block B, their neighbour masks, whether the two
    blocks touch, the heights after it as a tuple, their shape penalty). `same`: the pair
    has one colour (rotations 2 and 3 are then left out)."""
    key = (*hts, same)
    got = _LANDINGS.get(key)
    if got is not None:
        return got
    got = []
    penalties = _PENALTIES
    for _mi, ca, cb, table in SAME_COLOUR_LANDING_TABLES if same else LANDING_TABLES:
        fit = table[hts[ca]][hts[cb]]
        if fit is not None:
            after = list(hts)
            after[ca] += 1
            after[cb] += 1
            after = tuple(after)
            pen = penalties.get(after)  # (heights after repeat more than heights before)
            if pen is None:
                pen = penalties[after] = shape_penalty(after)
            got.append((*fit, after, pen))
    if len(_LANDINGS) > 20000:
        _LANDINGS.clear()  # bound the memory (an entry is a few kB)
        penalties.clear()
    _LANDINGS[key] = got
    return got


def reset_memos() -> None:
    """Empty the module's memos (fall plans, landings, penalties): to bound memory, or
    after PARAMS changed."""
    _FALLS.clear()
    _LANDINGS.clear()
    _PENALTIES.clear()


# ---------------------------------------------------------------- search


def trigger_waits(pairs: list[tuple[int, int]]) -> list[list[list[float]]]:
    """waits[n][colour][need]: the discount for a chain whose trigger needs `need` blocks of
    `colour`, when the next pair to play is pairs[n]: trig_gamma per turn until the known
    pairs bring them, or the expected wait after the last known pair (a pair holds a given
    colour with chance 9/25, two blocks of it arrive every 5 pairs on average)."""
    tg = PARAMS["trig_gamma"]
    table = []
    for n in range(len(pairs) + 1):
        row = [[1.0, 1.0, 1.0] for _ in range(6)]
        for colour in range(1, 6):
            for need in (1, 2):
                got = 0
                wait = -1.0
                for j in range(n, len(pairs)):
                    got += (pairs[j][0] == colour) + (pairs[j][1] == colour)
                    if got >= need:
                        wait = j - n
                        break
                if wait < 0:
                    wait = len(pairs) - n + (1.8 if need == 1 else 4.0)
                row[colour][need] = tg**wait
        table.append(row)
    return table


class Node:
    """A grid reached by a sequence of moves in the beam."""

    __slots__ = (
        "acc",
        "edges",
        "exact",
        "fire_depth",
        "fire_pts",
        "fire_steps",
        "hts",
        "masks",
        "path",
        "pot",
        "safe",
        "value",
    )

    def __init__(
        self,
        value: float,
        acc: float,
        masks: list[int],
        hts: list[int],
        path: tuple[int, ...],
        fire: tuple[int, int, int],
        safe: bool,
    ) -> None:
        self.value = value
        self.acc = acc
        self.masks = masks
        self.hts = hts
        self.path = path  # indices into MOVES, first move first
        self.fire_pts, self.fire_steps, self.fire_depth = fire  # biggest chain on the path
        self.safe = safe  # our skulls land before the opponent's expected attack
        self.pot = 0.0  # the chain-potential part of the grid's value, once evaluated
        self.exact = False  # value from the full evaluation (else the cheap estimate)
        self.edges = 0  # same-colour neighbour pairs on the grid


_VALUE_OF = itemgetter(0)  # the value of a stage-1 record (its sort key)


class Searcher:
    """Beam search over the known pairs with a persistent evaluation cache."""

    def __init__(self) -> None:
        self.cache: dict[tuple[int, ...], tuple[float, Chain]] = {}
        self.nodes = 0
        self.evals = 0
        self.timed_out = False
        self.deadline = 0.0
        self.fire_min = PARAMS["fire_min"]
        self.kill_lines = H + 1
        self.opp_owed70 = 0  # nuisance the opponent still owes, in 1/70 points
        self.first_layer: list[tuple[float, int]] = []  # one move deep: (value, move)
        self.waits: list[list[list[float]]] = []  # see trigger_waits
        self.slot_cost = 0.0008  # seconds a beam node's children cost (measured as it goes)
        self.widest = 0  # the widest layer of the last search

    def evaluate(self, masks: list[int], hts: list[int]) -> tuple[float, float, Chain]:
        """Static value of a grid that fired nothing more: (value, its chain part, chain).

        The chain part is the chain potential (what one or two blocks would set off, and
        its steps); the rest is grouping (same-colour neighbours) and the stack's shape.
        """
        key = tuple(masks)
        got = self.cache.get(key)
        if got is not None:
            return got
        self.evals += 1
        ch = chain_potential(masks, hts)
        pot = ch.points if ch.need == 1 else ch.points * PARAMS["need2_f"]
        part = pot * PARAMS["pot_w"] + ch.steps * PARAMS["steps_w"]
        val = part + self.cheap(masks, hts)
        got = (val, part, ch)
        self.cache[key] = got
        return got

    def adjusted(self, got: tuple[float, float, Chain], n: int) -> tuple[float, float]:
        """(value, chain part) of a cached evaluation, the chain part discounted for the
        turns until its trigger colour comes (``n``: the index of the next pair to play)."""
        val, part, ch = got
        if not ch.points:
            return val, part
        factor = self.waits[n][ch.colour][ch.need]
        return val - part + part * factor, part * factor

    def next_width(self, parents: int, layer_start: float, layers_left: int) -> int:
        """The beam width for the next layer: the time left shared by the layers left, at
        the cost per beam node measured so far (a running mean over layers and turns; the
        first layer, one node whose children all get the full evaluation, is not counted)."""
        now = time.perf_counter()
        if parents:
            cost = (now - layer_start) / parents
            self.slot_cost += (cost - self.slot_cost) * 0.3
        # A layer in hand: the deeper layers cost more (fewer of their grids are in the
        # cache), and a layer that runs over the deadline is thrown away.
        share = (self.deadline - now) * PARAMS["spend"] / (layers_left + 1)
        return int(max(PARAMS["min_width"], min(PARAMS["max_width"], share / self.slot_cost)))

    @staticmethod
    def child_node(rec: tuple) -> Node:
        """The Node of a stage-1 record (value, acc, masks, heights, parent, move index,
        fire or None (then the parent's), safe, edges, cached (value, chain part) or None)."""
        val, acc, cc, hh, parent, mi, fire, safe, ne, got = rec
        if fire is None:
            fire = (parent.fire_pts, parent.fire_steps, parent.fire_depth)
        node = Node(val, acc, cc, hh, (*parent.path, mi), fire, safe)
        node.edges = ne
        if got is not None:
            node.pot = got[1]
            node.exact = True
        return node

    @staticmethod
    def cheap(masks: list[int], hts: list[int]) -> float:
        """The quick part of a grid's value: grouping and shape."""
        return edges(masks, hts) * PARAMS["edge_w"] - shape_penalty(hts)

    def fire_value(self, pts: int) -> tuple[float, bool, int]:
        """Value of firing `pts` points, whether its skulls kill the opponent, lines sent."""
        lines = (self.opp_owed70 + pts) // POINTS_PER_LINE
        if lines >= self.kill_lines:
            return KILL + pts, True, lines
        if pts >= self.fire_min:
            return pts + lines * PARAMS["lines_w"], False, lines
        return pts * PARAMS["small_w"], False, lines

    def search(
        self,
        masks: list[int],
        hts: list[int],
        pairs: list[tuple[int, int]],
        width: int,
        threat: tuple[int, int] | None,
        plan: tuple[int, ...],
        adaptive: bool = False,
    ) -> tuple[Node | None, list[tuple[float, int]], int]:
        """Return (best node, best value per first move, depth completed).

        `threat` = (f, lines): the opponent is expected to fire at depth f, so `lines`
        skull lines fall on the grid before our move at depth f + 1, unless that line of
        play sent it skulls at a depth before f (they land first and bury its trigger).
        `plan` (move indices) is the previous turn's best line from here: the node
        following it is kept in the beam even when it ranks below `width`.
        Nodes that kill the opponent, or find no room after the skulls, are terminal. A
        kill on the very turn the expected attack is fired, when its skulls would kill
        us as well, is a draw (both grids buried at once), worth only its points.
        `adaptive`: after each layer the beam's width is set so that the layers left fit
        in the time left (see `next_width`); else it stays `width`.
        """
        gamma = PARAMS["gamma"]
        clock = time.perf_counter
        deadline = self.deadline
        self.waits = trigger_waits(pairs)
        self.widest = width
        root = Node(0.0, 0.0, masks, hts, (), (0, 0, -1), False)
        root.pot = self.adjusted(self.evaluate(masks, hts), 0)[1]
        root.edges = edges(masks, hts)
        layer = [root]
        terminals: list[Node] = []
        best_layer: list[Node] = []
        depth = 0
        disc = 1.0
        hit_at = threat[0] + 1 if threat else -1
        threatened = hit_at >= 0  # else no node is ever safe (see below)
        for d, (a, b) in enumerate(pairs):
            if d == hit_at:
                # The expected attack lands on every line that did not bury it first: its
                # skulls cover the grid, and each line costs what sending one is worth.
                lines = threat[1]  # type: ignore[index]
                hit = lines * POINTS_PER_LINE * PARAMS["hit_w"] * disc
                for node in layer:
                    if not node.safe:
                        node.masks = node.masks[:]
                        node.hts = list(node.hts)
                        drop_skulls(node.masks, node.hts, lines)
                        node.acc -= hit
                        node.value -= hit
            same = a == b
            layer_start = clock()
            # Stage 1 keeps each distinct child as a record (see `Searcher.child_node`); only
            # those that reach stage 2 become Nodes.
            children: dict[object, tuple] = {}  # by (grid, safe), or grid when nothing is safe
            plan_rec: tuple | None = None
            plan_prefix = plan[:d] if len(plan) > d else None
            ndisc = disc * gamma
            cache = self.cache
            tick = 0
            nodes = 0
            edge_w = PARAMS["edge_w"]
            # Stage 1: every child, valued with its parent's chain potential plus its own
            # grouping and shape (or its full value when the cache has it).
            for node in layer:
                on_plan = plan_prefix is not None and node.path == plan_prefix
                pm = node.masks
                ph = node.hts
                pma = pm[a]
                pmb = pm[b]
                pedges = node.edges
                pacc = node.acc
                psafe = node.safe
                pfire = node.fire_pts
                ppot = node.pot
                # A column with room for the pair and two more blocks: every child has room.
                roomy = min(ph) <= H - 4
                # (the heights after a placement are a tuple shared through the memo: a grid
                # that clears gets its own list)
                lands = landings(ph, same)
                alive = bool(lands)  # some placement fits
                for mi, ba, bb, nba, nbb, touching, hh, pen in lands:
                    nodes += 1
                    cc = pm[:]
                    # Does anything clear? Only a group through a new block can: grow it from
                    # the block and its same-colour neighbours (most have none). A group of 4+
                    # found here is handed to `resolve` as its first step when it is the only one.
                    pts = 0
                    if same:
                        ma = pma | ba | bb
                        cc[a] = ma
                        na = nba & ma
                        nb = nbb & ma
                        both = ba | bb
                        grown = na | nb | both
                        if grown != both:
                            # both blocks' groups at once: neither reaches 4 if together they don't
                            g = group(grown, ma)
                            if g.bit_count() >= 4:  # (one group if the blocks touch)
                                hh = list(hh)
                                pts, steps = resolve(cc, hh, both, g if touching else 0, a)
                    else:
                        ma = pma | ba
                        mb = pmb | bb
                        cc[a] = ma
                        cc[b] = mb
                        na = nba & ma
                        nb = nbb & mb
                        ga = na and group(ba | na, ma)
                        if ga and ga.bit_count() < 4:
                            ga = 0
                        gb = nb and group(bb | nb, mb)
                        if gb and gb.bit_count() < 4:
                            gb = 0
                        if ga:
                            hh = list(hh)
                            pts, steps = resolve(cc, hh, ba | bb, 0 if gb else ga, a)
                        elif gb:
                            hh = list(hh)
                            pts, steps = resolve(cc, hh, ba | bb, gb, b)
                    fire = None  # (points, steps, depth) when this move fires the path's biggest
                    safe = psafe
                    acc = pacc
                    if pts:
                        if pts > pfire:
                            fire = (pts, steps, d)
                        fv, kills, sent = self.fire_value(pts)
                        if (
                            kills
                            and d == hit_at - 1
                            and not psafe
                            and threat[1] >= lines_to_kill(hh)  # type: ignore[index]
                        ):
                            # The opponent fires on this same turn and its skulls kill us
                            # too: both grids are buried at once, a draw, worth the points.
                            fv = float(pts)
                        acc += fv * disc
                        if kills:
                            terminals.append(
                                self.child_node((acc, acc, cc, hh, node, mi, fire, True, 0, None))
                            )
                            continue
                        if sent and d < hit_at - 1:
                            safe = True
                        ne = edges(cc, hh)
                    else:  # only the two new blocks' neighbours changed
                        ne = pedges + na.bit_count() + nb.bit_count()
                        if same and touching:
                            ne -= 1  # the pair's own edge was counted from both blocks
                    if not roomy and not fits_any(hh):
                        # No room for the next pair: this line loses.
                        terminals.append(
                            self.child_node(
                                (acc + DEATH * ndisc, acc, cc, hh, node, mi, fire, safe, 0, None)
                            )
                        )
                        continue
                    grid = tuple(cc)
                    got = cache.get(grid)
                    if got is not None:
                        got = self.adjusted(got, d + 1)
                        val = acc + got[0] * ndisc
                    else:
                        if pts:  # heights changed since the landing
                            pen = shape_penalty(hh)
                        val = acc + (ppot + ne * edge_w - pen) * ndisc
                    key = (grid, safe) if threatened else grid
                    old = children.get(key)
                    if old is None or old[0] < val:
                        rec = (val, acc, cc, hh, node, mi, fire, safe, ne, got)
                        children[key] = rec
                        if on_plan and mi == plan[d]:
                            plan_rec = rec
                    tick += 1
                    if tick & 15 == 0 and clock() > deadline:
                        self.timed_out = True
                        break
                if not alive and d:
                    # No placement fits (after the expected skulls): this line loses.
                    terminals.append(
                        Node(
                            node.value + DEATH * disc,
                            node.acc,
                            node.masks,
                            node.hts,
                            node.path,
                            (node.fire_pts, node.fire_steps, node.fire_depth),
                            node.safe,
                        )
                    )
                if self.timed_out:
                    break
            self.nodes += nodes
            if self.timed_out and d > 0:
                break  # an incomplete layer: the previous one decides
            if not children:
                best_layer = []
                break  # every line ended (won or lost): the terminals decide
            # Stage 2: the most promising children get the full evaluation (chain potential).
            ranked_recs = sorted(children.values(), key=_VALUE_OF, reverse=True)
            short_recs = ranked_recs[: max(int(width * PARAMS["expand"]), width + 2)]
            short = [self.child_node(r) for r in short_recs]
            plan_child: Node | None = None
            if plan_rec is not None:
                for r, n in zip(short_recs, short, strict=True):
                    if r is plan_rec:
                        plan_child = n
                        break
                else:  # (it may even have been displaced in `children` by a better twin)
                    plan_child = self.child_node(plan_rec)
                    short.append(plan_child)
            for child in short:
                if not child.exact:
                    ev, part = self.adjusted(self.evaluate(child.masks, child.hts), d + 1)
                    child.value = child.acc + ev * ndisc
                    child.pot = part
                    child.exact = True
                    if clock() > deadline:
                        self.timed_out = True
                        break
            if self.timed_out and d > 0:
                break
            ranked = sorted((n for n in short if n.exact), key=lambda n: n.value, reverse=True)
            if not ranked:
                break
            best_layer = ranked
            if d == 0:
                self.first_layer = [(n.value, n.path[0]) for n in ranked]
            depth = d + 1
            disc = ndisc
            if adaptive and d + 1 < len(pairs):
                width = self.next_width(len(layer) if d else 0, layer_start, len(pairs) - d - 1)
                self.widest = max(self.widest, width)
            layer = ranked[:width]
            if plan_child is not None and plan_child.exact and plan_child not in layer:
                layer.append(plan_child)
            if self.timed_out:
                break
        per_first: dict[int, Node] = {}
        for n in best_layer + terminals:
            old = per_first.get(n.path[0])
            if old is None or n.value > old.value:
                per_first[n.path[0]] = n
        ranked_first = sorted(per_first.values(), key=lambda n: n.value, reverse=True)
        best = ranked_first[0] if ranked_first else None
        return best, [(n.value, n.path[0]) for n in ranked_first], depth


# ---------------------------------------------------------------- the opponent


def opponent_fires(
    masks: list[int], hts: list[int], pairs: list[tuple[int, int]], searcher: Searcher
) -> list[tuple[int, int]]:
    """The most the opponent can fire, (points, steps), on each of the next turns.

    Turn 0 tries all its placements of this turn's pair; each later turn (up to
    ``opp_turns``) tries the next pair on its ``opp_width`` most promising grids of the
    turn before that fired nothing (ranked by our own evaluation, distinct grids only).
    """
    turns = min(len(pairs), int(PARAMS["opp_turns"]))
    width = int(PARAMS["opp_width"])
    fires = []
    layer = [(masks, hts)]
    for d in range(turns):
        a, b = pairs[d]
        best = (0, 0)
        kids: dict[tuple[int, ...], tuple[float, list[int], list[int]]] = {}
        for pm, ph in layer:
            for mv in SAME_COLOUR_MOVES if a == b else MOVES:
                cc = pm[:]
                hh = ph[:]
                seeds = place(cc, hh, mv, a, b)
                if not seeds:
                    continue
                got = resolve(cc, hh, seeds)
                if got[0]:
                    if got[0] > best[0]:
                        best = got
                elif d + 1 < turns:
                    key = tuple(cc)
                    if key not in kids:
                        kids[key] = (searcher.evaluate(cc, hh)[0], cc, hh)
        fires.append(best)
        ranked = sorted(kids.values(), key=_VALUE_OF, reverse=True)
        layer = [(cc, hh) for _, cc, hh in ranked[:width]]
    return fires


# ---------------------------------------------------------------- input and the turn loop


def parse_grid(rows: list[str]) -> tuple[list[int], list[int]]:
    """Turn 12 rows (top to bottom) into (masks, heights)."""
    masks = [0] * (SKULL + 1)
    hts = [0] * W
    for c in range(W):
        h = 0
        for r in range(H - 1, -1, -1):
            ch = rows[r][c] if c < len(rows[r]) else "."
            if ch == ".":
                break
            masks[SKULL if ch == "0" else int(ch)] |= 1 << (c * S + h)
            h += 1
        hts[c] = h
    return masks, hts


def read_turn() -> tuple[float, list[str]] | None:
    """Read one turn's 34 lines; None at end of input. The clock starts at the first line."""
    first = sys.stdin.readline()
    if not first:
        return None
    start = time.perf_counter()
    lines = [first.strip()]
    for _ in range(33):
        line = sys.stdin.readline()
        if not line:
            return None
        lines.append(line.strip())
    return start, lines


def move_text(mi: int) -> str:
    """`x rotation` of move index `mi`."""
    return f"{MOVES[mi][0]} {MOVES[mi][1]}"


@dataclass
class TurnLog:
    """What a turn decided and why, kept for :meth:`Bot.report` after the answer."""

    pairs: list[tuple[int, int]]
    masks: list[int]
    hts: list[int]
    mi: int
    best: Node | None
    candidates: list[tuple[float, int]]
    depth: int
    width: int
    fell: int
    opp_fires: list[tuple[int, int]]  # see opponent_fires
    opp_chain: Chain
    attack: tuple[int, int, bool] | None  # see Bot.expected_attack
    used: float
    my_score: int
    opp_score: int


class Bot:
    """State kept between turns: scores, nuisance owed both ways, the plan, the cache."""

    def __init__(self) -> None:
        self.turn = 0
        self.searcher = Searcher()
        self.scores = (0, 0)
        self.my_owed70 = 0  # nuisance we still owe, in 1/70 points (< 420 after a drop)
        self.opp_owed70 = 0
        self.plan: tuple[int, ...] = ()
        self.expected: tuple[int, ...] | None = None  # our grid if the plan goes on
        self.width = 8  # the widest beam of last turn's search

    def track_nuisance(self, my_score: int, opp_score: int) -> int:
        """Update what each side owes from last turn's points; return lines that just fell on us."""
        my_pts = my_score - self.scores[0]
        opp_pts = opp_score - self.scores[1]
        self.scores = (my_score, opp_score)
        fell = 0
        if self.turn:
            self.my_owed70 += opp_pts
            fell = self.my_owed70 // POINTS_PER_LINE
            self.my_owed70 -= fell * POINTS_PER_LINE
            self.opp_owed70 += my_pts
            self.opp_owed70 -= (self.opp_owed70 // POINTS_PER_LINE) * POINTS_PER_LINE
        return fell

    def play(self, start: float, lines: list[str]) -> str:
        """Decide one turn; log the reasoning; return the answer."""
        pairs = []
        for s in lines[:8]:
            a, b = s.split()[:2]
            pairs.append((int(a), int(b)))
        my_score = int(lines[8])
        opp_score = int(lines[21])
        masks, hts = parse_grid(lines[9:21])
        omasks, ohts = parse_grid(lines[22:34])
        fell = self.track_nuisance(my_score, opp_score)
        first = self.turn == 0
        budget = PARAMS["first_budget"] if first else PARAMS["budget"]
        sr = self.searcher
        if len(sr.cache) > 60000:
            sr.cache.clear()
            reset_memos()
        sr.deadline = start + budget
        if first:
            # The first turn's clock (1 s) started when the input was sent, and it also
            # absorbs the interpreter's start-up: on a loaded machine that can be slow.
            sr.deadline = min(sr.deadline, start + PARAMS["first_total"] - started_ago())
        sr.nodes = 0
        sr.evals = 0
        sr.timed_out = False
        sr.first_layer = []

        opp_fires = opponent_fires(omasks, ohts, pairs, sr)
        opp_chain = chain_potential(omasks, ohts)
        attack = self.expected_attack(opp_fires, opp_chain, hts, ohts, pairs)
        threat = attack[:2] if attack else None
        # Only an attack we meet lowers the firing threshold; a smaller one is taken.
        sr.fire_min = PARAMS["fire_threat"] if attack and attack[2] else PARAMS["fire_min"]
        if sum(hts) >= 48 or max(hts) >= 10:
            sr.fire_min = min(sr.fire_min, 300.0)
        sr.kill_lines = lines_to_kill(ohts)
        sr.opp_owed70 = self.opp_owed70

        plan = self.plan[1:] if self.expected == tuple(masks) else ()
        if PARAMS["adaptive"]:
            best, candidates, depth = self.sized_search(masks, hts, pairs, threat, plan)
        else:
            best, candidates, depth = self.widening_search(masks, hts, pairs, threat, plan)
        width = self.width
        if best is None or not best.path:
            mi = self.fallback(masks, hts, pairs[0])
            self.plan = ()
            self.expected = None
        else:
            mi = best.path[0]
            self.plan = best.path
            cc = masks[:]
            hh = hts[:]
            a, b = pairs[0]
            resolve(cc, hh, place(cc, hh, MOVES[mi], a, b))
            self.expected = tuple(cc)
        used = (time.perf_counter() - start) * 1000
        self.pending = TurnLog(
            pairs,
            masks,
            hts,
            mi,
            best,
            candidates,
            depth,
            width,
            fell,
            opp_fires,
            opp_chain,
            attack,
            used,
            my_score,
            opp_score,
        )
        self.turn += 1
        return move_text(mi)

    def sized_search(
        self,
        masks: list[int],
        hts: list[int],
        pairs: list[tuple[int, int]],
        threat: tuple[int, int] | None,
        plan: tuple[int, ...],
    ) -> tuple[Node | None, list[tuple[float, int]], int]:
        """One beam search over the known pairs, its width set layer by layer so that the
        layers left fit in the time left (``Searcher.next_width``): no search is repeated
        wider or thrown away, so the turn's time goes to one beam as wide as it allows."""
        sr = self.searcher
        left = sr.deadline - time.perf_counter()
        width = left * PARAMS["spend"] / (len(pairs) + 0.5) / sr.slot_cost
        width = int(max(PARAMS["min_width"], min(PARAMS["max_width"], width)))
        sr.timed_out = False
        got = sr.search(masks, hts, pairs, width, threat, plan, adaptive=True)
        self.width = sr.widest
        return got

    def widening_search(
        self,
        masks: list[int],
        hts: list[int],
        pairs: list[tuple[int, int]],
        threat: tuple[int, int] | None,
        plan: tuple[int, ...],
    ) -> tuple[Node | None, list[tuple[float, int]], int]:
        """Iterative widening (``adaptive=0``): search all the known pairs with a narrow
        beam, then again twice as wide while the time left allows (the cache makes the
        repeats cheap); keep the deepest result, the widest among equally deep ones."""
        sr = self.searcher
        width = self.width
        best, candidates, depth = None, [], 0
        while True:
            t0 = time.perf_counter()
            sr.timed_out = False
            got = sr.search(masks, hts, pairs, width, threat, plan)
            if got[0] is not None and (got[2] > depth or (got[2] == depth and not sr.timed_out)):
                best, candidates, depth = got
                self.width = width
            spent = time.perf_counter() - t0
            if sr.timed_out or width >= 64 or sr.deadline - time.perf_counter() < spent:
                break
            width *= 2
        if sr.timed_out and depth < len(pairs):
            self.width = max(4, self.width // 2)  # too wide to finish: narrower next turn
        return best, candidates, depth

    def expected_attack(
        self,
        opp_fires: list[tuple[int, int]],
        opp_chain: Chain,
        hts: list[int],
        ohts: list[int],
        pairs: list[tuple[int, int]],
    ) -> tuple[int, int, bool] | None:
        """(turn offset, skull lines, met) of the attack we expect, or None.

        The opponent can fire ``opp_fires[k]`` on turn k from now (see `opponent_fires`).
        We expect the first such fire that is ready (at least ``ready`` of the most it can
        fire from two turns out, or of its best chain in reach: waiting would gain it
        little), that would kill us, or that comes from a high stack. A chain it can fire
        but is still growing is not expected: assuming every such chain fires would make
        building look pointless. Looking four turns ahead, not two, sees a chain the
        opponent builds in two or three moves (its 2650 points two turns out, where bot0
        saw 640 and went on building, in a game lost to them). Further out, a chain in
        reach big enough to hurt (far_lines, or a kill) is expected on the turn the known
        pairs bring its trigger colour (up to far_turns ahead), which gives us time to
        fire first.

        `met` says whether to meet it: the firing threshold drops (``fire_threat``), so
        the search may fire a small chain first to bury the attacker's trigger. Attacks
        under ``threat_min`` (four skull lines) are not met unless they kill us: meeting
        smaller ones did no better against the enemy, and a little worse on average over
        five runs of 200 games (docs/bots.md). But a ready one from ``soft_min`` (three
        lines) up is still expected, not met: its skulls fall on the simulated grids, so
        the search sees the plan they would bury and can build around them or fire a
        chain that has reached the usual threshold; before, bot0 built on as if they would
        never come, and lost most games where the enemy fired three lines twice. Both
        sizes count the nuisance we already owe, as the skulls that fall do: 1000 points
        on top of 300 owed are three lines.
        """
        kill = lines_to_kill(hts)
        soft = None
        ref = max([opp_chain.points] + [pts for pts, _ in opp_fires[2:]])
        for k, (pts, _) in enumerate(opp_fires):
            nuisance = self.my_owed70 + pts
            lines = nuisance // POINTS_PER_LINE
            if not lines:
                continue
            ready = pts >= PARAMS["ready"] * ref
            if nuisance < PARAMS["threat_min"] and lines < kill:
                # a small attack that does not kill us: take it (and expect it if ready)
                if soft is None and ready and nuisance >= PARAMS["soft_min"]:
                    soft = (k, lines, False)
                continue
            if ready or lines >= kill or lines >= 6 or sum(ohts) >= 48:
                return k, lines, True
        if soft is not None:
            return soft
        # Further out: a big chain in reach fires when the pairs bring its trigger colour
        # (counted from this turn's pair: a trigger of two blocks can come one by one).
        if opp_chain.points:
            lines = (self.my_owed70 + opp_chain.points) // POINTS_PER_LINE
            if lines >= min(kill, PARAMS["far_lines"]):
                got = 0
                for k in range(min(len(pairs), int(PARAMS["far_turns"]) + 1)):
                    got += (pairs[k][0] == opp_chain.colour) + (pairs[k][1] == opp_chain.colour)
                    if k >= 2 and got >= opp_chain.need:
                        return k, lines, True
        return None

    def fallback(self, masks: list[int], hts: list[int], pair: tuple[int, int]) -> int:
        """Any placement that fits (the search found none alive)."""
        for i, mv in enumerate(MOVES):
            cc = masks[:]
            hh = hts[:]
            if place(cc, hh, mv, pair[0], pair[1]):
                return i
        return 0

    def report(self) -> None:
        """The last turn's reasoning on stderr (written after the answer, off the clock)."""
        t = self.pending
        sr, best, attack = self.searcher, t.best, t.attack
        fires = t.opp_fires + [(0, 0)] * (4 - len(t.opp_fires))
        log(f"== turn {self.turn - 1} score {t.my_score} vs {t.opp_score}")
        log("pairs " + " ".join(f"{a}{b}" for a, b in t.pairs))
        log(f"heights {t.hts}")
        own_chain = chain_potential(t.masks, t.hts)
        log(f"my chain now: {own_chain}")
        log(
            f"threat: skulls fell on us {t.fell} lines, still owed {self.my_owed70 / 70:.1f}; "
            f"opp fires now {fires[0][0]} ({fires[0][1]} steps), next turn {fires[1][0]} "
            f"({fires[1][1]} steps), in 2 and 3 turns {fires[2][0]} and {fires[3][0]}; "
            f"opp best chain {t.opp_chain}; expecting "
            + (
                f"it fires at +{attack[0]}: {attack[1]} lines on us, "
                + ("met (firing threshold lowered)" if attack[2] else "taken (too small to meet)")
                if attack
                else "no attack"
            )
        )
        log(
            f"fire threshold {sr.fire_min:.0f}, {sr.kill_lines} lines kill the opponent, "
            f"we owe it {self.opp_owed70 / 70:.1f} nuisance"
        )
        shown = ", ".join(f"{move_text(m)}={v:.0f}" for v, m in sr.first_layer[:6])
        log(f"candidates one move deep (move=value): {shown}")
        shown = ", ".join(f"{move_text(m)}={v:.0f}" for v, m in t.candidates[:6])
        log(f"candidates at depth {t.depth} (best line per first move): {shown}")
        if best is not None and best.path:
            path = " ".join(move_text(m).replace(" ", "/") for m in best.path)
            if best.fire_depth >= 0:
                plan = f"fires {best.fire_pts} pts ({best.fire_steps} steps) at +{best.fire_depth}"
            else:
                ch = sr.evaluate(best.masks, best.hts)[2]
                plan = f"builds to: {ch}"
            log(f"plan {path}: value {best.value:.0f}, {plan}")
        log(
            f"move {move_text(t.mi)}; depth {t.depth} width {t.width} nodes {sr.nodes} "
            f"evals {sr.evals} cache {len(sr.cache)} timeout {sr.timed_out} ms {t.used:.1f}"
        )


def main() -> None:
    """Play until end of input."""
    for arg in sys.argv[1:]:
        key, _, value = arg.partition("=")
        if key in PARAMS:
            PARAMS[key] = float(value)
    gc.disable()  # no reference cycles are made; avoids collector pauses mid-turn
    bot = Bot()
    while True:
        data = read_turn()
        if data is None:
            return
        start, lines = data
        answer = bot.play(start, lines)
        print(answer, flush=True)
        bot.report()


if __name__ == "__main__":
    main()
