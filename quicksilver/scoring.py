"""Scoring model samples against a dataset: Pass@k and, per kind of row, Beyond and percentile
(Mercury rows) or DPS and DPS_norm (DPE / EvalPerf rows).

Reference solutions are re-profiled on the user's machine (their stored runtimes were measured
elsewhere and are never trusted) and cached per machine, keyed by the solution's hash, the test
cases' hash, the meter and the profiler's version, so a second run only profiles the samples.

A DPE row (``reference``, ``scores`` and ``pe_input`` all set) is scored as EvalPerf does (see
docs/metrics.md, "DPE scoring"): every sample is judged on the test cases; each correct sample is
profiled on the performance-exercising input; the cluster references are profiled on that same
input on this machine, lazily, scanning from the fastest cluster only as far as a sample's cost
requires. A reference that fails is retried once with longer limits, then skipped. Unlike
EvalPerf, the answers on the performance input are judged too, by the task's ``evaluate_offline``
in the profiler's judge: against the row's ``pe_expected``, or, for a row without it, against the
answer the cluster references agree on; a wrong answer scores 0.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
import logging
import math
import os
import statistics
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from statistics import fmean
from typing import Any, cast

from quicksilver import __version__
from quicksilver.config import MeasureConfig, MeterName, SandboxConfig
from quicksilver.dpe.select import pe_answers_task
from quicksilver.dpe.select import pe_profile_task as _pe_task
from quicksilver.fsutil import write_text_atomic
from quicksilver.machine import machine_info
from quicksilver.metrics import (
    DPSResult,
    SampleOutcome,
    Summary,
    UnscorableTaskError,
    beyond,
    beyond_memory,
    check_dps_tolerance,
    dps_task_score,
    matches,
    nmu,
    ntmu,
    percentile,
    summarize,
)
from quicksilver.profiler import Job, ProfileTask, RunResult, profile_many, profile_solution
from quicksilver.records import TaskRecord
from quicksilver.samples import Sample, class_solution, function_solution, slug_form
from quicksilver.significance import interval_settings, mean_interval

log = logging.getLogger(__name__)

# /2: results carry peak memory; /3: and TMU; /4: memory counts what the kernel holds for the
# solution (pipe buffers, unmapped shmem: RunResult.memory_source), compile is booked with
# the load, profiles carry their flags (modes)
PROFILER_VERSION = f"{__version__}/5"


def default_cache_dir() -> Path:
    env = os.environ.get("QUICKSILVER_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "quicksilver" / "references"


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def cases_hash(task: ProfileTask) -> str:
    blob = json.dumps(
        {
            "cases": [[c.inputs, c.expected] for c in task.cases],
            "convert": task.convert_offline,
            "evaluate": task.evaluate_offline,
            "entry": task.entry_point,
            "kind": task.kind,
        },
        sort_keys=True,
        default=repr,
    )
    return _sha(blob)[:24]


class ReferenceCache:
    """Reference results on this machine: <dir>/<machine_id>/<meter>/<key>.json."""

    def __init__(self, root: Path | None = None, *, enabled: bool = True) -> None:
        self.root = (root or default_cache_dir()) / str(machine_info()["machine_id"])
        self.enabled = enabled

    def key(self, code: str, task: ProfileTask, meter: str) -> str:
        return _sha(f"{PROFILER_VERSION}\0{meter}\0{cases_hash(task)}\0{code}")[:32]

    def _path(self, key: str, meter: str) -> Path:
        return self.root / meter / f"{key}.json"

    def get(self, key: str, meter: str) -> dict[str, Any] | None:
        if not self.enabled:
            return None
        try:
            return json.loads(self._path(key, meter).read_text())
        except (OSError, ValueError):
            return None

    def put(self, key: str, meter: str, result: RunResult) -> None:
        path = self._path(key, meter)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {
            "status": result.status,
            "runtime": result.runtime,
            "runtime_ci": list(result.runtime_ci) if result.runtime_ci else None,
            "error": result.error,
            "unit": result.unit,
            "meter": result.meter,
            "flags": list(result.flags),
            "isolation": result.isolation,
            "machine_id": result.machine_id,
            "profiler": PROFILER_VERSION,
            "peak_memory_bytes": result.peak_memory_bytes,
            "memory_baseline_bytes": result.memory_baseline_bytes,
            "tmu": result.tmu,
            "tmu_samples": result.tmu_samples,
            "memory_source": result.memory_source,
        }
        write_text_atomic(path, json.dumps(data))


@dataclass
class SampleScore:
    """One sample's figures.

    ``status`` is the verdict on the task's test cases. For Mercury rows ``runtime`` is the cost on
    the test cases and ``beyond`` / ``percentile`` place it among the references. For DPE rows the
    test cases give the verdict only (``runtime`` is None); ``pe_status`` / ``pe_cost`` come from
    the profile on the performance-exercising input, ``cluster`` is the matched cluster (0 = the
    slowest; None when the sample matched none) and ``dps`` / ``dps_norm`` its scores. An
    incorrect sample has no DPS (None): it is not a correct sample and enters no DPS mean.
    """

    task: str
    index: int
    status: str
    runtime: float | None
    runtime_ci: list[float] | None
    beyond: float | None
    percentile: float | None
    dps: float | None = None
    dps_norm: float | None = None
    error: str | None = None
    pe_status: str | None = None
    pe_cost: float | None = None
    pe_error: str | None = None
    cluster: int | None = None
    # Mercury rows, memory (docs/metrics.md): the largest per-case peak above the post-load
    # baseline (bytes), Beyond with memory in place of runtime, and EffiBench's NMU against the
    # task's canonical solution (the row's first), on whole-process peaks
    peak_memory_bytes: int | None = None
    beyond_memory: float | None = None
    nmu: float | None = None
    # EffiBench's TMU (whole-process memory integrated over the sampled pass, bytes x the
    # meter's unit), the readings it rests on, and NTMU against the canonical solution's TMU
    tmu: float | None = None
    tmu_samples: int | None = None
    ntmu: float | None = None
    # why the profile this sample is scored from (Mercury: the test cases; DPE: the performance
    # input) is not to be trusted: not converged, or its passes split into modes (RunResult.flags;
    # counted in the report, see unconverged_summary)
    flags: list[str] = field(default_factory=list)


@dataclass
class TaskScore:
    """One task's figures.

    Mercury rows: ``reference_runtimes`` of the dataset's solutions on the test cases. DPE rows
    (``dpe``): ``reference_costs[j]`` is cluster j's reference on the performance input (slowest
    first), None where the lazy scan never needed it or its profile failed (``reference_status``
    tells which); ``dps`` / ``dps_norm`` are the means over the first 10 correct samples, None
    when no sample is correct or when the task cannot be scored (``dps_error`` says why).
    """

    task: str
    difficulty: str | None
    reference_runtimes: list[float | None]
    reference_errors: list[str]
    samples: list[SampleScore] = field(default_factory=list)
    dps: float | None = None
    dps_norm: float | None = None
    dpe: bool = False
    n_correct: int = 0
    reference_costs: list[float | None] | None = None
    reference_status: list[str | None] | None = None
    dps_error: str | None = None
    reference_peak_memory: list[int | None] | None = None  # bytes, as reference_runtimes
    # the canonical solution's (the row's first) TMU, which NTMU divides by, and its readings
    reference_tmu: float | None = None
    reference_tmu_samples: int | None = None
    # DPE rows: where the expected answer on the performance input came from ("dataset": the
    # row's pe_expected; "references": the answer the cluster references agree on; None: not
    # established, ``dps_error`` says why) and how
    pe_expected_source: str | None = None
    pe_expected_detail: str | None = None
    # per reference (as reference_runtimes, or reference_costs for DPE): its profile's flags
    reference_flags: list[list[str]] | None = None


@dataclass(frozen=True)
class ReleaseWindow:
    """``--released-after``: the dataset's tasks released after a date (a model's training
    cutoff) are scored; the others are left out, the undated ones counted apart (a task whose
    date is unknown may predate the cutoff, so it is never scored as unseen)."""

    after: dt.date
    tasks: int
    """Tasks of the dataset released strictly after ``after``: the subset."""
    earlier: int
    """Dated tasks released on or before ``after``, left out."""
    undated: int
    """Tasks without a release date, left out."""
    samples_left_out: int = 0
    """Samples naming a task left out (not scored, not counted as missing)."""
    in_training_views: int | None = None
    """Tasks of the subset that the dataset's training views (sft, dpo) hold: a model tuned on
    those views was trained on them. None: the dataset has no training view."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "after": self.after.isoformat(),
            "tasks": self.tasks,
            "earlier_left_out": self.earlier,
            "undated_left_out": self.undated,
            "samples_left_out": self.samples_left_out,
            "in_training_views": self.in_training_views,
        }


