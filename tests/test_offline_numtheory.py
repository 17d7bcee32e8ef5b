"""Number-theoretic properties of values in the offline synthesizer (issue 26:
quicksilver/synth/offline/numtheory.py, runtime_numtheory.py, checker_occurs.py).

Statements we wrote in LeetCode's shapes: even and odd values (with a range in the same
sentence), primes, powers of two, a remainder a value may not have, and the parity of a node
count. Each is read, drawn on many seeds (random, perf and edge-case inputs) and checked twice,
by the independent checker and by plain code here; the checker reports an input that breaks
each property; a property no value of the range has, or that another rule could undo, is
refused.
"""

from __future__ import annotations

from typing import Any

import pytest

from quicksilver.synth.offline.checker import check_input
from quicksilver.synth.offline.runtime_numtheory import _allowed, _is_prime
from tests import synthkit
from tests.synthkit import question, refused, spec_of

SEEDS = 60


def draws(spec: dict[str, Any], n: int = SEEDS) -> list[list[Any]]:
    """Random inputs (caps 30 and 1000), perf inputs, and the edge cases; each checked clean."""
    return synthkit.draws(spec, n, small_cap=30, perf_cap=300, edge_seed=None)


def plain_prime(n: int) -> bool:
    return n >= 2 and all(n % d for d in range(2, int(n**0.5) + 1))


@pytest.mark.parametrize(
    ("items", "rule", "holds", "bad"),
    [
        (["1 <= price[i] <= 1000", "price[i] is an even integer."], ["mod", 2, 0], lambda v: v % 2 == 0, 7),
        (["price[i] is an odd integer in the range [-10^4, 10^4]"], ["mod", 2, 1], lambda v: v % 2 == 1, 4),
        (["2 <= price[i] <= 1000", "price[i] is a prime number."], ["prime"], plain_prime, 9),
        (["2 <= price[i] <= 10^9", "price[i] is guaranteed to be a prime number"], ["prime"], plain_prime, 91),
        (["1 <= price[i] <= 2^30", "price consists only of non-negative powers of two."], ["pow2"], lambda v: v & (v - 1) == 0, 12),
        (["1 <= price[i] <= 10^4", "price[i] % 10 != 0"], ["not_mod", 10, 0], lambda v: v % 10, 30),
    ],
)  # fmt: skip
def test_a_property_of_each_value(items: list[str], rule: list[Any], holds: Any, bad: int) -> None:
    inp = question([("price", "integer[]")], ["1 <= price.length <= 100", *items])
    spec = spec_of(inp)
    assert spec["params"][0]["values_are"] == rule
    lo, hi = spec["params"][0]["leaf"]["lo"][0], spec["params"][0]["leaf"]["hi"][0]
    seen: set[int] = set()
    for (price,) in draws(spec):
        assert all(holds(v) and lo <= v <= hi for v in price)
        seen.update(price)
    assert len(seen) > 10  # spread over the range, not one value
    assert check_input(spec, [[bad]])


def test_the_parity_of_a_node_count_with_its_range() -> None:
    inp = question(
        [("head", "ListNode")],
        [
            "The number of nodes in the list is an even integer in the range [2, 10^5].",
            "1 <= Node.val <= 10^5",
        ],
    )
    spec = spec_of(inp)
    assert spec["quantities"][0]["mod"] == [2, 0]
    for (head,) in draws(spec):
        assert len(head) % 2 == 0 and len(head) >= 2
    assert check_input(spec, [[1, 2, 3]])


def test_the_runtime_and_the_checker_agree_on_small_ranges() -> None:
    for lo in range(-3, 30):
        for hi in range(lo, 40):
            for rule in (["prime"], ["pow2"], ["mod", 3, 2], ["not_mod", 4, 1]):
                got = [_allowed(rule, x, lo, hi) for x in range(lo, hi + 1)]
                assert all(y is None or lo <= y <= hi for y in got)
    assert [n for n in range(60) if _is_prime(n)] == [n for n in range(60) if plain_prime(n)]
    assert _is_prime(999999937) and not _is_prime(999999937 * 3)


