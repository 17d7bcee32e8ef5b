"""Published solutions are self-contained beyond the names Mercury's evaluator injects
(quicksilver/selfcontained.py): which names those are, and the imports the load stage adds."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from quicksilver.pipeline.records import solution_hash
from quicksilver.selfcontained import (
    IMPORTS,
    MERCURY_INJECTED,
    add_imports,
    free_names,
    missing_imports,
)
from tests.mercury_evaluator import judge_jobs, mercury_namespace
from tests.stagekit import load_stage

ROOT = Path(__file__).resolve().parents[1]
RUNTIME = ROOT / "quicksilver" / "sandbox" / "runtime"


def _names(namespace: dict) -> set[str]:
    return {name for name in namespace if not name.startswith("__")}


def test_the_injected_names_are_what_the_mercury_evaluator_injects() -> None:
    # tests/mercury_evaluator.py builds its namespace from ANCHORS.md's description, statement
    # by statement; the core's list of names must be exactly what that gives
    assert _names(mercury_namespace()) == MERCURY_INJECTED
    assert {"Counter", "SortedList"}.isdisjoint(MERCURY_INJECTED)


def test_every_name_the_sandbox_adds_has_its_import() -> None:
    """The sandbox's prelude (run as the harness runs it: its own folder first on the path)
    injects Mercury's names and, beyond them, only names IMPORTS knows how to import."""
    script = (
        "import json, sys\n"
        f"sys.path.insert(0, {str(RUNTIME)!r})\n"
        "from prelude import build_namespace\n"
        "print(json.dumps(sorted(n for n in build_namespace() if not n.startswith('__'))))\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    ours = set(json.loads(proc.stdout))
    assert ours >= MERCURY_INJECTED - {"print"}  # print: theirs is a no-op, ours the builtin
    assert ours - MERCURY_INJECTED == set(IMPORTS)
    ns: dict = {}
    for module, name in IMPORTS.values():
        exec(f"from {module} import {name}", ns)  # each import line works


COUNTER = """class Solution:
    def f(self, nums: List[int]) -> bool:
        return any(c > 1 for c in Counter(nums).values())
"""
MANY = """class Solution:
    def f(self, nums: List[int], seen: Dict[int, int]) -> List[int]:
        window = SortedList()
        counts = collections.Counter(nums)
        return [x for x in nums if x in Set[int] or window or counts]
"""


def test_free_names_are_the_globals_a_solution_reads() -> None:
    assert free_names(COUNTER) == {"List", "Counter"}
    assert free_names(MANY) == {"List", "Dict", "SortedList", "collections", "Set"}
    bound = "from collections import Counter\nclass Solution:\n    def f(self):\n" + (
        "        Counter = 1\n        return Counter\n"
    )
    assert free_names(bound) == set()
    local = "class Solution:\n    def f(self):\n        Counter = 1\n        return Counter\n"
    assert free_names(local) == set()  # a local of the method, not the module's


def test_missing_imports_for_names_only_the_sandbox_injects() -> None:
    assert missing_imports(COUNTER) == ["from collections import Counter"]
    assert missing_imports(MANY) == [
        "from sortedcontainers import SortedList",
        "from typing import Dict, Set",
    ]
    # Mercury's own names, builtins, and names no judge provides: nothing to add
    assert missing_imports("x = deque(isBadVersion([1]))\n") == []


LEETCODE_NAMES = """class Solution:
    def f(self, nums):
        pairs = [gcd(a, b) for a, b in pairwise(nums)]
        total = reduce(operator.add, accumulate(pairs), 0)
        return total % len(ascii_lowercase) + nlargest(1, nums)[0] + randint(0, 0)
"""


def test_missing_imports_for_names_leetcodes_judge_provides() -> None:
    """Accepted LeetCode solutions use these unimported (selfcontained.LEETCODE_STAR's evidence):
    each gets its import, the first listed module providing it, modules by name first."""
    assert missing_imports(LEETCODE_NAMES) == [
        "import operator",
        "from functools import reduce",
        "from heapq import nlargest",
        "from itertools import accumulate, pairwise",
        "from math import gcd",
        "from random import randint",
        "from string import ascii_lowercase",
    ]
    # a builtin is never shadowed (math.pow), a local or a module-level binding is not free
    assert missing_imports("def f(pow, count):\n    return pow(2, 3) + count\n") == []
    assert missing_imports("count = 3\nclass S:\n    def f(self):\n        return count\n") == []
    assert missing_imports("def f(xs):\n    return pow(2, len(xs))\n") == []


def test_add_imports_puts_them_first_but_after_a_docstring_and_future_imports() -> None:
    code, added = add_imports(COUNTER)
    assert added == ["from collections import Counter"]
    assert code == "from collections import Counter\n" + COUNTER
    assert add_imports(code) == (code, [])  # once is enough
    head = '"""Two lines\nof docstring."""\nfrom __future__ import annotations\n'
    code, added = add_imports(head + COUNTER)
    assert code == head + "from collections import Counter\n" + COUNTER
    assert add_imports("x = 1\n") == ("x = 1\n", [])


def test_solutions_given_their_imports_pass_in_the_mercury_evaluator() -> None:
    """Before: NameError there (failed@eval); after: passed, with the real lctk 0.0.6."""
    row = {
        "entry_point": "f",
        "convert_offline": "def convert_offline(case):\n    return case\n",
        "evaluate_offline": (
            "def evaluate_offline(inputs, outputs, expected):\n    return outputs == expected\n"
        ),
        "test_cases": json.dumps([{"input": [[1, 2, 2]], "expected": True}]),
    }
    sorted_list = (
        "class Solution:\n    def f(self, nums):\n"
        "        return len(SortedList(nums)) > len(set(nums))\n"
    )
    before = judge_jobs([{**row, "solution": COUNTER}, {**row, "solution": sorted_list}])
    assert [r["status"] for r in before] == ["failed@eval", "failed@eval"]
    assert all("NameError" in r["error"] for r in before)
    after = judge_jobs(
        [{**row, "solution": add_imports(c)[0]} for c in (COUNTER, sorted_list)],
    )
    assert [r["status"] for r in after] == ["passed", "passed"], after


def test_a_solution_using_leetcodes_names_runs_once_its_imports_are_added() -> None:
    """Before: NameError (so the build dropped an accepted solution as does-not-load, and the
    Mercury evaluator failed it); after: passes there, with the answer the names compute."""
    row = {
        "entry_point": "f",
        "convert_offline": "def convert_offline(case):\n    return case\n",
        "evaluate_offline": (
            "def evaluate_offline(inputs, outputs, expected):\n    return outputs == expected\n"
        ),
        # gcds of [4,6],[6,9] = 2,3; prefix sums 2,5; sum 7; 7 % 26 + 9 + 0 = 16
        "test_cases": json.dumps([{"input": [[4, 6, 9]], "expected": 16}]),
    }
    (before,) = judge_jobs([{**row, "solution": LEETCODE_NAMES}])
    assert before["status"] == "failed@eval" and "NameError" in before["error"]
    (after,) = judge_jobs([{**row, "solution": add_imports(LEETCODE_NAMES)[0]}])
    assert after["status"] == "passed", after


def test_the_load_stage_adds_the_imports_before_hashing(tmp_path: Path) -> None:
    plain = "class Solution:\n    def f(self, nums):\n        return nums\n"
    snap = {
        "question": {
            "questionId": "1",
            "questionFrontendId": "1",
            "title": "Alpha",
            "titleSlug": "alpha",
            "content": "<p>Return nums.</p>",
            "difficulty": "Easy",
            "isPaidOnly": False,
            "metaData": json.dumps(
                {
                    "name": "f",
                    "params": [{"name": "nums", "type": "integer[]"}],
                    "return": {"type": "integer[]"},
                }
            ),
            "codeSnippets": [{"lang": "Python3", "langSlug": "python3", "code": "class Solution:"}],
        },
        "solutions": [
            {"code": plain, "source": "bundled"},
            {"code": COUNTER, "source": "bundled"},
        ],
        "provenance": {"source": "test"},
    }
    (tmp_path / "alpha.json").write_text(json.dumps(snap))
    out = load_stage([tmp_path])
    first, second = out["solutions"]
    assert first["code"] == plain and first["imports_added"] == []
    assert second["code"] == "from collections import Counter\n" + COUNTER
    assert second["imports_added"] == ["from collections import Counter"]
    assert second["hash"] == solution_hash(second["code"])  # the hash of the code published
    (note,) = out["counts"].notes
    assert "1 solution(s) of 1 task(s)" in note and "from collections import Counter: 1" in note


@pytest.mark.parametrize("name", sorted(IMPORTS))
def test_each_sandbox_only_name_is_imported(name: str) -> None:
    code = f"class Solution:\n    def f(self):\n        return {name}\n"
    fixed, added = add_imports(code)
    module, attr = IMPORTS[name]
    assert added == [f"from {module} import {attr}"]
    ns = mercury_namespace()
    exec(fixed, ns)
    assert ns["Solution"]().f() is not None
