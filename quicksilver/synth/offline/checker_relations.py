"""The checker's part for relations between two lists item by item (the spec's ``zips``,
:mod:`.relations`): code of its own, independent of the runtime's ``_zip``. A module apart so
that checker.py stays within the size a module may have."""

from __future__ import annotations

from typing import Any


def check_zips(spec: dict[str, Any], args: list[Any]) -> list[str]:
    """Each ``[a, b, op]`` of ``spec["zips"]``: ``a`` and ``b`` have one length and ``a[i] op
    b[i]`` at every index (``<``, ``<=`` on numbers, ``!=`` on any values)."""
    names = [p["name"] for p in spec.get("params", [])]
    out: list[str] = []
    for a, b, op in spec.get("zips", ()):
        xs, ys = args[names.index(a)], args[names.index(b)]
        if not isinstance(xs, list | str) or not isinstance(ys, list | str):
            continue  # the shape was reported with the lengths
        if len(xs) != len(ys):
            out.append(f"{a}.length = {len(xs)} but {b}.length = {len(ys)} ({a}[i] {op} {b}[i])")
            continue
        bad = []
        for i, (x, y) in enumerate(zip(xs, ys, strict=True)):
            if op == "!=":
                holds = x != y
            elif isinstance(x, int | float) and isinstance(y, int | float):
                holds = x < y if op == "<" else x <= y
            else:
                holds = False
            if not holds:
                bad.append(f"{a}[{i}] = {x!r}, {b}[{i}] = {y!r} breaks {a}[i] {op} {b}[i]")
        out += bad[:3] + ([f"... {len(bad) - 3} more such indexes"] if len(bad) > 3 else [])
    return out
