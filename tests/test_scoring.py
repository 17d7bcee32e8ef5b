"""quicksilver.scoring.score() on records built here: Beyond at both ends of the reference
distribution, unscorable tasks, unknown tasks, and the per-machine reference cache.

The task "count-zero-pairs" counts pairs i < j with nums[i] + nums[j] == 0. Its big case has
1,500 numbers, so an O(n^2) double loop (~1.1M pair checks) is hundreds of times slower than a
one-pass hash-map count: the gaps checked below are orders of magnitude wider than any noise.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

import quicksilver.scoring.mercury as scoring_mercury
import quicksilver.scoring.runs as scoring_runs
from quicksilver.config import MeasureConfig, SandboxConfig
from quicksilver.rows import TaskRow, load_json
from quicksilver.samples import Sample
from quicksilver.sandbox import cgroup
from quicksilver.scoring import ReferenceCache, ScoreReport, score
from tests.conftest import requires_bwrap, requires_qemu

MEASURE = MeasureConfig(max_rounds=6, min_rounds=6, budget_seconds=2.0)
SANDBOX = SandboxConfig()
MERCURY_ROWS = Path(__file__).parent / "fixtures" / "records" / "mercury_rows.json"

PROMPT = "class Solution:\n    def countZeroPairs(self, nums: List[int]) -> int:\n        "
HEAD = "class Solution:\n    def countZeroPairs(self, nums: List[int]) -> int:\n"

DOUBLE_LOOP = HEAD + (
    "        n = len(nums)\n"
    "        count = 0\n"
    "        for i in range(n):\n"
    "            for j in range(i + 1, n):\n"
    "                if nums[i] + nums[j] == 0:\n"
    "                    count += 1\n"
    "        return count\n"
)
# every ordered pair: twice the work of DOUBLE_LOOP
ORDERED_PAIRS = HEAD + (
    "        count = 0\n"
    "        for i, x in enumerate(nums):\n"
    "            for j, y in enumerate(nums):\n"
    "                if i != j and x + y == 0:\n"
    "                    count += 1\n"
    "        return count // 2\n"
)
HASH_MAP = HEAD + (
    "        seen = {}\n"
    "        count = 0\n"
    "        for x in nums:\n"
    "            count += seen.get(-x, 0)\n"
    "            seen[x] = seen.get(x, 0) + 1\n"
    "        return count\n"
)
COUNTER = HEAD + (
    "        c = collections.Counter(nums)\n"
    "        zeros = c[0] * (c[0] - 1) // 2\n"
    "        return zeros + sum(v * c[-x] for x, v in c.items() if x > 0)\n"
)
WRONG = HEAD + "        return -1\n"


def _cases() -> list[dict[str, Any]]:
    rng = random.Random(1234)
    big = [rng.randrange(-300, 300) for _ in range(1500)]
    out = []
    for nums in ([-1, 1, 0, 0, 2, -2, 3], [5], big):
        expected = sum(1 for a, b in itertools.combinations(nums, 2) if a + b == 0)
        out.append({"input": [nums], "expected": expected})
    assert out[0]["expected"] == 3 and out[1]["expected"] == 0 and out[2]["expected"] > 1000
    return out


CASES = _cases()


def record(slug: str, task_id: str, references: list[str], difficulty: str = "Easy") -> TaskRow:
    return TaskRow.from_row(
        {
            "id": task_id,
            "slug_name": slug,
            "difficulty": difficulty,
            "solutions": [
                {"hash": 1000 + i, "runtime": None, "solution": code}
                for i, code in enumerate(references)
            ],
            "prompt": PROMPT,
            "entry_point": "countZeroPairs",
            "test_cases": json.dumps(CASES),
        }
    )


def samples(**by_task: list[str]) -> dict[str, list[Sample]]:
    return {
        task: [Sample(task, code, i, f"test:{task}[{i}]") for i, code in enumerate(codes)]
        for task, codes in by_task.items()
    }


def by_task(report: ScoreReport) -> dict[str, dict[str, Any]]:
    return {t["task_id"]: t for t in report.to_dict()["tasks"]}


def test_references_are_correct_in_process():
    """The references (and the wrong one) do what they claim before any sandbox is involved."""
    import collections

    for code, right in [
        (DOUBLE_LOOP, True),
        (ORDERED_PAIRS, True),
        (HASH_MAP, True),
        (COUNTER, True),
        (WRONG, False),
    ]:
        namespace: dict[str, Any] = {"List": list, "collections": collections}
        exec(code, namespace)
        got = [namespace["Solution"]().countZeroPairs(list(c["input"][0])) for c in CASES]
        assert (got == [c["expected"] for c in CASES]) is right


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> ScoreReport:
    records = [
        record("slow-refs", "9001", [DOUBLE_LOOP, ORDERED_PAIRS]),
        record("fast-refs", "9002", [HASH_MAP, COUNTER], difficulty="Medium"),
        record("broken-refs", "9003", [WRONG, WRONG + "# another\n"], difficulty="Hard"),
    ]
    return score(
        records,
        samples(
            **{
                "slow-refs": [HASH_MAP],  # faster than every reference
                "9002": [DOUBLE_LOOP],  # slower than every reference, named by id
                "broken-refs": [COUNTER],  # correct, but no reference passes
                "no-such-task": [HASH_MAP],
            }
        ),
        sandbox=SANDBOX,
        measure=MEASURE,
        cache=ReferenceCache(tmp_path_factory.mktemp("cache")),
        workers=2,
    )


@requires_bwrap
def test_faster_than_every_reference_scores_one(report):
    task = by_task(report)["slow-refs"]
    (sample,) = task["samples"]
    assert sample["status"] == "passed"
    refs = task["reference_runtimes"]
    assert all(r is not None for r in refs)
    assert sample["runtime"] * 20 < min(refs)
    assert sample["beyond"] == 1.0  # clipped at min(R), as in the paper
    assert sample["percentile"] == 100.0
    assert task["beyond"] == 1.0 and task["unscorable"] is False


@requires_bwrap
def test_slower_than_every_reference_scores_zero(report):
    task = by_task(report)["fast-refs"]  # the sample named the task by its id
    (sample,) = task["samples"]
    assert sample["status"] == "passed"  # correct, just slow
    refs = task["reference_runtimes"]
    assert all(r is not None for r in refs)
    assert sample["runtime"] > 20 * max(refs)
    assert sample["beyond"] == 0.0  # clipped at max(R)
    assert sample["percentile"] == 0.0
    assert task["beyond"] == 0.0 and task["pass_at_k"] == 1.0


@requires_bwrap
def test_task_whose_references_all_fail_is_unscorable(report):
    task = by_task(report)["broken-refs"]
    assert task["unscorable"] is True
    assert task["beyond"] is None and task["percentile"] is None
    assert task["reference_runtimes"] == [None, None]
    assert len(task["reference_errors"]) == 2
    assert all(e.startswith("failed: ") and "wrong answer" in e for e in task["reference_errors"])
    (sample,) = task["samples"]
    assert sample["status"] == "passed"  # the sample itself is right
    assert sample["beyond"] is None and sample["percentile"] is None
    assert task["pass_at_k"] == 1.0


@requires_bwrap
def test_unknown_tasks_and_the_summary(report):
    data = report.to_dict()
    assert report.missing_tasks == ["no-such-task"] == data["missing_tasks"]
    assert [t["task_id"] for t in data["tasks"]] == ["slow-refs", "fast-refs", "broken-refs"]
    assert data["n_tasks"] == 3 and data["n_unscorable"] == 1
    assert data["pass_at_1"] == 1.0
    # Beyond over the scorable tasks only: (1.0 + 0.0) / 2
    assert data["beyond_at_1"] == 0.5
    assert data["gap"] == 0.5
    assert data["by_difficulty"]["Hard"]["beyond_at_k"] is None
    assert data["by_difficulty"]["Hard"]["n_unscorable"] == 1
    assert data["by_difficulty"]["Easy"]["beyond_at_k"] == 1.0
    assert data["by_difficulty"]["Medium"]["beyond_at_k"] == 0.0
    assert (data["meter"], data["unit"], data["isolation"]) == ("icount", "instructions", "bwrap")
    json.dumps(data)  # the report is plain JSON


@requires_bwrap
def test_no_sample_matching_the_dataset_is_an_error(tmp_path):
    with pytest.raises(ValueError, match="no sample matches"):
        score(
            [record("slow-refs", "9001", [HASH_MAP])],
            samples(**{"elsewhere": [HASH_MAP]}),
            sandbox=SANDBOX,
            measure=MEASURE,
            cache=ReferenceCache(tmp_path),
        )


# --- the reference cache ----------------------------------------------------------------------


@pytest.fixture
def summary_ranges() -> TaskRow:
    records = {r.task_key: r for r in load_json(MERCURY_ROWS).records}
    return records["summary-ranges"]


SUMMARY_RANGES_SAMPLE = (
    "class Solution:\n"
    "    def summaryRanges(self, nums: List[int]) -> List[str]:\n"
    "        out, i = [], 0\n"
    "        while i < len(nums):\n"
    "            j = i\n"
    "            while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:\n"
    "                j += 1\n"
    '            out.append(str(nums[i]) if i == j else f"{nums[i]}->{nums[j]}")\n'
    "            i = j + 1\n"
    "        return out\n"
)
SUMMARY_RANGES_WRONG = (
    "class Solution:\n"
    "    def summaryRanges(self, nums: List[int]) -> List[str]:\n"
    "        return [str(n) for n in nums]\n"
)


@requires_bwrap
def test_reference_cache_skips_profiling_on_a_second_run(summary_ranges, tmp_path, monkeypatch):
    calls: list[int] = []
    real = scoring_runs.profile_many

    def counting(jobs, **kw):
        calls.append(len(jobs))
        return real(jobs, **kw)

    monkeypatch.setattr(scoring_runs, "profile_many", counting)
    group = samples(**{"summary-ranges": [SUMMARY_RANGES_SAMPLE]})

    def run(cache: ReferenceCache) -> ScoreReport:
        return score([summary_ranges], group, sandbox=SANDBOX, measure=MEASURE, cache=cache)

    first = run(ReferenceCache(tmp_path))
    assert calls == [1, 2]  # the sample, then the two references
    files = sorted(tmp_path.rglob("*.json"))
    assert len(files) == 3  # the sample's count is recorded too (a deterministic meter)
    # with what its memory figures rest on (docs/profiler.md, "Memory")
    recorded = [json.loads(p.read_text()) for p in files]
    assert {r["memory_source"] for r in recorded} == {cgroup.memory_source()}
    mtimes = [p.stat().st_mtime_ns for p in files]

    calls.clear()
    second = run(ReferenceCache(tmp_path))
    assert calls == [0, 0]  # the sample and the references come from the cache
    assert [p.stat().st_mtime_ns for p in files] == mtimes
    assert (
        by_task(second)["summary-ranges"]["reference_runtimes"]
        == by_task(first)["summary-ranges"]["reference_runtimes"]
    )

    calls.clear()
    run(ReferenceCache(tmp_path, enabled=False))  # what --recollect does
    assert calls == [1, 2]
    assert all(p.stat().st_mtime_ns > m for p, m in zip(files, mtimes, strict=True))

    calls.clear()
    run(ReferenceCache(tmp_path / "other"))  # another cache folder knows nothing
    assert calls == [1, 2]


def test_a_sandbox_that_failed_around_the_code_is_never_a_cached_verdict(tmp_path):
    """A scoring run stopped from outside (SIGTERM), or one on a machine whose bubblewrap was
    gone for a moment, left reference results that say nothing about the code: cached, they
    failed every later run's references (pass@1 0 for a task scored with its own references).
    Such results are not written, and ones written before are read as misses."""
    from quicksilver.profiler import RunResult
    from quicksilver.scoring.cache import not_a_verdict

    cache = ReferenceCache(tmp_path)
    started = "profiling failed (the verdict): SandboxStartError: the sandbox could not start: x"
    stopped = "natively: the sandbox closed its command channel (Broken pipe); killed by SIGTERM"
    for i, error in enumerate((started, stopped)):
        cache.put(
            f"k{i}", "icount", RunResult("t", "error", "icount", "instr", "bwrap", error=error)
        )
        assert cache.get(f"k{i}", "icount") is None and not_a_verdict("error", error)
    assert not list(tmp_path.rglob("*.json"))
    # a verdict on the code is kept
    wrong = RunResult("t", "failed", "icount", "instr", "bwrap", error="case 3: wrong answer")
    cache.put("k2", "icount", wrong)
    assert cache.get("k2", "icount")["error"] == "case 3: wrong answer"
    raised = RunResult("t", "error", "icount", "instr", "bwrap", error="case 0: ZeroDivisionError")
    cache.put("k3", "icount", raised)
    assert cache.get("k3", "icount")["status"] == "error"
    # an entry written before the rule is a miss
    path = cache._path("k4", "icount")
    path.write_text(json.dumps({"status": "error", "error": started}))
    assert cache.get("k4", "icount") is None


def test_cache_key_changes_with_code_cases_and_meter(summary_ranges, tmp_path):
    from quicksilver.profiler import ProfileTask

    cache = ReferenceCache(tmp_path)
    task = ProfileTask.from_record(summary_ranges)
    other_cases = ProfileTask.from_record(
        summary_ranges.model_copy(update={"test_cases": '[{"input": [[1]], "expected": ["1"]}]'})
    )
    code = summary_ranges.solutions[0].solution
    key = cache.key(code, task, "cpu")
    assert key == cache.key(code, task, "cpu")
    assert len({key, cache.key(code + "\n", task, "cpu")}) == 2
    assert len({key, cache.key(code, other_cases, "cpu")}) == 2
    assert len({key, cache.key(code, task, "callgrind")}) == 2


@requires_bwrap
def test_samples_naming_one_task_by_slug_and_by_id_are_both_scored(summary_ranges, tmp_path):
    report = score(
        [summary_ranges],
        {
            "summary-ranges": [Sample("summary-ranges", SUMMARY_RANGES_SAMPLE, 0, "a:1")],
            "228": [Sample("228", SUMMARY_RANGES_WRONG, 0, "a:2")],
        },
        sandbox=SANDBOX,
        measure=MEASURE,
        cache=ReferenceCache(tmp_path),
    )
    task = by_task(report)["summary-ranges"]
    assert (task["n"], task["c"]) == (2, 1)
    assert sorted(s["status"] for s in task["samples"]) == ["failed", "passed"]
    assert report.to_dict()["pass_at_1"] == 0.5


@requires_bwrap
def test_row_with_cluster_references_but_no_pe_input_is_a_mercury_row(tmp_path: Path) -> None:
    """DPS needs the performance-exercising input: without pe_input the EvalPerf fields are not
    used and the row is scored as Mercury's (DPE rows: tests/test_scoring_dpe.py)."""
    row = record("dpe-task", "9100", [HASH_MAP]).to_row()
    row["reference"] = [ORDERED_PAIRS, DOUBLE_LOOP, HASH_MAP]  # slowest cluster first
    row["scores"] = [20.0, 50.0, 100.0]
    rec = TaskRow.from_row(row)
    report = score(
        [rec],
        samples(**{"dpe-task": [DOUBLE_LOOP, WRONG]}),
        sandbox=SANDBOX,
        measure=MEASURE,
        cache=ReferenceCache(tmp_path),
    )
    data = report.to_dict()
    task = by_task(report)["dpe-task"]
    assert task["dpe"] is False and task["n_correct"] == 1
    assert task["dps"] is None and task["reference_costs"] is None
    slow, wrong = task["samples"]
    assert (slow["status"], wrong["status"]) == ("passed", "failed")
    assert slow["beyond"] == 0.0  # slower than the one Mercury reference, the hash map
    assert all(s["dps"] is None and s["pe_cost"] is None for s in task["samples"])
    assert "dps" not in data and "dps_tasks" not in data
    # the Mercury reference and the two samples were profiled, none of the cluster references
    assert len(list(tmp_path.rglob("*.json"))) == 3


