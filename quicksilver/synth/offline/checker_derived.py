"""The checker's part for bounds by a count derived from another input (:mod:`.derived_counts`):
the count computed from the input with code of its own, independent of the runtime's
``_derived_count``, and the scalar compared with it."""

from __future__ import annotations

from typing import Any


def check_counts(spec: dict[str, Any], args: list[Any]) -> list[str]:
    """A list's ``"same_digits"`` (every item one count of decimal digits) and each scalar's
    ``"below_count"``: at most the count of the other argument plus ``add``."""
    params = spec.get("params", [])
    names = [p["name"] for p in params]
    out: list[str] = []
    for p, arg in zip(params, args, strict=False):
        if p.get("same_digits") and isinstance(arg, list):
            widths = sorted({len(str(abs(x))) for x in arg if isinstance(x, int)})
            if len(widths) > 1:
                out.append(f"{p['name']}: items of {widths} digits, not one number of digits")
        rule = p.get("below_count")
        if not rule or rule["of"] not in names or not isinstance(arg, int):
            continue
        count = _count(rule["count"], args[names.index(rule["of"])])
        if count is None:
            continue  # the other argument's shape was reported with its values
        top = count + rule["add"]
        if arg > top:
            out.append(
                f"{p['name']} = {arg} breaks {p['name']} <= the {rule['count']} count of "
                f"{rule['of']} ({count}) + {rule['add']}"
            )
    return out


def _count(kind: str, other: Any) -> int | None:
    """The distinct items of a list, the words of a string, the digits of an integer, or the
    depth of a level-order tree (the root at depth 1); None when ``other`` has another shape."""
    if kind == "unique" and isinstance(other, list):
        return len({repr(x) for x in other})
    if kind == "words" and isinstance(other, str):
        return len(other.split())
    if kind == "digits" and isinstance(other, int) and other >= 0:
        return len(str(other))
    if kind == "depth" and isinstance(other, list):
        return _depth(other)
    return None


def _depth(level_order: list[Any]) -> int:
    """The number of levels of a LeetCode level-order list: each present node takes the next
    two slots as its children, level by level."""
    if not level_order or level_order[0] is None:
        return 0
    levels, current, slot = 0, 1, 1
    while current:
        levels += 1
        children = 0
        for _ in range(2 * current):
            if slot < len(level_order) and level_order[slot] is not None:
                children += 1
            slot += 1
        current = children
    return levels