def in_training_views(
    records: Sequence[TaskRecord], views: Mapping[str, set[str]], after: dt.date
) -> int:
    """How many of ``records`` (a release window's tasks) the training views hold; a warning in
    one line when any does (a model tuned on the views would be scored on tasks it saw)."""
    held = set().union(*views.values()) if views else set()
    inside = sorted(r.slug_name for r in records if r.slug_name in held)
    if inside:
        log.warning(
            "--released-after %s: %d of the %d task(s) in the window are in the dataset's "
            "training views (%s), which a model tuned on them was trained on: %s",
            after.isoformat(),
            len(inside),
            len(records),
            ", ".join(sorted(views)),
            ", ".join(inside[:10]) + (", ..." if len(inside) > 10 else ""),
        )
    return len(inside)


def release_window(
    records: Sequence[TaskRecord], after: dt.date
) -> tuple[list[TaskRecord], list[TaskRecord], ReleaseWindow]:
    """(the records released strictly after ``after``, the others, the counts)."""
    kept = [r for r in records if r.released is not None and r.released > after]
    left = [r for r in records if r.released is None or r.released <= after]
    undated = sum(r.released is None for r in records)
    window = ReleaseWindow(after, len(kept), len(left) - undated, undated)
    return kept, left, window


@dataclass
class ScoreReport:
    summary: Summary
    tasks: list[TaskScore]
    meter: str
    unit: str
    isolation: str
    machine: dict[str, Any]
    missing_tasks: list[str]
    sample_rejects: list[tuple[str, str]]
    window: ReleaseWindow | None = None
    dps_tolerance: float = 0.0
    # LeetCode samples that were only a method's body: completed from the prompt, or not
    bodies: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The JSON report ``quicksilver score --json`` writes (and ``quicksilver compare`` reads).

        With DPE tasks present it also holds ``dps`` / ``dps_norm`` (means over the DPE tasks with
        at least one correct sample and a score; None if there is none), ``dps_tasks`` (how many
        tasks those means cover), ``dpe_tasks`` and ``dps_unscorable`` ({task: reason}).
        ``pass_at_K_ci``, ``beyond_at_K_ci`` and ``dps_ci`` are 95% intervals over tasks
        (``[low, high]``, None with fewer than two tasks), made as ``intervals`` says.
        """
        s = self.summary.to_dict()
        tasks_by_id = {t["task_id"]: t for t in s.pop("tasks")}
        out: dict[str, Any] = {
            "pass_at_1" if self.summary.k == 1 else f"pass_at_{self.summary.k}": s["pass_at_k"],
            "beyond_at_1" if self.summary.k == 1 else f"beyond_at_{self.summary.k}": s[
                "beyond_at_k"
            ],
            **s,
            "meter": self.meter,
            "unit": self.unit,
            "isolation": self.isolation,
            "machine": self.machine,
            "missing_tasks": self.missing_tasks,
            "sample_rejects": [{"source": a, "reason": b} for a, b in self.sample_rejects],
        }
        # intervals over tasks (another draw of tasks gives another mean): quicksilver.significance
        k = self.summary.k
        rows = list(tasks_by_id.values())
        out[f"pass_at_{k}_ci"] = mean_interval([r["pass_at_k"] for r in rows])
        out[f"beyond_at_{k}_ci"] = mean_interval(
            [r["beyond"] for r in rows if r.get("beyond") is not None and not r.get("unscorable")]
        )
        out["intervals"] = interval_settings()
        if self.bodies:
            out["method_bodies"] = self.bodies
        if self.window is not None:
            out["released_after"] = self.window.to_dict()
        dpe_tasks = [t for t in self.tasks if t.dpe]
        if dpe_tasks:
            counted = [t for t in dpe_tasks if t.n_correct > 0 and t.dps is not None]
            out["dps"] = fmean(t.dps or 0.0 for t in counted) if counted else None
            out["dps_norm"] = fmean(t.dps_norm or 0.0 for t in counted) if counted else None
            out["dps_ci"] = mean_interval([t.dps or 0.0 for t in counted])
            out["dps_tolerance"] = self.dps_tolerance
            out["dps_tasks"] = len(counted)
            out["dpe_tasks"] = len(dpe_tasks)
            out["dps_unscorable"] = {t.task: t.dps_error for t in dpe_tasks if t.dps_error}
        out.update(memory_summary(self.tasks))
        out.update(unconverged_summary(self.tasks))
        out["tmu_unit"] = f"bytes*{self.unit}"
        out["tasks"] = []
        for t in self.tasks:
            row = dict(tasks_by_id.get(t.task, {"task_id": t.task}))
            row.update(
                {
                    "difficulty": t.difficulty,
                    "reference_runtimes": t.reference_runtimes,
                    "reference_peak_memory": t.reference_peak_memory,
                    **task_memory(t),
                    "reference_tmu": t.reference_tmu,
                    "reference_tmu_samples": t.reference_tmu_samples,
                    "reference_errors": t.reference_errors,
                    "reference_flags": t.reference_flags,
                    "dps": t.dps,
                    "dps_norm": t.dps_norm,
                    "dpe": t.dpe,
                    "n_correct": t.n_correct,
                    "reference_costs": t.reference_costs,
                    "reference_status": t.reference_status,
                    "pe_expected_source": t.pe_expected_source,
                    "pe_expected_detail": t.pe_expected_detail,
                    "dps_error": t.dps_error,
                    "samples": [vars(x) for x in t.samples],
                }
            )
            out["tasks"].append(row)
        return out


def _cached_or_profile(
    items: list[tuple[str, ProfileTask, str, float]],  # (cache key, task, code, weight)
    cache: ReferenceCache,
    meter: str,
    sandbox: SandboxConfig,
    measure: MeasureConfig,
    workers: int | None,
) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    todo: list[Job] = []
    for key, task, code, weight in items:
        hit = cache.get(key, meter)
        if hit is not None:
            found[key] = hit
        elif key not in {j.key for j in todo}:
            todo.append(Job(task, code, key, weight))

    def store(job: Job, res: RunResult) -> None:
        # A timeout may come from a busy machine: profile it again next time.
        if res.status != "timeout":
            cache.put(job.key, meter, res)

    results = profile_many(
        todo,
        meter=cast(MeterName, meter),
        sandbox=sandbox,
        measure=measure,
        workers=workers,
        on_result=store,
    )
    for job, res in zip(todo, results, strict=True):
        found[job.key] = _summary(res)
    return found


def _cached_samples(
    jobs: list[Job],
    cache: ReferenceCache,
    meter: str,
    sandbox: SandboxConfig,
    measure: MeasureConfig,
    workers: int | None,
) -> dict[str, RunResult]:
    """Samples measured with a deterministic meter: a count does not depend on when it was
    taken, so a sample scored before (same code, same cases, same meter, same machine) gets
    its recorded result, and scoring twice gives the same numbers; ``--recollect`` measures
    again. Results are keyed by the jobs' keys."""
    out: dict[str, RunResult] = {}
    todo: list[Job] = []
    keys: dict[str, str] = {}
    for job in jobs:
        ck = cache.key(job.code, job.task, meter)
        keys[job.key] = ck
        hit = cache.get(ck, meter)
        if hit is not None and hit.get("status") not in _UNCACHED_STATUSES:
            out[job.key] = RunResult(
                task_id=job.task.task_id,
                status=hit["status"],
                meter=hit.get("meter", meter),
                unit=hit.get("unit", ""),
                isolation=hit.get("isolation", ""),
                runtime=hit.get("runtime"),
                runtime_ci=tuple(hit["runtime_ci"]) if hit.get("runtime_ci") else None,
                error=hit.get("error"),
                machine_id=hit.get("machine_id", ""),
                rounds=1,
                converged=not hit.get("flags"),
                flags=list(hit.get("flags") or []),
                peak_memory_bytes=hit.get("peak_memory_bytes"),
                memory_baseline_bytes=hit.get("memory_baseline_bytes"),
                tmu=hit.get("tmu"),
                tmu_samples=hit.get("tmu_samples"),
                memory_source=hit.get("memory_source"),
            )
        else:
            todo.append(job)
    measured = _profile_keyed(todo, meter, sandbox, measure, workers)
    for job in todo:
        res = measured[job.key]
        if res.status not in _UNCACHED_STATUSES:
            cache.put(keys[job.key], meter, res)
        out[job.key] = res
    return out


