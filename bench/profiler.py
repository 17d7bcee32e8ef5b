"""Meter benchmark: the icount meter, the cpu meter and a Mercury-evaluator baseline, in one run.

All three profile the same solutions of the same tasks, in turn (the order rotates per task and
repeat, so drift of the machine reaches all alike):

- ``icount``: :func:`quicksilver.profiler.profile_many` on all of a task's solutions at once (one
  zygote, one pass each) with the default :class:`~quicksilver.config.MeasureConfig`:
  instructions counted under QEMU, read by the host; deterministic;
- ``cpu``: the same with ``meter="cpu"``: passes repeated in fresh children, interleaved over the
  task's solutions, until the CI95 of the median is within 2% (5 to 64 passes, 20 s budget);
- ``baseline``: what the later Mercury evaluator does (seeds/mercury-eval-readme.txt): one
  sandboxed subprocess per solution that executes the solution and, for every test case, runs
  128 timed iterations of ``Solution().method(*copy.deepcopy(inputs))`` (the copy is outside the
  timed region), timing each call by ``resource.getrusage(RUSAGE_SELF)`` user+sys deltas, and
  reports the per-case mean and a CI95 of the mean (mean +- 1.96 sd / sqrt(n)); runtime = sum over
  cases of the per-case means. It runs under the same bubblewrap command line as ours, so process
  isolation costs the same, and judges the first iteration's output in-process, as Mercury does.

Measured for each: solutions profiled per minute (wall clock; a task's solutions share one
zygote for ours, so its start is spread over them), the median over solutions of the relative
CI95 width (width / runtime), the spread (coefficient of variation) of the runtimes of R
independent profiles of the same solution (median over solutions), and whether the methods rank
each task's solutions alike. A second table lists every solution's runtime by each method.

Run ``python bench/profiler.py`` (full, about 10 minutes on 2 cores) or ``--quick`` (a smoke run);
``--json OUT`` dumps every number. Results are recorded in docs/performance.md.
"""

from __future__ import annotations

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
from typing import Any, Literal

from rich.table import Table

from quicksilver.config import MeasureConfig, SandboxConfig
from quicksilver.profiler import Case, Job, ProfileTask, profile_many
from quicksilver.sandbox import isolation as iso
from quicksilver.stats import coefficient_of_variation

from common import (
    MachineLoad,
    fmt_pct,
    fmt_time,
    header,
    machine_ticks,
    median,
    parser,
    ratio,
    start,
    table,
    write_json,
)

log = logging.getLogger("bench.profiler")

Method = Literal["icount", "cpu", "baseline"]
METHODS: tuple[Method, ...] = ("icount", "cpu", "baseline")
OURS: tuple[Method, ...] = ("icount", "cpu")

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


