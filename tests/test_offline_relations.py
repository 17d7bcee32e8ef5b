"""Relations between elements, and distinct fields of rows, in the offline synthesizer (issue 26).

Statements we wrote in LeetCode's shapes: rows unique by some of their fields (``All pairs
(from_i, to_i) are distinct``, ``All tuples (...) are distinct``), a distinct field that an
ordered pair holds (``The start point of each interval is unique`` with ``start_i <= end_i``).
Each is read, drawn on many seeds (random, perf and edge-case inputs) and asserted on here with
plain code, checked by the independent checker, and the checker reports an input that breaks
it; what is still not read is refused.
"""

from __future__ import annotations

import copy
import itertools
from typing import Any

from quicksilver.synth import SynthInput
from quicksilver.synth.offline.checker import check_input
from tests import synthkit
from tests.synthkit import question, refused, reports, spec_of

SEEDS = 120


def draws(spec: dict[str, Any], n: int = SEEDS) -> list[list[Any]]:
    return synthkit.draws(spec, n)


# -- rows unique by some of their fields ---------------------------------------------------------

SHAPES = [
    "1 <= m, n <= 6",
    "1 <= prices.length <= 40",
    "prices[i].length == 3",
    "1 <= h_i <= m",
    "1 <= w_i <= n",
    "1 <= price_i <= 10^6",
]
SHAPES_PROSE = "You are given prices, where prices[i] = [h_i, w_i, price_i]."
SHAPES_PARAMS = [("m", "integer"), ("n", "integer"), ("prices", "integer[][]")]


def test_rows_unique_by_some_fields() -> None:
    """``All the shapes of wood (h_i, w_i) are pairwise distinct``: no two rows hold the same
    (h_i, w_i), in any order; the price may repeat."""
    inp = question(
        SHAPES_PARAMS,
        [*SHAPES, "All the shapes of wood (h_i, w_i) are pairwise distinct."],
        SHAPES_PROSE,
    )
    spec = spec_of(inp)
    rows_spec = spec["params"][2]
    assert rows_spec["unique_rows"] is True and rows_spec["unique_key"] == [0, 1]
    sizes = []
    for m, n, prices in draws(spec):
        keys = [tuple(sorted(r[:2])) for r in prices]
        assert len(set(keys)) == len(keys), prices
        assert all(1 <= r[0] <= m and 1 <= r[1] <= n for r in prices), (m, n, prices)
        sizes.append(len(prices))
    assert max(sizes) > 1
    # the checker: a repeated (h_i, w_i) with another price is a repeat
    args = next(a for a in draws(spec, 40) if len(a[2]) >= 2)
    bad = copy.deepcopy(args)
    bad[2][1] = [bad[2][0][1], bad[2][0][0], bad[2][0][2] % 10**6 + 1]
    reports(spec, bad, "prices[1]", "repeats prices[0]", "h_i, w_i")
    # while rows that differ in those fields pass, whatever their prices
    ok = [2, 2, [[1, 1, 5], [2, 1, 5]]]
    assert check_input(spec, ok) == []


def test_tuples_of_every_field_are_whole_rows() -> None:
    """``All tuples (type_i, u_i, v_i) are distinct`` names every field: the rows are unique,
    with no key of their own."""
    inp = question(
        [("n", "integer"), ("edges", "integer[][]")],
        [
            "1 <= n <= 50",
            "1 <= edges.length <= 30",
            "edges[i].length == 3",
            "1 <= type_i <= 3",
            "1 <= u_i < v_i <= n",
            "All tuples (type_i, u_i, v_i) are distinct.",
        ],
        "edges[i] = [type_i, u_i, v_i]",
    )
    spec = spec_of(inp)
    edges_spec = spec["params"][1]
    assert edges_spec["unique_rows"] is True and "unique_key" not in edges_spec
    for _n, edges in draws(spec):
        assert len({tuple(sorted(r)) for r in edges}) == len(edges), edges
        assert all(r[1] < r[2] for r in edges), edges


def test_unique_fields_that_are_not_fields_are_refused() -> None:
    """A tuple of names that are not one list's fields is still reported."""
    why = refused(
        question(
            SHAPES_PARAMS,
            [*SHAPES, "All tuples (h_i, m) are distinct."],
            SHAPES_PROSE,
        )
    )
    assert "not of one list's rows" in why