def _summary(res: RunResult) -> dict[str, Any]:
    return {
        "status": res.status,
        "runtime": res.runtime,
        "flags": list(res.flags),
        "error": res.error,
        "runtime_ci": list(res.runtime_ci) if res.runtime_ci else None,
        "peak_memory_bytes": res.peak_memory_bytes,
        "memory_baseline_bytes": res.memory_baseline_bytes,
        "tmu": res.tmu,
        "tmu_samples": res.tmu_samples,
    }


def _process_peak(run: Mapping[str, Any]) -> int | None:
    """A passing run's whole-process peak (baseline + peak above it), EffiBench's MU."""
    peak, base = run.get("peak_memory_bytes"), run.get("memory_baseline_bytes")
    if run.get("status") != "passed" or peak is None or base is None:
        return None
    return int(peak) + int(base)


def _canonical_tmu(run: Mapping[str, Any]) -> float | None:
    """A passing run's time-memory integral (None: failed, or not measured)."""
    tmu = run.get("tmu")
    if run.get("status") != "passed" or tmu is None or not tmu > 0:
        return None
    return float(tmu)


def _score_memory(
    sc: SampleScore,
    res: RunResult,
    ref_mem: list[int | None],
    canonical: int | None,
    canonical_tmu: float | None = None,
) -> None:
    """The memory figures of one Mercury sample: Beyond-memory against the references' peaks
    (a failed sample 0; None when no reference has a measured peak), NMU against the
    canonical solution's peak and NTMU against its TMU (each None unless both passed and were
    measured)."""
    mem = res.peak_memory_bytes if res.passed else None
    sc.peak_memory_bytes = mem
    if res.passed and mem is None:
        sc.beyond_memory = None  # passed, but not measured: nothing to place
    else:
        try:
            sc.beyond_memory = beyond_memory(mem, ref_mem)
        except UnscorableTaskError:
            sc.beyond_memory = None
    own = _process_peak(_summary(res))
    sc.nmu = nmu(own, canonical) if own is not None and canonical is not None else None
    if res.passed and res.tmu is not None and res.tmu > 0:
        sc.tmu, sc.tmu_samples = res.tmu, res.tmu_samples
        sc.ntmu = ntmu(res.tmu, canonical_tmu) if canonical_tmu is not None else None


def task_memory(t: TaskScore) -> dict[str, float | None]:
    """One Mercury task's memory figures: the mean Beyond-memory of its samples (failed ones 0;
    None unless every sample has one), and the mean NMU and NTMU of its passing samples that
    have one (None when none has). All None for a DPE task or a task without samples."""
    out: dict[str, float | None] = {"beyond_memory": None, "nmu": None, "ntmu": None}
    if t.dpe or not t.samples:
        return out
    bm = [s.beyond_memory for s in t.samples]
    if all(b is not None for b in bm):
        out["beyond_memory"] = fmean(b for b in bm if b is not None)
    for key in ("nmu", "ntmu"):
        ratios = [v for v in (getattr(s, key) for s in t.samples) if v is not None]
        out[key] = fmean(ratios) if ratios else None
    return out


def memory_summary(tasks: Sequence[TaskScore]) -> dict[str, Any]:
    """Overall memory figures of the Mercury tasks (docs/metrics.md, "Memory").

    ``beyond_memory_at_1``: per task the mean Beyond-memory of its samples (failed ones 0),
    then the mean over tasks with at least one reference peak; ``nmu``: per task the mean NMU
    of its passing samples, then the mean over tasks that have one (EffiBench's mean of
    per-task ratios); ``ntmu`` likewise with NTMU; ``memory_tasks`` / ``nmu_tasks`` /
    ``ntmu_tasks`` say how many tasks each mean covers."""
    per_task_beyond: list[float] = []
    per_task_nmu: list[float] = []
    per_task_ntmu: list[float] = []
    for t in tasks:
        figures = task_memory(t)
        for key, into in (
            ("beyond_memory", per_task_beyond),
            ("nmu", per_task_nmu),
            ("ntmu", per_task_ntmu),
        ):
            if figures[key] is not None:
                into.append(figures[key])
    return {
        "beyond_memory_at_1": fmean(per_task_beyond) if per_task_beyond else None,
        "memory_tasks": len(per_task_beyond),
        "nmu": fmean(per_task_nmu) if per_task_nmu else None,
        "nmu_tasks": len(per_task_nmu),
        "ntmu": fmean(per_task_ntmu) if per_task_ntmu else None,
        "ntmu_tasks": len(per_task_ntmu),
    }


# --------------------------------------------------------------------------------------------
# DPE / EvalPerf rows

DPS_FIRST_CORRECT = 10
# A time meter's DPS match tolerance (quicksilver.metrics.matches). Scoring each DPE task's second
# cluster reference as a sample with the cpu meter (bench/scoring.py, one core busy), EvalPerf's
# exact rule gave DPS 29.6 and 33.5 in two runs of the same samples: a sample that is its
# reference's own code lands a hair above or below it. The fastest-passes estimate of one code
# measured twice in one window agrees within a few percent; 10% covers that, stays well under
# the 25% the clusters are apart at least, and is recorded in the report.
DPS_TIME_TOLERANCE = 0.1


# With a deterministic meter, a task whose references are expected to cost more than this many
# native CPU seconds together is profiled one zygote per solution, in parallel (as the builds do:
# configs/*.yaml, profile.measure.split_above_seconds).
SPLIT_ABOVE_SECONDS = 5.0
_SECONDS_PER_UNIT = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}


