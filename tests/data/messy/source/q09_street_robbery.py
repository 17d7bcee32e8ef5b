"""House robber: two exponential samples that cannot finish 100 houses, a one-token near-duplicate
pair that passes every example (`return rob_prev` vs `return rob_last`), greedy and alternating
samples, a loop that stops advancing on a house holding 0."""

from __future__ import annotations

import random

from messy_spec import (
    CORRECT,
    EXPONENTIAL,
    HANGING,
    NEAR_DUP,
    NO_COMPILE,
    RAISES,
    RAMBLING,
    WRONG,
    Example,
    Input,
    Sol,
    Spec,
    code,
)


def small(rng: random.Random) -> Input:
    """Up to 14 houses (the subset enumeration finishes); zeros now and then."""
    n = rng.randint(1, 14)
    return [[0 if rng.random() < 0.1 else rng.randint(0, 400) for _ in range(n)]]


ROLLING = """
class Solution:
    def rob(self, nums: List[int]) -> int:
        # Two running totals while walking down the street:
        #   rob_prev: the best total using the houses before the previous house
        #   rob_last: the best total using the houses up to the previous house
        # At each house we either skip it (keep rob_last) or rob it (rob_prev + amount).
        if not nums:
            return 0
        for amount in nums:
            if amount < 0:
                raise ValueError("a house cannot hold a negative amount")
        rob_prev, rob_last = 0, 0
        robbed_count = 0
        for index, amount in enumerate(nums):
            candidate = rob_prev + amount
            if candidate > rob_last:
                new_best = candidate
                robbed_count += 1
            else:
                new_best = rob_last
            rob_prev = rob_last
            rob_last = new_best
            if index == len(nums) - 1:
                summary = {"houses": len(nums), "robbed": robbed_count, "best": rob_last}
        return RESULT
"""

TABLE = """
class Solution:
    def rob(self, nums: List[int]) -> int:
        n = len(nums)
        if n == 1:
            return nums[0]
        dp = [0] * n
        dp[0] = nums[0]
        dp[1] = max(nums[0], nums[1])
        for i in range(2, n):
            dp[i] = max(dp[i - 1], dp[i - 2] + nums[i])
        return dp[-1]
"""

