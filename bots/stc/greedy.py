#!/usr/bin/env python3
"""Smash The Code: greedy bot, plays the placement with the most immediate points.

Ties go to the lowest resulting stack, then the lowest landing cells, then the first move
in a fixed order, so the bot is deterministic. Placements that do not fit are never chosen
while one fits. Single file, stdlib only; answers on stdout, logs on stderr.
"""

from __future__ import annotations

import sys
import time

W = 6
H = 12
N = W * H
SKULL = 6  # internal code for a skull; 0 is an empty cell, 1-5 the colours
CB_TABLE = (0, 0, 2, 4, 8, 16)


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


def choose(
    cells: list[int], hts: list[int], a: int, b: int
) -> tuple[tuple[int, int, int, int] | None, int]:
    """Return the best fitting move for pair (a, b) and its points (None if nothing fits)."""
    best = None
    best_key = (-1, 0, 0)
    for mv in MOVES:
        cc = cells[:]
        hh = hts[:]
        p = place(cc, hh, mv, a, b)
        if p < 0:
            continue
        if mv[2] != mv[3]:
            landing = [mv[2] * H + hh[mv[2]] - 1, mv[3] * H + hh[mv[3]] - 1]
        else:
            landing = [p, p + 1]
        rows = landing[0] % H + landing[1] % H
        pts, _ = resolve(cc, hh, landing)
        key = (pts, -max(hh), -rows)
        if key > best_key:
            best_key = key
            best = mv
    return best, best_key[0]


def main() -> None:
    """Play until end of input."""
    turn = 0
    while True:
        data = read_turn()
        if data is None:
            return
        start, pairs, _, rows, _, _ = data
        cells, hts = parse_grid(rows)
        a, b = pairs[0]
        move, pts = choose(cells, hts, a, b)
        x, rot = (move[0], move[1]) if move is not None else (0, 1)
        print(f"{x} {rot}", flush=True)
        used = (time.perf_counter() - start) * 1000
        print(
            f"turn {turn} pair {a}{b} move {x} {rot} points {pts} ms {used:.1f}",
            file=sys.stderr,
            flush=True,
        )
        turn += 1


if __name__ == "__main__":
    main()
