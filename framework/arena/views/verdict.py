"""A candidate's verdict shown: terminal lines, a markdown summary for CI, the JSON file.

The figures come from :class:`arena.results.verdict.CandidateVerdict`; this module only
lays them out. The markdown summary is what GitHub Actions shows on a run's page when it
is appended to the file named by ``GITHUB_STEP_SUMMARY``.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

from arena.results.verdict import CandidateVerdict, SequentialTest, VerdictTests
from arena.text import shown_line

HEADLINES = {
    "better": "better",
    "not worse": "not worse (not shown better)",
    "worse": "worse",
    "inconclusive": "inconclusive (the game limit came first)",
}
"""How each answer reads in a headline."""


def _elo(tests: VerdictTests) -> str:
    estimate = tests.pentanomial.estimate()
    if math.isnan(estimate.elo):
        return "-"
    if math.isinf(estimate.elo) or math.isinf(estimate.elo_error):
        return f"{estimate.elo_low:+.0f} to {estimate.elo_high:+.0f}"
    return f"{estimate.elo:+.1f} ±{estimate.elo_error:.1f}"


def _llr(state: SequentialTest) -> str:
    return f"{state.llr:+.2f}" + (f" ({state.decision})" if state.decision else "")


def _rows(verdict: CandidateVerdict) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    for name, tests in [*verdict.per_opponent.items(), ("pooled", verdict.pooled)]:
        rows.append(
            (
                shown_line(name),
                str(tests.pentanomial.pairs),
                str(tests.pentanomial.counts),
                _elo(tests),
                _llr(tests.better),
                _llr(tests.not_worse),
                tests.answer,
            )
        )
    return rows


HEADER = ("against", "pairs", "pentanomial", "Elo ±95%", "LLR better", "LLR not worse", "answer")


def verdict_lines(verdict: CandidateVerdict, passed: bool) -> list[str]:
    """The verdict as the terminal shows it: a headline, the rule and one row per opponent."""
    rows = [HEADER, *_rows(verdict)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(HEADER))]
    table = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)) for r in rows]
    gate = "passed" if passed else "failed"
    return [
        f"verdict: {shown_line(verdict.candidate)} is {HEADLINES[verdict.answer]}: {gate}",
        f"rule: {verdict.rule.describe()}",
        *(line.rstrip() for line in table),
    ]


def _markdown_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("`", "'")


def verdict_markdown(verdict: CandidateVerdict, passed: bool) -> str:
    """The verdict as a markdown summary (a heading, the rule, a table)."""
    mark = "passed" if passed else "failed"
    lines = [
        f"### arena check: `{_markdown_cell(shown_line(verdict.candidate))}` is "
        f"{HEADLINES[verdict.answer]} ({mark})",
        "",
        f"{verdict.pairs} pairs of seat-swapped games against {len(verdict.pool)} bots; "
        f"rule: {verdict.rule.describe()}.",
        "",
        "| " + " | ".join(HEADER) + " |",
        "|" + "---|" * len(HEADER),
    ]
    for row in _rows(verdict):
        lines.append("| " + " | ".join(_markdown_cell(c) for c in row) + " |")
    return "\n".join(lines) + "\n"


def write_verdict_files(
    verdict: CandidateVerdict, passed: bool, json_path: Path | None
) -> list[Path]:
    """Write the JSON verdict (when asked) and append the markdown summary to the file
    ``GITHUB_STEP_SUMMARY`` names (when set); the files written."""
    written = []
    if json_path is not None:
        data = {**verdict.to_dict(), "passed": passed}
        json_path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        written.append(json_path)
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        with open(summary, "a", encoding="utf-8") as out:
            out.write(verdict_markdown(verdict, passed))
        written.append(Path(summary))
    return written
