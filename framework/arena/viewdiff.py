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
import operator
from collections.abc import Iterable
from typing import Any

Patch = list[list[Any]]

_MISSING = object()
"""A dict key's old value where the old dict lacks the key."""


def normalize(view: Any) -> Any:
    """The view as JSON will store it (tuples become lists, keys strings)."""
    return json.loads(json.dumps(view))


def diff(old: Any, new: Any) -> Patch:
    """The operations turning ``old`` into ``new`` (both normalized JSON values)."""
    ops: Patch = []
    _diff(old, new, [], ops)
    return ops


def _diff(old: Any, new: Any, path: list[Any], ops: Patch) -> None:
    """Append to ``ops`` what turns ``old`` into ``new`` at ``path``.

    The item rule, here and in the helpers below: a value of another type, or unequal,
    is set; two unequal containers of one kind are walked; two equal ones written apart
    (``[1]`` and ``[True]``) are set whole.
    """
    kind = type(new)
    if type(old) is not kind or (kind is not list and kind is not dict):
        # 1 == 1.0 == True in Python; JSON keeps them apart.
        if type(old) is not kind or old != new:
            ops.append([path, new])
        return
    if old == new:
        # Equal yet written differently: True where 1 was, somewhere inside. For equal
        # JSON values repr tells exactly what JSON would (and costs one C call).
        if repr(old) != repr(new):
            ops.append([path, new])
        return
    (_dict_changes if kind is dict else _list_changes)(old, new, path, ops)


def _dict_changes(old: dict[str, Any], new: dict[str, Any], path: list[Any], ops: Patch) -> None:
    """:func:`_diff` of two unequal dicts."""
    for key in old:
        if key not in new:
            ops.append([[*path, key]])
    _item_changes(((key, old.get(key, _MISSING), value) for key, value in new.items()), path, ops)


def _list_changes(old: list[Any], new: list[Any], path: list[Any], ops: Patch) -> None:
    """:func:`_diff` of two unequal lists."""
    n = len(old)
    m = len(new)
    if m < n:  # a list that shrank is stored whole
        ops.append([path, new])
        return
    head = new
    if m > n:
        head = new[:n]
        if old == head:  # only appended to
            if repr(old) != repr(head):
                ops.append([path, new])
            else:
                ops.extend([[*path, i], new[i]] for i in range(n, m))
            return
    # A list whose items mostly changed (a queue that moved on) is stored whole.
    if n > 2 and 2 * sum(map(operator.ne, old, head)) > n:
        ops.append([path, new])
        return
    _item_changes(zip(range(n), old, head, strict=True), path, ops)
    if m > n:
        ops.extend([[*path, i], new[i]] for i in range(n, m))


def _item_changes(items: Iterable[tuple[Any, Any, Any]], path: list[Any], ops: Patch) -> None:
    """The item rule of :func:`_diff` for each (key or index, old value, new value) of two
    containers, in order; an old value :data:`_MISSING` (a key added) is set. (A plain
    loop over all items: for short containers cheaper than any trick in C that would skip
    the equal ones.)"""
    for key, was, value in items:
        kind = type(value)
        if type(was) is not kind:
            ops.append([[*path, key], value])
        elif kind is list or kind is dict:
            if was != value:
                (_list_changes if kind is list else _dict_changes)(was, value, [*path, key], ops)
            elif repr(was) != repr(value):  # equal, written apart: set whole
                ops.append([[*path, key], value])
        elif was != value:
            ops.append([[*path, key], value])


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


