"""Sums over lists in the offline synthesizer (issue 28, quicksilver/synth/offline/sums.py).

Statements we wrote in LeetCode's shapes: totals of per-item lengths in other words (``The total
sum of words[i].length is less than or equal to B``, ``There will be at most B integers in all
the arrays``), a least sum of lengths a draw could miss (``1 <= sum(nums[i].length) <= 1000``
where a row may be empty), and a least, fixed or odd/even sum of a list's values (``1 <=
sum(count) <= 10^9``, ``sum(nums) == 50``, ``sum(piles[i]) is odd``). Each is read, drawn on many
seeds (random, perf and edge-case inputs) and asserted on here with plain code, checked by the
independent checker, and the checker reports an input that breaks it; what cannot be met is
refused.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from quicksilver.synth.offline import emit_generator, sample_spec
from quicksilver.synth.offline.checker import check_input
from quicksilver.synth.offline.runtime import perf_variants
from tests.synthkit import question, refused, reports, spec_of

SEEDS = 80


def draws(spec: dict[str, Any], n: int = SEEDS) -> list[list[Any]]:
    """Random inputs, perf inputs (every variant), and the emitted generator's edge cases; each
    checked clean."""
    out = [sample_spec(spec, seed, 40 if seed % 2 else 1000) for seed in range(n)]
    out += [sample_spec(spec, seed, 100, mode="max") for seed in range(3)]
    for pattern in perf_variants(spec):
        out.append(sample_spec(spec, 1, 60, mode="max", pattern=pattern))
    ns: dict[str, Any] = {}
    exec(compile(emit_generator(spec, 1000), "gen.py", "exec", dont_inherit=True), ns)
    random.seed(5)
    out += ns["generate_edge_cases"]()
    for args in out:
        assert check_input(spec, args) == [], args
    return out


# -- totals of lengths in other words -------------------------------------------------------------

WORDS = [("words", "string[]")]
WORDS_ITEMS = [
    "1 <= words.length <= 10^4",
    "1 <= words[i].length <= 10^3",
    "words[i] consists only of lowercase English letters.",
]


@pytest.mark.parametrize(
    "sentence",
    [
        "The total sum of words[i].length is less than or equal to 2000.",
        "The sum of the lengths of all words[i] does not exceed 2000.",
        "The total length of all strings in words does not exceed 2000.",
        "The input is generated such that sum(words[i].length) <= 2000.",
        "The test cases are generated so that the sum of words[i].length is at most 2000.",
    ],
)
def test_a_total_of_lengths_in_other_words(sentence: str) -> None:
    spec = spec_of(question(WORDS, [*WORDS_ITEMS, sentence]))
    assert spec["params"][0]["dims"][1]["sum_max"] == 2000
    for (words,) in draws(spec):
        assert sum(len(w) for w in words) <= 2000


def test_at_most_so_many_integers_in_all_the_arrays() -> None:
    items = [
        "m == arrays.length",
        "2 <= m <= 10^5",
        "1 <= arrays[i].length <= 500",
        "-10^4 <= arrays[i][j] <= 10^4",
        "There will be at most 1500 integers in all the arrays.",
    ]
    spec = spec_of(question([("arrays", "integer[][]")], items))
    for (arrays,) in draws(spec):
        assert len(arrays) >= 2 and sum(len(a) for a in arrays) <= 1500
    # of two lists of lists, the sentence does not say which
    two = [("a", "integer[][]"), ("b", "integer[][]")]
    lines = ["1 <= a.length, b.length <= 10", "1 <= a[i].length, b[i].length <= 10"]
    lines += ["0 <= a[i][j], b[i][j] <= 9", "There will be at most 50 integers in all the arrays."]
    assert "in all the arrays" in refused(question(two, lines))


# -- a least sum of lengths -----------------------------------------------------------------------

ROWS = [("nums", "integer[][]")]
ROWS_ITEMS = [
    "1 <= nums.length <= 1000",
    "0 <= nums[i].length <= 50",
    "1 <= nums[i][j] <= 1000",
]


def test_a_least_sum_of_lengths_is_met() -> None:
    spec = spec_of(question(ROWS, [*ROWS_ITEMS, "30 <= sum(nums[i].length) <= 1000"]))
    dim = spec["params"][0]["dims"][1]
    assert dim["sum_min"] == 30 and dim["sum_max"] == 1000
    totals = [sum(len(r) for r in nums) for (nums,) in draws(spec)]
    assert min(totals) >= 30 and max(totals) <= 1000
    assert 30 in totals  # the smallest draws are lengthened to the least sum, not past it
    # the item count is kept large enough for rows of at most 50 to reach 30... and 120
    spec = spec_of(question(ROWS, [*ROWS_ITEMS, "120 <= sum(nums[i].length) <= 1000"]))
    lows = [-b["rest"] for b in spec["quantities"][0]["bounds"] if b["coef"] == 1]
    assert max(lows) == 3
    for (nums,) in draws(spec, 20):
        assert len(nums) >= 3 and sum(len(r) for r in nums) >= 120
    # a least sum a statement already meets keeps its spec as before (no "sum_min")
    spec = spec_of(question(ROWS, [*ROWS_ITEMS[:1], "1 <= nums[i].length <= 50", *ROWS_ITEMS[2:]]))
    assert "sum_min" not in spec["params"][0]["dims"][1]


def test_the_checker_reports_a_sum_of_lengths_below_the_least() -> None:
    spec = spec_of(question(ROWS, [*ROWS_ITEMS, "30 <= sum(nums[i].length) <= 1000"]))
    reports(spec, [[[1, 2], [3]]], "sum to 3, below 30")
    assert check_input(spec, [[[1] * 20, [2] * 10]]) == []


def test_a_least_sum_of_lengths_that_cannot_be_met_is_refused() -> None:
    lines = [*ROWS_ITEMS, "2000 <= sum(nums[i].length)", "sum(nums[i].length) <= 1000"]
    assert "no draw can reach" in refused(question(ROWS, lines))
    # a sum equal to another size stays refused
    lines = ["sum(nums[i].length) == arr.length", "1 <= nums.length <= arr.length <= 100"]
    lines += ["1 <= nums[i].length <= 50", "1 <= nums[i][j], arr[i] <= 9"]
    assert "sum(nums[i].length) == arr.length" in refused(
        question([*ROWS, ("arr", "integer[]")], lines)
    )


# -- sums of values -------------------------------------------------------------------------------

PILES = [("piles", "integer[]")]


@pytest.mark.parametrize(
    ("sentence", "parity"),
    [
        ("sum(piles[i]) is odd.", 1),
        ("sum(piles) is even.", 0),
        ("The sum of piles is odd.", 1),
        ("The sum of all the elements of piles is even.", 0),
    ],
)
def test_the_parity_of_a_sum_of_values(sentence: str, parity: int) -> None:
    items = ["1 <= piles.length <= 500", "1 <= piles[i] <= 500", sentence]
    spec = spec_of(question(PILES, items))
    assert spec["params"][0]["values_sum"] == {"mod": [2, parity]}
    for (piles,) in draws(spec):
        assert sum(piles) % 2 == parity and all(1 <= x <= 500 for x in piles) and piles
    reports(spec, [[2, 2] if parity else [1, 2]], "not", "modulo 2")


def test_a_least_sum_of_values() -> None:
    items = ["count.length == 256", "0 <= count[i] <= 10^9", "1 <= sum(count) <= 10^9"]
    spec = spec_of(question([("count", "integer[]")], items))
    p = spec["params"][0]
    assert p["values_sum"] == {"min": 1} and p["values_sum_max"] == 10**9
    for (count,) in draws(spec, 30):
        assert len(count) == 256 and 1 <= sum(count) <= 10**9
    reports(spec, [[0] * 256], "sum to 0, below 1")


def test_a_fixed_sum_of_values() -> None:
    items = ["1 <= nums.length <= 100", "0 <= nums[i] <= 9", "sum(nums) == 50"]
    spec = spec_of(question([("nums", "integer[]")], items))
    for (nums,) in draws(spec):
        assert sum(nums) == 50 and len(nums) >= 6 and all(0 <= x <= 9 for x in nums)
    reports(spec, [[9] * 5], "sum to 45, below 50")
    reports(spec, [[9] * 6], "sum to 54, above 50")


@pytest.mark.parametrize(
    ("items", "why"),
    [
        (["1 <= nums[i] <= 9", "All the integers of nums are unique.", "sum(nums) is odd."], "sum"),
        (["1 <= nums[i] <= 9", "nums is sorted in ascending order.", "10 <= sum(nums)"], "sum"),
        (["-9 <= nums[i] <= -1", "1 <= sum(nums)"], "least sum above 0"),
        (["0 <= nums[i] <= 9", "sum(nums) is odd.", "sum(nums) is even."], "two parities"),
    ],
)
def test_a_sum_of_values_that_cannot_be_met_is_refused(items: list[str], why: str) -> None:
    lines = ["1 <= nums.length <= 9", *items]
    assert why in refused(question([("nums", "integer[]")], lines))


# -- a scalar at most a sum -----------------------------------------------------------------------


def test_a_scalar_at_most_a_sum_of_lengths() -> None:
    items = [
        "n == piles.length",
        "1 <= n <= 1000",
        "1 <= piles[i][j] <= 10^5",
        "1 <= k <= sum(piles[i].length) <= 2000",
    ]
    spec = spec_of(question([("piles", "integer[][]"), ("k", "integer")], items))
    k = spec["params"][1]
    assert k["below_sum"] == {"of": "piles", "level": 1, "strict": False}
    assert spec["params"][0]["dims"][1]["hi"] == 2000  # each item at most the whole sum
    seen = set()
    for piles, k in draws(spec):
        total = sum(len(p) for p in piles)
        assert 1 <= k <= total <= 2000
        seen.add(k == total)
    assert seen == {True, False}
    reports(spec, [[[1], [2]], 3], "k = 3 breaks k <= the sum 2")


@pytest.mark.parametrize(
    "bound", ["1 <= orders <= min(sum(inventory[i]), 10^9)", "1 <= orders <= sum(inventory)"]
)
def test_a_scalar_at_most_a_sum_of_values(bound: str) -> None:
    items = ["1 <= inventory.length <= 10", "1 <= inventory[i] <= 20", bound, "orders <= 10^9"]
    spec = spec_of(question([("inventory", "integer[]"), ("orders", "integer")], items))
    assert "values_sum" not in spec["params"][0]  # the values' least sum is already 1
    for inventory, orders in draws(spec):
        assert 1 <= orders <= sum(inventory)
    reports(spec, [[1, 2], 4], "orders = 4 breaks orders <= the sum 3")
    strict = [*items[:2], "0 <= orders < sum(inventory)", "orders <= 10^9"]
    spec = spec_of(question([("inventory", "integer[]"), ("orders", "integer")], strict))
    for inventory, orders in draws(spec, 30):
        assert 0 <= orders < sum(inventory)
    reports(spec, [[1, 2], 3], "orders = 3 breaks orders < the sum 3")


def test_a_scalar_at_most_a_sum_that_others_depend_on_is_refused() -> None:
    items = ["1 <= nums.length <= 10", "0 <= nums[i] <= k", "1 <= k <= sum(nums)", "k <= 100"]
    assert "other bounds depend on" in refused(
        question([("nums", "integer[]"), ("k", "integer")], items)
    )
    items = ["1 <= nums.length <= 10", "0 <= nums[i] <= 9", "1 <= 2 * k <= sum(nums)", "k <= 100"]
    assert "only a scalar at most the sum" in refused(
        question([("nums", "integer[]"), ("k", "integer")], items)
    )


def test_a_total_says_lengths_or_values() -> None:
    """``The total sum of grid ...`` sums a grid's values, not its cells: not read as lengths;
    ``The total sum of nums ...`` of a list of integers is its values' sum."""
    grid = ["1 <= grid.length, grid[i].length <= 10", "0 <= grid[i][j] <= 9"]
    line = "The total sum of grid is at most 100."
    assert line in refused(question([("grid", "integer[][]")], [*grid, line]))
    nums = ["1 <= nums.length <= 10", "0 <= nums[i] <= 50", "The total sum of nums is at most 100."]
    spec = spec_of(question([("nums", "integer[]")], nums))
    assert spec["params"][0]["values_sum_max"] == 100
    for (values,) in draws(spec, 20):
        assert sum(values) <= 100
    lines = [*nums[:2], "The sum of the lengths of nums does not exceed 100."]
    assert "lengths of nums" in refused(question([("nums", "integer[]")], lines))


def test_a_strict_least_sum_of_values_binds() -> None:
    """``0 < sum(nums)`` is a least sum of 1 (once read as one that cannot bind)."""
    items = ["1 <= nums.length <= 5", "0 <= nums[i] <= 3", "0 < sum(nums)"]
    spec = spec_of(question([("nums", "integer[]")], items))
    assert spec["params"][0]["values_sum"] == {"min": 1}
    for (nums,) in draws(spec):
        assert sum(nums) >= 1
    reports(spec, [[0, 0]], "sum to 0, below 1")
