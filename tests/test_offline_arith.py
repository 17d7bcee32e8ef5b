"""Arithmetic in bounds in the offline synthesizer (issue 26, arith.py + checker_arith.py).

Statements we wrote in LeetCode's shapes: an element bounded by a product or power of quantities
(``0 <= grid[i][j] < n * n``, ``0 <= nums[i] < 2^maximumBit``, ``0 <= queries[i] < n * (n - 1) /
2``), an upper bound by a floor (``k <= floor(nums.length / 3)``), a number times a name
(``nums.length == 2n``) and values by cases (``grid[i][j] == 0 or 1``, ``nums[i] == -1 or 1 <=
nums[i] <= 100``, ``1 <= |nums[i]| <= 10^5``). Each is read, drawn on many seeds (random, perf and
edge-case inputs) and asserted on with plain code, checked by the independent checker, and the
checker reports an input that breaks it; what cannot be met exactly is refused.
"""

from __future__ import annotations

import copy
from typing import Any

from quicksilver.synth.offline import sample_spec
from tests import synthkit
from tests.synthkit import question, refused, reports, spec_of

SEEDS = 80


def draws(spec: dict[str, Any], n: int = SEEDS) -> list[list[Any]]:
    return synthkit.draws(spec, n)


# -- an element bounded by a product or power of quantities ---------------------------------------


def test_grid_values_below_n_squared() -> None:
    """``0 <= grid[i][j] < n * n`` with distinct values: an n x n grid holds each of 0 .. n*n - 1
    once; the checker evaluates n * n from the grid it is given."""
    inp = question(
        [("grid", "integer[][]")],
        [
            "n == grid.length == grid[i].length",
            "3 <= n <= 7",
            "0 <= grid[row][col] < n * n",
            "All integers in grid are unique.",
        ],
    )
    spec = spec_of(inp)
    for (grid,) in draws(spec):
        n = len(grid)
        assert sorted(v for row in grid for v in row) == list(range(n * n)), grid
    (grid,) = sample_spec(spec, 1)
    bad = copy.deepcopy(grid)
    bad[0][0] = len(grid) ** 2
    reports(spec, [bad], "grid")


def test_values_up_to_m_times_n_and_powers() -> None:
    """``1 <= arr[i], mat[r][c] <= m * n`` (a grid's two sides) and ``0 <= nums[i] <
    2^maximumBit`` (a scalar parameter in the exponent)."""
    inp = question(
        [("arr", "integer[]"), ("mat", "integer[][]")],
        [
            "m == mat.length",
            "n == mat[i].length",
            "arr.length == m * n",
            "1 <= m, n <= 10",
            "1 <= arr[i], mat[r][c] <= m * n",
        ],
    )
    spec = spec_of(inp)
    for arr, mat in draws(spec):
        top = len(mat) * len(mat[0])
        assert len(arr) == top and all(1 <= v <= top for v in arr), (arr, mat)
        assert all(1 <= v <= top for row in mat for v in row), mat
    arr, mat = sample_spec(spec, 2)
    reports(spec, [arr, [[len(mat) * len(mat[0]) + 1, *mat[0][1:]], *mat[1:]]], "mat")

    inp = question(
        [("nums", "integer[]"), ("maximumBit", "integer")],
        ["1 <= nums.length <= 100", "1 <= maximumBit <= 20", "0 <= nums[i] < 2^maximumBit"],
    )
    spec = spec_of(inp)
    seen = set()
    for nums, bit in draws(spec):
        assert all(0 <= v < 2**bit for v in nums), (nums, bit)
        seen.add(max(nums, default=0) >= 2 ** (bit - 1))
    assert True in seen  # values reach the top half of the range, not only small ones
    nums, bit = sample_spec(spec, 3)
    reports(spec, [[*nums, 2**bit], bit], "nums")


