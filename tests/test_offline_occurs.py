"""How many times the values of a list occur, in the offline synthesizer (issue 26:
quicksilver/synth/offline/occurs.py, runtime_occurs.py, checker_occurs.py).

Statements we wrote in LeetCode's shapes: every value twice (or three times) but one or two
values once, once or twice, once but one value two or more times, two repeated values, a
frequency range, at most k distinct values, a unique largest value; in the Constraints, in a
guarantee, and restated in the description. Each is read, drawn on many seeds (random, perf and
edge-case inputs) and checked twice, by the independent checker and by plain code here; the
checker reports an input that breaks each rule; a rule that cannot be met is refused.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from quicksilver.synth.offline import occurs, sample_spec
from quicksilver.synth.offline.checker import check_input
from quicksilver.synth.offline.runtime import perf_variants
from tests import synthkit
from tests.synthkit import question, refused, spec_of

SEEDS = 80


def draws(spec: dict[str, Any], n: int = SEEDS) -> list[list[Any]]:
    """Random inputs (caps 30 and 1000), perf inputs, and the edge cases; each checked clean."""
    return synthkit.draws(spec, n, small_cap=30, perf_cap=300, edge_seed=None)


@pytest.fixture
def repeated_but(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every value t > 1 times but some values another count, read (held back by default:
    occurs.READ_REPEATED_BUT)."""
    monkeypatch.setattr(occurs, "READ_REPEATED_BUT", True)


def times(values: list[int]) -> Counter[int]:
    """How many values occur k times, for each k."""
    return Counter(Counter(values).values())


@pytest.mark.parametrize(
    ("line", "each", "odd"),
    [
        ("Each element in the array appears twice except for one element which appears only once", 2, {1: 1}),
        ("Each element in nums appears exactly three times except for one element which appears once", 3, {1: 1}),
        ("Every integer in nums occurs twice, only two integers occur once", 2, {1: 2}),
        ("Each value of nums will appear twice, except for exactly one value that appears three times", 2, {3: 1}),
    ],
)  # fmt: skip
@pytest.mark.usefixtures("repeated_but")
def test_every_value_t_times_but_some(line: str, each: int, odd: dict[int, int]) -> None:
    inp = question(
        [("nums", "integer[]")],
        ["1 <= nums.length <= 3 * 10^4", "-2^31 <= nums[i] <= 2^31 - 1", line],
    )
    spec = spec_of(inp)
    length = spec["quantities"][0]
    least = sum(k * c for k, c in odd.items())
    assert length["mod"] == [each, least % each]
    for (nums,) in draws(spec):
        assert len(nums) % each == least % each and len(nums) >= least
        got = times(nums)
        assert {k: c for k, c in got.items() if k != each} == odd
    broken = [[5] * (2 * each) + [6] * least]  # 5 occurs twice as often as it may
    assert any("values occur" in x for x in check_input(spec, broken))


@pytest.mark.parametrize(
    "line",
    [
        "Each element in nums appears once or twice",
        "Each number in nums appears either once or twice",
        "The frequency of each element is in the range [1, 2]",
    ],
)
def test_once_or_twice_in_a_range_the_length_fills(line: str) -> None:
    # values in [1, n] for n == nums.length: half of the length at least are distinct values
    inp = question(
        [("nums", "integer[]")],
        ["n == nums.length", "1 <= n <= 10^5", "1 <= nums[i] <= n", line],
    )
    spec = spec_of(inp)
    assert spec["params"][0]["occur"] == {"each": [1, 2], "but": []}
    seen: Counter[int] = Counter()
    for (nums,) in draws(spec):
        assert set(times(nums)) <= {1, 2} and all(1 <= x <= len(nums) for x in nums)
        seen.update(times(nums))
    assert seen[1] and seen[2]
    assert check_input(spec, [[1, 1, 1]])  # three times


def test_once_but_one_value_two_or_more_times() -> None:
    inp = question(
        [("nums", "integer[]")],
        [
            "1 <= n <= 10^5",
            "nums.length == n + 1",
            "1 <= nums[i] <= n",
            "All the integers in nums appear only once except for precisely one integer which "
            "appears two or more times.",
        ],
    )
    spec = spec_of(inp)
    assert spec["params"][0]["occur"] == {"each": [1, 1], "but": [[1, 2, None]]}
    for (nums,) in draws(spec):
        assert len([k for k in Counter(nums).values() if k >= 2]) == 1
    assert check_input(spec, [[1, 2, 3, 1, 2]])  # two values repeated
    assert check_input(spec, [[1, 2]])  # none


