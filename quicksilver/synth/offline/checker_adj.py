"""The checker's part for adjacency lists (:mod:`.adjacency`), written apart from the runtime:
``graph[i]`` lists the nodes adjacent to node i. Each node id is one of 0 to n - 1 (n the
list's length); ``no_loops``: row i does not hold i; ``simple``: no node twice in a row;
``symmetric``: j in row i exactly when i in row j; ``dag``: no directed cycle (Kahn's
algorithm); ``connected``: one component (a breadth-first walk over the rows). Each row's
length is one value of its length quantity: every quantity bound that names it is checked
with that row's length (the main checker sees no single value of it, as the rows differ).
Also a degree bound on a graph's edges in rows (``deg_max``, :mod:`.graph_degree`).
"""

from __future__ import annotations

from typing import Any

_SHOWN = 5


def adj_shape(p: dict[str, Any]) -> dict[str, Any]:
    """The spec the main checker reads an adjacency list's shape by: its rows' lengths differ,
    so they are no shared quantity (checked here, row by row)."""
    if not p.get("adj"):
        return p
    return {**p, "dims": [p["dims"][0], {"lo": 0, "name": p["dims"][1]["q"]}]}


def check_adjacency(spec: dict[str, Any], args: list[Any], q: dict[str, int]) -> list[str]:
    """The broken rules of every adjacency list of ``spec`` in ``args``."""
    out: list[str] = []
    for p, arg in zip(spec.get("params", []), args, strict=False):
        if p.get("adj") and isinstance(arg, list) and all(isinstance(r, list) for r in arg):
            found = _check_one(p["name"], p["adj"], arg)
            found += _check_lengths(p, arg, spec.get("quantities", []), q)
            out += found[:_SHOWN] + ([f"{p['name']}: and more"] if len(found) > _SHOWN else [])
        if (p.get("graph") or {}).get("deg_max") and isinstance(arg, list):
            out += _check_degree(p["name"], p["graph"]["deg_max"], arg)
    return out


def _check_degree(name: str, k: int, rows: list[Any]) -> list[str]:
    """``deg_max`` of a graph's edges in rows (graph_degree.py): no node is an end of more
    than k rows (each row counts once at each of its first two fields, twice at a self loop)."""
    degree: dict[Any, int] = {}
    for row in rows:
        if isinstance(row, list) and len(row) >= 2:
            for end in row[:2]:
                degree[end] = degree.get(end, 0) + 1
    over = sorted((x for x, d in degree.items() if d > k), key=repr)
    if not over:
        return []
    x = over[0]
    more = f" (and {len(over) - 1} more nodes)" if len(over) > 1 else ""
    return [f"{name}: node {x!r} has {degree[x]} edges, above the degree bound {k}{more}"]


def _check_one(name: str, g: dict[str, Any], rows: list[list[Any]]) -> list[str]:
    n = len(rows)
    out = []
    for i, row in enumerate(rows):
        bad = [x for x in row if not isinstance(x, int) or isinstance(x, bool) or not 0 <= x < n]
        if bad:
            return [f"{name}[{i}] holds {bad[0]!r}, not a node id in [0, {n - 1}]"]
        if g.get("no_loops") and i in row:
            out.append(f"{name}[{i}] contains {i} (no self loops)")
        if g.get("simple") and len(set(row)) != len(row):
            out.append(f"{name}[{i}] holds a node twice (no parallel edges)")
        if g.get("symmetric"):
            out += [
                f"{name}[{i}] contains {j} but {name}[{j}] does not contain {i} (undirected)"
                for j in row
                if i not in rows[j]
            ]
    if g.get("dag"):
        indeg = [0] * n
        for row in rows:
            for j in row:
                indeg[j] += 1
        ready = [i for i in range(n) if indeg[i] == 0]  # a queue: read from the front
        for i in ready:
            for j in rows[i]:
                indeg[j] -= 1
                if indeg[j] == 0:
                    ready.append(j)
        if len(ready) < n:
            out.append(f"{name}: the lists hold a cycle (the graph is acyclic)")
    if g.get("connected") and n:
        seen = {0}
        walk = [0]
        while walk:
            for j in rows[walk.pop()]:
                if j not in seen:
                    seen.add(j)
                    walk.append(j)
        if len(seen) < n:
            out.append(f"{name}: {n - len(seen)} nodes not reachable from node 0 (connected)")
    return out


def _check_lengths(
    p: dict[str, Any], rows: list[list[Any]], quantities: list[dict[str, Any]], q: dict[str, int]
) -> list[str]:
    """Each row's length against every quantity bound that names the rows' length."""
    inner = p["dims"][1]["q"]
    out = []
    for i, row in enumerate(rows):
        known = {**q, inner: len(row)}
        for item in quantities:
            for b in item["bounds"]:
                rest = b["rest"]
                terms = rest.get("terms", {}) if isinstance(rest, dict) else {}
                if item["name"] != inner and inner not in terms:
                    continue
                if item["name"] not in known or any(t not in known for t in terms):
                    continue
                const = rest["const"] if isinstance(rest, dict) else rest
                value = const + sum(k * known[t] for t, k in terms.items())
                if b["coef"] * known[item["name"]] + value < 0:
                    out.append(f"{p['name']}[{i}].length = {len(row)} breaks {b['text']}")
    return out
