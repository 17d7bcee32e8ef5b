"""The checker's part for membership between parameters (the spec's ``members``,
:mod:`.members`): code of its own, independent of the runtime's ``_members``; a module apart
so that checker.py stays within the size a module may have."""

from __future__ import annotations

from typing import Any


def check_members(spec: dict[str, Any], args: list[Any]) -> list[str]:
    """Each rule of ``spec["members"]`` on one input (``args`` in parameter order)."""
    names = [p["name"] for p in spec.get("params", [])]
    out: list[str] = []
    for rule in spec.get("members", ()):
        op = rule[0]
        if op == "has":
            out += _check_has(names[rule[1]], args[rule[1]], rule[2], rule[3])
            continue
        a, b = names[rule[1]], names[rule[2]]
        x, ys = args[rule[1]], args[rule[2]]
        if not isinstance(ys, list | str) or (op not in ("in", "notin") and not _seq(x)):
            continue  # the shape was reported with the lengths
        if op == "in" and x not in list(ys):
            out.append(f"{a} = {x!r} is not in {b}")
        elif op == "notin" and x in list(ys):
            out.append(f"{a} = {x!r} is in {b}, which must not hold it")
        elif op == "ne" and x == ys:
            out.append(f"{a} and {b} are equal ({a} != {b})")
        elif op == "perm" and not _same_items(list(x), list(ys)):
            out.append(f"{a} is not a permutation of {b}")
        elif op == "subseq" and not _subsequence(list(x), list(ys)):
            out.append(f"{a} is not a subsequence of {b}")
        elif op == "subset":
            missing = [v for v in x if v not in set(ys)]
            if missing:
                out.append(f"{a} holds {missing[0]!r}, which is not in {b}")
    return out


def _same_items(xs: list[Any], ys: list[Any]) -> bool:
    """The same items as many times each, in any order (items of one kind, so they sort)."""
    try:
        return sorted(xs) == sorted(ys)
    except TypeError:  # items of different kinds: the values were reported with the leaves
        return False


def _seq(x: Any) -> bool:
    return isinstance(x, list | str)


def _subsequence(xs: list[Any], ys: list[Any]) -> bool:
    """``xs`` read in order from ``ys`` (greedy: the first match of each item)."""
    it = iter(ys)
    return all(any(x == y for y in it) for x in xs)


def _check_has(name: str, arg: Any, value: int, k: int) -> list[str]:
    """At least ``k`` items of ``arg`` (a list, or a list of rows) equal to ``value``."""
    if not isinstance(arg, list):
        return []
    flat = [y for x in arg for y in (x if isinstance(x, list) else [x])]
    have = sum(1 for y in flat if y == value and not isinstance(y, bool))
    if have < k:
        return [f"{name} holds {value!r} {have} times, not at least {k}"]
    return []