def test_two_repeated_values_as_a_guarantee() -> None:
    inp = question(
        [("nums", "integer[]")],
        [
            "2 <= n <= 100",
            "nums.length == n + 2",
            "0 <= nums[i] < n",
            "The input is generated such that nums contains exactly two repeated elements.",
        ],
    )
    spec = spec_of(inp)
    for (nums,) in draws(spec):
        n = len(nums) - 2
        assert times(nums) == Counter({1: n - 2, 2: 2})
        assert set(nums) == set(range(n))  # the room: every value of the range is used
    assert check_input(spec, [[0, 0, 0, 1]])


def test_at_most_k_distinct_values_and_a_frequency_range() -> None:
    inp = question(
        [("nums", "integer[]"), ("quantity", "integer[]")],
        [
            "n == nums.length",
            "1 <= n <= 10^5",
            "1 <= nums[i] <= 1000",
            "m == quantity.length",
            "1 <= m <= 10",
            "1 <= quantity[i] <= 10^5",
            "There are at most 5 unique values in nums.",
        ],
    )
    spec = spec_of(inp)
    assert spec["params"][0]["occur"] == {"each": [1, None], "but": [], "kinds": 5}
    for nums, _ in draws(spec):
        assert 1 <= len(set(nums)) <= 5
    assert any("more than 5" in x for x in check_input(spec, [list(range(1, 7)), [1]]))
    inp = question(
        [("nums", "integer[]"), ("k", "integer")],
        [
            "1 <= k <= nums.length <= 16",
            "1 <= nums[i] <= 10^4",
            "The frequency of each element is in the range [1, 4].",
        ],
    )
    spec = spec_of(inp)
    for nums, _ in draws(spec):
        assert max(Counter(nums).values()) <= 4
    assert check_input(spec, [[7] * 5, 1])


@pytest.mark.parametrize(("line", "end"), [("The largest element in nums is unique", "max"), ("The smallest integer in nums is unique", "min")])  # fmt: skip
def test_a_unique_largest_or_smallest_value(line: str, end: str) -> None:
    inp = question([("nums", "integer[]")], ["2 <= nums.length <= 50", "0 <= nums[i] <= 3", line])
    spec = spec_of(inp)
    assert spec["params"][0]["end_once"] == end
    pick = max if end == "max" else min
    for (nums,) in draws(spec):
        assert nums.count(pick(nums)) == 1
    assert check_input(spec, [[3, 3, 0] if end == "max" else [0, 0, 3]])


@pytest.mark.usefixtures("repeated_but")
def test_the_description_restates_or_states_the_rule() -> None:
    items = ["1 <= nums.length <= 3 * 10^4", "-3 * 10^4 <= nums[i] <= 3 * 10^4"]
    line = "Each element in the array appears twice except for one element which appears only once."
    restated = (
        "Given a non-empty array of integers nums, every element appears twice except for one."
    )
    spec = spec_of(question([("nums", "integer[]")], [*items, line], restated))
    assert spec["params"][0]["occur"] == {"each": [2, 2], "but": [[1, 1, 1]]}
    # said only in the description, whole: read
    said = "Given an integer array nums where every element appears three times except for one, which appears exactly once."
    spec = spec_of(question([("nums", "integer[]")], items, said))
    assert spec["params"][0]["occur"] == {"each": [3, 3], "but": [[1, 1, 1]]}
    # a description that says another rule, or leaves the count out, or calls the list sorted
    other = "Given an integer array nums where every element appears three times except for one."
    for prose, lines in ((other, [*items, line]), (other, items)):
        assert "in the description" in refused(question([("nums", "integer[]")], lines, prose))
    sorted_ = "You are given a sorted array nums where every element appears exactly twice, except for one element which appears exactly once."
    assert "in the description" in refused(question([("nums", "integer[]")], items, sorted_))  # fmt: skip