@requires_qemu
def test_icount_scores_are_identical_on_a_rerun(summary_ranges, tmp_path):
    """The default meter counts instructions. Scoring again gives the same costs, Beyond and
    percentile (the counts are recorded per machine); measuring everything afresh
    (--recollect) agrees to within some hundreds of instructions per pass."""
    group = samples(**{"summary-ranges": [SUMMARY_RANGES_SAMPLE]})

    def run(enabled: bool = True) -> dict[str, Any]:
        report = score(
            [summary_ranges],
            group,
            sandbox=SANDBOX,
            measure=MeasureConfig(),
            cache=ReferenceCache(tmp_path, enabled=enabled),
        )
        return by_task(report)["summary-ranges"]

    first, second, fresh = run(), run(), run(enabled=False)
    assert first["reference_runtimes"] == second["reference_runtimes"]
    assert all(r > 0 for r in first["reference_runtimes"])
    (a,), (b,), (c,) = first["samples"], second["samples"], fresh["samples"]
    assert a["status"] == b["status"] == c["status"] == "passed"
    assert (a["runtime"], a["beyond"], a["percentile"]) == (
        b["runtime"],
        b["beyond"],
        b["percentile"],
    )
    # measured again in new processes: within some hundreds of instructions per pass (these
    # references cost ~60,000 instructions in all; docs/profiler.md, "Spread")
    for x, y in zip(first["reference_runtimes"], fresh["reference_runtimes"], strict=True):
        assert abs(x - y) <= 2_500
    assert abs(a["runtime"] - c["runtime"]) <= 2_500


