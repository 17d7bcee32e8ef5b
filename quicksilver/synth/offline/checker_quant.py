"""The checker's part for :mod:`.quantified`: a range that holds from an index on (``head``:
the items before it are left out of the domain check, being fixed positions the pins check)
and a tree given by its parents (``parent_tree``). Code of its own, independent of the runtime's
``_parent_tree``."""

from __future__ import annotations

from typing import Any

Rows = list[tuple[str, list[tuple[str, Any]]]]


def head_rows(p: dict[str, Any], rows: Rows) -> Rows:
    """The items whose values the domain check sees: all, or those from ``p["head"]`` on."""
    k = p.get("head") or 0
    return [(where, row[k:]) for where, row in rows] if k else rows


def check_quant(spec: dict[str, Any], args: list[Any]) -> list[str]:
    """Each ``parent_tree`` list: item ``i`` (``i >= 1``) is a node ``0 .. n - 1`` and following
    the parents from any node reaches node 0 with no cycle; with ``binary``, no node has more
    than two children."""
    out: list[str] = []
    for p, arg in zip(spec.get("params", []), args, strict=False):
        rule = p.get("parent_tree")
        if rule is None or not isinstance(arg, list):
            continue
        out += _check_parents(p["name"], arg, bool(rule.get("binary")))
    return out + check_chains(spec, args)


def _check_parents(name: str, parents: list[Any], binary: bool) -> list[str]:
    n = len(parents)
    for i in range(1, n):
        x = parents[i]
        if not isinstance(x, int) or isinstance(x, bool) or not 0 <= x < n:
            return [f"{name}[{i}] = {x!r} is no node of the tree (0 to {n - 1})"]
    if binary:
        children: dict[int, int] = {}
        for i in range(1, n):
            children[parents[i]] = children.get(parents[i], 0) + 1
        over = [v for v, c in children.items() if c > 2]
        if over:
            return [f"{name}: node {over[0]} has {children[over[0]]} children (a binary tree)"]
    state = [0] * n  # 0 unseen, 1 on the walk, 2 reaches the root
    if n:
        state[0] = 2
    for start in range(1, n):
        walk, v = [], start
        while state[v] == 0:
            state[v] = 1
            walk.append(v)
            v = parents[v]
        if state[v] == 1:
            return [f"{name}: node {start} does not lead up to the root 0 (a cycle at {v})"]
        for u in walk:
            state[u] = 2
    return []


def check_chains(spec: dict[str, Any], args: list[Any]) -> list[str]:
    """Each list ``b`` with ``"chain": [a, op]``: ``b[i] op a[i + 1]`` for every i but the last
    (the order within each pair is the spec's zip, checked with the zips)."""
    names = [p["name"] for p in spec.get("params", [])]
    out: list[str] = []
    for p, ys in zip(spec.get("params", []), args, strict=False):
        if "chain" not in p or not isinstance(ys, list):
            continue
        a, op = p["chain"]
        xs = args[names.index(a)]
        if not isinstance(xs, list):
            continue
        for i in range(min(len(xs), len(ys)) - 1):
            x, y = ys[i], xs[i + 1]
            if not (isinstance(x, int) and isinstance(y, int)) or not (
                x < y if op == "<" else x <= y
            ):
                b = p["name"]
                out.append(f"{b}[{i}] = {x!r}, {a}[{i + 1}] = {y!r}: not {b}[i] {op} {a}[i + 1]")
                break
    return out
