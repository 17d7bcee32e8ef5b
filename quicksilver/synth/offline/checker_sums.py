"""The checker's part for sums over lists (:mod:`.sums`): code of its own, independent of the
runtime's ``_grow_sum`` and ``_meet_sum``; a module apart so that checker.py stays within the
size a module may have."""

from __future__ import annotations

from typing import Any


def check_sums(spec: dict[str, Any], args: list[Any]) -> list[str]:
    """A per-item dimension's ``"sum_min"`` (the lengths at that level sum to it at least) and
    a list's ``"values_sum"`` (its values' sum at least ``min``, with remainder ``mod``)."""
    out: list[str] = []
    for p, arg in zip(spec.get("params", []), args, strict=False):
        if not isinstance(arg, (list, str)):
            continue
        for d, dim in enumerate(p.get("dims", [])):
            if dim.get("sum_min") is not None:
                total = _lengths_at(arg, d)
                if total is not None and total < dim["sum_min"]:
                    out.append(
                        f"{p['name']}: the lengths at level {d} sum to {total}, below "
                        f"{dim['sum_min']}"
                    )
        rule = p.get("values_sum")
        if rule and isinstance(arg, list):
            out += _value_sum(p["name"], arg, rule)
    names = [p["name"] for p in spec.get("params", [])]
    for p, arg in zip(spec.get("params", []), args, strict=False):
        rule = p.get("below_sum")
        if rule and rule["of"] in names and isinstance(arg, int):
            of = args[names.index(rule["of"])]
            if rule["level"]:
                total = _lengths_at(of, rule["level"])
            elif isinstance(of, list) and all(isinstance(x, int) for x in of):
                total = sum(of)
            else:
                total = None
            if total is not None and (arg > total or (rule["strict"] and arg == total)):
                op = "<" if rule["strict"] else "<="
                out.append(f"{p['name']} = {arg} breaks {p['name']} {op} the sum {total}")
    return out


def _lengths_at(arg: Any, d: int) -> int | None:
    """The sum of the lengths of the items at level ``d`` (0: the argument itself)."""
    items = [arg]
    for _ in range(d):
        nxt = []
        for it in items:
            if not isinstance(it, (list, str)):
                return None
            nxt.extend(it)
        items = nxt
    if not all(isinstance(it, (list, str)) for it in items):
        return None  # the shape was reported with the lengths
    return sum(len(it) for it in items)


def _value_sum(name: str, values: list[Any], rule: dict[str, Any]) -> list[str]:
    """The sum of a one-level list of integers against its least value and remainder."""
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in values):
        return []  # the values' type was reported with the domain
    total = sum(values)
    out: list[str] = []
    if rule.get("min") is not None and total < rule["min"]:
        out.append(f"{name}: its values sum to {total}, below {rule['min']}")
    mod = rule.get("mod")
    if mod and total % mod[0] != mod[1]:
        out.append(f"{name}: its values sum to {total}, not {mod[1]} modulo {mod[0]}")
    return out
