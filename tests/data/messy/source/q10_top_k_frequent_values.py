"""Top k frequent values, answer in any order: k rounds of a Python max scan and one list.count per
value (slow on 58,000 values), a binary search on the count that never converges, a bucket table one
slot too short, and a count -> value dict that loses values sharing a count."""

from __future__ import annotations

import random
from collections import Counter

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


def small(rng: random.Random) -> Input:
    """Arrays of up to 30 values and a k whose answer is unique (a count gap after the k-th)."""
    while True:
        span = rng.choice([3, 6, 20, 10**4])
        nums = [rng.randint(-span, span) for _ in range(rng.randint(1, 30))]
        counts = sorted(Counter(nums).values(), reverse=True)
        ks = [k for k in range(1, len(counts) + 1) if k == len(counts) or counts[k - 1] > counts[k]]
        if ks:
            return [nums, rng.choice(ks)]


def heavy(rng: random.Random) -> Input:
    """2000 values 20 times each and 18,000 other values once each (58,000 in all), k = 2000."""
    values = rng.sample(range(-(10**4), 10**4 + 1), 20000)
    nums = [v for v in values[:2000] for _ in range(20)] + values[2000:]
    rng.shuffle(nums)
    return [nums, 2000]


COMMON = """
class Solution:
    def topKFrequent(self, nums: List[int], k: int) -> List[int]:
        counts = Counter(nums)
        return [value for value, _ in counts.most_common(k)]
"""

