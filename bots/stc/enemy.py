#!/usr/bin/env python3
"""Smash The Code: chain-building beam-search bot (the seed's "Bot1" enemy).

Searches the 8 known pairs with a time-bounded beam search. Positions are valued by
the chain they could fire (for each column, drop one or two blocks of a neighbouring
colour and simulate the chain), by how well colours are grouped, and by stack height.
It fires when the chain is big enough, or earlier when its stack is high or the
opponent threatens skulls. Single file, stdlib only; answers on stdout, logs on stderr.
"""

from __future__ import annotations

import gc
import sys
import time

W = 6
H = 12
N = W * H
SKULL = 6  # internal code for a skull; 0 is an empty cell, 1-5 the colours
FIRST_TURN_BUDGET = 0.40  # seconds on the first turn (1000 ms clock)
TURN_BUDGET = 0.055  # seconds on later turns (100 ms clock), counted from the first line
GAMMA = 0.85  # discount per turn of lookahead
POT_WEIGHT = 0.6  # weight of a chain that could be fired, relative to fired points
SMALL_FIRE_WEIGHT = 0.15  # weight of points fired below the firing threshold
CB_TABLE = (0, 0, 2, 4, 8, 16)
DEAD = -1e9


def _neighbours() -> list[tuple[int, ...]]:
    """Neighbour table for cell index c*H + r (r = 0 is the bottom row)."""
    table = []
    for c in range(W):
        for r in range(H):
            nb = []
            if r > 0:
                nb.append(c * H + r - 1)
            if r < H - 1:
                nb.append(c * H + r + 1)
            if c > 0:
                nb.append((c - 1) * H + r)
            if c < W - 1:
                nb.append((c + 1) * H + r)
            table.append(tuple(nb))
    return table


NB = _neighbours()
# (x, rotation, column of A, column of B)
MOVES = [(x, 0, x, x + 1) for x in range(W - 1)]
MOVES += [(x, 1, x, x) for x in range(W)]
MOVES += [(x, 2, x, x - 1) for x in range(1, W)]
MOVES += [(x, 3, x, x) for x in range(W)]
SAME_COLOUR_MOVES = [m for m in MOVES if m[1] in (0, 1)]


def place(cells: list[int], hts: list[int], move: tuple[int, int, int, int], a: int, b: int) -> int:
    """Drop pair (a, b) with `move`; return the lower landing index, or -1 if it does not fit."""
    _, rot, ca, cb = move
    if ca != cb:
        ha = hts[ca]
        hb = hts[cb]
        if ha >= H or hb >= H:
            return -1
        pa = ca * H + ha
        pb = cb * H + hb
        cells[pa] = a
        cells[pb] = b
        hts[ca] = ha + 1
        hts[cb] = hb + 1
        return pa if pa < pb else pb
    h = hts[ca]
    if h > H - 2:
        return -1
    p = ca * H + h
    if rot == 1:  # B on top of A
        cells[p] = a
        cells[p + 1] = b
    else:  # A on top of B
        cells[p] = b
        cells[p + 1] = a
    hts[ca] = h + 2
    return p


def landing(move: tuple[int, int, int, int], hts: list[int], low: int) -> list[int]:
    """Cells where a just-placed pair landed (`low` is what `place` returned)."""
    ca = move[2]
    cb = move[3]
    if ca != cb:
        return [ca * H + hts[ca] - 1, cb * H + hts[cb] - 1]
    return [low, low + 1]


def resolve(cells: list[int], hts: list[int], seeds: list[int]) -> tuple[int, int]:
    """Clear groups reachable from `seeds`, apply gravity, chain; return (points, steps)."""
    total = 0
    step = 0
    nb = NB
    while seeds:
        seen = set()
        groups = []
        for s in seeds:
            if s in seen:
                continue
            v = cells[s]
            if v == 0 or v == SKULL:
                continue
            seen.add(s)
            grp = [s]
            stack = [s]
            while stack:
                p = stack.pop()
                for q in nb[p]:
                    if q not in seen and cells[q] == v:
                        seen.add(q)
                        grp.append(q)
                        stack.append(q)
            if len(grp) >= 4:
                groups.append(grp)
        if not groups:
            break
        cleared = 0
        gb = 0
        colours = set()
        low: dict[int, int] = {}
        for grp in groups:
            n = len(grp)
            cleared += n
            gb += 8 if n >= 11 else n - 4
            colours.add(cells[grp[0]])
            for p in grp:
                cells[p] = 0
        for grp in groups:
            for p in grp:
                c = p // H
                r = p - c * H
                if low.get(c, H) > r:
                    low[c] = r
                for q in nb[p]:
                    if cells[q] == SKULL:
                        cells[q] = 0
                        qc = q // H
                        qr = q - qc * H
                        if low.get(qc, H) > qr:
                            low[qc] = qr
        mult = (8 << (step - 1) if step else 0) + CB_TABLE[len(colours)] + gb
        total += 10 * cleared * (1 if mult < 1 else 999 if mult > 999 else mult)
        step += 1
        seeds = []
        for c, r0 in low.items():
            base = c * H
            w = base + r0
            top = base + hts[c]
            for p in range(base + r0, top):
                v = cells[p]
                if v:
                    if p != w:
                        cells[w] = v
                        seeds.append(w)
                    w += 1
            for p in range(w, top):
                cells[p] = 0
            hts[c] = w - base
    return total, step


