"""Does a plain JSON value have the shape of a LeetCode type? How is a type described in words?

Trees are LeetCode level-order lists (``None`` for a missing child), linked lists are value lists,
``X[]`` / ``list<X>`` are lists of ``X``. Used to check generated inputs before any solution sees
them (the build's test-case stage, the LLM path's validation) and to describe types in prompts.
"""

from __future__ import annotations

import math
from typing import Any

_INT_RANGE = {"integer": 31, "long": 63}  # LeetCode's integer is Java's int, long is long
_SCALARS = {"integer", "long", "double", "boolean", "string", "character"}
_NODES = {"TreeNode", "ListNode"}


def _element_type(t: str) -> str | None:
    """``X`` for ``X[]`` and ``list<X>``; None for a non-list type."""
    t = t.strip()
    if t.endswith("[]"):
        return t[:-2].strip()
    if t.startswith("list<") and t.endswith(">"):
        return t[5:-1].strip()
    return None


def supported_type(t: str) -> bool:
    inner = _element_type(t)
    if inner is not None:
        return supported_type(inner)
    return t.strip() in _SCALARS | _NODES


def describe_type(t: str) -> str:
    """The JSON form of a LeetCode type, in words (for the prompt)."""
    t = t.strip()
    inner = _element_type(t)
    if inner is not None:
        return f"a list, each element {describe_type(inner)}"
    return {
        "integer": "an int (32-bit signed)",
        "long": "an int (64-bit signed)",
        "double": "a float",
        "boolean": "a bool",
        "string": "a str",
        "character": "a one-character str",
        "TreeNode": "a level-order list of ints with None for missing children ([] for no tree)",
        "ListNode": "a list of ints, the node values from the head",
    }.get(t, f"a {t}")


def kind_of(value: Any) -> str:
    if value is None:
        return "None"
    if isinstance(value, list):
        return "list"
    return type(value).__name__


def _mismatch(value: Any, t: str, path: str) -> str | None:
    where = f" at {path}" if path else ""
    inner = _element_type(t)
    if inner is not None:
        if not isinstance(value, list):
            return f"expected {t}, got {kind_of(value)}{where}"
        for i, v in enumerate(value):
            m = _mismatch(v, inner, f"{path}[{i}]")
            if m:
                return m
        return None
    if t in _INT_RANGE:
        if not isinstance(value, int) or isinstance(value, bool):
            return f"expected {t}, got {kind_of(value)}{where}"
        bits = _INT_RANGE[t]
        if not -(2**bits) <= value < 2**bits:
            return f"expected {t}, got {value} (outside the {bits + 1}-bit range){where}"
        return None
    if t == "double":
        if isinstance(value, bool) or not isinstance(value, int | float):
            return f"expected double, got {kind_of(value)}{where}"
        if isinstance(value, float) and not math.isfinite(value):
            return f"expected double, got {value}{where}"
        return None
    if t == "boolean":
        return None if isinstance(value, bool) else f"expected boolean, got {kind_of(value)}{where}"
    if t == "string":
        return None if isinstance(value, str) else f"expected string, got {kind_of(value)}{where}"
    if t == "character":
        if isinstance(value, str) and len(value) == 1:
            return None
        got = f"a str of length {len(value)}" if isinstance(value, str) else kind_of(value)
        return f"expected character, got {got}{where}"
    if t == "ListNode":
        if not isinstance(value, list):
            return f"expected ListNode (a list of ints), got {kind_of(value)}{where}"
        for i, v in enumerate(value):
            if not isinstance(v, int) or isinstance(v, bool):
                return f"expected ListNode (a list of ints), got {kind_of(v)}{where}[{i}]"
        return None
    if t == "TreeNode":
        if not isinstance(value, list):
            return f"expected TreeNode (a level-order list), got {kind_of(value)}{where}"
        for i, v in enumerate(value):
            if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
                return f"expected TreeNode (ints and None), got {kind_of(v)}{where}[{i}]"
        if value and value[0] is None:
            return f"expected TreeNode, got a level-order list starting with None{where}"
        return None
    return f"unsupported LeetCode type {t!r}"


def conforms(value: Any, leetcode_type: str) -> str | None:
    """None when ``value`` (plain JSON data) has the shape of ``leetcode_type``, else the mismatch.

    integer/long: int (not bool) within 32/64 bits; double: int or finite float; boolean: bool;
    string: str; character: one-character str; ``X[]`` / ``list<X>``: a list of X; TreeNode: a
    level-order list of ints and None, empty or with a non-None root; ListNode: a list of ints.
    """
    return _mismatch(value, leetcode_type.strip(), "")
