"""Bot processes: spawning, sandboxing, deadline reads, stderr capture and shutdown.

This package is the only part of arena that touches ``subprocess``. One module per job:

* :mod:`~arena.botproc.lines` - persistent line-protocol bots and their stderr;
* :mod:`~arena.botproc.turns` - per-turn bots of file protocols, and their files;
* :mod:`~arena.botproc.spawn` - starting a bot, killing it with all it started, orphans;
* :mod:`~arena.botproc.sandboxes` - the sandbox backends (none, bubblewrap) and choosing one;
* :mod:`~arena.botproc.launcher` - what a bot's process does before exec (limits first);
* :mod:`~arena.botproc.cgroups` - pids, memory and cpu cgroups of bots;
* :mod:`~arena.botproc.homes` - the bots' private directories;
* :mod:`~arena.botproc.cleanup` - what a killed run left behind;
* :mod:`~arena.botproc.procinfo` - the process table.
"""

from __future__ import annotations

from arena.botproc.cleanup import remove_leftovers
from arena.botproc.homes import BOT_HOMES, BotHome, bot_homes, remove_retired
from arena.botproc.lines import (
    MAX_BUFFERED_BYTES,
    MAX_LINE_BYTES,
    STDERR_CAP_BYTES,
    BotClosed,
    InputStalled,
    LineBot,
    LogSink,
    OutputFlood,
    Usage,
    crash_detail,
    drain_logs,
    stop_bots,
    wait_and_read,
)
from arena.botproc.sandboxes.base import FILE_SIZE_CAP_BYTES, Sandbox, SandboxUnavailable
from arena.botproc.sandboxes.bwrap import bwrap_works
from arena.botproc.sandboxes.registry import (
    auto_warning,
    backend_of,
    cpu_warning,
    describe,
    resolve_sandbox,
    waits_note,
)
from arena.botproc.spawn import keep_child, kill_every_bot, kill_tree
from arena.botproc.turns import TurnOptions, TurnProcessResult, run_turn_process

__all__ = [
    "BOT_HOMES",
    "FILE_SIZE_CAP_BYTES",
    "MAX_BUFFERED_BYTES",
    "MAX_LINE_BYTES",
    "STDERR_CAP_BYTES",
    "BotClosed",
    "BotHome",
    "InputStalled",
    "LineBot",
    "LogSink",
    "OutputFlood",
    "Sandbox",
    "SandboxUnavailable",
    "TurnOptions",
    "TurnProcessResult",
    "Usage",
    "auto_warning",
    "backend_of",
    "bot_homes",
    "bwrap_works",
    "cpu_warning",
    "crash_detail",
    "describe",
    "drain_logs",
    "keep_child",
    "kill_every_bot",
    "kill_tree",
    "remove_leftovers",
    "remove_retired",
    "resolve_sandbox",
    "run_turn_process",
    "stop_bots",
    "wait_and_read",
    "waits_note",
]
