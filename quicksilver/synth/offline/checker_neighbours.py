"""The checker's part for the rules on neighbours (:mod:`.neighbours`): code of its own,
independent of the runtime's ``_no_adjacent``; a module apart so that checker.py stays within
the size a module may have."""

from __future__ import annotations

from typing import Any


def check_neighbours(spec: dict[str, Any], args: list[Any]) -> list[str]:
    """``"no_adjacent": [v]`` on a list: no two neighbours both hold ``v``."""
    out: list[str] = []
    for p, arg in zip(spec.get("params", []), args, strict=False):
        rule = p.get("no_adjacent")
        if not rule or not isinstance(arg, list):
            continue  # the shape was reported with the lengths
        value = rule[0]
        for i in range(1, len(arg)):
            if arg[i - 1] == value and arg[i] == value:
                out.append(f"{p['name']}[{i - 1}] and {p['name']}[{i}] are both {value!r}")
                break
    return out
