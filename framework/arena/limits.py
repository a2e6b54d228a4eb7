"""Defaults, caps and closed sets that several layers share, each written once.

A low module (beside :mod:`arena.errors`): the tournament file's checks, the sandbox,
the executors and the CLI's option choices all read these, so a default or a choice is
changed here and nowhere else. The closed sets are ``Literal`` types; their values, for
checks and ``choices=``, come from the type itself (:func:`values_of`).
"""

from __future__ import annotations

from typing import Any, Literal, get_args

MAX_PROCESSES = 64
"""Default cap on the processes a bot may run at once (``max_processes``), where cgroups allow."""
MOST_PROCESSES = 32768
"""Largest ``max_processes`` accepted."""
DISK_MB = 256
"""Default cap in MiB on the files a bot writes (``disk_mb``)."""
MOST_DISK_MB = 1024 * 1024
"""Largest ``disk_mb`` accepted: 1 TiB."""
MOST_MEMORY_MB = 1024 * 1024
"""Largest ``memory_mb`` (and ``build_memory_mb``) accepted: 1 TiB."""
BUILD_TIMEOUT_S = 120.0
"""Default time cap of one bot's build (all its steps), in seconds (``build_timeout_s``)."""
MOST_BUILD_TIMEOUT_S = 86400
"""Largest ``build_timeout_s`` accepted: a day."""
BUILD_MEMORY_MB = 4096
"""Default memory cap of a build (``build_memory_mb``), where a memory cgroup is available."""
MOST_CONCURRENCY = 1024
"""Most games played at once (``concurrency``, ``--jobs``): more is a typo, not a machine."""

DEFAULT_FORMAT = "round-robin"
"""The tournament format of a file without ``format`` (the first of the formats' table)."""

SandboxKind = Literal["auto", "bwrap", "none"]
"""The ``sandbox`` key: bubblewrap when it works, bubblewrap, or none."""
ExecutorKind = Literal["local", "dask"]
"""The ``executor`` key: worker processes here, or a Dask cluster."""
ClockKind = Literal["wall", "cpu"]
"""The ``clock`` key: what a turn is charged."""
FilesKind = Literal["folder", "named"]
"""The ``files`` key: what a sandboxed bot sees of its own files."""
OnBuildError = Literal["stop", "skip"]
"""The ``on_build_error`` key: what a bot that does not build does to the run."""


def values_of(kind: Any) -> tuple[str, ...]:
    """The values of a ``Literal`` type, in their order: ``("auto", "bwrap", "none")``."""
    return tuple(get_args(kind))


SANDBOXES = values_of(SandboxKind)
EXECUTORS = values_of(ExecutorKind)
CLOCKS = values_of(ClockKind)
FILES = values_of(FilesKind)
ON_BUILD_ERROR = values_of(OnBuildError)
