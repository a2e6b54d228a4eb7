""".NET's seeded System.Random, number for number, and the Tester's dice for a seed.

Where the expected numbers come from:

- ``NEXT_VALUES``: the first ten ``new Random(seed).Next()`` for seeds 0-19, from .NET's
  own test suite (dotnet/runtime, src/libraries/System.Runtime.Extensions/tests/System/
  Random.cs, test ``ExpectedValues``; the same table is in dotnet/corefx). .NET checks
  its seeded ``Random`` against them on every build.
- ``new Random(0).NextDouble()`` is 0.7262432699679598 and ``new Random(1).Next(100)``
  is 24: both are ``Next()`` of the table times ``1.0 / int.MaxValue`` (times 100, cut),
  as .NET's ``Sample()`` computes them; both values are also widely quoted.
- Seeds 2^31-1, -2^31 and 305419896, whose table overflows 32 bits while it is filled:
  the reference samples published with an independent port (a Lua rewrite of a C# game's
  ``System.Random``); our port gives them too.
- The Tester's dice are derived in the tests below from Source/Tester of
  Lucrasoft/Splitter (Program.cs, Game.cs), with a hand transcription of .NET's
  algorithm written apart from the module under test.
"""

from __future__ import annotations

import pytest

from arena_games.splitter.dotnet_random import DotNetRandom, to_int32
from arena_games.splitter.game import SplitterGame
from arena_games.splitter.rules import LAYOUTS, custom_hash, new_game, roll_dice

INT_MAX = 2**31 - 1

NEXT_VALUES = [
    [1559595546, 1755192844, 1649316166, 1198642031, 442452829, 1200195957, 1945678308, 949569752, 2099272109, 587775847],
    [534011718, 237820880, 1002897798, 1657007234, 1412011072, 929393559, 760389092, 2026928803, 217468053, 1379662799],
    [1655911537, 867932563, 356479430, 2115372437, 234085668, 658591161, 1722583523, 956804207, 483147644, 24066104],
    [630327709, 1498044246, 1857544709, 426253993, 1203643911, 387788763, 537294307, 2034163258, 748827235, 815953056],
    [1752227528, 2128155929, 1211126341, 884619196, 25718507, 116986365, 1499488738, 964038662, 1014506826, 1607840008],
    [726643700, 610783965, 564707973, 1342984399, 995276750, 1993667614, 314199522, 2041397713, 1280186417, 252243313],
    [1848543519, 1240895648, 2065773252, 1801349602, 1964834993, 1722865216, 1276393953, 971273117, 1545866008, 1044130265],
    [822959691, 1871007331, 1419354884, 112231158, 786909589, 1452062818, 91104737, 2048632168, 1811545599, 1836017217],
    [1944859510, 353635367, 772936516, 570596361, 1756467832, 1181260420, 1053299168, 978507572, 2077225190, 480420522],
    [919275682, 983747050, 126518148, 1028961564, 578542428, 910458022, 2015493599, 2055866623, 195421134, 1272307474],
    [2041175501, 1613858733, 1627583427, 1487326767, 1548100671, 639655624, 830204383, 985742027, 461100725, 2064194426],
    [1015591673, 96486769, 981165059, 1945691970, 370175267, 368853226, 1792398814, 2063101078, 726780316, 708597731],
    [2137491492, 726598452, 334746691, 256573526, 1339733510, 98050828, 607109598, 992976482, 992459907, 1500484683],
    [1111907664, 1356710135, 1835811970, 714938729, 161808106, 1974732077, 1569304029, 2070335533, 1258139498, 144887988],
    [86323836, 1986821818, 1189393602, 1173303932, 1131366349, 1703929679, 384014813, 1000210937, 1523819089, 936774940],
    [1208223655, 469449854, 542975234, 1631669135, 2100924592, 1433127281, 1346209244, 2077569988, 1789498680, 1728661892],
    [182639827, 1099561537, 2044040513, 2090034338, 922999188, 1162324883, 160920028, 1007445392, 2055178271, 373065197],
    [1304539646, 1729673220, 1397622145, 400915894, 1892557431, 891522485, 1123114459, 2084804443, 173374215, 1164952149],
    [278955818, 212301256, 751203777, 859281097, 714632027, 620720087, 2085308890, 1014679847, 439053806, 1956839101],
    [1400855637, 842412939, 104785409, 1317646300, 1684190270, 349917689, 900019674, 2092038898, 704733397, 601242406],
]  # fmt: skip


