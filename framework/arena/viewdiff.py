"""Compact per-step views: each step stores only what changed in the game's view.

A patch is a list of operations on a JSON value, applied in order:

- ``[path, value]`` sets the value at ``path`` (a list of dict keys and list indices;
  the empty path replaces the whole view; an index one past a list's end appends);
- ``[path]`` deletes the dict key at ``path``.

Lists that shrink are replaced whole. The viewer's JavaScript applies the same patches
(``arena/static/viewer.js``), so both sides read one format.
"""

from __future__ import annotations

import copy
import json
from typing import Any

Patch = list[list[Any]]


def normalize(view: Any) -> Any:
    """The view as JSON will store it (tuples become lists, keys strings)."""
    return json.loads(json.dumps(view))


def diff(old: Any, new: Any) -> Patch:
    """The operations turning ``old`` into ``new`` (both normalized JSON values)."""
    ops: Patch = []
    _diff(old, new, [], ops)
    return ops


def _same(a: Any, b: Any) -> bool:
    # 1 == 1.0 == True in Python, also deep inside lists and dicts; JSON keeps them apart.
    if type(a) is not type(b) or a != b:
        return False
    return not isinstance(a, list | dict) or json.dumps(a) == json.dumps(b)


def _diff(old: Any, new: Any, path: list[Any], ops: Patch) -> None:
    if _same(old, new):
        return
    mine: Patch = []
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old:
            if key not in new:
                mine.append([[*path, key]])
        for key, value in new.items():
            if key in old:
                _diff(old[key], value, [*path, key], mine)
            else:
                mine.append([[*path, key], value])
    elif isinstance(old, list) and isinstance(new, list) and len(new) >= len(old):
        for i, value in enumerate(new):
            if i < len(old):
                _diff(old[i], value, [*path, i], mine)
            else:
                mine.append([[*path, i], value])
    else:
        ops.append([path, new])
        return
    # Many small changes (e.g. a list whose items shifted) can outweigh the value itself.
    if len(mine) > 1 and _size(mine) > _size(new) + 8 * len(path) + 8:
        ops.append([path, new])
    else:
        ops.extend(mine)


def _size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":")))


def patch(view: Any, ops: Patch) -> Any:
    """Apply ``ops`` to a copy of ``view`` and return it."""
    view = copy.deepcopy(view)
    for op in ops:
        path = op[0]
        if not path:
            view = copy.deepcopy(op[1])
            continue
        target = view
        for key in path[:-1]:
            target = target[key]
        last = path[-1]
        if len(op) == 1:
            del target[last]
        elif isinstance(target, list) and last == len(target):
            target.append(copy.deepcopy(op[1]))
        else:
            target[last] = copy.deepcopy(op[1])
    return view
