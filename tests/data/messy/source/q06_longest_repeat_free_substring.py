"""Longest substring without repeats: seven samples mishandle the empty string, each in its own way
(two share the answer 1), so on "" the right answer 0 has 7 of 14 votes; a one-token near-duplicate
pair (`>` vs `>=`) with the wrong one first; a sample that counts distinct letters and passes every
example."""

from __future__ import annotations

import random
import string

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

PRINTABLE = string.ascii_letters + string.digits + string.punctuation + " "


def small(rng: random.Random) -> Input:
    if rng.random() < 0.03:
        return [""]
    alphabet = rng.choice(["ab", "abc", "abcde", string.ascii_lowercase, PRINTABLE])
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))]


WINDOW = """
class Solution:
    def lengthOfLongestSubstring(self, s: str) -> int:
        # Sliding window over s: window_start is the first index of the current window and
        # last_seen maps every character to the last index where it appeared.
        if s is None:
            return 0
        n = len(s)
        if n == 0:
            return 0
        for ch in s:
            if ord(ch) < 32 or ord(ch) > 126:
                raise ValueError("unexpected character: " + repr(ch))
        # fast path: no character repeats at all
        if len(set(s)) == n:
            return n
        repeats = 0
        last_seen = {}
        window_start = 0
        best_length = 0
        best_start = 0
        for index in range(n):
            character = s[index]
            if character in last_seen and last_seen[character] COMPARE window_start:
                # the character repeats inside the window: move the start just past it
                window_start = last_seen[character] + 1
                repeats += 1
            last_seen[character] = index
            current_length = index - window_start + 1
            if current_length > best_length:
                best_length = current_length
                best_start = window_start
        # the substring itself, handy when debugging
        longest = s[best_start : best_start + best_length]
        if len(longest) != best_length:
            best_length = len(longest)
        stats = {"repeats": repeats, "start": best_start, "length": best_length, "text": longest}
        return stats["length"]
"""

