"""A rating's fit holds numpy's BLAS to one thread, and gives the process its threads back."""

from __future__ import annotations

import numpy  # noqa: F401  (the BLAS library is found once numpy has loaded it)
import pytest
from threadpoolctl import threadpool_info

from arena.results import blas


def blas_threads() -> list[int]:
    return [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]


def test_one_thread_within_the_block_and_the_count_before_after_it():
    before = blas_threads()
    if not before:
        pytest.skip("numpy here loads no BLAS library threadpoolctl knows")
    with blas.one_thread():
        assert blas_threads() == [1] * len(before)
    assert blas_threads() == before
