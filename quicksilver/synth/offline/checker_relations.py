"""The checker's part for relations between items: two lists item by item (the spec's
``zips``, :mod:`.relations`) and a bound by the index (``below_index``). Code of its own,
independent of the runtime's ``_zip`` and ``_below_index``; a module apart so that checker.py
stays within the size a module may have."""

from __future__ import annotations

from typing import Any

from quicksilver.synth.offline.checker_rows import check_row_fields


def check_relations(spec: dict[str, Any], args: list[Any]) -> list[str]:
    """The relations between items this module checks: ``zips``, and ``below_index``."""
    out = check_zips(spec, args) + check_row_fields(spec, args)  # fields of rows: checker_rows
    for p, arg in zip(spec.get("params", []), args, strict=False):
        if ("sorted_col" in p or "apart_cols" in p) and isinstance(arg, list):
            out += _check_row_order(p, arg)
        k = p.get("below_index")
        if k is None or not isinstance(arg, list):
            continue
        bad = [
            f"{p['name']}[{i}] = {x!r} is above {i} + {k} (a bound by the index)"
            for i, x in enumerate(arg)
            if isinstance(x, int) and x > i + k
        ]
        out += bad[:3] + ([f"... {len(bad) - 3} more such indexes"] if len(bad) > 3 else [])
    return out


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


def _check_row_order(p: dict[str, Any], rows: list[Any]) -> list[str]:
    """Rows sorted by ``sorted_col`` (non-strictly; a strict order also makes the field
    distinct, checked with ``distinct_cols``), and no ``apart_cols`` field equal to the row
    before's."""
    name, out = p["name"], list[str]()
    fields = p.get("fields") or []
    prev: Any = None
    for i, row in enumerate(rows):
        if not isinstance(row, list):
            return out  # the shape was reported with the lengths
        if prev is not None and "sorted_col" in p:
            col, direction = p["sorted_col"]
            if col < min(len(row), len(prev)):
                x, y = prev[col], row[col]
                if (x > y) if direction == "asc" else (x < y):
                    what = fields[col] if col < len(fields) else f"{name}[i][{col}]"
                    out.append(f"{name}[{i}][{col}] = {y!r} is out of order after {x!r} ({what})")
        for col in p.get("apart_cols", ()):
            if prev is not None and col < min(len(row), len(prev)) and row[col] == prev[col]:
                out.append(f"{name}[{i}][{col}] = {row[col]!r} equals the row before's")
        prev = row
    return out[:5]
