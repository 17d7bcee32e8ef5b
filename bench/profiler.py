"""Profiler benchmark: quicksilver's profiler against a Mercury-evaluator baseline, in one run.

Both sides profile the same solutions of the same tasks, interleaved (the order alternates per
solution and repeat, so drift of the machine hits both alike), one solution at a time:

- ``ours``: :func:`quicksilver.profiler.profile_solution` with the project's default
  :class:`~quicksilver.config.MeasureConfig` and :class:`~quicksilver.config.SandboxConfig`
  (cpu meter: the kernel's CPU clock of the sandboxed process, read by the host);
- ``baseline``: what the later Mercury evaluator does (seeds/mercury-eval-readme.txt): one
  sandboxed subprocess per solution that executes the solution and, for every test case, runs
  128 timed iterations of ``Solution().method(*copy.deepcopy(inputs))`` (the copy is outside the
  timed region), timing each call by ``resource.getrusage(RUSAGE_SELF)`` user+sys deltas, and
  reports the per-case mean and a CI95 of the mean (mean +- 1.96 sd / sqrt(n)); runtime = sum over
  cases of the per-case means. It runs under the same bubblewrap command line as ours, so process
  isolation costs the same, and judges the first iteration's output in-process, as Mercury does.

Measured for both: solutions profiled per minute (wall clock), the median over solutions of the
relative CI95 width (width / runtime), and the coefficient of variation of the runtimes of R
independent profiles of the same solution (median over solutions). A second table lists every
solution's runtime on both sides, so one can check that both rank the solutions the same way.

Run ``python bench/profiler.py`` (full, about 10 minutes on 2 cores) or ``--quick`` (a smoke run
under 2 minutes); ``--json OUT`` dumps every number. Results are recorded in docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from rich.console import Console
from rich.table import Table

from quicksilver.config import MeasureConfig, SandboxConfig
from quicksilver.machine import machine_info
from quicksilver.profiler import Case, ProfileTask, profile_solution
from quicksilver.sandbox import isolation as iso
from quicksilver.stats import coefficient_of_variation

log = logging.getLogger("bench.profiler")

Method = Literal["ours", "baseline"]
METHODS: tuple[Method, Method] = ("ours", "baseline")

BASELINE_ITERATIONS = 128  # per test case, as the Mercury evaluator
BASELINE_TIMEOUT_S = 600.0  # wall time for one baseline subprocess (generous: never hit here)
RESULT_MARK = "@@MERCURY-BASELINE@@"

SORTED_EVAL = (
    "def evaluate_offline(inputs, outputs, expected):\n"
    "    return sorted(outputs) == sorted(expected)\n"
)
DEFAULT_EVAL: str = ProfileTask("", "", ()).evaluate_offline  # outputs == expected


# ============================================================================ tasks


@dataclass(frozen=True)
class BenchTask:
    """A LeetCode-style task: seeded inputs, a trusted reference, solutions to profile."""

    task_id: str
    entry_point: str
    make_inputs: Callable[[random.Random], list[list[Any]]]
    reference: Callable[..., Any]
    solutions: dict[str, str]
    evaluate_offline: str = DEFAULT_EVAL
    note: str = ""

    def build(self, seed: int) -> ProfileTask:
        rng = random.Random(f"{self.task_id}:{seed}")
        cases = tuple(
            Case(inputs, self.reference(*json.loads(json.dumps(inputs))))
            for inputs in self.make_inputs(rng)
        )
        return ProfileTask(
            task_id=self.task_id,
            entry_point=self.entry_point,
            cases=cases,
            evaluate_offline=self.evaluate_offline,
        )


# ---------------------------------------------------------------------------- 1. two-sum


def _two_sum_ref(nums: list[int], target: int) -> list[int]:
    seen: dict[int, int] = {}
    for j, x in enumerate(nums):
        if target - x in seen:
            return [seen[target - x], j]
        seen[x] = j
    raise ValueError("no pair")


def _two_sum_inputs(rng: random.Random) -> list[list[Any]]:
    cases: list[list[Any]] = []
    # (n, where the pair sits): the brute force's cost depends on the first index.
    for n, lo, hi in ((1000, 0.9, 1.0), (2000, 0.4, 0.6), (5000, 0.0, 0.05)):
        while True:
            nums = rng.sample(range(-(10**6), 10**6), n)
            i = rng.randrange(int(lo * (n - 1)), max(int(hi * (n - 1)), int(lo * (n - 1)) + 1))
            j = rng.randrange(i + 1, n)
            target = nums[i] + nums[j]
            values = set(nums)
            pairs = sum(1 for x in nums if target - x in values and target - x != x) // 2
            if pairs == 1:
                cases.append([nums, target])
                break
    return cases


TWO_SUM = BenchTask(
    "two-sum",
    "twoSum",
    _two_sum_inputs,
    _two_sum_ref,
    {
        "brute-n2": """
class Solution:
    def twoSum(self, nums: List[int], target: int) -> List[int]:
        n = len(nums)
        for i in range(n):
            for j in range(i + 1, n):
                if nums[i] + nums[j] == target:
                    return [i, j]
        return []
""",
        "sort-2ptr": """
class Solution:
    def twoSum(self, nums: List[int], target: int) -> List[int]:
        order = sorted(range(len(nums)), key=lambda k: nums[k])
        lo, hi = 0, len(order) - 1
        while lo < hi:
            s = nums[order[lo]] + nums[order[hi]]
            if s == target:
                return sorted([order[lo], order[hi]])
            if s < target:
                lo += 1
            else:
                hi -= 1
        return []
""",
        "hashmap": """
class Solution:
    def twoSum(self, nums: List[int], target: int) -> List[int]:
        seen = {}
        for j, x in enumerate(nums):
            k = seen.get(target - x)
            if k is not None:
                return [k, j]
            seen[x] = j
        return []
