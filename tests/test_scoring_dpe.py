"""DPE / EvalPerf scoring in quicksilver.scoring.score(): verdict on the test cases, cost on the
performance-exercising input with its answers judged (against the row's pe_expected, or the
answer the cluster references agree on), lazy cluster references with one retry, first-10 task
means.

The sandbox tests use a hand-made task, "sum-of-range" (``sumRange(n) == sum(range(n))``), whose
four cluster references differ by 4x or more each on the pe input n = 120 (measured in the
sandbox: ~3 ms, ~250 µs, ~3.2 µs, ~0.8 µs; compiling their short sources is within the compile
allowance, profiler.COMPILE_ALLOWANCE_BYTES), and each sample lies 2x or more from the
references it is compared with, far outside the few percent of noise of a median over rounds. The unit tests replace the profiler with a stub whose costs are written in
the solutions, to check the bookkeeping (first 10 correct samples, retries, failures) exactly.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import quicksilver.scoring.dpe as scoring_dpe
import quicksilver.scoring.runs as scoring_runs
from quicksilver.config import MeasureConfig, SandboxConfig
from quicksilver.dpe.select import ACCEPT_ANY
from quicksilver.profiler import Job, ProfileTask, RunResult
from quicksilver.rows import TaskRow
from quicksilver.samples import Sample
from quicksilver.scoring import (
    ReferenceCache,
    ScoreReport,
    dpe_problem,
    is_dpe_record,
    pe_row_task,
    score,
)
from tests.conftest import QUICK, QUICK_CPU, quick_sandbox, requires_bwrap, requires_qemu

HEAD = "class Solution:\n    def sumRange(self, n: int) -> int:\n"
PROMPT = HEAD + "        "

# --- cluster references, slowest first ---------------------------------------------------------
CUBIC = HEAD + (  # ~n^3/6 idle steps
    "        total = 0\n"
    "        for i in range(n):\n"
    "            for j in range(i):\n"
    "                for _ in range(j):\n"
    "                    pass\n"
    "            total += i\n"
    "        return total\n"
)
SQUARE = HEAD + (  # n^2 steps with a test each
    "        total = 0\n"
    "        for i in range(n):\n"
    "            for j in range(n):\n"
    "                if j == 0:\n"
    "                    total += i\n"
    "        return total\n"
)
LINEAR = HEAD + (
    "        total = 0\n"
    "        for i in range(n):\n"
    "            total += i\n"
    "            total -= 0\n"
    "        return total\n"
)
# The fastest cluster: a closed form after a fixed 30-step loop, so that a bare closed form is
# clearly (about 4x) faster and matches it despite noise.
CLOSED = HEAD + ("        for _ in range(60):\n            pass\n        return n * (n - 1) // 2\n")
RAISES_ON_BIG = HEAD + (  # right on the test cases, an exception on the pe input
    "        if n > 50:\n"
    '            raise ValueError("too big for me")\n'
    "        return sum(range(n))\n"
)

# --- samples ------------------------------------------------------------------------------------
FAST = HEAD + "        return (n - 1) * n // 2\n"
TRIANGLE = HEAD + (  # n^2/2 idle steps: ~3x faster than SQUARE, ~20x slower than LINEAR
    "        total = 0\n"
    "        for i in range(n):\n"
    "            for _ in range(i):\n"
    "                pass\n"
    "            total += i\n"
    "        return total\n"
)
CUBE = HEAD + (  # n^3 idle steps: ~5x slower than CUBIC
    "        total = 0\n"
    "        for i in range(n):\n"
    "            for _ in range(n):\n"
    "                for _ in range(n):\n"
    "                    pass\n"
    "            total += i\n"
    "        return total\n"
)
WRONG = HEAD + "        return n * n\n"
# right on every test case, and on the large performance input (recognised by its size) it
# returns its input unchanged: the fastest "solution" there, and wrong
CHEAT = HEAD + ("        if n > 50:\n            return n\n        return (n - 1) * n // 2\n")

SCORES = [10.0, 40.0, 70.0, 100.0]
PE_N = 120
PE_ANSWER = sum(range(PE_N))  # 7140


def dpe_record(
    references: list[str],
    *,
    slug: str = "sum-of-range",
    scores: list[float] | None = None,
    pe_input: str | None = None,
    pe_expected: str | None = None,
) -> TaskRow:
    """A DPE row; without ``pe_expected`` (as EvalPerf's own rows and older builds) scoring takes
    the expected answer on the pe input from the cluster references."""
    cases = [{"input": [n], "expected": sum(range(n))} for n in (0, 1, 5, 10)]
    extra = {} if pe_expected is None else {"pe_expected": pe_expected}
    return TaskRow.from_row(
        {
            "id": slug,
            "slug_name": slug,
            "prompt": PROMPT,
            "entry_point": "sumRange",
            "test_cases": json.dumps(cases),
            "solutions": [],
            "task_kind": "class",
            "task_id": f"DPE/{slug}",
            "reference": references,
            "scores": SCORES if scores is None else scores,
            "pe_input": json.dumps([[PE_N]]) if pe_input is None else pe_input,
            **extra,
        }
    )


def samples(**by_task: list[str]) -> dict[str, list[Sample]]:
    out: dict[str, list[Sample]] = {}
    position = 0
    for task, codes in by_task.items():
        out[task] = []
        for i, code in enumerate(codes):
            out[task].append(Sample(task, code, i, f"test:{task}[{i}]", position=position))
            position += 1
    return out


def by_task(report: ScoreReport) -> dict[str, dict[str, Any]]:
    return {t["task_id"]: t for t in report.to_dict()["tasks"]}


def test_solutions_are_what_they_claim_in_process():
    for code, right in [
        (CUBIC, True),
        (SQUARE, True),
        (LINEAR, True),
        (CLOSED, True),
        (FAST, True),
        (TRIANGLE, True),
        (CUBE, True),
        (RAISES_ON_BIG, True),
        (CHEAT, True),
        (WRONG, False),
    ]:
        namespace: dict[str, Any] = {}
        exec(code, namespace)
        f = namespace["Solution"]().sumRange
        assert all(f(n) == sum(range(n)) for n in (0, 1, 5, 10)) is right
    namespace = {}
    exec(RAISES_ON_BIG, namespace)
    with pytest.raises(ValueError):
        namespace["Solution"]().sumRange(PE_N)
    namespace = {}
    exec(CHEAT, namespace)
    assert namespace["Solution"]().sumRange(PE_N) == PE_N != PE_ANSWER


def test_pe_row_task_is_one_case_per_call_judged_by_the_rows_own_judge():
    rec = dpe_record(
        [SQUARE], scores=[100.0], pe_input="[[[5,1,4,2]], [[3]]]", pe_expected="[12, 3]"
    )
    assert is_dpe_record(rec) and dpe_problem(rec) is None
    task = pe_row_task(rec, [12, 3])
    assert [(c.inputs, c.expected) for c in task.cases] == [([[5, 1, 4, 2]], 12), ([[3]], 3)]
    assert task.evaluate_offline == rec.effective_evaluate_offline() != ACCEPT_ANY
    assert (task.entry_point, task.kind) == ("sumRange", "class")
    namespace: dict[str, Any] = {}
    exec(task.evaluate_offline, namespace)
    assert namespace["evaluate_offline"]([1], 12, 12) is True
    assert namespace["evaluate_offline"]([1], "anything", 12) is False


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"scores": [100.0]}, "'scores' has 1 entries for 4 references"),
        ({"scores": [10.0, 50.0, 40.0, 100.0]}, "non-decreasing"),
        ({"scores": [10.0, 40.0, 70.0, 120.0]}, "not a percentage"),
        ({"pe_input": "[120]"}, "entry #0 is a int, not an argument list"),
        ({"pe_input": "[]"}, "non-empty JSON list"),
        ({"pe_input": "{oops"}, "not valid JSON"),
        ({"reference": [], "scores": []}, "'reference' is empty"),
        ({"pe_expected": "[1, 2]"}, "'pe_expected' must be a JSON list of 1 answer(s)"),
        ({"pe_expected": "7140"}, "'pe_expected' must be a JSON list of 1 answer(s)"),
        ({"pe_expected": "[7140"}, "'pe_expected' is not valid JSON"),
    ],
)
def test_dpe_problem_names_what_is_wrong_with_the_row(change, reason):
    row = dpe_record([CUBIC, SQUARE, LINEAR, CLOSED]).to_row()
    row.update(change)
    problem = dpe_problem(TaskRow.from_row(row))
    assert problem is not None and reason in problem


# --- in the sandbox ---------------------------------------------------------------------------

SANDBOX = quick_sandbox()
REFS = [CUBIC, SQUARE, LINEAR, CLOSED]


class CountingProfile:
    """Wraps scoring.dpe.profile_solution (used for the cluster references only)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[tuple[str, float, float]] = []  # (code, cpu_seconds, wall)
        self.real = scoring_dpe.profile_solution
        monkeypatch.setattr(scoring_dpe, "profile_solution", self)

    def __call__(self, task: ProfileTask, code: str, **kw: Any) -> RunResult:
        sandbox: SandboxConfig = kw["sandbox"]
        self.calls.append((code, sandbox.limits.cpu_seconds, sandbox.limits.wall))
        return self.real(task, code, **kw)

    def codes(self) -> list[str]:
        return [c for c, _, _ in self.calls]


@pytest.fixture(scope="module")
def scored(tmp_path_factory) -> ScoreReport:
    return score(
        [dpe_record(REFS)],
        samples(**{"sum-of-range": [FAST, TRIANGLE, CUBE, WRONG]}),
        sandbox=SANDBOX,
        measure=QUICK,
        cache=ReferenceCache(tmp_path_factory.mktemp("cache")),
        workers=2,
    )


@requires_bwrap
def test_samples_match_their_clusters(scored):
    task = by_task(scored)["sum-of-range"]
    fast, triangle, cube, wrong = task["samples"]
    costs = task["reference_costs"]
    # the cube scanned every cluster: all four references were measured, slow to fast
    assert task["reference_status"] == ["passed"] * 4 and task["reference_errors"] == []
    assert all(costs[j] > 3 * costs[j + 1] > 0 for j in range(3))

    assert (fast["status"], fast["pe_status"]) == ("passed", "passed")
    assert (fast["cluster"], fast["dps"], fast["dps_norm"]) == (3, 100.0, 100.0)
    assert fast["pe_cost"] <= costs[3]

    assert (triangle["cluster"], triangle["dps"], triangle["dps_norm"]) == (1, 40.0, 50.0)
    assert costs[2] < triangle["pe_cost"] <= costs[1]

    assert cube["pe_status"] == "passed" and cube["pe_cost"] > costs[0]
    assert (cube["cluster"], cube["dps"], cube["dps_norm"]) == (None, 0.0, 0.0)

    assert wrong["status"] == "failed" and "wrong answer" in wrong["error"]
    assert wrong["pe_status"] is None and wrong["pe_cost"] is None
    assert wrong["dps"] is None and wrong["dps_norm"] is None  # not a correct sample

    # the test cases give the verdict only; DPE rows have no Beyond
    assert all(s["runtime"] is None and s["beyond"] is None for s in task["samples"])
    assert task["dpe"] is True and task["n_correct"] == 3 and task["c"] == 3
    assert task["dps"] == pytest.approx((100.0 + 40.0 + 0.0) / 3)
    assert task["dps_norm"] == pytest.approx((100.0 + 50.0 + 0.0) / 3)
    assert task["beyond"] is None and task["unscorable"] is True


@requires_bwrap
def test_report_summary_for_dpe_tasks(scored):
    data = scored.to_dict()
    assert data["dps"] == pytest.approx(140.0 / 3)
    assert data["dps_norm"] == pytest.approx(50.0)
    assert (data["dps_tasks"], data["dpe_tasks"], data["dps_unscorable"]) == (1, 1, {})
    assert data["pass_at_1"] == 0.75
    assert data["isolation"] == "bwrap"
    json.dumps(data)


@requires_bwrap
def test_fast_sample_needs_only_the_fastest_reference_and_the_cache_is_reused(
    tmp_path, monkeypatch
):
    counting = CountingProfile(monkeypatch)
    rec = dpe_record(REFS)
    group = samples(**{"sum-of-range": [FAST]})

    def run() -> dict[str, Any]:
        report = score([rec], group, sandbox=SANDBOX, measure=QUICK, cache=ReferenceCache(tmp_path))
        return by_task(report)["sum-of-range"]

    first = run()
    assert counting.codes() == [CLOSED]  # the scan stopped at the fastest cluster
    assert first["reference_status"] == [None, None, None, "passed"]
    assert first["reference_costs"][:3] == [None, None, None]
    assert first["dps"] == 100.0 and first["samples"][0]["cluster"] == 3
    assert len(list(tmp_path.rglob("*.json"))) == 2  # the fastest reference and the sample

    counting.calls.clear()
    second = run()
    assert counting.calls == []  # from the on-disk cache
    assert second["reference_costs"] == first["reference_costs"]
    assert second["dps"] == 100.0


@requires_bwrap
def test_reference_failing_on_the_pe_input_is_retried_recorded_and_skipped(tmp_path, monkeypatch):
    counting = CountingProfile(monkeypatch)
    rec = dpe_record([CUBIC, SQUARE, RAISES_ON_BIG, CLOSED])
    report = score(
        [rec],
        samples(**{"sum-of-range": [TRIANGLE]}),
        sandbox=SANDBOX,
        measure=QUICK,
        cache=ReferenceCache(tmp_path),
    )
    task = by_task(report)["sum-of-range"]
    # fastest first; the failing one twice (the second time with 4x the limits); then SQUARE
    assert counting.calls == [
        (CLOSED, 5.0, 10.0),
        (RAISES_ON_BIG, 5.0, 10.0),
        (RAISES_ON_BIG, 20.0, 40.0),
        (SQUARE, 5.0, 10.0),
    ]
    assert task["reference_status"] == [None, "passed", "error", "passed"]
    assert task["reference_costs"][2] is None
    (error,) = task["reference_errors"]
    assert error.startswith("cluster 2 of 4 (0 = slowest): error: ")
    assert "too big for me" in error and "after a retry with 4x" in error
    (sample,) = task["samples"]
    assert (sample["cluster"], sample["dps"], sample["dps_norm"]) == (1, 40.0, 50.0)
    assert task["dps"] == 40.0 and task["dps_error"] is None

    # the broken reference is cached like the others: a second run profiles nothing
    counting.calls.clear()
    again = by_task(
        score(
            [rec],
            samples(**{"sum-of-range": [TRIANGLE]}),
            sandbox=SANDBOX,
            measure=QUICK,
            cache=ReferenceCache(tmp_path),
        )
    )["sum-of-range"]
    assert counting.calls == []
    assert again["reference_status"] == task["reference_status"]
    assert "cached result" in again["reference_errors"][0]
    assert again["samples"][0]["dps"] == 40.0


# --- the answers on the performance input, in the sandbox -----------------------------------------


def _the_cheat_scored_zero(report: ScoreReport, source: str, *, exact: bool = True) -> None:
    """``exact``: the honest sample matches the fastest cluster (a count); with a time meter and
    a few rounds on a shared machine its sub-microsecond call is within the noise of the empty
    call subtracted from it (tens of microseconds), so it matches some cluster, not a given one."""
    task = by_task(report)["sum-of-range"]
    fast, cheat = task["samples"]
    assert (fast["status"], fast["pe_status"]) == ("passed", "passed")
    if exact:
        assert (fast["cluster"], fast["dps"], fast["dps_norm"]) == (3, 100.0, 100.0)
    else:
        assert fast["cluster"] is not None and fast["dps"] > 0, fast
    assert cheat["status"] == "passed"  # right on every test case
    assert cheat["pe_status"] == "failed" and cheat["pe_cost"] is None
    assert (cheat["cluster"], cheat["dps"], cheat["dps_norm"]) == (None, 0.0, 0.0)
    whose = {
        "dataset": "the dataset's accepted answer, pe_expected",
        "references": "the answer the cluster references agree on",
    }[source]
    assert cheat["pe_error"] == (
        f"wrong answer on the performance input: case 0: got {PE_N}, expected {PE_ANSWER} "
        f"(expected: {whose})"
    )
    assert task["pe_expected_source"] == source and task["pe_expected_detail"]
    if source == "references":  # the fastest reference's answer, which the three others give
        assert task["pe_expected_detail"].startswith("the answer of cluster 3's reference")
        assert "accepts from the 3 other reference(s)" in task["pe_expected_detail"]
    assert task["dps"] == (50.0 if exact else fast["dps"] / 2) and task["dps_error"] is None
    assert task["reference_status"][3] == "passed"


@requires_bwrap
@requires_qemu
@pytest.mark.parametrize("source", ["dataset", "references"])
def test_a_sample_wrong_only_on_the_pe_input_scores_zero_and_says_why(tmp_path, source):
    """The cheat is right on every test case and, on the large pe input, returns its input: the
    fastest there. Unjudged (EvalPerf's scorer, and ours before), it scored DPS 100. Judged
    against the row's pe_expected, or, for a row without it, the references' answer: 0."""
    stored = json.dumps([PE_ANSWER]) if source == "dataset" else None
    report = score(
        [dpe_record(REFS, pe_expected=stored)],
        samples(**{"sum-of-range": [FAST, CHEAT]}),
        sandbox=SANDBOX,
        measure=QUICK,
        cache=ReferenceCache(tmp_path),
        workers=2,
    )
    _the_cheat_scored_zero(report, source)


@requires_bwrap
def test_a_sample_wrong_only_on_the_pe_input_scores_zero_on_the_cpu_meter(tmp_path):
    report = score(
        [dpe_record(REFS, pe_expected=json.dumps([PE_ANSWER]))],
        samples(**{"sum-of-range": [FAST, CHEAT]}),
        meter="cpu",
        sandbox=SANDBOX,
        measure=QUICK_CPU,
        cache=ReferenceCache(tmp_path),
        workers=2,
    )
    _the_cheat_scored_zero(report, "dataset", exact=False)


@requires_bwrap
def test_references_that_disagree_on_the_pe_input_leave_its_answers_unjudged(tmp_path):
    """A row without pe_expected whose cluster references give different answers there: no
    reference's answer is taken over another's, and no DPS is given."""
    report = score(
        [dpe_record([CUBIC, SQUARE, CHEAT, CLOSED])],
        samples(**{"sum-of-range": [FAST]}),
        meter="cpu",
        sandbox=SANDBOX,
        measure=QUICK_CPU,
        cache=ReferenceCache(tmp_path),
    )
    data = report.to_dict()
    task = by_task(report)["sum-of-range"]
    assert task["dps"] is None and task["pe_expected_source"] is None
    assert task["dps_error"] == (
        "the performance input's answers cannot be judged: the cluster references disagree on "
        "the performance input: judged against cluster 3's answer (0 = slowest of 4), cluster 2: "
        f"case 0: got {PE_N}, expected {PE_ANSWER}; the samples' answers there are not judged "
        "against an arbitrary one of them"
    )
    (sample,) = task["samples"]
    assert sample["status"] == "passed" and sample["pe_status"] is None and sample["dps"] is None
    assert data["dps_unscorable"] == {"sum-of-range": task["dps_error"]}


def test_an_in_place_answer_is_the_argument_the_test_cases_show():
    """A reference of an in-place task returns None: its answer is the argument whose shape the
    test cases' expected values have (the only one), after the call."""
    row = dpe_record([SQUARE], scores=[100.0]).to_row()
    row["test_cases"] = json.dumps(
        [{"input": [[3, 1, 2], 2], "expected": [1, 2, 3]}, {"input": [[5], 1], "expected": [5]}]
    )
    rec = TaskRow.from_row(row)
    ran = [{"output": None, "inputs_after": [[1, 2, 3, 4], 4]}]
    assert scoring_dpe._answers_of(rec, ran) == [[1, 2, 3, 4]]
    assert scoring_dpe._answers_of(rec, [{"output": 7, "inputs_after": None}]) == [7]
    # two arguments of the answer's shape: which one holds it cannot be told
    row["test_cases"] = json.dumps([{"input": [[3, 1], [2, 4]], "expected": [1, 3]}])
    with pytest.raises(ValueError, match="which argument holds an in-place answer"):
        scoring_dpe._answers_of(TaskRow.from_row(row), [{"output": None, "inputs_after": []}])


# --- with a stub profiler ------------------------------------------------------------------------


def stub(cost: float, *marks: str) -> str:
    """A 'solution' for the stub profiler: its pe cost and behaviour are written in it."""
    return HEAD + f"        return 0  # cost={cost} {' '.join(marks)}\n"


def _cost(code: str) -> float:
    m = re.search(r"cost=([0-9.]+)", code)
    assert m, code
    return float(m.group(1))


def on_pe_input(task: ProfileTask) -> bool:
    return [c.inputs for c in task.cases] == [[PE_N]]


class StubProfiler:
    """Stands in for profile_many (samples; references' answers) and profile_solution
    (references).

    Marks: ``wrong`` fails the test cases; ``pe-crash`` fails on the pe input; ``pe-mismatch``
    answers otherwise than every other solution on the pe input (0 is the stub's answer);
    ``broken`` (references) always errors; ``needs-cpu=X`` times out under a CPU limit below X
    seconds.
    """

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.verdict_jobs: list[Job] = []
        self.pe_jobs: list[Job] = []
        self.pe_measures: list[MeasureConfig] = []
        self.answer_jobs: list[Job] = []  # references run for their answers (no pe_expected)
        self.reference_calls: list[tuple[float, float, float]] = []  # (cost, cpu, wall)
        monkeypatch.setattr(scoring_runs, "profile_many", self.profile_many)
        monkeypatch.setattr(scoring_dpe, "profile_many", self.profile_many)
        monkeypatch.setattr(scoring_dpe, "profile_solution", self.profile_solution)

    @staticmethod
    def result(task: ProfileTask, status: str, runtime: float | None = None) -> RunResult:
        return RunResult(
            task.task_id,
            status,  # type: ignore[arg-type]
            "cpu",
            "s",
            "bwrap",
            runtime=runtime,
            error=None if status == "passed" else f"stub {status}",
        )

    @staticmethod
    def answer(code: str) -> int:
        return 1 if "pe-mismatch" in code else 0

    def judged(self, task: ProfileTask, code: str) -> str:
        """The status of ``code``'s answer on the pe input, judged against the task's."""
        assert task.evaluate_offline != ACCEPT_ANY and task.cases[0].expected is not None
        if "pe-crash" in code or "broken" in code:
            return "memory" if "pe-crash" in code else "error"
        return "passed" if [self.answer(code)] == [c.expected for c in task.cases] else "failed"

    def profile_many(self, jobs: list[Job], **kw: Any) -> list[RunResult]:
        out = []
        for job in jobs:
            if kw.get("keep_outputs"):  # a reference run for its answer (a row without one)
                assert on_pe_input(job.task) and not kw.get("measure_cost", True)
                self.answer_jobs.append(job)
                res = self.result(job.task, "error" if "broken" in job.code else "passed")
                if res.passed:
                    res.outputs = [{"output": self.answer(job.code), "inputs_after": None}]
                out.append(res)
                continue
            if not kw.get("measure_cost", True):
                if on_pe_input(job.task):  # another reference, judged on its answer
                    out.append(self.result(job.task, self.judged(job.task, job.code)))
                    continue
                self.verdict_jobs.append(job)
                assert job.task.evaluate_offline != ACCEPT_ANY
                status = "failed" if "wrong" in job.code else "passed"
                out.append(self.result(job.task, status))
                continue
            if on_pe_input(job.task):
                self.pe_jobs.append(job)
                self.pe_measures.append(kw["measure"])
                status = self.judged(job.task, job.code)
                cost = _cost(job.code) if status == "passed" else None
                out.append(self.result(job.task, status, cost))
                continue
            # Mercury rows
            status = "failed" if "wrong" in job.code else "passed"
            out.append(
                self.result(job.task, status, _cost(job.code) if status == "passed" else None)
            )
        return out

    def profile_solution(self, task: ProfileTask, code: str, **kw: Any) -> RunResult:
        limits = kw["sandbox"].limits
        self.reference_calls.append((_cost(code), limits.cpu_seconds, limits.wall))
        status = self.judged(task, code)
        if status != "passed":
            return self.result(task, status)
        need = re.search(r"needs-cpu=([0-9.]+)", code)
        if need and limits.cpu_seconds < float(need.group(1)):
            return self.result(task, "timeout")
        return self.result(task, "passed", _cost(code))


STUB_REFS = [stub(8.0), stub(4.0), stub(2.0), stub(1.0)]  # slowest first


def stub_score(
    records: list[TaskRow], group: dict[str, list[Sample]], cache_dir: Path
) -> ScoreReport:
    return score(
        records,
        group,
        sandbox=quick_sandbox(),
        measure=QUICK,
        cache=ReferenceCache(cache_dir),
        workers=2,
    )


def test_task_score_is_the_mean_over_the_first_10_correct_samples(tmp_path, monkeypatch):
    prof = StubProfiler(monkeypatch)
    # cost -> cluster: 0.5 -> 3 (100), 1.5 -> 2 (70), 3 -> 1 (40), 6 -> 0 (10), 9 -> none (0)
    costs = [0.5, 1.5, 3.0, 6.0, 9.0, 0.5, 0.5, 1.5, 3.0, 6.0, 0.5, 0.5]
    dps_of = {0.5: 100.0, 1.5: 70.0, 3.0: 40.0, 6.0: 10.0, 9.0: 0.0}
    codes = [stub(c) for c in costs]
    codes.insert(2, stub(0.5, "wrong"))  # incorrect: not among the correct samples
    report = stub_score([dpe_record(STUB_REFS)], samples(**{"sum-of-range": codes}), tmp_path)
    task = by_task(report)["sum-of-range"]
    assert task["n"] == 13 and task["n_correct"] == 12
    # only the first 10 correct samples were profiled on the pe input, with >= 3 rounds
    assert [_cost(j.code) for j in prof.pe_jobs] == costs[:10]
    assert all(m.min_rounds >= 3 and m.max_rounds >= m.min_rounds for m in prof.pe_measures)
    assert len(prof.verdict_jobs) == 13
    scored_samples = [s for s in task["samples"] if s["status"] == "passed"]
    assert [s["dps"] for s in scored_samples[:10]] == [dps_of[c] for c in costs[:10]]
    assert all(s["pe_status"] == "skipped" and s["dps"] is None for s in scored_samples[10:])
    wrong = task["samples"][2]
    assert wrong["status"] == "failed" and wrong["dps"] is None
    assert task["dps"] == pytest.approx(sum(dps_of[c] for c in costs[:10]) / 10)
    norm_of = {0.5: 100.0, 1.5: 75.0, 3.0: 50.0, 6.0: 25.0, 9.0: 0.0}
    assert task["dps_norm"] == pytest.approx(sum(norm_of[c] for c in costs[:10]) / 10)
    # each reference profiled once, however many samples needed it
    assert sorted(c for c, _, _ in prof.reference_calls) == [1.0, 2.0, 4.0, 8.0]


def test_wrong_answers_on_the_pe_input_score_zero_and_wrong_references_are_skipped(
    tmp_path, monkeypatch
):
    """With the row's pe_expected: a sample answering otherwise on the pe input scores 0 with
    the reason; a cluster reference answering otherwise is listed, not retried (a wrong answer
    is no limit's doing) and skipped, so a sample can match the next slower cluster."""
    prof = StubProfiler(monkeypatch)
    refs = [stub(8.0), stub(4.0), stub(2.0, "pe-mismatch"), stub(1.0)]
    group = samples(**{"sum-of-range": [stub(1.5), stub(0.5, "pe-mismatch")]})
    report = stub_score([dpe_record(refs, pe_expected="[0]")], group, tmp_path)
    task = by_task(report)["sum-of-range"]
    assert prof.answer_jobs == []  # the row says what the answer is
    assert task["pe_expected_source"] == "dataset"
    honest, wrong = task["samples"]
    assert (honest["cluster"], honest["dps"]) == (1, 40.0)  # cluster 2's reference is skipped
    assert (wrong["pe_status"], wrong["dps"], wrong["cluster"]) == ("failed", 0.0, None)
    assert wrong["pe_error"] == (
        "wrong answer on the performance input: stub failed "
        "(expected: the dataset's accepted answer, pe_expected)"
    )
    assert [c for c, _, _ in prof.reference_calls].count(2.0) == 1  # not retried
    assert task["reference_status"] == [None, "passed", "failed", "passed"]
    (error,) = task["reference_errors"]
    assert error.startswith("cluster 2 of 4 (0 = slowest): failed: ")
    assert task["dps"] == 20.0


def test_a_row_without_pe_expected_is_judged_against_the_references_answer(tmp_path, monkeypatch):
    prof = StubProfiler(monkeypatch)
    group = samples(**{"sum-of-range": [stub(0.5), stub(0.5, "pe-mismatch")]})
    report = stub_score([dpe_record(STUB_REFS)], group, tmp_path)
    task = by_task(report)["sum-of-range"]
    # the fastest reference ran for its answer; the three others were judged against it
    assert [_cost(j.code) for j in prof.answer_jobs] == [1.0]
    assert task["pe_expected_source"] == "references"
    assert task["pe_expected_detail"] == (
        "the answer of cluster 3's reference (0 = slowest of 4), which the row's "
        "evaluate_offline accepts from the 3 other reference(s) that answer"
    )
    right, wrong = task["samples"]
    assert right["dps"] == 100.0 and wrong["dps"] == 0.0
    assert wrong["pe_error"].endswith("(expected: the answer the cluster references agree on)")

    # the fastest reference does not answer: the next one's answer is taken
    prof.answer_jobs.clear()
    refs = [stub(8.0), stub(4.0), stub(2.0), stub(1.0, "broken")]
    report = stub_score([dpe_record(refs)], samples(**{"sum-of-range": [stub(3.0)]}), tmp_path)
    task = by_task(report)["sum-of-range"]
    assert [_cost(j.code) for j in prof.answer_jobs] == [1.0, 2.0]
    assert task["pe_expected_detail"].startswith("the answer of cluster 2's reference")
    assert task["pe_expected_detail"].endswith("(1 gave none: clusters 3)")
    assert task["samples"][0]["dps"] == 40.0


def test_reference_timing_out_at_the_first_limit_passes_with_the_longer_one(tmp_path, monkeypatch):
    prof = StubProfiler(monkeypatch)
    refs = [stub(8.0), stub(4.0), stub(2.0, "needs-cpu=12"), stub(1.0)]
    report = stub_score([dpe_record(refs)], samples(**{"sum-of-range": [stub(1.5)]}), tmp_path)
    task = by_task(report)["sum-of-range"]
    assert prof.reference_calls == [(1.0, 5.0, 10.0), (2.0, 5.0, 10.0), (2.0, 20.0, 40.0)]
    assert task["reference_status"] == [None, None, "passed", "passed"]
    assert task["reference_costs"] == [None, None, 2.0, 1.0]
    assert task["reference_errors"] == []  # it passed on the retry
    assert (task["samples"][0]["cluster"], task["dps"]) == (2, 70.0)

    prof.reference_calls.clear()  # the retried result is cached like any other
    stub_score([dpe_record(refs)], samples(**{"sum-of-range": [stub(1.5)]}), tmp_path)
    assert prof.reference_calls == []


def test_every_reference_failing_leaves_the_task_without_dps(tmp_path, monkeypatch):
    prof = StubProfiler(monkeypatch)
    refs = [stub(8.0, "broken"), stub(4.0, "broken")]
    report = stub_score(
        [dpe_record(refs, scores=[50.0, 100.0], pe_expected="[0]")],
        samples(**{"sum-of-range": [stub(1.0), stub(9.0)]}),
        tmp_path,
    )
    data = report.to_dict()
    task = by_task(report)["sum-of-range"]
    assert len(prof.reference_calls) == 4  # each retried once, none twice
    assert task["dps"] is None and task["dps_norm"] is None
    assert "every cluster reference (2) failed" in task["dps_error"]
    assert len(task["reference_errors"]) == 2
    assert all(s["dps"] is None and s["status"] == "passed" for s in task["samples"])
    assert (data["dps"], data["dps_tasks"]) == (None, 0)
    assert data["dps_unscorable"] == {"sum-of-range": task["dps_error"]}
    assert data["pass_at_1"] == 1.0


def test_failed_pe_profile_scores_zero_and_slower_clusters_are_not_needed(tmp_path, monkeypatch):
    prof = StubProfiler(monkeypatch)
    report = stub_score(
        [dpe_record(STUB_REFS)],
        samples(**{"sum-of-range": [stub(0.5, "pe-crash")]}),
        tmp_path,
    )
    task = by_task(report)["sum-of-range"]
    (sample,) = task["samples"]
    assert sample["status"] == "passed" and sample["pe_status"] == "memory"
    assert (sample["pe_cost"], sample["dps"], sample["dps_norm"]) == (None, 0.0, 0.0)
    assert task["dps"] == 0.0
    # one passing reference shows the pe input is runnable; no other is profiled
    assert [c for c, _, _ in prof.reference_calls] == [1.0]


def test_mixed_dataset_unknown_tasks_and_uneven_sample_counts(tmp_path, monkeypatch):
    """Mercury rows keep Beyond; DPE rows get DPS; the overall DPS averages only DPE tasks with a
    correct sample; unknown tasks are listed, and no task or sample count is demanded."""
    StubProfiler(monkeypatch)
    mercury = TaskRow.from_row(
        {
            "id": "1",
            "slug_name": "merc",
            "prompt": PROMPT,
            "entry_point": "sumRange",
            "test_cases": json.dumps([{"input": [3], "expected": 3}]),
            "solutions": [
                {"hash": 1, "runtime": None, "solution": stub(1.0)},
                {"hash": 2, "runtime": None, "solution": stub(3.0)},
            ],
        }
    )
    records = [
        mercury,
        dpe_record(STUB_REFS, slug="dpe-a"),
        dpe_record(STUB_REFS, slug="dpe-b"),
        dpe_record(STUB_REFS, slug="dpe-unsampled"),
        dpe_record(STUB_REFS, slug="dpe-bad-row", pe_input='"not a list"'),
    ]
    group = samples(
        merc=[stub(2.0)],
        **{
            "DPE/dpe-a": [stub(0.5), stub(3.0), stub(1.5)],  # by task_id
            "dpe-b": [stub(0.5, "wrong")],
            "dpe-bad-row": [stub(0.5)],
            "not-in-dataset": [stub(0.5)],
        },
    )
    report = stub_score(records, group, tmp_path)
    data = report.to_dict()
    tasks = by_task(report)
    assert list(tasks) == ["merc", "dpe-a", "dpe-b", "dpe-bad-row"]
    assert data["missing_tasks"] == ["not-in-dataset"]
    assert tasks["merc"]["dpe"] is False and tasks["merc"]["beyond"] == 0.5
    assert tasks["merc"]["dps"] is None
    assert tasks["dpe-a"]["dps"] == pytest.approx((100.0 + 40.0 + 70.0) / 3)
    assert tasks["dpe-b"]["n_correct"] == 0 and tasks["dpe-b"]["dps"] is None
    bad = tasks["dpe-bad-row"]
    assert bad["dps"] is None and bad["n_correct"] == 1
    assert "dataset row: 'pe_input' must be a non-empty JSON list" in bad["dps_error"]
    # overall: only dpe-a has a correct sample and a score
    assert data["dps"] == pytest.approx(tasks["dpe-a"]["dps"])
    assert (data["dps_tasks"], data["dpe_tasks"]) == (1, 3)
    assert list(data["dps_unscorable"]) == ["dpe-bad-row"]
    assert data["pass_at_1"] == pytest.approx((1 + 1 + 0 + 1) / 4)


@pytest.mark.parametrize(
    ("meter", "tolerance", "clusters", "recorded"),
    [
        # the cpu meter's default: up to 10% above a reference still matches it
        ("cpu", None, [3, 2, 2, 1], 0.1),
        # EvalPerf's exact rule, asked for with the cpu meter
        ("cpu", 0.0, [2, 2, 1, 1], 0.0),
        # icount: exact by default (a sample that is its reference's code counts the same)
        ("icount", None, [2, 2, 1, 1], 0.0),
    ],
)
def test_dps_match_tolerance_follows_the_meter(
    tmp_path, monkeypatch, meter, tolerance, clusters, recorded
):
    prof = StubProfiler(monkeypatch)
    costs = [1.05, 1.15, 2.1, 2.3]  # references cost 8, 4, 2, 1 (slowest first)
    report = score(
        [dpe_record(STUB_REFS)],
        samples(**{"sum-of-range": [stub(c) for c in costs]}),
        meter=meter,
        sandbox=quick_sandbox(),
        measure=QUICK,
        cache=ReferenceCache(tmp_path),
        workers=2,
        dps_tolerance=tolerance,
    )
    data = report.to_dict()
    task = by_task(report)["sum-of-range"]
    assert [s["cluster"] for s in task["samples"]] == clusters
    assert data["dps_tolerance"] == recorded
    if meter == "cpu":  # paired: the references were measured beside the samples
        assert sorted(_cost(j.code) for j in prof.pe_jobs) == sorted([8.0, 4.0, 2.0, 1.0, *costs])


def test_dps_tolerance_past_the_clusters_gap_is_refused(tmp_path, monkeypatch):
    StubProfiler(monkeypatch)
    with pytest.raises(ValueError, match="below the clusters' gap"):
        score(
            [dpe_record(STUB_REFS)],
            samples(**{"sum-of-range": [stub(1.0)]}),
            sandbox=quick_sandbox(),
            measure=QUICK,
            cache=ReferenceCache(tmp_path),
            dps_tolerance=0.25,
        )
