"""What a benchmark prints beside its figures: the machine's load, CPUs and CPU steal."""

from __future__ import annotations

import os
from pathlib import Path

from arena.tournament.config import available_cores


def steal_ms() -> float | None:
    """CPU time the hypervisor took from this machine so far, all cores (None: unknown)."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()
        return int(fields[8]) * 1000 / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def machine() -> str:
    """``load average 1.0/0.8/0.5, 2 CPUs (2 usable)``."""
    load = "/".join(f"{x:.1f}" for x in os.getloadavg())
    return f"load average {load}, {os.cpu_count()} CPUs ({available_cores()} usable)"
