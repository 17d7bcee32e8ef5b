"""The checker's part for the rules on neighbours (:mod:`.neighbours`): code of its own,
independent of the runtime's ``_no_adjacent``; a module apart so that checker.py stays within
the size a module may have."""

from __future__ import annotations

from typing import Any


def check_neighbours(spec: dict[str, Any], args: list[Any]) -> list[str]:
    """``"no_adjacent": [v]`` on a list: no two neighbours both hold ``v``; ``"apart_cells"``
    on a grid: no two adjacent cells equal."""
    out: list[str] = []
    for p, arg in zip(spec.get("params", []), args, strict=False):
        rule = p.get("no_adjacent")
        if rule and isinstance(arg, list):
            value = rule[0]
            for i in range(1, len(arg)):
                if arg[i - 1] == value and arg[i] == value:
                    out.append(f"{p['name']}[{i - 1}] and {p['name']}[{i}] are both {value!r}")
                    break
        if p.get("apart_cells") and isinstance(arg, list):
            out += _cells_apart(p["name"], arg)
    return out


def _cells_apart(name: str, grid: list[Any]) -> list[str]:
    """``"apart_cells"``: no cell equals its right or lower neighbour."""
    for i, row in enumerate(grid):
        below = grid[i + 1] if i + 1 < len(grid) else []
        if not isinstance(row, list) or not isinstance(below, list):
            return []  # the shape was reported with the lengths
        for j, x in enumerate(row):
            if j + 1 < len(row) and row[j + 1] == x:
                return [f"{name}[{i}][{j}] and {name}[{i}][{j + 1}] are equal (adjacent cells)"]
            if j < len(below) and below[j] == x:
                return [f"{name}[{i}][{j}] and {name}[{i + 1}][{j}] are equal (adjacent cells)"]
    return []
