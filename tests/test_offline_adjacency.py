"""Graphs given as adjacency lists in the offline synthesizer
(quicksilver/synth/offline/adjacency.py, runtime_adj.py, checker_adj.py).

Statements we wrote in LeetCode's shapes: ``graph[i]`` lists the nodes adjacent to node i, with
no self loops (``graph[u] does not contain u``), undirected (``If graph[u] contains v, then
graph[v] contains u``), acyclic or connected. Each is read, drawn on many seeds (random, perf
and edge-case inputs) and asserted on here with plain code, checked by the independent checker,
and the checker reports an input that breaks it; what cannot be met is refused.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import pytest

from quicksilver.synth.offline.checker import check_input
from tests.synthkit import draws, question, refused, reports, spec_of

GRAPH = [("graph", "integer[][]")]
SIZES = ["graph.length == n", "1 <= n <= 60", "0 <= graph[u].length < n"]
UNDIRECTED = [
    *SIZES,
    "0 <= graph[u][i] <= n - 1",
    "All the values of graph[u] are unique.",
]


def adjacency(spec: dict[str, Any]) -> dict[str, Any]:
    return next(p for p in spec["params"] if p["name"] == "graph")["adj"]


def reachable(rows: list[list[int]]) -> int:
    seen, walk = {0}, deque([0])
    while walk:
        for j in rows[walk.popleft()]:
            if j not in seen:
                seen.add(j)
                walk.append(j)
    return len(seen)


def acyclic(rows: list[list[int]]) -> bool:
    state = [0] * len(rows)  # 0 new, 1 on the path, 2 done

    def visit(i: int) -> bool:
        state[i] = 1
        for j in rows[i]:
            if state[j] == 1 or (state[j] == 0 and not visit(j)):
                return False
        state[i] = 2
        return True

    return all(state[i] or visit(i) for i in range(len(rows)))


@pytest.mark.parametrize(
    "loops",
    ["graph[u] does not contain u.", "graph[u][i] != u", "graph[u] doesn't contain u."],
)
@pytest.mark.parametrize(
    "symmetric",
    [
        "If graph[u] contains v, then graph[v] contains u.",
        "if graph[u] contains v, then graph[v] also contains u",
        "If v is in graph[u], then u is in graph[v].",
    ],
)
def test_an_undirected_adjacency_list_is_drawn_symmetric_without_loops(
    loops: str, symmetric: str
) -> None:
    spec = spec_of(question(GRAPH, [*UNDIRECTED, loops, symmetric]))
    adj = adjacency(spec)
    assert adj["symmetric"] and adj["no_loops"] and adj["simple"] and not adj["dag"]
    degrees = set()
    for (rows,) in draws(spec, 30, small_cap=20):
        n = len(rows)
        for i, row in enumerate(rows):
            assert i not in row and len(set(row)) == len(row)
            assert all(0 <= j < n and i in rows[j] for j in row)
        degrees |= {len(row) for row in rows}
    assert len(degrees) > 5  # the rows' lengths differ: a graph, not one length for every row


def test_a_connected_graph_with_no_stated_range_holds_node_ids() -> None:
    items = [
        "n == graph.length",
        "1 <= n <= 12",
        "0 <= graph[i].length < n",
        "graph[i] does not contain i.",
        "If graph[a] contains b, then graph[b] contains a.",
        "The input graph is always connected.",
    ]
    spec = spec_of(question(GRAPH, items, "You have an undirected, connected graph of n nodes."))
    assert adjacency(spec)["connected"]
    for (rows,) in draws(spec, 40):
        assert reachable(rows) == len(rows)
        assert all(0 <= j < len(rows) != j for row in rows for j in row)


def test_a_dag_given_as_lists_is_acyclic() -> None:
    items = [
        "n == graph.length",
        "2 <= n <= 15",
        "0 <= graph[i][j] < n",
        "graph[i][j] != i (i.e., there will be no self-loops).",
        "All the elements of graph[i] are unique.",
        "The input graph is guaranteed to be a DAG.",
    ]
    spec = spec_of(question(GRAPH, items))
    adj = adjacency(spec)
    assert adj["dag"] and not adj["symmetric"]
    edges = 0
    for (rows,) in draws(spec, 40):
        assert acyclic(rows)
        assert all(i not in row and len(set(row)) == len(row) for i, row in enumerate(rows))
        edges += sum(map(len, rows))
    assert edges > 0


def test_a_stated_bound_on_the_degree_holds_in_every_row() -> None:
    items = [*UNDIRECTED, "graph[u].length <= 3", "graph[u] does not contain u."]
    items.append("If graph[u] contains v, then graph[v] contains u.")
    spec = spec_of(question(GRAPH, items))
    for (rows,) in draws(spec, 30):
        assert all(len(row) <= 3 for row in rows)
    bad = [[1, 2, 3, 4], [0], [0], [0], [0]]
    reports(spec, [bad], "graph[0].length = 4", "graph[u].length <= 3")


def test_without_the_sentences_the_spec_is_as_before() -> None:
    spec = spec_of(question(GRAPH, UNDIRECTED))
    graph = next(p for p in spec["params"] if p["name"] == "graph")
    assert "adj" not in graph


def test_the_checker_reports_each_broken_rule() -> None:
    items = [*UNDIRECTED, "graph[u] does not contain u."]
    items.append("If graph[u] contains v, then graph[v] contains u.")
    spec = spec_of(question(GRAPH, items))
    assert check_input(spec, [[[1], [0, 2], [1]]]) == []
    reports(spec, [[[0, 1], [0], []]], "graph[0] contains 0")
    reports(spec, [[[1], [], []]], "graph[0] contains 1", "graph[1] does not contain 0")
    reports(spec, [[[1, 1], [0], []]], "graph[0]")
    reports(spec, [[[3], [], []]], "not a node id")
    dag = [
        "n == graph.length",
        "2 <= n <= 15",
        "0 <= graph[i].length < n",
        "0 <= graph[i][j] < n",
        "graph[i][j] != i",
        "The input graph is guaranteed to be a DAG.",
    ]
    reports(spec_of(question(GRAPH, dag)), [[[1], [2], [0]]], "cycle")
    connected = [*items, "The input graph is always connected."]
    reports(spec_of(question(GRAPH, connected)), [[[1], [0], []]], "not reachable")
    loose = [*SIZES, "If graph[u] contains v, then graph[v] contains u."]  # no uniqueness
    reports(spec_of(question(GRAPH, loose)), [[[1, 1, 1], [0], []]], "graph[0].length = 3")


@pytest.mark.parametrize(
    ("extra", "why"),
    [
        (["The given graph is connected."], "a connected directed graph"),
        (
            ["If graph[u] contains v, then graph[v] contains u.", "The graph is a DAG."],
            "an acyclic graph whose lists are symmetric",
        ),
        (["1 <= graph[u].length"], "a least degree"),
        (["graph[u].length is even"], "another rule"),
        (["graph[i] is unique."], "another rule"),
    ],
)
def test_what_cannot_be_met_is_refused(extra: list[str], why: str) -> None:
    items = [*UNDIRECTED, "graph[u] does not contain u.", *extra]
    assert why in refused(question(GRAPH, items))


def test_rows_whose_lengths_only_constants_bound_are_refused() -> None:
    items = ["graph.length == n", "1 <= n <= 60", "0 <= graph[u].length <= 4"]
    items += ["0 <= graph[u][i] <= n - 1", "graph[u] does not contain u."]
    assert "drawn per row" in refused(question(GRAPH, items))


def test_node_ids_other_than_0_to_n_minus_1_are_refused() -> None:
    items = [*SIZES, "1 <= graph[u][i] <= n", "graph[u] does not contain u."]
    assert "not 0 to n - 1" in refused(question(GRAPH, items))


# -- a degree bound on a graph's edges in rows (graph_degree.py) --------------------------------

EDGES = [("n", "integer"), ("edges", "integer[][]")]
EDGE_ITEMS = [
    "1 <= n <= 300",
    "0 <= edges.length <= 600",
    "edges[i].length == 2",
    "1 <= x_i, y_i <= n",
    "x_i != y_i",
]
EDGE_PROSE = "edges[i] = [x_i, y_i] is a bidirectional path between garden x_i and garden y_i."


def degrees(rows: list[list[int]]) -> list[int]:
    count: dict[int, int] = {}
    for row in rows:
        for end in row[:2]:
            count[end] = count.get(end, 0) + 1
    return list(count.values())


@pytest.mark.parametrize(
    ("sentence", "k"),
    [
        ("There are at most four edges connected to each node.", 4),
        ("Every garden has at most 3 paths coming into or leaving it.", 3),
        ("All gardens have at most 3 paths coming into or leaving it.", 3),
        ("Each node has at most 2 neighbors.", 2),
        ("The degree of each node is at most 3.", 3),
    ],
)
def test_a_degree_bound_holds_at_every_node(sentence: str, k: int) -> None:
    spec = spec_of(question(EDGES, [*EDGE_ITEMS, sentence], EDGE_PROSE))
    edges = next(p for p in spec["params"] if p["name"] == "edges")
    assert edges["graph"]["deg_max"] == k
    most, sizes = 0, set()
    for _, rows in draws(spec, 40):
        most = max([most, *degrees(rows)])
        sizes.add(len(rows))
        assert all(a != b for a, b in rows)
    assert most == k and len(sizes) > 10  # the bound is reached, and the edge count varies


def test_without_the_degree_bound_a_node_has_more_edges() -> None:
    spec = spec_of(question(EDGES, EDGE_ITEMS, EDGE_PROSE))
    assert "graph" not in next(p for p in spec["params"] if p["name"] == "edges")
    assert max(max(degrees(rows), default=0) for _, rows in draws(spec, 20)) > 4


def test_a_degree_bound_with_a_connected_or_acyclic_graph() -> None:
    items = [*EDGE_ITEMS, "Every node has at most 3 edges.", "The given graph is connected."]
    items[1] = "n - 1 <= edges.length <= 600"
    spec = spec_of(question(EDGES, items, EDGE_PROSE))
    for n, rows in draws(spec, 40):
        assert max(degrees(rows), default=0) <= 3
        seen, walk = {1}, [1]
        while walk:
            x = walk.pop()
            for a, b in rows:
                for y in (b,) if a == x else (a,) if b == x else ():
                    if y not in seen:
                        seen.add(y)
                        walk.append(y)
        assert len(seen) == n
    dag = [*EDGE_ITEMS, "Every node has at most 3 edges.", "The given graph is a DAG."]
    spec = spec_of(question(EDGES, dag, EDGE_PROSE))
    for _, rows in draws(spec, 30):
        adj = [[] for _ in range(301)]
        for a, b in rows:
            adj[a].append(b)
        assert acyclic(adj)


def test_the_checker_reports_a_node_above_the_degree_bound() -> None:
    spec = spec_of(question(EDGES, [*EDGE_ITEMS, "Every node has at most 3 edges."], EDGE_PROSE))
    assert check_input(spec, [5, [[1, 2], [1, 3], [1, 4]]]) == []
    reports(spec, [5, [[1, 2], [1, 3], [1, 4], [5, 1]]], "node 1 has 4 edges", "bound 3")


def test_a_degree_bound_without_one_list_of_edges_is_refused() -> None:
    params = [*EDGES, ("queries", "integer[][]")]
    items = [*EDGE_ITEMS, "queries[i].length == 2", "0 <= queries[i][j] <= n"]
    items.append("There are at most four edges connected to each node.")
    assert "not of one list of integer rows" in refused(question(params, items, EDGE_PROSE))
