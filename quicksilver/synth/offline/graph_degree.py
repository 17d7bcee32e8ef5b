"""A bound on the degree of a graph whose edges are the rows of a list (``edges[i] = [a_i,
b_i, ...]``): ``There are at most four edges connected to each node``, ``Every garden has at
most 3 paths coming into or leaving it``, ``Each node has at most 3 neighbors``, ``The degree
of each node is at most 3``. Read by :func:`~.adjacency.degree_form` (a form of
``char_sentences.TEXT_FORMS``; this module imports the shapes, which import those forms): the
rows become a graph's edges (as a line of :mod:`.graph_sentences` makes them) whose spec
carries ``"deg_max": k`` (optional: absent, as before). Each edge counts once at each of its
ends, in any direction.

The runtime (:func:`~.runtime_adj._deg_edges`) draws the edges from a graph every node of
which has degree k at most (a circulant graph over a random order of the nodes, joined to
node i + d for d up to k / 2, and, k odd, a matching across), a subset of it: simple and
without self loops (narrower than a statement that allows them, never breaking one). The
schedule bounds the edge count by ``v * k / 2`` (``v * (k - 1) / 2`` for an odd k), v the
nodes (the first field's range): a ``poly`` bound the runtime applies once v is drawn. The
checker counts each node's edges. Refused: a node range that is not one quantity plus a
constant, no list of integer rows to hold the edges.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from quicksilver.synth.offline.constraints import Lin
from quicksilver.synth.offline.facts import Facts
from quicksilver.synth.offline.shapes import columns


def degree_room(facts: Facts, problems: list[str]) -> None:
    """Before the schedule: the edge count at most ``v * k / 2`` (``v * (k - 1) / 2``, k odd),
    v the nodes, as a ``poly`` bound (nonlinear.py's form)."""
    for name, (k, line) in facts.degree.items():
        p, info = facts.by_name[name], facts.leaf[name]
        width = max([len(facts.width_fields(name)), *(c + 1 for c in info.cols), 2])
        cols = columns(p, info, width)
        if isinstance(cols, str) or len(cols[0].lo) != 1 or len(cols[0].hi) != 1:
            problems.append(f'"{line}": a degree bound on a graph without one range for its nodes')
            continue
        (lo, lo_strict, _), (hi, hi_strict, _) = cols[0].lo[0], cols[0].hi[0]
        v = hi - lo + Lin(Fraction(1 - lo_strict - hi_strict))
        if len(v.terms) != 1 or next(iter(v.terms.values())) != 1 or v.const.denominator != 1:
            problems.append(f'"{line}": a degree bound over nodes that are not one quantity')
            continue
        key, c = next(iter(v.terms)).key, int(v.const)
        expr: Any = key if c == 0 else ["+", key, c] if c > 0 else ["-", key, -c]
        why = f"{line} (at most v * {k - k % 2} / 2 edges)"
        facts.polys.append((p.dim_key(0), "<=", ["*", expr, k - k % 2], 2, why))


def degree_specs(facts: Facts, params: list[dict[str, Any]], problems: list[str]) -> None:
    """``"deg_max"`` on the graph spec of each list a degree bound is stated of."""
    by_name = {p["name"]: p for p in params}
    for name, (k, line) in facts.degree.items():
        graph = by_name[name].get("graph")
        if graph is None:
            problems.append(f'"{line}": a degree bound on rows that are no graph\'s edges')
            continue
        graph["deg_max"] = k
