"""Per-turn answer times as the store keeps them: one blob of little-endian 32-bit floats
per seat (read by the store, the kept ratings and the web app)."""

from __future__ import annotations

import sys
from array import array
from collections.abc import Sequence


def pack_times(values: Sequence[float]) -> bytes:
    """Per-turn times in ms as the store keeps them: little-endian 32-bit floats."""
    packed = array("f", values)
    if sys.byteorder == "big":
        packed.byteswap()
    return packed.tobytes()


def unpack_times(blob: bytes | None) -> array[float]:
    """Inverse of :func:`pack_times` (empty for a seat stored without times)."""
    values = array("f")
    if blob:
        values.frombytes(blob[: len(blob) - len(blob) % values.itemsize])
        if sys.byteorder == "big":
            values.byteswap()
    return values