""",
    },
    evaluate_offline=SORTED_EVAL,
)


# ---------------------------------------------------------------------------- 2. valid-anagram


def _anagram_ref(s: str, t: str) -> bool:
    return Counter(s) == Counter(t)


def _anagram_inputs(rng: random.Random) -> list[list[Any]]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    cases: list[list[Any]] = []
    for n, same in ((10_000, True), (50_000, True), (50_000, False)):
        s = "".join(rng.choice(letters) for _ in range(n))
        chars = list(s)
        rng.shuffle(chars)
        if not same:  # one letter changed: only a full count tells
            k = rng.randrange(n)
            chars[k] = "a" if chars[k] != "a" else "b"
        cases.append([s, "".join(chars)])
    return cases


VALID_ANAGRAM = BenchTask(
    "valid-anagram",
    "isAnagram",
    _anagram_inputs,
    _anagram_ref,
    {
        "sorting": """
class Solution:
    def isAnagram(self, s: str, t: str) -> bool:
        return sorted(s) == sorted(t)
""",
        "counter": """
class Solution:
    def isAnagram(self, s: str, t: str) -> bool:
        return Counter(s) == Counter(t)
""",
        "count-array-loop": """
class Solution:
    def isAnagram(self, s: str, t: str) -> bool:
        if len(s) != len(t):
            return False
        counts = [0] * 26
        for a, b in zip(s, t):
            counts[ord(a) - 97] += 1
            counts[ord(b) - 97] -= 1
        return not any(counts)
""",
    },
)


# ---------------------------------------------------------------------------- 3. climbing-stairs


def _stairs_ref(n: int) -> int:
    a, b = 1, 1
    for _ in range(n):
        a, b = b, a + b
    return a


CLIMBING_STAIRS = BenchTask(
    "climbing-stairs",
    "climbStairs",
    lambda rng: [[20], [35], [45]],  # LeetCode's constraint is n <= 45: microsecond calls
    _stairs_ref,
    {
        "memo-recursion": """
class Solution:
    def climbStairs(self, n: int) -> int:
        @lru_cache(maxsize=None)
        def ways(k: int) -> int:
            return 1 if k < 2 else ways(k - 1) + ways(k - 2)
        return ways(n)
""",
        "iteration": """
class Solution:
    def climbStairs(self, n: int) -> int:
        a, b = 1, 1
        for _ in range(n):
            a, b = b, a + b
        return a
""",
    },
    note="LeetCode caps n at 45: calls take microseconds (the getrusage resolution regime)",
)


# ---------------------------------------------------------------------------- 4. maximum-subarray


def _max_subarray_ref(nums: list[int]) -> int:
    best = cur = nums[0]
    for x in nums[1:]:
        cur = max(x, cur + x)
        best = max(best, cur)
    return best


MAX_SUBARRAY = BenchTask(
    "maximum-subarray",
    "maxSubArray",
    lambda rng: [[[rng.randint(-(10**4), 10**4) for _ in range(n)]] for n in (300, 700, 1000)],
    _max_subarray_ref,
    {
        "brute-n2": """
class Solution:
    def maxSubArray(self, nums: List[int]) -> int:
        best = nums[0]
        for i in range(len(nums)):
            s = 0
            for j in range(i, len(nums)):
                s += nums[j]
                if s > best:
                    best = s
        return best
""",
        "divide-conquer": """
class Solution:
    def maxSubArray(self, nums: List[int]) -> int:
        def solve(lo: int, hi: int) -> int:
            if lo == hi:
                return nums[lo]
            mid = (lo + hi) // 2
            left_best, s = -math.inf, 0
            for k in range(mid, lo - 1, -1):
                s += nums[k]
                left_best = max(left_best, s)
            right_best, s = -math.inf, 0
            for k in range(mid + 1, hi + 1):
                s += nums[k]
                right_best = max(right_best, s)
            return max(solve(lo, mid), solve(mid + 1, hi), left_best + right_best)
        return solve(0, len(nums) - 1)
""",
        "kadane": """
class Solution:
    def maxSubArray(self, nums: List[int]) -> int:
        best = cur = nums[0]
        for x in nums[1:]:
            cur = x if cur < 0 else cur + x
            if cur > best:
                best = cur
        return best
""",
    },
)


# ---------------------------------------------------------------------------- 5. top-k-frequent


def _top_k_ref(nums: list[int], k: int) -> list[int]:
    counts = Counter(nums).most_common()
    if k < len(counts) and counts[k - 1][1] == counts[k][1]:
        raise ValueError("top-k is not unique")
    return sorted(v for v, _ in counts[:k])


def _top_k_inputs(rng: random.Random) -> list[list[Any]]:
    cases: list[list[Any]] = []
    for n_distinct, k in ((300, 1), (1000, 10), (2000, 50)):
        values = rng.sample(range(-(10**4), 10**4), n_distinct)
        # the top k counts are distinct and above every other count: a unique answer
        counts = [60 + 2 * (k - r) for r in range(k)] + [
            rng.randint(1, 40) for _ in range(n_distinct - k)
        ]
        nums = [v for v, c in zip(values, counts, strict=True) for _ in range(c)]
        rng.shuffle(nums)
        cases.append([nums, k])
    return cases


TOP_K = BenchTask(
    "top-k-frequent",
    "topKFrequent",
    _top_k_inputs,
    _top_k_ref,
    {
        "sort-by-count": """
class Solution:
    def topKFrequent(self, nums: List[int], k: int) -> List[int]:
        counts = {}
        for x in nums:
            counts[x] = counts.get(x, 0) + 1
        return [v for v, _ in sorted(counts.items(), key=lambda p: -p[1])[:k]]
""",
        "heap": """
class Solution:
    def topKFrequent(self, nums: List[int], k: int) -> List[int]:
        counts = Counter(nums)
        return heapq.nlargest(k, counts.keys(), key=counts.get)
