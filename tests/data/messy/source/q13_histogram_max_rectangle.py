"""Largest rectangle in a histogram: quadratic and cubic scans that cannot finish 10^5 bars, a
divide and conquer that recurses 10^5 deep on sorted bars, stack samples that forget the final flush
or the empty stack, a two-pointer heuristic that stalls on equal ends."""

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


def small(rng: random.Random) -> Input:
    top = rng.choice([3, 10, 10, 10**4])
    return [[rng.randint(0, top) for _ in range(rng.randint(1, 12))]]


STACK = """
class Solution:
    def largestRectangleArea(self, heights: List[int]) -> int:
        stack = [-1]
        best = 0
        for i, h in enumerate(heights + [0]):
            while stack[-1] != -1 and heights[stack[-1]] >= h:
                height = heights[stack.pop()]
                width = i - stack[-1] - 1
                best = max(best, height * width)
            stack.append(i)
        return best
"""

SPEC = Spec(
    slug="histogram-max-rectangle",
    qid=9513,
    title="Histogram Max Rectangle",
    difficulty="Hard",
    tags=[("Array", "array"), ("Stack", "stack"), ("Monotonic Stack", "monotonic-stack")],
    method="largestRectangleArea",
    params=[("heights", "integer[]")],
    returns="integer",
    description="""
<p>A histogram has bars of width <code>1</code> standing side by side; <code>heights[i]</code> is the height of bar <code>i</code>.</p>

<p>Return <em>the area of the largest axis-aligned rectangle that fits inside the histogram</em> (it may span several adjacent bars, up to the height of the lowest of them).</p>
""",
    examples=[
        Example([[3, 1, 4, 4, 2]], 8, "The two bars of height 4 hold a 4 x 2 rectangle."),
        Example([[5]], 5),
        Example([[2, 3, 1]], 4),
    ],
    constraints=[
        "<code>1 &lt;= heights.length &lt;= 10<sup>5</sup></code>",
        "<code>0 &lt;= heights[i] &lt;= 10<sup>4</sup></code>",
    ],
    reference=code("""
        class Solution:
            def largestRectangleArea(self, heights: List[int]) -> int:
                n = len(heights)
                left, right = [0] * n, [n] * n
                stack = []
                for i, h in enumerate(heights):
                    while stack and heights[stack[-1]] >= h:
                        right[stack.pop()] = i
                    left[i] = stack[-1] + 1 if stack else 0
                    stack.append(i)
                return max(heights[i] * (right[i] - left[i]) for i in range(n))
    """),
    small=small,
    big={
        "random": (
            "10^5 random heights",
            lambda rng: [[rng.randint(0, 10**4) for _ in range(10**5)]],
        ),
        "ramp": (
            "12,000 non-decreasing heights (i * 10^4 // 12000)",
            lambda rng: [[i * 10**4 // 12000 for i in range(12000)]],
        ),
    },
    solutions=[
        Sol(CORRECT, "g", "monotonic stack with a sentinel, O(n)", code(STACK), key="stack"),
        Sol(
            CORRECT,
            "a",
            "nearest lower bar on each side with two stack passes, O(n)",
            code("""
            class Solution:
                def largestRectangleArea(self, heights: List[int]) -> int:
                    n = len(heights)
                    left = [-1] * n
                    right = [n] * n
                    st = []
                    for i in range(n):
                        while st and heights[st[-1]] >= heights[i]:
                            st.pop()
                        left[i] = st[-1] if st else -1
                        st.append(i)
                    st = []
                    for i in range(n - 1, -1, -1):
                        while st and heights[st[-1]] >= heights[i]:
                            st.pop()
                        right[i] = st[-1] if st else n
                        st.append(i)
                    return max(heights[i] * (right[i] - left[i] - 1) for i in range(n))
        """),
        ),
        Sol(
            SLOW,
            "b",
            "every left end, extending right with a running minimum, O(n^2)",
            code("""
            class Solution:
                def largestRectangleArea(self, heights: List[int]) -> int:
                    best = 0
                    for i in range(len(heights)):
                        low = heights[i]
                        for j in range(i, len(heights)):
                            low = min(low, heights[j])
                            best = max(best, low * (j - i + 1))
                    return best
        """),
            complexity="O(n^2)",
            slow_input="random",
            why="5 * 10^9 steps for 10^5 bars",
        ),
        Sol(
            SLOW,
            "c",
            "every pair of ends, with min() over the slice, O(n^3)",
            code("""
            class Solution:
                def largestRectangleArea(self, heights: List[int]) -> int:
                    n = len(heights)
                    best = 0
                    for i in range(n):
                        for j in range(i, n):
                            best = max(best, min(heights[i : j + 1]) * (j - i + 1))
                    return best
        """),
            complexity="O(n^3)",
            slow_input="random",
            why="a slice and a min() for each of 5 * 10^9 pairs",
        ),
        Sol(
            RAISES,
            "d",
            "monotonic stack without a sentinel or an emptiness check",
            code("""
            class Solution:
                def largestRectangleArea(self, heights: List[int]) -> int:
                    stack = []
                    best = 0
                    heights = heights + [0]
                    for i, h in enumerate(heights):
                        while stack and heights[stack[-1]] > h:
                            top = stack.pop()
                            width = i - stack[-1] - 1
                            best = max(best, heights[top] * width)
                        stack.append(i)
                    return best
        """),
            witness=[[3, 1]],
            error="IndexError",
            why="after popping the only bar, stack[-1] of an empty stack",
        ),
        Sol(
            WRONG,
            "e",
            "monotonic stack that forgets the bars left on the stack at the end",
            code("""
            class Solution:
                def largestRectangleArea(self, heights: List[int]) -> int:
                    stack = []
                    best = 0
                    for i, h in enumerate(heights):
                        while stack and heights[stack[-1]] > h:
                            top = stack.pop()
                            left = stack[-1] if stack else -1
                            best = max(best, heights[top] * (i - left - 1))
                        stack.append(i)
                    return best
        """),
            witness=[[5]],
            expected=5,
            got=0,
            fails_examples=True,
            why="rectangles of the bars still on the stack after the loop are never measured",
        ),
        Sol(
            WRONG,
            "f",
            "monotonic stack with a width one too large",
            code("""
            class Solution:
                def largestRectangleArea(self, heights: List[int]) -> int:
                    stack = [-1]
                    best = 0
                    for i, h in enumerate(heights + [0]):
                        while stack[-1] != -1 and heights[stack[-1]] >= h:
                            height = heights[stack.pop()]
                            best = max(best, height * (i - stack[-1]))
                        stack.append(i)
                    return best
        """),
            witness=[[5]],
            expected=5,
            got=10,
            fails_examples=True,
            why="width i - stack[-1] counts the bar at the lower boundary too",
        ),
        Sol(
            HANGING,
            "g",
            "two pointers moving inwards from the lower end",
            code("""
            class Solution:
                def largestRectangleArea(self, heights: List[int]) -> int:
                    l, r = 0, len(heights) - 1
                    best = 0
                    while l <= r:
                        best = max(best, min(heights[l : r + 1]) * (r - l + 1))
                        if heights[l] < heights[r]:
                            l += 1
                        elif heights[r] < heights[l]:
                            r -= 1
                    return best
        """),
            witness=[[5]],
            why="when the two ends are equal (or l == r) neither pointer moves",
        ),
        Sol(
            RAMBLING,
            "a",
            "monotonic stack with a long explanation, prints and a dead brute force",
            code('''
            import sys
            import functools
            from typing import List


            class Solution:
                def largestRectangleArea(self, heights: List[int]) -> int:
                    """
                    Monotonic increasing stack of indices.

                    When we meet a bar lower than the bar on top of the stack, the top bar
                    cannot extend further right, and the bar below it on the stack is the
                    first lower bar on its left. So its widest rectangle spans the indices
                    strictly between those two, and we can compute its area right away.

                    A sentinel 0 at the end flushes the stack. Every index is pushed and
                    popped once: O(n).
                    """
                    stack: List[int] = []
                    max_area = 0
                    extended = heights + [0]
                    for i in range(len(extended)):
                        while stack and extended[stack[-1]] > extended[i]:
                            h = extended[stack.pop()]
                            left_boundary = stack[-1] if stack else -1
                            area = h * (i - left_boundary - 1)
                            if area > max_area:
                                max_area = area
                                print(f"new best {max_area} with height {h}")
                        stack.append(i)
                    print("done, answer =", max_area)
                    return max_area

                def brute_force(self, heights):
                    best = 0
                    for i in range(len(heights)):
                        for j in range(i, len(heights)):
                            best = max(best, min(heights[i : j + 1]) * (j - i + 1))
                    return best
        '''),
        ),
        Sol(
            NEAR_DUP,
            "b",
            "monotonic stack with a sentinel (variables renamed)",
            code(
                STACK.replace("stack", "st")
                .replace("best", "area")
                .replace("height ", "tall ")
                .replace("height,", "tall,")
            ),
            dup_of="stack",
            diff="variables renamed",
            jaccard=1.0,
        ),
        Sol(
            RAISES,
            "c",
            "divide and conquer at the lowest bar",
            code("""
            class Solution:
                def largestRectangleArea(self, heights: List[int]) -> int:
                    def solve(lo, hi):
                        if lo > hi:
                            return 0
                        low = min(heights[lo : hi + 1])
                        m = heights.index(low, lo, hi + 1)
                        return max(low * (hi - lo + 1), solve(lo, m - 1), solve(m + 1, hi))

                    return solve(0, len(heights) - 1)
        """),
            witness_big="ramp",
            error="RecursionError",
            why="on sorted bars the lowest bar is always at an end: the recursion is as deep as "
            "the array is long (and takes O(n^2) time)",
        ),
        Sol(
            WRONG,
            "d",
            "the tallest bar or the full width at the lowest height",
            code("""
            class Solution:
                def largestRectangleArea(self, heights: List[int]) -> int:
                    return max(max(heights), min(heights) * len(heights))
        """),
            witness=[[3, 1, 4, 4, 2]],
            expected=8,
            got=5,
            fails_examples=True,
            why="only two of the candidate rectangles",
        ),
        Sol(
            CORRECT,
            "e",
            "nearest lower bars found by jumping along earlier answers",
            code("""
            class Solution:
                def largestRectangleArea(self, heights: List[int]) -> int:
                    n = len(heights)
                    left = [0] * n
                    right = [0] * n
                    for i in range(n):
                        p = i - 1
                        while p >= 0 and heights[p] >= heights[i]:
                            p = left[p] - 1
                        left[i] = p + 1
                    for i in range(n - 1, -1, -1):
                        p = i + 1
                        while p < n and heights[p] >= heights[i]:
                            p = right[p] + 1
                        right[i] = p - 1
                    return max(heights[i] * (right[i] - left[i] + 1) for i in range(n))
        """),
        ),
        Sol(
            NO_COMPILE,
            "f",
            "monotonic stack, cut off after the loop header",
            code("""
            class Solution:
                def largestRectangleArea(self, heights: List[int]) -> int:
                    stack = [-1]
                    best = 0
                    for i, h in enumerate(heights + [0]):
        """),
            error="IndentationError",
            why="the sample ends right after a `for` line (cut off)",
        ),
        Sol(
            WRONG,
            "g",
            "each bar's rectangle extended to the right only",
            code("""
            class Solution:
                def largestRectangleArea(self, heights: List[int]) -> int:
                    n = len(heights)
                    best = 0
                    for i in range(n):
                        j = i
                        while j < n and heights[j] >= heights[i]:
                            j += 1
                        best = max(best, heights[i] * (j - i))
                    return best
        """),
            witness=[[3, 2]],
            expected=4,
            got=3,
            fails_examples=False,
            why="never extends a rectangle to the left of its bar; the examples do not need it",
        ),
    ],
)
