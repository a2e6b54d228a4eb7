"""Bots sharing one folder: each bot's identity is what it was when every bot's folder was
hashed for itself (its folder's files, less every file a bot's command names), now with
the folder hashed once for all its bots."""

from __future__ import annotations

import textwrap

from arena.cli.common import installed_games
from arena.results.identity import bot_fingerprint
from arena.tournament.config import load_tournament
from arena.tournament.resume import bot_identities, own_folder


def test_bots_in_one_folder_keep_the_identities_each_bot_alone_gives(tmp_path):
    shared = tmp_path / "bots"
    shared.mkdir()
    for name in ("a", "b", "c"):
        (shared / f"{name}.py").write_text(f"print({name!r})\n")
    (shared / "helper.py").write_text("X = 1\n")  # a module of all three: in their folder
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / "d.py").write_text("print('d')\n")
    (alone / "data.txt").write_text("d's own\n")
    path = tmp_path / "t.yaml"
    path.write_text(
        textwrap.dedent(
            f"""\
            name: shared
            game: stc
            games: 2
            seed: 1
            output: {tmp_path / "out"}
            bots:
              - {{name: a, cmd: python3 {shared / "a.py"}}}
              - {{name: b, cmd: python3 {shared / "b.py"}}}
              - {{name: c, cmd: python3 {shared / "c.py"}}}
              - {{name: d, cmd: python3 {alone / "d.py"}}}
            """
        )
    )
    config = load_tournament(path, installed_games())
    made = bot_identities(config)
    every_file = [p for b in config.bots for _, p in b.files]
    for b in config.bots:
        alone_gives = bot_fingerprint(
            b.name, b.cmd, b.files, [str(config.output)], None, own_folder(b.argv), every_file
        )
        assert made.ids.bots[b.name] == alone_gives
    assert set(made.ids.bots["a"]["folder"]) == {"helper.py"}
    assert set(made.ids.bots["d"]["folder"]) == {"data.txt"}
    assert made.ignored["a"] == {"a.py", "b.py", "c.py"} and made.ignored["d"] == {"d.py"}
