"""Mercury rows judged as the Mercury authors' evaluator judges them (their ``src/sandbox.py``, as
ANCHORS.md section 6 describes it), with the real ``lctk`` 0.0.6: written here from that
description, not copied.

For each solution, in a process of its own (a fork of this one, as their evaluator runs a
``multiprocessing.Process`` per solution), one fresh namespace gets the imports of
:data:`MERCURY_IMPORTS`, their ``ListNode`` / ``TreeNode`` classes and ``print`` as a no-op; then
the solution, ``solution = Solution()``, the row's ``convert_offline`` and ``evaluate_offline``;
then for each case of ``json.loads(row["test_cases"])``: ``inputs, expected =
convert_offline((inputs, expected))``, ``outputs = solution.<entry_point>(*inputs)``, ``passed =
evaluate_offline(inputs, outputs, expected)``. The verdict is theirs: ``passed`` when every case
passed, ``failed@load`` when loading raised, ``failed@eval`` when a case raised, else
``failed@cases``. Their 30-second budget per solution is not applied (no test here times
anything); ``seconds`` says what each took.

    python tests/mercury_evaluator.py data/build/mercury/parquet     # every published solution

Run by tests/test_build_mercury.py on the build it makes (the whole bundled build: the command
above). Needs ``lctk`` 0.0.6 (a test dependency) and ``sortedcontainers``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

MERCURY_IMPORTS = (
    "import re",
    "import itertools",
    "import collections",
    "import heapq",
    "import bisect",
    "import string",
    "import sys",
    "import lctk",
    "import functools",
    "import math",
    "import copy",
    "import heapq",
    "import sortedcontainers",
    "from math import floor, ceil, factorial, sqrt, inf",
    "from sys import maxsize, stdin",
    "from bisect import bisect_left, bisect_right",
    "from itertools import permutations, zip_longest",
    "from heapq import heappush, heappop, heapify",
    "from collections import deque, defaultdict, OrderedDict",
    "from typing import List, Optional, Tuple",
    "from functools import lru_cache, cache",
)
"""What their evaluator executes into the namespace, one statement at a time (ANCHORS.md 6)."""

NODE_CLASSES = (
    "class ListNode(object):\n"
    "    def __init__(self, val=0, next=None):\n"
    "        self.val = val\n"
    "        self.next = next\n",
    "class TreeNode(object):\n"
    "    def __init__(self, val=0, left=None, right=None):\n"
    "        self.val = val\n"
    "        self.left = left\n"
    "        self.right = right\n",
    "def print(*args):\n    pass\n",
)


def real_lctk_version() -> str:
    """The lctk this process imports: the PyPI package 0.0.6, never the sandbox's stand-in."""
    from importlib import metadata

    import lctk

    here = Path(lctk.__file__).resolve()
    if "sandbox" in here.parts and "runtime" in here.parts:
        raise RuntimeError(f"lctk is the sandbox's stand-in ({here}), not the PyPI package")
    return metadata.version("lctk")


def mercury_namespace() -> dict[str, Any]:
    namespace: dict[str, Any] = {}
    for statement in (*MERCURY_IMPORTS, *NODE_CLASSES):
        exec(statement, namespace)
    return namespace


def judge(job: dict[str, Any]) -> dict[str, Any]:
    """One solution on its row's cases, in this process (call it in a fork)."""
    namespace = mercury_namespace()
    try:
        exec(job["solution"], namespace)
        exec("solution = Solution()", namespace)
        exec(job["convert_offline"], namespace)
        exec(job["evaluate_offline"], namespace)
    except Exception as exc:
        return {"status": "failed@load", "error": f"{type(exc).__name__}: {exc}"}
    failed: list[int] = []
    for i, case in enumerate(json.loads(job["test_cases"])):
        namespace["inputs"], namespace["expected"] = case["input"], case["expected"]
        try:
            exec("inputs, expected = convert_offline((inputs, expected))", namespace)
            exec(f"outputs = solution.{job['entry_point']}(*inputs)", namespace)
            exec("passed = evaluate_offline(inputs, outputs, expected)", namespace)
        except Exception as exc:
            return {"status": "failed@eval", "error": f"case {i}: {type(exc).__name__}: {exc}"}
        if not namespace["passed"]:
            failed.append(i)
    if failed:
        return {"status": "failed@cases", "error": f"case(s) {failed} failed"}
    return {"status": "passed", "error": None}


