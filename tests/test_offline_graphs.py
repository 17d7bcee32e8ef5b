"""Graph guarantees in the offline synthesizer (quicksilver/synth/offline/graph_sentences.py, the
runtime's ``_graph_edges``, the checker's ``_check_graph``).

Statements we wrote in LeetCode's shapes: each guarantee (no self loops, no repeated edges,
connected, acyclic) is read, drawn on many seeds and checked twice, by the independent checker
and by the plain graph code here; the checker reports an input that breaks each one; a graph
guarantee that is not read is still refused.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from quicksilver.synth import SynthInput
from quicksilver.synth.offline import build_spec, emit_generator, sample_spec
from quicksilver.synth.offline.checker import check_input

SEEDS = 150


def li(text: str) -> str:
    """A Constraints item as LeetCode writes it (``<=`` escaped)."""
    text = re.sub(r"\^(\d+)", r"<sup>\1</sup>", text)
    text = text.replace("<=", "&lt;=").replace(">=", "&gt;=")
    return text.replace(" < ", " &lt; ").replace(" > ", " &gt; ")


def question(prose: str, params: list[tuple[str, str]], items: list[str]) -> SynthInput:
    meta = {
        "name": "f",
        "params": [{"name": n, "type": t} for n, t in params],
        "return": {"type": "integer"},
    }
    body = "".join(f"\t<li>{li(i)}</li>\n" for i in items)
    content = f"<p>{prose}</p>\n<p><strong>Constraints:</strong></p>\n<ul>\n{body}</ul>\n"
    return SynthInput(slug="t", title="T", content_html=content, meta=meta, prompt="")


UNDIRECTED = "There is an undirected graph with n nodes, where edges[i] = [a_i, b_i, w_i]."
DIRECTED = "There is a directed graph with n nodes, where edges[i] = [a_i, b_i]."
NODES = [("n", "integer"), ("edges", "integer[][]")]


def weighted(
    *lines: str, lo: str = "1 <= n <= 30", count: str = "0 <= edges.length <= 200"
) -> SynthInput:
    return question(
        UNDIRECTED,
        NODES,
        [lo, count, "edges[i].length == 3", "0 <= a_i, b_i <= n - 1", "1 <= w_i <= 10^5", *lines],
    )


def spec_of(inp: SynthInput) -> dict[str, Any]:
    result = build_spec(inp)
    assert result.spec is not None, result.problems
    return result.spec


def draws(spec: dict[str, Any], n: int = SEEDS) -> list[list[Any]]:
    """Random inputs, one perf input, and the emitted generator's edge cases."""
    out = [sample_spec(spec, seed) for seed in range(n)]
    out.append(sample_spec(spec, 1, 100, mode="max"))
    ns: dict[str, Any] = {}
    exec(compile(emit_generator(spec, 1000), "gen.py", "exec", dont_inherit=True), ns)
    out += ns["generate_edge_cases"]()
    return out


def components(n: int, edges: list[list[int]], lo: int = 0) -> int:
    parent = list(range(lo, lo + n))

    def root(v: int) -> int:
        while parent[v - lo] != v:
            v = parent[v - lo]
        return v

    for a, b, *_ in edges:
        parent[root(a) - lo] = root(b)
    return len({root(v) for v in range(lo, lo + n)})


@pytest.mark.parametrize(
    "line",
    [
        "There are no self edges.",
        "The graph does not contain self loops.",
        "There are no self-loops.",
    ],
)
def test_no_self_loops(line: str) -> None:
    spec = spec_of(weighted(line))
    assert spec["params"][1]["graph"]["no_loops"]
    for n, edges in draws(spec):
        assert all(a != b for a, b, _ in edges), edges
        assert all(0 <= a < n and 0 <= b < n for a, b, _ in edges)


@pytest.mark.parametrize(
    "line",
    [
        "There is at most one edge between any two nodes.",
        "There are no multiple edges in the graph.",
        "All pairs (a_i, b_i) are distinct.",
        "Each pair of nodes has at most one edge connecting them.",
    ],
)
def test_no_repeated_edges_in_either_order(line: str) -> None:
    """An undirected graph: (a, b) and (b, a) are one edge; the count stays within the pairs
    there are (n * (n - 1) / 2), and dense graphs are drawn too."""
    spec = spec_of(weighted("a_i != b_i", line))
    dense = 0
    for n, edges in draws(spec):
        pairs = [frozenset((a, b)) for a, b, _ in edges]
        assert len(set(pairs)) == len(pairs), edges
        assert len(edges) <= n * (n - 1) // 2
        dense += len(edges) > n
    assert dense > SEEDS // 10  # not only sparse graphs (a linear bound would give none)


