"""``quicksilver snapshot check``: order-free statements, one line per finding, exit codes.

The sandbox tests build small snapshot folders in tmp_path and run the installed command with a
narrow terminal (COLUMNS=40), so that a line rich wrapped would show up as an extra line.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from quicksilver.sources.check import (
    REASON_CHARS,
    CheckReport,
    SolutionCheck,
    report_lines,
    snapshot_task,
    statement_says_any_order,
)
from quicksilver.sources.snapshot import SnapshotFile, parse_snapshot
from tests.conftest import requires_bwrap

QUICKSILVER = Path(sys.executable).with_name("quicksilver")

DIVISORS_META = json.dumps(
    {
        "name": "divisors",
        "params": [{"name": "n", "type": "integer"}],
        "return": {"type": "integer[]"},
    }
)
DIVISORS_TESTS = [{"input": [6], "expected": [1, 2, 3, 6]}, {"input": [7], "expected": [1, 7]}]
ANY_ORDER_HTML = (
    "<p>Given an integer <code>n</code>, return every divisor of <code>n</code>. "
    "You may return the answer in <strong>any order</strong>.</p>"
)
IN_ORDER_HTML = (
    "<p>Given an integer <code>n</code>, return every divisor of <code>n</code>, "
    "smallest first.</p>"
)
ASCENDING = (
    "class Solution:\n    def divisors(self, n):\n"
    "        return [d for d in range(1, n + 1) if n % d == 0]\n"
)
DESCENDING = (  # a permutation of the expected answer
    "class Solution:\n    def divisors(self, n):\n"
    "        return [d for d in range(n, 0, -1) if n % d == 0]\n"
)
WRONG_ON_PRIMES = (  # right for 6 (tests[0]), [1] for 7 (tests[1])
    "class Solution:\n    def divisors(self, n):\n"
    "        return [d for d in range(1, n) if n % d == 0] + ([n] if n % 2 == 0 else [])\n"
)
LONG_SLUG = "divisors-" + "-".join(["with-a-deliberately-long-title"] * 5)


def snap_dict(
    slug: str,
    solutions: list[dict[str, Any]],
    *,
    content: str | None = ANY_ORDER_HTML,
    meta: str | None = DIVISORS_META,
    tests: list[dict[str, Any]] | None = None,
    annotations: dict[str, Any] | None = None,
    paid: bool = False,
    snippet: str = "class Solution:\n    def divisors(self, n: int) -> List[int]:\n        ",
    entry_point: str | None = None,
) -> dict[str, Any]:
    return {
        "format": "quicksilver-snapshot/1",
        "question": {
            "questionId": "1",
            "questionFrontendId": "1",
            "title": slug.replace("-", " ").title(),
            "titleSlug": slug,
            "content": None if paid else content,
            "difficulty": "Easy",
            "isPaidOnly": paid,
            "codeSnippets": None
            if paid
            else [{"lang": "Python3", "langSlug": "python3", "code": snippet}],
            "metaData": meta,
        },
        "solutions": solutions,
        "tests": DIVISORS_TESTS if tests is None else tests,
        "entry_point": entry_point,
        "provenance": {"source": "bundled"},
        "annotations": annotations,
    }


def sol(code: str, source: str = "bundled", model: str | None = None) -> dict[str, Any]:
    return {"code": code, "lang": "python3", "source": source, "model": model}


def write(folder: Path, data: dict[str, Any]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{data['question']['titleSlug']}.json").write_text(json.dumps(data))


def snap(data: dict[str, Any]) -> SnapshotFile:
    return parse_snapshot(data)


def check_cli(*args: object) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "40", "NO_COLOR": "1"}
    return subprocess.run(
        [str(QUICKSILVER), "snapshot", "check", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )


# --- without the sandbox ---------------------------------------------------------------------


def test_order_free_comes_from_the_statement_never_the_annotations() -> None:
    says = snap(snap_dict("a", [sol(ASCENDING)], annotations={"answer_any_order": False}))
    silent = snap(
        snap_dict(
            "b", [sol(ASCENDING)], content=IN_ORDER_HTML, annotations={"answer_any_order": True}
        )
    )
    assert statement_says_any_order(says) is True
    assert statement_says_any_order(silent) is False
    assert "sorted(" in snapshot_task(says).evaluate_offline
    assert "sorted(" not in snapshot_task(silent).evaluate_offline
    assert snapshot_task(silent).evaluate_offline.rstrip().endswith("return got == expected")


def test_function_style_compares_exactly_whatever_the_docstring_says() -> None:
    task = snapshot_task(
        snap(
            snap_dict(
                "add-two",
                [sol("def add(a, b):\n    return a + b\n", source="canonical")],
                content="<p>Return the sum; return them in any order.</p>",
                meta=None,
                snippet="def add(a, b):\n",
                entry_point="add",
                tests=[{"input": [1, 2], "expected": 3}],
            )
        )
    )
    assert task.kind == "function" and task.entry_point == "add"
    assert "sorted(" not in task.evaluate_offline
    assert "as_lists(got)" in task.evaluate_offline  # a tuple answer as the JSON list


def failed(**kw: Any) -> SolutionCheck:
    base: dict[str, Any] = {"slug": "s", "index": 0, "status": "failed", "error": None}
    return SolutionCheck(**{**base, **kw})


def test_each_finding_is_one_line_naming_slug_index_source_and_status() -> None:
    long_value = json.dumps(list(range(400)))[:200]
    report = CheckReport(
        checked=[
            failed(status="passed"),
            failed(
                slug=LONG_SLUG,
                index=3,
                error=f"case 1: wrong answer: got {long_value}, expected {long_value}",
                failed_case=1,
                source="model",
                model="tiny-model-v1",
            ),
            failed(
                index=1,
                status="error",
                error="case 0: ValueError: line one\nline two\x1b[2J\tend",
                failed_case=0,
                source="community",
            ),
            failed(
                index=2,
                status="error",
                error="the solution does not compile: compile: SyntaxError: '(' was never closed",
                source="bundled",
            ),
            failed(index=4, status="timeout", error="loading the solution: wall limit", source="x"),
            failed(
                index=5,
                status="timeout",
                error="case 2: cpu limit (limit for all cases together)",
                failed_case=2,
                source="x",
            ),
            failed(
                index=6, status="memory", error="case 0: MemoryError", failed_case=0, source="x"
            ),
        ],
        skipped=[("paid", "paid-only")],
        set_aside=[("d/broken.json", "not valid JSON (truncated?): line 1\ncolumn 2")],
        order_free=["s"],
    )
    lines = report_lines(report)
    assert all("\n" not in line and "\x1b" not in line for line in lines)
    reason = f"got {long_value}, expected {long_value}"
    assert len(reason) > REASON_CHARS  # cut on the line, whole in --json
    assert lines[0] == (
        f"FAIL {LONG_SLUG} solution 3 (model tiny-model-v1): wrong answer on test 1: "
        f"{reason[: REASON_CHARS - 3]}..."
    )
    assert lines[1:] == [
        "FAIL s solution 1 (community): error on test 0: ValueError: line one line two\\x1b[2J end",
        "FAIL s solution 2 (bundled): does not load: compile: SyntaxError: '(' was never closed",
        "FAIL s solution 4 (x): timeout while loading: wall limit",
        "FAIL s solution 5 (x): timeout on test 2: cpu limit (limit for all cases together)",
        "FAIL s solution 6 (x): memory limit on test 0: MemoryError",
        "SKIP paid: paid-only",
        "SET-ASIDE d/broken.json: not valid JSON (truncated?): line 1 column 2",
        "SUMMARY 1 of 7 solutions passed in 2 question(s); 6 failed (1 does not load, 1 error, "
        "1 memory, 2 timeout, 1 wrong answer); 1 question(s) skipped; 1 file(s) set aside; "
        "1 judged in any order (the statement says so)",
    ]
    data = report.to_dict()
    assert (data["solutions"], data["passed"], data["failed"], data["exit_code"]) == (7, 1, 6, 1)
    assert data["failed_by_kind"] == {
        "does-not-load": 1,
        "error": 1,
        "memory": 1,
        "timeout": 2,
        "wrong-answer": 1,
    }
    wrong = data["checked"][1]
    assert (wrong["slug"], wrong["index"], wrong["finding"], wrong["test"]) == (
        LONG_SLUG,
        3,
        "wrong-answer",
        1,
    )
    assert wrong["error"].endswith(long_value)  # the whole message, uncut


def test_exit_code_is_one_for_a_failure_or_a_file_set_aside_else_zero() -> None:
    assert (
        CheckReport(checked=[failed(status="passed")], skipped=[("p", "paid-only")]).exit_code == 0
    )
    assert CheckReport().exit_code == 0
    assert CheckReport(checked=[failed(status="passed"), failed()]).exit_code == 1
    assert CheckReport(set_aside=[("d/x.json", "bad")]).exit_code == 1


# --- in the sandbox, through the command -----------------------------------------------------


def clean_folder(root: Path) -> Path:
    folder = root / "clean"
    # the annotation says "not order-free": ignored, the statement decides
    write(
        folder,
        snap_dict(
            "divisors-any-order",
            [sol(ASCENDING), sol(DESCENDING, source="community")],
            annotations={"answer_any_order": False},
        ),
    )
    write(folder, snap_dict("paid-question", [sol(ASCENDING)], paid=True))
    write(
        folder,
        snap_dict(
            "add-two",
            [sol("def add(a, b):\n    return a + b\n", source="canonical")],
            content="<p>Return <code>a + b</code>.</p>",
            meta=None,
            snippet="def add(a, b):\n",
            entry_point="add",
            tests=[{"input": [1, 2], "expected": 3}, {"input": [-1, 1], "expected": 0}],
        ),
    )
    return folder


@requires_bwrap
def test_a_clean_folder_passes_with_a_permutation_and_exits_0(tmp_path: Path) -> None:
    folder = clean_folder(tmp_path)
    proc = check_cli(folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == [
        "SKIP paid-question: paid-only",
        "SUMMARY 3 of 3 solutions passed in 2 question(s); 0 failed; 1 question(s) skipped; "
        "0 file(s) set aside; 1 judged in any order (the statement says so)",
    ]
    proc = check_cli(folder, "--json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.endswith("}\n") and proc.stdout.count("\n") == 1
    data = json.loads(proc.stdout)
    assert (data["solutions"], data["passed"], data["failed"], data["exit_code"]) == (3, 3, 0, 0)
    assert data["order_free"] == ["divisors-any-order"]
    assert data["skipped"] == [{"slug": "paid-question", "why": "paid-only"}]
    assert {(c["slug"], c["index"], c["status"]) for c in data["checked"]} == {
        ("add-two", 0, "passed"),
        ("divisors-any-order", 0, "passed"),
        ("divisors-any-order", 1, "passed"),
    }


FINDING = re.compile(r"^FAIL (\S+) solution (\d+) \(([^)]*)\): ([a-z ]+?)(?: on test (\d+))?: .+$")


@requires_bwrap
def test_failures_are_one_line_each_and_exit_1(tmp_path: Path) -> None:
    folder = tmp_path / "failing"
    write(
        folder,
        snap_dict(
            LONG_SLUG,
            [
                sol(DESCENDING),
                sol(WRONG_ON_PRIMES, source="model", model="tiny-model-v1"),
                sol("class Solution:\n    def divisors(self, n:\n        return []\n"),
                sol("raise RuntimeError('boom at import')\n"),
            ],
        ),
    )
    # the annotation claims order-free, the statement does not: a permutation is wrong
    write(
        folder,
        snap_dict(
            "divisors-in-order",
            [sol(DESCENDING)],
            content=IN_ORDER_HTML,
            annotations={"answer_any_order": True},
        ),
    )
    write(
        folder,
        snap_dict(
            "spin-forever",
            [
                sol(
                    "class Solution:\n    def divisors(self, n):\n        while True:\n            pass\n"
                )
            ],
        ),
    )
    write(
        folder,
        snap_dict(
            "pick-any-divisor",
            [sol("class Solution:\n    def pick(self, n):\n        return n\n")],
            content="<p>Return a divisor of <code>n</code> greater than 1. If there are several, "
            "you may return any of them.</p>",
            meta=json.dumps(
                {
                    "name": "pick",
                    "params": [{"name": "n", "type": "integer"}],
                    "return": {"type": "integer"},
                }
            ),
            tests=[{"input": [6], "expected": 2}],
        ),
    )
    (folder / "broken.json").write_text('{"format": "quicksilver-snapshot/1", "quest')
    proc = check_cli(folder, "--timeout", "0.5")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    # one line per finding: 6 failures, 1 file set aside, the summary; nothing broken in two
    assert len(lines) == 8, proc.stdout
    fails = [FINDING.match(line) for line in lines[:6]]
    assert all(fails), lines
    got = {(m[1], int(m[2]), m[3], m[4], m[5]) for m in fails if m}
    assert got == {
        (LONG_SLUG, 1, "model tiny-model-v1", "wrong answer", "1"),
        (LONG_SLUG, 2, "bundled", "does not load", None),
        (LONG_SLUG, 3, "bundled", "does not load", None),
        ("divisors-in-order", 0, "bundled", "wrong answer", "0"),
        ("spin-forever", 0, "bundled", "timeout", "0"),
        ("pick-any-divisor", 0, "bundled", "wrong answer", "0"),
    }
    by_key = {(m[1], int(m[2])): m[0] for m in fails if m}
    assert by_key[(LONG_SLUG, 1)].endswith("wrong answer on test 1: got [1], expected [1, 7]")
    assert "SyntaxError" in by_key[(LONG_SLUG, 2)]
    assert by_key[(LONG_SLUG, 3)].endswith("RuntimeError: boom at import")
    assert by_key[("divisors-in-order", 0)].endswith("got [6, 3, 2, 1], expected [1, 2, 3, 6]")
    assert by_key[("pick-any-divisor", 0)].endswith(
        "got 6, expected 2 (the statement accepts any of several answers: this one may be valid)"
    )
    assert lines[6].startswith(f"SET-ASIDE {folder / 'broken.json'}: not valid JSON")
    assert lines[7] == (
        "SUMMARY 1 of 7 solutions passed in 4 question(s); 6 failed (2 does not load, "
        "1 timeout, 3 wrong answer); 0 question(s) skipped; 1 file(s) set aside; "
        "2 judged in any order (the statement says so)"
    )


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    proc = check_cli(tmp_path / "missing")
    assert proc.returncode == 2 and "not a snapshot folder" in proc.stderr
    write(tmp_path / "f", snap_dict("only-one", [sol(ASCENDING)]))
    proc = check_cli(tmp_path / "f", "--slugs", "only-one,no-such-question")
    assert proc.returncode == 2
    assert "no file for no-such-question" in " ".join(proc.stderr.split())
    proc = check_cli(tmp_path / "f", "--timeout", "0")
    assert proc.returncode == 2 and "--timeout must be positive" in proc.stderr
    proc = check_cli(tmp_path / "f", "--slugs", " , ")
    assert proc.returncode == 2 and "--slugs names no question" in proc.stderr


@pytest.mark.parametrize("width", ["40", "400"])
def test_the_summary_is_not_wrapped_at_any_width(tmp_path: Path, width: str) -> None:
    """No sandbox: every question is skipped, so only the report's printing runs."""
    slug = "paid-" + "x" * 150
    write(tmp_path / "f", snap_dict(slug, [sol(ASCENDING)], paid=True))
    env = {**os.environ, "COLUMNS": width, "NO_COLOR": "1"}
    proc = subprocess.run(
        [str(QUICKSILVER), "snapshot", "check", str(tmp_path / "f")],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        f"SKIP {slug}: paid-only",
        "SUMMARY 0 of 0 solutions passed in 0 question(s); 0 failed; 1 question(s) skipped; "
        "0 file(s) set aside",
    ]
