"""A rating's fit holds OpenBLAS to one thread, and gives the process its threads back."""

from __future__ import annotations

import numpy  # noqa: F401  (OpenBLAS is found once numpy has loaded it)
import pytest

from arena.results import blas


def test_one_thread_within_the_block_and_the_count_before_after_it():
    found = blas._threads()
    if found is None:
        pytest.skip("numpy here does not use OpenBLAS")
    get, _ = found
    before = get()
    with blas.one_thread():
        assert get() == 1
    assert get() == before
