"""Names the description gives to fields in the offline synthesizer (issue 26): a row form with
another index (``queries[j] = [row_j, col_j]``) and the items of a list of a fixed length
(``startPos = [start_row, start_col]``, ``newInterval = [start, end]``), then bounded by the
Constraints; and what the description says about those rows (a tree's edges, a unique field).

Statements we wrote in LeetCode's shapes. Each is read, drawn on many seeds (random, perf and
edge-case inputs) and asserted on here with plain code, checked by the independent checker,
and the checker reports an input that breaks it; what is still not read is refused.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from quicksilver.synth.offline import build_spec, sample_spec
from tests import synthkit
from tests.synthkit import question, refused, reports, spec_of

SEEDS = 120


def draws(spec: dict[str, Any], n: int = SEEDS) -> list[list[Any]]:
    return synthkit.draws(spec, n)


# -- the items of a list of a fixed length ------------------------------------------------------

ROBOT = [
    "m == rowCosts.length",
    "n == colCosts.length",
    "1 <= m, n <= 50",
    "0 <= rowCosts[r], colCosts[c] <= 10^4",
    "startPos.length == 2",
    "0 <= start_row < m",
    "0 <= start_col < n",
    "span.length == 2",
    "0 <= lo <= hi <= 10^5",
]
ROBOT_PARAMS = [
    ("startPos", "integer[]"),
    ("span", "integer[]"),
    ("rowCosts", "integer[]"),
    ("colCosts", "integer[]"),
]
ROBOT_PROSE = (
    "A robot stands at startPos = [start_row, start_col] of an m x n grid. You are also "
    "given an interval span = [lo, hi]."
)


def test_items_of_a_fixed_length_list() -> None:
    """``startPos = [start_row, start_col]`` with ``startPos.length == 2``: each item within its
    own range (a row inside ``m``, a column inside ``n``), and ``0 <= lo <= hi``: the two items
    of ``span`` in order."""
    spec = spec_of(question(ROBOT_PARAMS, ROBOT, ROBOT_PROSE))
    start, span = spec["params"][0], spec["params"][1]
    assert start["fields"] == ["start_row", "start_col"] and len(start["dims"]) == 1
    assert span["pairs"] == [[0, 1, "<="]]
    rows = set()
    for pos, (lo, hi), row_costs, col_costs in draws(spec):
        assert len(pos) == 2
        assert 0 <= pos[0] < len(row_costs) and 0 <= pos[1] < len(col_costs), pos
        assert 0 <= lo <= hi <= 10**5
        rows.add(pos[0])
    assert len(rows) > 10  # drawn across the grid, not pinned
    good = sample_spec(spec, 1)
    bad = copy.deepcopy(good)
    bad[0][0] = len(bad[2])  # start_row == m: off the grid
    reports(spec, bad, "start_row")
    bad = copy.deepcopy(good)
    bad[1] = [7, 3]
    reports(spec, bad, "lo <= hi")


def test_zero_width_characters_inside_a_name_are_not_part_of_it() -> None:
    """LeetCode's editor leaves zero-width spaces inside words (``start_\u200b\u200brow``, 49
    of 2,264 public statements): the text is read without them (sources/text.html_to_text), so
    the description's name is the one the Constraints use."""
    prose = ROBOT_PROSE.replace("start_row", "start_\u200b\u200brow").replace("hi]", "h\ufeffi]")
    assert "\u200b" in prose
    spec = spec_of(question(ROBOT_PARAMS, ROBOT, prose))
    assert spec == spec_of(question(ROBOT_PARAMS, ROBOT, ROBOT_PROSE))


def test_fixed_length_list_needs_its_length() -> None:
    """Without ``startPos.length == 2`` (or with another length than the names) the list's
    items are no fields of one row: reported, never guessed."""
    items = [i for i in ROBOT if not i.startswith("startPos.length")]
    assert "fields per row need rows of one stated length" in refused(
        question(ROBOT_PARAMS, items, ROBOT_PROSE)
    )
    items = [i.replace("startPos.length == 2", "startPos.length == 3") for i in ROBOT]
    assert "startPos" in refused(question(ROBOT_PARAMS, items, ROBOT_PROSE))


