"""Documentation promises: every hook documented, every public function with a docstring."""

from __future__ import annotations

import ast
import inspect

from arena.plugins import hookspecs
from support import REPO


def test_every_hook_has_a_docstring_and_is_described_in_the_architecture_doc():
    doc = (REPO / "docs" / "architecture.md").read_text()
    hooks = [
        n for n, f in inspect.getmembers(hookspecs, inspect.isfunction) if n.startswith("arena_")
    ]
    assert hooks
    for name in hooks:
        assert getattr(hookspecs, name).__doc__, f"hook {name} has no docstring"
        assert name in doc, f"hook {name} is not described in docs/architecture.md"


def _undocumented(path) -> list[str]:
    tree = ast.parse(path.read_text())
    missing = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                public = not child.name.startswith("_")
                # Overrides of a documented base method inherit its docstring.
                inherited = bool(prefix) and child.name in OVERRIDES
                if public and not inherited and ast.get_docstring(child) is None:
                    missing.append(f"{path.relative_to(REPO)}:{child.lineno} {prefix}{child.name}")
                if isinstance(child, ast.ClassDef) and public:
                    visit(child, f"{child.name}.")

    visit(tree, "")
    return missing


OVERRIDES = {
    "start", "to_act", "prompt", "interpret", "apply", "eliminate", "outcome",
    "random_answer", "clock_ms", "view", "render", "turn_number", "export",
    "check_settings",
}  # fmt: skip


def test_every_public_function_and_class_of_the_core_and_games_has_a_docstring():
    missing = []
    for folder in ("framework", "games"):
        for path in sorted((REPO / folder).rglob("*.py")):
            missing += _undocumented(path)
    assert missing == []


def test_games_use_only_the_public_names_of_arena_and_never_each_other():
    for path in sorted((REPO / "games").rglob("*.py")):
        game = path.parent.name
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                module = node.module
            elif isinstance(node, ast.Import):
                module = node.names[0].name
            else:
                continue
            assert not module.startswith("arena."), (
                f"{path}: imports {module}; use `from arena import`"
            )
            if module.startswith("arena_games."):
                assert module.split(".")[1] == game, f"{path}: imports another game ({module})"


def test_the_core_never_imports_games():
    for path in sorted((REPO / "framework").rglob("*.py")):
        assert "arena_games" not in path.read_text(), path


PLUGINS_DOC = REPO / "docs" / "plugins.md"


def test_every_public_name_a_plugin_needs_is_exported_and_documented_in_the_plugin_guide():
    import arena
    import arena.testing
    from arena.game import Game

    doc = PLUGINS_DOC.read_text()
    for name in arena.__all__:
        assert hasattr(arena, name), f"arena.__all__ names {name}, which arena lacks"
        assert f"`{name}`" in doc or f"**`{name}`**" in doc, f"{name} is not in docs/plugins.md"
    methods = [n for n in vars(Game) if not n.startswith("_")]
    assert {"check_settings", "moves_after_forfeit", "start", "export"} <= set(methods)
    for name in methods:
        assert f"`{name}" in doc, f"Game.{name} is not in the contract reference"
    for name, _ in inspect.getmembers(hookspecs, inspect.isfunction):
        if name.startswith("arena_"):
            assert name in doc, f"hook {name} is not in docs/plugins.md"
    kit = [
        n
        for n, f in inspect.getmembers(arena.testing, inspect.isfunction)
        if f.__module__ == "arena.testing" and not n.startswith("_")
    ]
    assert "check_game" in kit
    for name in kit:
        assert f"`{name}(" in doc, f"arena.testing.{name} is not in docs/plugins.md"


def test_the_plugin_guides_minimal_game_passes_the_conformance_kit():
    from arena.testing import check_game

    text = PLUGINS_DOC.read_text()
    block = text.split("A minimal game, to read before the reference:")[1]
    code = block.split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict = {}
    exec(compile(code, str(PLUGINS_DOC), "exec"), namespace)
    check_game(namespace["Sticks"], bad_settings=[{"sticks": 0}, {"sticks": 10**12}])


def test_every_command_is_in_the_readme_commands_table():
    from arena.cli.main import _parser

    readme = (REPO / "README.md").read_text()
    sub = next(a for a in _parser()._actions if a.dest == "command")
    for name in sub.choices:
        assert f"| `arena {name}" in readme, f"arena {name} is missing from README's commands"


# -- the README is a front door; the manual lives in docs/ ---------------------------------

DOCS = REPO / "docs"
README_LIMIT = 10_000  # bytes: the README stays a front door, the manual lives in docs/


def _section(doc: str, heading: str) -> str:
    """The text under the markdown ``heading`` line, up to the next heading of its level."""
    level = heading.split(" ", 1)[0]
    lines = doc.splitlines()
    start = lines.index(heading)
    end = next(
        (i for i in range(start + 1, len(lines)) if lines[i].split(" ", 1)[0] == level),
        len(lines),
    )
    return "\n".join(lines[start + 1 : end])


def test_the_readme_is_at_most_10_kb_and_links_every_doc():
    readme = (REPO / "README.md").read_text()
    assert len(readme.encode()) <= README_LIMIT, "README.md grew past 10 KB: move text to docs/"
    docs = [p.relative_to(REPO).as_posix() for p in sorted(DOCS.glob("*.md"))]
    assert "docs/tournaments.md" in docs
    for target in [*docs, "bench/README.md"]:
        assert f"]({target})" in readme, f"README.md does not link {target}"


