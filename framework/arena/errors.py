"""The one error hierarchy of arena; only the CLI turns these into messages and exit codes."""

from __future__ import annotations


class ArenaError(Exception):
    """Base of every error arena raises on purpose."""


class ConfigError(ArenaError):
    """A tournament file or command line that cannot be used (exit code 2).

    The message names the file, the key and the line, e.g.
    ``tournaments/stc.yaml: bots[1].cmd (line 14): command not found: 'pyhton3'``.
    """


class UnknownGame(ConfigError):
    """A game id that no installed plugin registers."""


class InvalidSetting(ConfigError):
    """A game setting the game cannot play with, raised by ``Game.check_settings``.

    ``key`` names the setting and ``message`` says why, e.g.
    ``InvalidSetting("max_turns", "must be between 1 and 10000, not -5")``; the core adds
    the file and the line (or the command-line option) before showing it.
    """

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message


class ExternalProcessError(ArenaError):
    """A helper process a game relies on (e.g. an official referee) failed or spoke garbage.

    Not a bot's fault: the game cannot go on, and the core reports it as a game that
    failed in the referee (the tournament goes on).
    """


class GamesFailed(ArenaError):
    """Games failed in the referee: arena, a plugin or a helper broke, not a bot.

    Raised by :func:`arena.run` once the other games are played and stored; ``result``
    is the run's :class:`~arena.api.TournamentResult` and ``failures`` says, game by game,
    what went wrong (``"game r1:a,b: ..."``).
    """

    def __init__(self, failures: list[str], result: object) -> None:
        shown = "; ".join(failures[:3]) + ("; ..." if len(failures) > 3 else "")
        super().__init__(f"{len(failures)} games failed in the referee: {shown}")
        self.failures = failures
        self.result = result


class OutputError(ArenaError):
    """The output folder could not be written (disk full, quota, I/O error): the run stops
    at once (exit code 1); every game stored so far is whole, and running the same command
    again resumes once there is room."""


class AnswerError(ArenaError):
    """A bot's answer that loses it the game; ``reason`` is what the store records."""

    reason = "invalid"

    def __init__(self, message: str, raw: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.raw = raw

    def __str__(self) -> str:
        return f"{self.message}: {self.raw!r}" if self.raw else self.message


class InvalidAnswer(AnswerError):
    """An answer that does not parse (garbage, wrong format)."""

    reason = "invalid"


class IllegalMove(AnswerError):
    """An answer that parses but breaks the rules in the current position."""

    reason = "illegal"


# -- exit codes: decided here, for every command -------------------------------------

EXIT_OK = 0
"""Success."""
EXIT_FAILED = 1
"""A game failed in the referee (a plugin or helper broke; the other games went on), or
the output could not be written (:class:`OutputError`: disk full)."""
EXIT_USAGE = 2
"""Bad input: a file, key, option, game, command or sandbox that cannot be used."""
EXIT_GIVEN_UP = 3
"""``arena run``: games were given up, not stored, after stalling at every replay (the
machine, not a bot, kept putting a turn over its budget); running the same command again
plays them."""
EXIT_VERDICT_FAILED = 4
"""``arena check``: the verdict is one the gate refuses (worse, or not shown better)."""
EXIT_VERDICT_INCONCLUSIVE = 5
"""``arena check``: the game limit came before the verdict was clear."""
EXIT_BUG = 70
"""An unexpected exception: a bug in arena (``EX_SOFTWARE``); the traceback is saved."""
EXIT_INTERRUPTED = 130
"""Stopped by SIGINT (Ctrl-C): 128 + 2; SIGTERM gives 143."""
EXIT_PIPE = 141
"""Standard output closed early (``arena ... | head``): 128 + SIGPIPE."""


def exit_code(exc: BaseException) -> int:
    """The exit code of a command that ended with ``exc``.

    ``ConfigError`` is bad input (2); any other :class:`ArenaError` a failed game (1); an
    interruption 128 + its signal; anything else is an arena bug (:data:`EXIT_BUG`).
    """
    signum = getattr(exc, "signum", None)
    if isinstance(signum, int):
        return 128 + signum
    if isinstance(exc, BrokenPipeError):
        return EXIT_PIPE
    if isinstance(exc, ConfigError):
        return EXIT_USAGE
    if isinstance(exc, ArenaError):
        return EXIT_FAILED
    return EXIT_BUG
