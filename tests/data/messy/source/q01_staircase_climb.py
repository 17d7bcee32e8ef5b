"""Climbing stairs: an integer in, an integer out; exponential recursions that cannot reach n = 45."""

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

# The verbose rolling-variable sample; the two copies differ in the variable they return.
ROLLING = """
class Solution:
    def climbStairs(self, n: int) -> int:
        # Dynamic programming with three rolling variables.
        #   three_steps: number of ways to reach step i - 2
        #   two_steps:   number of ways to reach step i - 1
        #   one_step:    number of ways to reach step i
        # Every step is reached from the step just below it or from two steps below.
        if not isinstance(n, int):
            raise TypeError("n must be an integer")
        if n < 0:
            return 0
        # the first few answers are known, so answer them directly
        known = {0: 1, 1: 1, 2: 2, 3: 3}
        if n in known:
            return known[n]
        three_steps, two_steps, one_step = known[1], known[2], known[3]
        step = 3
        while step < n:
            step += 1
            ways_here = one_step + two_steps
            three_steps = two_steps
            two_steps = one_step
            one_step = ways_here
            if ways_here < 0:
                raise OverflowError("the count cannot be negative")
        # one_step now holds the number of ways to reach step n
        return RESULT
"""


def small(rng: random.Random) -> Input:
    return [rng.randint(1, 25)]


