"""Distinctness, permutations and order in other words in the offline synthesizer (issue 26,
quicksilver/synth/offline/unique_wording.py).

Statements we wrote in LeetCode's shapes: a list named with a noun (``cuts array``, ``the
matrix``), several lists at once, distinct values with their range or sign, a permutation
without its range, two statements in one line, a bare ``sorted``, and rows that are points.
Each is read into the keys the reader already had (``distinct``, ``sorted``, ``unique_rows``,
a value range), drawn on many seeds (random, perf and edge-case inputs) and asserted on here
with plain code, checked by the independent checker, and the checker reports an input that
breaks it; what cannot be met is refused.
"""

from __future__ import annotations

from typing import Any

import pytest

from quicksilver.synth.offline import build_spec
from quicksilver.synth.offline.checker import check_input
from tests import synthkit
from tests.synthkit import question, spec_of

SEEDS = 60
NUMS = [("nums", "integer[]")]
TWO = [("nums1", "integer[]"), ("nums2", "integer[]")]


def draws(spec: dict[str, Any], n: int = SEEDS) -> list[list[Any]]:
    return synthkit.draws(spec, n)


def broken(spec: dict[str, Any], args: list[Any]) -> None:
    """The checker reports ``args`` (an input that breaks the rule read)."""
    assert check_input(spec, args) != []


@pytest.mark.parametrize(
    ("params", "items", "sentence"),
    [
        (NUMS, [], "All the integers in nums array are distinct."),
        (NUMS, [], "All elements in the array are unique."),
        (TWO, [], "nums1 and nums2 are unique."),
        (TWO, [], "All digits in each array are unique."),
        (TWO, [], "It is guaranteed that nums1 and nums2 are distinct."),
    ],
)
def test_distinct_lists(params: list[tuple[str, str]], items: list[str], sentence: str) -> None:
    sizes = ["1 <= nums.length <= 30"] if len(params) == 1 else ["1 <= nums1.length <= 9"]
    sizes += [] if len(params) == 1 else ["1 <= nums2.length <= 9"]
    names = [n for n, _ in params]
    values = f"1 <= {names[0]}[i] <= 40" if len(names) == 1 else "1 <= nums1[i], nums2[i] <= 9"
    spec = spec_of(question(params, [*sizes, values, *items, sentence]))
    for args in draws(spec):
        for values_ in args:
            assert len(set(values_)) == len(values_), args
    broken(spec, [[3, 3]] * len(names))


def test_distinct_matrix() -> None:
    """``All elements in the matrix are distinct``: the one matrix parameter, over all of it."""
    items = ["m == mat.length", "n == mat[i].length", "1 <= n, m <= 6", "1 <= matrix[i][j] <= 99"]
    spec = spec_of(
        question([("matrix", "integer[][]")], [*items, "All elements in the matrix are distinct."])
    )
    for (grid,) in draws(spec):
        flat = [v for row in grid for v in row]
        assert len(set(flat)) == len(flat)
    broken(spec, [[[1, 2], [2, 3]]])


@pytest.mark.parametrize(
    ("sentence", "lo", "hi"),
    [
        ("to_delete contains distinct values between 1 and 1000.", 1, 1000),
        (
            "The input is generated such that nums contains distinct elements in the range [0, 40].",
            0,
            40,
        ),
        ("nums consists of distinct positive integers.", 1, 10**9),
        ("nums consists of distinct non-negative integers.", 0, 10**9),
    ],
)
def test_distinct_with_range(sentence: str, lo: int, hi: int) -> None:
    name = "to_delete" if "to_delete" in sentence else "nums"
    items = [f"1 <= {name}.length <= 30", sentence]
    if "integers" in sentence:
        items.append(f"-10^9 <= {name}[i] <= 10^9")
    spec = spec_of(question([(name, "integer[]")], items))
    for (values,) in draws(spec):
        assert len(set(values)) == len(values) and all(lo <= v <= hi for v in values), values
    broken(spec, [[lo, lo]])
    broken(spec, [[lo - 1]])


def test_distinct_grid_with_product_range() -> None:
    """``grid consists of distinct integers from 0 to m * n - 1`` (arith.py's derived bound)."""
    items = ["m == grid.length", "n == grid[i].length", "2 <= m, n <= 6"]
    spec = spec_of(
        question(
            [("grid", "integer[][]")],
            [*items, "grid consists of distinct integers from 0 to m * n - 1."],
        )
    )
    for (grid,) in draws(spec):
        flat = [v for row in grid for v in row]
        assert sorted(flat) == list(range(len(flat)))
    broken(spec, [[[0, 1], [2, 4]]])