SPEC = Spec(
    slug="longest-repeat-free-substring",
    qid=9506,
    title="Longest Repeat-Free Substring",
    difficulty="Medium",
    tags=[("Hash Table", "hash-table"), ("String", "string"), ("Sliding Window", "sliding-window")],
    method="lengthOfLongestSubstring",
    params=[("s", "string")],
    returns="integer",
    description="""
<p>Given a string <code>s</code>, find the longest <strong>substring</strong> (a contiguous, possibly empty run of characters of <code>s</code>) in which no character occurs twice, and return <em>its length</em>.</p>
""",
    examples=[
        Example(["tmmzuxt"], 5, 'The longest such substring is <code>"mzuxt"</code>.'),
        Example(["bbbb"], 1),
        Example(
            ["ab c!ab"], 5, 'For example <code>"ab c!"</code>; a sixth character would repeat one.'
        ),
    ],
    constraints=[
        "<code>0 &lt;= s.length &lt;= 5 * 10<sup>4</sup></code>",
        "<code>s</code> consists of English letters, digits, symbols and spaces.",
    ],
    reference=code("""
        class Solution:
            def lengthOfLongestSubstring(self, s: str) -> int:
                best = 0
                left = 0
                where = {}
                for right, ch in enumerate(s):
                    if ch in where and where[ch] >= left:
                        left = where[ch] + 1
                    where[ch] = right
                    best = max(best, right - left + 1)
                return best
    """),
    small=small,
    big={
        "n50k": (
            "5 * 10^4 random printable characters",
            lambda rng: ["".join(rng.choice(PRINTABLE) for _ in range(5 * 10**4))],
        )
    },
    plurality=Plurality(
        [""],
        "7/2/1/1/1/1/1",
        "6/2/1/1/1/1/1",
        "right answer 0: #0-#3 #6-#8; 1: #5 #10; IndexError, timeout, ValueError, null and "
        "RecursionError one each. The examples (none empty) only catch #6, which answers 0 here: "
        "among the samples that pass them the right answer still has no majority.",
    ),
    solutions=[
        Sol(
            CORRECT,
            "f",
            "sliding window with the last index of every character, O(n)",
            code("""
            class Solution:
                def lengthOfLongestSubstring(self, s: str) -> int:
                    last = {}
                    start = 0
                    best = 0
                    for i, ch in enumerate(s):
                        if last.get(ch, -1) >= start:
                            start = last[ch] + 1
                        last[ch] = i
                        best = max(best, i - start + 1)
                    return best
        """),
            key="last",
        ),
        Sol(
            RAMBLING,
            "g",
            "sliding window with a set, long comments and step-by-step prints",
            code('''
            import re
            import heapq
            from collections import defaultdict, Counter


            class Solution:
                def lengthOfLongestSubstring(self, s: str) -> int:
                    """
                    Sliding window technique.

                    We maintain a window [left, right] that contains no repeated characters.
                    When we add s[right] and it is already inside the window, we shrink the
                    window from the left until it is not. The answer is the largest window
                    size we ever see.

                    For example with s = "abcabcbb":
                        a -> ab -> abc -> (a repeats) bca -> cab -> abc -> cb -> b
                    The maximum is 3.

                    Each character enters and leaves the window at most once: O(n).
                    """
                    window = set()
                    left = 0
                    max_len = 0
                    for right in range(len(s)):
                        while s[right] in window:
                            window.remove(s[left])
                            left += 1
                        window.add(s[right])
                        max_len = max(max_len, right - left + 1)
                        print("window:", s[left : right + 1], "max so far:", max_len)
                    # Double-check edge cases: empty string -> 0, single char -> 1.
                    return max_len
        '''),
        ),
        Sol(
            SLOW,
            "a",
            "every substring from the longest down, checked with a set, O(n^3)",
            code("""
            class Solution:
                def lengthOfLongestSubstring(self, s: str) -> int:
                    n = len(s)
                    for length in range(n, 0, -1):
                        for start in range(n - length + 1):
                            piece = s[start : start + length]
                            if len(set(piece)) == length:
                                return length
                    return 0
        """),
            complexity="O(n^3)",
            slow_input="n50k",
            why="every substring longer than the answer is built and checked",
        ),
        Sol(
            SLOW,
            "b",
            "every start extended to the end of the string without stopping, O(n^2)",
            code("""
            class Solution:
                def lengthOfLongestSubstring(self, s: str) -> int:
                    best = 0
                    n = len(s)
                    for i in range(n):
                        seen = set()
                        ok = True
                        for j in range(i, n):
                            if s[j] in seen:
                                ok = False
                            seen.add(s[j])
                            if ok:
                                best = max(best, j - i + 1)
                    return best
        """),
            complexity="O(n^2)",
            slow_input="n50k",
            why="the inner loop runs to the end even after the window broke",
        ),
        Sol(
            RAISES,
            "c",
            "sliding window seeded with the first character",
            code("""
            class Solution:
                def lengthOfLongestSubstring(self, s: str) -> int:
                    best = 1
                    start = 0
                    last = {s[0]: 0}
                    for i in range(1, len(s)):
                        ch = s[i]
                        if ch in last and last[ch] >= start:
                            start = last[ch] + 1
                        last[ch] = i
                        best = max(best, i - start + 1)
                    return best
        """),
            witness=[""],
            error="IndexError",
            why="s[0] of the empty string",
        ),
        Sol(
            WRONG,
            "d",
            "sliding window whose best length starts at 1",
            code("""
            class Solution:
                def lengthOfLongestSubstring(self, s: str) -> int:
                    seen = {}
                    left = 0
                    longest = 1
                    for right, ch in enumerate(s):
                        if seen.get(ch, -1) >= left:
                            left = seen[ch] + 1
                        seen[ch] = right
                        longest = max(longest, right - left + 1)
                    return longest
        """),
            witness=[""],
            expected=0,
            got=1,
            fails_examples=False,
            why="answers 1 for the empty string",
        ),
        Sol(
            WRONG,
            "e",
            "sliding window, verbose; moves the start only past a strictly later repeat",
            code(WINDOW.replace("COMPARE", ">")),
            key="window",
            witness=["aa"],
            expected=1,
            got=2,
            fails_examples=True,
            why="`>` instead of `>=`: a repeat of the window's first character is not seen",
        ),
        Sol(
            NEAR_DUP,
            "f",
            "sliding window, verbose",
            code(WINDOW.replace("COMPARE", ">=")),
            dup_of="window",
            differs=True,
            diff="`last_seen[character] > window_start` -> `>=`",
            jaccard=0.9596,
        ),
        Sol(
            WRONG,
            "g",
            "number of distinct characters",
            code("""
            class Solution:
                def lengthOfLongestSubstring(self, s: str) -> int:
                    # a substring without repeats can contain each distinct character once
                    return len(set(s))
        """),
            witness=["xyyz"],
            expected=2,
            got=3,
            fails_examples=False,
            why="counts the distinct characters of the whole string; all three examples happen "
            "to agree",
        ),
        Sol(
            HANGING,
            "a",
            "binary search on the answer's length with a fixed-size window check",
            code("""
            class Solution:
                def lengthOfLongestSubstring(self, s: str) -> int:
                    def has_window(k):
                        count = {}
                        for i, ch in enumerate(s):
                            count[ch] = count.get(ch, 0) + 1
                            if i >= k:
                                out = s[i - k]
                                count[out] -= 1
                                if count[out] == 0:
                                    del count[out]
                            if i >= k - 1 and len(count) == k:
                                return True
                        return False

                    lo, hi = 1, len(s)
                    while lo != hi:
                        mid = (lo + hi + 1) // 2
                        if has_window(mid):
                            lo = mid
                        else:
                            hi = mid - 1
                    return lo
        """),
            witness=[""],
            why="for the empty string lo = 1 > hi = 0 and the loop never meets lo == hi",
        ),
        Sol(
            WRONG,
            "b",
            "set window with a shortcut for short strings",
            code("""
            class Solution:
                def lengthOfLongestSubstring(self, s: str) -> int:
                    if len(s) <= 1:
                        return 1
                    window = set()
                    left = best = 0
                    for right in range(len(s)):
                        while s[right] in window:
                            window.remove(s[left])
                            left += 1
                        window.add(s[right])
                        best = max(best, right - left + 1)
                    return best
        """),
            witness=[""],
            expected=0,
            got=1,
            fails_examples=False,
            why="the shortcut answers 1 for the empty string too (the same wrong answer as #5)",
        ),
        Sol(
            RAISES,
            "c",
            "sliding window that records every window length, then takes the maximum",
            code("""
            class Solution:
                def lengthOfLongestSubstring(self, s: str) -> int:
                    lengths = []
                    seen = {}
                    left = 0
                    for right, ch in enumerate(s):
                        if ch in seen and seen[ch] >= left:
                            left = seen[ch] + 1
                        seen[ch] = right
                        lengths.append(right - left + 1)
                    return max(lengths)
        """),
            witness=[""],
            error="ValueError",
            why="max() of an empty list",
        ),
        Sol(
            WRONG,
            "d",
            "sliding window with an early exit for the empty string that returns nothing",
            code("""
            class Solution:
                def lengthOfLongestSubstring(self, s: str) -> int:
                    if not s:
                        return
                    best, left, pos = 0, 0, {}
                    for i, c in enumerate(s):
                        if c in pos and pos[c] >= left:
                            left = pos[c] + 1
                        pos[c] = i
                        best = max(best, i - left + 1)
                    return best
        """),
            witness=[""],
            expected=0,
            got=None,
            fails_examples=False,
            why="a bare `return` answers null for the empty string",
        ),
        Sol(
            RAISES,
            "e",
            "recursion over suffixes, base case at length 1",
            code("""
            class Solution:
                def lengthOfLongestSubstring(self, s: str) -> int:
                    def best_from(t):
                        if len(t) == 1:
                            return 1
                        run = 0
                        seen = set()
                        for ch in t:
                            if ch in seen:
                                break
                            seen.add(ch)
                            run += 1
                        return max(run, best_from(t[1:]))

                    return best_from(s)
        """),
            witness=[""],
            error="RecursionError",
            why="the empty string never reaches the base case (and strings longer than the "
            "recursion limit cannot either)",
        ),
        Sol(
            NO_COMPILE,
            "f",
            "sliding window, cut off in the middle of the loop",
            code("""
            class Solution:
                def lengthOfLongestSubstring(self, s: str) -> int:
                    last = {}
                    left = best = 0
                    for i, ch in enumerate(s):
                        if ch in last and last[ch] >= left:
                            left = last[ch] + 1
                        last[ch] = i
                        best = max(best, i - left + 1
        """),
            error="SyntaxError",
            why="the sample ends before the closing parenthesis (cut off)",
        ),
    ],
)