""",
        "bucket": """
class Solution:
    def topKFrequent(self, nums: List[int], k: int) -> List[int]:
        counts = Counter(nums)
        buckets = [[] for _ in range(len(nums) + 1)]
        for v, c in counts.items():
            buckets[c].append(v)
        out = []
        for c in range(len(buckets) - 1, 0, -1):
            for v in buckets[c]:
                out.append(v)
                if len(out) == k:
                    return out
        return out
""",
    },
    evaluate_offline=SORTED_EVAL,
)


# ---------------------------------------------------------------------------- 6. longest-substring


def _longest_sub_ref(s: str) -> int:
    last: dict[str, int] = {}
    start = best = 0
    for i, ch in enumerate(s):
        if last.get(ch, -1) >= start:
            start = last[ch] + 1
        last[ch] = i
        best = max(best, i - start + 1)
    return best


def _longest_sub_inputs(rng: random.Random) -> list[list[Any]]:
    alphabets = (
        "abcde",
        "abcdefghijklmnopqrstuvwxyz",
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 !?",
    )
    return [["".join(rng.choice(a) for _ in range(5000))] for a in alphabets]


LONGEST_SUBSTRING = BenchTask(
    "longest-substring-without-repeating",
    "lengthOfLongestSubstring",
    _longest_sub_inputs,
    _longest_sub_ref,
    {
        "brute-restart": """
class Solution:
    def lengthOfLongestSubstring(self, s: str) -> int:
        best = 0
        for i in range(len(s)):
            seen = set()
            for ch in s[i:]:
                if ch in seen:
                    break
                seen.add(ch)
            best = max(best, len(seen))
        return best
""",
        "window-set": """
class Solution:
    def lengthOfLongestSubstring(self, s: str) -> int:
        seen = set()
        lo = best = 0
        for hi, ch in enumerate(s):
            while ch in seen:
                seen.remove(s[lo])
                lo += 1
            seen.add(ch)
            best = max(best, hi - lo + 1)
        return best
""",
        "window-lastpos": """
class Solution:
    def lengthOfLongestSubstring(self, s: str) -> int:
        last = {}
        start = best = 0
        for i, ch in enumerate(s):
            p = last.get(ch, -1)
            if p >= start:
                start = p + 1
            last[ch] = i
            if i - start + 1 > best:
                best = i - start + 1
        return best
""",
    },
)


# ---------------------------------------------------------------------------- 7. number-of-islands


def _islands_ref(grid: list[list[str]]) -> int:
    rows, cols = len(grid), len(grid[0])
    seen: set[tuple[int, int]] = set()
    count = 0
    for r in range(rows):
        for c in range(cols):
            if grid[r][c] == "1" and (r, c) not in seen:
                count += 1
                stack = [(r, c)]
                seen.add((r, c))
                while stack:
                    y, x = stack.pop()
                    for ny, nx in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                        if (
                            0 <= ny < rows
                            and 0 <= nx < cols
                            and grid[ny][nx] == "1"
                            and (ny, nx) not in seen
                        ):
                            seen.add((ny, nx))
                            stack.append((ny, nx))
    return count


def _islands_inputs(rng: random.Random) -> list[list[Any]]:
    # Densities well below percolation (0.59): islands stay small, so the recursive DFS stays
    # far from Python's recursion limit of 1000.
    shapes = ((100, 100, 0.35), (50, 200, 0.45), (100, 100, 0.50))
    return [
        [[["1" if rng.random() < p else "0" for _ in range(c)] for _ in range(r)]]
        for r, c, p in shapes
    ]


ISLANDS = BenchTask(
    "number-of-islands",
    "numIslands",
    _islands_inputs,
    _islands_ref,
    {
        "dfs-recursive": """
class Solution:
    def numIslands(self, grid: List[List[str]]) -> int:
        rows, cols = len(grid), len(grid[0])
        def sink(r: int, c: int) -> None:
            if r < 0 or c < 0 or r >= rows or c >= cols or grid[r][c] != "1":
                return
            grid[r][c] = "0"
            sink(r + 1, c)
            sink(r - 1, c)
            sink(r, c + 1)
            sink(r, c - 1)
        count = 0
        for r in range(rows):
            for c in range(cols):
                if grid[r][c] == "1":
                    count += 1
                    sink(r, c)
        return count
""",
        "bfs-deque": """
class Solution:
    def numIslands(self, grid: List[List[str]]) -> int:
        rows, cols = len(grid), len(grid[0])
        count = 0
        for r in range(rows):
            for c in range(cols):
                if grid[r][c] != "1":
                    continue
                count += 1
                grid[r][c] = "0"
                queue = deque([(r, c)])
                while queue:
                    y, x = queue.popleft()
                    for ny, nx in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                        if 0 <= ny < rows and 0 <= nx < cols and grid[ny][nx] == "1":
                            grid[ny][nx] = "0"
                            queue.append((ny, nx))
        return count
""",
        "union-find": """
class Solution:
    def numIslands(self, grid: List[List[str]]) -> int:
        rows, cols = len(grid), len(grid[0])
        parent = list(range(rows * cols))
        def find(a: int) -> int:
            while parent[a] != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            return a
        land = 0
        for r in range(rows):
            for c in range(cols):
                if grid[r][c] != "1":
                    continue
                land += 1
                for nr, nc in ((r - 1, c), (r, c - 1)):
                    if nr >= 0 and nc >= 0 and grid[nr][nc] == "1":
                        a, b = find(r * cols + c), find(nr * cols + nc)
                        if a != b:
                            parent[a] = b
                            land -= 1
        return land
""",
    },
)


# ---------------------------------------------------------------------------- 8. sort-an-array


SORT_ARRAY = BenchTask(
    "sort-an-array",
    "sortArray",
    lambda rng: [
        [[rng.randint(-(5 * 10**4), 5 * 10**4) for _ in range(n)]] for n in (1000, 5000, 10_000)
    ],
    sorted,
    {
        "builtin": """
