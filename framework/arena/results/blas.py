"""numpy's linear algebra (OpenBLAS) held to one thread while a rating is fitted.

A fit's matrices are small (a thousand bots: 1,000 x 1,000), and OpenBLAS's other
threads mostly spin on them: on a busy machine they about double the CPU of a fit for
no shorter wait. :func:`one_thread` sets the library's thread count to one for a block
and back after, found as threadpoolctl finds it (the loaded library's own
``*_set_num_threads`` function); where it is not found (another BLAS, another build)
nothing changes. The figures shown do not depend on it: the solves' unrounded numbers
differ in their last bits between one thread and several, as they do between machines
of other core counts.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache

PREFIXES = ("scipy_openblas", "openblas")  # numpy's wheels, then a system OpenBLAS
SUFFIXES = ("64_", "")  # 64-bit integer builds, then the plain one


@cache
def _threads() -> tuple[Callable[[], int], Callable[[int], None]] | None:
    """OpenBLAS's get and set of its thread count, once numpy has loaded it (else None)."""
    try:
        with open("/proc/self/maps") as maps:
            paths = {line.split()[-1] for line in maps if "openblas" in line.lower()}
    except OSError:
        return None
    for path in sorted(p for p in paths if p.startswith("/")):
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for prefix in PREFIXES:
            for suffix in SUFFIXES:
                get = getattr(lib, f"{prefix}_get_num_threads{suffix}", None)
                put = getattr(lib, f"{prefix}_set_num_threads{suffix}", None)
                if get is not None and put is not None:
                    get.restype = ctypes.c_int
                    put.argtypes = [ctypes.c_int]
                    return get, put
    return None


@contextmanager
def one_thread() -> Iterator[None]:
    """OpenBLAS on one thread within the block (numpy must be imported before)."""
    found = _threads()
    if found is None:
        yield
        return
    get, put = found
    before = get()
    put(1)
    try:
        yield
    finally:
        put(before)
