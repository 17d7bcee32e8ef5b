"""Sentences about a graph whose edges are the rows of a list of integer rows: no self loops
(``There are no self edges``), no repeated edges (``There are no multiple edges``, ``All pairs
(a_i, b_i) are distinct`` of weighted rows, ``All the pairs of trust are unique``; in a directed
graph a pair and its reverse are two edges) or at most one edge between two nodes (``There is
at most one edge between any two nodes``: in either direction), connected (``The given graph
is connected``, ``There is at least one path between any two nodes``, ``You can reach any
intersection from any other intersection``) and acyclic
(``The given graph is a directed acyclic graph``, ``The input graph is guaranteed to be a
DAG``). Each is a property of the rows' first two fields, the edge's ends; the runtime draws
the edges so that all hold (``_graph_rows``). Read by :class:`~.sentences.LineReader`.

``There is at least one path between 1 and n`` is read as connected: every such graph has that
path (a stronger guarantee than the statement's, which narrows the draw but never breaks it).
"""

from __future__ import annotations

import re
from functools import partial

from quicksilver.synth.offline.comparisons import Acts
from quicksilver.synth.offline.constraints import Unsupported, split_top
from quicksilver.synth.offline.facts import Facts

_NODE = r"(?:nodes?|vertex|vertices|cities|city|intersections?|branches|servers?|rooms?)"
_EDGE = r"(?:edges?|roads?|connections?|paths?)"
_THE_GRAPH = r"the (?:given |input |whole )?graph"
# property -> the wordings that state it of the one graph of the statement
_WORDINGS: tuple[tuple[str, str], ...] = (
    (
        "loops",
        rf"there (?:are|will be) no self[- ]?(?:edges|loops)(?: in {_THE_GRAPH})?|"
        rf"{_THE_GRAPH} (?:does not|doesn't|will not) (?:contain|have) (?:any )?"
        rf"self[- ]?(?:edges|loops)|no {_NODE} has an? {_EDGE} to itself",
    ),
    (
        "simple",
        rf"there (?:are|will be) no (?:repeated|duplicated?|multiple|parallel) {_EDGE}"
        rf"(?: in {_THE_GRAPH})?",
    ),
    (
        "between",
        rf"there (?:is|will be) at most one {_EDGE} (?:between|connecting) (?:any|every|each) "
        rf"(?:two|pair of) {_NODE}|"
        rf"(?:each|every) pair of {_NODE} (?:has|is connected by) at most one {_EDGE}"
        r"(?: connecting them)?|"
        rf"every {_NODE} pair is connected by at most one {_EDGE}",
    ),
    (
        "connected",
        rf"{_THE_GRAPH} is (?:always |guaranteed to be )?connected|"
        rf"there is at least one path between (?:any two {_NODE}|\w+ and \w+)|"
        rf"you can reach any {_NODE} from any other {_NODE}|"
        rf"(?:each|every) {_NODE} can be reached (?:directly or indirectly )?from every other "
        rf"{_NODE}|all {_NODE} are reachable from each other(?: by traveling some roads)?",
    ),
    (
        "dag",
        rf"{_THE_GRAPH} is (?:guaranteed to be )?(?:a )?(?:DAG|directed acyclic graph)",
    ),
)
# ``The graph is connected, and there are no self-loops or repeated edges``
_BOTH = re.compile(
    rf"there are no self[- ]?(?:edges|loops) or (?:repeated|duplicated?|multiple) {_EDGE}",
    flags=re.I,
)


# a permission states nothing: ``The graph may contain multiple edges between two nodes``
_PERMISSION = re.compile(
    rf"{_THE_GRAPH} may (?:contain|have) (?:multiple|parallel|repeated) {_EDGE}"
    rf"(?: between (?:two|any two) {_NODE})?|{_THE_GRAPH} may (?:contain|have) self[- ]?loops|"
    rf"{_THE_GRAPH} may not be connected",
    flags=re.I,
)