def components(cells: list[int], hts: list[int]) -> tuple[list[int], list[int]]:
    """Label coloured groups: (component id per cell or -1, size per component)."""
    comp = [-1] * N
    sizes: list[int] = []
    nb = NB
    for c in range(W):
        base = c * H
        for p in range(base, base + hts[c]):
            if comp[p] >= 0:
                continue
            v = cells[p]
            if v == SKULL:
                continue
            cid = len(sizes)
            comp[p] = cid
            stack = [p]
            n = 1
            while stack:
                q = stack.pop()
                for t in nb[q]:
                    if comp[t] < 0 and cells[t] == v:
                        comp[t] = cid
                        stack.append(t)
                        n += 1
            sizes.append(n)
    return comp, sizes


def potential(cells: list[int], hts: list[int]) -> tuple[float, float, int]:
    """Return (best chain points a 1-2 block drop could fire, grouping bonus, best chain steps)."""
    comp, sizes = components(cells, hts)
    group = 0.0
    for n in sizes:
        if n == 2:
            group += 1.0
        elif n == 3:
            group += 3.0
    best = 0.0
    best_steps = 0
    for c in range(W):
        h = hts[c]
        if h >= H:
            continue
        p = c * H + h
        adj: dict[int, set[int]] = {}
        for t in NB[p]:
            v = cells[t]
            if 0 < v < SKULL:
                ids = adj.get(v)
                if ids is None:
                    adj[v] = {comp[t]}
                else:
                    ids.add(comp[t])
        for v, ids in adj.items():
            s = 0
            for i in ids:
                s += sizes[i]
            need = 4 - s if s < 3 else 1
            if need > 2 or h + need > H:
                continue
            cc = cells[:]
            hh = hts[:]
            cc[p] = v
            if need == 2:
                cc[p + 1] = v
            hh[c] = h + need
            pts, steps = resolve(cc, hh, [p])
            val = pts * (1.0 if need == 1 else 0.8)
            if val > best:
                best = val
                best_steps = steps
    return best, group, best_steps


def shape_penalty(hts: list[int]) -> float:
    """Penalty for tall or uneven stacks (in points)."""
    pen = 0.0
    total = 0
    for h in hts:
        total += h
        if h > 8:
            pen += (h - 8) * (h - 8) * 60.0
    pen += total * 1.5
    if total > 56:
        pen += (total - 56) * 80.0
    return pen


class Planner:
    """Beam search over the known pairs."""

    def __init__(self, fire_min: float, deadline: float) -> None:
        self.fire_min = fire_min
        self.deadline = deadline
        self.nodes = 0
        self.timed_out = False

    def fired_value(self, pts: int) -> float:
        """Value of firing `pts` points now."""
        if pts >= self.fire_min:
            return float(pts)
        return pts * SMALL_FIRE_WEIGHT

    def evaluate(self, cells: list[int], hts: list[int]) -> float:
        """Static value of a position."""
        pot, group, steps = potential(cells, hts)
        return pot * POT_WEIGHT + group * 12.0 + steps * 25.0 - shape_penalty(hts)

    def search(
        self, cells: list[int], hts: list[int], pairs: list[tuple[int, int]], width: int
    ) -> tuple[tuple[int, int, int, int] | None, float, int, int]:
        """Return (best first move, its value, depth reached, immediate points of that move)."""
        # node: (value, acc, cells, hts, first move, first points)
        beam: list[tuple[float, float, list[int], list[int], tuple[int, int, int, int], int]] = []
        root = (0.0, 0.0, cells, hts, MOVES[0], 0)
        layer = [root]
        best_move = None
        best_val = DEAD
        best_pts = 0
        depth = 0
        clock = time.perf_counter
        for d, (a, b) in enumerate(pairs):
            moves = SAME_COLOUR_MOVES if a == b else MOVES
            disc = GAMMA**d
            children: list = []
            seen: set = set()
            for node in layer:
                _, acc, pc, ph, first, fpts = node
                for mv in moves:
                    cc = pc[:]
                    hh = ph[:]
                    p = place(cc, hh, mv, a, b)
                    if p < 0:
                        continue
                    pts, _ = resolve(cc, hh, landing(mv, hh, p))
                    key = (tuple(cc), first) if d else tuple(cc)
                    if key in seen:
                        continue
                    seen.add(key)
                    nacc = acc + self.fired_value(pts) * disc
                    val = nacc + self.evaluate(cc, hh) * disc * GAMMA
                    self.nodes += 1
                    if d == 0:
                        children.append((val, nacc, cc, hh, mv, pts))
                    else:
                        children.append((val, nacc, cc, hh, first, fpts))
                    if clock() > self.deadline:
                        self.timed_out = True
                        break
                if self.timed_out:
                    break
            if not children:
                break
            children.sort(key=lambda n: n[0], reverse=True)
            if self.timed_out and d > 0:
                break  # incomplete layer: keep the previous decision
            beam = children[:width]
            best_val, _, _, _, best_move, best_pts = beam[0]
            depth = d + 1
            layer = beam
            if self.timed_out:
                break
        return best_move, best_val, depth, best_pts