def unconverged_summary(tasks: Sequence[TaskScore]) -> dict[str, Any]:
    """The samples and references scored from a profile that is not to be trusted (a time
    meter's: not converged, or its passes split into modes; RunResult.flags), counted and
    listed: ``unconverged_samples``, ``unconverged_references`` and ``unconverged`` (one entry
    each: task, sample or reference index, flags). A mode-split profile is scored by its median
    pass (docs/profiler.md, "The mode check"); the others by the fastest passes they have."""
    listed: list[dict[str, Any]] = []
    for t in tasks:
        for j, flags in enumerate(t.reference_flags or []):
            if flags:
                listed.append({"task": t.task, "reference": j, "flags": list(flags)})
        for sc in t.samples:
            if sc.flags:
                listed.append({"task": t.task, "sample": sc.index, "flags": list(sc.flags)})
    return {
        "unconverged_samples": sum("sample" in x for x in listed),
        "unconverged_references": sum("reference" in x for x in listed),
        "unconverged": listed,
    }


def expected_seconds(rec: TaskRecord) -> dict[int, float]:
    """Each reference's native CPU seconds as the build measured them (solution hash ->
    seconds), from the row's ``reference_runtimes`` in its ``runtime_unit`` (instructions over
    the row's measured ``instruction_rate``). Only the order and spread of the scoring work use
    it (``Job.weight``): heavy tasks first, and split with a deterministic meter. A row without
    those fields (Mercury's own, a DPE row) gives {}."""
    extra = rec.model_extra or {}
    unit = extra.get("runtime_unit")
    rate = extra.get("instruction_rate")
    if unit == "instructions":
        per_unit = 1.0 / float(rate) if rate else None
    else:
        per_unit = _SECONDS_PER_UNIT.get(str(unit))
    if per_unit is None:
        return {}
    out: dict[int, float] = {}
    for run in extra.get("reference_runtimes") or []:
        if not isinstance(run, dict):
            continue
        try:
            out[int(run["hash"])] = float(run["runtime"]) * per_unit
        except (KeyError, TypeError, ValueError):
            continue  # a weight only orders work: an unreadable one weighs nothing
    return out


def dps_tolerance_for(measure: MeasureConfig, tolerance: float | None) -> float:
    """The DPS match tolerance a run uses: ``tolerance`` as given, else 0 for a deterministic
    meter and :data:`DPS_TIME_TOLERANCE` for a time meter."""
    if tolerance is None:
        tolerance = 0.0 if measure.deterministic else DPS_TIME_TOLERANCE
    check_dps_tolerance(tolerance)
    return tolerance


"""A DPE task's score is the mean over its first this-many correct samples (EvalPerf)."""

PE_MIN_ROUNDS = 3
"""Rounds per performance input at least, so that a cost is a median, not one noisy run."""

RETRY_FACTOR = 4.0
"""A failed reference profile is retried once with the CPU and wall limits times this."""

# Statuses that depend on the limits or the machine's load: a reference is profiled again next
# time instead of being cached as broken.
_UNCACHED_STATUSES = frozenset({"timeout", "memory"})


def is_dpe_record(rec: TaskRecord) -> bool:
    """A row carries EvalPerf's fields: cluster references, their scores and a pe input."""
    return rec.reference is not None and rec.scores is not None and rec.pe_input is not None


def _stored_expected(rec: TaskRecord, calls: int) -> list[Any] | None:
    """The row's ``pe_expected``: one accepted answer per ``pe_input`` call; None when the row
    has none (EvalPerf's release, older builds)."""
    if rec.pe_expected is None:
        return None
    try:
        data = json.loads(rec.pe_expected)
    except ValueError as exc:
        raise ValueError(f"'pe_expected' is not valid JSON: {exc}") from exc
    if not isinstance(data, list) or len(data) != calls:
        raise ValueError(f"'pe_expected' must be a JSON list of {calls} answer(s), one per call")
    return data


def _pe_inputs(rec: TaskRecord) -> list[list[Any]]:
    """``pe_input``: a JSON list of calls, each the argument list of one call."""
    try:
        data = json.loads(rec.pe_input or "")
    except ValueError as exc:
        raise ValueError(f"'pe_input' is not valid JSON: {exc}") from exc
    if not isinstance(data, list) or not data:
        raise ValueError("'pe_input' must be a non-empty JSON list of argument lists")
    for i, args in enumerate(data):
        if not isinstance(args, list):
            raise ValueError(
                f"'pe_input' entry #{i} is a {type(args).__name__}, not an argument list"
            )
    return data


def dpe_problem(rec: TaskRecord) -> str | None:
    """Why a DPE row cannot be scored (a dataset problem), or None when it can."""
    refs, scores = rec.reference or [], rec.scores or []
    if not refs:
        return "'reference' is empty"
    if len(scores) != len(refs):
        return f"'scores' has {len(scores)} entries for {len(refs)} references"
    for i, value in enumerate(scores):
        if not isinstance(value, int | float) or math.isnan(value) or not 0 <= value <= 100:
            return f"'scores' entry #{i} ({value!r}) is not a percentage"
        if i and value < scores[i - 1]:
            return f"'scores' must be non-decreasing (slowest cluster first), #{i} < #{i - 1}"
    try:
        _stored_expected(rec, len(_pe_inputs(rec)))
    except ValueError as exc:
        return str(exc)
    return None


def pe_profile_task(rec: TaskRecord, expected: Sequence[Any]) -> ProfileTask:
    """The task on its performance-exercising input: one case per call, each answer judged
    against ``expected`` (one answer per call) by the row's ``evaluate_offline``, as on the test
    cases (the task the DPE build profiled its references on)."""
    return _pe_task(
        rec.task_key,
        rec.entry_point,
        [list(args) for args in _pe_inputs(rec)],
        expected=expected,
        convert_offline=rec.effective_convert_offline(),
        evaluate_offline=rec.effective_evaluate_offline(),
        kind=rec.task_kind or "class",
        difficulty=rec.difficulty or None,
    )


@dataclass(frozen=True)
class PEExpected:
    """The expected answers on a DPE task's performance input, or why there are none.

    ``source``: "dataset" (the row's ``pe_expected``) or "references" (the answer the cluster
    references agree on, for a row without it); ``detail`` says how it was obtained;
    ``problem`` (answers None) why the samples' answers there cannot be judged."""

    answers: list[Any] | None
    source: str | None
    detail: str
    problem: str | None = None

    def wrong(self, error: str | None) -> str:
        """A sample's wrong answer on the input, for its ``pe_error``."""
        whose = (
            "the dataset's accepted answer, pe_expected"
            if self.source == "dataset"
            else "the answer the cluster references agree on"
        )
        return f"wrong answer on the performance input: {_got_expected(error)} (expected: {whose})"


def _got_expected(error: str | None) -> str:
    """The profiler's "case 0: wrong answer: got ..., expected ..." without the repetition."""
    return str(error).replace(": wrong answer: ", ": ", 1)


def _in_place_argument(rec: TaskRecord) -> int | None:
    """The argument that holds an in-place task's answer, as its test cases show: the only one
    whose value has the expected answer's shape (its type; a list's length) in every case.
    None when no single argument does."""
    cases = rec.cases()
    if not cases:
        return None

    def same_shape(a: Any, b: Any) -> bool:
        if isinstance(a, list) and isinstance(b, list):
            return len(a) == len(b)
        return type(a) is type(b)

    n = min(len(c.inputs) for c in cases)
    fits = [k for k in range(n) if all(same_shape(c.inputs[k], c.expected) for c in cases)]
    return fits[0] if len(fits) == 1 else None


def _answers_of(rec: TaskRecord, outputs: list[dict[str, Any]]) -> list[Any]:
    """A reference's answers, one per call, from what its passing run returned
    (:attr:`RunResult.outputs`): the return value, or for an in-place task (None returned, where
    the test cases expect a value) the argument that holds the answer. ValueError when that
    argument cannot be told."""
    answers = []
    for out in outputs:
        if out["output"] is not None or all(c.expected is None for c in rec.cases()):
            answers.append(out["output"])
            continue
        k = _in_place_argument(rec)
        after = out["inputs_after"]
        if k is None or not isinstance(after, list) or k >= len(after):
            raise ValueError(
                "the references return None on the performance input, where the test cases "
                "expect a value, and the test cases do not show which argument holds an "
                "in-place answer"
            )
        answers.append(after[k])
    return answers