def test_every_tournament_key_is_documented_in_the_tournaments_doc():
    from arena.tournament.config import BOT_KEYS, SPRT_KEYS
    from arena.tournament.keys import KEYS

    doc = (DOCS / "tournaments.md").read_text()
    keys = _section(doc, "## Every key")
    assert {"game", "bots", "clock_scale"} <= set(KEYS)
    for key in KEYS:
        assert f"| `{key}` |" in keys, f"tournament key {key} is not in docs/tournaments.md"
    for key in (*SPRT_KEYS, *BOT_KEYS):  # sprt's and each bot's own keys
        assert f"`{key}`" in keys, f"tournament key {key} is not in docs/tournaments.md"


def _options() -> dict[str, list[str]]:
    """Every option string of every ``arena`` subcommand (``--games``, ``-j``...)."""
    from arena.cli.main import _parser

    sub = next(a for a in _parser()._actions if a.dest == "command")
    return {
        name: [
            option
            for action in parser._actions
            for option in action.option_strings
            if option not in ("-h", "--help")
        ]
        for name, parser in sub.choices.items()
    }


def test_every_cli_option_of_every_command_is_documented_in_the_cli_doc():
    from arena.cli.main import _parser

    doc = (DOCS / "cli.md").read_text()
    options = _options()
    assert "--fresh" in options["run"] and "-j" in options["match"]
    for command, strings in options.items():
        assert f"## arena {command}" in doc.splitlines(), f"docs/cli.md has no arena {command}"
        section = _section(doc, f"## arena {command}")
        for option in strings:
            # Each option opens an item of its command's list: "- `--games N`: ...".
            assert f"`{option}" in section, f"arena {command} {option} is not in docs/cli.md"
    for action in _parser()._actions:  # arena's own options (--version)
        for option in action.option_strings:
            assert f"`arena {option}`" in (REPO / "README.md").read_text() + doc, option


def _sample_leaderboard():
    """A leaderboard that prints every column: several settings variants, games of three
    players (average rank), forfeits, late answers, response times, an SPRT."""
    from arena.results.leaderboard import ClockOptions, Timing
    from arena.results.rating import Counts, Pairwise, rate
    from arena.results.stats import Moments, Pentanomial, Sprt
    from arena.views.leaderboard import ShownLeaderboard

    counts = Counts()

    def bot(name: str, wins: int) -> None:
        scores = Moments.of([1.0, 2.0, 3.0])
        s = counts.bot(name)
        s.games, s.wins, s.draws, s.losses, s.rank_sum = 3, wins, 1, 2 - wins, 2.0
        s.scores, s.variant_scores = scores, {"VARIANT": scores}

    bot("a", 2)
    bot("b", 0)
    ptnml = Pentanomial([0, 1, 1, 0, 1])
    counts.pairs = {("a", "b"): Pairwise(2, 1, 0), ("b", "a"): Pairwise(0, 1, 2)}
    counts.add_pentanomial("a", "b", ptnml)
    counts.finish()
    stats = rate(counts, {"trueskill": {"a": [25.0, 5.0]}})
    pairs = counts.pairs
    return ShownLeaderboard(
        "sample",
        stats,
        pairs,
        multiplayer=True,
        sprt=Sprt(0.0, 5.0).result("a", "b", ptnml),
        timing={"a": Timing.of([1.0, 2.0, 30.0], late=1)},
        clock=ClockOptions(50, 1.5),
    )


def _markdown_headers(text: str) -> list[str]:
    """The header cells of every markdown table in ``text``."""
    import itertools

    headers = []
    for line, below in itertools.pairwise(text.splitlines()):
        if line.startswith("|") and below.startswith("|-"):
            headers += [cell.strip() for cell in line.strip("|").split("|")]
    return headers


def test_every_leaderboard_column_is_documented_in_the_leaderboard_doc():
    import csv
    import io
    import json

    board = _sample_leaderboard()
    bots = {s.name for s in board.stats}
    columns = [h for h in _markdown_headers(board.render("markdown")) if h and h not in bots]
    csv_header = next(csv.reader(io.StringIO(board.render("csv"))))
    data = json.loads(board.render("json"))
    keys = [*data, *data["leaderboard"][0], *data["pairwise"][0], *data["sprt"]]
    # The sample prints every optional column.
    for name in ("score VARIANT", "avg rank", "ms p50/p99/max", "nElo ±95%", "ptnml"):
        assert name in columns
    assert {"score_ci VARIANT", "avg_rank", "late", "p99_ms", "illegal"} <= set(csv_header)
    doc = (DOCS / "leaderboard.md").read_text()
    for name in [*columns, *csv_header, *keys]:
        assert f"`{name}`" in doc, f"leaderboard column {name!r} is not in docs/leaderboard.md"


def _anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = heading.strip().lower()
    kept = "".join(c for c in text if c.isalnum() or c in " -_")
    return kept.replace(" ", "-")


def test_every_relative_link_of_the_docs_points_to_a_file_and_heading_that_exist():
    import re

    pages = [REPO / "README.md", REPO / "bench" / "README.md", *sorted(DOCS.glob("*.md"))]
    for page in pages:
        text = page.read_text()
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if "://" in target:
                continue
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            assert file.exists(), f"{page.relative_to(REPO)}: link to a missing {target}"
            if anchor and file.suffix == ".md":
                headings = re.findall(r"^#+ (.+)$", file.read_text(), flags=re.MULTILINE)
                anchors = {_anchor(h) for h in headings}
                assert anchor in anchors, f"{page.relative_to(REPO)}: no heading for {target}"
