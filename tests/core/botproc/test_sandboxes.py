"""The sandbox backends: one registry names them, the tournament key offers exactly them
(and ``auto``), and no code outside the backends tests a sandbox's kind."""

from __future__ import annotations

import pickle
import re

from arena.botproc import Sandbox, backend_of, resolve_sandbox
from arena.botproc.sandboxes.registry import BACKENDS, KINDS
from arena.limits import SANDBOXES
from support import REPO


def test_the_tournament_key_offers_auto_and_every_registered_backend():
    assert set(KINDS) == set(SANDBOXES) == {"auto", *BACKENDS}
    for kind, backend in BACKENDS.items():
        assert backend.kind == kind
        assert backend_of(Sandbox(kind)) is backend


def test_no_code_outside_the_backends_tests_a_sandbox_kind():
    kinds = "|".join(BACKENDS)
    test = re.compile(rf"""kind\s*[!=]=\s*["']({kinds})["']|["']({kinds})["']\s*[!=]=\s*\w*kind""")
    found = [
        f"{path.relative_to(REPO)}:{n}"
        for path in sorted((REPO / "framework" / "arena").rglob("*.py"))
        if "sandboxes" not in path.parts
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if test.search(line)
    ]
    assert found == []


def test_a_resolved_sandbox_carries_its_backends_probe_to_a_worker():
    sandbox = resolve_sandbox("none")
    again = pickle.loads(pickle.dumps(sandbox))
    assert again == sandbox and again.facts is not None
    assert again.facts.probe[0] == "none"
    assert backend_of(again) is BACKENDS["none"]