class _Clock:
    """Wall time, this process's CPU and the machine's load over one profile."""

    def __init__(self) -> None:
        self.t0, self.cpu0, self.ticks0 = time.perf_counter(), _host_cpu(), machine_ticks()

    def stop(self) -> tuple[float, float, tuple[int, int]]:
        wall, cpu = time.perf_counter() - self.t0, _host_cpu() - self.cpu0
        busy1, total1, _ = machine_ticks()
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
    method: Method,
    task: ProfileTask,
    solutions: Sequence[tuple[str, str]],
    repeat: int,
    isolation: iso.Isolation,
) -> list[Profile]:
    """All of a task's solutions in one call (one zygote); wall and host CPU are shared out."""
    measure = MeasureConfig(meter="icount" if method == "icount" else "cpu")
    clock = _Clock()
    results = profile_many(
        [Job(task, code) for _, code in solutions],
        sandbox=SandboxConfig(),
        measure=measure,
        isolation=isolation,
        workers=1,
    )
    wall, cpu, busy = clock.stop()
    n = len(solutions)
    out = []
    for (name, _), res in zip(solutions, results, strict=True):
        prof = Profile(
            method,
            task.task_id,
            name,
            repeat,
            res.status,
            wall / n,
            cpu / n,
            (busy[0] // n, busy[1] // n),
            error=res.error,
        )
        if res.passed and res.runtime is not None and res.runtime_ci is not None:
            prof.runtime = res.runtime
            prof.ci_low, prof.ci_high = res.runtime_ci
            prof.detail = {
                "measure_cpu_seconds": res.measure_cpu_seconds,
                "window_overhead": res.window_overhead,
                "load_cost": res.load_cost,
                "rounds": res.rounds,
                "converged": res.converged,
                "flags": res.flags,
                "charged": res.charged,
                "cases": [
                    {
                        "median": c.median,
                        "ci_low": c.ci_low,
                        "ci_high": c.ci_high,
                        "rounds": c.rounds,
                        "charged": c.charged,
                    }
                    for c in res.cases
                ],
            }
        out.append(prof)
    return out


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
        s.runtime[method] = median(runtimes)
        s.cv[method] = coefficient_of_variation(runtimes) if len(runtimes) >= 2 else None
        s.rel_ci[method] = median(widths)
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
            "median_rel_ci95_width_wallclock": median(wall_widths),
            "median_rel_ci95_width": median(widths),
            "max_rel_ci95_width": max(widths) if widths else None,
            "median_cv": median(cvs),
            "p90_cv": sorted(cvs)[min(len(cvs) - 1, math.ceil(0.9 * len(cvs)) - 1)]
            if cvs
            else None,
            "max_cv": max(cvs) if cvs else None,
            "median_cross_run_coverage": median(cover),
            "share_within_5pct_of_median": near / counted if counted else None,
            "share_slower_1_3x_median": far / counted if counted else None,
        }
    for method in OURS:
        mine = [p for p in profiles if p.method == method and "rounds" in p.detail]
        out[method]["median_rounds_per_case"] = median([p.detail["rounds"] for p in mine])
        out[method]["median_timed_calls_per_case"] = out[method]["median_rounds_per_case"]
        out[method]["unconverged_profiles"] = sum(bool(p.detail["flags"]) for p in mine)
    out["baseline"]["median_rounds_per_case"] = BASELINE_ITERATIONS
    out["baseline"]["median_timed_calls_per_case"] = BASELINE_ITERATIONS
    out["baseline"]["unconverged_profiles"] = 0
    base_cases = [c for p in profiles if p.method == "baseline" for c in p.detail.get("cases", [])]
    positive = [c["min_positive_us"] for c in base_cases if c["min_positive_us"] is not None]
    n_iter = sum(c["n"] for c in base_cases)
    out["baseline"]["getrusage_min_positive_delta_us"] = min(positive) if positive else None
    out["baseline"]["getrusage_zero_share"] = (
        sum(c["zeros"] for c in base_cases) / n_iter if n_iter else None
    )
    # rank agreement: within each task, do two methods order the solutions the same way?
    by_task: dict[str, list[SolutionSummary]] = {}
    for s in solutions:
        by_task.setdefault(s.task_id, []).append(s)
    out["agreement"] = {}
    for m1, m2 in (("icount", "baseline"), ("cpu", "baseline"), ("icount", "cpu")):
        same = pairs = concordant = 0
        for group in by_task.values():
            if any(s.runtime[m] is None for s in group for m in (m1, m2)):
                continue
            xs = [float(s.runtime[m1] or 0.0) for s in group]
            ys = [float(s.runtime[m2] or 0.0) for s in group]
            same += _ranks(xs) == _ranks(ys)
            for a in range(len(group)):
                for b in range(a + 1, len(group)):
                    pairs += 1
                    concordant += (xs[a] - xs[b]) * (ys[a] - ys[b]) > 0
        out["agreement"][f"{m1}-{m2}"] = {
            "tasks": len(by_task),
            "tasks_same_order": same,
            "solution_pairs": pairs,
            "concordant_pairs": concordant,
        }
    return out


