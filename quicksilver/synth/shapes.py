"""Does a plain JSON value have the shape of a LeetCode type? (inputs a generator produced)

Trees are LeetCode level-order lists (``None`` for a missing child), linked lists are value lists,
``X[]`` / ``list<X>`` are lists of ``X``. Used to reject generated inputs before any solution sees
them.
"""

from __future__ import annotations

from typing import Any

_SCALARS = {
    "integer": lambda v: type(v) is int,
    "long": lambda v: type(v) is int,
    "double": lambda v: type(v) in (int, float),
    "boolean": lambda v: type(v) is bool,
    "string": lambda v: type(v) is str,
    "character": lambda v: type(v) is str and len(v) == 1,
}


def _inner(t: str) -> str | None:
    t = t.strip()
    if t.endswith("[]"):
        return t[:-2]
    if t.startswith("list<") and t.endswith(">"):
        return t[5:-1]
    return None


def conforms(value: Any, leetcode_type: str, _path: str = "") -> str | None:
    """None when ``value`` fits ``leetcode_type``; otherwise what does not fit, with its path."""
    t = leetcode_type.strip()
    where = _path or "value"
    inner = _inner(t)
    if inner is not None:
        if not isinstance(value, list):
            return f"{where}: expected {t}, got {type(value).__name__}"
        for i, v in enumerate(value):
            problem = conforms(v, inner, f"{where}[{i}]")
            if problem:
                return problem
        return None
    if t == "TreeNode":
        if not isinstance(value, list):
            return f"{where}: expected a TreeNode level-order list, got {type(value).__name__}"
        if value and value[0] is None:
            return f"{where}: a tree's level-order list cannot start with null"
        for i, v in enumerate(value):
            if v is not None and type(v) is not int:
                return f"{where}[{i}]: tree values must be integers, got {type(v).__name__}"
        return None
    if t == "ListNode":
        if not isinstance(value, list):
            return f"{where}: expected a ListNode value list, got {type(value).__name__}"
        for i, v in enumerate(value):
            if type(v) is not int:
                return f"{where}[{i}]: list values must be integers, got {type(v).__name__}"
        return None
    check = _SCALARS.get(t)
    if check is None:
        return f"{where}: unsupported type {t}"
    if not check(value):
        shown = repr(value)[:40]
        return f"{where}: expected {t}, got {type(value).__name__} {shown}"
    return None
