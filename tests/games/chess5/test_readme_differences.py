"""chess5's README lists what arena does that the real server was not seen to do: the
forfeit for capturing a shielded piece among them (RULINGS, chess5, 2026-12-01)."""

from __future__ import annotations

from support import REPO


def test_the_shielded_capture_forfeit_is_listed_as_unconfirmed():
    readme = (REPO / "games" / "arena_games" / "chess5" / "README.md").read_text()
    differences = readme.split("## Differences from the original server", 1)[1]
    differences = differences.split("\n## ", 1)[0]
    item = next(p for p in differences.split("\n- ") if p.startswith("**Capturing a shielded"))
    assert "illegal move" in item and "not confirmed" in item