def graph_rows(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """A graph property of the statement's one list of integer rows (its edges), or a
    permission (read, nothing recorded). False: not a graph sentence."""
    props = _properties(text)
    if props is None:
        return _PERMISSION.fullmatch(text) is not None
    names = [p.name for p in facts.params if p.depth == 2 and p.leaf == "int" and not p.join]
    if len(names) != 1:
        raise Unsupported("a graph, but not one list of integer rows to hold its edges")
    _note(facts, names[0], props, line, acts)
    return True


def graph_pairs(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """No repeated edges, said of the rows a pair form names: ``All the pairs of trust are
    unique``, or ``All pairs (a_i, b_i) are distinct`` when a_i and b_i are the first two of
    more fields (an edge's ends, then its weight). Read before :func:`~.row_sentences.unique_rows`,
    which reads the pairs that are whole rows."""
    m = re.fullmatch(r"all (?:the )?pairs of (\w+) are (?:unique|distinct)", text, flags=re.I)
    name = m.group(1) if m and m.group(1) in facts.by_name else _end_pairs(facts, text)
    if name is None:
        return False
    _note(facts, name, ["simple"], line, acts)
    return True


def _note(facts: Facts, name: str, props: list[str], line: str, acts: Acts) -> None:
    p = facts.by_name[name]
    if p.depth != 2 or p.leaf != "int" or p.join:
        raise Unsupported(f"a graph's edges in {name}, which is not a list of integer rows")
    for prop in props:
        acts.append(partial(facts.leaf[name].graph.__setitem__, prop, line))


def _properties(text: str) -> list[str] | None:
    """The graph properties ``text`` states, or None when it is no graph sentence."""
    if _BOTH.fullmatch(text):
        return ["loops", "simple"]
    for prop, wording in _WORDINGS:
        if re.fullmatch(wording, text, flags=re.I):
            return [prop]
    m = re.fullmatch(rf"({_THE_GRAPH} is connected),? and (.+)", text, flags=re.I)
    if m:
        rest = _properties(m.group(2))
        return None if rest is None else ["connected", *rest]
    m = re.fullmatch(r"(.+?),? and that (.+)", text, flags=re.I)  # ``you can reach ... and that``
    if m:
        first, rest = _properties(m.group(1)), _properties(m.group(2))
        return None if first is None or rest is None else [*first, *rest]
    return None


def _end_pairs(facts: Facts, text: str) -> str | None:
    """``All pairs (a_i, b_i) are distinct`` where a_i and b_i are the first two fields of rows
    that have more (an edge's ends, then its weight): the name of those rows, else None."""
    pair = r"all (?:the )?pairs \[?\(?([^\]\)]+)\)?\]? are (?:unique|distinct)"
    m = re.fullmatch(pair, text, flags=re.I)
    if not m:
        return None
    owners = [facts.fields.get(f.strip()) for f in split_top(m.group(1))]
    if len(owners) != 2 or None in owners:
        return None
    (a, ca), (b, cb) = owners[0], owners[1]  # type: ignore[misc]
    if a != b or (ca, cb) != (0, 1) or len(facts.width_fields(a)) <= 2:
        return None
    return a


# ``a country of n cities ... where all the cities are connected by bi-directional roads``
# and ``Given a weighted undirected connected graph``
_DESCRIBED_CONNECTED = re.compile(
    rf"\ball (?:the )?{_NODE} are (?:connected|reachable from each other)\b|"
    r"\b(?:an?|the) (?:(?:weighted|undirected|bi-?directional|simple),? (?:and )?)*"
    r"connected (?:(?:weighted|undirected|simple) )*graph\b",
    flags=re.I,
)


def described_graph(facts: Facts, sentences: list[str]) -> None:
    """A graph's connectivity stated in the description (``where all the cities are connected
    by bi-directional roads``, ``Given a weighted undirected connected graph``), for rows a
    graph line made a graph's edges: read as connected. (Other description guarantees pass
    through :mod:`~.described`; this one has no marker, and without a graph line it is left
    as before.)"""
    graphs = [info for info in facts.leaf.values() if info.graph]
    for sentence in sentences:
        if _DESCRIBED_CONNECTED.search(sentence):
            for info in graphs:
                info.graph.setdefault("connected", sentence)


def matrix_rule(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """An adjacency matrix's rules: ``isConnected[i][i] == 1`` (``For all i grid[i][i] is 0``):
    every value on the diagonal (not every value: read as an element bound it would fill the
    whole matrix); ``isConnected[i][j] == isConnected[j][i]``: symmetric. The runtime draws the
    matrix, then sets its diagonal and mirrors its upper triangle below."""
    m = re.fullmatch(r"(?:for all i,? )?(\w+)\[([a-z])\]\[\2\] (?:==|=|is) (-?\d+)", text, re.I)
    sym = re.fullmatch(r"(\w+)\[([a-z])\]\[([a-z])\] == (\w+)\[\3\]\[\2\]", text)
    if sym and (sym.group(1) != sym.group(4) or sym.group(2) == sym.group(3)):
        sym = None
    if not m and not sym:
        return False
    name = (m or sym).group(1)  # type: ignore[union-attr]
    p = facts.by_name.get(name)
    if p is None:
        return False
    if p.depth != 2 or p.leaf != "int" or p.join or p.tree:
        raise Unsupported(f"a matrix rule for {name}, which is not a matrix of integers")
    info = facts.leaf[name]
    if m:
        acts.append(partial(setattr, info, "diag", (int(m.group(3)), line)))
    else:
        acts.append(partial(setattr, info, "symmetric", line))
    return True