def hand_next(seed: int, count: int) -> list[int]:
    """``new Random(seed).Next()`` ``count`` times, transcribed apart from the module.

    Knuth's subtractive generator as .NET seeds it: slot 55 holds 161803398 - |seed|,
    slots 21*i mod 55 take the running differences, four passes subtract the slot 31
    ahead; each draw then subtracts the slot 21 ahead (indices cycling 1..55). Plain
    Python ints: for small non-negative seeds no 32-bit overflow occurs.
    """
    assert 0 <= seed < 10**6
    table = [0] * 56
    table[55] = last = 161803398 - seed
    value = 1
    for i in range(1, 55):
        slot = 21 * i % 55
        table[slot] = value
        value, last = (last - value) % INT_MAX, value
    for _ in range(4):
        for i in range(1, 56):
            table[i] = (table[i] - table[1 + (i + 30) % 55]) % INT_MAX
    out, a, b = [], 0, 21
    for _ in range(count):
        a, b = a % 55 + 1, b % 55 + 1
        table[a] = (table[a] - table[b]) % INT_MAX
        out.append(table[a])
    return out


def die(next_value: int) -> int:
    """``Next(1, 7)`` from the ``Next()`` value the same draw gives: (int)(Sample() * 6) + 1."""
    return int(next_value * (1.0 / INT_MAX) * 6) + 1


# ---------------------------------------------------------------- the port


@pytest.mark.parametrize("seed", range(20))
def test_next_matches_dotnets_own_table(seed: int) -> None:
    rng = DotNetRandom(seed)
    assert [rng.next() for _ in range(10)] == NEXT_VALUES[seed]


def test_hand_transcription_matches_dotnets_own_table() -> None:
    assert [hand_next(seed, 10) for seed in range(20)] == NEXT_VALUES


def test_a_negative_seed_is_its_absolute_value() -> None:
    # .NET seeds with Math.Abs(seed) (and int.MaxValue for int.MinValue).
    assert DotNetRandom(-1).next() == NEXT_VALUES[1][0]
    rng = DotNetRandom(-7)
    assert [rng.next() for _ in range(10)] == NEXT_VALUES[7]


@pytest.mark.parametrize(
    ("seed", "values"),
    [
        (2147483647, [1559595546, 1755192844, 1649316172, 1198642031, 442452829, 1200195955]),
        (-2147483648, [1559595546, 1755192844, 1649316172, 1198642031, 442452829, 1200195955]),
        (305419896, [1833211375, 1043988864, 268295676, 471379373, 1912720188, 1697597342]),
    ],
)
def test_seeds_whose_table_overflows_32_bits(seed: int, values: list[int]) -> None:
    rng = DotNetRandom(seed)
    assert [rng.next() for _ in range(6)] == values


def test_next_double_and_next_max() -> None:
    assert DotNetRandom(0).next_double() == 0.7262432699679598
    assert DotNetRandom(1).next(100) == 24
    rng = DotNetRandom(3)
    assert [rng.next(1000) for _ in range(3)] == [293, 697, 864]  # Next() * 1000 / int.MaxValue
    assert DotNetRandom(5).next(0) == 0


def test_next_min_max_draws_one_sample_each() -> None:
    # Next(1, 7) is (int)(Sample() * 6) + 1: seed 0 draws 5 5 5 4 2 4 6 3 6 2.
    rng = DotNetRandom(0)
    assert [rng.next(1, 7) for _ in range(10)] == [die(v) for v in NEXT_VALUES[0]]
    assert [die(v) for v in NEXT_VALUES[0]] == [5, 5, 5, 4, 2, 4, 6, 3, 6, 2]
    rng = DotNetRandom(2)
    assert [rng.next(-10, 10) for _ in range(3)] == [
        int(v * (1.0 / INT_MAX) * 20) - 10 for v in NEXT_VALUES[2][:3]
    ]
    assert DotNetRandom(2).next(4, 4) == 4


