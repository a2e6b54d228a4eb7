"""What a killed run left behind: removed when arena starts.

A run that is killed outright (SIGKILL, a crash of the machine's OOM killer...) cannot clean
up after itself. Everything it created carries its owner tag, so the next run removes the
bot folders and cgroups of owners that are gone, killing what still runs in those groups.
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.botproc import cgroups
from arena.botproc.homes import remove_leftover_homes


@dataclass(frozen=True)
class Leftovers:
    """What :func:`remove_leftovers` removed."""

    homes: int
    cgroups: int


def remove_leftovers(mine: bool = False) -> Leftovers:
    """Remove bot folders and cgroups whose owning process is gone (``mine``: or is this one)."""
    return Leftovers(remove_leftover_homes(mine), cgroups.remove_leftovers(mine))