def test_reference_weights_come_from_the_row_and_heavy_icount_tasks_split(
    summary_ranges, tmp_path, monkeypatch
):
    """The build's measured costs order the scoring work (Job.weight, native seconds), and with
    icount a task heavier than SPLIT_ABOVE_SECONDS gets the builds' per-solution zygotes."""
    from quicksilver.profiler import RunResult

    hashes = [s.hash for s in summary_ranges.solutions]
    row = summary_ranges.model_copy(
        update={
            "runtime_meter": "icount",
            "runtime_unit": "instructions",
            "instruction_rate": 1e9,
            "reference_runtimes": [
                {"hash": hashes[0], "runtime": 4e9},  # 4 s natively
                {"hash": hashes[1], "runtime": 2e9},
            ],
        }
    )
    assert scoring_mercury.expected_seconds(row) == {hashes[0]: 4.0, hashes[1]: 2.0}
    seen: list[tuple[list[float], MeasureConfig]] = []

    def fake(jobs, **kw):
        seen.append(([j.weight for j in jobs], kw["measure"]))
        return [
            RunResult(j.task.task_id, "passed", "icount", "instructions", "bwrap", runtime=1e6)
            for j in jobs
        ]

    monkeypatch.setattr(scoring_runs, "profile_many", fake)
    group = samples(**{"summary-ranges": [SUMMARY_RANGES_SAMPLE]})
    score([row], group, sandbox=SANDBOX, measure=MEASURE, cache=ReferenceCache(tmp_path))
    (sample_w, m1), (ref_w, m2) = seen
    assert ref_w == [4.0, 2.0]
    assert sample_w == [3.0]  # the median of its task's references
    assert m1.split_above_seconds == m2.split_above_seconds == scoring_mercury.SPLIT_ABOVE_SECONDS
    # a row without the build's fields (Mercury's own) weighs nothing, nor an unreadable entry
    assert scoring_mercury.expected_seconds(summary_ranges) == {}
    odd = row.model_copy(
        update={"reference_runtimes": [{"hash": hashes[0], "runtime": "fast"}, {"hash": None}, 3]}
    )
    assert scoring_mercury.expected_seconds(odd) == {}
    # the cpu meter never splits (paired): the setting is left as given
    seen.clear()
    score([row], group, meter="cpu", sandbox=SANDBOX, measure=MEASURE, cache=ReferenceCache())
    ((weights, m3),) = seen
    assert sorted(weights) == [2.0, 3.0, 4.0] and m3.split_above_seconds is None