@pytest.mark.parametrize(
    ("items", "why"),
    [
        (["1 <= nums.length <= 10", "0 <= nums[i] <= 3", "Each element in nums appears exactly twice except for one element which appears once or twice"], "that the others' count"),
        (["1 <= nums.length <= 10", "0 <= nums[i] <= 3", "Each element in nums appears exactly twice except for one element which appears two or more times"], "that the others' count"),
        (["1 <= nums.length <= 10", "0 <= nums[i] <= 3", "Each element in nums appears exactly twice except for one element which appears three or more times"], "remainder is not fixed"),
        (["1 <= nums.length <= 10", "0 <= nums[i] <= 3", "Each element in nums appears twice or three times"], "does not start at once"),
        (["1 <= nums.length <= 10", "0 <= nums[i] <= 9", "All the values of nums are unique", "Each element in nums appears once or twice"], "how many times values occur"),
        (["1 <= nums.length <= 10", "0 <= nums[i] <= 9", "nums[i] != 0", "Each element in nums appears once or twice"], "how many times values occur"),
        (["1 <= nums.length <= 10", "2 <= nums.length", "0 <= nums[i] <= 0", "The largest element in nums is unique"], "unique end value"),
        (["nums.length == 10", "0 <= nums[i] <= 99", "Each element in nums appears twice except for one element which appears only once"], "no length"),
        (["nums.length == 9", "0 <= nums[i] <= 3", "Each element in nums appears twice except for one element which appears only once"], "cannot all hold"),
        (["1 <= nums.length <= 10", "0 <= nums[i] <= 3", "Each element in nums appears once or twice", "The frequency of each element is in the range [1, 3]"], "a second rule"),
    ],
)  # fmt: skip
@pytest.mark.usefixtures("repeated_but")
def test_rules_that_cannot_be_met_are_refused(items: list[str], why: str) -> None:
    assert why in refused(question([("nums", "integer[]")], items))


def test_perf_variants_keep_the_multiset() -> None:
    # "equal", "few", "extremes", "zeros" would put other counts in place: not offered
    inp = question(
        [("nums", "integer[]")],
        [
            "1 <= nums.length <= 50",
            "-5 <= nums[i] <= 5",
            "Each element in nums appears once or twice",
        ],
    )
    spec = spec_of(inp)
    offered = {v["values"]["nums"] for v in perf_variants(spec) if "values" in v}
    assert offered == {"sorted", "reversed", "alternating"}
    for pattern in perf_variants(spec):
        args = sample_spec(spec, 3, 50, mode="max", pattern=pattern)
        assert check_input(spec, args) == []


@pytest.mark.parametrize(
    ("line", "rule"),
    [
        ("There is exactly one repeated number in nums", {"each": [1, 1], "but": [[1, 2, 2]]}),
        ("nums has at most 5 distinct values", {"each": [1, None], "but": [], "kinds": 5}),
        (
            "Exactly two elements appear only once and all the other elements appear exactly twice",
            {"each": [2, 2], "but": [[2, 1, 1]]},
        ),
    ],
)
@pytest.mark.usefixtures("repeated_but")
def test_more_wordings(line: str, rule: dict[str, Any]) -> None:
    inp = question(
        [("nums", "integer[]")], ["2 <= nums.length <= 100", "0 <= nums[i] <= 1000", line]
    )
    spec = spec_of(inp)
    assert spec["params"][0]["occur"] == rule
    draws(spec, 20)


def test_every_value_t_times_but_some_is_held_back_by_default() -> None:
    """Read only with occurs.READ_REPEATED_BUT (the bundled build pins such a question as one
    the offline path reports): the line and the description stay reported as before."""
    items = ["1 <= nums.length <= 100", "0 <= nums[i] <= 1000"]
    line = (
        "Every value of nums occurs exactly twice, except for one value that occurs exactly once."
    )
    prose = "Given nums, in which every value occurs exactly twice, except for one value that occurs exactly once."
    got = refused(question([("nums", "integer[]")], [*items, line], prose))
    assert f'"{line}": not understood' in got and "in the description (not read)" in got
    # from once up, exceptions are read (no remainder to hold back)
    once = "All the integers in nums appear only once except for precisely one integer which appears two or more times"
    assert spec_of(question([("nums", "integer[]")], [*items, once]))["params"][0]["occur"]
    said = "Given nums, in which each integer appears only once except one which appears two or more times."
    read = spec_of(question([("nums", "integer[]")], items, said))
    assert read["params"][0]["occur"] == {"each": [1, 1], "but": [[1, 2, None]]}
