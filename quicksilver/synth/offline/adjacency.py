"""Graphs given as adjacency lists: ``graph[i]`` is the list of the nodes adjacent to node i, the
nodes being 0 to n - 1 with ``n == graph.length``. A line of this family makes an integer
``[][]`` parameter an adjacency list (spec key ``"adj"`` on it), and the graph's properties
are drawn exactly (:mod:`.runtime_adj`) and checked (:mod:`.checker_adj`):

- **no self loops** (``"no_loops"``): ``graph[i] does not contain i``, ``graph[u] doesn't
  contain u``, ``graph[i][j] != i``, ``graph[i][j] != i (i.e., there will be no self-loops)``;
- **undirected** (``"symmetric"``): ``If graph[u] contains v, then graph[v] contains u``, ``if
  friends[i] contains j, then friends[j] contains i``, ``If v is in graph[u], then u is in
  graph[v]``;
- the graph sentences of :mod:`.graph_sentences` said of the same list (``The input graph is
  guaranteed to be a DAG``, ``The input graph is always connected``, ``There are no self
  edges``, ``There are no parallel edges``): read as the adjacency list's, not as edges in rows;
- **no parallel edges** (``"simple"``): distinct values in each row (``All the values of
  graph[u] are unique``), as the distinctness reader already reads them.

The rows' length (a node's degree, or out-degree) keeps its stated bounds (``0 <=
graph[u].length < n``): the spec's ``"deg"`` copies every quantity bound that names it, and the
runtime draws no degree above what they allow. Every draw is a simple graph without self loops
(narrower than a statement that allows them, never breaking one). Refused: node ids other than
0 to n - 1 (a stated range that is not exactly ``[0, n - 1]``), a least degree above 0, another
rule on the values (a fixed position, values apart, unique rows, an order between rows, a
relation with another parameter), a connected directed graph (connected how?) and an
undirected DAG.

Also read here (its spec in :mod:`.graph_degree`, which imports the shapes): a degree bound on
a graph's edges in rows, ``There are at most four edges connected to each node``.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import partial
from typing import Any

from quicksilver.synth.offline.comparisons import Acts
from quicksilver.synth.offline.constraints import Lin, Ref, Unsupported
from quicksilver.synth.offline.facts import Facts

_N = r"[A-Za-z_]\w*"
_PRE = (
    r"(?:(?:it is|it's) guaranteed that |"
    r"the (?:input|test cases?) (?:is|are) generated (?:such|so) that )?"
)
_NOT = r"(?:does not|doesn't|will not|won't|cannot|can't|never) contains?"
_LOOPS = (
    re.compile(_PRE + rf"(?P<x>{_N})\[(?P<i>[a-z])\] {_NOT} (?P=i)", flags=re.I),
    re.compile(
        rf"(?P<x>{_N})\[(?P<i>[a-z])\]\[[a-z]\] != (?P=i)"
        r"(?: \(i\.e\.,? there (?:will be|are) no self[- ]?(?:loops|edges)\.?\))?",
        flags=re.I,
    ),
)
_SYMMETRIC = (
    re.compile(
        _PRE + rf"if (?P<x>{_N})\[(?P<u>[a-z])\] contains (?P<v>[a-z]),? then "
        r"(?P=x)\[(?P=v)\] (?:also )?contains (?P=u)(?: \(the graph is undirected\))?",
        flags=re.I,
    ),
    re.compile(
        _PRE + rf"if (?P<v>[a-z]) is in (?P<x>{_N})\[(?P<u>[a-z])\],? then (?P=u) is (?:also )?in "
        r"(?P=x)\[(?P=v)\](?: \(the graph is undirected\))?",
        flags=re.I,
    ),
)
# graph_sentences' properties of edges in rows -> the adjacency list's
_FROM_GRAPH = {"loops": "no_loops", "simple": "simple", "between": "simple", "dag": "dag"}
_PLAIN = {"name", "type", "kind", "dims", "leaf", "join", "sorted", "distinct"}


def adj_form(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """One line of this family (a form of ``char_sentences.TEXT_FORMS``)."""
    for rule, forms in (("no_loops", _LOOPS), ("symmetric", _SYMMETRIC)):
        for form in forms:
            m = form.fullmatch(text)
            if not m:
                continue
            p = facts.by_name.get(m["x"])
            if p is None:
                return False
            if p.tree or p.node or p.join or p.depth != 2 or p.leaf != "int":
                raise Unsupported(f"an adjacency list in {p.name} ({p.type})")
            acts.append(partial(facts.adj.setdefault(p.name, {}).__setitem__, rule, line))
            return True
    return False


def adj_prepare(facts: Facts, problems: list[str]) -> None:
    """After every line is read, before the schedule: the graph sentences said of an adjacency
    list become its properties (not a graph's edges in rows), and a list with no stated range
    for its values holds node ids, 0 to n - 1 (what an adjacency list is)."""
    for name, rules in facts.adj.items():
        p, info = facts.by_name[name], facts.leaf[name]
        for prop, line in info.graph.items():
            rules.setdefault(_FROM_GRAPH.get(prop, prop), line)
        info.graph = {}
        first = next(iter(rules.values()))
        others = info.unique_rows or info.cols or info.pairs or info.pins or info.apart
        if others or info.below_index or info.values is not None or info.ne:
            problems.append(f'"{first}": an adjacency list with another rule on its rows')
        if info.distinct is not None and info.distinct.get("scope") != "each":
            problems.append(f'"{first}": an adjacency list whose values are distinct overall')
        if not info.lo and not info.hi:
            n = Ref("q", key=p.dim_key(0))
            why = f"{first} (an adjacency list: node ids 0 to {name}.length - 1)"
            info.lo.append((Lin(Fraction(0)), False, why))
            info.hi.append((Lin(Fraction(-1), {n: Fraction(1)}), False, why))


def adj_specs(
    facts: Facts,
    params: list[dict[str, Any]],
    quantities: list[dict[str, Any]],
    problems: list[str],
) -> None:
    """``"adj"`` on each adjacency list: its properties and the bounds on its rows' length."""
    by_name = {p["name"]: p for p in params}
    related = {n for _, a, b, _ in facts.members for n in (a, b) if isinstance(n, str)}
    related |= {n for a, b, _, _ in facts.zips for n in (a, b)}
    for name, rules in facts.adj.items():
        spec, first = by_name[name], next(iter(rules.values()))
        dims = spec["dims"]
        outer, inner = dims[0].get("q"), dims[1].get("q")
        if set(spec) - _PLAIN or name in related or outer is None:
            problems.append(f'"{first}": an adjacency list with another rule on its values')
            continue
        if inner is None:  # constant bounds only: the schedule draws each row's length apart
            problems.append(f'"{first}": an adjacency list whose rows\' lengths are drawn per row')
            continue
        leaf = spec["leaf"]
        ids = {"type": "int", "lo": [0], "hi": [{"const": -1, "terms": {outer: 1}}]}
        if leaf != ids:
            problems.append(f'"{first}": an adjacency list whose values are not 0 to n - 1')
            continue
        directed = "symmetric" not in rules
        if "connected" in rules and directed:
            problems.append(f'"{rules["connected"]}": a connected directed graph')
        if "dag" in rules and not directed:
            problems.append(f'"{rules["dag"]}": an acyclic graph whose lists are symmetric')
        deg = _degree_bounds(inner, quantities)
        if deg is None:
            problems.append(f"{inner}: an adjacency list with a least degree or another rule")
            continue
        spec["adj"] = {
            "no_loops": "no_loops" in rules or "dag" in rules,
            "symmetric": not directed,
            "simple": "simple" in rules or spec["distinct"] is not None,
            "dag": "dag" in rules,
            "connected": "connected" in rules,
            "deg": deg,
        }


def _degree_bounds(inner: str, quantities: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """Every quantity bound that names the rows' length ``inner``, as ``{"item", "coef",
    "rest"}`` (``coef * item + rest >= 0``); None when one may ask a least length above 0
    (the runtime draws a graph from degree 0 up), or another rule names it."""
    out = []
    for item in quantities:
        rules = [item.get(k) for k in ("mod", "ne", "poly", "prod", "digits") if k in item]
        if rules and (item["name"] == inner or inner in repr(rules)):
            return None  # a remainder, an exclusion or a product: not drawn here
        for b in item["bounds"]:
            rest = b["rest"]
            terms = rest.get("terms", {}) if isinstance(rest, dict) else {}
            if item["name"] != inner and inner not in terms:
                continue
            a = (b["coef"] if item["name"] == inner else 0) + terms.get(inner, 0)
            others = item["name"] != inner or len(terms) > (inner in terms)
            const = rest["const"] if isinstance(rest, dict) else rest
            if a > 0 and (others or const < 0):
                return None
            out.append({"item": item["name"], "coef": b["coef"], "rest": rest, "text": b["text"]})
    return out


# -- a degree bound on a graph's edges in rows (its spec: graph_degree.py) --

_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
_DEG_K = r"(?P<k>\d+|one|two|three|four|five|six|seven)"
_DEG_EDGE = r"(?:edges?|roads?|paths?|connections?|neighbou?rs?|bridges?|streets?)"
_DEG_NOUN = r"(?:nodes?|vertex|vertices|cities|city|gardens?|intersections?|rooms?)"
_DEG_TOUCH = r"(?: (?:connected to|coming into or leaving|going into or out of|incident to) it)?"
_DEGREE = (
    re.compile(
        rf"there (?:are|will be) at most {_DEG_K} {_DEG_EDGE} connected to (?:each|every) "
        rf"{_DEG_NOUN}"
    ),
    re.compile(
        rf"(?:each|every|all|any) {_DEG_NOUN} (?:has|have) at most {_DEG_K} {_DEG_EDGE}"
        rf"{_DEG_TOUCH}"
    ),
    re.compile(rf"the degree of (?:each|every|any) {_DEG_NOUN} is at most {_DEG_K}"),
)


def degree_form(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """``There are at most four edges connected to each node``: the degree bound of the graph
    whose edges are the statement's one list of integer rows (a form of
    ``char_sentences.TEXT_FORMS``)."""
    m = next((f.fullmatch(text.lower()) for f in _DEGREE if f.fullmatch(text.lower())), None)
    if m is None:
        return False
    k = int(_NUMBERS.get(m["k"], m["k"]))
    names = [p.name for p in facts.params if p.depth == 2 and p.leaf == "int" and not p.join]
    if len(names) != 1 or names[0] in facts.adj or k < 1:
        raise Unsupported("a degree bound, but not of one list of integer rows (its edges)")
    info = facts.leaf[names[0]]
    acts.append(partial(info.graph.__setitem__, "deg", line))
    acts.append(partial(facts.degree.__setitem__, names[0], (k, line)))
    return True
