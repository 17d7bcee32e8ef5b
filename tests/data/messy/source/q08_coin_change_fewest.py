"""Coin change: plain recursion and combination enumeration (exponential in the amount), a greedy
sample that passes every example, a memoised recursion deeper than the recursion limit, a table
sized by the largest coin (2^31 - 1 is allowed)."""

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
    SLOW,
    WRONG,
    Example,
    Input,
    Sol,
    Spec,
    code,
)


def small(rng: random.Random) -> Input:
    """Up to 4 coins and amounts up to 18: the plain recursion finishes."""
    k = rng.randint(1, 4)
    coins = rng.sample(range(1, 13), k)
    if rng.random() < 0.1:
        coins[rng.randrange(k)] = rng.randint(10**6, 2**31 - 1)
    return [coins, rng.randint(0, 18)]


TABLE = """
class Solution:
    def coinChange(self, coins: List[int], amount: int) -> int:
        INF = amount + 1
        dp = [0] + [INF] * amount
        for total in range(1, amount + 1):
            for coin in coins:
                if coin <= total and dp[total - coin] + 1 < dp[total]:
                    dp[total] = dp[total - coin] + 1
        return dp[amount] if dp[amount] != INF else -1
"""

SPEC = Spec(
    slug="coin-change-fewest",
    qid=9508,
    title="Fewest Coins for an Amount",
    difficulty="Medium",
    tags=[
        ("Array", "array"),
        ("Dynamic Programming", "dynamic-programming"),
        ("Breadth-First Search", "breadth-first-search"),
    ],
    method="coinChange",
    params=[("coins", "integer[]"), ("amount", "integer")],
    returns="integer",
    description="""
<p>The array <code>coins</code> lists the values of the coin types you have, with an unlimited supply of each type, and <code>amount</code> is a sum of money.</p>

<p>Return <em>the smallest number of coins whose values add up to exactly</em> <code>amount</code>. If no combination of coins adds up to <code>amount</code>, return <code>-1</code>.</p>
""",
    examples=[
        Example([[2, 5, 10, 1], 27], 4, "<code>27 = 10 + 10 + 5 + 2</code>."),
        Example([[3], 7], -1),
        Example([[4, 9], 0], 0, "No coins are needed for an amount of 0."),
    ],
    constraints=[
        "<code>1 &lt;= coins.length &lt;= 12</code>",
        "<code>1 &lt;= coins[i] &lt;= 2<sup>31</sup> - 1</code>",
        "<code>0 &lt;= amount &lt;= 10<sup>4</sup></code>",
    ],
    reference=code("""
        class Solution:
            def coinChange(self, coins: List[int], amount: int) -> int:
                best = [0] + [None] * amount
                for a in range(1, amount + 1):
                    options = [best[a - c] for c in coins if c <= a and best[a - c] is not None]
                    best[a] = min(options) + 1 if options else None
                return -1 if best[amount] is None else best[amount]
    """),
    small=small,
    big={
        "a10k": (
            "coins [1, 7, 23, 97, 331], amount 10^4",
            lambda rng: [[1, 7, 23, 97, 331], 10**4],
        ),
        "odd": (
            "coins [2, 6, 10, 14], amount 9999 (cannot be made)",
            lambda rng: [[2, 6, 10, 14], 9999],
        ),
    },
    solutions=[
        Sol(
            CORRECT,
            "a",
            "bottom-up table over amounts, O(amount * coins)",
            code(TABLE),
            key="table",
        ),
        Sol(
            CORRECT,
            "b",
            "breadth-first search over the amounts reached with k coins",
            code("""
            class Solution:
                def coinChange(self, coins: List[int], amount: int) -> int:
                    if amount == 0:
                        return 0
                    seen = {0}
                    frontier = [0]
                    steps = 0
                    while frontier:
                        steps += 1
                        nxt = []
                        for value in frontier:
                            for c in coins:
                                total = value + c
                                if total == amount:
                                    return steps
                                if total < amount and total not in seen:
                                    seen.add(total)
                                    nxt.append(total)
                        frontier = nxt
                    return -1
        """),
        ),
        Sol(
            EXPONENTIAL,
            "c",
            "plain recursion over the first coin taken",
            code("""
            class Solution:
                def coinChange(self, coins: List[int], amount: int) -> int:
                    def solve(rem):
                        if rem == 0:
                            return 0
                        best = -1
                        for c in coins:
                            if c <= rem:
                                sub = solve(rem - c)
                                if sub != -1 and (best == -1 or sub + 1 < best):
                                    best = sub + 1
                        return best

                    return solve(amount)
        """),
            complexity="exponential in amount / smallest coin",
            slow_input="odd",
            why="the same remainders are solved again and again",
        ),
        Sol(
            RAISES,
            "d",
            "memoised recursion with lru_cache",
            code("""
            class Solution:
                def coinChange(self, coins: List[int], amount: int) -> int:
                    @lru_cache(maxsize=None)
                    def dfs(rem):
                        if rem == 0:
                            return 0
                        best = float("inf")
                        for c in coins:
                            if c <= rem:
                                best = min(best, dfs(rem - c) + 1)
                        return best

                    ans = dfs(amount)
                    return -1 if ans == float("inf") else ans
        """),
            witness=[[1], 10**4],
            error="RecursionError",
            why="the recursion is as deep as amount / smallest coin, past the limit of 10^4 frames",
        ),
        Sol(
            WRONG,
            "e",
            "greedy: the largest coin first",
            code("""
            class Solution:
                def coinChange(self, coins: List[int], amount: int) -> int:
                    count = 0
                    for c in sorted(coins, reverse=True):
                        take = amount // c
                        count += take
                        amount -= take * c
                    return count if amount == 0 else -1
        """),
            witness=[[1, 3, 4], 6],
            expected=2,
            got=3,
            fails_examples=False,
            why="4 + 1 + 1 instead of 3 + 3; every example happens to be greedy-friendly",
        ),
        Sol(
            RAISES,
            "f",
            "table where each amount takes the minimum over the coins that fit",
            code("""
            class Solution:
                def coinChange(self, coins: List[int], amount: int) -> int:
                    INF = float("inf")
                    dp = [0] * (amount + 1)
                    for i in range(1, amount + 1):
                        dp[i] = min(dp[i - c] for c in coins if c <= i) + 1
                    return dp[amount] if dp[amount] != INF else -1
        """),
            witness=[[3], 7],
            error="ValueError",
            why="min() of nothing when no coin is small enough for an amount",
        ),
        Sol(
            WRONG,
            "g",
            "table that answers 0 when the amount cannot be made",
            code("""
            class Solution:
                def coinChange(self, coins: List[int], amount: int) -> int:
                    dp = [float("inf")] * (amount + 1)
                    dp[0] = 0
                    for coin in coins:
                        for x in range(coin, amount + 1):
                            dp[x] = min(dp[x], dp[x - coin] + 1)
                    return dp[amount] if dp[amount] != float("inf") else 0
        """),
            witness=[[3], 7],
            expected=-1,
            got=0,
            fails_examples=True,
            why="returns 0 instead of -1 for an amount that cannot be made",
        ),
        Sol(
            HANGING,
            "a",
            "greedy loop that cycles through the coins",
            code("""
            class Solution:
                def coinChange(self, coins: List[int], amount: int) -> int:
                    coins = sorted(coins, reverse=True)
                    count = 0
                    i = 0
                    while amount > 0:
                        if coins[i] <= amount:
                            amount -= coins[i]
                            count += 1
                        else:
                            i = (i + 1) % len(coins)
                    return count
        """),
            witness=[[3], 7],
            why="when no coin fits the remainder it cycles through the coins forever",
        ),
        Sol(
            RAMBLING,
            "b",
            "table with a worked example in comments, prints and unused imports",
            code('''
            import math
            import random
            from functools import reduce


            class Solution:
                def coinChange(self, coins: List[int], amount: int) -> int:
                    """
                    Unbounded knapsack / coin change.

                    dp[x] = fewest coins to make x. dp[0] = 0. For every x and every coin c
                    with c <= x: dp[x] = min(dp[x], dp[x - c] + 1).

                    Example: coins = [1, 2, 5], amount = 11
                        dp[0..11] = 0 1 1 2 2 1 2 2 3 3 2 3  -> answer 3 (5 + 5 + 1)

                    If dp[amount] is still "infinity", the amount cannot be made: -1.
                    """
                    if amount == 0:
                        print("amount is zero, no coins needed")
                        return 0
                    INF = 10**9
                    dp = [INF] * (amount + 1)
                    dp[0] = 0
                    for x in range(1, amount + 1):
                        for c in coins:
                            if c <= x and dp[x - c] + 1 < dp[x]:
                                dp[x] = dp[x - c] + 1
                    print("dp tail:", dp[-5:])
                    answer = dp[amount]
                    if answer >= INF:
                        print("cannot make", amount)
                        return -1
                    return answer

                def greedy(self, coins, amount):
                    # does not always work, kept for comparison
                    n = 0
                    for c in sorted(coins, reverse=True):
                        n += amount // c
                        amount %= c
                    return n if amount == 0 else -1
        '''),
        ),
        Sol(
            NEAR_DUP,
            "c",
            "bottom-up table over amounts (variables renamed)",
            code(
                TABLE.replace("INF", "BIG")
                .replace("dp", "fewest")
                .replace("total", "value")
                .replace("coin ", "c ")
                .replace("coin]", "c]")
            ),
            dup_of="table",
            diff="variables renamed",
            jaccard=1.0,
        ),
        Sol(
            RAISES,
            "d",
            "table sized to cover the largest coin as well",
            code("""
            class Solution:
                def coinChange(self, coins: List[int], amount: int) -> int:
                    size = max(amount, max(coins)) + 1
                    dp = [float("inf")] * size
                    dp[0] = 0
                    for x in range(1, amount + 1):
                        for c in coins:
                            if c <= x:
                                dp[x] = min(dp[x], dp[x - c] + 1)
                    return -1 if dp[amount] == float("inf") else dp[amount]
        """),
            witness=[[2147483647], 2],
            error="MemoryError",
            why="a list of 2^31 entries for a coin of value 2^31 - 1",
        ),
        Sol(
            EXPONENTIAL,
            "e",
            "tries every multiset of k coins for k = 0, 1, 2, ...",
            code("""
            class Solution:
                def coinChange(self, coins: List[int], amount: int) -> int:
                    if amount == 0:
                        return 0
                    smallest = min(coins)
                    for k in range(1, amount // smallest + 1):
                        for combo in itertools.combinations_with_replacement(coins, k):
                            if sum(combo) == amount:
                                return k
                    return -1
        """),
            complexity="sum over k of C(m + k - 1, k) multisets",
            slow_input="odd",
            why="when the amount cannot be made, every multiset of up to amount / smallest coins",
        ),
        Sol(
            CORRECT,
            "f",
            "table filled coin by coin (unbounded knapsack order)",
            code("""
            class Solution:
                def coinChange(self, coins: List[int], amount: int) -> int:
                    dp = [0] + [math.inf] * amount
                    for c in coins:
                        for x in range(c, amount + 1):
                            if dp[x - c] + 1 < dp[x]:
                                dp[x] = dp[x - c] + 1
                    return -1 if dp[amount] == math.inf else dp[amount]
        """),
        ),
        Sol(
            NO_COMPILE,
            "g",
            "table, cut off in the middle of the return expression",
            code("""
            class Solution:
                def coinChange(self, coins: List[int], amount: int) -> int:
                    dp = [0] + [float("inf")] * amount
                    for c in coins:
                        for x in range(c, amount + 1):
                            dp[x] = min(dp[x], dp[x - c] + 1)
                    return dp[amount] if dp[amount] != float("inf") else
        """),
            error="SyntaxError",
            why="the sample ends after `else` (cut off)",
        ),
        Sol(
            SLOW,
            "a",
            "table that splits every amount into two smaller amounts, O(amount^2)",
            code("""
            class Solution:
                def coinChange(self, coins: List[int], amount: int) -> int:
                    INF = float("inf")
                    dp = [INF] * (amount + 1)
                    dp[0] = 0
                    for c in coins:
                        if c <= amount:
                            dp[c] = 1
                    for x in range(1, amount + 1):
                        for y in range(1, x // 2 + 1):
                            if dp[y] + dp[x - y] < dp[x]:
                                dp[x] = dp[y] + dp[x - y]
                    return -1 if dp[amount] == INF else dp[amount]
        """),
            complexity="O(amount^2)",
            slow_input="a10k",
            why="2.5 * 10^7 splits for amount 10^4",
        ),
    ],
)
