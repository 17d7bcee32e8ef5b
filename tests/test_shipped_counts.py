"""Counts that travel (issue 29 item 3): a row built with icount ships its references' counts
with the fingerprint of what they depend on; ``score`` takes them where this machine's
fingerprint is the same, after re-counting a seeded sample, and counts everything itself (and
says why) when a re-count differs or the fingerprint does not match."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

import quicksilver.scoring.runs as scoring_runs
import quicksilver.scoring.shipped as shipped_mod
from quicksilver.config import MeasureConfig, SandboxConfig
from quicksilver.count_fingerprint import count_environment, differences, fingerprint_digest
from quicksilver.profiler import Job, ProfileTask, profile_many
from quicksilver.rows import TaskRow, load_json
from quicksilver.samples import Sample
from quicksilver.sandbox import isolation
from quicksilver.scoring import ReferenceCache, score
from tests.conftest import requires_bwrap, requires_qemu
from tests.test_scoring import SUMMARY_RANGES_SAMPLE

MERCURY_ROWS = Path(__file__).parent / "fixtures" / "records" / "mercury_rows.json"
MEASURE = MeasureConfig()
SANDBOX = SandboxConfig()

HEAD = "class Solution:\n    def summaryRanges(self, nums: List[int]) -> List[str]:\n"
# five references that answer alike and count differently
REFERENCES = [
    SUMMARY_RANGES_SAMPLE,
    HEAD + "        out = []\n"
    "        for n in nums:\n"
    "            if out and out[-1][1] + 1 == n:\n"
    "                out[-1][1] = n\n"
    "            else:\n"
    "                out.append([n, n])\n"
    '        return [str(a) if a == b else f"{a}->{b}" for a, b in out]\n',
    HEAD + "        res, start = [], None\n"
    "        for k, n in enumerate(nums):\n"
    "            if start is None:\n"
    "                start = n\n"
    "            if k + 1 == len(nums) or nums[k + 1] != n + 1:\n"
    '                res.append(str(start) if start == n else str(start) + "->" + str(n))\n'
    "                start = None\n"
    "        return res\n",
    HEAD + "        pairs = []\n"
    "        for n in nums:\n"
    "            pairs.append([n, n]) if not pairs or pairs[-1][1] != n - 1 else None\n"
    "            pairs[-1][1] = n\n"
    '        return ["%d->%d" % (a, b) if a != b else "%d" % a for a, b in pairs]\n',
    HEAD + "        out = []\n"
    "        i = 0\n"
    "        for j in range(len(nums)):\n"
    "            if j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:\n"
    "                continue\n"
    '            out.append(f"{nums[i]}->{nums[j]}" if i != j else f"{nums[i]}")\n'
    "            i = j + 1\n"
    "        return out\n",
]


def _base_row() -> TaskRow:
    rows = {r.task_key: r for r in load_json(MERCURY_ROWS).records}
    return rows["summary-ranges"]


SLUGS = ("summary-ranges", "summary-ranges-b")


def _shipping_rows(
    forge: dict[tuple[str, int], float] | None = None,
) -> tuple[list[TaskRow], dict[str, list[float]]]:
    """Two tasks (summary-ranges, and a copy without its last case) with REFERENCES as their
    solutions, shipped with the counts this machine gives them counted as the build does (a
    task's references in one zygote, in order); ``forge``: (slug, solution index) -> a count
    shipped instead. Also the true counts per slug."""
    rows, true = [], {}
    env = count_environment(isolation.resolve(SANDBOX).mode)
    for n, slug in enumerate(SLUGS):
        base = _base_row().model_dump()
        base["slug_name"] = slug
        if n:
            base["test_cases"] = json.dumps(json.loads(base["test_cases"])[:-1])
        base["solutions"] = [
            {"hash": 1000 + i, "runtime": "1ms", "solution": code}
            for i, code in enumerate(REFERENCES)
        ]
        task = ProfileTask.from_record(TaskRow.model_validate(base))
        runs = profile_many(
            [Job(task, code, str(i), 0.0) for i, code in enumerate(REFERENCES)],
            meter="icount",
            sandbox=SANDBOX,
            measure=MEASURE,
        )
        assert all(r.passed for r in runs), [r.error for r in runs]
        true[slug] = [float(r.runtime or 0) for r in runs]
        shipped = [(forge or {}).get((slug, i), c) for i, c in enumerate(true[slug])]
        base.update(
            runtime_meter="icount",
            runtime_unit="instructions",
            count_fingerprint=env["digest"],
            count_environment=json.dumps(
                {"compared": env["compared"], "informational": env["informational"]}
            ),
            reference_runtimes=[
                {
                    "hash": 1000 + i,
                    "runtime": shipped[i],
                    "ci_low": shipped[i],
                    "ci_high": shipped[i],
                    "rounds": 1,
                    "converged": True,
                    "flags": [],
                }
                for i in range(len(REFERENCES))
            ],
            reference_peak_memory=[
                {
                    "hash": 1000 + i,
                    "peak_memory_bytes": r.peak_memory_bytes,
                    "case_peak_memory_bytes": [],
                }
                for i, r in enumerate(runs)
            ],
            reference_memory_detail=[
                {
                    "hash": 1000 + i,
                    "memory_baseline_bytes": r.memory_baseline_bytes,
                    "tmu": r.tmu,
                    "tmu_samples": r.tmu_samples,
                }
                for i, r in enumerate(runs)
            ],
        )
        rows.append(TaskRow.model_validate(base))
    return rows, true


# a sample that is none of the references (a reference's code would get its figures)
SAMPLE = HEAD + (
    "        out, start = [], 0\n"
    "        for k in range(1, len(nums) + 1):\n"
    "            if k == len(nums) or nums[k] != nums[k - 1] + 1:\n"
    "                a, b = nums[start], nums[k - 1]\n"
    '                out.append(str(a) if a == b else f"{a}->{b}")\n'
    "                start = k\n"
    "        return out\n"
)


def _samples() -> dict[str, list[Sample]]:
    return {slug: [Sample(slug, SAMPLE, 0, "test")] for slug in SLUGS}


@pytest.fixture
def profiled(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many jobs each profile_many call of scoring got."""
    calls: list[int] = []
    real = scoring_runs.profile_many

    def counting(jobs: list[Job], **kw: Any) -> Any:
        calls.append(len(jobs))
        return real(jobs, **kw)

    monkeypatch.setattr(scoring_runs, "profile_many", counting)
    return calls


def _score(rows: list[TaskRow], cache_dir: Path, **kw: Any) -> dict[str, Any]:
    report = score(
        rows, _samples(), sandbox=SANDBOX, measure=MEASURE, cache=ReferenceCache(cache_dir), **kw
    )
    data = report.to_dict()
    data["lines"] = "\n".join(report.summary_lines(data))
    return data


def _runtimes(data: dict[str, Any]) -> dict[str, list[float]]:
    return {t["task_id"]: t["reference_runtimes"] for t in data["tasks"]}


@requires_bwrap
@requires_qemu
def test_shipped_counts_are_taken_after_a_seeded_sample_is_recounted_equal(
    tmp_path: Path, profiled: list[int]
) -> None:
    rows, true = _shipping_rows()
    data = _score(rows, tmp_path / "cache")
    shipped = data["shipped_counts"]
    assert shipped["reason"] is None and not shipped["mismatches"], shipped
    assert shipped["offered"] == 10 and shipped["recounted"] == 5 and shipped["used"] == 5
    assert isinstance(shipped["seed"], int)  # fresh in every run, recorded
    (sampled,) = {name.split("#")[0] for name in shipped["confirmed"]}
    assert len(shipped["confirmed"]) == 5 and sampled in SLUGS
    # one task's references re-counted, the two samples measured, no other reference counted
    assert profiled == [5, 2, 0]
    assert _runtimes(data) == true
    assert all(t["samples"][0]["status"] == "passed" for t in data["tasks"])
    line = "shipped counts: 5 reference(s) taken as shipped, 5 re-counted here and equal"
    assert line in data["lines"]

    # --no-shipped-counts: every reference counted here
    profiled.clear()
    data = _score(rows, tmp_path / "cold", shipped_counts=False)
    assert data["shipped_counts"]["used"] == 0
    assert "--no-shipped-counts" in data["shipped_counts"]["reason"]
    assert profiled == [2, 10]
    assert _runtimes(data) == true


@requires_bwrap
@requires_qemu
def test_a_forged_count_in_the_recounted_sample_means_every_reference_is_counted_here(
    tmp_path: Path, profiled: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shipped_mod, "CONFIRM_MIN", 10)  # the sample covers both tasks
    rows, true = _shipping_rows(forge={("summary-ranges-b", 3): 1.0})
    data = _score(rows, tmp_path / "cache")
    shipped = data["shipped_counts"]
    assert shipped["used"] == 0 and shipped["recounted"] == 10
    assert len(shipped["confirmed"]) == 5  # summary-ranges's references were equal
    assert len(shipped["mismatches"]) == 1
    assert shipped["mismatches"][0].startswith("summary-ranges-b#1003: shipped 1, counted ")
    assert "1 of 10 re-counted references differ from the shipped counts" in shipped["reason"]
    assert "re-counted references differ from the shipped counts" in shipped["reason"]
    assert "every reference counted here" in shipped["reason"]
    # both tasks re-counted, the samples, and every reference counted here
    assert profiled == [10, 2, 10]
    assert _runtimes(data) == true


@requires_bwrap
@requires_qemu
def test_a_fingerprint_that_differs_is_named_part_by_part(
    tmp_path: Path, profiled: list[int]
) -> None:
    rows, true = _shipping_rows()
    changed = []
    for row in rows:
        extra = dict(row.model_extra or {})
        env = json.loads(extra["count_environment"])
        env["compared"]["interpreter"]["sha256"] = "0" * 64
        env["compared"]["qemu"]["version"] = "qemu-x86_64 version 9.9.9"
        extra["count_environment"] = json.dumps(env)
        extra["count_fingerprint"] = fingerprint_digest(env["compared"])
        changed.append(TaskRow.model_validate({**row.model_dump(), **extra}))
    data = _score(changed, tmp_path / "cache")
    shipped = data["shipped_counts"]
    assert shipped["offered"] == 0 and shipped["used"] == 0
    assert (
        "2 task(s) counted here: their count environment differs from this machine's in "
        "interpreter.sha256, qemu.version"
    ) in shipped["reason"]
    assert profiled == [2, 10]
    assert _runtimes(data) == true


def test_a_recount_agrees_within_what_a_zygote_position_moves() -> None:
    assert shipped_mod.agrees(55_532, 55_313)  # the same solution, 5th vs 1st in its zygote
    assert shipped_mod.agrees(491_052_709, 491_031_292)  # reverse-in-groups: build vs re-count
    assert shipped_mod.agrees(13_428_328, 13_430_194)
    assert shipped_mod.agrees(1_977_153_055, 1_977_153_018)  # two builds, a heavy solution
    assert not shipped_mod.agrees(63_211, 1)
    assert not shipped_mod.agrees(2_000_000, 2_000_000 + 5_001)
    assert shipped_mod.agrees(5e9, 5e9 + 4e6) and not shipped_mod.agrees(5e9, 5e9 + 6e6)


def test_the_fingerprint_covers_every_byte_of_the_runtime(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One docstring added to the runtime moved two-sum's count by ~400 instructions."""
    before = count_environment("bwrap")
    runtime = tmp_path / "runtime"
    shutil.copytree(isolation.RUNTIME_DIR, runtime, ignore=shutil.ignore_patterns("__pycache__"))
    wire = runtime / "wire.py"
    wire.write_text(wire.read_text() + "\n# one more line\n")
    monkeypatch.setattr(isolation, "RUNTIME_DIR", runtime)
    count_environment.cache_clear()
    try:
        after = count_environment("bwrap")
        weak = count_environment("weak")
    finally:
        count_environment.cache_clear()
    assert after["digest"] != before["digest"]
    assert differences(after["compared"], before["compared"]) == ["runtime"]
    assert differences(weak["compared"], after["compared"]) == ["isolation"]
    assert after["digest"] == fingerprint_digest(after["compared"])
    # what was not seen to move a count is recorded, not compared
    assert {"kernel", "cpus", "machine_id"} <= set(after["informational"])
    assert "kernel" not in after["compared"]


@requires_bwrap
def test_an_unreadable_shipped_count_means_its_task_is_counted_here(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A row whose shipped count is not a number: one line naming the task and the field, that
    task counted here, and scoring goes on (no re-count happens without a readable task)."""
    from quicksilver.scoring.runs import ScoringRun

    env = count_environment(isolation.resolve(SANDBOX).mode)
    base = _base_row().model_dump()
    hashes = [s["hash"] for s in base["solutions"]]
    base.update(
        runtime_meter="icount",
        count_fingerprint=env["digest"],
        count_environment=json.dumps({"compared": env["compared"], "informational": {}}),
        reference_runtimes=[{"hash": h, "runtime": "fast"} for h in hashes],
    )
    row = TaskRow.model_validate(base)
    run = ScoringRun("icount", SANDBOX, MEASURE, ReferenceCache(enabled=True), None)
    rows = {"summary-ranges": (row, [])}
    tasks = {"summary-ranges": ProfileTask.from_record(row)}
    report = shipped_mod.offer_shipped(rows, tasks, run, seed=1)
    assert report is not None and report.offered == 0 and report.used == 0
    assert "summary-ranges: reference_runtimes of solution" in caplog.text
    assert "unreadable" in caplog.text and "counted here" in caplog.text