def pe_expected_answers(
    records: Mapping[str, TaskRecord],
    *,
    sandbox: SandboxConfig,
    workers: int | None = None,
) -> dict[str, PEExpected]:
    """The expected answers on each DPE row's performance input (rows :func:`dpe_problem` finds
    nothing wrong with): the row's ``pe_expected``; for a row without it, the answer of its
    fastest cluster reference that answers, which every other reference that answers must be
    judged to give too (by the row's ``evaluate_offline``, in the profiler's judge). References
    that disagree leave the task without an expected answer: judging against one of them would
    be arbitrary.

    The references run natively (the cpu meter), one verdict pass each, nothing measured: their
    answers, not their costs, are wanted here; the first one's outputs are kept
    (:func:`quicksilver.profiler.profile_many`'s ``keep_outputs``)."""
    out: dict[str, PEExpected] = {}
    todo: dict[str, TaskRecord] = {}
    for key, rec in records.items():
        stored = _stored_expected(rec, len(_pe_inputs(rec)))
        if stored is None:
            todo[key] = rec
        else:
            out[key] = PEExpected(stored, "dataset", "the row's pe_expected")
    if todo:
        first = _first_reference_answers(todo, sandbox, workers)
        checks: list[Job] = []
        for key, rec in todo.items():
            found = first[key]
            if isinstance(found, str):
                out[key] = PEExpected(None, None, "", found)
                continue
            j, answers = found
            task = pe_profile_task(rec, answers)
            refs = rec.reference or []
            checks += [Job(task, code, f"{key}\0{i}") for i, code in enumerate(refs) if i != j]
        native = MeasureConfig(meter="cpu")
        judged = _profile_keyed(checks, "cpu", sandbox, native, workers, measure_cost=False)
        for key, rec in todo.items():
            found = first[key]
            if not isinstance(found, str):
                out[key] = _agreement(key, rec, *found, judged)
    for key, e in out.items():
        if e.problem:
            log.warning("%s: the performance input's answers cannot be judged: %s", key, e.problem)
        elif e.source == "references":
            log.info("%s: expected answer on the performance input: %s", key, e.detail)
    return out


def _first_reference_answers(
    todo: Mapping[str, TaskRecord], sandbox: SandboxConfig, workers: int | None
) -> dict[str, tuple[int, list[Any]] | str]:
    """Per task, (cluster index, answers) of its fastest reference that answers on the input,
    or why none does (a string)."""
    found: dict[str, tuple[int, list[Any]] | str] = {}
    failures: dict[str, list[str]] = {key: [] for key in todo}
    nxt = {key: len(rec.reference or []) - 1 for key, rec in todo.items()}
    tasks = {
        key: pe_answers_task(
            rec.task_key,
            rec.entry_point,
            [list(args) for args in _pe_inputs(rec)],
            convert_offline=rec.effective_convert_offline(),
            kind=rec.task_kind or "class",
        )
        for key, rec in todo.items()
    }
    while True:
        jobs = [
            Job(tasks[key], (todo[key].reference or [])[nxt[key]], key)
            for key in todo
            if key not in found and nxt[key] >= 0
        ]
        if not jobs:
            break
        results = profile_many(
            jobs,
            meter="cpu",
            sandbox=sandbox,
            measure=MeasureConfig(meter="cpu"),
            workers=workers,
            measure_cost=False,
            keep_outputs=True,
        )
        for job, res in zip(jobs, results, strict=True):
            key, j = job.key, nxt[job.key]
            m = len(todo[key].reference or [])
            if res.passed and res.outputs is not None:
                try:
                    found[key] = (j, _answers_of(todo[key], res.outputs))
                except ValueError as exc:
                    found[key] = str(exc)
            else:
                failures[key].append(f"cluster {j} of {m}: {res.status}: {res.error}")
            nxt[key] -= 1
    for key in todo:
        if key not in found:
            why = "; ".join(failures[key])
            found[key] = f"no cluster reference answers on the performance input ({why})"
    return found


def _agreement(
    key: str, rec: TaskRecord, j: int, answers: list[Any], judged: Mapping[str, RunResult]
) -> PEExpected:
    """Cluster ``j``'s answers, when no other reference that answers is judged to differ."""
    m = len(rec.reference or [])
    agree: list[int] = []
    silent: list[int] = []
    differ: list[str] = []
    for i in range(m):
        if i == j:
            continue
        res = judged[f"{key}\0{i}"]
        if res.passed:
            agree.append(i)
        elif res.status == "failed":
            differ.append(f"cluster {i}: {_got_expected(res.error)}")
        else:
            silent.append(i)
    if differ:
        return PEExpected(
            None,
            None,
            "",
            f"the cluster references disagree on the performance input: judged against cluster "
            f"{j}'s answer (0 = slowest of {m}), {'; '.join(differ)}; the samples' answers there "
            "are not judged against an arbitrary one of them",
        )
    detail = (
        f"the answer of cluster {j}'s reference (0 = slowest of {m}), which the row's "
        f"evaluate_offline accepts from the {len(agree)} other reference(s) that answer"
    )
    if silent:
        detail += f" ({len(silent)} gave none: clusters {', '.join(map(str, silent))})"
    return PEExpected(answers, "references", detail)


def _profile_keyed(
    jobs: list[Job],
    meter: str,
    sandbox: SandboxConfig,
    measure: MeasureConfig,
    workers: int | None,
    *,
    measure_cost: bool = True,
) -> dict[str, RunResult]:
    """``profile_many`` over ``jobs``, each result under its job's key."""
    results = profile_many(
        jobs,
        meter=cast(MeterName, meter),
        sandbox=sandbox,
        measure=measure,
        workers=workers,
        measure_cost=measure_cost,
    )
    return {j.key: r for j, r in zip(jobs, results, strict=True)}


def pe_measure_config(measure: MeasureConfig) -> MeasureConfig:
    """``measure`` with at least :data:`PE_MIN_ROUNDS` rounds."""
    rounds = max(measure.min_rounds, PE_MIN_ROUNDS)
    return measure.model_copy(
        update={"min_rounds": rounds, "max_rounds": max(measure.max_rounds, rounds)}
    )


def retry_sandbox(sandbox: SandboxConfig, factor: float) -> SandboxConfig:
    """``sandbox`` with its CPU and wall limits multiplied by ``factor``."""
    lim = sandbox.limits
    longer = lim.model_copy(
        update={"cpu_seconds": lim.cpu_seconds * factor, "wall_seconds": lim.wall * factor}
    )
    return sandbox.model_copy(update={"limits": longer})