class Solution:
    def sortArray(self, nums: List[int]) -> List[int]:
        return sorted(nums)
""",
        "merge-recursive": """
class Solution:
    def sortArray(self, nums: List[int]) -> List[int]:
        if len(nums) <= 1:
            return nums
        mid = len(nums) // 2
        left, right = self.sortArray(nums[:mid]), self.sortArray(nums[mid:])
        out, i, j = [], 0, 0
        while i < len(left) and j < len(right):
            if left[i] <= right[j]:
                out.append(left[i])
                i += 1
            else:
                out.append(right[j])
                j += 1
        out.extend(left[i:])
        out.extend(right[j:])
        return out
""",
        "heapsort": """
class Solution:
    def sortArray(self, nums: List[int]) -> List[int]:
        heap = list(nums)
        heapify(heap)
        return [heappop(heap) for _ in range(len(heap))]
""",
    },
)


ALL_TASKS: tuple[BenchTask, ...] = (
    TWO_SUM,
    VALID_ANAGRAM,
    CLIMBING_STAIRS,
    MAX_SUBARRAY,
    TOP_K,
    LONGEST_SUBSTRING,
    ISLANDS,
    SORT_ARRAY,
)
QUICK_TASKS = ("valid-anagram", "climbing-stairs", "sort-an-array")


# ============================================================================ the baseline

# Runs inside bubblewrap as ``python -I -S -c SCRIPT``; the request arrives on stdin. The names
# Mercury injects into a solution's namespace come from the same prelude as ours (bound
# read-only at /qs/runtime), so both sides load solutions into identical namespaces.
BASELINE_SCRIPT = (
    r"""
import copy, json, math, resource, sys, time
sys.path.insert(0, "/qs/runtime")
from prelude import build_namespace

MARK = "@MARK@"
req = json.loads(sys.stdin.read())
ns = build_namespace()
exec(req["evaluate_offline"], ns)
evaluate = ns["evaluate_offline"]
exec(compile(req["code"], "<solution>", "exec"), ns)
Solution = ns["Solution"]
entry = req["entry_point"]
iterations = req["iterations"]
getrusage, SELF, clock = resource.getrusage, resource.RUSAGE_SELF, time.perf_counter