def test_a_position_named_by_fields_is_one_cell() -> None:
    """``grid[row][col] > 0`` where ``start = [row, col]``: one cell's value, which a bound on
    every value would misread (the whole grid positive): read as that cell's rule
    (presence.py), the grid's own range unchanged."""
    inp = question(
        [("grid", "integer[][]"), ("start", "integer[]")],
        [
            "m == grid.length",
            "n == grid[i].length",
            "1 <= m, n <= 20",
            "0 <= grid[i][j] <= 10^5",
            "start.length == 2",
            "0 <= row < m",
            "0 <= col < n",
            "grid[row][col] > 0",
        ],
        "You are given a grid and start = [row, col].",
    )
    spec = spec_of(inp)
    assert spec["params"][0]["leaf"]["lo"] == [0]
    assert spec["presence"] == [["at", 0, [["item", 1, 0], ["item", 1, 1]], [">", 0]]]


# -- row forms with another index -----------------------------------------------------------------

LAMPS = [
    "1 <= n <= 100",
    "0 <= lamps.length <= 200",
    "0 <= queries.length <= 200",
    "lamps[i].length == 2",
    "0 <= row_i, col_i < n",
    "0 <= row_j, col_j < n",
    "row_j != col_j",
]
LAMPS_PARAMS = [("n", "integer"), ("lamps", "integer[][]"), ("queries", "integer[][]")]
LAMPS_PROSE = "Lamps are at lamps[i] = [row_i, col_i], and queries[j] = [row_j, col_j] ask a cell."


def test_row_form_with_another_index() -> None:
    """``queries[j] = [row_j, col_j]`` names the fields of ``queries`` and fixes its rows'
    length (2) as ``lamps[i] = [row_i, col_i]`` does; each field is bounded by ``n``."""
    spec = spec_of(question(LAMPS_PARAMS, LAMPS, LAMPS_PROSE))
    queries = spec["params"][2]
    assert queries["fields"] == ["row_j", "col_j"] and queries["pairs"] == [[0, 1, "!="]]
    for n, lamps, asked in draws(spec):
        assert all(len(r) == 2 and min(r) >= 0 and max(r) < n for r in lamps + asked)
        assert all(r[0] != r[1] for r in asked)
    good = next(a for a in (sample_spec(spec, s) for s in range(50)) if a[2])
    bad = copy.deepcopy(good)
    bad[2][0] = [0, bad[0]]  # col_j == n
    reports(spec, bad, "col_j")


def test_another_index_needs_names_of_that_index() -> None:
    """``queries[j] = [a, b]`` (names that are not ``_j``) is no row form read here."""
    prose = "Lamps are at lamps[i] = [row_i, col_i], and queries[j] = [row, col] ask a cell."
    items = [*LAMPS[:-2], "0 <= row, col < n"]
    assert "row is not a parameter" in refused(question(LAMPS_PARAMS, items, prose))


def test_described_tree_and_unique_field() -> None:
    """``edges[j] = [u_j, v_j] represents an edge ... in the tree``: the rows are drawn as a
    tree's edges; ``Each id_i is guaranteed to be unique``: the field's values distinct."""
    inp = question(
        [("nums", "integer[]"), ("edges", "integer[][]"), ("items", "integer[][]")],
        [
            "nums.length == n",
            "1 <= n <= 60",
            "1 <= nums[i] <= 50",
            "edges.length == n - 1",
            "0 <= u_j, v_j < n",
            "u_j != v_j",
            "1 <= items.length <= 30",
            "1 <= id_i, size_i <= 40",
        ],
        "Each edges[j] = [u_j, v_j] represents an edge between nodes u_j and v_j in the tree. "
        "You are given items[i] = [id_i, size_i]. Each id_i is guaranteed to be unique.",
    )
    spec = spec_of(inp)
    assert spec["params"][1].get("tree_edges") is True
    assert spec["params"][2]["distinct_cols"] == [0]
    for nums, edges, items in draws(spec):
        n = len(nums)
        seen = {0}
        for _ in range(n):  # every node reached from 0 through n - 1 edges: a tree
            seen |= {b for a, b in edges if a in seen} | {a for a, b in edges if b in seen}
        assert len(edges) == n - 1 and seen == set(range(n)), edges
        ids = [r[0] for r in items]
        assert len(set(ids)) == len(ids)
    good = next(a for a in (sample_spec(spec, s) for s in range(50)) if len(a[2]) > 1)
    bad = copy.deepcopy(good)
    bad[2][1][0] = bad[2][0][0]
    reports(spec, bad, "id_i")


