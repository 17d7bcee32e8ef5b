"""Names for row fields and relations between them in the offline synthesizer (issue 26,
``row_fields.py``, ``runtime_rows.py``, ``checker_rows.py``).

Statements we wrote in LeetCode's shapes: aliases that name a row's field (``items[i][0] ==
profit_i``, ``0 <= u_i == edges[i][0] < n``, ``x_i == queries[i][1]`` of a 1-indexed array), a
field bounded by others in its row (``1 <= duration_i <= end_i - start_i + 1``, ``1 <= r_i <=
min(x_i, y_i)``, ``1 < queries[i][1] - queries[i][0]``), two fields of consecutive rows
(``end_i < start_i+1``), names of fields in other words (``weight[i]``, ``weights_i`` for
``weight_i``) and the lengths of string fields (``1 <= cityA_i.length, cityB_i.length <= 10``).
Each is read, drawn on many seeds (random, perf and edge-case inputs) and asserted on with plain
code, checked by the independent checker, and the checker reports an input that breaks it;
what is not read is refused.
"""

from __future__ import annotations

import copy
from typing import Any

from quicksilver.synth import SynthInput
from tests import synthkit
from tests.synthkit import question, refused, reports, spec_of

SEEDS = 100


def draws(spec: dict[str, Any], n: int = SEEDS) -> list[list[Any]]:
    return synthkit.draws(spec, n, small_cap=12)


# -- aliases -----------------------------------------------------------------------------------

ITEMS = ["1 <= items.length == n <= 40", "items[i].length == 2", "1 <= k <= n"]
ITEMS_BOUNDS = ["1 <= profit_i <= 10^9", "1 <= category_i <= n"]
ITEMS_PROSE = "You are given items where items[i] = [profit_i, category_i]."
ITEMS_PARAMS = [("items", "integer[][]"), ("k", "integer")]


def test_an_alias_the_row_form_gives_says_nothing_new() -> None:
    """``items[i][0] == profit_i``, ``items[i][1] == category_i``: the row form's own names
    for those positions, so the spec is the one without them."""
    plain = spec_of(question(ITEMS_PARAMS, [*ITEMS, *ITEMS_BOUNDS], ITEMS_PROSE))
    aliased = spec_of(
        question(
            ITEMS_PARAMS,
            [*ITEMS, "items[i][0] == profit_i", "items[i][1] == category_i", *ITEMS_BOUNDS],
            ITEMS_PROSE,
        )
    )
    assert aliased == plain
    for items, _k in draws(aliased, 20):
        assert all(1 <= c <= len(items) for _, c in items), items


def test_an_alias_in_a_chain_keeps_its_bounds() -> None:
    """``0 <= u_i == edges[i][0] < n``: the alias links two names of one field, and the chain
    still bounds it."""
    inp = question(
        [("n", "integer"), ("edges", "integer[][]")],
        [
            "2 <= n <= 50",
            "1 <= edges.length <= 40",
            "edges[i].length == 2",
            "0 <= u_i == edges[i][0] < n",
            "0 <= v_i == edges[i][1] < n",
        ],
        "edges[i] = [u_i, v_i] is an edge from u_i to v_i.",
    )
    spec = spec_of(inp)
    for n, edges in draws(spec, 30):
        assert all(0 <= u < n and 0 <= v < n for u, v in edges), (n, edges)


def test_aliases_one_after_another_and_a_1_indexed_array() -> None:
    """``a_i == queries[i][0], b_i == queries[i][1]`` is two aliases; ``x_i == queries[i][1]``
    of a ``1-indexed`` array is its first field."""
    lines = ["1 <= queries.length <= 30", "queries[i].length == 2", "1 <= a_i, b_i <= 10"]
    spec = spec_of(
        question(
            [("queries", "integer[][]")],
            [*lines, "a_i == queries[i][0], b_i == queries[i][1]"],
            "queries[i] = [a_i, b_i].",
        )
    )
    assert spec["params"][0]["fields"] == ["a_i", "b_i"]
    one = [
        "1 <= queries.length <= 30",
        "queries[i].length == 2",
        "x_i == queries[i][1]",
        "y_i == queries[i][2]",
        "1 <= x_i, y_i <= 10^9",
    ]
    prose = "You are given a 1-indexed 2D array queries where queries[i] = [x_i, y_i]."
    spec = spec_of(question([("queries", "integer[][]")], one, prose))
    assert spec["params"][0]["cols"][1]["hi"] == [10**9]


def test_aliases_that_disagree_are_refused() -> None:
    """An alias naming another position than the row form's, a 1-indexed alias in a 0-indexed
    array, and a number position of a 1-indexed array's rows in another line."""
    why = refused(
        question(ITEMS_PARAMS, [*ITEMS, "items[i][1] == profit_i", *ITEMS_BOUNDS], ITEMS_PROSE)
    )
    assert "an alias of fields of items that the row form does not give" in why
    one = ["1 <= queries.length <= 30", "queries[i].length == 2", "x_i == queries[i][1]"]
    one += ["1 <= x_i, y_i <= 10^9"]
    why = refused(question([("queries", "integer[][]")], one, "queries[i] = [x_i, y_i]."))
    assert "does not give" in why
    prose = "You are given a 1-indexed 2D array queries where queries[i] = [x_i, y_i]."
    why = refused(question([("queries", "integer[][]")], [*one, "queries[i][0] <= 5"], prose))
    assert "a position of the rows of the 1-indexed queries" in why