class _ReferenceProfiler:
    """Cluster references on a pe input: this run's results, else the disk cache, else a
    profile (retried once with longer limits). Shared by the tasks scored in parallel."""

    def __init__(
        self,
        cache: ReferenceCache,
        meter: str,
        sandbox: SandboxConfig,
        measure: MeasureConfig,
        retry_factor: float,
    ) -> None:
        self.cache = cache
        self.meter = meter
        self.sandbox = sandbox
        self.retry = retry_sandbox(sandbox, retry_factor)
        self.retry_factor = retry_factor
        self.measure = measure
        self._memo: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()

    def known(self, key: str, result: dict[str, Any]) -> None:
        """A result measured elsewhere in this run (paired with the samples)."""
        with self._lock:
            self._memo[key] = {**result, "cached": False, "first_error": None}

    def get(self, key: str, task: ProfileTask, code: str) -> dict[str, Any]:
        with self._lock:
            known = self._memo.get(key)
        if known is not None:
            return known
        hit = self.cache.get(key, self.meter)
        result = {**hit, "cached": True} if hit is not None else self._profile(key, task, code)
        with self._lock:
            self._memo[key] = result
        return result

    def _profile(self, key: str, task: ProfileTask, code: str) -> dict[str, Any]:
        res = profile_solution(task, code, sandbox=self.sandbox, measure=self.measure)
        first_error: str | None = None
        if not res.passed and res.status != "failed":  # a wrong answer is no limit's doing
            first_error = f"{res.status}: {res.error}"
            log.info(
                "%s: a cluster reference failed on the performance input (%s); retrying with "
                "%gx the CPU and wall limits",
                task.task_id,
                first_error,
                self.retry_factor,
            )
            res = profile_solution(task, code, sandbox=self.retry, measure=self.measure)
        if res.status not in _UNCACHED_STATUSES:
            self.cache.put(key, self.meter, res)
        return {
            "status": res.status,
            "runtime": res.runtime,
            "flags": list(res.flags),
            "error": res.error,
            "first_error": first_error,
            "cached": False,
        }


class _ClusterReferences:
    """The cluster references of one DPE task, profiled only when a scan reaches them."""

    def __init__(self, rec: TaskRecord, task: ProfileTask, profiler: _ReferenceProfiler) -> None:
        self.codes = list(rec.reference or [])
        self.scores = [float(x) for x in rec.scores or []]
        self.task = task
        self.profiler = profiler
        self.keys = [profiler.cache.key(code, task, profiler.meter) for code in self.codes]
        self.results: list[dict[str, Any] | None] = [None] * len(self.codes)

    def cost(self, j: int) -> float | None:
        """Cluster j's reference cost, or None when its profile failed."""
        if self.results[j] is None:
            self.results[j] = self.profiler.get(self.keys[j], self.task, self.codes[j])
        r = self.results[j] or {}
        if r.get("status") != "passed" or r.get("runtime") is None:
            return None
        return float(r["runtime"])

    def match(self, cost: float | None, tolerance: float = 0.0) -> DPSResult | None:
        """EvalPerf's scan: from the fastest cluster, the first j whose reference the cost
        matches (``cost <= cost(ref_j) * (1 + tolerance)``: :func:`quicksilver.metrics.matches`).

        Failed references are skipped. No match, or a failed sample profile (``cost`` None), is
        0; the latter is decided once one reference is known to pass, so that a performance input
        on which nothing runs is reported as the task's problem, not as a 0 for the sample.
        None: every reference failed, nothing to compare with.
        """
        m = len(self.codes)
        any_passed = False
        for j in range(m - 1, -1, -1):
            ref = self.cost(j)
            if ref is None:
                continue
            any_passed = True
            if cost is None:
                break
            if matches(cost, ref, tolerance):
                return DPSResult(self.scores[j], 100.0 * (j + 1) / m, j)
        return DPSResult(0.0, 0.0, None) if any_passed else None

    def costs(self) -> list[float | None]:
        return [
            None if r is None or r.get("status") != "passed" else r.get("runtime")
            for r in self.results
        ]

    def statuses(self) -> list[str | None]:
        return [None if r is None else str(r.get("status")) for r in self.results]

    def flags(self) -> list[list[str]]:
        """Per reference: its profile's flags (empty where it was not needed or converged)."""
        return [list((r or {}).get("flags") or []) for r in self.results]

    def errors(self) -> list[str]:
        m = len(self.codes)
        out = []
        for j, r in enumerate(self.results):
            if r is None or r.get("status") == "passed":
                continue
            msg = f"cluster {j} of {m} (0 = slowest): {r.get('status')}: {r.get('error')}"
            if r.get("cached"):
                msg += " (cached result; --recollect profiles it again)"
            elif r.get("first_error"):
                msg += (
                    f" (after a retry with {self.profiler.retry_factor:g}x the CPU and wall "
                    f"limits; first attempt: {r['first_error']})"
                )
            out.append(msg)
        return out


def _score_dpe_task(
    key: str,
    rec: TaskRecord,
    group: list[Sample],
    verdicts: dict[str, RunResult],
    pe_results: dict[str, RunResult],
    clusters: _ClusterReferences | None,
    problem: str | None,
    first: int,
    tolerance: float = 0.0,
    expected: PEExpected | None = None,
) -> TaskScore:
    """One DPE task's figures. ``clusters`` None: no sample's cost is placed (the row has a
    ``problem``, no sample is correct, or ``expected`` says why the answers on the performance
    input cannot be judged)."""
    ts = TaskScore(
        task=key,
        difficulty=rec.difficulty or None,
        reference_runtimes=[],
        reference_errors=[],
        dpe=True,
    )
    if expected is not None and expected.answers is not None:
        ts.pe_expected_source, ts.pe_expected_detail = expected.source, expected.detail
    values: list[float] = []
    norms: list[float] = []
    every_reference_failed = False
    for s in sorted(group, key=lambda x: x.index):
        verdict = verdicts[f"{key}\0{s.index}"]
        sc = SampleScore(
            task=key,
            index=s.index,
            status=verdict.status,
            runtime=None,
            runtime_ci=None,
            beyond=None,
            percentile=None,
            error=verdict.error,
        )
        ts.samples.append(sc)
        if not verdict.passed:
            continue
        ts.n_correct += 1
        if clusters is None:
            continue  # the row cannot be scored (problem)
        if ts.n_correct > first:
            sc.pe_status = "skipped"
            sc.pe_error = f"not profiled: the task score counts the first {first} correct samples"
            continue
        pe = pe_results[f"{key}\0{s.index}"]
        sc.pe_status, sc.pe_error = pe.status, pe.error
        if pe.status == "failed" and expected is not None:  # scores 0, as any failed profile
            sc.pe_error = expected.wrong(pe.error)
        sc.pe_cost = pe.runtime if pe.passed else None
        sc.flags = list(pe.flags) if pe.passed else []
        d = clusters.match(sc.pe_cost, tolerance)
        if d is None:
            every_reference_failed = True
            continue
        sc.dps, sc.dps_norm, sc.cluster = d.dps, d.dps_norm, d.cluster
        values.append(d.dps)
        norms.append(d.dps_norm)
    if clusters is not None:
        ts.reference_costs = clusters.costs()
        ts.reference_status = clusters.statuses()
        ts.reference_flags = clusters.flags()
        ts.reference_errors = clusters.errors()
    m = len(rec.reference or [])
    if problem is not None:
        ts.dps_error = f"dataset row: {problem}"
    elif expected is not None and expected.problem is not None:
        ts.dps_error = f"the performance input's answers cannot be judged: {expected.problem}"
    elif every_reference_failed:
        ts.dps_error = f"every cluster reference ({m}) failed on the performance input"
    elif ts.n_correct:
        ts.dps = dps_task_score(values, first)
        ts.dps_norm = dps_task_score(norms, first)
    if ts.dps_error:
        log.warning("%s: no DPS: %s", key, ts.dps_error)
    for err in ts.reference_errors:
        log.warning("%s: %s", key, err)
    profiled = sum(1 for x in ts.reference_status or [] if x is not None)
    log.info(
        "%s: DPS %s over %d correct sample(s); %d of %d cluster reference(s) needed",
        key,
        "-" if ts.dps is None else f"{ts.dps:.1f} (norm {ts.dps_norm:.1f})",
        min(ts.n_correct, first),
        profiled,
        m,
    )
    return ts


# --------------------------------------------------------------------------------------------