# ============================================================================ output


def fmt_cost(value: float | None, method: str) -> str:
    """Seconds for the cpu meter and the baseline, instructions for icount."""
    if method != "icount":
        return fmt_time(value)
    return "-" if value is None else f"{value:,.0f} instr"


def fmt_num(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def fmt_pct2(x: float | None) -> str:
    return fmt_pct(x, 2)


def summary_table(summary: dict[str, dict[str, Any]], repeats: int) -> Table:
    t = table(
        "icount meter, cpu meter and a Mercury-style baseline (same tasks, same run)",
        ("metric", "left"),
        *METHODS,
        "icount / baseline",
        "cpu / baseline",
    )

    def row(label: str, key: str, fmt: Callable[[Any], str], vs_baseline: bool = True) -> None:
        vals = [summary[m].get(key) for m in METHODS]
        base = summary["baseline"].get(key)
        ratios = [ratio(summary[m].get(key), base) if vs_baseline else "" for m in OURS]
        t.add_row(label, *[fmt(v) for v in vals], *ratios)

    row("profiles (solutions x repeats)", "profiles", str, vs_baseline=False)
    row("failed profiles", "failed_profiles", str, vs_baseline=False)
    row("wall time, all profiles", "wall_seconds", lambda v: f"{v:.1f} s")
    row("solutions profiled per minute", "solutions_per_minute", fmt_num)
    row("wall seconds per solution (mean)", "wall_seconds_per_solution", lambda v: fmt_num(v, 2))
    row(
        "measurement CPU s per solution",
        "measure_cpu_seconds_per_solution",
        lambda v: fmt_num(v, 2),
    )
    row(
        "host-side CPU s per solution (bench process)",
        "host_cpu_seconds_per_solution",
        lambda v: fmt_num(v, 2),
        vs_baseline=False,
    )
    row(f"median CV of runtime over {repeats} profiles", "median_cv", fmt_pct2)
    row("P90 CV over solutions", "p90_cv", fmt_pct2, vs_baseline=False)
    row("worst CV over solutions", "max_cv", fmt_pct2, vs_baseline=False)
    row("median relative CI95 width", "median_rel_ci95_width", fmt_pct2)
    row("worst relative CI95 width", "max_rel_ci95_width", fmt_pct2, vs_baseline=False)
    row(
        "profiles within ±5% of their solution's median",
        "share_within_5pct_of_median",
        lambda v: fmt_pct(v, 0),
        vs_baseline=False,
    )
    row(
        "profiles >= 1.3x their solution's median",
        "share_slower_1_3x_median",
        lambda v: fmt_pct(v, 0),
        vs_baseline=False,
    )
    row(
        "cross-run CI coverage (median)",
        "median_cross_run_coverage",
        lambda v: fmt_pct(v, 0),
        vs_baseline=False,
    )
    row(
        "passes / iterations per solution (median)",
        "median_rounds_per_case",
        fmt_num,
        vs_baseline=False,
    )
    row("profiles not converged (flagged)", "unconverged_profiles", str, vs_baseline=False)
    row(
        "all cores busy during the profiles (/proc/stat)",
        "machine_busy_share",
        lambda v: fmt_pct(v, 0),
        vs_baseline=False,
    )
    return t


def solutions_table(solutions: Sequence[SolutionSummary]) -> Table:
    t = table(
        "Per solution: median runtime over the repeats (CV across repeats)",
        ("task", "left"),
        ("solution", "left"),
        *(col for m in METHODS for col in (m, "CV")),
        "cpu/base",
        ("rank i/c/b", "center"),
        "wall i / c / b",
    )
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
            cells = []
            for m in METHODS:
                cells += [fmt_cost(s.runtime[m], m), fmt_pct2(s.cv[m])]
            t.add_row(
                task_id if k == 0 else "",
                s.solution + fails,
                *cells,
                ratio(s.runtime["cpu"], s.runtime["baseline"]),
                " / ".join(str(ranks[m][k]) for m in METHODS),
                " / ".join(f"{s.wall[m]:.2f}" for m in METHODS) + " s",
            )
        t.add_section()
    return t


# ============================================================================ main


def main(argv: Sequence[str] | None = None) -> int:
    p = parser(
        __doc__,
        verbose=True,
        quick="3 tasks, 3 repeats: a smoke run",
        repeats="profiles per solution (default 5)",
        seed="seed of the generated test inputs",
    )
    p.add_argument("--tasks", default=None, help="comma-separated task ids (default: all)")
    args = p.parse_args(argv)
    console = start(verbose=args.verbose, width=180)
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

    measure = MeasureConfig(meter="cpu")
    isolation = iso.resolve(SandboxConfig())
    machine, revision = header(console)
    console.print(
        "[bold]icount[/]: profile_many over a task's solutions, the default MeasureConfig "
        "(one pass each); "
        f"[bold]cpu[/]: the same with meter=cpu (min_rounds={measure.min_rounds}, "
        f"max_rounds={measure.max_rounds}, target_rel_ci={measure.target_rel_ci}, "
        f"budget_seconds={measure.budget_seconds}); isolation: {isolation.mode} "
        f"({isolation.detail})"
    )
    console.print(
        f"[bold]baseline[/]: Mercury-style, {BASELINE_ITERATIONS} iterations per case, "
        "getrusage(RUSAGE_SELF) user+sys per call, mean and mean +- 1.96 sd/sqrt(n), "
        "same bubblewrap argv"
    )

    built: list[tuple[ProfileTask, str, str]] = []
    per_task: list[tuple[ProfileTask, list[tuple[str, str]]]] = []
    for bt in tasks:
        pt = bt.build(args.seed)
        per_task.append((pt, list(bt.solutions.items())))
        for name, code in bt.solutions.items():
            built.append((pt, name, code))
    console.print(
        f"{len(tasks)} tasks, {len(built)} solutions, {repeats} profiles each per method "
        f"({len(METHODS) * repeats * len(built)} profiles)"
    )

    profiles: list[Profile] = []
    started, machine_load = time.perf_counter(), MachineLoad()
    for rep in range(repeats):
        for k, (pt, sols) in enumerate(per_task):
            shift = (rep + k) % len(METHODS)
            for method in METHODS[shift:] + METHODS[:shift]:
                if method == "baseline":
                    got = [run_baseline(pt, code, name, rep) for name, code in sols]
                else:
                    got = run_ours(method, pt, sols, rep, isolation)
                profiles += got
                for prof in got:
                    log.info(
                        "rep %d/%d %-8s %s/%s: %s runtime=%s ci=[%s, %s] wall=%.2fs%s",
                        rep + 1,
                        repeats,
                        method,
                        pt.task_id,
                        prof.solution,
                        prof.status,
                        fmt_cost(prof.runtime, method),
                        fmt_cost(prof.ci_low, method),
                        fmt_cost(prof.ci_high, method),
                        prof.wall_s,
                        f" error={prof.error}" if prof.error else "",
                    )
    elapsed, load = time.perf_counter() - started, machine_load.stop()

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
    b = summary["baseline"]
    for pair, agree in summary["agreement"].items():
        console.print(
            f"rank agreement {pair}: {agree['tasks_same_order']}/{agree['tasks']} tasks ordered "
            f"the same, {agree['concordant_pairs']}/{agree['solution_pairs']} solution pairs "
            "concordant."
        )
    console.print(
        f"getrusage: smallest positive per-call delta {b['getrusage_min_positive_delta_us']} µs, "
        f"{fmt_pct2(b['getrusage_zero_share'])} of baseline iterations read 0. "
        f"Total bench time {elapsed:.0f} s; "
        f"{MachineLoad.describe(load, int(machine['cores']))}."
    )
    write_json(
        args.json,
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
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
