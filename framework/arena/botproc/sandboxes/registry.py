"""The sandbox backends by name, and choosing one for a run.

Adding a backend: one module beside ``none.py`` and ``bwrap.py`` implementing
:class:`~arena.botproc.sandboxes.base.SandboxBackend`, one line in :data:`BACKENDS`, and
its name in :data:`arena.limits.SandboxKind` (the tournament key's choices).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

from arena import hostcache
from arena.botproc import cgroups
from arena.botproc.pressure import visibility_note
from arena.botproc.sandboxes import bwrap, none
from arena.botproc.sandboxes.base import (
    DEFAULT_DISK_MB,
    HostFacts,
    Sandbox,
    SandboxBackend,
    SandboxKind,
    SandboxUnavailable,
)
from arena.errors import ConfigError
from arena.limits import MAX_PROCESSES, SANDBOXES

BACKENDS: dict[str, SandboxBackend] = {
    "bwrap": bwrap.BACKEND,
    "none": none.BACKEND,
}
"""Every backend by its kind; ``auto`` takes the first usable one, in this order."""

KINDS = SANDBOXES
"""What ``sandbox:`` may name: ``auto`` and every backend (checked by the registry's test)."""


def backend(kind: str) -> SandboxBackend:
    """The backend named ``kind`` (raises ConfigError for an unknown name)."""
    try:
        return BACKENDS[kind]
    except KeyError:
        raise ConfigError(f"unknown sandbox {kind!r} (one of {', '.join(KINDS)})") from None


def backend_of(sandbox: Sandbox) -> SandboxBackend:
    """The backend that confines ``sandbox``'s bots, with the probes' results the sandbox
    carries (if any: see :class:`~arena.botproc.sandboxes.base.HostFacts`) adopted."""
    found = backend(sandbox.kind)
    if sandbox.facts is not None:
        kind, probe = sandbox.facts.probe
        BACKENDS[kind].adopt(probe)
        cgroups.adopt(sandbox.facts.cgroups)
    return found


def resolve_sandbox(
    kind: str,
    memory_mb: int | None = None,
    hide: Sequence[Path] = (),
    max_processes: int | None = MAX_PROCESSES,
    disk_mb: int | None = DEFAULT_DISK_MB,
) -> Sandbox:
    """Turn the configured kind (``auto`` or a backend's) into a :class:`Sandbox`.

    Raises :class:`SandboxUnavailable` for a backend that does not work here.
    """
    if kind != "auto":
        backend(kind)  # an unknown name refused before anything is probed
    key = host_key()  # the probes' results, cached until the next boot
    cached = adopt_cached(key)
    if kind == "auto":
        kind = next(k for k, b in BACKENDS.items() if b.unusable() is None or not b.isolates)
    chosen = BACKENDS[kind]
    if (error := chosen.unusable()) is not None:
        raise SandboxUnavailable(f"{chosen.title} does not work here: {error}")
    hidden = tuple(str(Path(p).resolve()) for p in hide)
    facts = HostFacts((kind, chosen.probe()), cgroups.parents())
    remember(key, cached)
    return Sandbox(cast(SandboxKind, kind), memory_mb, hidden, max_processes, disk_mb, facts)


def describe(sandbox: Sandbox) -> str:
    """One line for the user: which sandbox and which protections are in force."""
    parts = [backend_of(sandbox).describe(sandbox)]
    found = cgroups.parents()
    if found is None:
        parts.append(
            "no cgroups (max_processes not enforced, memory_mb per process, "
            "no CPU cap: a bot's children can take its opponent's time)"
        )
    else:
        caps = [f"{sandbox.max_processes} processes" if sandbox.max_processes else "pids"]
        if sandbox.memory_mb:
            where = "cgroup" if found.memory is not None else "per process"
            caps.append(f"{sandbox.memory_mb} MiB ({where})")
        if found.cpu is not None:
            # With cpusets a core of its own where enough are free; without, a core's
            # worth of CPU on any of them (said here: no warning, nothing is unfair).
            caps.append("1 core" if found.cpuset is not None else "1 core's worth (no cpuset)")
        parts.append(f"{found.describe()}; caps: {', '.join(caps)}")
    return "; ".join(parts)


def cpu_warning() -> str | None:
    """The warning when bots get cgroups but cannot be confined to a core (no ``cpu``
    controller): what a bot's children burn is then nobody's, and can cost its opponent
    its time. Without any cgroup the sandbox line says so already (``no CPU cap``)."""
    found = cgroups.parents()
    if found is None or found.cpu is not None:
        return None  # without cpusets too: each bot still gets one core's worth of CPU
    return (
        "warning: no cpu cgroup controller here (run as root or delegate a cgroup v2 "
        "subtree with cpu): a bot's processes are not confined to one core, so one that "
        "starts busy children can slow its opponent; `clock: cpu` charges no child time"
    )


def waits_note() -> str | None:
    """The note where disk and memory waits are not visible to the clock (no PSI, or no
    cgroup v2 group of their own for bots: :func:`~arena.botproc.pressure.visibility_note`)."""
    found = cgroups.parents()
    return visibility_note(found is not None and found.pressure is not None)


def auto_warning(requested: str, sandbox: Sandbox) -> str | None:
    """The one warning for ``auto`` falling back to a backend that does not isolate bots
    (None when not needed): why each isolating one does not work here."""
    if requested != "auto" or backend(sandbox.kind).isolates:
        return None
    why = "; ".join(
        error for b in BACKENDS.values() if b.isolates and (error := b.unusable()) is not None
    )
    return (
        f"warning: {why}: bots are not isolated from each other or the host "
        "(install bubblewrap, e.g. `apt-get install bubblewrap`, or set `sandbox: none`)"
    )


# -- the probes' results, cached across runs (arena.hostcache) -----------------------------


def host_key() -> str:
    """The cache key of what every backend's probe and the cgroups depend on."""
    programs = [program for b in BACKENDS.values() for program in b.programs]
    return hostcache.host_key(programs)


def adopt_cached(key: str) -> dict[str, Any]:
    """Take the cached facts under ``key`` in this process where it has not probed yet;
    return them (empty when none could be used)."""
    facts = hostcache.load(key) or {}
    try:
        for kind, b in BACKENDS.items():
            if kind in facts:
                b.adopt_cached(facts[kind])
        if "cgroups" in facts:
            cgroups.adopt(cgroups.parents_from_json(facts["cgroups"]))
    except (TypeError, ValueError, KeyError):
        return {}  # not a usable cache: probed again, and stored anew
    return facts


def remember(key: str, cached: dict[str, Any]) -> None:
    """Cache what this process knows now (probed or taken from the cache) when it adds
    to what was cached."""
    facts = dict(cached)
    for kind, b in BACKENDS.items():
        if (known := b.cached()) is not None:
            facts[kind] = known[0]
    facts["cgroups"] = cgroups.parents_to_json(cgroups.parents())
    if facts != cached:
        hostcache.store(key, facts)