def score(
    records: Sequence[TaskRecord],
    samples: dict[str, list[Sample]],
    *,
    k: int = 1,
    meter: str = "icount",
    sandbox: SandboxConfig | None = None,
    measure: MeasureConfig | None = None,
    cache: ReferenceCache | None = None,
    workers: int | None = None,
    on_sample: Callable[[TaskScore, SampleScore], None] | None = None,
    sample_rejects: list[tuple[str, str]] | None = None,
    retry_factor: float = RETRY_FACTOR,
    dps_first: int = DPS_FIRST_CORRECT,
    released_after: dt.date | None = None,
    trained_on: Mapping[str, set[str]] | None = None,
    dps_tolerance: float | None = None,
    complete_from_prompt: bool = False,
) -> ScoreReport:
    """Score ``samples`` (keyed by task_id or slug_name) against ``records``.

    Only the tasks that have samples are scored, with however many samples each has: samples of
    tasks the dataset lacks are listed in ``missing_tasks``, never an error (EvalPerf's evaluator
    demanded every task and a fixed sample count). Mercury rows get Beyond and percentile, DPE
    rows DPS and DPS_norm (see the module docstring); pass@k is computed for both.

    ``retry_factor``: a DPE cluster reference that fails is profiled again once with the CPU and
    wall limits times this. ``dps_first``: a DPE task's score is the mean over its first this-many
    correct samples; later correct samples are not profiled on the performance input.
    ``dps_tolerance``: how far above a cluster reference's cost a sample still matches it (a
    share of that cost); None: 0 with a deterministic meter (EvalPerf's rule), else
    :data:`DPS_TIME_TOLERANCE` (:func:`quicksilver.metrics.matches`).

    ``released_after``: score only the tasks released strictly after this date (a model's
    training cutoff; :func:`release_window`); samples of the other tasks are left out and
    counted, and the report says how large the subset is and how many undated tasks it lacks.
    ``trained_on``: the dataset's training views ({view: slugs}, :func:`view_slugs`); the
    subset's tasks that they hold are counted and warned about (one line).
    ``complete_from_prompt``: a LeetCode sample that is only the method's body is put under the
    task's prompt (:func:`quicksilver.samples.class_solution`, as evalplus-style harnesses do);
    without it such a sample is judged as it is (and fails, as in the Mercury authors'
    evaluator), and the report counts them (``method_bodies``). A function-style task's body is
    always completed (HumanEval's convention).
    """
    if retry_factor < 1:
        raise ValueError(f"retry_factor must be >= 1, got {retry_factor}")
    if dps_first < 1:
        raise ValueError(f"dps_first must be >= 1, got {dps_first}")
    sandbox = sandbox or SandboxConfig()
    measure = (measure or MeasureConfig()).model_copy(update={"meter": meter})
    if measure.deterministic and measure.split_above_seconds is None:
        measure = measure.model_copy(update={"split_above_seconds": SPLIT_ABOVE_SECONDS})
    tolerance = dps_tolerance_for(measure, dps_tolerance)
    cache = cache or ReferenceCache()
    window: ReleaseWindow | None = None
    left_out: set[str] = set()
    # bigcode's generations.json names no task: its i-th list is the split's i-th row
    by_position = {f"#{i}": rec for i, rec in enumerate(records)}
    if released_after is not None:
        records, others, window = release_window(records, released_after)
        left_out = {
            str(name)
            for rec in others
            for name in {rec.task_key, rec.slug_name, rec.id, rec.task_id or ""} - {""}
        }
        left_out |= {name for name, rec in by_position.items() if rec in others}
        if not records:
            raise ValueError(
                f"no task of the dataset was released after {released_after.isoformat()} "
                f"({window.earlier} released on or before it, {window.undated} undated)"
            )
        if trained_on:
            window = dataclasses.replace(
                window, in_training_views=in_training_views(records, trained_on, released_after)
            )
    index: dict[str, TaskRecord] = {}
    for rec in records:
        for name in {rec.task_key, rec.slug_name, rec.id, rec.task_id or ""} - {""}:
            index.setdefault(str(name), rec)
    wanted: dict[str, tuple[TaskRecord, list[Sample]]] = {}
    missing: list[str] = []
    bodies: list[str] = []  # LeetCode samples that are only a method's body
    outside = 0
    for name, group in samples.items():
        found = index.get(name) or index.get(slug_form(name))  # HumanEval/0: humaneval-0
        if found is None and name in by_position and name not in left_out:
            found = by_position[name]
        if found is None and name in left_out:
            outside += len(group)
            continue
        if found is None:
            missing.append(name)
            continue
        if found.task_kind == "function":  # a completion may be the body after the prompt
            group = [
                dataclasses.replace(
                    s, code=function_solution(found.prompt, found.entry_point, s.code)
                )
                for s in group
            ]
        elif found.prompt:  # a LeetCode completion may be only the method's body
            completed = [class_solution(found.prompt, s.code) for s in group]
            for s, code in zip(group, completed, strict=True):
                if code != s.code:
                    bodies.append(f"{found.task_key}#{s.index}")
            if complete_from_prompt:
                group = [
                    dataclasses.replace(s, code=code)
                    for s, code in zip(group, completed, strict=True)
                ]
        wanted.setdefault(found.task_key, (found, []))[1].extend(group)
    # One task may be named by its slug in some samples and its id in others: number its
    # samples afresh so that every sample keeps its own identity.
    for key, (_rec, group) in wanted.items():
        group.sort(key=lambda x: x.position)
        group[:] = [dataclasses.replace(s, task=key, index=i) for i, s in enumerate(group)]
    if missing:
        log.warning(
            "%d sample task(s) not in the dataset: %s", len(missing), ", ".join(missing[:10])
        )
    if bodies:
        log.warning(
            "%d LeetCode sample(s) hold only a method's body (%s): %s",
            len(bodies),
            ", ".join(bodies[:5]),
            "completed from the task's prompt"
            if complete_from_prompt
            else "judged as they are (they fail); --complete-from-prompt puts them under the "
            "task's prompt, as evalplus-style harnesses do",
        )

    tasks: dict[str, ProfileTask] = {
        key: ProfileTask.from_record(rec) for key, (rec, _) in wanted.items()
    }
    mercury = {key: v for key, v in wanted.items() if not is_dpe_record(v[0])}
    dpe = {key: v for key, v in wanted.items() if is_dpe_record(v[0])}
    for key, (rec, _) in dpe.items():
        if rec.solutions:
            log.info("%s: a DPE row; its %d solutions are not used", key, len(rec.solutions))
    unit = "s" if meter == "cpu" else "instructions"
    isolation = "bwrap"
    scored: dict[str, TaskScore] = {}
    outcomes: dict[str, list[SampleOutcome]] = {}

    # Mercury rows. 1. references, 2. samples (all of them: pass@k's estimator uses every sample
    # of a task). With a deterministic meter the references come from the per-machine cache
    # (a count does not depend on when it was taken); with the cpu meter a task's references and
    # samples are measured together, interleaved in one time window (paired), never cached.
    paired = not measure.deterministic
    # weights (the build's native seconds): heavy tasks start first and, with a deterministic
    # meter, a heavy task's solutions get a zygote each (SPLIT_ABOVE_SECONDS)
    ref_items: list[tuple[str, ProfileTask, str, float]] = []
    ref_keys: dict[str, list[str]] = {}
    sample_weight: dict[str, float] = {}
    for key, (rec, _) in mercury.items():
        pt = tasks[key]
        ref_keys[key] = []
        seconds = expected_seconds(rec)
        weights = [seconds.get(sol.hash, 0.0) for sol in rec.solutions]
        sample_weight[key] = statistics.median(weights) if weights else 0.0
        for sol, weight in zip(rec.solutions, weights, strict=True):
            ck = cache.key(sol.solution, pt, meter)
            ref_keys[key].append(ck)
            ref_items.append((ck, pt, sol.solution, weight))
    jobs: list[Job] = []
    for key, (_rec, group) in mercury.items():
        for s in sorted(group, key=lambda x: x.index):
            jobs.append(Job(tasks[key], s.code, f"{key}\0{s.index}", sample_weight[key]))
    ref_jobs = [Job(pt, code, ck, w) for ck, pt, code, w in ref_items] if paired else []
    if paired:
        results: dict[str, RunResult] = _profile_keyed(
            ref_jobs + jobs, meter, sandbox, measure, workers
        )
    else:
        results = _cached_samples(jobs, cache, meter, sandbox, measure, workers)
    if paired:
        refs = {ck: _summary(results[ck]) for ck, _, _, _ in ref_items}
    else:
        refs = _cached_or_profile(ref_items, cache, meter, sandbox, measure, workers)

    # 3. metrics
    for key, (rec, group) in mercury.items():
        ref_runs = [refs[ck] for ck in ref_keys[key]]
        ref_rt = [r["runtime"] if r["status"] == "passed" else None for r in ref_runs]
        ref_mem = [
            r.get("peak_memory_bytes") if r["status"] == "passed" else None for r in ref_runs
        ]
        canonical = _process_peak(ref_runs[0]) if ref_runs else None
        canonical_tmu = _canonical_tmu(ref_runs[0]) if ref_runs else None
        ts = TaskScore(
            task=key,
            difficulty=rec.difficulty or None,
            reference_runtimes=ref_rt,
            reference_peak_memory=ref_mem,
            reference_tmu=canonical_tmu,
            reference_tmu_samples=ref_runs[0].get("tmu_samples") if canonical_tmu else None,
            reference_errors=[
                f"{r['status']}: {r['error']}" for r in ref_runs if r["status"] != "passed"
            ],
            reference_flags=[
                list(r.get("flags") or []) if r["status"] == "passed" else [] for r in ref_runs
            ],
        )
        outcomes[key] = []
        for s in sorted(group, key=lambda x: x.index):
            res = results[f"{key}\0{s.index}"]
            isolation = res.isolation
            rt = res.runtime if res.passed else None
            try:
                b: float | None = beyond(rt, ref_rt)
            except UnscorableTaskError:
                b = None
            sc = SampleScore(
                task=key,
                index=s.index,
                status=res.status,
                runtime=rt,
                runtime_ci=list(res.runtime_ci) if res.runtime_ci else None,
                beyond=b,
                percentile=percentile(rt, ref_rt),
                error=res.error,
                flags=list(res.flags) if res.passed else [],
            )
            _score_memory(sc, res, ref_mem, canonical, canonical_tmu)
            ts.n_correct += res.passed
            ts.samples.append(sc)
            outcomes[key].append(SampleOutcome(key, rec.difficulty or None, res.passed, rt, ref_rt))
            if on_sample is not None:
                on_sample(ts, sc)
        scored[key] = ts

    # DPE rows. 1. every sample judged on the test cases (verdict only)
    if dpe:
        verdict_jobs = [
            Job(tasks[key], s.code, f"{key}\0{s.index}")
            for key, (_rec, group) in dpe.items()
            for s in sorted(group, key=lambda x: x.index)
        ]
        verdicts = _profile_keyed(
            verdict_jobs, meter, sandbox, measure, workers, measure_cost=False
        )
        isolation = next(iter(verdicts.values())).isolation if verdicts else isolation

        # 2. the expected answers on the performance input of the tasks with a correct sample:
        # the row's pe_expected, else the answer the cluster references agree on
        problems = {key: dpe_problem(rec) for key, (rec, _) in dpe.items()}
        correct = {
            key: sorted(
                (s for s in group if verdicts[f"{key}\0{s.index}"].passed), key=lambda x: x.index
            )
            for key, (_rec, group) in dpe.items()
        }
        expected = pe_expected_answers(
            {key: rec for key, (rec, _) in dpe.items() if not problems[key] and correct[key]},
            sandbox=sandbox,
            workers=workers,
        )
        pe_tasks = {
            key: pe_profile_task(dpe[key][0], e.answers)
            for key, e in expected.items()
            if e.answers is not None
        }

        # 3. the first correct samples profiled on the performance input, their answers judged
        pe_measure = pe_measure_config(measure)
        pe_jobs = [
            Job(pe_tasks[key], s.code, f"{key}\0{s.index}")
            for key in pe_tasks
            for s in correct[key][:dps_first]
        ]
        profiler = _ReferenceProfiler(cache, meter, sandbox, pe_measure, retry_factor)
        pe_refs: list[Job] = []
        if paired:
            # every cluster reference of a task with a sample to place, measured together with
            # those samples (interleaved, one time window); the scans below then read them
            for key in {j.key.split("\0", 1)[0] for j in pe_jobs}:
                pt, rec = pe_tasks[key], dpe[key][0]
                for code in rec.reference or []:
                    pe_refs.append(Job(pt, code, profiler.cache.key(code, pt, meter)))
        if paired:
            pe_results = _profile_keyed(pe_refs + pe_jobs, meter, sandbox, pe_measure, workers)
        else:
            pe_results = _cached_samples(pe_jobs, cache, meter, sandbox, pe_measure, workers)
        for job in pe_refs:
            profiler.known(job.key, _summary(pe_results[job.key]))

        # 4. reference scans (lazy with a deterministic meter: a scan profiles, or reads from
        # the cache, only the references it reaches), one task per worker

        n = workers or measure.workers or os.cpu_count() or 1
        with ThreadPoolExecutor(max_workers=n, thread_name_prefix="qs-dpe") as pool:
            futures = {
                pool.submit(
                    _score_dpe_task,
                    key,
                    rec,
                    group,
                    verdicts,
                    pe_results,
                    _ClusterReferences(rec, pe_tasks[key], profiler) if key in pe_tasks else None,
                    problems[key],
                    dps_first,
                    tolerance,
                    expected.get(key),
                ): key
                for key, (rec, group) in dpe.items()
            }
            for fut in as_completed(futures):
                ts = fut.result()
                key = futures[fut]
                rec = dpe[key][0]
                scored[key] = ts
                # Beyond has no reference distribution here: the task is "unscorable" for it.
                # A correct sample's runtime is its pe cost (infinite when that profile failed
                # or was skipped); no Beyond is computed from it.
                outcomes[key] = [
                    SampleOutcome(
                        key,
                        rec.difficulty or None,
                        sc.status == "passed",
                        (sc.pe_cost if sc.pe_cost is not None else math.inf)
                        if sc.status == "passed"
                        else None,
                        [],
                    )
                    for sc in ts.samples
                ]
                if on_sample is not None:
                    for sc in ts.samples:
                        on_sample(ts, sc)

    flat_outcomes = [o for key in wanted for o in outcomes[key]]
    if not flat_outcomes:
        raise ValueError("no sample matches a task of the dataset")
    shaky = unconverged_summary(list(scored.values()))
    if shaky["unconverged"]:
        log.warning(
            "scored from profiles that did not converge or split into modes: %d sample(s), %d "
            "reference(s) (each listed in the report)",
            shaky["unconverged_samples"],
            shaky["unconverged_references"],
        )
    summary = summarize(flat_outcomes, k=k)
    return ScoreReport(
        summary,
        [scored[key] for key in wanted],
        meter,
        unit,
        isolation,
        dict(machine_info()),
        missing,
        list(sample_rejects or []),
        dataclasses.replace(window, samples_left_out=outside) if window is not None else None,
        tolerance,
        {"count": len(bodies), "completed": complete_from_prompt, "samples": bodies[:50]}
        if bodies
        else {},
    )
