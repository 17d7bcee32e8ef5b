"""Products, powers, factorials and binomials in bounds (issue 26,
quicksilver/synth/offline/prods.py).

Statements we wrote in LeetCode's shapes: a quantity bounded by a factorial (``1 <= k <= n!``),
a binomial (``1 <= k <= nCr(m + n, n), where nCr(a, b) denotes a choose b``), the larger of two
sizes (``1 <= word.length <= max(m, n)``), a product in parentheses; a bound on the product or power itself (``2 <= m * n``, ``1 <= k^n <= 4096``, ``1 <= a
* b * c <= 10^18``); a range sentence up to a product. Each is read, drawn on many seeds (random,
perf and edge-case inputs) and asserted on here with plain code, checked by the independent
checker, and the checker reports an input that breaks it; what cannot be met is refused.
"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from quicksilver.synth.offline import emit_generator, sample_spec
from quicksilver.synth.offline.checker import check_input
from quicksilver.synth.offline.runtime import perf_variants
from tests.synthkit import question, refused, reports, spec_of

SEEDS = 60


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
    edges = ns["generate_edge_cases"]()
    assert edges, "no edge case could be drawn"
    out += edges
    for args in out:
        assert check_input(spec, args) == [], args
    return out


def item(spec: dict[str, Any], name: str) -> dict[str, Any]:
    return next(i for i in spec["quantities"] if i["name"] == name)


# -- a quantity bounded by a factorial, a binomial, the larger of two values -------------------


def test_an_upper_bound_by_a_factorial() -> None:
    """``1 <= k <= n!`` (permutation-sequence's shape): k drawn after n, up to n!."""
    spec = spec_of(question([("n", "integer"), ("k", "integer")], ["1 <= n <= 9", "1 <= k <= n!"]))
    assert item(spec, "k")["poly"][0]["num"] == ["!", "n", 0]
    seen = draws(spec)
    for n, k in seen:
        assert 1 <= n <= 9 and 1 <= k <= math.factorial(n), (n, k)
    assert any(k > 10**4 for _, k in seen)  # the bound reaches far past n itself
    reports(spec, [3, 7], "k = 7 breaks 1 <= k <= n!")


@pytest.mark.parametrize(
    "sentence",
    [
        "1 <= k <= nCr(row + column, row), where nCr(a, b) denotes a choose b.",
        "1 <= k <= C(row + column, row)",
        "1 <= k <= comb(row + column, column)",
    ],
)
def test_an_upper_bound_by_a_binomial(sentence: str) -> None:
    """``1 <= k <= nCr(row + column, row)``: the binomial coefficient, drawn after its
    arguments (kth-smallest-instructions' words, here of two integer parameters)."""
    params = [("row", "integer"), ("column", "integer"), ("k", "integer")]
    spec = spec_of(question(params, ["1 <= row, column <= 15", sentence]))
    for row, column, k in draws(spec):
        assert 1 <= k <= math.comb(row + column, row), (row, column, k)
    reports(spec, [2, 2, 7], "k = 7 breaks")  # C(4, 2) = 6


def test_an_upper_bound_by_the_larger_of_two_sizes() -> None:
    """``1 <= word.length <= max(m, n)``: the chain reads it as a disjunction it cannot place;
    here it is one bound by ``max(m, n)``, drawn after m and n."""
    items = [
        "m == board.length",
        "n == board[i].length",
        "1 <= m * n <= 400",
        "board[i][j] is either '#' or a lowercase English letter.",
        "1 <= word.length <= max(m, n)",
        "word consists of lowercase English letters.",
    ]
    spec = spec_of(question([("board", "character[][]"), ("word", "string")], items))
    seen = draws(spec)
    for board, word in seen:
        m, n = len(board), len(board[0])
        assert 1 <= len(word) <= max(m, n) and m * n <= 400, (m, n, word)
    assert any(len(b) < len(w) for b, w in seen) and any(len(b[0]) < len(w) for b, w in seen)
    reports(spec, [[["a", "b"]], "abc"], "word.length = 3 breaks")


def test_a_whole_side_in_parentheses() -> None:
    """``0 <= k <= (n * (n - 1) / 2)`` (cheapest-flights-within-k-stops writes its edge count
    so): the parentheses hold the whole side, division included."""
    spec = spec_of(
        question(
            [("n", "integer"), ("k", "integer")], ["2 <= n <= 30", "0 <= k <= (n * (n - 1) / 2)"]
        )
    )
    for n, k in draws(spec):
        assert 0 <= k <= n * (n - 1) // 2, (n, k)
    reports(spec, [3, 4], "k = 4 breaks")


def test_a_power_too_large_to_bound_beside_a_number() -> None:
    """``1 <= k <= min(2000, 2^n)`` with n up to 10^5 (find-the-k-sum-of-an-array): 2^n is
    too large to bound, but for n >= 11 it is above 2000 anyway; the bound is 2^min(n, 11)."""
    items = ["n == nums.length", "1 <= n <= 10^5", "-10^9 <= nums[i] <= 10^9"]
    spec = spec_of(
        question([("nums", "integer[]"), ("k", "integer")], [*items, "1 <= k <= min(2000, 2^n)"])
    )
    assert item(spec, "k")["poly"][0]["num"] == ["^", 2, ["min", "n", 11]]
    small = [sample_spec(spec, seed, 6) for seed in range(40)]
    for nums, k in draws(spec) + small:
        assert 1 <= k <= min(2000, 2 ** len(nums)), (len(nums), k)
    assert any(k > 2 ** (len(nums) - 1) for nums, k in small)
    reports(spec, [[1, 2], 5], "k = 5 breaks")


# -- a bound on the product or power itself -------------------------------------------------------


GRID = [
    "m == grid.length",
    "n == grid[i].length",
    "1 <= m, n <= 50",
    "grid[i][j] is either 0 or 1.",
]


@pytest.mark.parametrize("sentence", ["2 <= m * n", "m * n >= 2", "n * m > 1"])
def test_a_least_product_of_two_sizes(sentence: str) -> None:
    """``2 <= m * n`` (find-a-safe-walk-through-a-grid): no 1 x 1 grid, not even among the edge
    cases, where every size is at its least (the later side is then 2)."""
    spec = spec_of(question([("grid", "integer[][]")], [*GRID, sentence]))
    assert [b["lo"] for i in spec["quantities"] for b in i.get("prod_in", ())] == [2]
    seen = draws(spec)
    for (grid,) in seen:
        assert len(grid) * len(grid[0]) >= 2, grid
    assert any(len(g) == 1 or len(g[0]) == 1 for (g,) in seen)
    reports(spec, [[[0]]], sentence, "is broken")


def test_a_power_of_two_scalars_in_a_range() -> None:
    """``1 <= k^n <= 4096`` (cracking-the-safe): the later of k and n drawn so that the power
    stays in range; with both at their greatest (10^4 > 4096) the later gives way."""
    items = ["1 <= n <= 4", "1 <= k <= 10", "1 <= k^n <= 4096"]
    spec = spec_of(question([("n", "integer"), ("k", "integer")], items))
    seen = draws(spec, 200)
    for n, k in seen:
        assert 1 <= k**n <= 4096 and 1 <= n <= 4 and 1 <= k <= 10, (n, k)
    assert {(n, k) for n, k in seen} >= {(4, 8), (3, 10)}  # the largest pairs that fit
    reports(spec, [4, 9], "1 <= k^n <= 4096 is broken")


@pytest.mark.parametrize(
    "items",
    [
        ["1 <= n, a, b, c <= 10^9", "1 <= a * b * c <= 10^18"],
        ["1 <= n, a, b, c <= 2 * 10^9", "a * b * c <= 10^18"],
    ],
)
def test_a_product_of_three_scalars_in_a_range(items: list[str]) -> None:
    """``1 <= a * b * c <= 10^18`` (ugly-number-iii): the last drawn of a, b and c within
    10^18 over the product of the others; each at most what the others' least values leave."""
    params = [("n", "integer"), ("a", "integer"), ("b", "integer"), ("c", "integer")]
    spec = spec_of(question(params, items))
    seen = draws(spec, 150)
    for _, a, b, c in seen:
        assert 1 <= a * b * c <= 10**18, (a, b, c)
    assert any(a * b * c > 10**15 for _, a, b, c in seen)
    reports(spec, [1, 10**9, 10**9, 2], "a * b * c <= 10^18 is broken", "more")


def test_the_implied_ranges_of_the_factors() -> None:
    """``50 <= a * b * c <= 60`` with a, b, c in [1, 5]: each factor at least what the others'
    greatest values leave (a >= 2: 1 * 5 * 5 < 50), as a bound of its own."""
    params = [("a", "integer"), ("b", "integer"), ("c", "integer")]
    spec = spec_of(question(params, ["1 <= a, b, c <= 5", "50 <= a * b * c <= 60"]))
    assert any(b["rest"] == -2 and b["coef"] == 1 for b in item(spec, "a")["bounds"])
    seen = draws(spec, 200)
    for a, b, c in seen:
        assert 50 <= a * b * c <= 60, (a, b, c)
    assert {tuple(sorted(x)) for x in seen} == {(3, 4, 5), (2, 5, 5)}


def test_a_range_sentence_up_to_a_product() -> None:
    """``The number of nodes in the list is in the range [1, m * n]`` (spiral-matrix-iv): the
    list's length drawn after m and n, up to their product."""
    items = [
        "1 <= m, n <= 10^5",
        "1 <= m * n <= 10^5",
        "The number of nodes in the list is in the range [1, m * n].",
        "0 <= Node.val <= 1000",
    ]
    spec = spec_of(question([("m", "integer"), ("n", "integer"), ("head", "ListNode")], items))
    seen = draws(spec)
    for m, n, head in seen:
        assert 1 <= len(head) <= m * n <= 10**5, (m, n, len(head))
    assert any(len(h) == m * n for m, n, h in seen)
    reports(spec, [1, 2, [1, 2, 3]], "head.length = 3 breaks")


# -- refused ----------------------------------------------------------------------------------------


def test_what_cannot_be_met_exactly_is_refused() -> None:
    """A factor that may be negative (the product does not grow with it), the base of a power
    that may be 0 with a quantity in the exponent, a range no factor can meet, a power of a
    double: refused, never guessed."""
    two = [("a", "integer"), ("b", "integer")]
    assert "may not grow" in refused(question(two, ["-5 <= a, b <= 5", "1 <= 2 * a * b <= 10"]))
    assert "may not grow" in refused(question(two, ["0 <= a, b <= 5", "1 <= a^b <= 10"]))
    assert "no value of" in refused(question(two, ["1 <= a, b <= 5", "100 <= 2 * a * b <= 200"]))
    # a sum of sizes below a product: the sizes come first, so only a new draw could meet it
    sizes = [("m", "integer"), ("n", "integer"), ("g", "integer[]"), ("w", "integer[]")]
    items = ["1 <= m, n <= 20", "1 <= g.length, w.length <= 300", "0 <= g[i], w[i] <= 9"]
    assert "m * n" in refused(question(sizes, [*items, "2 <= g.length + w.length <= m * n"]))
    power = [("x", "double"), ("n", "integer")]
    assert "x^n" in refused(
        question(power, ["-100 < x < 100", "-2^31 <= n <= 2^31-1", "-10^4 <= x^n <= 10^4"])
    )


def test_the_checker_needs_the_spec_key() -> None:
    """The runtime's range is no guess the checker shares: take ``prod_in`` away and the same
    broken input passes; with it, the checker reports it (so this family's tests can fail)."""
    spec = spec_of(question([("grid", "integer[][]")], [*GRID, "2 <= m * n"]))
    assert check_input(spec, [[[1]]]) != []
    for i in spec["quantities"]:
        i.pop("prod_in", None)
    assert check_input(spec, [[[1]]]) == []


def test_a_scalar_in_a_range_up_to_a_factorial() -> None:
    """``k is in the range [1, n!]``: the range sentence restated as ``1 <= k <= n!``."""
    spec = spec_of(
        question([("n", "integer"), ("k", "integer")], ["1 <= n <= 6", "k is in the range [1, n!]"])
    )
    for n, k in draws(spec):
        assert 1 <= k <= math.factorial(n), (n, k)
    reports(spec, [2, 3], "k = 3 breaks")
