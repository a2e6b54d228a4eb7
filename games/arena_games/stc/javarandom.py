"""An exact copy of ``java.util.Random``, so a CodinGame seed reproduces its pairs.

The original referee draws every block with ``new Random(seed).nextInt(5) + 1``; this
module follows the JDK algorithm bit for bit: a 48-bit linear congruential generator
(multiplier ``0x5DEECE66D``, increment ``0xB``), the seed scrambled with the multiplier,
and ``nextInt(bound)`` with its power-of-two shortcut and its rejection loop.
"""

from __future__ import annotations

MULTIPLIER = 0x5DEECE66D
INCREMENT = 0xB
MASK = (1 << 48) - 1


def _to_int32(value: int) -> int:
    """Java's ``(int)`` cast: keep the low 32 bits as a signed number."""
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


class JavaRandom:
    """``java.util.Random``: ``JavaRandom(seed).next_int(bound)`` equals ``nextInt(bound)``."""

    __slots__ = ("_seed",)

    def __init__(self, seed: int) -> None:
        # Java: this.seed = (seed ^ multiplier) & mask. Python's & on a negative int
        # behaves as two's complement, like Java's long.
        self._seed = (seed ^ MULTIPLIER) & MASK

    def next(self, bits: int) -> int:
        """``Random.next(bits)``: advance the LCG, return its top ``bits`` bits as an int."""
        self._seed = (self._seed * MULTIPLIER + INCREMENT) & MASK
        return _to_int32(self._seed >> (48 - bits))

    def next_int(self, bound: int | None = None) -> int:
        """``nextInt()`` (any int) or ``nextInt(bound)``: uniform in ``[0, bound)``."""
        if bound is None:
            return self.next(32)
        if bound <= 0:
            raise ValueError("bound must be positive")
        r = self.next(31)
        m = bound - 1
        if bound & m == 0:
            # Power of two: the high bits of next(31), (int)((bound * (long)r) >> 31).
            return (bound * r) >> 31
        u = r
        r = u % bound
        # Java rejects u when u - r + m overflows a signed 32-bit int (the last,
        # incomplete bucket of [0, 2^31)); it then draws again.
        while u - r + m >= 1 << 31:
            u = self.next(31)
            r = u % bound
        return r
