"""The final ranking of a contest, as CodinGame's final re-run: every pair of the final
versions plays many games, seat-swapped on shared seeds.

The final versions are each participant's (owner's) newest version that is not retired;
the bosses (the bots without an owner) play only when asked. They play
an ordinary round-robin (:func:`arena.tournament.schedule.round_robin`: round ``r``'s seed
shared by every pair, each pair playing it in both seats) in ``OUTPUT/final/``, run by
:func:`arena.tournament.run.run_tournament`, so a final that was stopped resumes where it
stopped: call :func:`run_final` again.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from arena.errors import ConfigError
from arena.limits import DEFAULT_FORMAT

if TYPE_CHECKING:
    from arena.tournament.config import BotEntry, TournamentConfig
    from arena.tournament.run import RunSummary

FINAL_FOLDER = "final"
"""The final's output folder, inside the contest's."""
LEAGUE_FILE = "tournament.yaml"
"""The league's tournament file, written by the contest server in its output folder."""


def league_config(output: Path) -> TournamentConfig:
    """The contest's league as it stands: its file, with the roster laid over it."""
    from arena.plugins.registry import load_registry
    from arena.tournament.config import load_tournament
    from arena.tournament.keys import Override

    path = output / LEAGUE_FILE
    if not path.is_file():
        raise ConfigError(f"{output}: not a contest's folder (no {LEAGUE_FILE} in it)")
    here = Override("output", str(output), f"{output}")
    return load_tournament(path, load_registry(), [here])


def final_bots(config: TournamentConfig, bosses: bool = False) -> list[BotEntry]:
    """The final versions: each owner's newest bot not retired (the last in the roster's
    order), in the league's order; the bots without an owner (the bosses) only when
    ``bosses``."""
    newest: dict[str, str] = {}
    for b in config.bots:
        if b.owner is not None and b.name not in config.retired:
            newest[b.owner] = b.name
    final = set(newest.values())
    return [
        b
        for b in config.bots
        if b.name in final or (bosses and b.owner is None and b.name not in config.retired)
    ]


def final_config(
    output: Path, games_per_pair: int, seed: int | None = None, bosses: bool = False
) -> TournamentConfig:
    """The final's round-robin: the league's game, settings and sandbox, its final
    versions, ``games_per_pair`` games per pair (an even number: seat-swapped pairs)."""
    from arena.tournament.formats import FORMATS

    cap = FORMATS[DEFAULT_FORMAT].max_games  # a round-robin, generated as it is played
    if isinstance(games_per_pair, bool) or games_per_pair < 2 or games_per_pair % 2:
        raise ConfigError(
            f"--games-per-pair: must be an even whole number of at least 2 (each seed "
            f"played in both seats), not {games_per_pair}"
        )
    league = league_config(output)
    bots = final_bots(league, bosses)
    if len(bots) < 2:
        raise ConfigError(
            f"{output}: the final needs at least two ranked versions, not {len(bots)}"
        )
    total = math.comb(len(bots), 2) * games_per_pair * max(1, len(league.variants))
    if total > cap:
        raise ConfigError(
            f"--games-per-pair: {games_per_pair} games for each of the "
            f"{math.comb(len(bots), 2)} pairs make {total} games; arena plays at most "
            f"{cap} in one round-robin"
        )
    return dataclasses.replace(
        league,
        name=f"{league.name} final",
        format=DEFAULT_FORMAT,
        games=games_per_pair,
        bots=bots,
        output=output / FINAL_FOLDER,
        retired=(),
        leagues=(),
        seed=league.seed if seed is None else seed,
        seeds=None,
        book=None,
        new_book=False,
        rating_interval=0,
    )


def play_final(
    output: Path,
    games_per_pair: int,
    seed: int | None = None,
    *,
    bosses: bool = False,
    log: Callable[[str], None] | None = None,
) -> RunSummary:
    """Play (or resume) the final of the contest in ``output``, in ``OUTPUT/final``; what
    the run did (interrupted, games failed: ``arena contest final``'s exit code)."""
    from arena.tournament.run import run_tournament

    config = final_config(output, games_per_pair, seed, bosses)
    return run_tournament(config, log=log or (lambda line: None))


def run_final(
    output: Path,
    games_per_pair: int,
    seed: int | None = None,
    *,
    bosses: bool = False,
    log: Callable[[str], None] | None = None,
) -> Path:
    """Play (or resume) the final of the contest in ``output``; its folder,
    ``OUTPUT/final`` (its leaderboard: :mod:`arena.contest.export`). Blocking."""
    play_final(output, games_per_pair, seed, bosses=bosses, log=log)
    return output / FINAL_FOLDER