# -- a field bounded by others in its row -----------------------------------------------------


def _tasks(*lines: str) -> SynthInput:
    return question(
        [("tasks", "integer[][]")],
        ["1 <= tasks.length <= 50", "tasks[i].length == 3", "1 <= start_i, end_i <= 200", *lines],
        "tasks[i] = [start_i, end_i, duration_i] runs for duration_i seconds.",
    )


def test_a_field_bounded_by_a_difference_of_two_others() -> None:
    """``1 <= duration_i <= end_i - start_i + 1``: the duration fits its interval (so the end is
    never before the start), and its range up to 200 is the bound the others imply."""
    spec = spec_of(_tasks("1 <= duration_i <= end_i - start_i + 1"))
    rows_spec = spec["params"][0]
    assert rows_spec["lins"] == [["row", 2, "<=", [[0, -1], [1, 1]], 1]]
    assert rows_spec["cols"][2]["hi"] == [200]
    longest = 0
    for (tasks,) in draws(spec):
        assert all(1 <= d <= e - s + 1 for s, e, d in tasks), tasks
        longest = max(longest, *(d for _, _, d in tasks))
    assert longest > 100
    args = next(a for a in draws(spec, 10) if len(a[0]) >= 2)
    bad = copy.deepcopy(args)
    s, e, _ = bad[0][1]
    bad[0][1] = [min(s, e), max(s, e), max(s, e) - min(s, e) + 2]
    reports(spec, bad, "tasks[1]", "breaks duration_i <=")


def test_a_field_in_two_orderings_and_a_least_gap() -> None:
    """``1 <= r_i <= min(x_i, y_i)``: the radius at most both coordinates (a field in two
    orderings); ``1 < queries[i][1] - queries[i][0]``: a gap of two at least."""
    spec = spec_of(
        question(
            [("circles", "integer[][]")],
            [
                "1 <= circles.length <= 40",
                "circles[i].length == 3",
                "1 <= x_i, y_i <= 100",
                "1 <= r_i <= min(x_i, y_i)",
            ],
            "circles[i] = [x_i, y_i, r_i] is a circle.",
        )
    )
    for (circles,) in draws(spec):
        assert all(1 <= r <= min(x, y) for x, y, r in circles), circles
    bad = [[[5, 3, 4]]]
    reports(spec, bad, "circles[0]", "breaks r_i <= 1 * y_i")
    spec = spec_of(
        question(
            [("n", "integer"), ("queries", "integer[][]")],
            [
                "3 <= n <= 30",
                "1 <= queries.length <= 30",
                "queries[i].length == 2",
                "0 <= queries[i][0] < queries[i][1] < n",
                "1 < queries[i][1] - queries[i][0]",
            ],
        )
    )
    for n, queries in draws(spec):
        assert all(a >= 0 and a + 2 <= b < n for a, b in queries), (n, queries)
    reports(spec, [3, [[0, 1]]], "queries[0]", ">=")


def test_relations_between_fields_that_are_refused() -> None:
    """Two targets bounded by each other, a field equal to an expression of others, and a
    relation in rows with a value set."""
    why = refused(
        _tasks("1 <= duration_i <= end_i - start_i + 1", "start_i <= duration_i + end_i - 5")
    )
    assert "bounded by each other" in why
    why = refused(_tasks("duration_i == end_i - start_i"))
    assert "a field equal to an expression of other fields" in why
    why = refused(_tasks("1 <= duration_i <= end_i - start_i + 1", "duration_i is 1 or 2"))
    assert "not in a range" in why


# -- fields of consecutive rows ------------------------------------------------------------------


def _two_lists(first: str, second: str, top: str = "10^9") -> SynthInput:
    return question(
        [("firstList", "integer[][]"), ("secondList", "integer[][]")],
        [
            "0 <= firstList.length, secondList.length <= 40",
            "firstList.length + secondList.length >= 1",
            f"0 <= start_i < end_i <= {top}",
            first,
            f"0 <= start_j < end_j <= {top}",
            second,
        ],
        "firstList[i] = [start_i, end_i] and secondList[j] = [start_j, end_j].",
    )


def test_rows_sorted_and_disjoint() -> None:
    """``end_i < start_i+1`` (and ``end_j < start_j+1`` of the second list): each interval ends
    before the next one starts, so the rows are sorted and disjoint."""
    spec = spec_of(_two_lists("end_i < start_i+1", "end_j < start_j+1"))
    assert spec["params"][1]["lins"] == [["next", 1, 0, "<"]]
    for first, second in draws(spec):
        for rows in (first, second):
            flat = [x for row in rows for x in row]
            assert flat == sorted(set(flat)), rows
    bad = [[[0, 5], [5, 9]], [[1, 2]]]
    reports(spec, bad, "firstList[0][1] = 5 and firstList[1][0] = 5", "of the next row")


