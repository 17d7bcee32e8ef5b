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
        (["1 <= graph[u].length"], "a least degree above 0"),
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
