"""Text tables that fit a terminal: columns left out (or a column wrapped) until the widest
line fits the width, and the terminal's width itself (``COLUMNS`` or the terminal)."""

from __future__ import annotations

import shutil
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

DEFAULT_WIDTH = 100
"""The width assumed when neither ``COLUMNS`` nor a terminal says (output to a pipe)."""


def terminal_width() -> int:
    """Columns of the terminal: ``COLUMNS`` when set, else the terminal's, else 100."""
    return max(20, shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns)


@dataclass
class Column:
    """One column of a text table: its header, one cell per row, and when it goes.

    ``drop`` orders the columns left out when the table is too wide (highest first, 0:
    always kept); ``wrap`` marks the one column whose cells may wrap onto more lines.
    """

    header: str
    cells: list[str]
    drop: int = 0
    wrap: bool = False
    min_width: int = 10  # the narrowest a wrapped column is made


def width_of(text: str) -> int:
    """The widest line of ``text``."""
    return max((len(line) for line in text.splitlines()), default=0)


def fit_table(
    columns: Sequence[Column], width: int | None, tablefmt: str = "simple", wrap_below: int = 0
) -> tuple[str, list[str]]:
    """The table of ``columns`` within ``width`` characters (``None``: no limit), and the
    headers of the columns left out to fit. Columns are left out, the highest ``drop``
    first; once only columns of ``drop`` at most ``wrap_below`` are left to leave out,
    the columns marked ``wrap`` are wrapped first (the widest narrowed first, each to no
    less than its ``min_width``)."""
    shown = list(columns)
    dropped: list[str] = []
    while True:
        text = _render(shown, {}, tablefmt)
        if width is None or width_of(text) <= width:
            return text, dropped
        candidates = [c for c in shown if c.drop > 0]
        if not candidates or max(c.drop for c in candidates) <= wrap_below:
            wrapped, fits = _wrapped(shown, width, tablefmt)
            if fits or not candidates:
                return wrapped, dropped
        victim = max(candidates, key=lambda c: (c.drop, -shown.index(c)))
        shown.remove(victim)
        dropped.append(victim.header)


def _wrapped(columns: Sequence[Column], width: int, tablefmt: str) -> tuple[str, bool]:
    """The table with its ``wrap`` columns narrowed until it fits ``width``, and whether
    it does (else the narrowest it goes)."""
    limits = {
        i: max(len(line) for cell in c.cells for line in (cell or " ").splitlines())
        for i, c in enumerate(columns)
        if c.wrap and c.cells
    }
    text = _render(columns, {}, tablefmt)
    while limits:
        room = {i: limits[i] - columns[i].min_width for i in limits}
        widest = max(room, key=lambda i: room[i])
        if room[widest] <= 0:
            break
        limits[widest] -= max(1, room[widest] // 4)
        text = _render(columns, limits, tablefmt)
        if width_of(text) <= width:
            return text, True
    return text, width_of(text) <= width


def _render(columns: Sequence[Column], wrap: dict[int, int], tablefmt: str) -> str:
    """The table: tabulate's ``simple`` layout (header, dashes, left-aligned cells two
    spaces apart) without its padding of headers, cells of ``wrap`` columns wrapped to
    their width; other formats through tabulate."""
    if not columns:
        return ""
    if tablefmt != "simple":
        from tabulate import tabulate  # only here: `arena match` starts without it

        rows = [list(cells) for cells in zip(*(c.cells for c in columns), strict=True)]
        limits = [wrap.get(i) for i in range(len(columns))] if wrap else None
        return tabulate(
            rows,
            headers=[c.header for c in columns],
            tablefmt=tablefmt,
            disable_numparse=True,
            maxcolwidths=limits,
        )
    split: list[list[list[str]]] = []  # column -> row -> lines
    for i, c in enumerate(columns):
        limit = wrap.get(i)
        split.append(
            [
                (textwrap.wrap(cell, limit, break_on_hyphens=False) or [""])
                if limit
                else (cell.splitlines() or [""])
                for cell in c.cells
            ]
        )
    widths = [
        max([len(c.header)] + [len(line) for cell in split[i] for line in cell])
        for i, c in enumerate(columns)
    ]

    def line(parts: Sequence[str]) -> str:
        return "  ".join(p.ljust(w) for p, w in zip(parts, widths, strict=True)).rstrip()

    out = [line([c.header for c in columns]), line(["-" * w for w in widths])]
    for r in range(len(columns[0].cells)):
        height = max(len(split[i][r]) for i in range(len(columns)))
        for k in range(height):
            out.append(line([cell[r][k] if k < len(cell[r]) else "" for cell in split]))
    return "\n".join(out)


def folded_table(columns: Sequence[Column], width: int | None, keep: int = 1) -> str:
    """Every column of the table within ``width`` characters (``None``: no limit): where
    the whole table is wider, it is cut into blocks of columns one below the other, each
    repeating the first ``keep`` columns (the names) and as many of the others as fit,
    like a wide data frame printed in a narrow terminal. A column wider than the width
    alone goes in a block of its own."""
    whole = _render(columns, {}, "simple")
    if width is None or width_of(whole) <= width or len(columns) <= keep:
        return whole
    head, rest = list(columns[:keep]), list(columns[keep:])
    blocks: list[str] = []
    block: list[Column] = []
    for column in rest:
        if block and width_of(_render([*head, *block, column], {}, "simple")) > width:
            blocks.append(_render([*head, *block], {}, "simple"))
            block = []
        block.append(column)
    blocks.append(_render([*head, *block], {}, "simple"))
    return "\n\n".join(blocks)