def test_next_over_a_range_wider_than_int32_uses_two_samples() -> None:
    # GetSampleForLargeRange: the first sample, negated when the second is even, shifted
    # by int.MaxValue - 1 and divided by 2 * int.MaxValue - 1.
    a, b = NEXT_VALUES[0][:2]
    signed = -a if b % 2 == 0 else a
    expected = int((signed + INT_MAX - 1) / (2 * INT_MAX - 1) * (2**32 - 1)) - 2**31
    rng = DotNetRandom(0)
    assert rng.next(-(2**31), INT_MAX) == expected
    assert rng.next() == NEXT_VALUES[0][2]


def test_bad_arguments_are_refused_as_dotnet_throws() -> None:
    with pytest.raises(ValueError):
        DotNetRandom(0).next(-1)
    with pytest.raises(ValueError):
        DotNetRandom(0).next(2, 1)
    with pytest.raises(ValueError):
        DotNetRandom(2**31)


def test_to_int32_wraps_like_an_unchecked_cast() -> None:
    assert [to_int32(v) for v in (0, INT_MAX, 2**31, 2**32 + 5, -(2**31) - 1)] == [
        0,
        INT_MAX,
        -(2**31),
        5,
        INT_MAX,
    ]


# ---------------------------------------------------------------- the Tester's seeds


def test_tester_seed_is_its_custom_hash() -> None:
    # Program.CustomHash: hash = hash * 31 + c over the string's chars, wrapping at 32 bits.
    assert custom_hash("1") == ord("1") == 49
    assert custom_hash("42") == 52 * 31 + 50 == 1662
    assert custom_hash("") == 0
    assert custom_hash("splitter") == to_int32(
        sum(ord(c) * 31 ** (7 - i) for i, c in enumerate("splitter"))
    )
    assert custom_hash("\U0001f3b2") == 0xD83C * 31 + 0xDFB2  # UTF-16 code units


@pytest.mark.parametrize("seed", range(20))
def test_dice_of_a_seed_are_the_testers(seed: int) -> None:
    # Game(): CurrentDice = RollDices() = (RND.Next(1, 7), RND.Next(1, 7)); after each
    # answer but the last, RollDices() again. 22 rounds: the first 44 draws, in pairs.
    draws = [die(v) for v in hand_next(seed, 44)]
    tester = tuple(zip(draws[0::2], draws[1::2], strict=True))
    assert roll_dice(seed, 22) == tester
    # The table's own ten values give the first five rolls.
    first = [die(v) for v in NEXT_VALUES[seed]]
    assert new_game(seed, 1).dice[:5] == tuple(zip(first[0::2], first[1::2], strict=True))


def test_initial_state_is_what_the_tester_sends_for_its_seed_1() -> None:
    # `Tester --seed 1`: game i is played with new Random(CustomHash("1") + i), i.e. 49 + i,
    # on Grids.GridA (layout 1). The bot first reads Width Height Rounds, the grid rows
    # (Print2dMatrix, single spaces) and the first roll; arena's seed 49 is that game.
    draws = [die(v) for v in hand_next(49, 44)]
    rolls = tuple(zip(draws[0::2], draws[1::2], strict=True))
    state = new_game(49, 1)
    assert state.dice == rolls
    assert rolls[:4] == ((2, 2), (1, 1), (2, 3), (6, 1))
    assert state.values == (0,) * 56 and state.round == 0 and state.rounds == 22
    assert state.cells == LAYOUTS[1]
    grid_a = "".join(" ".join(str(k) for k in row) + "\n" for row in LAYOUTS[1])
    assert SplitterGame().prompt(state, 0) == "8 7 22\n" + grid_a + "2 2\n"
    # Its second game (i = 1) is arena's seed 50, the next seed of `arena match --seed 49`.
    second = [die(v) for v in hand_next(50, 2)]
    assert new_game(50, 2).dice[0] == tuple(second)


def test_seeds_outside_int32_wrap_like_the_testers_sum() -> None:
    # CustomHash(S) + i wraps in C#; arena wraps its seed to 32 bits the same way.
    assert roll_dice(2**32 + 7, 22) == roll_dice(7, 22)
    assert roll_dice(2**31, 22) == roll_dice(-(2**31), 22) == roll_dice(INT_MAX, 22)
    assert roll_dice(-5, 22) == roll_dice(5, 22)
