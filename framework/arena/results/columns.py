"""Text tables that fit a terminal: columns left out (or a column wrapped) until the widest
line fits the width, and the terminal's width itself (``COLUMNS`` or the terminal)."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from dataclasses import dataclass

from tabulate import tabulate

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


def width_of(text: str) -> int:
    """The widest line of ``text``."""
    return max((len(line) for line in text.splitlines()), default=0)


def fit_table(
    columns: Sequence[Column], width: int | None, tablefmt: str = "simple"
) -> tuple[str, list[str]]:
    """The table of ``columns`` within ``width`` characters (``None``: no limit), and the
    headers of the columns left out to fit. A column marked ``wrap`` is wrapped to the
    room left (at least 12 characters) before any column is left out."""
    shown = list(columns)
    dropped: list[str] = []
    while True:
        text = _render(shown, None, tablefmt)
        if width is None or width_of(text) <= width:
            return text, dropped
        wrapped = next((i for i, c in enumerate(shown) if c.wrap), None)
        if wrapped is not None:
            others = width_of(_render([c for c in shown if not c.wrap], None, tablefmt))
            room = width - others - 2
            if room >= 12:
                text = _render(shown, (wrapped, room), tablefmt)
                if width_of(text) <= width:
                    return text, dropped
        candidates = [c for c in shown if c.drop > 0]
        if not candidates:
            return text, dropped
        victim = max(candidates, key=lambda c: (c.drop, -shown.index(c)))
        shown.remove(victim)
        dropped.append(victim.header)


def _render(columns: Sequence[Column], wrap: tuple[int, int] | None, tablefmt: str) -> str:
    if not columns:
        return ""
    rows = [list(cells) for cells in zip(*(c.cells for c in columns), strict=True)]
    headers = [c.header for c in columns]
    widths: list[int | None] | None = None
    if wrap is not None:
        widths = [None] * len(columns)
        widths[wrap[0]] = wrap[1]
    return tabulate(
        rows, headers=headers, tablefmt=tablefmt, disable_numparse=True, maxcolwidths=widths
    )