# -- a distinct field that an ordered pair holds ---------------------------------------------------


def _intervals(*lines: str, order: str = "0 <= start_i < end_i <= 30") -> SynthInput:
    return question(
        [("intervals", "integer[][]")],
        ["1 <= intervals.length <= 30", "intervals[i].length == 2", order, *lines],
        "You are given intervals where intervals[i] = [start_i, end_i].",
    )


def test_a_distinct_start_of_an_ordered_pair() -> None:
    """``The start point of each interval is unique`` with ``start_i < end_i``: the starts are
    distinct, every row ordered; the row count is bounded by the starts the order leaves (30,
    not 31: no start at the top)."""
    spec = spec_of(_intervals("The start point of each interval is unique."))
    rows_spec = spec["params"][0]
    assert rows_spec["distinct_cols"] == [0] and rows_spec["pairs"] == [[0, 1, "<"]]
    counts = []
    for (intervals,) in draws(spec):
        starts = [r[0] for r in intervals]
        assert len(set(starts)) == len(starts), intervals
        assert all(0 <= a < b <= 30 for a, b in intervals), intervals
        counts.append(len(intervals))
    assert max(counts) == 30  # all the room there is, and every draw still finds an end
    args = next(a for a in draws(spec, 20) if len(a[0]) >= 2)
    bad = copy.deepcopy(args)
    bad[0][1][0] = bad[0][0][0]
    bad[0][1][1] = max(bad[0][1][1], bad[0][0][0] + 1)
    reports(spec, bad, "intervals[1][0] (start_i)", "repeats intervals[0][0]")
    bad = copy.deepcopy(args)
    bad[0][0] = [bad[0][0][1], bad[0][0][0]]
    reports(spec, bad, "breaks start_i < end_i")


def test_a_distinct_end_and_other_wordings() -> None:
    """``All the values of end_i are unique`` (the larger end), ``Each start_i time is
    distinct`` with a non-strict order."""
    spec = spec_of(_intervals("All the values of end_i are unique."))
    assert spec["params"][0]["distinct_cols"] == [1]
    for (intervals,) in draws(spec):
        ends = [r[1] for r in intervals]
        assert len(set(ends)) == len(ends) and all(0 <= a < b <= 30 for a, b in intervals)
    spec = spec_of(
        _intervals("Each start_i time is distinct.", order="1 <= start_i <= end_i <= 10^5")
    )
    for (intervals,) in draws(spec):
        starts = [r[0] for r in intervals]
        assert len(set(starts)) == len(starts) and all(1 <= a <= b for a, b in intervals)


def test_a_distinct_field_in_an_inequality_is_still_refused() -> None:
    """A distinct field that a ``!=`` pair would draw again is not read (yet)."""
    why = refused(
        question(
            [("rows", "integer[][]")],
            [
                "1 <= rows.length <= 9",
                "rows[i] = [a_i, b_i]",
                "0 <= a_i, b_i <= 99",
                "a_i != b_i",
                "All a_i are distinct.",
            ],
        )
    )
    assert "distinct values of a field that is related to another field" in why
    why = refused(_intervals("The start point of each meeting is unique."))
    assert "no list of rows named so" in why


# -- relations between two lists item by item -------------------------------------------------


def test_an_order_between_two_lists_item_by_item() -> None:
    """``0 <= l[i] < r[i] < n``: l and r share one range ([0, n - 1]), and every l[i] is below
    r[i]; the checker reports an index where it is not."""
    inp = question(
        [("nums", "integer[]"), ("l", "integer[]"), ("r", "integer[]")],
        [
            "n == nums.length",
            "m == l.length",
            "m == r.length",
            "2 <= n <= 40",
            "1 <= m <= 40",
            "0 <= l[i] < r[i] < n",
            "-10^5 <= nums[i] <= 10^5",
        ],
    )
    spec = spec_of(inp)
    assert spec["zips"] == [["l", "r", "<"]]
    for nums, left, right in draws(spec):
        assert len(left) == len(right), (left, right)
        assert all(0 <= a < b < len(nums) for a, b in zip(left, right, strict=True)), (left, right)
    args = next(a for a in draws(spec, 20) if len(a[1]) >= 2)
    bad = copy.deepcopy(args)
    bad[1][1], bad[2][1] = bad[2][1], bad[1][1]
    reports(spec, bad, "l[1] =", "breaks l[i] < r[i]")
    bad = copy.deepcopy(args)
    bad[2].append(1)
    reports(spec, bad, "m")  # lengths differ: the shared length breaks


