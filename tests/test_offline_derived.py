"""Bounds by a count derived from another input (quicksilver/synth/offline/derived_counts.py).

Statements we wrote in LeetCode's shapes: a scalar at most the number of distinct values of a
list (``k is in the range [1, the number of unique elements in the array]``), of distinct strings
(``k is in the range [1, The number of unique words[i]]``), the words of a text, the digits of an
integer (``1 <= k <= num.length (taking num as a string)``) or the depth of a tree (``1 <= depth
<= the depth of tree + 1``). Each is read, drawn on many seeds (random, perf in every variant and
edge-case inputs) and asserted on here with plain code, checked by the independent checker, and
the checker reports an input that breaks it; what cannot be met is refused.
"""

from __future__ import annotations

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
    out += ns["generate_edge_cases"]()
    for args in out:
        assert check_input(spec, args) == [], args
    return out


def depth(level_order: list[Any]) -> int:
    """A level-order tree's depth, by building the tree (the root at depth 1)."""
    if not level_order:
        return 0
    nodes = [[x, None, None] for x in level_order]
    queue, slot = [nodes[0]], 1
    for node in queue:
        for side in (1, 2):
            if slot < len(nodes) and level_order[slot] is not None:
                node[side] = nodes[slot]
                queue.append(nodes[slot])
            slot += 1

    def walk(node: Any) -> int:
        return 0 if node is None else 1 + max(walk(node[1]), walk(node[2]))

    return walk(nodes[0])


# -- distinct values and strings ------------------------------------------------------------------

NUMS = [("nums", "integer[]"), ("k", "integer")]


@pytest.mark.parametrize(
    "sentence",
    [
        "k is in the range [1, the number of unique elements in the array].",
        "k is in the range [1, the number of distinct values in nums].",
        "1 <= k <= the number of distinct integers in nums",
        "1 <= k <= the number of unique nums[i]",
    ],
)
def test_a_scalar_at_most_the_distinct_values_of_a_list(sentence: str) -> None:
    items = ["1 <= nums.length <= 10^5", "-5 <= nums[i] <= 5", sentence]
    spec = spec_of(question(NUMS, items))
    assert spec["params"][1]["below_count"] == {"of": "nums", "count": "unique", "add": 0}
    got = draws(spec)
    assert all(1 <= k <= len(set(nums)) for nums, k in got)
    assert any(k == len(set(nums)) > 1 for nums, k in got)  # the count itself is drawn
    assert any(k < len(set(nums)) for nums, k in got)
    reports(spec, [[3, 3, 3, -1], 3], "k = 3 breaks", "(2)")


def test_a_scalar_at_most_the_distinct_strings_of_a_list() -> None:
    items = [
        "1 <= words.length <= 500",
        "1 <= words[i].length <= 2",
        "words[i] consists of lowercase English letters.",
        "k is in the range [1, The number of unique words[i]]",
    ]
    spec = spec_of(question([("words", "string[]"), ("k", "integer")], items))
    got = draws(spec)
    assert all(1 <= k <= len(set(words)) for words, k in got)
    assert any(k == len(set(words)) > 1 for words, k in got)
    reports(spec, [["ab", "ab"], 2], "k = 2 breaks")


# -- the words of a text ----------------------------------------------------------------------------

SENTENCE = [
    "1 <= s.length <= 500",
    "s consist of only lowercase and uppercase English letters and spaces.",
    "The words in s are separated by a single space.",
    "There are no leading or trailing spaces.",
]


@pytest.mark.parametrize(
    "sentence",
    ["k is in the range [1, the number of words in s].", "1 <= k <= the number of words in s"],
)
def test_a_scalar_at_most_the_words_of_a_text(sentence: str) -> None:
    spec = spec_of(question([("s", "string"), ("k", "integer")], [*SENTENCE, sentence]))
    got = draws(spec)
    assert all(1 <= k <= len(s.split(" ")) for s, k in got)
    assert any(k == len(s.split(" ")) > 1 for s, k in got)
    reports(spec, ["ab cd", 3], "k = 3 breaks", "(2)")


def test_a_count_below_the_words_is_strict() -> None:
    items = [*SENTENCE, "0 <= k < the number of words in s"]
    spec = spec_of(question([("s", "string"), ("k", "integer")], items))
    assert spec["params"][1]["below_count"]["add"] == -1
    assert all(0 <= k < len(s.split(" ")) for s, k in draws(spec))
    reports(spec, ["ab cd", 2], "k = 2 breaks")


# -- the digits of an integer -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "sentence",
    ["1 <= k <= num.length (taking num as a string)", "1 <= k <= the number of digits in num"],
)
def test_a_scalar_at_most_the_digits_of_an_integer(sentence: str) -> None:
    items = ["1 <= num <= 10^9", sentence]
    spec = spec_of(question([("num", "integer"), ("k", "integer")], items))
    got = draws(spec)
    assert all(1 <= k <= len(str(num)) for num, k in got)
    assert any(k == len(str(num)) > 1 for num, k in got)
    reports(spec, [240, 4], "k = 4 breaks", "(3)")


# -- the depth of a tree ----------------------------------------------------------------------------


def test_a_scalar_at_most_the_depth_of_a_tree_plus_one() -> None:
    items = [
        "The number of nodes in the tree is in the range [1, 10^4].",
        "The depth of the tree is in the range [1, 10^4].",
        "-100 <= Node.val <= 100",
        "-10^5 <= val <= 10^5",
        "1 <= depth <= the depth of tree + 1",
    ]
    params = [("root", "TreeNode"), ("val", "integer"), ("depth", "integer")]
    spec = spec_of(question(params, items))
    assert spec["params"][2]["below_count"] == {"of": "root", "count": "depth", "add": 1}
    got = draws(spec)
    assert all(1 <= d <= depth(root) + 1 for root, _, d in got)
    assert any(d == depth(root) + 1 > 2 for root, _, d in got)
    reports(spec, [[1, None, 2, 3], 0, 5], "depth = 5 breaks", "(3) + 1")