def test_a_bound_over_a_divisor_is_rounded_exactly() -> None:
    """``0 <= queries[i] < n * (n - 1) / 2`` (the ceiling; n * (n - 1) is even anyway) and
    ``1 <= k_i <= n * n / 4`` of a field (the floor: an odd n leaves a fraction), where the
    range holds a value for every n."""
    inp = question(
        [("nums", "integer[]"), ("queries", "integer[]")],
        [
            "2 <= n == nums.length <= 30",
            "1 <= nums[i] <= 100",
            "1 <= queries.length <= 50",
            "0 <= queries[i] < n * (n - 1) / 2",
        ],
    )
    spec = spec_of(inp)
    for nums, queries in draws(spec):
        n = len(nums)
        assert all(0 <= v < n * (n - 1) // 2 for v in queries), (n, queries)
    nums, queries = sample_spec(spec, 4)
    reports(spec, [nums, [len(nums) * (len(nums) - 1) // 2]], "queries")

    items = ["1 <= pairs.length <= 20", "pairs[i] = [x_i, k_i]", "0 <= x_i < n"]
    params = [("n", "integer"), ("pairs", "integer[][]")]
    spec = spec_of(question(params, ["2 <= n <= 9", *items, "1 <= k_i <= n * n / 4"]))
    tops = set()
    for n, pairs in draws(spec):
        assert all(k >= 1 and 4 * k <= n * n for _, k in pairs), (n, pairs)
        tops.update(n for _, k in pairs if k == n * n // 4)
    assert any(n % 2 for n in tops)  # the floor itself is drawn where n is odd
    reports(spec, [3, [[0, 3]]], "pairs")  # 3 > 9 / 4
    # n == 1 would leave 1 <= k_i <= 0: a range that may be empty is refused
    lone = question(params, ["1 <= n <= 9", *items, "1 <= k_i <= n * n / 4"])
    assert "may be empty" in refused(lone)


def test_products_a_chain_cannot_meet_are_refused() -> None:
    """A product compared with an element and a number, an element equal to a fraction:
    refused as before, never guessed (a lone least product, ``2 <= n * k``, is read now:
    tests/test_offline_prods.py)."""
    base = ["1 <= nums.length <= 10", "1 <= n, k <= 10"]
    params = [("nums", "integer[]"), ("n", "integer"), ("k", "integer")]
    assert "product" in refused(question(params, [*base, "1 <= nums[i] <= n * k <= 50"]))
    assert "product" in refused(question(params, [*base, "nums[i] == n * (n - 1) / 2"]))


# -- floors and a number times a name ------------------------------------------------------------


def test_upper_bound_by_a_floor() -> None:
    """``1 <= k <= floor(nums.length / 3)``: 3 * k <= nums.length, the floor reached."""
    inp = question(
        [("nums", "integer[]"), ("k", "integer")],
        [
            "1 <= nums.length <= 40",
            "1 <= nums[i] <= 9",
            "1 <= k <= floor(nums.length / 3)",
        ],
    )
    spec = spec_of(inp)
    for nums, k in draws(spec):
        assert 1 <= k <= len(nums) // 3, (len(nums), k)
    reports(spec, [[1, 2, 3, 4, 5], 2], "k")
    # a floor on the smaller side does not agree with the division: refused
    inp = question(
        [("nums", "integer[]"), ("k", "integer")],
        ["1 <= nums.length <= 40", "1 <= nums[i] <= 9", "floor(nums.length / 3) <= k <= 40"],
    )
    assert refused(inp)


def test_a_number_times_a_name() -> None:
    """``nums.length == 2n``: the length is even, n its half."""
    inp = question(
        [("nums", "integer[]"), ("n", "integer")],
        ["1 <= n <= 50", "nums.length == 2n", "1 <= nums[i] <= 10^3"],
    )
    spec = spec_of(inp)
    for nums, n in draws(spec):
        assert len(nums) == 2 * n, (nums, n)
    reports(spec, [[1, 2, 3], 1], "nums.length")


# -- values by cases ------------------------------------------------------------------------------


def test_values_by_cases() -> None:
    """``grid[i][j] == 0 or 1`` is a value set; ``nums[i] == -1 or 1 <= nums[i] <= 100`` is the
    range from -1 to 100 without 0; ``1 <= |cost[i]| <= 10^4`` is -10^4 .. 10^4 without 0."""
    inp = question(
        [("grid", "integer[][]")],
        ["1 <= grid.length, grid[i].length <= 20", "grid[i][j] == 0 or 1"],
    )
    spec = spec_of(inp)
    assert spec["params"][0]["leaf"]["set"] == [0, 1]
    for (grid,) in draws(spec):
        assert all(v in (0, 1) for row in grid for v in row), grid
    reports(spec, [[[0, 2]]], "grid")

    inp = question(
        [("nums", "integer[]"), ("cost", "integer[]")],
        [
            "1 <= nums.length, cost.length <= 100",
            "nums[i] == -1 or 1 <= nums[i] <= 100",
            "1 <= |cost[i]| <= 10^4",
        ],
    )
    spec = spec_of(inp)
    values: set[int] = set()
    signs: set[bool] = set()
    for nums, cost in draws(spec, 150):
        assert all(v == -1 or 1 <= v <= 100 for v in nums), nums
        assert all(1 <= abs(v) <= 10**4 for v in cost), cost
        values.update(nums)
        signs.update(v < 0 for v in cost)
    assert -1 in values and 0 not in values and signs == {True, False}
    reports(spec, [[-1, 0, 5], [3]], "nums")
    reports(spec, [[-1], [0, 3]], "cost")


def test_cases_of_a_field_and_wide_gaps() -> None:
    """``w_i = -1 or 1 <= w_i <= 10^7`` of a row's field; a gap of more than 16 values is
    refused (an excluded value per value of the gap)."""
    inp = question(
        [("edges", "integer[][]")],
        [
            "1 <= edges.length <= 30",
            "edges[i] = [a_i, w_i]",
            "0 <= a_i <= 10",
            "w_i = -1 or 1 <= w_i <= 10^7",
        ],
    )
    spec = spec_of(inp)
    for (edges,) in draws(spec):
        assert all(w == -1 or 1 <= w <= 10**7 for _, w in edges), edges
    reports(spec, [[[1, 0]]], "edges")
    inp = question(
        [("nums", "integer[]")],
        ["1 <= nums.length <= 10", "nums[i] == -1 or 100 <= nums[i] <= 200"],
    )
    assert "skips more than 16" in refused(inp)


def test_lines_the_chain_reads_are_unchanged() -> None:
    """A line with a division the chain reads (``k <= nums.length / 3``) is read as before,
    whatever its floor twin now reads to."""
    items = ["1 <= nums.length <= 40", "1 <= nums[i] <= 9"]
    params = [("nums", "integer[]"), ("k", "integer")]
    plain = spec_of(question(params, [*items, "1 <= k <= nums.length / 3"]))
    floor = spec_of(question(params, [*items, "1 <= k <= floor(nums.length / 3)"]))
    assert [sample_spec(plain, s) for s in range(20)] == [sample_spec(floor, s) for s in range(20)]


# -- comma lists beside a product, and the largest element -----------------------------------------


def test_a_list_of_quantities_bounded_by_a_min_with_a_product() -> None:
    """``0 <= a, b <= min(m * n, 6)``: each of a and b at most m * n and at most 6."""
    inp = question(
        [("m", "integer"), ("n", "integer"), ("a", "integer"), ("b", "integer")],
        ["1 <= m, n <= 5", "0 <= a, b <= min(m * n, 6)"],
    )
    spec = spec_of(inp)
    for m, n, a, b in draws(spec):
        assert 0 <= a <= min(m * n, 6) and 0 <= b <= min(m * n, 6), (m, n, a, b)
    reports(spec, [1, 2, 3, 0], "a")
    # an element and a quantity in one list: each read by its own form
    inp = question(
        [("nums", "integer[]"), ("n", "integer"), ("k", "integer")],
        ["1 <= nums.length <= 10", "1 <= n <= 10", "0 <= nums[i], k < n * n"],
    )
    spec = spec_of(inp)
    for nums, n, k in draws(spec):
        assert all(0 <= v < n * n for v in nums) and 0 <= k < n * n, (nums, n, k)
    reports(spec, [[4], 2, 1], "nums")
    reports(spec, [[3], 2, 4], "k")


def test_the_largest_element_below_a_scalar() -> None:
    """``max(plants[i]) <= capacity <= 10^9``: every element at most capacity; capacity at
    least the least value the elements may take (1), since the list has a largest element."""
    inp = question(
        [("plants", "integer[]"), ("capacity", "integer")],
        [
            "1 <= plants.length <= 50",
            "1 <= plants[i] <= 10^6",
            "max(plants[i]) <= capacity <= 10^9",
        ],
    )
    spec = spec_of(inp)
    for plants, capacity in draws(spec):
        assert max(plants) <= capacity <= 10**9 and min(plants) >= 1, (plants, capacity)
    reports(spec, [[5, 9], 8], "plants")
    # the largest element above a scalar (max(x[i]) >= k) is not every element: refused
    inp = question(
        [("plants", "integer[]"), ("k", "integer")],
        ["1 <= plants.length <= 50", "1 <= plants[i] <= 10^6", "max(plants[i]) >= k >= 1"],
    )
    assert refused(inp)


# -- a chain across the values ---------------------------------------------------------------------


def test_a_chain_bounds_a_scalar_across_the_values_between() -> None:
    """``1 <= people[i] <= limit <= 3 * 10^4``: the chain says ``1 <= limit`` too, which no
    pair of neighbours in it says; the scalar had no lower bound and the question was refused.
    Used only where nothing else bounds the scalar from that side."""
    inp = question(
        [("people", "integer[]"), ("limit", "integer")],
        ["1 <= people.length <= 50", "1 <= people[i] <= limit <= 3 * 10^4"],
    )
    spec = spec_of(inp)
    limits = set()
    for people, limit in draws(spec):
        limits.add(limit)
        assert 1 <= limit <= 30_000 and all(1 <= p <= limit for p in people)
    assert min(limits) == 1  # the least limit, drawn in the edge cases
    reports(spec, [[1], 0], "limit")
    # strict steps: 0 <= nums[i] < k gives k >= 1
    strict = question(
        [("nums", "integer[]"), ("k", "integer")],
        ["1 <= nums.length <= 50", "0 <= nums[i] < k <= 100"],
    )
    assert all(k >= 1 and all(0 <= v < k for v in nums) for nums, k in draws(spec_of(strict)))
    # a stated lower bound stays the scalar's own: the spec is the one it was
    stated = question(
        [("people", "integer[]"), ("limit", "integer")],
        ["1 <= people.length <= 50", "1 <= people[i] <= limit <= 3 * 10^4", "5 <= limit"],
    )
    texts = [b["text"] for q in spec_of(stated)["quantities"] for b in q["bounds"]]
    assert not any("across" in t for t in texts), texts