def test_scores_from_unconverged_profiles_are_counted_and_listed(monkeypatch) -> None:
    """A sample or a reference scored from a profile that did not converge, or whose passes
    split into modes (scored by its median pass), is never scored silently: its flags are on
    it, and the report counts and lists them."""
    from quicksilver.profiler import RunResult
    from quicksilver.report import score_report_html, score_task_rows
    from quicksilver.scoring.summary import unconverged_line

    runtimes = {DOUBLE_LOOP: 0.02, ORDERED_PAIRS: 0.04, HASH_MAP: 0.001, COUNTER: 0.002}
    flags = {DOUBLE_LOOP: ["max-rounds"], HASH_MAP: ["modes"]}

    def fake(jobs, **kw):
        return [
            RunResult(
                job.task.task_id,
                "passed",
                "cpu",
                "s",
                "bwrap",
                runtime=runtimes[job.code],
                runtime_ci=(runtimes[job.code],) * 2,
                flags=list(flags.get(job.code, [])),
                converged=job.code not in flags,
            )
            for job in jobs
        ]

    monkeypatch.setattr(scoring_runs, "profile_many", fake)
    report = score(
        [record("slow-refs", "9001", [DOUBLE_LOOP, ORDERED_PAIRS])],
        samples(**{"slow-refs": [HASH_MAP, COUNTER]}),
        meter="cpu",
        sandbox=SANDBOX,
        measure=MEASURE,
    )
    (task,) = report.tasks
    assert [s.flags for s in task.samples] == [["modes"], []]
    assert task.reference_flags == [["max-rounds"], []]
    data = report.to_dict()
    assert data["unconverged_samples"] == 1 and data["unconverged_references"] == 1
    assert data["unconverged"] == [
        {"task": "slow-refs", "reference": 0, "flags": ["max-rounds"]},
        {"task": "slow-refs", "sample": 0, "flags": ["modes"]},
    ]
    assert data["tasks"][0]["reference_flags"] == [["max-rounds"], []]
    assert data["tasks"][0]["samples"][0]["flags"] == ["modes"]
    line = unconverged_line(data)
    assert line in report.summary_lines(data)
    assert "1 sample(s), 1 reference(s)" in line and "max-rounds 1, modes 1" in line
    (row,) = score_task_rows(data)
    assert row["unconverged"] == "reference 0 (max-rounds); sample 0 (modes)"
    page = score_report_html(data, dataset="d", samples="s")
    assert "scored from unconverged profiles" in page and "1 sample(s), 1 reference(s)" in page


def test_unconverged_summary_covers_dpe_cluster_references() -> None:
    from quicksilver.scoring import SampleScore, TaskScore, unconverged_summary

    sample = SampleScore("t", 3, "passed", None, None, None, None, pe_cost=1.0, flags=["budget"])
    dpe = TaskScore(
        "t", None, [], [], samples=[sample], dpe=True, reference_flags=[[], ["modes"], []]
    )
    quiet = TaskScore("u", None, [1.0], [], reference_flags=[[]])
    out = unconverged_summary([dpe, quiet])
    assert out == {
        "unconverged_samples": 1,
        "unconverged_references": 1,
        "unconverged": [
            {"task": "t", "reference": 1, "flags": ["modes"]},
            {"task": "t", "sample": 3, "flags": ["budget"]},
        ],
    }