SPEC = Spec(
    slug="top-k-frequent-values",
    qid=9510,
    title="Top K Frequent Values",
    difficulty="Medium",
    tags=[
        ("Array", "array"),
        ("Hash Table", "hash-table"),
        ("Sorting", "sorting"),
        ("Heap (Priority Queue)", "heap-priority-queue"),
        ("Bucket Sort", "bucket-sort"),
    ],
    method="topKFrequent",
    params=[("nums", "integer[]"), ("k", "integer")],
    returns="integer[]",
    description="""
<p>Given an integer array <code>nums</code> and an integer <code>k</code>, return <em>the</em> <code>k</code> <em>values that occur most often in</em> <code>nums</code>. You may return the answer in any order.</p>
""",
    examples=[
        Example([[8, 3, 8, 5, 3, 8, 1], 2], [8, 3], "8 occurs three times, 3 twice, 5 and 1 once."),
        Example([[6], 1], [6]),
        Example([[2, -1, 2, -1, 2, 0], 1], [2]),
    ],
    constraints=[
        "<code>1 &lt;= nums.length &lt;= 10<sup>5</sup></code>",
        "<code>-10<sup>4</sup> &lt;= nums[i] &lt;= 10<sup>4</sup></code>",
        "<code>k</code> is in the range <code>[1, the number of unique elements in the array]</code>.",
        "It is <strong>guaranteed</strong> that the answer is <strong>unique</strong>.",
    ],
    follow_up="Can you do better than sorting all the values by their counts?",
    any_order=True,
    reference=code("""
        class Solution:
            def topKFrequent(self, nums: List[int], k: int) -> List[int]:
                counts = {}
                for x in nums:
                    counts[x] = counts.get(x, 0) + 1
                order = sorted(counts, key=lambda v: (-counts[v], v))
                return sorted(order[:k])
    """),
    small=small,
    big={"heavy": ("58,000 values: 2000 values 20 times each, 18,000 once each; k = 2000", heavy)},
    solutions=[
        Sol(CORRECT, "d", "Counter.most_common(k)", code(COMMON), key="common"),
        Sol(
            CORRECT,
            "e",
            "buckets indexed by count, read from the highest, O(n)",
            code("""
            class Solution:
                def topKFrequent(self, nums: List[int], k: int) -> List[int]:
                    count = Counter(nums)
                    buckets = [[] for _ in range(len(nums) + 1)]
                    for value, c in count.items():
                        buckets[c].append(value)
                    res = []
                    for c in range(len(buckets) - 1, 0, -1):
                        for value in buckets[c]:
                            res.append(value)
                            if len(res) == k:
                                return res
                    return res
        """),
        ),
        Sol(
            CORRECT,
            "f",
            "heapq.nlargest over the distinct values by count",
            code("""
            class Solution:
                def topKFrequent(self, nums: List[int], k: int) -> List[int]:
                    freq = Counter(nums)
                    return heapq.nlargest(k, freq.keys(), key=freq.get)
        """),
        ),
        Sol(
            SLOW,
            "g",
            "k rounds of a scan for the most frequent value not chosen yet, O(k * d)",
            code("""
            class Solution:
                def topKFrequent(self, nums: List[int], k: int) -> List[int]:
                    counts = {}
                    for x in nums:
                        counts[x] = counts.get(x, 0) + 1
                    chosen = set()
                    result = []
                    for _ in range(k):
                        best = None
                        for value, c in counts.items():
                            if value not in chosen and (best is None or c > counts[best]):
                                best = value
                        chosen.add(best)
                        result.append(best)
                    return result
        """),
            complexity="O(k * d) with d distinct values",
            slow_input="heavy",
            why="2000 scans of 20,000 distinct values",
        ),
        Sol(
            WRONG,
            "a",
            "the k largest distinct values",
            code("""
            class Solution:
                def topKFrequent(self, nums: List[int], k: int) -> List[int]:
                    return sorted(set(nums))[-k:]
        """),
            witness=[[8, 3, 8, 5, 3, 8, 1], 2],
            expected=[3, 8],
            got=[5, 8],
            fails_examples=True,
            why="sorts by value, not by how often a value occurs",
        ),
        Sol(
            RAISES,
            "b",
            "buckets indexed by count, one slot too few",
            code("""
            class Solution:
                def topKFrequent(self, nums: List[int], k: int) -> List[int]:
                    freq = Counter(nums)
                    bucket = [[] for _ in range(len(nums))]
                    for num, c in freq.items():
                        bucket[c].append(num)
                    out = []
                    for c in range(len(bucket) - 1, -1, -1):
                        out.extend(bucket[c])
                        if len(out) >= k:
                            return out[:k]
                    return out
        """),
            witness=[[6], 1],
            error="IndexError",
            why="a value that fills the whole array has count len(nums), one past the last bucket",
        ),
        Sol(
            HANGING,
            "c",
            "binary search for the count threshold of the k-th value",
            code("""
            class Solution:
                def topKFrequent(self, nums: List[int], k: int) -> List[int]:
                    counts = Counter(nums)
                    lo, hi = 1, max(counts.values())
                    # the largest t such that at least k values occur t times or more
                    while lo < hi:
                        mid = (lo + hi) // 2
                        if sum(1 for c in counts.values() if c >= mid) >= k:
                            lo = mid
                        else:
                            hi = mid - 1
                    return [v for v, c in counts.items() if c >= lo]
        """),
            witness=[[8, 3, 8, 5, 3, 8, 1], 2],
            why="`lo = mid` with a rounded-down mid never moves once hi = lo + 1",
        ),
        Sol(
            RAMBLING,
            "d",
            "counting dict and a sort, with commentary and debug prints",
            code('''
            import math
            import sys
            from typing import List, Dict


            class Solution:
                def topKFrequent(self, nums: List[int], k: int) -> List[int]:
                    """
                    Step 1: count how many times each number appears (hash map).
                    Step 2: sort the distinct numbers by their count, descending.
                    Step 3: take the first k.

                    Complexity: O(n + d log d) where d is the number of distinct values.
                    A bucket sort would make it O(n), and a heap of size k O(n log k),
                    but sorting is simpler and fast enough here.
                    """
                    frequency: Dict[int, int] = {}
                    for number in nums:
                        frequency[number] = frequency.get(number, 0) + 1
                    print("distinct values:", len(frequency))
                    ordered = sorted(frequency.items(), key=lambda item: item[1], reverse=True)
                    print("top entries:", ordered[:3])
                    answer = [number for number, _ in ordered[:k]]
                    # sanity check: the problem guarantees the answer is unique
                    if len(ordered) > k and ordered[k - 1][1] == ordered[k][1]:
                        print("warning: tie at the boundary")
                    return answer
        '''),
        ),
        Sol(
            NEAR_DUP,
            "e",
            "Counter.most_common(k) (variables renamed)",
            code(COMMON.replace("counts", "tally").replace("value", "v")),
            dup_of="common",
            diff="variables renamed",
            jaccard=1.0,
        ),
        Sol(
            WRONG,
            "f",
            "a dict from count to value, then the k largest counts",
            code("""
            class Solution:
                def topKFrequent(self, nums: List[int], k: int) -> List[int]:
                    counts = Counter(nums)
                    by_count = {c: v for v, c in counts.items()}
                    top = sorted(by_count, reverse=True)[:k]
                    return [by_count[c] for c in top]
        """),
            witness=[[1, 1, 2, 2, 3], 2],
            expected=[1, 2],
            got=[2, 3],
            fails_examples=False,
            why="values with the same count overwrite each other in the dict",
        ),
        Sol(
            WRONG,
            "g",
            "distinct values sorted by count, ascending, first k",
            code("""
            class Solution:
                def topKFrequent(self, nums: List[int], k: int) -> List[int]:
                    c = Counter(nums)
                    return sorted(c, key=lambda x: c[x])[:k]
        """),
            witness=[[2, -1, 2, -1, 2, 0], 1],
            expected=[2],
            got=[0],
            fails_examples=True,
            why="sorted ascending: the least frequent values come first",
        ),
        Sol(
            CORRECT,
            "a",
            "distinct values sorted by descending count",
            code("""
            class Solution:
                def topKFrequent(self, nums: List[int], k: int) -> List[int]:
                    cnt = {}
                    for n in nums:
                        cnt[n] = cnt.get(n, 0) + 1
                    return sorted(cnt, key=lambda n: -cnt[n])[:k]
        """),
        ),
        Sol(
            NO_COMPILE,
            "b",
            "heap of (count, value), cut off after the heap is built",
            code("""
            class Solution:
                def topKFrequent(self, nums: List[int], k: int) -> List[int]:
                    count = Counter(nums)
                    heap = []
                    for value, c in count.items():
                        heapq.heappush(heap, (c, value))
                        if len(heap) > k:
                            heapq.heappop(heap)
                    return [value for c, value in
        """),
            error="SyntaxError",
            why="the sample ends inside a list comprehension (cut off)",
        ),
        Sol(
            SLOW,
            "c",
            "list.count for every distinct value, O(n * d)",
            code("""
            class Solution:
                def topKFrequent(self, nums: List[int], k: int) -> List[int]:
                    pairs = [(nums.count(v), v) for v in set(nums)]
                    pairs.sort(reverse=True)
                    return [v for _, v in pairs[:k]]
        """),
            complexity="O(n * d)",
            slow_input="heavy",
            why="20,000 scans of 58,000 values",
        ),
        Sol(
            WRONG,
            "d",
            "Counter.most_common(k), returned as it comes",
            code("""
            class Solution:
                def topKFrequent(self, nums: List[int], k: int) -> List[int]:
                    return Counter(nums).most_common(k)
        """),
            witness=[[6], 1],
            expected=[6],
            got=[[6, 1]],
            fails_examples=True,
            why="returns (value, count) pairs instead of values",
        ),
    ],
)