SPEC = Spec(
    slug="street-robbery",
    qid=9509,
    title="Street Robbery",
    difficulty="Medium",
    tags=[("Array", "array"), ("Dynamic Programming", "dynamic-programming")],
    method="rob",
    params=[("nums", "integer[]")],
    returns="integer",
    description="""
<p>Houses stand in a row along a street, and <code>nums[i]</code> is the amount of money in house <code>i</code>. An alarm links every pair of <strong>neighbouring</strong> houses: if both are broken into on the same night, the police come.</p>

<p>Return <em>the largest amount you can take in one night without breaking into two neighbouring houses</em>.</p>
""",
    examples=[
        Example([[6, 1, 2, 9, 4]], 15, "Take houses 0 and 3: <code>6 + 9 = 15</code>."),
        Example([[4, 1, 1, 9, 1]], 13),
        Example([[5, 0]], 5),
    ],
    constraints=[
        "<code>1 &lt;= nums.length &lt;= 100</code>",
        "<code>0 &lt;= nums[i] &lt;= 400</code>",
    ],
    reference=code("""
        class Solution:
            def rob(self, nums: List[int]) -> int:
                take, skip = 0, 0
                for x in nums:
                    take, skip = skip + x, max(take, skip)
                return max(take, skip)
    """),
    small=small,
    big={
        "n100": (
            "100 houses (the constraint maximum)",
            lambda rng: [[rng.randint(1, 400) for _ in range(100)]],
        )
    },
    solutions=[
        Sol(CORRECT, "c", "table of best totals per prefix, O(n)", code(TABLE), key="table"),
        Sol(
            CORRECT,
            "d",
            "two rolling totals in a tuple assignment, O(n)",
            code("""
            class Solution:
                def rob(self, nums: List[int]) -> int:
                    prev, cur = 0, 0
                    for x in nums:
                        prev, cur = cur, max(cur, prev + x)
                    return cur
        """),
        ),
        Sol(
            EXPONENTIAL,
            "e",
            "plain recursion: rob this house or skip it",
            code("""
            class Solution:
                def rob(self, nums: List[int]) -> int:
                    def best(i):
                        if i >= len(nums):
                            return 0
                        return max(best(i + 1), nums[i] + best(i + 2))

                    return best(0)
        """),
            complexity="O(1.62^n)",
            slow_input="n100",
            why="about 10^21 calls for 100 houses",
        ),
        Sol(
            EXPONENTIAL,
            "f",
            "every subset of houses as a bitmask, keeping those without neighbours",
            code("""
            class Solution:
                def rob(self, nums: List[int]) -> int:
                    n = len(nums)
                    best = 0
                    for mask in range(1 << n):
                        if mask & (mask >> 1):
                            continue
                        total = 0
                        for i in range(n):
                            if mask >> i & 1:
                                total += nums[i]
                        best = max(best, total)
                    return best
        """),
            complexity="O(2^n * n)",
            slow_input="n100",
            why="2^100 masks",
        ),
        Sol(
            WRONG,
            "g",
            "the better of the even-indexed and the odd-indexed houses",
            code("""
            class Solution:
                def rob(self, nums: List[int]) -> int:
                    return max(sum(nums[0::2]), sum(nums[1::2]))
        """),
            witness=[[6, 1, 2, 9, 4]],
            expected=15,
            got=12,
            fails_examples=True,
            why="the best choice need not alternate (it may skip two houses in a row)",
        ),
        Sol(
            RAISES,
            "a",
            "table that sets up the first two entries before the loop",
            code("""
            class Solution:
                def rob(self, nums: List[int]) -> int:
                    dp = [0] * len(nums)
                    dp[0] = nums[0]
                    dp[1] = max(nums[0], nums[1])
                    for i in range(2, len(nums)):
                        dp[i] = max(dp[i - 1], dp[i - 2] + nums[i])
                    return dp[-1]
        """),
            witness=[[7]],
            error="IndexError",
            why="nums[1] on a street of one house",
        ),
        Sol(
            WRONG,
            "b",
            "two running totals, verbose; returns the total that excludes the last house",
            code(ROLLING.replace("RESULT", "rob_prev")),
            key="rolling",
            witness=[[1, 5]],
            expected=5,
            got=1,
            fails_examples=False,
            why="returns rob_prev (best without the last house); in every example the best "
            "total leaves the last house alone",
        ),
        Sol(
            NEAR_DUP,
            "c",
            "two running totals, verbose",
            code(ROLLING.replace("RESULT", "rob_last")),
            dup_of="rolling",
            differs=True,
            diff="`return rob_prev` -> `return rob_last`",
            jaccard=0.9848,
        ),
        Sol(
            RAMBLING,
            "d",
            "rolling totals with a derivation in comments, prints and an unused import",
            code('''
            import bisect
            import operator
            from typing import List


            class Solution:
                def rob(self, nums: List[int]) -> int:
                    """
                    Let f(i) be the maximum money from houses 0..i.
                    For house i we have two choices:
                      - skip it:  f(i - 1)
                      - rob it:   f(i - 2) + nums[i]
                    so f(i) = max(f(i - 1), f(i - 2) + nums[i]).
                    Base cases: f(-1) = f(-2) = 0.

                    We only need the last two values, so O(1) extra space.
                    """
                    two_back = 0  # f(i - 2)
                    one_back = 0  # f(i - 1)
                    for i, money in enumerate(nums):
                        current = max(one_back, two_back + money)
                        print(f"house {i}: money={money} best={current}")
                        two_back, one_back = one_back, current
                    # one_back now holds f(n - 1)
                    print("final answer:", one_back)
                    return one_back
        '''),
        ),
        Sol(
            WRONG,
            "e",
            "table whose second entry is the second house alone",
            code("""
            class Solution:
                def rob(self, nums: List[int]) -> int:
                    if len(nums) == 1:
                        return nums[0]
                    dp = [0] * len(nums)
                    dp[0] = nums[0]
                    dp[1] = nums[1]
                    for i in range(2, len(nums)):
                        dp[i] = max(dp[i - 1], dp[i - 2] + nums[i])
                    return dp[-1]
        """),
            witness=[[5, 0]],
            expected=5,
            got=0,
            fails_examples=True,
            why="dp[1] = nums[1] forgets that the first house alone may be better",
        ),
        Sol(
            HANGING,
            "f",
            "index loop that skips empty houses",
            code("""
            class Solution:
                def rob(self, nums: List[int]) -> int:
                    take, skip = 0, 0
                    i = 0
                    while i < len(nums):
                        if nums[i] == 0:
                            # an empty house changes nothing
                            continue
                        take, skip = skip + nums[i], max(take, skip)
                        i += 1
                    return max(take, skip)
        """),
            witness=[[1, 0, 1]],
            why="`continue` on a house holding 0 skips the increment: the loop never ends",
        ),
        Sol(
            WRONG,
            "g",
            "greedy: the richest house still allowed, then block its neighbours",
            code("""
            class Solution:
                def rob(self, nums: List[int]) -> int:
                    allowed = [True] * len(nums)
                    total = 0
                    for i in sorted(range(len(nums)), key=lambda k: -nums[k]):
                        if allowed[i]:
                            total += nums[i]
                            for j in (i - 1, i + 1):
                                if 0 <= j < len(nums):
                                    allowed[j] = False
                    return total
        """),
            witness=[[3, 4, 3]],
            expected=6,
            got=4,
            fails_examples=False,
            why="the richest house can block two that together hold more",
        ),
        Sol(
            NEAR_DUP,
            "a",
            "table of best totals per prefix (variables renamed)",
            code(TABLE.replace("dp", "best")),
            dup_of="table",
            diff="variables renamed",
            jaccard=1.0,
        ),
        Sol(
            NO_COMPILE,
            "b",
            "rolling totals with the method header cut off",
            code("""
                    prev = cur = 0
                    for x in nums:
                        prev, cur = cur, max(cur, prev + x)
                    return cur
        """).replace("prev = cur = 0", "    prev = cur = 0", 1),
            error="IndentationError",
            why="the completion lost its class and def lines and starts indented",
        ),
        Sol(
            CORRECT,
            "c",
            "memoised recursion with lru_cache, O(n)",
            code("""
            class Solution:
                def rob(self, nums: List[int]) -> int:
                    @lru_cache(maxsize=None)
                    def go(i: int) -> int:
                        if i >= len(nums):
                            return 0
                        return max(go(i + 1), nums[i] + go(i + 2))

                    return go(0)
        """),
        ),
    ],
)