def ci95(xs):
    n = len(xs)
    mean = sum(xs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def emit(obj):
    sys.stdout.write("\n" + MARK + json.dumps(obj) + "\n")
    sys.stdout.flush()


cases = []
start = getrusage(SELF)
for index, case in enumerate(req["cases"]):
    cpu, wall = [], []
    for it in range(iterations):
        args = copy.deepcopy(case["input"])
        w0 = clock()
        r0 = getrusage(SELF)
        out = getattr(Solution(), entry)(*args)
        r1 = getrusage(SELF)
        w1 = clock()
        cpu.append((r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime))
        wall.append(w1 - w0)
        if it == 0 and not evaluate(args, out, case["expected"]):
            emit({"status": "failed", "case": index})
            sys.exit(0)
    mean, low, high = ci95(cpu)
    wmean, wlow, whigh = ci95(wall)
    ticks = [round(x * 1e6) for x in cpu]
    positive = [t for t in ticks if t > 0]
    cases.append({
        "mean": mean, "ci_low": low, "ci_high": high,
        "wall_mean": wmean, "wall_ci_low": wlow, "wall_ci_high": whigh,
        "n": len(cpu), "zeros": len(cpu) - len(positive),
        "min_positive_us": min(positive) if positive else None,
        "median_us": sorted(ticks)[len(ticks) // 2],
    })
end = getrusage(SELF)
loop_cpu = (end.ru_utime + end.ru_stime) - (start.ru_utime + start.ru_stime)
emit({"status": "passed", "cases": cases, "measure_cpu_seconds": loop_cpu})
"""
).replace("@MARK@", RESULT_MARK)


def baseline_argv(seccomp_fd: int) -> list[str]:
    """The same bubblewrap command line as the profiler's probe, running BASELINE_SCRIPT;
    ``seccomp_fd`` (``iso.seccomp_fd()``) must be passed to bwrap."""
    return [
        *iso.bwrap_argv(seccomp_fd=seccomp_fd),
        str(iso.interpreter()),
        "-I",
        "-S",
        "-c",
        BASELINE_SCRIPT,
    ]


@dataclass
class Profile:
    """One profile of one solution by one method (the numbers both methods share)."""

    method: Method
    task_id: str
    solution: str
    repeat: int
    status: str
    wall_s: float
    host_cpu_s: float  # CPU of this bench process (ours runs its host side here)
    machine_ticks: tuple[int, int]  # (busy, total) jiffies of all cores during the profile
    runtime: float | None = None  # seconds
    ci_low: float | None = None
    ci_high: float | None = None
    error: str | None = None
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def rel_ci_width(self) -> float | None:
        if self.runtime is None or self.ci_low is None or self.ci_high is None:
            return None
        return (self.ci_high - self.ci_low) / self.runtime if self.runtime > 0 else math.inf


def _host_cpu() -> float:
    # RUSAGE_CHILDREN would not do for the sandboxes: a sandbox is killed with its process
    # group, so bwrap never reaps the interpreter and the kernel never adds its CPU to ours.
    me = resource.getrusage(resource.RUSAGE_SELF)
    return me.ru_utime + me.ru_stime


def _machine_ticks() -> tuple[int, int, int]:
    """(busy, total, steal) jiffies of all cores, from /proc/stat (zeros if unavailable)."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return 0, 0, 0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    total = sum(fields[:8])
    steal = fields[7] if len(fields) > 7 else 0
    return total - idle, total, steal


class _Clock:
    """Wall time, this process's CPU and the machine's load over one profile."""

    def __init__(self) -> None:
        self.t0, self.cpu0, self.ticks0 = time.perf_counter(), _host_cpu(), _machine_ticks()

    def stop(self) -> tuple[float, float, tuple[int, int]]:
        wall, cpu = time.perf_counter() - self.t0, _host_cpu() - self.cpu0
        busy1, total1, _ = _machine_ticks()
        return wall, cpu, (busy1 - self.ticks0[0], total1 - self.ticks0[1])


def run_baseline(task: ProfileTask, code: str, name: str, repeat: int) -> Profile:
    request = json.dumps(
        {
            "code": code,
            "entry_point": task.entry_point,
            "evaluate_offline": task.evaluate_offline,
            "iterations": BASELINE_ITERATIONS,
            "cases": [{"input": c.inputs, "expected": c.expected} for c in task.cases],
        }
    )
    clock = _Clock()
    seccomp_fd = iso.seccomp_fd()
    try:
        proc = subprocess.run(
            baseline_argv(seccomp_fd),
            input=request.encode(),
            capture_output=True,
            timeout=BASELINE_TIMEOUT_S,
            check=False,
            pass_fds=(seccomp_fd,),
        )
    except subprocess.TimeoutExpired:
        return Profile("baseline", task.task_id, name, repeat, "timeout", *clock.stop())
    finally:
        os.close(seccomp_fd)
    wall, cpu, busy = clock.stop()
    lines = [ln for ln in proc.stdout.decode(errors="replace").splitlines() if ln]
    marked = [ln[len(RESULT_MARK) :] for ln in lines if ln.startswith(RESULT_MARK)]
    if proc.returncode != 0 or not marked:
        err = proc.stderr.decode(errors="replace").strip()[-300:]
        return Profile(
            "baseline", task.task_id, name, repeat, "error", wall, cpu, busy, error=err or "?"
        )
    result = json.loads(marked[-1])
    if result["status"] != "passed":
        return Profile(
            "baseline",
            task.task_id,
            name,
            repeat,
            result["status"],
            wall,
            cpu,
            busy,
            error=str(result),
        )
    cases = result["cases"]
    return Profile(
        "baseline",
        task.task_id,
        name,
        repeat,
        "passed",
        wall,
        cpu,
        busy,
        runtime=sum(c["mean"] for c in cases),
        ci_low=sum(c["ci_low"] for c in cases),
        ci_high=sum(c["ci_high"] for c in cases),
        detail={
            "cases": cases,
            "measure_cpu_seconds": result["measure_cpu_seconds"],
            "wall_runtime": sum(c["wall_mean"] for c in cases),
            "wall_ci": [
                sum(c["wall_ci_low"] for c in cases),
                sum(c["wall_ci_high"] for c in cases),
            ],
        },
    )


def run_ours(
    task: ProfileTask,
    code: str,
    name: str,
    repeat: int,
    measure: MeasureConfig,
    isolation: iso.Isolation,
) -> Profile:
    clock = _Clock()
    res = profile_solution(
        task, code, sandbox=SandboxConfig(), measure=measure, isolation=isolation
    )
    wall, cpu, busy = clock.stop()
    prof = Profile("ours", task.task_id, name, repeat, res.status, wall, cpu, busy, error=res.error)
    if res.passed and res.runtime is not None and res.runtime_ci is not None:
        prof.runtime = res.runtime
        prof.ci_low, prof.ci_high = res.runtime_ci
        prof.detail = {
            "measure_cpu_seconds": res.measure_cpu_seconds,
            "window_overhead": res.window_overhead,
            "load_cost": res.load_cost,
            "cases": [
                {
                    "median": c.median,
                    "ci_low": c.ci_low,
                    "ci_high": c.ci_high,
                    "rounds": c.rounds,
                    "calls_per_window": c.calls_per_window,
                    "converged": c.converged,
                    "charged": c.charged,
                }
                for c in res.cases
            ],
        }
    return prof


# ============================================================================ summary


@dataclass
class SolutionSummary:
    task_id: str
    solution: str
    runtime: dict[str, float | None]  # median over the R profiles
    cv: dict[str, float | None]
    rel_ci: dict[str, float | None]  # median over the R profiles
    cross_coverage: dict[str, float | None]
    wall: dict[str, float]  # mean wall seconds per profile
    failures: dict[str, int]


def _median(xs: Sequence[float]) -> float | None:
    return statistics.median(xs) if xs else None


def _cross_coverage(profiles: Sequence[Profile]) -> float | None:
    """Share of ordered pairs (i != j) whose runtime j lies inside profile i's CI95."""
    ok = [p for p in profiles if p.runtime is not None]
    hits = total = 0
    for a in ok:
        for b in ok:
            if a is b or a.ci_low is None or a.ci_high is None or b.runtime is None:
                continue
            total += 1
            hits += a.ci_low <= b.runtime <= a.ci_high
    return hits / total if total else None


def summarise_solution(task_id: str, name: str, profiles: Sequence[Profile]) -> SolutionSummary:
    s = SolutionSummary(task_id, name, {}, {}, {}, {}, {}, {})
    for method in METHODS:
        mine = [p for p in profiles if p.method == method]
        ok = [p for p in mine if p.status == "passed" and p.runtime is not None]
        runtimes = [p.runtime for p in ok if p.runtime is not None]
        widths = [w for p in ok if (w := p.rel_ci_width) is not None]
        s.runtime[method] = _median(runtimes)
        s.cv[method] = coefficient_of_variation(runtimes) if len(runtimes) >= 2 else None
        s.rel_ci[method] = _median(widths)
        s.cross_coverage[method] = _cross_coverage(ok)
        s.wall[method] = statistics.fmean(p.wall_s for p in mine) if mine else 0.0
        s.failures[method] = len(mine) - len(ok)
    return s


def _ranks(values: Sequence[float]) -> list[int]:
    order = sorted(range(len(values)), key=lambda k: values[k])
    ranks = [0] * len(values)
    for r, k in enumerate(order):
        ranks[k] = r + 1
    return ranks


def summarise(
    profiles: Sequence[Profile], solutions: Sequence[SolutionSummary]
) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for method in METHODS:
        mine = [p for p in profiles if p.method == method]
        wall = sum(p.wall_s for p in mine)
        host_cpu = [p.host_cpu_s for p in mine]
        measure_cpu = [
            float(p.detail["measure_cpu_seconds"])
            for p in mine
            if p.detail.get("measure_cpu_seconds") is not None
        ]
        busy_ticks = sum(p.machine_ticks[0] for p in mine)
        total_ticks = sum(p.machine_ticks[1] for p in mine)
        near = far = counted = 0
        for sol in solutions:
            med = sol.runtime[method]
            if not med:
                continue
            for p in mine:
                if p.task_id == sol.task_id and p.solution == sol.solution and p.runtime:
                    counted += 1
                    near += abs(p.runtime / med - 1) <= 0.05
                    far += p.runtime / med >= 1.3
        wall_widths = [
            (p.detail["wall_ci"][1] - p.detail["wall_ci"][0]) / p.detail["wall_runtime"]
            for p in mine
            if p.detail.get("wall_ci") and p.detail.get("wall_runtime")
        ]
        cvs = [v for s in solutions if (v := s.cv[method]) is not None]
        widths = [v for s in solutions if (v := s.rel_ci[method]) is not None]
        cover = [v for s in solutions if (v := s.cross_coverage[method]) is not None]
        out[method] = {
            "profiles": len(mine),
            "failed_profiles": sum(p.status != "passed" for p in mine),
            "wall_seconds": wall,
            "solutions_per_minute": 60 * len(mine) / wall if wall > 0 else None,
            "wall_seconds_per_solution": wall / len(mine) if mine else None,
            "measure_cpu_seconds_per_solution": statistics.fmean(measure_cpu)
            if measure_cpu
            else None,
            "host_cpu_seconds_per_solution": statistics.fmean(host_cpu) if host_cpu else None,
            "machine_busy_share": busy_ticks / total_ticks if total_ticks > 0 else None,
            "median_rel_ci95_width_wallclock": _median(wall_widths),
            "median_rel_ci95_width": _median(widths),
            "max_rel_ci95_width": max(widths) if widths else None,
            "median_cv": _median(cvs),
            "p90_cv": sorted(cvs)[min(len(cvs) - 1, math.ceil(0.9 * len(cvs)) - 1)]
            if cvs
            else None,
            "max_cv": max(cvs) if cvs else None,
            "median_cross_run_coverage": _median(cover),
            "share_within_5pct_of_median": near / counted if counted else None,
            "share_slower_1_3x_median": far / counted if counted else None,
        }
    ours_ps = [p for p in profiles if p.method == "ours" and p.detail.get("cases")]
    rounds = [c["rounds"] for p in ours_ps for c in p.detail["cases"]]
    calls = [c["rounds"] * c["calls_per_window"] for p in ours_ps for c in p.detail["cases"]]
    out["ours"]["median_rounds_per_case"] = _median(rounds)
    out["ours"]["median_timed_calls_per_case"] = _median(calls)
    out["baseline"]["median_rounds_per_case"] = BASELINE_ITERATIONS
    out["baseline"]["median_timed_calls_per_case"] = BASELINE_ITERATIONS
    base_cases = [c for p in profiles if p.method == "baseline" for c in p.detail.get("cases", [])]
    positive = [c["min_positive_us"] for c in base_cases if c["min_positive_us"] is not None]
    n_iter = sum(c["n"] for c in base_cases)
    out["baseline"]["getrusage_min_positive_delta_us"] = min(positive) if positive else None
    out["baseline"]["getrusage_zero_share"] = (
        sum(c["zeros"] for c in base_cases) / n_iter if n_iter else None
    )
    # rank agreement: within each task, do both methods order the solutions the same way?
    by_task: dict[str, list[SolutionSummary]] = {}
    for s in solutions:
        by_task.setdefault(s.task_id, []).append(s)
    same = pairs = concordant = 0
    for group in by_task.values():
        if any(s.runtime[m] is None for s in group for m in METHODS):
            continue
        ours = [float(s.runtime["ours"] or 0.0) for s in group]
        base = [float(s.runtime["baseline"] or 0.0) for s in group]
        same += _ranks(ours) == _ranks(base)
        for a in range(len(group)):
            for b in range(a + 1, len(group)):
                pairs += 1
                concordant += (ours[a] - ours[b]) * (base[a] - base[b]) > 0
    out["agreement"] = {
        "tasks": len(by_task),
        "tasks_same_order": same,
        "solution_pairs": pairs,
        "concordant_pairs": concordant,
    }
    return out


# ============================================================================ output


def fmt_time(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds >= 1:
        return f"{seconds:.3f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.3f} ms"
    return f"{seconds * 1e6:.2f} µs"


def fmt_pct(x: float | None, digits: int = 2) -> str:
    return "-" if x is None else f"{100 * x:.{digits}f}%"


def fmt_num(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _ratio(a: float | None, b: float | None) -> str:
    if a is None or b is None or b == 0:
        return "-"
    return f"{a / b:.2f}x"


def summary_table(summary: dict[str, dict[str, Any]], repeats: int) -> Table:
    o, b = summary["ours"], summary["baseline"]
    t = Table(title="Profiler vs Mercury-style baseline (same tasks, same run)")
    t.add_column("metric")
    t.add_column("ours", justify="right")
    t.add_column("baseline", justify="right")
    t.add_column("ours / baseline", justify="right")
    rows: list[tuple[str, str, str, str]] = [
        ("profiles (solutions x repeats)", str(o["profiles"]), str(b["profiles"]), ""),
        ("failed profiles", str(o["failed_profiles"]), str(b["failed_profiles"]), ""),
        (
            "wall time, all profiles",
            f"{o['wall_seconds']:.1f} s",
            f"{b['wall_seconds']:.1f} s",
            _ratio(o["wall_seconds"], b["wall_seconds"]),
        ),
        (
            "solutions profiled per minute",
            fmt_num(o["solutions_per_minute"]),
            fmt_num(b["solutions_per_minute"]),
            _ratio(o["solutions_per_minute"], b["solutions_per_minute"]),
        ),
        (
            "wall seconds per solution (mean)",
            fmt_num(o["wall_seconds_per_solution"], 2),
            fmt_num(b["wall_seconds_per_solution"], 2),
            _ratio(o["wall_seconds_per_solution"], b["wall_seconds_per_solution"]),
        ),
        (
            "measurement CPU s per solution (rounds, copies incl.)",
            fmt_num(o["measure_cpu_seconds_per_solution"], 2),
            fmt_num(b["measure_cpu_seconds_per_solution"], 2),
            _ratio(o["measure_cpu_seconds_per_solution"], b["measure_cpu_seconds_per_solution"]),
        ),
        (
            "host-side CPU s per solution (bench process)",
            fmt_num(o["host_cpu_seconds_per_solution"], 2),
            fmt_num(b["host_cpu_seconds_per_solution"], 2),
            "",
        ),
        (
            "median relative CI95 width",
            fmt_pct(o["median_rel_ci95_width"]),
            fmt_pct(b["median_rel_ci95_width"]),
            _ratio(o["median_rel_ci95_width"], b["median_rel_ci95_width"]),
        ),
        (
            "  baseline's CI from wall-clock times instead (README)",
            "",
            fmt_pct(b["median_rel_ci95_width_wallclock"]),
            "",
        ),
        (
            "worst relative CI95 width",
            fmt_pct(o["max_rel_ci95_width"]),
            fmt_pct(b["max_rel_ci95_width"]),
            "",
        ),
        (
            f"median CV of runtime over {repeats} profiles",
            fmt_pct(o["median_cv"]),
            fmt_pct(b["median_cv"]),
            _ratio(o["median_cv"], b["median_cv"]),
        ),
        (
            "all cores busy during the profiles (/proc/stat)",
            fmt_pct(o["machine_busy_share"], 0),
            fmt_pct(b["machine_busy_share"], 0),
            "",
        ),
        (
            "profiles within ±5% of their solution's median",
            fmt_pct(o["share_within_5pct_of_median"], 0),
            fmt_pct(b["share_within_5pct_of_median"], 0),
            "",
        ),
        (
            "profiles >= 1.3x their solution's median",
            fmt_pct(o["share_slower_1_3x_median"], 0),
            fmt_pct(b["share_slower_1_3x_median"], 0),
            "",
        ),
        ("P90 CV over solutions", fmt_pct(o["p90_cv"]), fmt_pct(b["p90_cv"]), ""),
        ("worst CV over solutions", fmt_pct(o["max_cv"]), fmt_pct(b["max_cv"]), ""),
        (
            "cross-run CI coverage (median)",
            fmt_pct(o["median_cross_run_coverage"], 0),
            fmt_pct(b["median_cross_run_coverage"], 0),
            "",
        ),
        (
            "timed rounds per case (median)",
            fmt_num(o["median_rounds_per_case"], 0),
            str(b["median_rounds_per_case"]),
            "",
        ),
        (
            "timed calls per case (median)",
            fmt_num(o["median_timed_calls_per_case"], 0),
            str(b["median_timed_calls_per_case"]),
            "",
        ),
    ]
    for row in rows:
        t.add_row(*row)
    return t


def solutions_table(solutions: Sequence[SolutionSummary]) -> Table:
    t = Table(title="Per solution: median runtime over the repeats (CV across repeats)")
    for name, justify in (
        ("task", "left"),
        ("solution", "left"),
        ("ours", "right"),
        ("CV", "right"),
        ("rel CI", "right"),
        ("baseline", "right"),
        ("CV", "right"),
        ("rel CI", "right"),
        ("ours/base", "right"),
        ("rank o/b", "center"),
        ("wall o / b", "right"),
    ):
        t.add_column(name, justify=justify)  # type: ignore[arg-type]
    by_task: dict[str, list[SolutionSummary]] = {}
    for s in solutions:
        by_task.setdefault(s.task_id, []).append(s)
    for task_id, group in by_task.items():
        ranks: dict[str, list[int]] = {}
        for m in METHODS:
            vals = [s.runtime[m] for s in group]
            ranks[m] = _ranks([v if v is not None else math.inf for v in vals])
        for k, s in enumerate(group):
            fails = "".join(f" ({s.failures[m]} failed)" for m in METHODS if s.failures[m])
            t.add_row(
                task_id if k == 0 else "",
                s.solution + fails,
                fmt_time(s.runtime["ours"]),
                fmt_pct(s.cv["ours"]),
                fmt_pct(s.rel_ci["ours"]),
                fmt_time(s.runtime["baseline"]),
                fmt_pct(s.cv["baseline"]),
                fmt_pct(s.rel_ci["baseline"]),
                _ratio(s.runtime["ours"], s.runtime["baseline"]),
                f"{ranks['ours'][k]} / {ranks['baseline'][k]}",
                f"{s.wall['ours']:.2f} / {s.wall['baseline']:.2f} s",
            )
        t.add_section()
    return t


# ============================================================================ main


def library_revision() -> str:
    """The git commit of the profiled library, with ``+dirty`` if quicksilver/ has edits."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--", "quicksilver"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+dirty" if dirty else "")


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--repeats", type=int, default=None, help="profiles per solution (default 5)")
    p.add_argument("--quick", action="store_true", help="3 tasks, 3 repeats: a smoke run")
    p.add_argument("--tasks", default=None, help="comma-separated task ids (default: all)")
    p.add_argument("--seed", type=int, default=0, help="seed of the generated test inputs")
    p.add_argument("--json", type=Path, default=None, metavar="OUT", help="dump the numbers")
    p.add_argument("-v", "--verbose", action="store_true")
    return p.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    repeats = args.repeats or (3 if args.quick else 5)
    if repeats < 2:
        log.error("--repeats must be at least 2 (a CV needs two profiles)")
        return 2
    wanted = args.tasks.split(",") if args.tasks else (list(QUICK_TASKS) if args.quick else None)
    tasks = [t for t in ALL_TASKS if wanted is None or t.task_id in wanted]
    if wanted is not None and len(tasks) != len(wanted):
        known = ", ".join(t.task_id for t in ALL_TASKS)
        log.error("unknown task in %s; known: %s", wanted, known)
        return 2

    console = Console(width=None if sys.stdout.isatty() else 160)
    measure = MeasureConfig()
    isolation = iso.resolve(SandboxConfig())
    machine = machine_info()
    revision = library_revision()
    console.print(f"[bold]quicksilver[/] at {revision}")
    console.print(
        f"[bold]machine[/]: {machine['cpu']}, {machine['cores']} cores, kernel "
        f"{machine['kernel']}, Python {machine['python']} (machine_id {machine['machine_id']})"
    )
    console.print(
        f"[bold]ours[/]: profile_solution with the default MeasureConfig "
        f"(meter={measure.meter}, min_rounds={measure.min_rounds}, "
        f"max_rounds={measure.max_rounds}, target_rel_ci={measure.target_rel_ci}, "
        f"budget_seconds={measure.budget_seconds}, "
        f"window_target_ms={measure.window_target_ms}); isolation: {isolation.mode} "
        f"({isolation.detail})"
    )
    console.print(
        f"[bold]baseline[/]: Mercury-style, {BASELINE_ITERATIONS} iterations per case, "
        "getrusage(RUSAGE_SELF) user+sys per call, mean and mean +- 1.96 sd/sqrt(n), "
        "same bubblewrap argv"
    )

    built: list[tuple[ProfileTask, str, str]] = []
    for bt in tasks:
        pt = bt.build(args.seed)
        for name, code in bt.solutions.items():
            built.append((pt, name, code))
    console.print(
        f"{len(tasks)} tasks, {len(built)} solutions, {repeats} profiles each per method "
        f"({2 * repeats * len(built)} profiles)"
    )

    profiles: list[Profile] = []
    started, ticks0 = time.perf_counter(), _machine_ticks()
    for rep in range(repeats):
        for k, (pt, name, code) in enumerate(built):
            order: tuple[Method, ...] = METHODS if (rep + k) % 2 == 0 else METHODS[::-1]
            for method in order:
                if method == "ours":
                    prof = run_ours(pt, code, name, rep, measure, isolation)
                else:
                    prof = run_baseline(pt, code, name, rep)
                profiles.append(prof)
                log.info(
                    "rep %d/%d %-8s %s/%s: %s runtime=%s ci=[%s, %s] wall=%.2fs%s",
                    rep + 1,
                    repeats,
                    method,
                    pt.task_id,
                    name,
                    prof.status,
                    fmt_time(prof.runtime),
                    fmt_time(prof.ci_low),
                    fmt_time(prof.ci_high),
                    prof.wall_s,
                    f" error={prof.error}" if prof.error else "",
                )
    elapsed, ticks1 = time.perf_counter() - started, _machine_ticks()
    d_total = ticks1[1] - ticks0[1]
    busy_share = (ticks1[0] - ticks0[0]) / d_total if d_total > 0 else None
    steal_share = (ticks1[2] - ticks0[2]) / d_total if d_total > 0 else None
    load = {"busy_share": busy_share, "steal_share": steal_share}

    solutions = [
        summarise_solution(
            pt.task_id,
            name,
            [p for p in profiles if p.task_id == pt.task_id and p.solution == name],
        )
        for pt, name, _ in built
    ]
    summary = summarise(profiles, solutions)
    console.print(summary_table(summary, repeats))
    console.print(solutions_table(solutions))
    agree = summary["agreement"]
    b = summary["baseline"]
    console.print(
        f"rank agreement: {agree['tasks_same_order']}/{agree['tasks']} tasks ordered the same, "
        f"{agree['concordant_pairs']}/{agree['solution_pairs']} solution pairs concordant. "
        f"getrusage: smallest positive per-call delta {b['getrusage_min_positive_delta_us']} µs, "
        f"{fmt_pct(b['getrusage_zero_share'])} of baseline iterations read 0. "
        f"Total bench time {elapsed:.0f} s; all cores {fmt_pct(busy_share, 0)} busy, "
        f"{fmt_pct(steal_share, 1)} stolen by the hypervisor (the bench alone keeps "
        f"about one core busy: {100 / int(machine['cores']):.0f}%)."
    )
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps(
                {
                    "machine": machine,
                    "revision": revision,
                    "isolation": {"mode": isolation.mode, "detail": isolation.detail},
                    "measure_config": measure.model_dump(),
                    "baseline": {
                        "iterations": BASELINE_ITERATIONS,
                        "timer": "getrusage(RUSAGE_SELF) user+sys",
                    },
                    "repeats": repeats,
                    "seed": args.seed,
                    "tasks": [t.task_id for t in tasks],
                    "elapsed_seconds": elapsed,
                    "machine_load": load,
                    "summary": summary,
                    "solutions": [asdict(s) for s in solutions],
                    "profiles": [{**asdict(p), "rel_ci_width": p.rel_ci_width} for p in profiles],
                },
                indent=1,
            )
        )
        log.info("numbers written to %s", args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
