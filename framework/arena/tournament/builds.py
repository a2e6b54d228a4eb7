"""Building a tournament's bots from source, before any game (see :mod:`arena.botbuild.build`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from arena.botbuild.build import BuildFailed, build
from arena.botproc.sandboxes.base import Sandbox
from arena.errors import ConfigError
from arena.tournament.config import TournamentConfig, where
from arena.tournament.formats import FORMATS


def build_bots(
    config: TournamentConfig, sandbox: Sandbox, say: Callable[[str], None]
) -> TournamentConfig:
    """Build every bot of ``config`` that has a recipe (or find it built in the cache);
    return the config whose bots have the commands that run the results.

    A bot that does not build stops the run with a :class:`ConfigError` naming the file,
    the key, the bot and the compiler's first lines; with ``on_build_error: skip`` it is
    left out (said through ``say``) and the rest play, if the format still can.
    """
    kept = []
    skipped: list[str] = []
    for i, bot in enumerate(config.bots):
        recipe = bot.recipe
        if recipe is None or bot.argv:
            kept.append(bot)
            continue
        key = (
            f"bots[{i}].source"
            if recipe.sources and recipe.language != "custom"
            else f"bots[{i}].build"
        )
        if key not in config.lines:
            key = f"bots[{i}]"
        try:
            built = build(recipe, sandbox, config.build_timeout_s, config.build_memory_mb)
        except BuildFailed as failed:
            who = f"{bot.name} ({recipe.main})" if recipe.sources else bot.name
            message = f"{where(config, key)}: {who} does not build: {failed.text()}"
            if config.on_build_error != "skip":
                raise ConfigError(message) from None
            say(f"arena: {message}\narena: {bot.name} is left out (on_build_error: skip)")
            skipped.append(bot.name)
            continue
        if recipe.steps:
            how = "found in the build cache" if built.cached else f"built in {built.seconds:.1f} s"
            say(f"arena: {bot.name}: {recipe.language} {how}")
        folder = str(built.out) if recipe.steps else ""
        kept.append(dataclasses.replace(bot, argv=built.argv, built_in=folder))
    config = dataclasses.replace(config, bots=kept)
    if skipped:
        _check_left(config, skipped)
    return config


def _check_left(config: TournamentConfig, skipped: list[str]) -> None:
    """What the format needs of the bots that built (after some were left out)."""
    left = len(config.bots)
    gone = ", ".join(skipped)
    if config.champion in skipped:
        raise ConfigError(
            f"{where(config, 'champion')}: the champion {config.champion} does not build"
        )
    if left < config.players:
        raise ConfigError(
            f"{config.path}: {left} bots build ({gone} did not): {config.players}-player games "
            f"need at least {config.players}"
        )
    needed = FORMATS[config.format].bot_count
    if needed is not None and left != needed:
        raise ConfigError(
            f"{config.path}: format {config.format} compares {needed} bots; {gone} did not build"
        )


def build_records(config: TournamentConfig) -> dict[str, dict[str, str]]:
    """What the store keeps of each bot built from source (its meta ``builds``): its
    language, its main source or custom command as written, and the folder of its build
    (``""`` for an interpreted language: nothing was built), where ``build.log`` is."""
    return {
        bot.name: {
            "language": bot.recipe.language,
            "source": bot.recipe.main,
            "folder": bot.built_in,
        }
        for bot in config.bots
        if bot.recipe is not None
    }