# -- how many cells hold an amount ------------------------------------------------------------------

MINE = (
    "In a mine grid of size m x n, each cell has an integer representing the amount of gold in "
    "that cell, 0 if it is empty."
)
GRID = ["m == grid.length", "n == grid[i].length", "1 <= m, n <= 15", "0 <= grid[i][j] <= 100"]


@pytest.mark.parametrize(
    "sentence", ["There are at most 25 cells containing gold.", "At most 25 cells contain gold."]
)
def test_at_most_k_cells_hold_an_amount(sentence: str) -> None:
    spec = spec_of(question([("grid", "integer[][]")], [*GRID, sentence], MINE))
    assert spec["presence"] == [["count", 0, [">", 0], 0, 25]]
    got = draws(spec)
    held = [sum(1 for row in grid for x in row if x > 0) for (grid,) in got]
    assert all(h <= 25 for h in held)
    assert any(h == 25 for h in held) and any(len(g) * len(g[0]) > 25 for (g,) in got)
    reports(spec, [[[1] * 13, [2] * 13]], "26 items", "not at most 25")


def test_at_least_k_cells_hold_an_amount() -> None:
    items = [*GRID, "There is at least one cell containing gold."]
    spec = spec_of(question([("grid", "integer[][]")], items, MINE))
    assert all(any(x > 0 for row in grid for x in row) for (grid,) in draws(spec))
    reports(spec, [[[0, 0], [0, 0]]], "0 items", "not at least 1")


def test_an_amount_the_description_does_not_name_is_left_alone() -> None:
    prose = "Each cell of grid holds an integer."
    items = [*GRID, "There are at most 25 cells containing gold."]
    assert "not understood" in refused(question([("grid", "integer[][]")], items, prose))


def test_an_amount_that_cannot_be_none_is_refused() -> None:
    items = [*GRID[:3], "1 <= grid[i][j] <= 100", "There are at most 25 cells containing gold."]
    why = refused(question([("grid", "integer[][]")], items, MINE))
    assert "does not start at 0" in why


# -- one number of digits for every item -----------------------------------------------------------


def test_every_item_has_the_same_number_of_digits() -> None:
    items = [
        "2 <= nums.length <= 10^5",
        "1 <= nums[i] < 10^9",
        "All integers in nums have the same number of digits.",
    ]
    spec = spec_of(question([("nums", "integer[]")], items))
    assert spec["params"][0]["same_digits"] is True
    got = draws(spec)
    widths = [{len(str(x)) for x in nums} for (nums,) in got]
    assert all(len(w) == 1 for w in widths)
    assert len({min(w) for w in widths}) >= 4  # many counts of digits, not only the commonest
    reports(spec, [[13, 234]], "[2, 3] digits")


def test_the_same_number_of_digits_with_another_rule_is_refused() -> None:
    items = [
        "2 <= nums.length <= 9",
        "1 <= nums[i] < 10^9",
        "All the integers of nums are unique.",
        "All integers in nums have the same number of digits.",
    ]
    assert "same number of digits" in refused(question([("nums", "integer[]")], items))


# -- refused ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "items", "why"),
    [
        # a least value the count may not reach (every value of nums may be one)
        (
            NUMS,
            [
                "1 <= nums.length <= 9",
                "0 <= nums[i] <= 9",
                "2 <= k <= the number of distinct values in nums",
            ],
            "may not reach",
        ),
        # the scalar bounds values drawn before it is set
        (
            NUMS,
            [
                "1 <= nums.length <= 9",
                "0 <= nums[i] <= k",
                "1 <= k <= the number of distinct values in nums",
            ],
            "other bounds depend on",
        ),
        # a relation item by item changes the list after its count
        (
            [("nums", "integer[]"), ("other", "integer[]"), ("k", "integer")],
            [
                "1 <= nums.length <= 9",
                "other.length == nums.length",
                "0 <= nums[i], other[i] <= 9",
                "nums[i] < other[i]",
                "1 <= k <= the number of distinct values in nums",
            ],
            "item by item",
        ),
        # a text that may be all spaces has no word
        (
            [("s", "string"), ("k", "integer")],
            [
                "1 <= s.length <= 9",
                "s consists of lowercase English letters and spaces.",
                "1 <= k <= the number of words in s",
            ],
            "leading or",
        ),
        # a negative integer's sign is a character of it as a string
        (
            [("num", "integer"), ("k", "integer")],
            ["-10^9 <= num <= 10^9", "1 <= k <= num.length (taking num as a string)"],
            "from 0 up",
        ),
        # the height of a tree: in nodes or in edges?
        (
            [("root", "TreeNode"), ("h", "integer")],
            [
                "The number of nodes in the tree is in the range [1, 100].",
                "0 <= Node.val <= 9",
                "1 <= h <= the height of the tree",
            ],
            "height",
        ),
        # a count the description names
        (
            NUMS,
            [
                "1 <= nums.length <= 9",
                "0 <= nums[i] <= 9",
                "k is in the range [The maximum UAM for a user, 10^5].",
            ],
            "cannot read",
        ),
    ],
)
def test_what_cannot_be_met_is_refused(
    params: list[tuple[str, str]], items: list[str], why: str
) -> None:
    assert why in refused(question(params, items))