def test_directed_graphs_keep_both_directions() -> None:
    """A directed graph whose pairs are unique may hold (a, b) and (b, a); at most one edge
    between two nodes holds in either direction."""
    items = [
        "2 <= n <= 6",
        "1 <= times.length <= 25",
        "times[i].length == 3",
        "0 <= a_i, b_i < n",
        "a_i != b_i",
        "0 <= w_i <= 100",
    ]
    prose = "A directed graph with n nodes, where times[i] = [a_i, b_i, w_i]."
    params = [("n", "integer"), ("times", "integer[][]")]
    spec = spec_of(question(prose, params, [*items, "All the pairs (a_i, b_i) are unique."]))
    assert spec["params"][1]["graph"]["directed"]
    both = 0
    for n, times in draws(spec):
        assert len({(a, b) for a, b, _ in times}) == len(times)
        both += any([b, a] == t[:2] for a, b, _ in times for t in times)
        assert check_input(spec, [n, times]) == []
    assert both > 0
    line = "There is at most one edge between any two nodes."
    spec = spec_of(question(prose, params, [*items, line]))
    for _, times in draws(spec):
        assert len({frozenset((a, b)) for a, b, _ in times}) == len(times)
    n, times = sample_spec(spec, 3)
    assert any("second edge" in p for p in check_input(spec, [n, [*times, [*times[0][1::-1], 1]]]))


@pytest.mark.parametrize(
    "line",
    [
        "The given graph is connected.",
        "There is at least one path between any two nodes.",
        "You can reach any node from any other node.",
        "Each vertex can be reached directly or indirectly from every other vertex.",
    ],
)
def test_connected(line: str) -> None:
    """A spanning tree first, then more edges: connected, at least n - 1 edges, cycles too."""
    spec = spec_of(
        weighted(
            "a_i != b_i",
            "There are no repeated edges.",
            line,
            lo="2 <= n <= 30",
            count="n - 1 <= edges.length <= 100",
        )
    )
    cyclic = 0
    for n, edges in draws(spec):
        assert components(n, edges) == 1, (n, edges)
        cyclic += len(edges) > n - 1
    assert cyclic > SEEDS // 10


def test_connected_graph_with_as_many_edges_as_nodes() -> None:
    """``edges.length == n`` (one redundant edge): the count is the node count itself."""
    inp = question(
        "An undirected graph, edges[i] = [a_i, b_i].",
        [("edges", "integer[][]")],
        [
            "n == edges.length",
            "3 <= n <= 200",
            "edges[i].length == 2",
            "1 <= a_i < b_i <= edges.length",
            "There are no repeated edges.",
            "The given graph is connected.",
        ],
    )
    spec = spec_of(inp)
    for (edges,) in draws(spec, 60):
        assert components(len(edges), edges, lo=1) == 1
        assert all(a < b for a, b in edges) and len({tuple(e) for e in edges}) == len(edges)


@pytest.mark.parametrize(
    "line",
    ["The given graph is a directed acyclic graph.", "The input graph is guaranteed to be a DAG."],
)
def test_acyclic(line: str) -> None:
    inp = question(
        DIRECTED,
        NODES,
        [
            "1 <= n <= 15",
            "0 <= edges.length <= 40",
            "edges[i].length == 2",
            "0 <= a_i, b_i < n",
            line,
        ],
    )
    spec = spec_of(inp)
    for n, edges in draws(spec):
        into = [0] * n
        for _, b in edges:
            into[b] += 1
        free = [v for v in range(n) if not into[v]]
        seen = 0
        while free:  # Kahn: every node leaves when there is no cycle
            v = free.pop()
            seen += 1
            for a, b in edges:
                if a == v:
                    into[b] -= 1
                    if not into[b]:
                        free.append(b)
        assert seen == n, edges


def broken(spec: dict[str, Any], mutate: Any) -> list[str]:
    """The checker's problems with a valid input changed by ``mutate`` (edges, n) -> edges."""
    for seed in range(200):
        n, edges = sample_spec(spec, seed)[:2]
        bad = mutate(copy.deepcopy(edges), n)
        if bad is not None:
            return check_input(spec, [n, bad])
    raise AssertionError("no draw to mutate")


def test_the_checker_reports_each_broken_graph_guarantee() -> None:
    simple = spec_of(
        weighted(
            "There are no self edges.",
            "There are no repeated edges.",
            "The given graph is connected.",
            lo="3 <= n <= 30",
            count="n - 1 <= edges.length <= 100",
        )
    )
    loop = broken(simple, lambda e, n: [*e[:-1], [e[-1][0], e[-1][0], 5]] if e else None)
    assert any("joins a node to itself" in p for p in loop), loop
    again = broken(simple, lambda e, n: [*e[:-1], [e[0][1], e[0][0], 7]] if len(e) >= 2 else None)
    assert any("second edge" in p for p in again), again
    apart = broken(simple, lambda e, n: [r for r in e if 0 not in r[:2]])
    assert any("not connected" in p for p in apart), apart
    dag = spec_of(
        question(
            DIRECTED,
            NODES,
            [
                "2 <= n <= 15",
                "1 <= edges.length <= 40",
                "edges[i].length == 2",
                "0 <= a_i, b_i < n",
                "The given graph is a directed acyclic graph.",
            ],
        )
    )
    cycle = broken(dag, lambda e, n: [*e, [e[0][1], e[0][0]]])
    assert any("cycle" in p for p in cycle), cycle