def best_immediate(cells: list[int], hts: list[int], a: int, b: int) -> int:
    """Most points pair (a, b) can score at once on this grid (the opponent's threat)."""
    best = 0
    for mv in SAME_COLOUR_MOVES if a == b else MOVES:
        cc = cells[:]
        hh = hts[:]
        p = place(cc, hh, mv, a, b)
        if p >= 0:
            pts, _ = resolve(cc, hh, landing(mv, hh, p))
            if pts > best:
                best = pts
    return best


def parse_grid(rows: list[str]) -> tuple[list[int], list[int]]:
    """Turn 12 rows (top to bottom) into (cells, heights)."""
    cells = [0] * N
    hts = [0] * W
    for c in range(W):
        h = 0
        for r in range(H - 1, -1, -1):
            ch = rows[r][c] if c < len(rows[r]) else "."
            if ch == ".":
                break
            cells[c * H + h] = SKULL if ch == "0" else int(ch)
            h += 1
        hts[c] = h
    return cells, hts


def read_turn() -> tuple[float, list[tuple[int, int]], int, list[str], int, list[str]] | None:
    """Read one turn; return None on end of input. The clock starts at the first line."""
    first = sys.stdin.readline()
    if not first:
        return None
    start = time.perf_counter()
    lines = [first]
    for _ in range(33):
        line = sys.stdin.readline()
        if not line:
            return None
        lines.append(line)
    lines = [s.strip() for s in lines]
    pairs = []
    for s in lines[:8]:
        a, b = s.split()
        pairs.append((int(a), int(b)))
    return start, pairs, int(lines[8]), lines[9:21], int(lines[21]), lines[22:34]


def fire_threshold(hts: list[int], opp_threat: float, opp_cells: int) -> float:
    """Points a chain must reach before we fire it, lower when in danger.

    `opp_threat` is what the opponent could fire now or with one more block: above two
    skull lines we fire what we have before skulls bury our trigger. An opponent with 50+
    cells is close to dying, so a small attack may finish it. A high stack of our own fires
    anything to make room.
    """
    own = sum(hts)
    threshold = 1100.0
    if opp_threat >= 800 or opp_cells >= 50:
        threshold = 420.0
    if own >= 42 or max(hts) >= 10:
        threshold = min(threshold, 300.0)
    if own >= 54:
        threshold = 0.0
    return threshold


def main() -> None:
    """Play until end of input."""
    gc.disable()  # no reference cycles are made; avoids collector pauses mid-turn
    turn = 0
    while True:
        data = read_turn()
        if data is None:
            return
        start, pairs, _, rows, _, opp_rows = data
        cells, hts = parse_grid(rows)
        ocells, ohts = parse_grid(opp_rows)
        budget = FIRST_TURN_BUDGET if turn == 0 else TURN_BUDGET
        opp_pot, _, _ = potential(ocells, ohts)
        opp_now = best_immediate(ocells, ohts, pairs[0][0], pairs[0][1])
        opp_threat = max(opp_pot, float(opp_now))
        fire_min = fire_threshold(hts, opp_threat, sum(ohts))
        planner = Planner(fire_min, start + budget)
        width = 12 if turn == 0 else 5
        move, value, depth, pts = planner.search(cells, hts, pairs, width)
        if move is None:
            move = MOVES[0]
        x, rot = move[0], move[1]
        used = (time.perf_counter() - start) * 1000
        print(f"{x} {rot}", flush=True)
        print(
            f"turn {turn} move {x} {rot} value {value:.0f} now {pts} depth {depth} "
            f"nodes {planner.nodes} fire_min {fire_min:.0f} opp_threat {opp_threat:.0f} "
            f"timeout {planner.timed_out} ms {used:.1f}",
            file=sys.stderr,
            flush=True,
        )
        turn += 1


if __name__ == "__main__":
    main()
