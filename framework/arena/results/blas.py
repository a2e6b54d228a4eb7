"""numpy's linear algebra (OpenBLAS) held to one thread while a rating is fitted.

A fit's matrices are small (a thousand bots: 1,000 x 1,000), and OpenBLAS's other
threads mostly spin on them: on a busy machine they about double the CPU of a fit for
no shorter wait. :func:`one_thread` limits the BLAS libraries numpy loaded to one thread
for a block (threadpoolctl, which finds them) and gives their threads back after. The
figures shown do not depend on it: the solves' unrounded numbers differ in their last
bits between one thread and several, as they do between machines of other core counts.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any


@cache
def _controller() -> Any:
    """The loaded thread pools, looked up once (numpy must be imported before)."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


@contextmanager
def one_thread() -> Iterator[None]:
    """The BLAS libraries on one thread within the block."""
    with _controller().limit(limits=1, user_api="blas"):
        yield
