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