def test_a_non_strict_order_and_an_inequality_item_by_item() -> None:
    """``0 <= rocks[i] <= capacity[i]`` (a partner may equal), ``original[i] != changed[i]``
    between characters and between strings."""
    spec = spec_of(
        question(
            [("capacity", "integer[]"), ("rocks", "integer[]")],
            [
                "n == capacity.length == rocks.length",
                "1 <= n <= 50",
                "1 <= capacity[i] <= 5",
                "0 <= rocks[i] <= capacity[i]",
            ],
        )
    )
    equal = 0
    for capacity, rocks in draws(spec):
        assert all(1 <= r <= c <= 5 for c, r in zip(capacity, rocks, strict=True))
        equal += sum(c == r for c, r in zip(capacity, rocks, strict=True))
    assert equal > 0
    reports(spec, [[3, 4], [3, 5]], "rocks[1] = 5", "capacity[1] = 4")
    chars = spec_of(
        question(
            [("original", "character[]"), ("changed", "character[]")],
            [
                "1 <= original.length == changed.length <= 30",
                "original[i], changed[i] are lowercase English letters.",
                "original[i] != changed[i]",
            ],
        )
    )
    for original, changed in draws(chars):
        assert all(a != b for a, b in zip(original, changed, strict=True)), (original, changed)
    reports(chars, [["a", "b"], ["c", "b"]], "original[1] = 'b', changed[1] = 'b'")
    strings = spec_of(
        question(
            [("original", "string[]"), ("changed", "string[]")],
            [
                "1 <= original.length == changed.length <= 30",
                "1 <= original[i].length == changed[i].length <= 2",
                "original[i], changed[i] consist only of the letters 'a' and 'b'.",
                "original[i] != changed[i]",
            ],
        )
    )
    for original, changed in draws(strings):
        assert all(a != b for a, b in zip(original, changed, strict=True)), (original, changed)
        assert all(set(s) <= {"a", "b"} for s in changed), changed
    reports(strings, [["ab"], ["ab"]], "breaks original[i] != changed[i]")


def test_relations_item_by_item_that_are_not_read() -> None:
    """Lists of other lengths, a list with an order of its own, and different indexes are
    still refused."""
    why = refused(
        question(
            [("a", "integer[]"), ("b", "integer[]")],
            ["1 <= a.length, b.length <= 9", "0 <= a[i] < b[i] <= 9"],
        )
    )
    assert "need not have one length" in why
    why = refused(
        question(
            [("a", "integer[]"), ("b", "integer[]")],
            [
                "1 <= a.length == b.length <= 9",
                "0 <= a[i] < b[i] <= 9",
                "a is sorted in non-decreasing order.",
            ],
        )
    )
    assert "which has other rules" in why
    why = refused(
        question(
            [("a", "integer[]"), ("b", "integer[]")],
            ["1 <= a.length == b.length <= 9", "0 <= a[i], b[i] <= 9", "a[i] < b[j]"],
        )
    )
    assert "a relation between elements" in why


# -- positions: a value a position may not hold, a position through an equality, the index -----


def test_a_value_a_position_may_not_hold() -> None:
    """``s[0] != 'i'``: the first character is any other letter (and the rest may be 'i')."""
    spec = spec_of(
        question(
            [("s", "string")],
            [
                "1 <= s.length <= 20",
                "s consists of the letters 'i' and 'j'.",
                "s[0] != 'i'",
            ],
        )
    )
    later = 0
    for (s,) in draws(spec):
        assert s[0] == "j", s
        later += "i" in s
    assert later > 0
    reports(spec, ["ij"], "s[0] = 'i', which it may not be")
    # a list with an order cannot have its first item drawn again
    why = refused(
        question(
            [("nums", "integer[]")],
            [
                "1 <= nums.length <= 9",
                "0 <= nums[i] <= 9",
                "nums is sorted in non-decreasing order.",
                "nums[0] != 0",
            ],
        )
    )
    assert "a value a position may not hold, in a list with an order" in why


