"""Merge intervals: a matrix in and out; seven wrong, raising or hanging samples that each fail one
input in their own way (7/1/1/1/1/1/1/1), a one-token near-duplicate pair (`<` vs `<=`)."""

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
    Plurality,
    Sol,
    Spec,
    code,
)


def small(rng: random.Random) -> Input:
    hi = rng.choice([6, 20, 20, 10**4])
    out = []
    for _ in range(rng.randint(1, 12)):
        a = rng.randint(0, hi)
        b = a if rng.random() < 0.15 else rng.randint(a, min(hi, a + max(1, hi // 4)))
        out.append([a, b])
    return [out]


def points(rng: random.Random) -> Input:
    """10^4 single-point intervals [i, i], shuffled: nothing overlaps."""
    values = list(range(10**4))
    rng.shuffle(values)
    return [[[v, v] for v in values]]


VERBOSE = """
class Solution:
    def merge(self, intervals: List[List[int]]) -> List[List[int]]:
        # Sort by start, then sweep: an interval that starts before the current block ends
        # belongs to that block, otherwise it opens a new block.
        if not intervals:
            return []
        for pair in intervals:
            if len(pair) != 2 or pair[0] > pair[1]:
                raise ValueError("bad interval: " + str(pair))
        ordered = sorted(intervals, key=lambda pair: (pair[0], pair[1]))
        merged = []
        block_start, block_end = ordered[0][0], ordered[0][1]
        blocks_closed = 0
        for index in range(1, len(ordered)):
            start, end = ordered[index][0], ordered[index][1]
            if start COMPARE block_end:
                # overlaps the current block: extend it
                if end > block_end:
                    block_end = end
            else:
                merged.append([block_start, block_end])
                blocks_closed += 1
                block_start, block_end = start, end
        merged.append([block_start, block_end])
        summary = {"blocks": blocks_closed + 1, "first": merged[0], "last": merged[-1]}
        if summary["blocks"] != len(merged):
            raise RuntimeError("block count mismatch")
        return merged
"""

SORT_MERGE = """
class Solution:
    def merge(self, intervals: List[List[int]]) -> List[List[int]]:
        intervals.sort(key=lambda x: x[0])
        merged = []
        for start, end in intervals:
            if merged and start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        return merged
"""

SPEC = Spec(
    slug="merge-overlapping-intervals",
    qid=9507,
    title="Merge Overlapping Intervals",
    difficulty="Medium",
    tags=[("Array", "array"), ("Sorting", "sorting")],
    method="merge",
    params=[("intervals", "integer[][]")],
    returns="integer[][]",
    description="""
<p>Each element of <code>intervals</code> is a closed interval <code>[start<sub>i</sub>, end<sub>i</sub>]</code>. Two intervals overlap when they share at least one point, so <code>[1, 4]</code> and <code>[4, 6]</code> overlap.</p>

<p>Replace every group of overlapping intervals by the single interval that covers the group, and return <em>the resulting intervals sorted by their start</em>.</p>
""",
    examples=[
        Example(
            [[[7, 9], [1, 4], [2, 5], [11, 12]]],
            [[1, 5], [7, 9], [11, 12]],
            "<code>[1, 4]</code> and <code>[2, 5]</code> overlap and become <code>[1, 5]</code>.",
        ),
        Example([[[3, 6], [6, 8]]], [[3, 8]], "The two intervals share the point 6."),
        Example([[[5, 5]]], [[5, 5]]),
    ],
    constraints=[
        "<code>1 &lt;= intervals.length &lt;= 10<sup>4</sup></code>",
        "<code>intervals[i].length == 2</code>",
        "<code>0 &lt;= start<sub>i</sub> &lt;= end<sub>i</sub> &lt;= 10<sup>4</sup></code>",
    ],
    reference=code("""
        class Solution:
            def merge(self, intervals: List[List[int]]) -> List[List[int]]:
                out = []
                for a, b in sorted(intervals):
                    if out and a <= out[-1][1]:
                        out[-1][1] = max(out[-1][1], b)
                    else:
                        out.append([a, b])
                return out
    """),
    small=small,
    big={"points": ("10^4 single-point intervals [i, i] in random order", points)},
    plurality=Plurality(
        [[[8, 9], [1, 2], [2, 2], [3, 4], [4, 5], [5, 6], [10, 14], [11, 12]]],
        "7/1/1/1/1/1/1/1",
        "7/1/1/1/1",
        "right answer [[1,2],[3,6],[8,9],[10,14]]: #0 #2 #5 #8 #10 #12 #14; #1 #3 #4 #6 #7 #9 "
        "#11 each fail differently (touching kept apart, no sort, containment, integer points, "
        "timeout, ZeroDivisionError, no chaining). #1 #3 #7 fail the examples; without them the "
        "right answer has a majority.",
    ),
    solutions=[
        Sol(
            CORRECT,
            "g",
            "sort by start, extend the last block, O(n log n)",
            code(SORT_MERGE),
            key="sm",
        ),
        Sol(
            WRONG,
            "a",
            "sort and sweep, verbose; merges only intervals that overlap by more than a point",
            code(VERBOSE.replace("COMPARE", "<")),
            key="verbose",
            witness=[[[3, 6], [6, 8]]],
            expected=[[3, 8]],
            got=[[3, 6], [6, 8]],
            fails_examples=True,
            why="`start < block_end`: intervals that touch at one point stay apart",
        ),
        Sol(
            NEAR_DUP,
            "b",
            "sort and sweep, verbose",
            code(VERBOSE.replace("COMPARE", "<=")),
            dup_of="verbose",
            differs=True,
            diff="`start < block_end` -> `start <= block_end`",
            jaccard=0.9634,
        ),
        Sol(
            WRONG,
            "c",
            "sweep without sorting first",
            code("""
            class Solution:
                def merge(self, intervals: List[List[int]]) -> List[List[int]]:
                    merged = [list(intervals[0])]
                    for start, end in intervals[1:]:
                        if start <= merged[-1][1]:
                            merged[-1][1] = max(merged[-1][1], end)
                        else:
                            merged.append([start, end])
                    return merged
        """),
            witness=[[[4, 5], [1, 2]]],
            expected=[[1, 2], [4, 5]],
            got=[[4, 5]],
            fails_examples=True,
            why="assumes the input is sorted",
        ),
        Sol(
            WRONG,
            "d",
            "sort and sweep that overwrites the block's end",
            code("""
            class Solution:
                def merge(self, intervals: List[List[int]]) -> List[List[int]]:
                    intervals.sort()
                    result = [intervals[0][:]]
                    for s, e in intervals[1:]:
                        last = result[-1]
                        if s <= last[1]:
                            last[1] = e
                        else:
                            result.append([s, e])
                    return result
        """),
            witness=[[[1, 10], [2, 3]]],
            expected=[[1, 10]],
            got=[[1, 3]],
            fails_examples=False,
            why="`last[1] = e` instead of max: an interval inside the block shortens it",
        ),
        Sol(
            SLOW,
            "e",
            "merge any overlapping pair, then start over until nothing changes",
            code("""
            class Solution:
                def merge(self, intervals: List[List[int]]) -> List[List[int]]:
                    items = [list(x) for x in intervals]
                    changed = True
                    while changed:
                        changed = False
                        for i in range(len(items)):
                            for j in range(i + 1, len(items)):
                                a, b = items[i], items[j]
                                if a[0] <= b[1] and b[0] <= a[1]:
                                    items[i] = [min(a[0], b[0]), max(a[1], b[1])]
                                    items.pop(j)
                                    changed = True
                                    break
                            if changed:
                                break
                    return sorted(items)
        """),
            complexity="O(n^2) per pass, up to n passes",
            slow_input="points",
            why="5 * 10^7 pair checks even when nothing overlaps",
        ),
        Sol(
            WRONG,
            "f",
            "marks every covered integer point, then reads off the runs",
            code("""
            class Solution:
                def merge(self, intervals: List[List[int]]) -> List[List[int]]:
                    top = max(e for _, e in intervals)
                    covered = [False] * (top + 2)
                    for s, e in intervals:
                        for x in range(s, e + 1):
                            covered[x] = True
                    result = []
                    x = 0
                    while x <= top:
                        if covered[x]:
                            y = x
                            while covered[y + 1]:
                                y += 1
                            result.append([x, y])
                            x = y + 1
                        else:
                            x += 1
                    return result
        """),
            witness=[[[1, 2], [3, 4]]],
            expected=[[1, 2], [3, 4]],
            got=[[1, 4]],
            fails_examples=False,
            why="integer points cannot tell [1, 2] + [3, 4] (apart) from [1, 3] + [3, 4]",
        ),
        Sol(
            HANGING,
            "g",
            "index loop that gathers a run of overlapping intervals",
            code("""
            class Solution:
                def merge(self, intervals: List[List[int]]) -> List[List[int]]:
                    intervals.sort()
                    res = []
                    i = 0
                    while i < len(intervals):
                        start, end = intervals[i]
                        j = i + 1
                        while j < len(intervals) and intervals[j][0] <= end:
                            end = max(end, intervals[j][1])
                            j += 1
                        if j == i + 1:
                            res.append(intervals[i])
                        else:
                            res.append([start, end])
                            i = j
                    return res
        """),
            witness=[[[5, 5]]],
            why="an interval that overlaps nothing is appended but i is not advanced: forever",
        ),
        Sol(
            RAMBLING,
            "a",
            "sort and merge with a long preamble, prints and an unused helper",
            code('''
            import itertools
            import functools
            from typing import List, Tuple


            class Solution:
                def merge(self, intervals: List[List[int]]) -> List[List[int]]:
                    """
                    Merge overlapping intervals.

                    1. Sort the intervals by start time.
                    2. Walk through them; keep a list `merged` whose last element is the
                       interval we are currently growing.
                    3. If the next interval starts at or before the end of the last merged
                       interval, they overlap (touching counts!), so extend the end.
                    4. Otherwise start a new merged interval.

                    Complexity: O(n log n) for the sort, O(n) for the sweep.
                    """
                    print(f"merging {len(intervals)} intervals")
                    intervals = sorted(intervals, key=lambda iv: iv[0])
                    merged: List[List[int]] = []
                    for iv in intervals:
                        if not merged:
                            merged.append(list(iv))
                            continue
                        last = merged[-1]
                        if iv[0] <= last[1]:
                            # overlap -> extend
                            last[1] = max(last[1], iv[1])
                        else:
                            merged.append(list(iv))
                    print("merged:", len(merged), "intervals")
                    return merged

                def overlaps(self, a: Tuple[int, int], b: Tuple[int, int]) -> bool:
                    return a[0] <= b[1] and b[0] <= a[1]
        '''),
        ),
        Sol(
            RAISES,
            "b",
            "sort and merge when the overlap ratio of neighbours is not negative",
            code("""
            class Solution:
                def merge(self, intervals: List[List[int]]) -> List[List[int]]:
                    intervals.sort()
                    out = [list(intervals[0])]
                    for s, e in intervals[1:]:
                        ps, pe = out[-1]
                        # overlap as a fraction of the shorter interval
                        ratio = (min(pe, e) - max(ps, s)) / min(pe - ps, e - s)
                        if ratio >= 0:
                            out[-1][1] = max(pe, e)
                        else:
                            out.append([s, e])
                    return out
        """),
            witness=[[[1, 2], [2, 2]]],
            error="ZeroDivisionError",
            why="a single-point interval has length 0",
        ),
        Sol(
            NEAR_DUP,
            "c",
            "sort by start, extend the last block (variables renamed)",
            code("""
            class Solution:
                def merge(self, intervals: List[List[int]]) -> List[List[int]]:
                    intervals.sort(key=lambda pair: pair[0])
                    out = []
                    for lo, hi in intervals:
                        if out and lo <= out[-1][1]:
                            out[-1][1] = max(out[-1][1], hi)
                        else:
                            out.append([lo, hi])
                    return out
        """),
            dup_of="sm",
            diff="variables renamed",
            jaccard=1.0,
        ),
        Sol(
            WRONG,
            "d",
            "merges neighbours two at a time",
            code("""
            class Solution:
                def merge(self, intervals: List[List[int]]) -> List[List[int]]:
                    intervals.sort()
                    res = []
                    i = 0
                    while i < len(intervals):
                        if i + 1 < len(intervals) and intervals[i + 1][0] <= intervals[i][1]:
                            res.append([intervals[i][0], max(intervals[i][1], intervals[i + 1][1])])
                            i += 2
                        else:
                            res.append(intervals[i])
                            i += 1
                    return res
        """),
            witness=[[[1, 3], [2, 5], [4, 8]]],
            expected=[[1, 8]],
            got=[[1, 5], [4, 8]],
            fails_examples=False,
            why="a chain of three or more overlapping intervals is only merged pairwise",
        ),
        Sol(
            CORRECT,
            "e",
            "sweep over start and end events, starts first at equal points",
            code("""
            class Solution:
                def merge(self, intervals: List[List[int]]) -> List[List[int]]:
                    events = []
                    for s, e in intervals:
                        events.append((s, 0))
                        events.append((e, 1))
                    events.sort()
                    res = []
                    depth = 0
                    start = 0
                    for x, kind in events:
                        if kind == 0:
                            if depth == 0:
                                start = x
                            depth += 1
                        else:
                            depth -= 1
                            if depth == 0:
                                res.append([start, x])
                    return res
        """),
        ),
        Sol(
            NO_COMPILE,
            "f",
            "sort and merge, mis-indented after an edit",
            code("""
            class Solution:
                def merge(self, intervals: List[List[int]]) -> List[List[int]]:
                    intervals.sort()
                    merged = []
                    for s, e in intervals:
                        if merged and s <= merged[-1][1]:
                            merged[-1][1] = max(merged[-1][1], e)
                      else:
                            merged.append([s, e])
                    return merged
        """),
            error="IndentationError",
            why="an `else` indented to no enclosing block",
        ),
        Sol(
            SLOW,
            "g",
            "each interval absorbs the overlapping results, then the results are re-sorted",
            code("""
            class Solution:
                def merge(self, intervals: List[List[int]]) -> List[List[int]]:
                    result = []
                    for s, e in intervals:
                        cur = [s, e]
                        keep = []
                        for r in result:
                            if r[0] <= cur[1] and cur[0] <= r[1]:
                                cur = [min(r[0], cur[0]), max(r[1], cur[1])]
                            else:
                                keep.append(r)
                        keep.append(cur)
                        result = sorted(keep)
                    return result
        """),
            complexity="O(n^2 log n)",
            slow_input="points",
            why="every interval scans and re-sorts all results so far",
        ),
    ],
)
