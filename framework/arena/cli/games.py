"""``arena games`` (the installed games) and ``arena new-game`` (a plugin package)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from arena.cli.common import installed_games
from arena.errors import EXIT_OK, ConfigError


def add_parsers(sub: Any) -> None:
    """The ``games`` and ``new-game`` commands."""
    p = sub.add_parser("games", help="list the installed games")
    p.add_argument(
        "--wide", action="store_true", help="every column, unwrapped (default: fit the terminal)"
    )
    p.set_defaults(func=cmd_games)
    p = sub.add_parser(
        "new-game",
        help="write a new game plugin package (game, bot, tournament, tests)",
        description="Write a complete game plugin package in DIR (default ./NAME): a small "
        "playable game to change into yours, a random bot, a tournament file, a README and "
        "tests using arena.testing. `pip install -e DIR` makes `arena games` list it.",
    )
    p.add_argument("name", help="the game id: lower-case letters, digits and '_'")
    p.add_argument("--dir", type=Path, help="where to write it (default ./NAME); must be empty")
    p.set_defaults(func=cmd_new_game)


def cmd_games(args: argparse.Namespace, extra: list[str]) -> int:
    """List installed games: id, players, clocks, transport, settings, package; fitted to
    the terminal's width (settings wrap, the package goes first) unless ``--wide``."""
    from arena.tournament.config import players_text
    from arena.views.tables import Column, fit_table, terminal_width

    registry = installed_games()
    rows = []
    for gid, entry in sorted(registry.games.items()):
        info = entry.game.info
        players = players_text(info)
        transport = "lines" if info.transport is None else f"files ({info.transport.input_name})"
        if info.transport is None and info.framing == "tokens":
            transport = "words"
        if info.queries:
            transport += " + queries"
        settings = ", ".join(f"{k}={v}" for k, v in info.settings.items()) or "-"
        rows.append(
            [
                gid,
                info.title,
                f"v{info.version}",
                players,
                f"{info.first_turn_ms}/{info.turn_ms}",
                transport,
                settings,
                entry.package,
            ]
        )
    headers = ["id", "game", "rules", "players", "ms 1st/turn", "protocol"]
    headers += ["settings", "package"]
    # Left out when too wide: the package, then the rules version; then the long cells
    # wrap; the settings go last.
    drops = {"package": 3, "rules": 2, "settings": 1}
    narrowest = {"settings": 22, "game": 12, "protocol": 10}  # wrapped down to these
    columns = [
        Column(h, [r[i] for r in rows], drops.get(h, 0), h in narrowest, narrowest.get(h, 0))
        for i, h in enumerate(headers)
    ]
    text, dropped = fit_table(columns, None if args.wide else terminal_width(), wrap_below=1)
    print(text)
    if dropped:
        print(f"\n({', '.join(dropped)} left out to fit: --wide shows every column)")
    return EXIT_OK


def cmd_new_game(args: argparse.Namespace, extra: list[str]) -> int:
    """Write a new game plugin package from the templates shipped with arena."""
    from arena.plugins.scaffold import next_steps, write_plugin

    target = args.dir if args.dir is not None else Path(args.name)
    installed = installed_games().games
    if args.name.replace("_", "-") in installed or args.name in installed:
        raise ConfigError(f"game id {args.name!r} is already installed (see `arena games`)")
    written = write_plugin(args.name, target)
    print(f"wrote {len(written)} files in {target}:")
    for path in written:
        print(f"  {path.relative_to(target)}")
    print("\nnext:")
    for line in next_steps(args.name, target):
        print(f"  {line}")
    return EXIT_OK
