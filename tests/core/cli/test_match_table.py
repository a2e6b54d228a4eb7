"""``arena match``'s summary table is tabulate's, byte for byte, without importing it
for plain text."""

from __future__ import annotations

import random
import string

import pytest
from tabulate import tabulate

from arena.cli.match import simple_table

HEADERS = ["bot", "games", "W/D/L", "mean score [95%]", "min", "max", "forfeits", "max turn ms"]


def test_a_match_summary_is_laid_out_as_tabulate_lays_it_out():
    rows = [
        ["greedy", "1", "0/1/0", "0.00", "0", "0", "-", "31.6"],
        ["greedy'", "1", "0/1/0", "12.50 [3.10, 21.90]", "0", "25", "timeout 1", "150.2"],
    ]
    assert simple_table(rows, HEADERS) == tabulate(rows, headers=HEADERS, disable_numparse=True)


@pytest.mark.parametrize("seed", range(20))
def test_any_plain_cells_come_out_as_tabulate_puts_them(seed):
    rng = random.Random(seed)
    alphabet = string.ascii_letters + string.digits + " .,'-/[]%"
    columns = rng.randint(1, 6)

    def cell() -> str:
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))

    headers = [cell() for _ in range(columns)]
    rows = [[cell() for _ in range(columns)] for _ in range(rng.randint(0, 4))]
    assert simple_table(rows, headers) == tabulate(rows, headers=headers, disable_numparse=True)


def test_names_of_wide_letters_are_measured_by_tabulate():
    rows = [["名人", "1"], ["greedy", "2"]]
    assert simple_table(rows, ["bot", "games"]) == tabulate(
        rows, headers=["bot", "games"], disable_numparse=True
    )
