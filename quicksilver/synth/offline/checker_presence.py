"""The checker's part for a value present in a list or grid and one stated position (the spec's
``presence``, :mod:`.presence`): code of its own, independent of the runtime's ``_presence``."""

from __future__ import annotations

import operator
from typing import Any

_OPS = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def check_presence(spec: dict[str, Any], args: list[Any]) -> list[str]:
    """Each rule of ``spec["presence"]`` on one input (``args`` in parameter order)."""
    names = [p["name"] for p in spec.get("params", [])]
    out: list[str] = []
    for rule in spec.get("presence", ()):
        name, value = names[rule[1]], args[rule[1]]
        if not isinstance(value, list | str):
            continue  # the shape was reported with the lengths
        other = args[rule[2]] if rule[0] in ("absent", "common") else None
        if rule[0] == "absent":
            if isinstance(other, list) and value in other:
                out.append(f"{name} = {value!r} is in {names[rule[2]]}, which must not hold it")
        elif rule[0] == "common":
            if isinstance(other, list) and not {repr(x) for x in value} & {repr(x) for x in other}:
                out.append(f"{name} and {names[rule[2]]} have no item in common")
        elif rule[0] == "node":
            nodes = [v for v in value if v is not None]
            out += [
                f"{names[j]} = {args[j]!r} is the value of no node of {name}"
                for j in rule[2]
                if args[j] not in nodes
            ]
        elif rule[0] == "kinds":
            items = [y for x in value for y in (x if isinstance(x, list) else [x])]
            if len({repr(y) for y in items}) < rule[2]:
                out.append(f"{name} holds fewer than {rule[2]} different values")
        elif rule[0] == "count" and len(rule) > 5:
            out += _check_lines(name, value, rule, args)
        elif rule[0] == "count":
            items = [y for x in value for y in (x if isinstance(x, list | str) else [x])]
            if isinstance(value, str):
                items = list(value)
            have = sum(1 for y in items if _holds(y, rule[2], args))
            if have < rule[3]:
                out.append(f"{name}: {have} items {_says(rule[2], names)}, not at least {rule[3]}")
            if rule[4] is not None and have > rule[4]:
                out.append(f"{name}: {have} items {_says(rule[2], names)}, not at most {rule[4]}")
        else:
            out += _check_at(name, value, rule[2], rule[3], args, names)
    return out


def _holds(x: Any, pred: list[Any], args: list[Any]) -> bool:
    op, v = pred
    if isinstance(v, dict):
        v = args[v["arg"]]
    if op in ("in", "not"):
        return (x in v) == (op == "in")
    try:
        return bool(_OPS[op](x, v))
    except TypeError:  # values of another kind: reported with the leaves
        return False


def _says(pred: list[Any], names: list[str]) -> str:
    op, v = pred
    if isinstance(v, dict):
        v = names[v["arg"]]
    return f"{'in' if op == 'in' else 'not in' if op == 'not' else op} {v!r}"


def _check_at(
    name: str, value: Any, where: list[Any], pred: list[Any], args: list[Any], names: list[str]
) -> list[str]:
    """The item at ``where`` exists and meets ``pred``."""
    idx: list[Any] = []
    for w in where:
        if w[0] == "i":
            idx.append(w[1])
        elif w[0] == "arg":
            idx.append(args[w[1]])
        else:
            src = args[w[1]]
            idx.append(src[w[2]] if isinstance(src, list) and len(src) > w[2] else None)
    cur = value
    for k in idx:
        if (
            not isinstance(k, int)
            or not isinstance(cur, list | str)
            or not -len(cur) <= k < len(cur)
        ):
            return [f"{name}{''.join(f'[{k}]' for k in idx)} is no position of {name}"]
        cur = cur[k]
    if not _holds(cur, pred, args):
        at = "".join(f"[{k}]" for k in idx)
        return [f"{name}{at} = {cur!r}, not {_says(pred, names)}"]
    return []


def _check_lines(name: str, value: list[Any], rule: list[Any], args: list[Any]) -> list[str]:
    """``["count", p, pred, least, most, "row" | "col"]``: the count in each row or column."""
    rows = [list(r) if isinstance(r, list | str) else [r] for r in value]
    if rule[5] == "col":
        width = max((len(r) for r in rows), default=0)
        rows = [[r[j] for r in rows if len(r) > j] for j in range(width)]
    out = []
    for i, line in enumerate(rows):
        have = sum(1 for y in line if _holds(y, rule[2], args))
        if have < rule[3] or (rule[4] is not None and have > rule[4]):
            bounds = f"at least {rule[3]}" + (f", at most {rule[4]}" if rule[4] is not None else "")
            out.append(
                f"{name}: {rule[5]} {i} has {have} items {rule[2][0]} {rule[2][1]!r}, not {bounds}"
            )
    return out
