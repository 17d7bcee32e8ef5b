"""Two sum: indices in any order; two wrong samples share one wrong answer ([i, i])."""

from __future__ import annotations

import random

from messy_spec import (
    CORRECT,
    HANGING,
    NEAR_DUP,
    NO_COMPILE,
    RAISES,
    RAMBLING,
    SLOW,
    WRONG,
    Example,
    Input,
    Sol,
    Spec,
    code,
)


def pairs(nums: list[int], target: int) -> int:
    return sum(
        nums[a] + nums[b] == target for a in range(len(nums)) for b in range(a + 1, len(nums))
    )


def small(rng: random.Random) -> Input:
    while True:
        n = rng.randint(2, 30)
        span = rng.choice([5, 50, 10**9])
        nums = [rng.randint(-span, span) for _ in range(n)]
        i, j = rng.sample(range(n), 2)
        target = nums[i] + nums[j]
        if abs(target) <= 10**9 and pairs(nums, target) == 1:
            return [nums, target]


def big(rng: random.Random) -> Input:
    """10^4 distinct values whose only pair summing to the target is the last two."""
    while True:
        nums = rng.sample(range(-(10**9), 10**9), 10**4)
        target = nums[-2] + nums[-1]
        present = set(nums)
        hits = sum(target - x in present and target - x != x for x in nums)
        if abs(target) <= 10**9 and hits == 2:
            return [nums, target]


HASH = """
class Solution:
    def twoSum(self, nums: List[int], target: int) -> List[int]:
        seen = {}
        for i, value in enumerate(nums):
            need = target - value
            if need in seen:
                return [seen[need], i]
            seen[value] = i
        return []
"""