def test_a_position_counted_from_the_end_through_an_equality() -> None:
    """``obstacles[0] == obstacles[n] == 0`` with ``obstacles.length == n + 1``: obstacles[n] is
    the last item."""
    spec = spec_of(
        question(
            [("obstacles", "integer[]")],
            [
                "obstacles.length == n + 1",
                "1 <= n <= 30",
                "0 <= obstacles[i] <= 3",
                "obstacles[0] == obstacles[n] == 0",
            ],
        )
    )
    assert spec["params"][0]["pins"] == [[[0], 0], [[-1], 0]]
    for (obstacles,) in draws(spec):
        assert obstacles[0] == obstacles[-1] == 0 and len(obstacles) >= 2, obstacles
    reports(spec, [[0, 1, 2]], "= 2, not 0")


def test_a_bound_by_the_index() -> None:
    """``0 <= nextVisit[i] <= i``: every value at most its index (and the list's values in
    [0, length - 1]); ``< i - 1`` leaves index 0 no value and is refused."""
    spec = spec_of(
        question(
            [("nextVisit", "integer[]")],
            ["n == nextVisit.length", "2 <= n <= 50", "0 <= nextVisit[i] <= i"],
        )
    )
    assert spec["params"][0]["below_index"] == 0
    top = 0
    for (visits,) in draws(spec):
        assert all(0 <= x <= i for i, x in enumerate(visits)), visits
        top = max(top, max(x - i for i, x in enumerate(visits)))
    assert top == 0  # some value sits at its index
    reports(spec, [[0, 2]], "nextVisit[1] = 2 is above 1 + 0")
    why = refused(
        question(
            [("p", "integer[]")],
            ["1 <= p.length <= 9", "0 <= p[i] < i - 1"],
        )
    )
    assert "leaves the first item no value" in why


# -- a field of consecutive rows -------------------------------------------------------------------


def test_rows_sorted_by_a_field_and_a_field_apart_from_the_row_before() -> None:
    """``1 <= position_i < position_i+1 <= 100``: the rows sorted by position, positions
    distinct, the rows' other field unchanged; ``id_i != id_i+1`` with ``leaveTime_i are sorted
    in a strictly increasing order``."""
    spec = spec_of(
        question(
            [("cars", "integer[][]")],
            [
                "1 <= cars.length <= 40",
                "cars[i].length == 2",
                "1 <= position_i < position_i+1 <= 60",
                "1 <= speed_i <= 10",
            ],
            "cars[i] = [position_i, speed_i]",
        )
    )
    assert spec["params"][0]["sorted_col"] == [0, "asc"]
    for (cars,) in draws(spec):
        positions = [c[0] for c in cars]
        assert all(a < b for a, b in itertools.pairwise(positions)), cars
        assert all(1 <= c[1] <= 10 and 1 <= c[0] <= 60 for c in cars), cars
    reports(spec, [[[3, 1], [2, 1]]], "cars[1][0] = 2 is out of order after 3")
    spec = spec_of(
        question(
            [("n", "integer"), ("logs", "integer[][]")],
            [
                "2 <= n <= 20",
                "1 <= logs.length <= 30",
                "logs[i].length == 2",
                "0 <= id_i <= n - 1",
                "1 <= leaveTime_i <= 60",
                "id_i != id_i+1",
                "leaveTime_i are sorted in a strictly increasing order.",
            ],
            "logs[i] = [id_i, leaveTime_i]",
        )
    )
    for _n, logs in draws(spec):
        ids, times = [r[0] for r in logs], [r[1] for r in logs]
        assert all(a != b for a, b in itertools.pairwise(ids)), logs
        assert all(a < b for a, b in itertools.pairwise(times)), logs
    reports(spec, [3, [[1, 1], [1, 2]]], "logs[1][0] = 1 equals the row before's")
    # a field apart that a pair also holds is refused
    why = refused(
        question(
            [("rows", "integer[][]")],
            [
                "1 <= rows.length <= 9",
                "rows[i] = [a_i, b_i]",
                "0 <= a_i <= b_i <= 9",
                "a_i != a_i+1",
            ],
        )
    )
    assert "a field apart from the row before, in rows with other rules" in why


# -- more wordings of unique rows ----------------------------------------------------------------