def _in_a_fork(job: dict[str, Any]) -> dict[str, Any]:
    read_end, write_end = os.pipe()
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:  # the child: judge, write the verdict, leave without cleaning up
        os.close(read_end)
        try:
            result = judge(job)
        except BaseException as exc:  # SystemExit, RecursionError at the top: their failed@error
            result = {"status": "failed@error", "error": f"{type(exc).__name__}: {exc}"}
        with os.fdopen(write_end, "w") as out:
            out.write(json.dumps(result))
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end) as inp:
        text = inp.read()
    _, status = os.waitpid(pid, 0)
    if not text:
        return {"status": "failed@error", "error": f"the process ended with status {status}"}
    return {**json.loads(text), "seconds": round(time.monotonic() - start, 3)}


def _judge_here(jobs: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """``judge_jobs`` in this process (a clean interpreter: ``--jobs``)."""
    version = real_lctk_version()
    if version != "0.0.6":
        raise RuntimeError(f"lctk {version} is installed; the Mercury evaluator imports 0.0.6")
    return [{**job, **_in_a_fork(job)} for job in jobs]


def judge_jobs(jobs: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each job (``solution``, ``entry_point``, ``convert_offline``, ``evaluate_offline``,
    ``test_cases``, and anything else, passed through) judged in a fork of its own, forked from
    a separate process running this module: a clean interpreter, where ``import lctk`` is the
    PyPI package even when the caller (a test session) has imported the sandbox's stand-in."""
    proc = subprocess.run(
        [sys.executable, __file__, "--jobs"],
        input=json.dumps(list(jobs)),
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"the Mercury evaluator failed: {proc.stderr.strip()[-2000:]}")
    return json.loads(proc.stdout)


def row_jobs(row: dict[str, Any]) -> list[dict[str, Any]]:
    """Every published solution of a Mercury row, and a stub that returns None (``stub``)."""
    fields = ("entry_point", "convert_offline", "evaluate_offline", "test_cases")
    base = {"slug": row["slug_name"], **{k: row[k] for k in fields}}
    jobs = [{**base, "hash": s["hash"], "solution": s["solution"]} for s in row["solutions"]]
    stub = f"class Solution:\n    def {row['entry_point']}(self, *args):\n        return None\n"
    return [*jobs, {**base, "hash": None, "stub": True, "solution": stub}]


def judge_rows(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Judge every published solution and the stub of each row (``judge_jobs``)."""
    return judge_jobs(job for row in rows for job in row_jobs(row))


def _parquet_rows(folder: Path) -> list[dict[str, Any]]:
    import pyarrow.parquet as pq

    files = sorted(folder.glob("*.parquet")) if folder.is_dir() else [folder]
    return [row for f in files for row in pq.read_table(f).to_pylist()]


def main(argv: list[str]) -> int:
    if argv[:1] == ["--jobs"]:
        sys.stdout.write(json.dumps(_judge_here(json.loads(sys.stdin.read()))))
        return 0
    if len(argv) != 1:
        sys.stderr.write("usage: python tests/mercury_evaluator.py DATASET/parquet\n")
        return 2
    results = judge_rows(_parquet_rows(Path(argv[0])))
    solutions = [r for r in results if not r.get("stub")]
    bad = [r for r in solutions if r["status"] != "passed"]
    stubs_passing = [r for r in results if r.get("stub") and r["status"] == "passed"]
    for r in bad:
        sys.stdout.write(f"{r['slug']} {r['hash']}: {r['status']}: {r['error']}\n")
    for r in stubs_passing:
        sys.stdout.write(f"{r['slug']}: a stub returning None passes\n")
    slowest = max(solutions, key=lambda r: r["seconds"], default=None)
    sys.stdout.write(
        f"{len(solutions) - len(bad)} of {len(solutions)} published solutions pass in the "
        f"Mercury evaluator (lctk {real_lctk_version()}); "
        f"{len(results) - len(solutions) - len(stubs_passing)} of "
        f"{len(results) - len(solutions)} stubs fail"
        + (f"; slowest {slowest['slug']} {slowest['seconds']} s\n" if slowest else "\n")
    )
    return 1 if bad or stubs_passing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
