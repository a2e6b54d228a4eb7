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


class PluginError(ArenaError):
    """A plugin that breaks the game contract (duplicate id, bad metadata)."""


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
