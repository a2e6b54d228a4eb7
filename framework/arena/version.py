"""The version of arena (the distribution `bot-arena`), at the bottom: any layer may read it."""

__version__ = "0.1.0"
