#!/usr/bin/env python3
"""Splitter planner2: the planner's evaluation, one roll deeper (expectimax).

Reads ``W H R``, the sheet and a dice line ``a b`` per round from stdin; answers
``n x y`` (die n at (x, y), the other die at (W-1-x, y)). Reasoning goes to stderr.

The planner (``planner.py``) values each placement by the points the sheet it leaves is
expected to end with: finished groups, short groups times the chance that the dice left
bring what they lack, the hearts' chance. planner2 keeps that evaluation and looks one roll
further: for the most promising placements (by that value) it averages, over the 21
possible next rolls (each weighted by its chance, 1/36 for a double, 2/36 otherwise), the
value of the best placement of that roll, and plays the placement with the best average.
That sees what the planner's value misses: whether the cells left can take the next dice
without spoiling a group (the die that has to go into the mirrored cell), and which
placements keep good homes open for every number.

It stops widening the lookahead after THINK seconds of CPU time in a round (or WALL
seconds of wall-clock time on a loaded machine; the clock is 1 s), and falls back to the
planner's choice when even one lookahead is out of time.
"""

from __future__ import annotations

import sys
import time
from math import comb

NONE, STAR, HEART = 0, 2, 3
P_DIE = 1 / 6
SUPPLY = 0.35  # share of the dice left counted as reaching a short group (the planner's)
LOOKAHEAD = 4  # placements (best first by the planner's value) searched one roll deeper
THINK = 0.5  # CPU seconds per round after which no further placement is searched deeper
WALL = 0.6  # ... or wall-clock seconds (a loaded machine), of the 1 s clock (0.8 timed out
# twice in 2000 games on a machine with twice as many busy processes as cores)
ROLLS = [((a, b), (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(a, 7)]


def log(text: str) -> None:
    """Reasoning for humans, on stderr."""
    print(text, file=sys.stderr, flush=True)


def binomial_tails(n_max: int) -> list[list[float]]:
    """tail[n][k] = P(at least k sixes among n fair dice) (any one face, in fact)."""
    tail = []
    for n in range(n_max + 1):
        pmf = [comb(n, k) * P_DIE**k * (1 - P_DIE) ** (n - k) for k in range(n + 1)]
        row = [0.0] * (n_max + 2)
        acc = 0.0
        for k in range(n, -1, -1):
            acc += pmf[k]
            row[k] = acc
        tail.append(row)
    return tail


class Sheet:
    """The sheet's geometry and the evaluation (as the planner's), plus the lookahead."""

    def __init__(self, cells: list[list[int]]) -> None:
        self.h = len(cells)
        self.w = len(cells[0])
        self.kinds = [k for row in cells for k in row]
        self.fillable = [i for i, k in enumerate(self.kinds) if k != NONE]
        self.stars = {i for i, k in enumerate(self.kinds) if k == STAR}
        self.hearts = [i for i, k in enumerate(self.kinds) if k == HEART]
        self.nbrs: list[list[int]] = [[] for _ in self.kinds]
        for i in self.fillable:
            x, y = i % self.w, i // self.w
            for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                if 0 <= nx < self.w and 0 <= ny < self.h and self.kinds[ny * self.w + nx]:
                    self.nbrs[i].append(ny * self.w + nx)
        self.tail = binomial_tails(2 * len(self.fillable))
        self.evals = 0

    def mirror(self, i: int) -> int:
        """The cell mirrored across the split."""
        x, y = i % self.w, i // self.w
        return y * self.w + self.w - 1 - x

    def pairs(self, values: list[int]) -> list[int]:
        """Left-half cells whose mirrored pair is still empty."""
        return [
            i
            for i in self.fillable
            if i % self.w < self.w // 2 and not values[i] and not values[self.mirror(i)]
        ]

    def evaluate(self, values: list[int], dice_left: int) -> float:
        """Expected final points of the sheet with ``dice_left`` dice still to be rolled.

        Finished groups count their points; a group short of its value counts its points
        times the chance that the dice left bring the v's it lacks (groups of one value
        queued for the same dice, smallest need first), and nothing without room to grow;
        the hearts count 5 times the chance of ending equal.
        """
        self.evals += 1
        nbrs = self.nbrs
        stars = self.stars
        label = [-1] * len(values)
        total = 0.0
        short: dict[int, list[tuple[int, float]]] = {}
        gid = 0
        for start in self.fillable:
            v = values[start]
            if not v or label[start] >= 0:
                continue
            label[start] = gid
            members = [start]
            k = 0
            while k < len(members):
                for j in nbrs[members[k]]:
                    if label[j] < 0 and values[j] == v:
                        label[j] = gid
                        members.append(j)
                k += 1
            size = len(members)
            if size <= v:
                star = 1
                if stars:
                    for i in members:
                        if i in stars:
                            star = 2
                            break
                if size == v:
                    total += v * star
                else:
                    need = v - size
                    if self.room(values, label, gid, v, members, need) >= need:
                        short.setdefault(v, []).append((need, v * star))
            gid += 1
        tail = self.tail[int(dice_left * SUPPLY + 0.5)]
        for items in short.values():
            items.sort()
            queued = 0
            for need, points in items:
                queued += need
                if queued < len(tail):
                    total += points * tail[queued]
        if self.hearts:
            total += self.heart_value(values, tail)
        return total

    def room(
        self, values: list[int], label: list[int], gid: int, v: int, members: list[int], need: int
    ) -> int:
        """Empty cells group ``gid`` can grow into (stops counting at ``need``).

        Cells of groups labelled later are not labelled yet: a neighbour holding v is
        then recognised by its value (any v not in this group belongs to another group).
        """
        nbrs = self.nbrs
        seen = set(members)
        frontier = list(members)
        count = 0
        while frontier and count < need:
            i = frontier.pop()
            for j in nbrs[i]:
                if j in seen or values[j]:
                    continue
                seen.add(j)
                # A v here would also touch another group of v's and merge with it.
                for n in nbrs[j]:
                    if values[n] == v and label[n] != gid:
                        break
                else:
                    count += 1
                    frontier.append(j)
        return count

    def heart_value(self, values: list[int], tail: list[float]) -> float:
        """5 if the hearts hold one value, else 5 times the chance of finishing them."""
        held = {values[i] for i in self.hearts if values[i]}
        if len(held) > 1:
            return 0.0
        empty = sum(1 for i in self.hearts if not values[i])
        if empty == 0:
            return 5.0
        return 5.0 * tail[empty] * (1.0 if held else 0.5)

    def options(
        self, values: list[int], dice: tuple[int, int], dice_left: int
    ) -> list[tuple[float, int, int]]:
        """Every placement of ``dice`` as (value of the sheet it leaves, die, left cell)."""
        out = []
        a, b = dice
        for i in self.pairs(values):
            m = self.mirror(i)
            values[i], values[m] = a, b
            out.append((self.evaluate(values, dice_left), a, i))
            if a != b:
                values[i], values[m] = b, a
                out.append((self.evaluate(values, dice_left), b, i))
            values[i] = values[m] = 0
        return out

    def expected_next(
        self, values: list[int], dice_left: int, deadline: tuple[float, float]
    ) -> float | None:
        """Average over the next roll of its best placement's value; None when out of time
        (``deadline``: CPU time, wall-clock time)."""
        if time.process_time() > deadline[0] or time.perf_counter() > deadline[1]:
            return None
        total = 0.0
        for roll, chance in ROLLS:
            if time.perf_counter() > deadline[1]:
                return None
            total += chance * max(value for value, _, _ in self.options(values, roll, dice_left))
        return total

    def choose(
        self, values: list[int], dice: tuple[int, int], rounds_left: int, started: float
    ) -> tuple[int, int]:
        """The (die, left cell) placement with the best expected final points."""
        dice_left = 2 * (rounds_left - 1)
        self.evals = 0
        # Best first; equal values (to 1e-9) keep the listing order, as the planner does.
        ranked = sorted(self.options(values, dice, dice_left), key=lambda o: -round(o[0], 9))
        if not ranked:
            raise RuntimeError("no free mirrored pair left")
        best_value, n, i = ranked[0]
        how = "planner's value"
        if rounds_left > 1 and len(ranked) > 1:
            deadline = (time.process_time() + THINK, started + WALL)
            looked = []
            for value, die, cell in ranked[:LOOKAHEAD]:
                m = self.mirror(cell)
                values[cell], values[m] = die, dice[1] if die == dice[0] else dice[0]
                exp = self.expected_next(values, dice_left - 2, deadline)
                values[cell] = values[m] = 0
                if exp is None:
                    break
                looked.append((exp, value, die, cell))
            if looked:
                best_value, _, n, i = max(looked, key=lambda t: round(t[0], 9))
                how = f"best of {len(looked)} after the next roll"
                shown = ", ".join(
                    f"{d}@({c % self.w},{c // self.w})={e:.2f}/{v:.2f}" for e, v, d, c in looked
                )
                log(f"  lookahead (after next roll / now): {shown}")
        x, y = i % self.w, i // self.w
        ms = 1000 * (time.perf_counter() - started)
        log(
            f"dice {dice[0]} {dice[1]}: {n} at ({x},{y}), expect {best_value:.2f} points "
            f"({how}; {self.evals} sheets valued in {ms:.0f} ms)"
        )
        return n, i


def main() -> None:
    """Play one game on stdin/stdout."""
    w, h, rounds = (int(t) for t in sys.stdin.readline().split())
    sheet = Sheet([[int(t) for t in sys.stdin.readline().split()] for _ in range(h)])
    log(f"sheet {w}x{h}, {rounds} rounds, stars {sorted(sheet.stars)}, hearts {sheet.hearts}")
    values = [0] * (w * h)
    played = 0
    while line := sys.stdin.readline():
        started = time.perf_counter()
        if not line.strip():
            continue
        a, b = (int(t) for t in line.split())
        n, i = sheet.choose(values, (a, b), rounds - played, started)
        values[i], values[sheet.mirror(i)] = n, b if n == a else a
        played += 1
        print(f"{n} {i % w} {i // w}", flush=True)


if __name__ == "__main__":
    main()
