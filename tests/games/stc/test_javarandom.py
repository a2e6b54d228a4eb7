"""java.util.Random, bit for bit: the pair queue of a CodinGame seed.

Reference numbers were printed once by ``java`` 17 (``new java.util.Random(seed)``) and
pasted here as literals; the tests never run Java.
"""

from __future__ import annotations

from arena_games.stc.javarandom import JavaRandom
from arena_games.stc.rules import make_pairs


def hand_next31(seed: int, count: int) -> list[int]:
    """A direct transcription of the JDK steps, written apart from the module under test.

    ``new Random(seed)`` stores ``(seed XOR 25214903917) mod 2^48``; each ``next(31)``
    sets ``s = (s * 25214903917 + 11) mod 2^48`` and returns ``floor(s / 2^17)``.
    """
    s = (seed ^ 25214903917) % 2**48
    out = []
    for _ in range(count):
        s = (s * 25214903917 + 11) % 2**48
        out.append(s // 2**17)
    return out


def test_hand_transcription_matches_java_for_seed_0() -> None:
    # Java: r = new Random(0); (r.nextInt() >>> 1) four times, which is next(31).
    assert hand_next31(0, 4) == [1569741360, 1785505948, 516548029, 1302116447]
    rng = JavaRandom(0)
    assert [rng.next(31) for _ in range(4)] == [1569741360, 1785505948, 516548029, 1302116447]


def test_first_pairs_of_seed_0_by_hand() -> None:
    # nextInt(5) for a bound that is not a power of two is next(31) % 5 (no rejection:
    # every value here is far below 2^31 - 4). 1569741360 % 5 = 0 -> colour 1,
    # 1785505948 % 5 = 3 -> 4, 516548029 % 5 = 4 -> 5, 1302116447 % 5 = 2 -> 3.
    colours = [v % 5 + 1 for v in hand_next31(0, 16)]
    hand_pairs = list(zip(colours[0::2], colours[1::2], strict=True))
    assert hand_pairs[:2] == [(1, 4), (5, 3)]
    assert list(make_pairs(0, 8)) == hand_pairs


def test_first_8_pairs_match_java() -> None:
    # Java: r = new Random(seed); 8 times (r.nextInt(5) + 1, r.nextInt(5) + 1).
    assert make_pairs(0, 8) == ((1, 4), (5, 3), (1, 4), (2, 2), (5, 5), (3, 3), (4, 3), (1, 5))
    assert make_pairs(42, 8) == ((1, 4), (4, 5), (1, 1), (1, 4), (5, 4), (3, 3), (2, 3), (2, 3))
    assert make_pairs(1234567890123, 8) == (
        (1, 1), (4, 5), (4, 1), (3, 1), (1, 2), (1, 5), (5, 4), (5, 5),
    )  # fmt: skip
    # A negative long seed: Java scrambles its two's complement bits.
    assert make_pairs(-5, 8) == ((2, 2), (4, 4), (3, 1), (3, 4), (5, 4), (1, 1), (3, 3), (1, 5))


def test_queue_is_prefix_stable() -> None:
    # Pairs 9-12 of seed 0 from Java; a longer queue starts with the shorter one.
    assert make_pairs(0, 12)[8:] == ((5, 1), (2, 1), (4, 4), (5, 3))


def test_next_int_without_bound_is_signed() -> None:
    # The well-known first values of new Random(0).nextInt().
    rng = JavaRandom(0)
    assert [rng.next_int() for _ in range(3)] == [-1155484576, -723955400, 1033096058]


def test_power_of_two_bound_uses_high_bits() -> None:
    # Java: new Random(42).nextInt(16) four times. The power-of-two path takes the top
    # 4 of the 31 bits; the modulo path would give different numbers.
    rng = JavaRandom(42)
    assert [rng.next_int(16) for _ in range(4)] == [11, 0, 10, 0]
    hand = hand_next31(42, 4)
    assert [v >> 27 for v in hand] == [11, 0, 10, 0]
    assert [v % 16 for v in hand] != [11, 0, 10, 0]


def test_rejection_loop_redraws() -> None:
    # bound = 2^30 + 1: any draw u >= bound overflows u - u % bound + (bound - 1) and is
    # rejected. For seed 7, Java's nextInt() gives -1156638823, -1552468968, -1077308326,
    # 41356089, ... so next(31) = nextInt() >>> 1 = 1569164236, 1371249164, 1608829485
    # (all >= bound, rejected), then 20678044 (accepted, its own remainder).
    hand = hand_next31(7, 4)
    assert hand == [1569164236, 1371249164, 1608829485, 20678044]
    rng = JavaRandom(7)
    values = [rng.next_int(1073741825) for _ in range(6)]
    # Java: new Random(7).nextInt(1073741825) six times.
    assert values == [20678044, 747989380, 1053566254, 755731200, 259278708, 542588911]
