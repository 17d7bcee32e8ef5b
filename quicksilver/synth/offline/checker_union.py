"""The checker's part for value sets that are unions of listed values and ranges (a leaf's
``"union"``, :mod:`.unions`): code of its own, independent of the runtime's ``_draw_union``; a
module apart so that checker.py stays within the size a module may have."""

from __future__ import annotations

from typing import Any


def union_problem(leaf: dict[str, Any], x: Any) -> str | None:
    """Why the integer ``x`` lies in none of the leaf's parts (a few words), or None (no
    ``union`` key: nothing to check)."""
    parts = leaf.get("union")
    if not parts or any(a <= x <= b for a, b in parts):
        return None
    shown = ", ".join(str(a) if a == b else f"[{a}, {b}]" for a, b in parts)
    return f"is in none of the parts of its union ({shown})"