@pytest.mark.parametrize(
    ("params", "items", "sentence"),
    [
        (NUMS, ["2 <= nums.length == n <= 50", "1 <= nums[i] <= 50"], "nums is a permutation."),
        (
            NUMS,
            ["4 <= nums.length <= 40", "1 <= nums[i] <= nums.length"],
            "All the integers of nums are unique. nums is a permutation.",
        ),
        (
            [("A", "integer[]"), ("B", "integer[]")],
            ["1 <= A.length == B.length == n <= 50", "1 <= A[i], B[i] <= n"],
            "It is guaranteed that A and B are both a permutation of n integers.",
        ),
        (
            NUMS,
            ["1 <= nums.length <= 100", "1 <= nums[i] <= nums.length"],
            "All integers in nums are unique (i.e. nums is a permutation of the integers from 1 "
            "to nums.length).",
        ),
    ],
)
def test_permutation(params: list[tuple[str, str]], items: list[str], sentence: str) -> None:
    """A permutation without its range is of 1 to the length: the stated range may be wider
    (``1 <= nums[i] <= 50``), the values drawn are still exactly 1..n."""
    spec = spec_of(question(params, [*items, sentence]))
    for args in draws(spec):
        for values in args:
            assert sorted(values) == list(range(1, len(values) + 1)), values
    broken(spec, [[2, 3]] * len(params))


@pytest.mark.parametrize(
    "items",
    [
        ["1 <= nums.length == n <= 50", "0 <= nums[i] <= n - 1", "nums is a permutation."],
        ["nums is a permutation.", "1 <= nums.length == n <= 50", "1 <= nums[i] <= n"],
    ],
)
def test_bare_permutation_refused_without_a_range_from_one(items: list[str]) -> None:
    """A bare permutation is read as 1..n only after a line that states 1 as the least value;
    a range from 0 (0..n - 1?) or none yet: reported as it reads."""
    problems = build_spec(question(NUMS, items)).problems
    assert problems == ['"nums is a permutation.": not understood']


def test_permutation_range_too_small_reported() -> None:
    """A range from 1 that holds fewer values than the length allows: the schedule reports."""
    items = [
        "1 <= nums.length == n <= 50",
        "1 <= nums[i] <= 10",
        "n >= 20",
        "nums is a permutation.",
    ]
    problems = build_spec(question(NUMS, items)).problems
    assert any("cannot all hold" in p and "distinct values of nums" in p for p in problems)


@pytest.mark.parametrize(
    "sentence",
    ["nums1 and nums2 are sorted.", "nums1 and nums2 both are sorted in non-decreasing order."],
)
def test_sorted_lists(sentence: str) -> None:
    """A bare ``sorted`` is drawn strictly increasing (meets either reading)."""
    items = ["1 <= nums1.length, nums2.length <= 30", "-10^5 <= nums1[i], nums2[j] <= 10^5"]
    spec = spec_of(question(TWO, [*items, sentence]))
    for args in draws(spec):
        for values in args:
            assert values == sorted(values), values
    broken(spec, [[2, 1], [1, 2]])


def test_unique_and_sorted() -> None:
    items = ["1 <= nums.length <= 30", "2 <= nums[i] <= 1000"]
    sentence = "All the values of nums are unique and sorted in ascending order."
    spec = spec_of(question(NUMS, [*items, sentence]))
    for (values,) in draws(spec):
        assert values == sorted(set(values)), values
    broken(spec, [[2, 2]])
    broken(spec, [[3, 2]])


def test_points_not_at_the_same_place() -> None:
    """``No two stones are at the same coordinate point``: the rows of stones distinct."""
    items = ["1 <= stones.length <= 40", "0 <= x_i, y_i <= 5"]
    prose = "The i-th stone is at stones[i] = [x_i, y_i]."
    sentence = "No two stones are at the same coordinate point."
    spec = spec_of(question([("stones", "integer[][]")], [*items, sentence], prose))
    for (stones,) in draws(spec):
        assert len({tuple(s) for s in stones}) == len(stones), stones
    broken(spec, [[[1, 2], [1, 2]]])


@pytest.mark.parametrize(
    ("params", "items"),
    [
        # "each array" over a list of strings too: which level?
        (
            [("nums", "integer[]"), ("words", "string[]")],
            [
                "1 <= nums.length, words.length <= 9",
                "1 <= nums[i] <= 9",
                "1 <= words[i].length <= 5",
                "words[i] consists of lowercase English letters.",
                "All digits in each array are unique.",
            ],
        ),
        # rows: the values, or the rows?
        (
            [("grid", "integer[][]")],
            [
                "1 <= grid.length <= 9",
                "grid[i].length == 2",
                "1 <= grid[i][j] <= 9",
                "grid is unique.",
            ],
        ),
        # no two pieces: not one parameter of rows
        (
            [("a", "integer"), ("b", "integer")],
            ["1 <= a, b <= 8", "No two pieces are on the same square."],
        ),
    ],
)
def test_refused(params: list[tuple[str, str]], items: list[str]) -> None:
    """Where it is not clear what is unique, the line is reported as it reads."""
    problems = build_spec(question(params, items)).problems
    assert problems == [f'"{items[-1]}": not understood']
