"""Limits from the row (issue 29 item 2): a published row's ``judge_limits`` (the CPU its build's
judge gave each reference per call and for the whole test set) limit a sample's calls in
scoring, so a hanging sample times out at the per-call limit; a row without them (the original
Mercury release) keeps the whole pass's limit alone. Assertions are on the recorded limit and
the error's text, never on timings."""

from __future__ import annotations

import json
from typing import Any

from quicksilver.config import MeasureConfig, SandboxConfig, SandboxLimits
from quicksilver.profiler import ProfileTask, applied_limits, profile_solution
from quicksilver.profiler.model import row_limits
from quicksilver.rows import TaskRow
from quicksilver.samples import Sample
from quicksilver.scoring import score
from quicksilver.scoring.cache import ReferenceCache, cases_hash
from quicksilver.scoring.summary import summary_lines
from quicksilver.stages.publish import judge_limits
from tests.conftest import requires_bwrap, requires_qemu

HANG = "class Solution:\n    def f(self, n):\n        while True:\n            pass\n"
HONEST = "class Solution:\n    def f(self, n):\n        return sum(range(n))\n"
# the sandbox's limit for the whole pass, well above the row's per call below
SANDBOX = SandboxConfig(limits=SandboxLimits(cpu_seconds=6.0))
LIMITS = {
    "call_seconds": 0.5,
    "call_floor_seconds": 0.1,
    "test_set_seconds": 30.0,
    "budget_seconds": 4.0,
    "cost_seconds": 0.01,
}


def _row(**extra: Any) -> TaskRow:
    cases = [{"input": [200_000], "expected": sum(range(200_000))}, {"input": [3], "expected": 3}]
    return TaskRow.from_row(
        {
            "id": "1",
            "slug_name": "sum-below",
            "solutions": [{"hash": 1, "runtime": "1ms", "solution": HONEST}],
            "prompt": "class Solution:\n    def f(self, n: int) -> int:\n        ",
            "entry_point": "f",
            "test_cases": json.dumps(cases),
            **extra,
        }
    )


def test_the_row_carries_the_limits_its_build_judged_by():
    record = {"ceiling_seconds": 10, "floor_seconds": 1, "rule": "...", "per_input": [1, 10]}
    budget = {"judge_seconds": 30, "budget_seconds": 4, "cost_seconds": 2.5, "left_out": 0}
    assert judge_limits(record, budget) == {
        "call_seconds": 10.0,
        "call_floor_seconds": 1.0,
        "test_set_seconds": 30.0,
        "budget_seconds": 4.0,
        "cost_seconds": 2.5,
    }
    assert set(judge_limits({}, {}).values()) == {None}  # a record from before them
    with_limits = ProfileTask.from_record(_row(judge_limits=LIMITS))
    assert with_limits.limits is not None and with_limits.limits.call_seconds == 0.5
    applied = applied_limits(with_limits, 6.0)
    assert applied == {
        "pass_seconds": 6.0,  # scoring's own limit is tighter than the row's 30 s
        "pass_from": "sandbox cpu_seconds",
        "call_seconds": 0.5,
        "call_from": "row judge_limits.call_seconds",
    }
    assert applied_limits(with_limits, 60.0)["pass_from"] == "row judge_limits.test_set_seconds"
    # the original Mercury release, and nulls: no limit per call
    plain = ProfileTask.from_record(_row())
    assert plain.limits is None and applied_limits(plain, 6.0)["call_seconds"] is None
    nulls = dict.fromkeys(LIMITS)
    assert row_limits(_row(judge_limits=nulls)) is None
    # a sample's cached verdict under one set of limits is not another's
    assert cases_hash(plain) != cases_hash(with_limits)


def _profile(row: TaskRow, code: str, meter: str) -> Any:
    measure = MeasureConfig(native_first=True, min_rounds=1, max_rounds=1)
    return profile_solution(
        ProfileTask.from_record(row), code, meter=meter, sandbox=SANDBOX, measure=measure
    )


@requires_bwrap
@requires_qemu
def test_a_hanging_sample_times_out_at_the_rows_per_call_limit_under_icount():
    res = _profile(_row(judge_limits=LIMITS), HANG, "icount")
    assert res.status == "timeout", (res.status, res.error)
    assert res.error.startswith("natively: case 0:"), res.error
    assert "(limit per call 0.5 s, row judge_limits.call_seconds)" in res.error
    assert res.cpu_limits["call_seconds"] == 0.5
    assert res.cpu_limits["call_from"] == "row judge_limits.call_seconds"
    # a correct sample within the limits passes, and is counted
    ok = _profile(_row(judge_limits=LIMITS), HONEST, "icount")
    assert ok.status == "passed" and ok.runtime, ok.error
    # the original Mercury release: the whole pass's limit, as before
    old = _profile(_row(), HANG, "icount")
    assert old.status == "timeout" and "(limit for all cases together)" in old.error, old.error
    assert old.cpu_limits["call_seconds"] is None and old.cpu_limits["pass_seconds"] == 6.0


@requires_bwrap
def test_the_cpu_meter_applies_the_same_limits():
    res = _profile(_row(judge_limits=LIMITS), HANG, "cpu")
    assert res.status == "timeout", (res.status, res.error)
    assert "case 0: " in res.error and "(limit per call 0.5 s, row judge_limits.call_seconds)" in (
        res.error
    )
    assert not res.error.startswith("natively")  # the cpu meter has no native judge
    ok = _profile(_row(judge_limits=LIMITS), HONEST, "cpu")
    assert ok.status == "passed", ok.error
    old = _profile(_row(), HANG, "cpu")
    assert old.status == "timeout" and "(limit for all cases together)" in old.error, old.error


@requires_bwrap
def test_a_module_that_hangs_times_out_at_the_per_call_limit_too():
    # the build's judge loads a solution within the per-call limit: scoring does the same
    hang_at_load = "while True:\n    pass\n" + HONEST
    res = _profile(_row(judge_limits=LIMITS), hang_at_load, "cpu")
    assert res.status == "timeout", (res.status, res.error)
    assert res.error.startswith("loading the solution:"), res.error
    assert "(limit per call 0.5 s, row judge_limits.call_seconds)" in res.error


@requires_bwrap
@requires_qemu
def test_scoring_records_which_limit_applied_and_where_it_came_from(tmp_path):
    samples = {
        "sum-below": [Sample("sum-below", HANG, 0, "t:0"), Sample("sum-below", HONEST, 1, "t:1")]
    }
    report = score(
        [_row(judge_limits=LIMITS)],
        samples,
        sandbox=SANDBOX,
        cache=ReferenceCache(tmp_path),
        shipped_counts=False,
    ).to_dict()
    task = report["tasks"][0]
    assert report["row_call_limits"] == 1
    assert task["cpu_limits"]["call_seconds"] == 0.5
    assert task["cpu_limits"]["call_from"] == "row judge_limits.call_seconds"
    hang, honest = task["samples"]
    assert hang["status"] == "timeout" and "limit per call 0.5 s" in hang["error"], hang["error"]
    assert honest["status"] == "passed", honest["error"]
    assert any("limits per call from the rows" in line for line in summary_lines(report, 1))