@pytest.mark.parametrize(
    ("items", "why"),
    [
        (["24 <= price[i] <= 28", "price[i] is a prime number"], "no value in [24, 28]"),
        (["5 <= price[i] <= 7", "price consists only of non-negative powers of two"], "no value"),
        (["1 <= price[i] <= 10", "All the values of price are unique", "price[i] is an even integer"], "a property of values"),
        (["1 <= price[i] <= n", "1 <= n <= 10", "price[i] is an even integer"], "one constant range"),
        (["1 <= price[i] <= 10", "price[i] is an even integer", "price[i] is a prime number"], "a second"),
    ],
)  # fmt: skip
def test_properties_that_cannot_be_met_are_refused(items: list[str], why: str) -> None:
    inp = question([("price", "integer[]"), ("n", "integer")], ["1 <= price.length <= 10", *items])
    assert why in refused(inp)


@pytest.mark.parametrize(
    ("params", "items", "holds"),
    [
        ([("nums", "integer[]")], ["1 <= nums.length <= 1024", "1 <= nums[i] <= 10^9", "nums.length is a power of 2."], lambda a: len(a[0]) & (len(a[0]) - 1) == 0),
        ([("n", "integer"), ("cost", "integer[]")], ["3 <= n <= 10^5", "n + 1 is a power of 2", "cost.length == n", "1 <= cost[i] <= 10^4"], lambda a: (a[0] + 1) & a[0] == 0 and a[0] >= 3),
        ([("s", "string"), ("k", "integer")], ["1 <= k <= 100", "k <= s.length <= 1000", "s.length is divisible by k.", "s consists only of lowercase English letters."], lambda a: len(a[0]) % a[1] == 0),
        ([("nums", "integer[]"), ("k", "integer")], ["1 <= k <= nums.length <= 16", "nums.length is divisible by k", "1 <= nums[i] <= nums.length"], lambda a: len(a[0]) % a[1] == 0),
        ([("word", "string"), ("k", "integer")], ["1 <= n == word.length <= 10^5", "1 <= k <= word.length", "k divides word.length.", "word consists only of lowercase English letters."], lambda a: len(a[0]) % a[1] == 0),
    ],
)  # fmt: skip
def test_a_property_of_a_size(params: list[tuple[str, str]], items: list[str], holds: Any) -> None:
    spec = spec_of(question(params, items))
    sizes = set()
    for args in draws(spec, 40):
        assert holds(args), args
        sizes.add(len(args[0]) if isinstance(args[0], (list, str)) else args[0])
    assert len(sizes) > 3


def test_the_checker_reports_a_size_without_its_property() -> None:
    spec = spec_of(
        question(
            [("nums", "integer[]")],
            ["1 <= nums.length <= 64", "0 <= nums[i] <= 9", "nums.length is a power of 2"],
        )
    )
    assert any("power of two" in x for x in check_input(spec, [[1, 2, 3]]))
    spec = spec_of(
        question(
            [("s", "string"), ("k", "integer")],
            [
                "1 <= k <= s.length <= 50",
                "s consists of lowercase English letters",
                "s.length is divisible by k",
            ],
        )
    )
    assert any("does not divide" in x for x in check_input(spec, ["abcde", 2]))


@pytest.mark.parametrize(
    ("items", "why"),
    [
        (["1 <= nums.length <= 64", "nums.length is even", "nums.length is a power of 2", "0 <= nums[i] <= 9", "1 <= k <= 5"], "with a remainder"),
        (["1 <= nums.length <= 64", "0 <= nums[i] <= 9", "1 <= k <= 5", "nums.length + k is divisible by k"], "each alone"),
    ],
)  # fmt: skip
def test_size_properties_that_cannot_be_drawn_are_refused(items: list[str], why: str) -> None:
    assert why in refused(question([("nums", "integer[]"), ("k", "integer")], items))
