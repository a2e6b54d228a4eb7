""".NET's seeded ``System.Random``, number for number: the dice of a Tester seed.

The original Tester rolls its dice with ``new Random(seed).Next(1, 7)``. A seeded
``System.Random`` (.NET Framework, and .NET Core / .NET 5+ through its "Net5Compat"
implementation kept for seeded instances) is a modified Knuth subtractive generator: a
56-slot table filled from the seed, then each sample subtracts two slots 21 apart.
All arithmetic here is C#'s unchecked 32-bit ``int`` arithmetic (it wraps), which matters
for seeds far from 0, whose table values overflow while it is filled.
"""

from __future__ import annotations

INT_MAX = 2**31 - 1
"""``int.MaxValue``."""
INT_MIN = -(2**31)
"""``int.MinValue``."""
MSEED = 161803398
"""The constant the seed is subtracted from (digits of the golden ratio)."""


def to_int32(value: int) -> int:
    """C#'s unchecked ``(int)`` conversion: the low 32 bits read as a signed number."""
    value &= 0xFFFFFFFF
    return value - 2**32 if value > INT_MAX else value


class DotNetRandom:
    """``new System.Random(seed)``: ``next``, ``next_double`` as .NET gives them for a seed.

    ``seed`` must be an ``int`` in the Int32 range (use :func:`to_int32` to wrap one).
    """

    __slots__ = ("_inext", "_inextp", "_seed_array")

    def __init__(self, seed: int) -> None:
        if not INT_MIN <= seed <= INT_MAX:
            raise ValueError(f"seed {seed} is outside the Int32 range")
        seed_array = [0] * 56
        # Math.Abs(int.MinValue) would overflow; .NET uses int.MaxValue instead.
        subtraction = INT_MAX if seed == INT_MIN else abs(seed)
        mj = MSEED - subtraction
        seed_array[55] = mj
        mk = 1
        ii = 0
        for _ in range(1, 55):
            # Slots are filled in the order 21, 42, 8, 29, ... (21 * i mod 55); slot 0 is unused.
            ii += 21
            if ii >= 55:
                ii -= 55
            seed_array[ii] = mk
            mk = to_int32(mj - mk)
            if mk < 0:
                mk += INT_MAX
            mj = seed_array[ii]
        for _ in range(1, 5):
            for i in range(1, 56):
                n = i + 30
                if n >= 55:
                    n -= 55
                value = to_int32(seed_array[i] - seed_array[1 + n])
                if value < 0:
                    value += INT_MAX
                seed_array[i] = value
        self._seed_array = seed_array
        self._inext = 0
        self._inextp = 21

    def _internal_sample(self) -> int:
        """One step of the generator: an int in ``[0, int.MaxValue)``."""
        inext = self._inext + 1
        if inext >= 56:
            inext = 1
        inextp = self._inextp + 1
        if inextp >= 56:
            inextp = 1
        seed_array = self._seed_array
        value = to_int32(seed_array[inext] - seed_array[inextp])
        if value == INT_MAX:
            value -= 1
        if value < 0:
            value += INT_MAX
        seed_array[inext] = value
        self._inext = inext
        self._inextp = inextp
        return value

    def _sample(self) -> float:
        """``Sample()``: a double in ``[0, 1)``; .NET multiplies by ``1.0 / int.MaxValue``."""
        return self._internal_sample() * (1.0 / INT_MAX)

    def _sample_for_large_range(self) -> float:
        """``GetSampleForLargeRange()``: two samples, the second deciding the sign."""
        result = self._internal_sample()
        if self._internal_sample() % 2 == 0:
            result = -result
        d = float(result)
        d += INT_MAX - 1
        d /= 2 * INT_MAX - 1
        return d

    def next(self, a: int | None = None, b: int | None = None) -> int:
        """``Next()``, ``Next(maxValue)`` (``next(a)``) or ``Next(minValue, maxValue)``.

        ``Next()`` is in ``[0, int.MaxValue)``, ``Next(max)`` in ``[0, max)`` and
        ``Next(min, max)`` in ``[min, max)`` (``min`` when they are equal). Raises
        ValueError where .NET throws ``ArgumentOutOfRangeException``.
        """
        if a is None:
            return self._internal_sample()
        if b is None:
            if not 0 <= a <= INT_MAX:
                raise ValueError(f"maxValue {a} must be in [0, int.MaxValue]")
            # C#'s (int) cast of a non-negative double truncates, as int() does.
            return int(self._sample() * a)
        if not (INT_MIN <= a <= INT_MAX and INT_MIN <= b <= INT_MAX):
            raise ValueError("minValue and maxValue must be Int32 values")
        if a > b:
            raise ValueError(f"minValue {a} is greater than maxValue {b}")
        span = b - a  # C# computes it as a long: it cannot overflow
        if span <= INT_MAX:
            return int(self._sample() * span) + a
        # (int)((long)(sample * range) + minValue): the sum wraps to 32 bits.
        return to_int32(int(self._sample_for_large_range() * span) + a)

    def next_double(self) -> float:
        """``NextDouble()``: a double in ``[0, 1)``."""
        return self._sample()