def _points(*lines: str, params: list[tuple[str, str]] | None = None) -> SynthInput:
    return question(
        params or [("points", "integer[][]")],
        ["1 <= points.length <= 30", "points[i].length == 2", "0 <= x_i, y_i <= 4", *lines],
        "points[i] = [x_i, y_i]",
    )


def test_other_wordings_of_unique_rows() -> None:
    """``All the given positions are unique`` (the one list of integer rows), ``All
    coordinates of points are unique``, ``points consists of distinct coordinates``, ``It is
    guaranteed that points contains pairwise distinct coordinates``, ``points[i] !=
    points[j]``, ``The elements in points are unique``: no two rows alike."""
    for line in (
        "All the given positions are unique.",
        "All coordinates of points are unique.",
        "points consists of distinct coordinates.",
        "It is guaranteed that points contains pairwise distinct coordinates.",
        "points[i] != points[j]",
        "The elements in points are unique.",
    ):
        spec = spec_of(_points(line))
        assert spec["params"][0].get("unique_rows") is True, line
        for (points,) in draws(spec, 40):
            assert len({tuple(sorted(p)) for p in points}) == len(points), (line, points)
        reports(spec, [[[1, 2], [1, 2]]], "points[1]", "repeats points[0]")


def test_unique_positions_with_another_position_are_refused() -> None:
    """``All the given positions are unique`` with a ``king`` besides the rows: the king is a
    position too, which unique rows would not keep apart, so the line is not read."""
    why = refused(
        _points(
            "king.length == 2",
            "0 <= king[i] <= 4",
            "All the given positions are unique.",
            params=[("points", "integer[][]"), ("king", "integer[]")],
        )
    )
    assert "All the given positions are unique." in why
    why = refused(_points("points[i] != queens[j]"))
    assert "points[i] != queens[j]" in why


def test_a_field_both_sorted_and_apart_is_refused() -> None:
    """``x_i <= x_i+1`` with ``x_i != x_i+1``: drawing the field again would undo the order."""
    why = refused(
        question(
            [("rows", "integer[][]")],
            [
                "1 <= rows.length <= 9",
                "rows[i] = [x_i, y_i]",
                "0 <= x_i, y_i <= 9",
                "x_i <= x_i+1",
                "x_i != x_i+1",
            ],
        )
    )
    assert "a field apart from the row before, in rows with other rules" in why


def test_rows_sorted_by_a_named_field() -> None:
    """``buildings is sorted by left_i in non-decreasing order`` (with ``left_i < right_i``:
    whole rows move, so the pair still holds), ``The input is generated such that events is
    sorted in increasing order of time_i``, ``position_i-1 < position_i for any i > 0``."""
    spec = spec_of(
        question(
            [("buildings", "integer[][]")],
            [
                "1 <= buildings.length <= 30",
                "0 <= left_i < right_i <= 50",
                "1 <= height_i <= 9",
                "buildings is sorted by left_i in non-decreasing order.",
            ],
            "buildings[i] = [left_i, right_i, height_i]",
        )
    )
    assert spec["params"][0]["sorted_col"] == [0, "asc"]
    for (buildings,) in draws(spec):
        lefts = [b[0] for b in buildings]
        assert lefts == sorted(lefts) and all(b[0] < b[1] for b in buildings), buildings
    reports(spec, [[[5, 9, 1], [4, 9, 1]]], "buildings[1][0] = 4 is out of order after 5")
    for line in (
        "The input is generated such that events is sorted in increasing order of time_i.",
        "time_i-1 < time_i for any i > 0 (0-indexed)",
    ):
        spec = spec_of(
            question(
                [("events", "integer[][]")],
                ["1 <= events.length <= 30", "1 <= index_i, time_i <= 40", line],
                "events[i] = [index_i, time_i]",
            )
        )
        for (events,) in draws(spec):
            times = [e[1] for e in events]
            assert all(a < b for a, b in itertools.pairwise(times)), (line, events)
    why = refused(
        question(
            [("a", "integer[][]"), ("b", "integer[][]")],
            [
                "1 <= a.length, b.length <= 9",
                "0 <= x_i, y_i <= 9",
                "b is sorted by x_i in non-decreasing order.",
            ],
            "a[i] = [x_i, y_i], b[i] = [u_i, v_i]",
        )
    )
    assert "a field of another list" in why