FROG = [
    "1 <= n <= 100",
    "edges.length == n - 1",
    "edges[i].length == 2",
    "1 <= a_i, b_i <= n",
    "1 <= t <= 50",
]
FROG_PARAMS = [("n", "integer"), ("edges", "integer[][]"), ("t", "integer")]


@pytest.mark.parametrize(
    "prose",
    [
        "The edges of the undirected tree are given in the array edges, where edges[i] = "
        "[a_i, b_i] means that exists an edge connecting the vertices a_i and b_i.",
        "You are given a 2D integer array edges of length n - 1, where edges[i] = [a_i, b_i] "
        "indicates that there is an edge between nodes a_i and b_i in the tree.",
    ],
)
def test_a_tree_the_description_gives_with_the_row_form_of_its_edges(prose: str) -> None:
    """``edges[i] = [a_i, b_i]`` in a sentence that says edge and tree: the rows are a tree's
    edges (two public questions drew any pairs of nodes there, 29 draws in 30 no tree)."""
    spec = spec_of(question(FROG_PARAMS, FROG, "Given an undirected tree of n vertices. " + prose))
    assert spec["params"][1].get("tree_edges") is True
    for n, edges, _t in draws(spec):
        seen = {1}
        for _ in range(n):
            seen |= {b for a, b in edges if a in seen} | {a for a, b in edges if b in seen}
        assert len(edges) == n - 1 and seen == set(range(1, n + 1)), edges
    # without the sentence the rows are any pairs, and a query in the tree is no edge list
    plain = "edges[i] = [a_i, b_i] means an edge between the vertices a_i and b_i."
    assert "tree_edges" not in spec_of(question(FROG_PARAMS, FROG, plain))["params"][1]
    query = "queries[i] = [a_i, b_i] asks for the path between two nodes of the tree."
    spec = spec_of(
        question(
            [("n", "integer"), ("queries", "integer[][]"), ("t", "integer")],
            [x.replace("edges", "queries") for x in FROG],
            query,
        )
    )
    assert "tree_edges" not in spec["params"][1]


# -- a parameter's name misspelt in case ----------------------------------------------------------


def test_name_differing_only_in_case() -> None:
    """``1 <= arrivaltime < 24`` for the parameter ``arrivalTime``: read as it (the notes say
    so); where two parameters differ from the name only in case, it stays unknown."""
    inp = question(
        [("arrivalTime", "integer"), ("delayedTime", "integer")],
        ["1 <= arrivaltime < 24", "1 <= delayedTime <= 24"],
    )
    result = build_spec(inp)
    assert result.spec is not None, result.problems
    assert any(
        "arrivaltime in the constraints read as the parameter arrivalTime" in n
        for n in result.notes
    )
    for arrival, delayed in draws(result.spec):
        assert 1 <= arrival < 24 and 1 <= delayed <= 24
    reports(result.spec, [24, 3], "arrivalTime")
    inp = question(
        [("arrivalTime", "integer"), ("ArrivalTime", "integer")],
        ["1 <= arrivaltime < 24", "1 <= arrivalTime, ArrivalTime <= 24"],
    )
    assert "arrivaltime is not a parameter" in refused(inp)


# -- a row length a chain shares ---------------------------------------------------------------


def test_row_length_shared_by_a_chain() -> None:
    """``red[i].length == blue[j].length == 2`` makes one quantity of the two row lengths, of
    one value: both lists' rows have that width (with ``blue[j] = [u_j, v_j]``), and
    ``rows[i].length == target.length == 3`` fixes the length of ``target = [x, y, z]`` too."""
    spec = spec_of(
        question(
            [("n", "integer"), ("red", "integer[][]"), ("blue", "integer[][]")],
            [
                "1 <= n <= 50",
                "0 <= red.length, blue.length <= 100",
                "red[i].length == blue[j].length == 2",
                "0 <= a_i, b_i, u_j, v_j < n",
            ],
            "red[i] = [a_i, b_i] is a red edge, and blue[j] = [u_j, v_j] a blue one.",
        )
    )
    for n, red, blue in draws(spec):
        assert all(len(r) == 2 and min(r) >= 0 and max(r) < n for r in red + blue)
    triplets = spec_of(
        question(
            [("rows", "integer[][]"), ("target", "integer[]")],
            [
                "1 <= rows.length <= 100",
                "rows[i].length == target.length == 3",
                "1 <= a_i, b_i, c_i, x, y, z <= 1000",
            ],
            "Each rows[i] = [a_i, b_i, c_i], and target = [x, y, z].",
        )
    )
    assert triplets["params"][1]["fields"] == ["x", "y", "z"]
    for rows, target in draws(triplets):
        assert len(target) == 3 and all(len(r) == 3 for r in rows)
    reports(triplets, [[[1, 2, 3]], [1, 2, 1001]], "z")


