"""chess5 through the CLI: a tournament of per-turn processes, then the codeclash export."""

from __future__ import annotations

import json

from support import REPO, run_arena


def test_a_chess5_tournament_stores_games_that_export_to_the_original_log(tmp_path):
    out = tmp_path / "c5"
    result = run_arena("run", "tournaments/chess5.yaml", "--games", "1", "--output", str(out))
    assert result.returncode == 0, result.stderr
    exported = run_arena("export", "1", "--from", str(out), "--format", "codeclash")
    assert exported.returncode == 0, exported.stderr
    log = json.loads(exported.stdout)
    assert list(log) == list(
        json.loads((REPO / "tests/fixtures/chess5/server-match-log.json").read_text())
    )
    assert log["moves"] and all("stateAfter" in m for m in log["moves"])
    assert set(log["game_result"]) >= {"winner", "reason"}
    unknown = run_arena("export", "1", "--from", str(out), "--format", "pgn")
    assert unknown.returncode == 2
    assert "chess5 cannot export 'pgn' (formats: codeclash)" in unknown.stderr
