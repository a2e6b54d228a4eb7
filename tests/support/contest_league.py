"""A small contest's league folder, played for real: what the contest server leaves in
its output folder (``tournament.yaml`` with the bosses, ``roster.json`` with the
participants' versions, each with its owner), for the final's and the export's tests."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from support import run_arena, stc_cycler


def contest_league(tmp_path: Path, games: int = 6) -> Path:
    """``tmp_path/contest``: a league of a boss (no owner) and five versions of three
    owners (``ann-v1`` retired), ``games`` played; its folder."""
    bots = tmp_path / "bots"
    bots.mkdir()
    for width in (2, 3, 4, 5, 6, 7):
        (bots / f"w{width}.py").write_text(stc_cycler(width))
    out = tmp_path / "contest"
    out.mkdir()
    (out / "tournament.yaml").write_text(
        textwrap.dedent(f"""\
        name: club
        game: stc
        format: contest
        games: {games}
        seed: 7
        sandbox: none
        concurrency: 1
        settings:
          max_turns: 12
        bots:
          - {{name: boss, cmd: python3 {bots / "w6.py"}}}
        output: {out}
        """)
    )
    added = [
        {"name": "ann-v1", "cmd": f"python3 {bots / 'w3.py'}", "owner": "ann"},
        {"name": "ann-v2", "cmd": f"python3 {bots / 'w4.py'}", "owner": "ann"},
        {"name": "ann-v3", "cmd": f"python3 {bots / 'w2.py'}", "owner": "ann"},
        {"name": "bob-v1", "cmd": f"python3 {bots / 'w5.py'}", "owner": "bob"},
        {"name": "=cat-v1", "cmd": f"python3 {bots / 'w7.py'}", "owner": "cat"},
    ]
    (out / "roster.json").write_text(json.dumps({"added": added, "retired": ["ann-v1"]}))
    played = run_arena("run", str(out / "tournament.yaml"), "--no-progress")
    assert played.returncode == 0, played.stderr
    return out