@pytest.mark.parametrize(
    ("line", "prose"),
    [
        ("The graph is planar.", UNDIRECTED),
        ("The given graph is strongly connected.", DIRECTED),
        ("The given graph is connected.", DIRECTED),  # directed: connected how?
        ("There are at most four edges connected to each node.", UNDIRECTED),
    ],
)
def test_unread_graph_guarantees_are_refused(line: str, prose: str) -> None:
    inp = question(
        prose,
        NODES,
        [
            "2 <= n <= 30",
            "n - 1 <= edges.length <= 100",
            "edges[i].length == 2",
            "0 <= a_i, b_i < n",
            line,
        ],
    )
    result = build_spec(inp)
    assert result.spec is None
    assert any(line.rstrip(".") in p for p in result.problems), result.problems


@pytest.mark.parametrize(
    "prose",
    [
        "Given a weighted undirected connected graph with n nodes, edges[i] = [a_i, b_i, w_i].",
        "A country of n cities where all the cities are connected by bi-directional roads, "
        "edges[i] = [a_i, b_i, w_i].",
    ],
)
def test_connected_in_the_description(prose: str) -> None:
    """A graph line read, and the description says the graph is connected: drawn connected."""
    items = [
        "2 <= n <= 30",
        "n - 1 <= edges.length <= 100",
        "edges[i].length == 3",
        "0 <= a_i, b_i <= n - 1",
        "1 <= w_i <= 100",
        "The graph may contain multiple edges between two nodes.",  # a permission: nothing
        "The graph does not contain self loops.",
    ]
    spec = spec_of(question(prose, NODES, items))
    assert spec["params"][1]["graph"]["connected"]
    assert not spec["params"][1]["graph"]["simple"]
    for n, edges in draws(spec, 60):
        assert components(n, edges) == 1


def test_two_guarantees_in_one_sentence() -> None:
    """The description's guarantee, two graph properties joined by ``and that``."""
    prose = (
        f"{UNDIRECTED} The inputs are generated such that you can reach any node from any "
        "other node and that there is at most one edge between any two nodes."
    )
    items = [
        "2 <= n <= 30",
        "n - 1 <= edges.length <= 100",
        "edges[i].length == 3",
        "0 <= a_i, b_i <= n - 1",
        "1 <= w_i <= 100",
        "a_i != b_i",
    ]
    spec = spec_of(question(prose, NODES, items))
    graph = spec["params"][1]["graph"]
    assert graph["connected"] and graph["simple"]
    for n, edges in draws(spec, 60):
        assert components(n, edges) == 1
        assert len({frozenset(e[:2]) for e in edges}) == len(edges)


def test_a_graph_of_adjacency_lists_is_refused() -> None:
    """``graph[i]`` the neighbours of i (no fields): a graph line about it is not dropped."""
    inp = question(
        "An undirected graph with n nodes, graph[i] the nodes next to node i.",
        [("graph", "integer[][]")],
        [
            "1 <= graph.length <= 12",
            "0 <= graph[i].length < graph.length",
            "0 <= graph[i][j] < graph.length",
            "The input graph is always connected.",
        ],
    )
    result = build_spec(inp)
    assert result.spec is None and result.problems


def test_an_adjacency_matrix_diagonal_and_symmetry() -> None:
    """``isConnected[i][i] == 1`` sets the diagonal only (read as an element bound it filled
    the whole matrix with 1), ``isConnected[i][j] == isConnected[j][i]`` mirrors it."""
    items = [
        "1 <= n <= 40",
        "n == isConnected.length",
        "n == isConnected[i].length",
        "isConnected[i][j] is 1 or 0.",
        "isConnected[i][i] == 1",
    ]
    params = [("isConnected", "integer[][]")]
    diag = spec_of(question("Do it.", params, items))
    assert diag["params"][0]["leaf"]["set"] == [1, 0]
    zeros = 0
    for (m,) in draws(diag, 60):
        assert all(row[i] == 1 for i, row in enumerate(m))
        zeros += any(0 in row for row in m)
    assert zeros > 30
    spec = spec_of(question("Do it.", params, [*items, "isConnected[i][j] == isConnected[j][i]"]))
    for (m,) in draws(spec):
        n = len(m)
        assert all(len(row) == n and row[i] == 1 for i, row in enumerate(m))
        assert all(m[i][j] == m[j][i] for i in range(n) for j in range(n)), m
    m = next(x for (x,) in (sample_spec(spec, s) for s in range(50)) if len(x) >= 2)
    m[0][1] = 1 - m[1][0]
    assert any("symmetric" in p for p in check_input(spec, [m]))
    m[0][1], m[0][0] = m[1][0], 0
    assert any("the diagonal" in p for p in check_input(spec, [m]))
