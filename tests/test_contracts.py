"""The import contracts follow what is installed: the games' independence contract in
``pyproject.toml`` names exactly the games the installed distribution registers (its
``arena`` entry points), so a new game cannot be left out of it."""

from __future__ import annotations

import tomllib
from importlib.metadata import distribution
from typing import Any

from support import REPO


def _pyproject() -> dict[str, Any]:
    return tomllib.loads((REPO / "pyproject.toml").read_text())


def _contract(name: str) -> dict[str, Any]:
    contracts = _pyproject()["tool"]["importlinter"]["contracts"]
    found = [c for c in contracts if c["name"] == name]
    assert len(found) == 1, f"no import-linter contract named {name!r} in pyproject.toml"
    return found[0]


def _installed_entry_points() -> dict[str, str]:
    """The ``arena`` entry points of the installed distribution (bot-arena): game name to
    plugin module."""
    dist = distribution(_pyproject()["project"]["name"])
    return {ep.name: ep.value for ep in dist.entry_points if ep.group == "arena"}


def _registered_games() -> set[str]:
    """The package of every plugin module the installed entry points name
    (``arena_games.stc.plugin`` is the game ``arena_games.stc``)."""
    modules = [value.partition(":")[0] for value in _installed_entry_points().values()]
    assert modules, "the installed bot-arena registers no game: reinstall it (pip install -e .)"
    return {".".join(module.split(".")[:2]) for module in modules}


def test_no_game_imports_another_names_every_installed_game_and_only_those():
    contract = _contract("No game imports another")
    assert contract["type"] == "independence"
    assert set(contract["modules"]) == _registered_games()
    assert len(contract["modules"]) == len(set(contract["modules"]))


def test_the_installed_entry_points_are_those_pyproject_declares():
    # The check above reads the installed distribution; an install older than the file
    # (a game added since `pip install -e .`) would make it read stale entry points.
    assert _installed_entry_points() == _pyproject()["project"]["entry-points"]["arena"]