def _unencodable(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


_py_encode = json.JSONEncoder(separators=(",", ":")).encode
_c_encoder = getattr(json.encoder, "c_make_encoder", None)
# The C encoder json.dumps uses, made once (dumps makes one per call): the same text.
_chunks = (
    _c_encoder(
        None,
        _unencodable,
        json.encoder.encode_basestring_ascii,
        None,
        ":",
        ",",
        False,
        False,
        True,
    )
    if _c_encoder is not None
    else lambda value, _indent: (_py_encode(value),)
)


# json.loads less its look at the text around the value (none in what _encode writes).
_scan = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


def _encode(value: Any) -> str:
    """``value`` as compact JSON text."""
    return "".join(_chunks(value, 0))


class ViewRecorder:
    """Keeps the latest normalized view and gives each new view's patch against it.

    The same patches as :func:`diff` of :func:`normalize`'d views, cheaper for the usual
    view, a dict: each top-level value is encoded as JSON (in C), and only the values
    whose text changed are decoded and compared; a value whose text is the same is the
    same normalized value, with nothing to patch. (NaN, which JSON lacks, is the one
    exception: ``nan != nan``, so :func:`diff` sets it again at every step.)
    """

    def __init__(self, view: Any) -> None:
        self.view = normalize(view)
        self._texts: dict[str, str] | None = None
        if type(self.view) is dict and type(view) is dict:
            self._texts = {str(k): _encode(v) for k, v in view.items()}

    def record(self, view: Any) -> Patch:
        """The patch from the latest view to ``view``, which becomes the latest."""
        old, texts = self.view, self._texts
        if texts is None or type(view) is not dict:
            return self._record_whole(view)
        # _encode inlined, and its text read back as json.loads reads it.
        join, chunks, scan = "".join, _chunks, _scan
        ops: Patch = []
        new: dict[str, Any] = {}
        new_texts: dict[str, str] = {}
        kept = 0  # keys of the old view still there
        # diff first compares the whole views: if Python finds them equal (nothing changed,
        # or only what JSON tells apart and Python does not: 1 and True, key order), its
        # patch is nothing or the whole view. ``unequal`` says Python tells them apart.
        unequal = False
        for key, value in view.items():
            if type(key) is not str:  # JSON makes it a string: two keys may become one
                return self._record_whole(view)
            text = new_texts[key] = join(chunks(value, 0))
            if texts.get(key) == text:  # the same normalized value: nothing to patch
                new[key] = old[key]
                kept += 1
                continue
            value = new[key] = scan(text, 0)[0]
            was = old.get(key, _MISSING)
            if was is _MISSING:
                ops.append([[key], value])
                unequal = True
                continue
            kept += 1
            # The item rule (see _diff). The texts differ, yet the values may be the same:
            # a nested {1: ..., "1": ...} is written with a key twice, read with it once.
            kind = type(value)
            if type(was) is not kind:
                ops.append([[key], value])
                unequal = unequal or was != value
            elif kind is list or kind is dict:
                if was != value:
                    unequal = True
                    (_dict_changes if kind is dict else _list_changes)(was, value, [key], ops)
                elif repr(was) != repr(value):
                    ops.append([[key], value])
            elif was != value:
                ops.append([[key], value])
                unequal = True
            # else: equal scalars of one type written apart (0.0, -0.0): _diff sets nothing
        if kept < len(old):  # keys removed: diff deletes them first
            ops[:0] = [[[key]] for key in old if key not in new]
            unequal = True
        self.view, self._texts = new, new_texts
        if not unequal:
            if new_texts == texts and list(old) == list(new):
                return []  # the same text: the same view
            return [[[], new]] if repr(old) != repr(new) else []
        return ops

    def _record_whole(self, view: Any) -> Patch:
        """:meth:`record` for a view that is no dict of str keys, or after one."""
        old = self.view
        whole = self.view = normalize(view)
        self._texts = None
        if type(whole) is dict and type(view) is dict and _plain_keys(view):
            self._texts = {k: _encode(v) for k, v in view.items()}
        return diff(old, whole)


def _plain_keys(view: dict[Any, Any]) -> bool:
    """Every key a str (JSON keeps the others as strings: two keys may become one)."""
    return all(type(k) is str for k in view)