SPEC = Spec(
    slug="staircase-climb",
    qid=9501,
    title="Staircase Climb",
    difficulty="Easy",
    tags=[("Math", "math"), ("Dynamic Programming", "dynamic-programming")],
    method="climbStairs",
    params=[("n", "integer")],
    returns="integer",
    description="""
<p>A staircase has <code>n</code> steps and you stand at the bottom. Each move takes you up either <code>1</code> step or <code>2</code> steps.</p>

<p>Return <em>the number of different sequences of moves that end exactly on the top step</em>.</p>
""",
    examples=[
        Example([2], 2, "Two sequences: <code>1 + 1</code> and <code>2</code>."),
        Example([3], 3, "<code>1 + 1 + 1</code>, <code>1 + 2</code> and <code>2 + 1</code>."),
    ],
    constraints=["<code>1 &lt;= n &lt;= 45</code>"],
    hints=[
        "To stand on step <code>n</code> you came from step <code>n - 1</code> or <code>n - 2</code>."
    ],
    reference=code("""
        class Solution:
            def climbStairs(self, n: int) -> int:
                a, b = 1, 1
                for _ in range(n):
                    a, b = b, a + b
                return a
    """),
    small=small,
    big={"n45": ("n = 45 (the constraint maximum)", lambda rng: [45])},
    solutions=[
        Sol(
            WRONG,
            "a",
            "rolling variables, verbose; returns the count two steps below",
            code(ROLLING.replace("RESULT", "three_steps")),
            key="rolling",
            witness=[4],
            expected=5,
            got=2,
            fails_examples=False,
            why="returns three_steps (ways to reach n - 2) instead of one_step; the table of "
            "small answers hides it for n <= 3, so both examples pass",
        ),
        Sol(
            NEAR_DUP,
            "b",
            "rolling variables, verbose",
            code(ROLLING.replace("RESULT", "one_step")),
            dup_of="rolling",
            differs=True,
            diff="`return three_steps` -> `return one_step`",
            jaccard=0.9852,
        ),
        Sol(
            CORRECT,
            "c",
            "bottom-up table, O(n)",
            code("""
            class Solution:
                def climbStairs(self, n: int) -> int:
                    dp = [0] * (n + 1)
                    dp[0] = 1
                    for i in range(1, n + 1):
                        dp[i] = dp[i - 1]
                        if i >= 2:
                            dp[i] += dp[i - 2]
                    return dp[n]
        """),
            key="table",
        ),
        Sol(
            EXPONENTIAL,
            "d",
            "plain recursion, O(phi^n)",
            code("""
            class Solution:
                def climbStairs(self, n: int) -> int:
                    if n <= 2:
                        return n
                    return self.climbStairs(n - 1) + self.climbStairs(n - 2)
        """),
            complexity="O(1.62^n) calls",
            slow_input="n45",
            why="about 1.8 * 10^9 calls for n = 45",
        ),
        Sol(
            CORRECT,
            "e",
            "memoised recursion with lru_cache, O(n)",
            code("""
            class Solution:
                def climbStairs(self, n: int) -> int:
                    @lru_cache(maxsize=None)
                    def ways(k: int) -> int:
                        if k <= 1:
                            return 1
                        return ways(k - 1) + ways(k - 2)

                    return ways(n)
        """),
        ),
        Sol(
            EXPONENTIAL,
            "f",
            "depth-first search counting every path to the top",
            code("""
            class Solution:
                def climbStairs(self, n: int) -> int:
                    self.count = 0

                    def dfs(position):
                        if position == n:
                            self.count += 1
                            return
                        if position > n:
                            return
                        dfs(position + 1)
                        dfs(position + 2)

                    dfs(0)
                    return self.count
        """),
            complexity="O(1.62^n): one leaf per path",
            slow_input="n45",
            why="visits each of the 1,836,311,903 paths for n = 45",
        ),
        Sol(
            RAISES,
            "g",
            "table with dp[1] and dp[2] set up front",
            code("""
            class Solution:
                def climbStairs(self, n: int) -> int:
                    dp = [0] * (n + 1)
                    dp[1] = 1
                    dp[2] = 2
                    for i in range(3, n + 1):
                        dp[i] = dp[i - 1] + dp[i - 2]
                    return dp[n]
        """),
            witness=[1],
            error="IndexError",
            why="dp has two cells for n = 1, so dp[2] is out of range",
        ),
        Sol(
            WRONG,
            "a",
            "Fibonacci loop, one iteration short",
            code("""
            class Solution:
                def climbStairs(self, n: int) -> int:
                    a, b = 0, 1
                    for _ in range(n):
                        a, b = b, a + b
                    return a
        """),
            witness=[2],
            expected=2,
            got=1,
            fails_examples=True,
            why="returns F(n) instead of F(n + 1)",
        ),
        Sol(
            CORRECT,
            "b",
            "sum of binomial coefficients over the number of 2-steps",
            code("""
            class Solution:
                def climbStairs(self, n: int) -> int:
                    total = 0
                    for twos in range(n // 2 + 1):
                        ones = n - 2 * twos
                        total += math.comb(ones + twos, twos)
                    return total
        """),
        ),
        Sol(
            RAMBLING,
            "c",
            "table with debug prints, dead helper and unused imports",
            code('''
            import os
            import sys
            import json
            from typing import List, Dict


            class Solution:
                def climbStairs(self, n: int) -> int:
                    """
                    Approach: dynamic programming.

                    Let ways[i] be the number of distinct ways to reach step i. The last move
                    onto step i is either a 1-step (from i - 1) or a 2-step (from i - 2), so
                    ways[i] = ways[i - 1] + ways[i - 2]. This is the Fibonacci recurrence.

                    Time complexity: O(n). Space complexity: O(n) (could be O(1)).
                    """
                    print("climbStairs called with n =", n)

                    def helper_unused(k):
                        # This helper was used in an earlier recursive attempt; kept for reference.
                        if k <= 1:
                            return 1
                        return helper_unused(k - 1) + helper_unused(k - 2)

                    ways = [1, 1]
                    for i in range(2, n + 1):
                        ways.append(ways[i - 1] + ways[i - 2])
                        print("step", i, "->", ways[i])  # debug
                    # Let's double check with the first values: 1, 1, 2, 3, 5, 8 ... looks right.
                    result = ways[n]
                    print("result:", result)
                    return result
        '''),
        ),
        Sol(
            HANGING,
            "d",
            "pair of counters advanced until the step counter reaches n",
            code("""
            class Solution:
                def climbStairs(self, n: int) -> int:
                    prev, curr = 1, 2
                    step = 2
                    while True:
                        if step == n:
                            return curr
                        prev, curr = curr, prev + curr
                        step += 1
        """),
            witness=[1],
            why="the counter starts at 2, so for n = 1 it never equals n",
        ),
        Sol(
            WRONG,
            "e",
            "table seeded with the answers for steps 1 and 2",
            code("""
            class Solution:
                def climbStairs(self, n: int) -> int:
                    dp = [1, 2]
                    for i in range(2, n):
                        dp.append(dp[i - 1] + dp[i - 2])
                    return dp[-1]
        """),
            witness=[1],
            expected=1,
            got=2,
            fails_examples=False,
            why="for n = 1 the loop does not run and the last seed (2) is returned",
        ),
        Sol(
            EXPONENTIAL,
            "f",
            "enumerates every arrangement of the 2-steps among the moves",
            code("""
            class Solution:
                def climbStairs(self, n: int) -> int:
                    count = 0
                    for twos in range(n // 2 + 1):
                        moves = n - twos
                        for _positions in itertools.combinations(range(moves), twos):
                            count += 1
                    return count
        """),
            complexity="O(1.62^n): one iteration per sequence",
            slow_input="n45",
            why="counts the 1,836,311,903 sequences for n = 45 one by one",
        ),
        Sol(
            NEAR_DUP,
            "g",
            "bottom-up table, O(n) (variables renamed)",
            code("""
            class Solution:
                def climbStairs(self, n: int) -> int:
                    ways = [0] * (n + 1)
                    ways[0] = 1
                    for step in range(1, n + 1):
                        ways[step] = ways[step - 1]
                        if step >= 2:
                            ways[step] += ways[step - 2]
                    return ways[n]
        """),
            dup_of="table",
            diff="variables renamed",
            jaccard=1.0,
        ),
        Sol(
            NO_COMPILE,
            "a",
            "rolling pair, cut off mid-expression",
            code("""
            class Solution:
                def climbStairs(self, n: int) -> int:
                    if n <= 2:
                        return n
                    first, second = 1, 2
                    for _ in range(3, n + 1):
                        first, second = second, (first +
        """),
            error="SyntaxError",
            why="the sample ends mid-expression (cut off)",
        ),
    ],
)