# -- LeetCode's spellings of a collection's name -----------------------------------------------


def test_an_item_subscript_and_a_misspelt_name_are_the_parameter() -> None:
    # nums<sub>i</sub>.length: the grid is square (read as nums.length before, which said nothing)
    square = question(
        [("nums", "integer[][]")],
        ["1 <= nums.length <= 30", "nums.length == nums_i.length", "1 <= nums[i][j] <= 4*10^6"],
    )
    spec = spec_of(square)
    for (grid,) in draws(spec, 40):
        assert all(len(row) == len(grid) for row in grid)
    assert "nums_i" not in str(spec)
    reports(spec, [[[1, 2], [3, 4], [5, 6]]])  # 3 rows of 2
    # one letter dropped from the parameter's name (rectanges), and the row form's owner in the
    # singular (rectangle[i] = [...]): both are the parameter
    rects = question(
        [("rectangles", "integer[][]")],
        ["1 <= rectangles.length <= 200", "rectanges[i].length == 4", "0 <= x_i1, y_i1 <= 10^9",
         "0 <= x_i2, y_i2 <= 10^9", "x_i1 <= x_i2", "y_i1 <= y_i2"],
        prose="Each rectangle[i] = [x_i1, y_i1, x_i2, y_i2] is a rectangle.",
    )  # fmt: skip
    for (rows,) in draws(spec_of(rects), 40):
        assert all(len(r) == 4 and r[0] <= r[2] and r[1] <= r[3] for r in rows)
    # a name two letters away from every parameter is still no parameter
    assert "is not a parameter" in refused(
        question([("rectangles", "integer[][]")], ["1 <= rectangles.length <= 200",
                                                    "recanges[i].length == 4"])
    )  # fmt: skip


def test_the_length_of_an_array_no_parameter_holds_says_nothing() -> None:
    # xor-operation-in-an-array: nums is built from n and start, and `n == nums.length` names
    # the length of no input; n keeps its own bounds
    inp = question([("n", "integer"), ("start", "integer")],
                   ["1 <= n <= 1000", "0 <= start <= 1000", "n == nums.length"])  # fmt: skip
    for n, start in draws(spec_of(inp), 40):
        assert 1 <= n <= 1000 and 0 <= start <= 1000
    # beside a collection it may be a misspelt input's length: still refused
    beside = question([("n", "integer"), ("arr", "integer[]")],
                      ["1 <= n <= 1000", "1 <= arr[i] <= 10", "n == nums.length"])  # fmt: skip
    assert "nums.length" in refused(beside)


# -- LeetCode's typo: a row's length written after the index (``mat.length[i]``) ----------------

SORTED_ROWS = [
    "m == mat.length",
    "n == mat.length[i]",
    "1 <= m, n <= 40",
    "1 <= mat[i][j] <= 5000",
]


def test_a_length_indexed_after_the_name_is_the_rows_length() -> None:
    """``n == mat.length[i]`` can only mean ``mat[i].length`` (a length is an int): every row has
    ``n`` items, and the checker reports a ragged grid."""
    spec = spec_of(question([("mat", "integer[][]"), ("k", "integer")], [*SORTED_ROWS, "k == 1"]))
    widths = set()
    for mat, _ in draws(spec):
        assert 1 <= len(mat) <= 40
        assert len({len(row) for row in mat}) == 1
        widths.add(len(mat[0]))
        assert all(1 <= v <= 5000 for row in mat for v in row)
    assert len(widths) > 5  # n is drawn on its own, not tied to m
    reports(spec, [[[1, 2], [3]], 1], "mat")


def test_an_indexed_length_of_a_name_that_is_no_parameter_is_still_refused() -> None:
    items = ["m == mat.length", "n == grid.length[i]", "1 <= m, n <= 40", "1 <= mat[i][j] <= 9"]
    assert "grid.length[i]" in refused(question([("mat", "integer[][]")], items))