def test_consecutive_rows_with_no_room_are_refused() -> None:
    """80 values for 40 rows do not fit in [0, 30]; an order with no pair inside the row."""
    why = refused(_two_lists("end_i < start_i+1", "end_j < start_j+1", top="30"))
    assert "no room for two distinct values a row" in why
    why = refused(
        question(
            [("rows", "integer[][]")],
            ["1 <= rows.length <= 9", "rows[i].length == 2", "0 <= a_i, b_i <= 99", "b_i < a_i+1"],
            "rows[i] = [a_i, b_i].",
        )
    )
    assert "with no order between them in a row" in why


# -- names of fields ---------------------------------------------------------------------------


def test_fields_named_with_an_index_or_a_letter_apart() -> None:
    """``1 <= weight[i] <= 10^5`` for ``edges[i] = [from_i, to_i, weight_i]``, and ``1 <=
    weights_i <= maxWeight`` for ``boxes[i] = [ports_i, weight_i]`` (LeetCode's slips)."""
    spec = spec_of(
        question(
            [("n", "integer"), ("edges", "integer[][]")],
            [
                "3 <= n <= 50",
                "0 <= edges.length <= 40",
                "edges[i].length == 3",
                "0 <= from_i, to_i <= n - 1",
                "1 <= weight[i] <= 10^5",
            ],
            "edges[i] = [from_i, to_i, weight_i] is an edge.",
        )
    )
    assert spec["params"][1]["cols"][2] == {"type": "int", "lo": [1], "hi": [100000]}
    spec = spec_of(
        question(
            [("boxes", "integer[][]"), ("portsCount", "integer"), ("maxWeight", "integer")],
            [
                "1 <= boxes.length <= 40",
                "1 <= portsCount, maxWeight <= 10^5",
                "1 <= ports_i <= portsCount",
                "1 <= weights_i <= maxWeight",
            ],
            "You are given boxes, where boxes[i] = [ports_i, weight_i].",
        )
    )
    for boxes, _ports, most in draws(spec, 30):
        assert all(1 <= w <= most for _, w in boxes), (most, boxes)
    reports(spec, [[[1, 7]], 1, 6], "boxes[0][1] (weight_i) = 7")


# -- lengths of string fields --------------------------------------------------------------------

PATHS = ["1 <= paths.length <= 30", "paths[i].length == 2"]
PATHS_PROSE = "You are given paths, where paths[i] = [cityA_i, cityB_i]."


def test_lengths_and_alphabet_of_string_fields() -> None:
    """``1 <= cityA_i.length, cityB_i.length <= 10`` and ``cityA_i and cityB_i consist of
    lowercase English letters``: every string of the rows; ``from_i.length == 3`` and
    ``to_i.length == 3``, one line per field in the same words, likewise."""
    spec = spec_of(
        question(
            [("paths", "string[][]")],
            [
                *PATHS,
                "1 <= cityA_i.length, cityB_i.length <= 10",
                "cityA_i and cityB_i consist of lowercase English letters.",
            ],
            PATHS_PROSE,
        )
    )
    for (paths,) in draws(spec, 30):
        assert all(len(r) == 2 and all(1 <= len(c) <= 10 and c.isalpha() for c in r) for r in paths)
    reports(spec, [[["a" * 11, "b"]]], "paths[0][0].length = 11")
    spec = spec_of(
        question(
            [("tickets", "string[][]")],
            [
                "1 <= tickets.length <= 30",
                "tickets[i].length == 2",
                "from_i.length == 3",
                "to_i.length == 3",
                "from_i and to_i consist of uppercase English letters.",
            ],
            "tickets[i] = [from_i, to_i] is a flight.",
        )
    )
    for (tickets,) in draws(spec, 30):
        assert all(len(c) == 3 and c.isupper() for r in tickets for c in r), tickets


def test_string_fields_said_apart_are_refused() -> None:
    """Other bounds for each field (their strings are drawn alike), and ``!=`` between them."""
    why = refused(
        question(
            [("paths", "string[][]")],
            [
                *PATHS,
                "1 <= cityA_i.length <= 10",
                "1 <= cityB_i.length <= 5",
                "paths[i][j] consists of lowercase English letters.",
            ],
            PATHS_PROSE,
        )
    )
    assert "says of some fields of paths what it does not say of all" in why
    why = refused(
        question(
            [("paths", "string[][]")],
            [
                *PATHS,
                "1 <= cityA_i.length, cityB_i.length <= 10",
                "paths[i][j] consists of lowercase English letters.",
                "cityA_i != cityB_i",
            ],
            PATHS_PROSE,
        )
    )
    assert "cityA_i != cityB_i" in why
