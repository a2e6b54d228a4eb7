"""Documentation promises: every hook documented, every public function with a docstring."""

from __future__ import annotations

import ast
import inspect

from arena import hookspecs
from conftest import REPO


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