SPEC = Spec(
    slug="two-sum-pair",
    qid=9502,
    title="Two Sum Pair",
    difficulty="Easy",
    tags=[("Array", "array"), ("Hash Table", "hash-table")],
    method="twoSum",
    params=[("nums", "integer[]"), ("target", "integer")],
    returns="integer[]",
    description="""
<p>You are given an array of integers <code>nums</code> and an integer <code>target</code>. Exactly two positions of <code>nums</code> hold values that add up to <code>target</code>.</p>

<p>Return <em>those two positions</em> (indices). The same position may not be used twice. You may return the answer in any order.</p>
""",
    examples=[
        Example([[3, 8, 1, 6], 7], [2, 3], "<code>nums[2] + nums[3] = 1 + 6 = 7</code>."),
        Example([[5, 5], 10], [0, 1]),
        Example([[-2, 9, 4, 13], 11], [0, 3]),
    ],
    constraints=[
        "<code>2 &lt;= nums.length &lt;= 10<sup>4</sup></code>",
        "<code>-10<sup>9</sup> &lt;= nums[i] &lt;= 10<sup>9</sup></code>",
        "<code>-10<sup>9</sup> &lt;= target &lt;= 10<sup>9</sup></code>",
        "<strong>Only one valid answer exists.</strong>",
    ],
    hints=["For each value, the partner it needs is <code>target - value</code>."],
    follow_up="Can you do it in less than <code>O(n<sup>2</sup>)</code> time?",
    any_order=True,
    reference=code("""
        class Solution:
            def twoSum(self, nums: List[int], target: int) -> List[int]:
                where = {}
                for j, x in enumerate(nums):
                    if target - x in where:
                        return sorted([where[target - x], j])
                    where[x] = j
                raise ValueError("no pair")
    """),
    small=small,
    big={"n10k": ("10^4 distinct values, the pair at the last two positions", big)},
    solutions=[
        Sol(CORRECT, "b", "one-pass hash map, O(n)", code(HASH), key="hash"),
        Sol(
            SLOW,
            "c",
            "every pair with two index loops, O(n^2)",
            code("""
            class Solution:
                def twoSum(self, nums: List[int], target: int) -> List[int]:
                    n = len(nums)
                    for i in range(n):
                        for j in range(i + 1, n):
                            if nums[i] + nums[j] == target:
                                return [i, j]
                    return []
        """),
            complexity="O(n^2)",
            slow_input="n10k",
            why="5 * 10^7 pair checks when the pair is last",
        ),
        Sol(
            CORRECT,
            "d",
            "indices sorted by value, then two pointers, O(n log n)",
            code("""
            class Solution:
                def twoSum(self, nums: List[int], target: int) -> List[int]:
                    order = sorted(range(len(nums)), key=lambda k: nums[k])
                    lo, hi = 0, len(order) - 1
                    while lo < hi:
                        total = nums[order[lo]] + nums[order[hi]]
                        if total == target:
                            return [order[lo], order[hi]]
                        if total < target:
                            lo += 1
                        else:
                            hi -= 1
                    return []
        """),
        ),
        Sol(
            WRONG,
            "e",
            "hash map that returns the two values instead of their indices",
            code("""
            class Solution:
                def twoSum(self, nums: List[int], target: int) -> List[int]:
                    seen = set()
                    for num in nums:
                        if target - num in seen:
                            return [target - num, num]
                        seen.add(num)
                    return []
        """),
            witness=[[3, 8, 1, 6], 7],
            expected=[2, 3],
            got=[1, 6],
            fails_examples=True,
            why="returns values, not indices",
        ),
        Sol(
            WRONG,
            "f",
            "index of every value first, then look up partners",
            code("""
            class Solution:
                def twoSum(self, nums: List[int], target: int) -> List[int]:
                    index = {num: i for i, num in enumerate(nums)}
                    for i, num in enumerate(nums):
                        if target - num in index:
                            return [i, index[target - num]]
                    return []
        """),
            key="self_pair_a",
            witness=[[3, 2, 4], 6],
            expected=[1, 2],
            got=[0, 0],
            fails_examples=False,
            why="never checks that the partner is another position: a value equal to half the "
            "target pairs with itself",
        ),
        Sol(
            RAISES,
            "g",
            "sorted copy with two pointers, positions found again with list.index",
            code("""
            class Solution:
                def twoSum(self, nums: List[int], target: int) -> List[int]:
                    values = sorted(nums)
                    lo, hi = 0, len(values) - 1
                    while lo < hi:
                        s = values[lo] + values[hi]
                        if s == target:
                            first = nums.index(values[lo])
                            second = nums.index(values[hi], first + 1)
                            return [first, second]
                        elif s < target:
                            lo += 1
                        else:
                            hi -= 1
                    return []
        """),
            witness=[[6, 1], 7],
            error="ValueError",
            why="looks for the larger value only after the smaller one's position",
        ),
        Sol(
            HANGING,
            "a",
            "binary search for the partner in a sorted copy",
            code("""
            class Solution:
                def twoSum(self, nums: List[int], target: int) -> List[int]:
                    order = sorted(range(len(nums)), key=lambda k: nums[k])
                    vals = [nums[k] for k in order]
                    for a in range(len(vals)):
                        need = target - vals[a]
                        lo, hi = a + 1, len(vals) - 1
                        while lo < hi:
                            mid = (lo + hi) // 2
                            if vals[mid] < need:
                                lo = mid
                            else:
                                hi = mid
                        if lo < len(vals) and vals[lo] == need and lo != a:
                            return [order[a], order[lo]]
                    return []
        """),
            witness=[[3, 8, 1, 6], 7],
            why="`lo = mid` never moves once hi = lo + 1 and vals[lo] < need",
        ),
        Sol(
            RAMBLING,
            "b",
            "hash map with a long explanation, debug prints and unused imports",
            code("""
            import re
            import os
            from typing import List, Optional


            class Solution:
                def twoSum(self, nums: List[int], target: int) -> List[int]:
                    # We want two different indices i != j with nums[i] + nums[j] == target.
                    # A brute force approach would check every pair, which is O(n^2).
                    # Instead we keep a dictionary from value -> index of the values we have
                    # already passed. For the current value x, the partner must be target - x;
                    # if we have seen it, we are done. Since exactly one answer exists, we can
                    # return immediately.
                    #
                    # Edge cases:
                    #   - duplicates like [5, 5] with target 10: the first 5 is stored before the
                    #     second one is checked, so this works.
                    #   - negative numbers: nothing special.
                    lookup = {}
                    for idx in range(len(nums)):
                        x = nums[idx]
                        partner = target - x
                        print(f"idx={idx} x={x} partner={partner}")
                        if partner in lookup:
                            answer = [lookup[partner], idx]
                            print("found", answer)
                            return answer
                        lookup[x] = idx
                    # should never get here because the problem guarantees an answer
                    print("no answer found?!")
                    return []

                def _brute_force(self, nums, target):
                    for i in range(len(nums)):
                        for j in range(i + 1, len(nums)):
                            if nums[i] + nums[j] == target:
                                return [i, j]
        """),
        ),
        Sol(
            NEAR_DUP,
            "c",
            "one-pass hash map, O(n) (variables renamed)",
            code("""
            class Solution:
                def twoSum(self, nums: List[int], target: int) -> List[int]:
                    positions = {}
                    for k, num in enumerate(nums):
                        wanted = target - num
                        if wanted in positions:
                            return [positions[wanted], k]
                        positions[num] = k
                    return []
        """),
            dup_of="hash",
            diff="variables renamed",
            jaccard=1.0,
        ),
        Sol(
            WRONG,
            "d",
            "brute force whose inner loop starts at i",
            code("""
            class Solution:
                def twoSum(self, nums: List[int], target: int) -> List[int]:
                    for i in range(len(nums)):
                        for j in range(i, len(nums)):
                            if nums[i] + nums[j] == target:
                                return [i, j]
                    return []
        """),
            witness=[[3, 2, 4], 6],
            expected=[1, 2],
            got=[0, 0],
            fails_examples=True,
            why="j starts at i, so a value equal to half the target pairs with itself "
            "(the same wrong answer as #4; example 2 catches it: [0, 0] for [5, 5])",
        ),
        Sol(
            SLOW,
            "e",
            "itertools.combinations over (index, value) pairs, O(n^2)",
            code("""
            class Solution:
                def twoSum(self, nums: List[int], target: int) -> List[int]:
                    for (i, a), (j, b) in itertools.combinations(enumerate(nums), 2):
                        if a + b == target:
                            return [i, j]
                    return []
        """),
            complexity="O(n^2)",
            slow_input="n10k",
            why="5 * 10^7 tuples when the pair is last",
        ),
        Sol(
            WRONG,
            "f",
            "hash map answering 1-based positions",
            code("""
            class Solution:
                def twoSum(self, nums: List[int], target: int) -> List[int]:
                    seen = {}
                    for i, n in enumerate(nums, start=1):
                        if target - n in seen:
                            return [seen[target - n], i]
                        seen[n] = i
                    return []
        """),
            witness=[[5, 5], 10],
            expected=[0, 1],
            got=[1, 2],
            fails_examples=True,
            why="enumerate(..., start=1): every index is one too high",
        ),
        Sol(
            CORRECT,
            "g",
            "two passes: build the map, then look up partners at other positions",
            code("""
            class Solution:
                def twoSum(self, nums: List[int], target: int) -> List[int]:
                    last = {}
                    for i, v in enumerate(nums):
                        last[v] = i
                    for i, v in enumerate(nums):
                        j = last.get(target - v)
                        if j is not None and j != i:
                            return [i, j]
                    return []
        """),
        ),
        Sol(
            NO_COMPILE,
            "a",
            "hash map wrapped in a Markdown code fence",
            code("""
            ```python
            class Solution:
                def twoSum(self, nums: List[int], target: int) -> List[int]:
                    seen = {}
                    for i, x in enumerate(nums):
                        if target - x in seen:
                            return [seen[target - x], i]
                        seen[x] = i
            ```
        """),
            error="SyntaxError",
            why="the completion kept the Markdown fence",
        ),
        Sol(
            SLOW,
            "b",
            "hash map that traces every step and sleeps to let the console flush",
            code("""
            import time


            class Solution:
                def _trace(self, message):
                    # print progress, and give the console a moment to flush between lines
                    print(message)
                    time.sleep(0.002)

                def twoSum(self, nums: List[int], target: int) -> List[int]:
                    seen = {}
                    for i, value in enumerate(nums):
                        self._trace(f"checking index {i}, value {value}")
                        if target - value in seen:
                            return [seen[target - value], i]
                        seen[value] = i
                    return []
        """),
            complexity="O(n) CPU, 2 ms of sleep per element",
            slow_input="n10k",
            sleeps=True,
            why="20 s of sleep for 10^4 elements; CPU time stays small",
        ),
    ],
)
