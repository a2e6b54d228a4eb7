"""arena from Python: play one game, or run a tournament file (the CLI's ``match`` and ``run``).

In the habit of kaggle-environments' ``env.run``::

    import arena
    result = arena.play("stc", ["python3 bots/stc/greedy.py", "python3 bots/stc/enemy.py"],
                        seed=7, settings={"max_turns": 50})
    result.ranks, result.scores, result.reason, result.forfeits

    board = arena.run("tournaments/stc.yaml", games=4).leaderboard
    print(board.render("markdown"))

Bad input (an unknown game, a bad setting or command, a bad tournament file) raises
:class:`~arena.errors.ConfigError` with the same message the CLI prints, before any game;
games that failed in the referee (arena's or a plugin's failure, never a bot's) make
:func:`run` raise :class:`~arena.errors.GamesFailed` once the other games are stored.
Nothing is written to standard error unless asked (``verbose=True`` or ``log=``).
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.errors import ConfigError, GamesFailed
from arena.game import Game

if TYPE_CHECKING:
    from arena.events import RunObserver
    from arena.views.leaderboard import ShownLeaderboard


@dataclass
class PlayResult:
    """One game played by :func:`play`, seat by seat in the order the commands were given.

    ``ranks[i]`` is seat i's place (0 first, equal ranks draw), ``scores[i]`` its score in
    the game's unit, ``forfeits[i]`` None or why it lost on the spot (``timeout``,
    ``crash``, ``invalid``, ``illegal``) with ``details[i]`` saying more. ``replay`` is the
    stored replay (see docs/architecture.md); ``replay_path`` its file when ``output`` was
    given. ``record`` is everything the store keeps about the game.
    """

    game: str
    seed: int
    settings: dict[str, Any]
    bots: list[str]
    ranks: list[int]
    scores: list[float]
    reason: str
    turns: int
    forfeits: list[str | None]
    details: list[str]
    replay: dict[str, Any]
    replay_path: Path | None
    record: Any

    @property
    def winners(self) -> list[str]:
        """The bots ranked first (several for a draw)."""
        from arena.records import first_places

        return [self.bots[i] for i in first_places(self.ranks)]


def _game_class(game: str | type[Game[Any]]) -> type[Game[Any]]:
    if isinstance(game, type):
        from arena.plugins.registry import contract_problem

        problem = contract_problem(game)
        if problem is not None:
            raise ConfigError(problem)
        return game
    from arena.plugins.registry import load_registry

    return load_registry().get(game)


def play(
    game: str | type[Game[Any]],
    commands: Sequence[str | Sequence[str]],
    *,
    seed: int = 1,
    settings: Mapping[str, Any] | None = None,
    names: Sequence[str] | None = None,
    output: str | Path | None = None,
    sandbox: str = "auto",
    memory_mb: int | None = None,
) -> PlayResult:
    """Play one game between bot ``commands`` (seat order) and return how it ended.

    ``game`` is a game id (see ``arena games``) or a :class:`~arena.game.Game` class (a
    plugin's tests can play before the package is installed). A command is a command line
    (split like a shell would, file paths resolved against the current folder) or an
    argument list. ``settings`` override the game's defaults and are checked like the
    CLI's (:meth:`~arena.game.Game.check_settings`). ``output`` keeps the replay and each
    bot's stderr in that folder; without it they live in a temporary folder removed once
    the game is over (``replay`` still holds the replay). ``sandbox`` is ``auto``,
    ``bwrap`` or ``none``, as in tournament files.
    """
    from arena.limits import SANDBOXES
    from arena.records import BotSpec
    from arena.tournament.config import check_seed, game_settings
    from arena.tournament.match import bot_names, play_one, resolve_bot

    game_cls = _game_class(game)
    info = game_cls.info
    merged = game_settings(game_cls, dict(settings or {}))
    if not info.min_players <= len(commands) <= info.max_players:
        span = f"{info.min_players}-{info.max_players}"
        raise ConfigError(f"{info.id} is played by {span} bots; {len(commands)} commands given")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ConfigError(f"seed must be a whole number, not {seed!r}")
    if (why := check_seed(game_cls, seed)) is not None:
        raise ConfigError(f"seed {why}")
    if sandbox not in SANDBOXES:
        raise ConfigError(f"sandbox must be one of {', '.join(SANDBOXES)}, not {sandbox!r}")
    argvs = [resolve_bot(command, i) for i, command in enumerate(commands)]
    given = [names[i] if names is not None and i < len(names) else None for i in range(len(argvs))]
    for i, name in enumerate(given):
        if name is not None and name in given[:i]:
            raise ConfigError(f"the bot name {name!r} is given twice")
    bots = [BotSpec(name, argv) for name, argv in zip(bot_names(given, argvs), argvs, strict=True)]
    root = Path(output) if output is not None else Path(tempfile.mkdtemp(prefix="arena-play-"))
    try:
        record = play_one(game_cls(), bots, seed, merged, root, sandbox, memory_mb)
        replay_path = root / record.replay
        replay = json.loads(replay_path.read_text())
    finally:
        if output is None:
            shutil.rmtree(root, ignore_errors=True)
    return PlayResult(
        game=info.id,
        seed=seed,
        settings=merged,
        bots=[b.name for b in bots],
        ranks=[s.rank for s in record.seats],
        scores=[s.score for s in record.seats],
        reason=record.reason,
        turns=record.turns,
        forfeits=[s.forfeit for s in record.seats],
        details=[s.detail for s in record.seats],
        replay=replay,
        replay_path=replay_path if output is not None else None,
        record=record,
    )


@dataclass
class TournamentResult:
    """What :func:`run` did: games played now, found already stored, failed; the leaderboard.

    ``leaderboard`` (:class:`~arena.views.leaderboard.ShownLeaderboard`): ``rows()`` gives
    one dict per bot, best first; ``render(fmt)`` the text the CLI prints (``table``,
    ``markdown``, ``json``, ``csv``). ``failures`` says
    why each failed game failed; ``changed`` why the run stopped early (a bot's file
    changed during it), else None. ``left_out`` counts the games stored in the output
    folder that the file no longer defines (another ``games``, other bots): the leaderboard
    leaves them out (``arena leaderboard --all`` shows them).
    """

    name: str
    output: Path
    played: int
    resumed: int
    failed: int
    interrupted: bool
    leaderboard: ShownLeaderboard
    failures: list[str] = field(default_factory=list)
    changed: str | None = None
    left_out: int = 0


def run(
    path: str | Path,
    *,
    progress: bool = False,
    verbose: bool = False,
    log: Callable[[str], None] | None = None,
    observers: Sequence[RunObserver] = (),
    **overrides: Any,
) -> TournamentResult:
    """Run (or resume) a tournament file, like ``arena run``; return its results.

    ``overrides`` set the file's keys that ``arena run`` has options for: ``games``,
    ``concurrency``, ``seed``, ``seeds``, ``output`` (relative to the current folder),
    ``executor``, ``dask``, ``rating_interval``; they are checked with the file, as the
    options are (``games=0`` raises ``ConfigError("games: must be a positive whole number,
    not 0")``). Games already stored in the output folder are not played again. The run's
    messages (resuming, the sandbox, a failed game) go to ``log`` when given, else to
    standard error when ``verbose``, else nowhere; ``progress`` shows the CLI's progress
    bar on standard error. ``observers`` (:class:`arena.events.RunObserver`) hear each
    step of the run: started, each game stored, stalled, given up or failed, finished
    (``OUTPUT/status.json`` is kept too).

    Raises :class:`~arena.errors.GamesFailed` (its ``result`` is this function's result)
    when games failed in the referee: arena, a plugin or a helper process broke.
    """
    from arena.plugins.registry import load_registry
    from arena.tournament.config import load_tournament, new_output_note
    from arena.tournament.keys import keyword_overrides
    from arena.tournament.run import run_tournament
    from arena.views.leaderboard import ShownLeaderboard
    from arena.views.progress import run_observers

    config = load_tournament(Path(path), load_registry(), keyword_overrides(overrides))
    if log is None:
        log = _to_stderr if verbose else _nowhere
    note = new_output_note(config)
    if note:
        log(note)
    shown = run_observers(config.output, progress, config.rating_interval, False, log)
    summary = run_tournament(config, log=log, observers=[*shown, *observers])
    result = TournamentResult(
        name=config.name,
        output=config.output,
        played=summary.played,
        resumed=summary.resumed,
        failed=summary.failed,
        interrupted=summary.interrupted,
        leaderboard=ShownLeaderboard.of(summary.leaderboard),
        failures=summary.failures,
        changed=summary.changed,
        left_out=summary.left_out,
    )
    if summary.failed:
        raise GamesFailed(summary.failures or [f"{summary.failed} games"], result)
    return result


def _to_stderr(message: str) -> None:
    print(message, file=sys.stderr)


def _nowhere(message: str) -> None:
    pass
